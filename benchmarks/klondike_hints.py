"""Where the play page's Klondike hints lead a player who follows every one of them.

Plays each deal from the start by the hint alone, up to ``--max-moves`` moves, two ways:

* ``argmax``: the shipped policy's most probable move (the hint before it avoided positions
  already met);
* ``hints``: the play server's hint (:class:`solitaire_rl.play.server.klondike_advice.KlondikeHintAdvisor`):
  the most probable move of those leading to the position met least often in the game.

Prints, for each, the games won, the games still going after ``--max-moves`` moves (led round
in circles) and the mean moves played. Use eval deals::

    python benchmarks/klondike_hints.py --deals 100001-100100
"""

from __future__ import annotations

import argparse
import sys
from multiprocessing import Pool
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import _checkout  # noqa: F401  (stops if another checkout's code would load)

from solitaire_rl.agents.ppo import PpoPlayer
from solitaire_rl.envs.klondike import KlondikeGame
from solitaire_rl.envs.klondike.actions import move_of
from solitaire_rl.envs.klondike.env import player_view
from solitaire_rl.envs.klondike.moves import Move
from solitaire_rl.play.server.klondike_advice import KlondikeHintAdvisor
from solitaire_rl.training.benchmark import parse_deal_numbers

RULES = ("argmax", "hints")


def follow(task: tuple[str, int, int]) -> tuple[str, bool, bool, int]:
    """(rule, won, still going at the cap, moves played) for one deal."""
    rule, number, max_moves = task
    game = KlondikeGame(f"klondike-random-v1-{number}")
    advisor = KlondikeHintAdvisor()
    player = advisor.player()[0]
    assert isinstance(player, PpoPlayer), "the shipped checkpoint did not load"
    for _ in range(max_moves):
        if game.outcome() is not None:
            break
        if rule == "argmax":
            obs, mask, _ = player_view(game)
            action = int(np.argmax(player.action_probabilities(obs, mask)))
            game.push(move_of(game, action))
        else:
            hint = advisor.hint(game, "agent")  # the trained agent's hint (follow_hints.py: the planner's)
            assert hint is not None
            if hint["kind"] != "move":  # the no-progress notice: nothing left to try
                break
            game.push(Move.parse(hint["move"]))
    going = game.outcome() is None and game.moves_played >= max_moves
    return rule, game.is_won(), going, game.moves_played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", default="100001-100100", help="deal numbers, e.g. 100001-100100")
    parser.add_argument("--max-moves", type=int, default=1000, help="moves followed per deal at most")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    numbers = parse_deal_numbers(args.deals)
    tasks = [(rule, n, args.max_moves) for rule in RULES for n in numbers]
    with Pool(args.workers) as pool:
        rows = pool.map(follow, tasks, chunksize=1)
    for rule in RULES:
        mine = [r for r in rows if r[0] == rule]
        print(f"{rule}: {sum(r[1] for r in mine)} won, {sum(r[2] for r in mine)} still going after "
              f"{args.max_moves} moves, mean {np.mean([r[3] for r in mine]):.0f} moves, of {len(mine)} deals")


if __name__ == "__main__":
    main()
