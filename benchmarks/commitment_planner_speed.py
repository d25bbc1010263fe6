"""Speed of the commitment planner (``world-bandit``) against ``ismcts``, in one process, one core.

Two figures, each a median over repeats, each with the same figure of ``ismcts`` measured in
the same run and their ratio:

* capped world searches per second: one decision's native call
  (:func:`solitaire_native.klondike_commit_plan`, one thread) at the positions after the free
  stock pass of the eval deals given, against the information-set tree search's leaf solves per
  second (:func:`solitaire_native.klondike_ismcts`) with the same state cap per search;
* seconds per deal: whole games of the eval deals given with each player's shipped defaults
  (CPU time of this process).

    python benchmarks/commitment_planner_speed.py --deals 100001-100003 --repeats 3
"""

from __future__ import annotations

import argparse
import statistics
import time

from solitaire_rl.agents.base import play_episode
from solitaire_rl.agents.planner.commitment import DEFAULT_CAP, observe_game
from solitaire_rl.agents.planner.knowledge import klondike_knowledge
from solitaire_rl.agents.registry import make_player
from solitaire_rl.agents.solver import _native
from solitaire_rl.envs.klondike import DRAW_MOVE, KlondikeGame
from solitaire_rl.envs.klondike.actions import legal_actions_in
from solitaire_rl.envs.spec import find_game
from solitaire_rl.training.splits import parse_deal_numbers

KLONDIKE = find_game("klondike")


def searches_per_second(deals: list[int], cap: int, worlds: int) -> tuple[float, float]:
    """Capped world searches a second (commitment planner) and leaf solves a second (ismcts)."""
    from solitaire_rl.agents.planner.sampling import native_candidates

    planner_worlds = planner_seconds = 0.0
    tree_solves = tree_seconds = 0.0
    for deal in deals:
        game = KlondikeGame(KLONDIKE.deal_id(deal))
        while game.stock:
            game.push(DRAW_MOVE)
        knowledge = klondike_knowledge(observe_game(game)[0], 3)
        position = knowledge.position.to_native()
        options = _native.KlondikeCommitOptions(cap=cap, max_worlds=worlds, hopeless_worlds=0)
        start = time.process_time()
        result = _native.klondike_commit_plan(position, list(knowledge.unknown), options)
        planner_seconds += time.process_time() - start
        planner_worlds += result.worlds
        actions = legal_actions_in(game)
        tree = _native.KlondikeIsmctsOptions(states_per_solve=cap, max_iterations=worlds)
        start = time.process_time()
        candidates = native_candidates(game, actions)
        visited = _native.klondike_ismcts(position, list(knowledge.unknown), candidates, tree)
        tree_seconds += time.process_time() - start
        tree_solves += visited.iterations
    return planner_worlds / planner_seconds, tree_solves / tree_seconds


def seconds_per_deal(agent: str, deals: list[int]) -> float:
    """Median CPU seconds a game of ``agent`` (shipped defaults) over ``deals``."""
    env = KLONDIKE.make_env()
    player = make_player(agent, KLONDIKE, seed=0)
    times = []
    for deal in deals:
        start = time.process_time()
        play_episode(env, player, KLONDIKE.deal_id(deal), KLONDIKE.cards_cleared)
        times.append(time.process_time() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="100001-100003", help="eval deals (100001..110000)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--cap", type=int, default=DEFAULT_CAP)
    parser.add_argument("--worlds", type=int, default=1000, help="worlds (iterations) of each call")
    parser.add_argument("--no-games", action="store_true", help="skip the seconds per deal")
    args = parser.parse_args()
    deals = parse_deal_numbers(args.deals)
    rates = [searches_per_second(deals, args.cap, args.worlds) for _ in range(args.repeats)]
    planner = statistics.median(r[0] for r in rates)
    tree = statistics.median(r[1] for r in rates)
    print(f"capped searches a second, cap {args.cap}, one core (median of {args.repeats}): "
          f"world-bandit {planner:,.0f}, ismcts leaves {tree:,.0f}, ratio {planner / tree:.2f}")
    if args.no_games:
        return
    bandit = statistics.median(seconds_per_deal("world-bandit", deals) for _ in range(args.repeats))
    ismcts = statistics.median(seconds_per_deal("ismcts", deals) for _ in range(args.repeats))
    print(f"CPU seconds a deal (median over deals, median of {args.repeats} repeats): world-bandit "
          f"{bandit:.2f}, ismcts {ismcts:.2f}, ratio {bandit / ismcts:.2f}")


if __name__ == "__main__":
    main()
