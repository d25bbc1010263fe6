"""What the ``relaxed_lost`` feature is worth on its own: greedy, and greedy that avoids such moves.

The second player scores moves as greedy does but plays a move the relaxation proves lost
(:func:`agents.pyramid_actions.relaxed_lost_after`, read from the observation only) only when
every legal move is; ties as greedy. Both play the same deals; the figure is the number of wins
of each::

    python benchmarks/pyramid_relaxed_greedy.py pyramid --deals 1-1000
    python benchmarks/pyramid_relaxed_greedy.py pyramid-001 --deals 1-1000
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from agents.base import Choice, Player, legal_actions, play_episode
from agents.greedy import GreedyPlayer
from agents.greedy.pyramid import PyramidView, score_pyramid_action
from agents.pyramid_actions import relaxed_lost_after, relaxed_lost_now
from agents.variants import find_variant
from training.benchmark import parse_deal_numbers


class RelaxedGreedy(Player):
    """Greedy, except that a move the relaxation proves lost comes last."""

    name = "greedy+relaxed"

    def choose(self, observation: np.ndarray, mask: np.ndarray, info: dict[str, Any]) -> Choice:
        view = PyramidView.decode(observation)
        lost_now = relaxed_lost_now(view)
        best = max(legal_actions(mask), key=lambda a: (not relaxed_lost_after(view, int(a), lost_now),
                                                       score_pyramid_action(view, int(a))[0], -a))
        return Choice(int(best), "greedy's best move of those not proved lost")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", help="pyramid (000) or pyramid-001")
    parser.add_argument("--deals", default="1-1000", help="deal numbers, e.g. 1-1000")
    args = parser.parse_args()
    variant = find_variant(args.game)
    numbers = parse_deal_numbers(args.deals)
    env = variant.make_env()
    for player in (GreedyPlayer(variant), RelaxedGreedy()):
        wins = sum(play_episode(env, player, variant.deal_id(n), variant.cards_cleared).won for n in numbers)
        print(f"{variant.key} {player.name}: {wins} of {len(numbers)} deals won ({wins / len(numbers):.1%})")


if __name__ == "__main__":
    main()
