"""Which deal numbers are for what (benchmark, held-out evaluation, training), and the ``split=``
option every environment of the project takes.

Deals are ``{game}-random-v1-N``. The numbers are split once for every game and variant:

=============  ==========================  ===============================================
split          numbers                     use
=============  ==========================  ===============================================
benchmark      1 .. 100,000                reserved for ``solitaire_rl.training.benchmark``
eval           100,001 .. 110,000          held out: evaluation during training (first N)
train          1,000,000 .. 2,147,483,647  what a training environment deals
=============  ==========================  ===============================================

Number 0 and 110,001 .. 999,999 belong to no split. ``split="any"`` is every number
``0 .. 2**31 - 1``, the environments' behaviour before the option existed.

Every environment (``gymnasium.make`` and ``gymnasium.make_vec`` of both games) takes
``split="train"`` by default: a reset without a deal draws its number uniformly from the split, and a
deal given in ``options`` must be a random deal of the game numbered inside it (a deal code, a card
list or a position names no number, so only ``split="any"`` plays one); anything else is
:class:`~solitaire_rl.envs.errors.MalformedInputError`, raised before anything changes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solitaire_rl.envs.deals import DEAL_NUMBERS, Deal
from solitaire_rl.envs.errors import MalformedInputError


@dataclass(frozen=True)
class DealRange:
    """An inclusive range of deal numbers with a name."""

    name: str
    first: int
    last: int

    def __contains__(self, number: object) -> bool:
        return isinstance(number, int | np.integer) and bool(self.first <= number <= self.last)

    def __len__(self) -> int:
        return self.last - self.first + 1

    def numbers(self, count: int) -> list[int]:
        """The first ``count`` numbers of the range."""
        if not 0 < count <= len(self):
            raise MalformedInputError(f"the {self.name} split holds {len(self)} deals, not {count}")
        return list(range(self.first, self.first + count))

    def draw(self, rng: np.random.Generator) -> int:
        """A number drawn uniformly from the range (both ends in) with ``rng``."""
        return int(rng.integers(self.first, self.last, endpoint=True))


BENCHMARK = DealRange("benchmark", 1, 100_000)
EVAL = DealRange("eval", 100_001, 110_000)
TRAIN = DealRange("train", 1_000_000, DEAL_NUMBERS - 1)
ANY = DealRange("any", 0, DEAL_NUMBERS - 1)
"""Every random deal number: no split (``split="any"``)."""
SPLITS = {s.name: s for s in (BENCHMARK, EVAL, TRAIN)}
SPLIT_NAMES = ("train", "eval", "benchmark", "any")
"""What ``split=`` takes."""
DEFAULT_SPLIT = "train"


def split_of(number: int) -> str | None:
    """The name of the split a deal number belongs to, or ``None``."""
    return next((s.name for s in SPLITS.values() if number in s), None)


def deal_range(split: object) -> DealRange:
    """The range of a ``split=`` option: a name of :data:`SPLIT_NAMES` or a :class:`DealRange`."""
    if isinstance(split, DealRange):
        return split
    if split == "any":
        return ANY
    if isinstance(split, str) and split in SPLITS:
        return SPLITS[split]
    raise MalformedInputError(f"split must be one of {list(SPLIT_NAMES)}, not {split!r}")


def check_deal_in_split(deal: Deal, game: str, split: DealRange) -> Deal:
    """``deal`` if an env of ``split`` may play it, else :class:`MalformedInputError` saying why."""
    if split is ANY:
        return deal
    deal_id = deal.deal_id
    if deal_id is None or deal_id.game != game or deal_id.kind != "random" or deal_id.number not in split:
        raise MalformedInputError(
            f"deal {deal.label if deal_id is None else deal_id} is not a {game} random deal of the "
            f"{split.name} split ({split.first:,}..{split.last:,}): this env was made with "
            f"split={split.name!r}; make it with split='any' to play any deal")
    return deal


def refuse_position(split: DealRange) -> None:
    """:class:`MalformedInputError` unless ``split`` is ``"any"``: a position names no deal number."""
    if split is not ANY:
        raise MalformedInputError(
            f"a position given by 'game' names no deal number, so an env of the {split.name} split "
            "refuses it: make the env with split='any'")


__all__ = [
    "ANY", "BENCHMARK", "DEFAULT_SPLIT", "EVAL", "SPLITS", "SPLIT_NAMES", "TRAIN", "DealRange",
    "check_deal_in_split", "deal_range", "refuse_position", "split_of",
]
