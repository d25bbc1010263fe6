"""How long the play pages' "chance of winning" takes to answer, position by position (issue 37).

Plays each deal with the greedy player and, every ``--every`` moves, asks the chance of winning
from that position exactly as the server does (the Klondike or Pyramid advisor's function with the
server's time limit and 2 threads), timing each answer by the wall clock: what a player waits for
after pressing Chance. Prints the median, 95th percentile and maximum, and the answers' bases
(sampled, certain, over, none).

    python benchmarks/chance_latency.py klondike --deals 100001-100020
    python benchmarks/chance_latency.py pyramid-001 --deals 100001-100020

Use tuning deals (the eval split, 100,001..110,000): nothing here is a benchmark figure of play.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import _checkout  # noqa: F401  (stops if another checkout's code would load)

from solitaire_rl.agents.base import legal_mask
from solitaire_rl.agents.registry import make_player
from solitaire_rl.envs.spec import find_game
from solitaire_rl.training.splits import parse_deal_numbers


def chance_function(game_name: str) -> Callable[[Any], dict[str, Any]]:
    """The server's chance of winning for ``game_name``, with the server's budget."""
    from solitaire_rl.play.server.advice import PLANNER_THREADS, PLANNER_TIME

    if game_name == "klondike":
        from solitaire_rl.play.server.klondike_advice import klondike_chance

        return lambda game: klondike_chance(game, time_limit=PLANNER_TIME, threads=PLANNER_THREADS)
    from solitaire_rl.play.server.pyramid_chance import pyramid_chance

    return lambda game: pyramid_chance(game, time_limit=PLANNER_TIME, threads=PLANNER_THREADS)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="klondike, pyramid or pyramid-001")
    parser.add_argument("--deals", default="100001-100020")
    parser.add_argument("--every", type=int, default=5, help="ask the chance every N moves (default 5)")
    args = parser.parse_args(argv)
    variant = find_game(args.game)
    chance = chance_function(variant.game)
    env, player = variant.make_env(), make_player("greedy", variant)
    seconds: list[float] = []
    bases: Counter[str] = Counter()
    for number in parse_deal_numbers(args.deals):
        obs, info = env.reset(options={"deal": variant.deal_id(number)})
        player.reset(env)
        done, moves = False, 0
        while not done:
            if moves % args.every == 0:
                start = time.perf_counter()
                answer = chance(env.unwrapped.game)  # type: ignore[attr-defined]
                seconds.append(time.perf_counter() - start)
                bases[answer["basis"]] += 1
            mask = legal_mask(info)
            if not mask.any():  # dealt into a dead end
                break
            obs, _, terminated, truncated, info = env.step(player.act(obs, mask, info))
            done, moves = terminated or truncated, moves + 1
    seconds.sort()
    p95 = seconds[min(len(seconds) - 1, int(0.95 * len(seconds)))]
    median, most = statistics.median(seconds), seconds[-1]
    print(f"{variant.key}, deals {args.deals}: {len(seconds)} answers ({dict(bases)}); wall time median "
          f"{median * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, max {most * 1000:.0f} ms")


if __name__ == "__main__":
    main()
