"""Which deal numbers are for what, as training and the benchmark use them: the splits themselves
(:mod:`solitaire_rl.envs.splits`, one definition, re-exported here), parsing deal ranges, and
:class:`DealSplitWrapper`, which deals a fixed list of a split's deals in turn.

=============  ==========================  ===============================================
split          numbers                     use
=============  ==========================  ===============================================
benchmark      1 .. 100,000                reserved for ``solitaire_rl.training.benchmark``
eval           100,001 .. 110,000          held out: evaluation during training (first N)
train          1,000,000 .. 2,147,483,647  the only numbers a training environment deals
=============  ==========================  ===============================================

Number 0 and 110,001 .. 999,999 belong to no split. Every environment takes ``split=`` (default
``"train"``, see :mod:`solitaire_rl.envs.splits`); :class:`DealSplitWrapper` draws every deal from
its split and refuses a deal outside it, so a training run can never see a benchmark deal.
"""

from __future__ import annotations

import re
from typing import Any

import gymnasium
import numpy as np

from solitaire_rl.envs.deals import DealId
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.splits import BENCHMARK, EVAL, SPLITS, TRAIN, DealRange, split_of


def parse_deal_numbers(text: str) -> list[int]:
    """Parse ``"1-1000"``, ``"5"`` or ``"1-10,20,30-31"`` into a sorted list of distinct numbers."""
    numbers: set[int] = set()
    for part in filter(None, (p.strip() for p in str(text).split(","))):
        match = re.fullmatch(r"(\d+)(?:\s*-\s*(\d+))?", part)
        if match is None:
            raise MalformedInputError(f"{part!r} is not a deal number or range such as 1-1000")
        first, last = int(match[1]), int(match[2] or match[1])
        if last < first:
            raise MalformedInputError(f"deal range {part!r} runs backwards")
        numbers.update(range(first, last + 1))
    if not numbers:
        raise MalformedInputError(f"no deal numbers in {text!r}")
    return sorted(numbers)


class DealSplitWrapper(gymnasium.Wrapper):
    """Deals only numbers of one split: random ones drawn from it, or its deals in turn.

    With ``cycle=None`` each reset draws a number uniformly from ``split`` with the wrapper's own
    generator (seeded by ``reset(seed=...)``). With a list ``cycle`` of numbers (all in the
    split), resets deal them in order, round and round: a fixed evaluation set. A deal given in
    ``options`` must be a random deal of this game numbered inside the split, else
    :class:`MalformedInputError`. ``info["deal_number"]`` tells the number dealt, and when an
    episode ends ``info["is_success"]`` says whether it was won (for stable-baselines3's callbacks).
    """

    def __init__(
        self, env: gymnasium.Env, game: str, split: DealRange, cycle: list[int] | None = None
    ) -> None:
        super().__init__(env)
        self.game = game
        self.split = split
        outside = [n for n in cycle or () if n not in split]
        if outside:
            raise MalformedInputError(f"deal numbers {outside[:5]} are not in the {split.name} split")
        self.cycle = list(cycle) if cycle else None
        self._next = 0
        self._rng: np.random.Generator | None = None
        self.deal_number = -1

    def _draw(self) -> int:
        if self.cycle is not None:
            number = self.cycle[self._next % len(self.cycle)]
            self._next += 1
            return number
        if self._rng is None:
            self._rng = np.random.default_rng()
        return self.split.draw(self._rng)

    def _checked(self, spec: object) -> int:
        deal_id = spec if isinstance(spec, DealId) else DealId.parse(str(spec))
        if deal_id.game != self.game or deal_id.kind != "random" or deal_id.number not in self.split:
            raise MalformedInputError(
                f"deal {deal_id} is not a {self.game} random deal of the {self.split.name} split "
                f"({self.split.first}..{self.split.last})"
            )
        return deal_id.number

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict]:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        options = dict(options or {})
        number = self._checked(options["deal"]) if options.get("deal") is not None else self._draw()
        options["deal"] = f"{self.game}-random-v1-{number}"
        obs, info = self.env.reset(seed=seed, options=options)
        self.deal_number = number
        info["deal_number"] = number
        return obs, info

    def step(self, action: Any) -> tuple[Any, Any, bool, bool, dict]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        info["deal_number"] = self.deal_number
        if terminated or truncated:
            info["is_success"] = info.get("outcome") == "win"
        return obs, reward, terminated, truncated, info


__all__ = ["BENCHMARK", "EVAL", "SPLITS", "TRAIN", "DealRange", "DealSplitWrapper", "parse_deal_numbers",
           "split_of"]
