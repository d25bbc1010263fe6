"""How the Klondike ``ppo`` agent should pick its move from the policy: the rules compared.

The shipped policy's most probable move cycles (a card moved back and forth until the step
limit), so the benchmark samples it (``--ppo-sample``). This script plays the same deals with
other rules over the same policy and prints each rule's wins:

* ``T=x``: sample with probabilities proportional to ``p ** (1 / x)`` (``T=1`` is the policy's
  own distribution, the benchmark's rule; smaller is sharper);
* ``argmax-new``: the most probable move not yet played from the same observation (a visible
  position met again), sampling at ``T=1`` once all were;
* ``sample-new``: sampling at ``T=1`` among the moves not yet played from the same observation.

Deal N is sampled with the generator seeded by ``[0, N]``, as in the benchmark. Use eval deals,
not benchmark deals, to choose a rule::

    python benchmarks/diagnostics/klondike_ppo_sampling.py --deals 100001-101000 --rules T=1 T=0.5 argmax-new
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # benchmarks/, for _checkout
import _checkout  # noqa: F401  (stops if another checkout's code would load)

from solitaire_rl.agents.base import Choice, Player, legal_actions, play_episode
from solitaire_rl.agents.ppo import PpoPlayer
from solitaire_rl.agents.seeding import Seed, new_generator
from solitaire_rl.envs.spec import find_game
from solitaire_rl.training.benchmark import parse_deal_numbers

VARIANT = find_game("klondike")


class RulePlayer(Player):
    """The ``ppo`` agent's policy with one of the rules above for picking a move."""

    name = "ppo-rule"

    def __init__(self, rule: str, checkpoint: str | None) -> None:
        if rule not in ("argmax-new", "sample-new") and not rule.startswith("T="):
            raise SystemExit(f"unknown rule {rule!r}")
        self.rule = rule
        self.temperature = float(rule[2:]) if rule.startswith("T=") else 1.0
        self.policy = PpoPlayer(VARIANT, checkpoint=checkpoint)
        self._rng = np.random.default_rng(0)
        self.played: dict[bytes, set[int]] = {}

    def reseed(self, seed: Seed) -> None:
        """Sample from ``numpy.random.default_rng(seed)`` from now on."""
        self._rng = new_generator(seed)

    def reset(self, env: Any) -> None:
        self.played = {}

    def _sample(self, legal: np.ndarray, weights: np.ndarray) -> int:
        p = weights ** (1.0 / self.temperature)
        return int(legal[self._rng.choice(legal.size, p=p / p.sum())])

    def choose(self, observation: np.ndarray, mask: np.ndarray, info: dict[str, Any]) -> Choice:
        legal = legal_actions(mask)
        probs = self.policy.action_probabilities(observation, mask)[legal]
        if self.rule.startswith("T="):
            return Choice(self._sample(legal, probs), self.rule)
        played = self.played.setdefault(observation.tobytes(), set())
        new = np.array([int(a) not in played for a in legal])
        if not new.any():
            action = self._sample(legal, probs)
        elif self.rule == "argmax-new":
            action = int(legal[new][np.argmax(probs[new])])
        else:
            action = self._sample(legal[new], probs[new])
        played.add(action)
        return Choice(action, self.rule)


_PLAYERS: dict[str, RulePlayer] = {}
_ENV: list[Any] = []


def play(task: tuple[str, str | None, int]) -> tuple[str, bool, str]:
    """Play deal ``task[2]`` with rule ``task[0]``: (rule, won, outcome)."""
    rule, checkpoint, number = task
    if rule not in _PLAYERS:
        _PLAYERS[rule] = RulePlayer(rule, checkpoint)
    if not _ENV:
        _ENV.append(VARIANT.make_env())
    player = _PLAYERS[rule]
    player.reseed([0, number])
    result = play_episode(_ENV[0], player, VARIANT.deal_id(number), VARIANT.cards_cleared)
    return rule, result.won, result.outcome


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", default="100001-101000", help="deal numbers, e.g. 100001-101000")
    parser.add_argument("--rules", nargs="+", default=["T=1", "argmax-new", "sample-new"])
    parser.add_argument("--checkpoint", default=None, help="default: the shipped Klondike checkpoint")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    numbers = parse_deal_numbers(args.deals)
    for rule in args.rules:
        with Pool(args.workers) as pool:
            rows = pool.map(play, [(rule, args.checkpoint, n) for n in numbers], chunksize=4)
        wins = sum(won for _, won, _ in rows)
        outcomes = Counter(outcome for _, _, outcome in rows)
        print(f"{rule:>11}: {wins}/{len(rows)} wins ({wins / len(rows):.1%}); "
              + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())), flush=True)


if __name__ == "__main__":
    main()
