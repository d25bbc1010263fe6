"""How long a planner takes to decide, move by move, at the benchmark's settings (one core).

Plays deals with one agent of ``solitaire_rl.training.benchmark`` (the planners ``hop`` and ``pimc`` by
default settings, or any other) in this process, timing every decision; prints the wins and
the decision time's median, 95th percentile and maximum over all moves.

    python benchmarks/planner_latency.py klondike hop --deals 1-50
    python benchmarks/planner_latency.py pyramid-001 pimc --deals 1-200
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import _checkout  # noqa: F401  (stops if another checkout's code would load)

from solitaire_rl.agents.base import play_episode
from solitaire_rl.agents.registry import make_player
from solitaire_rl.agents.seeding import Reseedable
from solitaire_rl.envs.spec import find_game
from solitaire_rl.training.splits import parse_deal_numbers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="pyramid, pyramid-001 or klondike")
    parser.add_argument("agent", help="hop, pimc, ppo, greedy, ...")
    parser.add_argument("--deals", default="1-50")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    variant = find_game(args.game)
    env = variant.make_env()
    player = make_player(args.agent, variant)
    times: list[float] = []
    act = player.act

    def timed_act(observation: np.ndarray, mask: np.ndarray, info: dict) -> int:
        start = time.process_time()
        action = act(observation, mask, info)
        times.append(time.process_time() - start)
        return action

    player.act = timed_act  # type: ignore[method-assign]
    wins = deals = 0
    for number in parse_deal_numbers(args.deals):
        if isinstance(player, Reseedable):
            player.reseed([args.seed, number])  # as solitaire_rl.training.benchmark seeds it
        wins += play_episode(env, player, variant.deal_id(number), variant.cards_cleared).won
        deals += 1
    times.sort()
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    print(f"{variant.key} {args.agent}, deals {args.deals}: {wins} of {deals} won; CPU time per decision "
          f"over {len(times)} moves: median {statistics.median(times) * 1000:.1f} ms, "
          f"p95 {p95 * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms")


if __name__ == "__main__":
    main()
