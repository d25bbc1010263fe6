"""What Klondike's exact no-progress check costs per step, and how long its slowest calls take.

Plays random games as the environment does (a uniform legal move each step; a new random deal
when the game is won, when no progress is possible, or after 1,000 moves) and times
``KlondikeGame.progress_possible()`` after every move, in CPU time of this process. Most steps are
answered in microseconds; a few need a long exact search, and those decide the average over a
long run. Reported: steps, the mean, median, 99th percentile and maximum per check, the number of
checks over 10 ms, and the share of the total spent in them::

    python benchmarks/klondike_progress_check.py --steps 20000 --seeds 0 1 2 3
    python benchmarks/klondike_progress_check.py --probe-states 0 1000 5000   # side by side

``--probe-states`` compares settings of the depth-first probe over every move
(:data:`solitaire_rl.envs.klondike.progress.PROBE_STATES`; 0: without it), seed by seed in turn.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import _checkout  # noqa: F401  (stops if another checkout's code would load)

from solitaire_rl.envs.klondike import KlondikeGame, progress

MAX_MOVES = 1000
SLOW = 0.010


def check_times(steps: int, seed: int, draw_count: int) -> list[float]:
    """CPU seconds of each progress check over ``steps`` random moves."""
    rng = random.Random(seed)
    clock = time.process_time

    def new_game() -> KlondikeGame:
        return KlondikeGame(f"klondike-random-v1-{rng.randrange(10**9)}", draw_count=draw_count)

    game = new_game()
    times = []
    for _ in range(steps):
        moves = game.legal_moves()
        game.push(moves[rng.randrange(len(moves))])
        game.legal_moves()  # the environment has them already (for the mask): not part of the check
        start = clock()
        going = game.progress_possible()
        times.append(clock() - start)
        if not going or game.is_won() or game.moves_played >= MAX_MOVES:
            game = new_game()
    return times


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=20000, help="moves per seed")
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3])
    parser.add_argument("--draw", type=int, default=3, choices=(1, 3))
    parser.add_argument("--probe-states", type=int, nargs="+", default=[progress.PROBE_STATES])
    args = parser.parse_args(argv)
    print(f"# {len(args.seeds)} seeds x {args.steps} moves, draw {args.draw}, CPU time per check")
    print(f"{'seed':>10} {'mean us':>9} {'median us':>10} {'p99 us':>9} {'max ms':>9} {'>10ms':>6} "
          f"{'share >10ms':>12}")
    every: dict[int, list[float]] = {cap: [] for cap in args.probe_states}
    for seed in args.seeds:
        for cap in args.probe_states:
            progress.PROBE_STATES = cap
            times = check_times(args.steps, seed, args.draw)
            every[cap] += times
            row(f"{seed}/p{cap}", times)
    for cap, times in every.items():
        if len(args.seeds) > 1:
            row(f"all/p{cap}", times)


def row(label: str, times: list[float]) -> None:
    ordered = sorted(times)
    slow = [t for t in times if t > SLOW]
    print(f"{label:>10} {statistics.fmean(times) * 1e6:9.1f} {statistics.median(times) * 1e6:10.1f} "
          f"{ordered[int(len(ordered) * 0.99)] * 1e6:9.1f} {ordered[-1] * 1e3:9.1f} {len(slow):6d} "
          f"{sum(slow) / sum(times):12.1%}", flush=True)


if __name__ == "__main__":
    main()
