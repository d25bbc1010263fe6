"""Microseconds per call of an observation encoding, on positions from uniformly random play.

Collects ``--positions`` observations (with their masks) by random play from deal 1 on, then
times ``Encoding.encode`` over all of them ``--repeats`` times and prints the median, min and max
per call. The encodings run once per environment step in training::

    python benchmarks/encode_time.py klondike klondike-compact
    python benchmarks/encode_time.py klondike klondike-actions
    python benchmarks/encode_time.py pyramid pyramid-actions-relaxed

For an encoding with a batch path (the Klondike ones and the ``pyramid-actions`` ones, in native
code: ``Encoding.batch``) it also times ``Encoding.encode_batch`` over the same positions
``--batch`` rows a call (as the native vector envs call it), alternating with the row-by-row
passes, and gives the ratio::

    python benchmarks/encode_time.py pyramid pyramid-actions
    python benchmarks/encode_time.py pyramid-001 pyramid-actions-relaxed

The Python ``relaxed_lost`` remembers its answers (:func:`solitaire_rl.agents.solver.pyramid_relaxed_lost`,
65,536 of them): each row-by-row pass starts with that memory empty, so a pass gains from the
positions its own games repeat (as training does) and not from the pass before it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import _checkout  # noqa: F401  (stops if another checkout's code would load)

from solitaire_rl.agents.encodings import find_encoding
from solitaire_rl.agents.solver.pyramid import _relaxed_lost  # the memory of pyramid_relaxed_lost (docstring)
from solitaire_rl.envs.spec import find_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", help="pyramid, pyramid-001 or klondike")
    parser.add_argument("encoding", help="an encoding of that game (solitaire_rl/agents/encodings/)")
    parser.add_argument("--positions", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--batch", type=int, default=64, help="rows per encode_batch call")
    args = parser.parse_args()
    variant = find_game(args.game)
    encoding = find_encoding(args.encoding, variant.game)
    env, rng = variant.make_env(), np.random.default_rng(0)
    obs, info = env.reset(options={"deal": variant.deal_id(1)})
    positions = []
    for _ in range(args.positions):
        positions.append((obs.copy(), np.asarray(info["action_mask"]).copy()))
        obs, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if terminated or truncated:
            obs, info = env.reset()
    observations = np.stack([o for o, _ in positions])
    masks = np.stack([m for _, m in positions])
    times: list[float] = []
    batch_times: list[float] = []
    for _ in range(args.repeats):
        _relaxed_lost.cache_clear()
        start = time.perf_counter()
        for observation, mask in positions:
            encoding.encode(observation, mask)
        times.append((time.perf_counter() - start) / len(positions) * 1e6)
        if encoding.batch is not None:
            start = time.perf_counter()
            for i in range(0, len(positions), args.batch):
                encoding.encode_batch(observations[i:i + args.batch], masks[i:i + args.batch])
            batch_times.append((time.perf_counter() - start) / len(positions) * 1e6)
    print(f"{variant.key} {encoding.name}: median {statistics.median(times):.1f} us a call "
          f"(min {min(times):.1f}, max {max(times):.1f}) over {args.repeats} passes "
          f"of {len(positions):,} positions")
    if batch_times:
        median = statistics.median(batch_times)
        print(f"{variant.key} {encoding.name}, encode_batch of {args.batch} rows: "
              f"median {median:.2f} us a row (min {min(batch_times):.2f}, max {max(batch_times):.2f}): "
              f"{statistics.median(times) / median:.0f}x faster")
    print(f"# load average {os.getloadavg()[0]:.1f}")

if __name__ == "__main__":
    main()
