"""The trainer's end-to-end steps per second, before and after issue 52, side by side in one run.

Each run trains a fresh model with ``solitaire_rl.training.train.main`` (the training defaults:
``klondike`` with its default encoding on the native batch) for ``--steps`` environment steps,
evaluating on ``--eval-deals`` held-out deals every ``--eval-freq`` steps and before the first
update, as a training run does (no periodic checkpoints, no TensorBoard, no progress bar), and takes
the steps per second of wall time over ``learn``: rollouts, updates *and* evaluations. Three settings
take turns within each repeat, so the shared machine's load falls on all of them alike:

* ``before``: ``--eval-env python --masking sb3``, the trainer as it was (one Python env evaluates
  one deal after another; sb3-contrib's masked distribution);
* ``native eval``: ``--masking sb3`` only (the evaluation on one native batch);
* ``after``: the defaults now (native evaluation and ``masked_fill`` masking).

The evaluation share is kept near the defaults' (200 deals every 50,000 steps, a Klondike episode
running up to 1,000 steps): by default 25 deals every 16,384 steps. Reports each setting's median
(min, max) and its ratio to ``before``; any other training flag is passed on::

    python benchmarks/trainer_steps.py --repeats 3
    python benchmarks/trainer_steps.py pyramid --steps 65536 --eval-freq 32768 --eval-deals 100
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import _checkout  # noqa: F401  (stops if another checkout's code would load)

from solitaire_rl.training.config import parse_args
from solitaire_rl.training.train import main as train

SETTINGS = {
    "before": ["--eval-env", "python", "--masking", "sb3"],
    "native eval": ["--eval-env", "native", "--masking", "sb3"],
    "after": ["--eval-env", "native", "--masking", "masked_fill"],
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", nargs="?", default="klondike", help="pyramid, pyramid-001 or klondike")
    parser.add_argument("--steps", type=int, default=32_768, help="environment steps per timed run")
    parser.add_argument("--eval-freq", type=int, default=16_384, help="evaluate every this many steps")
    parser.add_argument("--eval-deals", type=int, default=25, help="held-out deals per evaluation")
    parser.add_argument("--repeats", type=int, default=3, help="rounds of the three settings (medians)")
    args, passed_on = parser.parse_known_args(argv)
    rates: dict[str, list[float]] = {name: [] for name in SETTINGS}
    load_before, start, cpu_start = os.getloadavg()[0], time.perf_counter(), time.process_time()
    with tempfile.TemporaryDirectory() as runs:
        for repeat in range(args.repeats):
            for name, flags in SETTINGS.items():
                settings = parse_args([
                    args.game, "--total-timesteps", str(args.steps), "--eval-freq", str(args.eval_freq),
                    "--eval-deals", str(args.eval_deals), "--checkpoint-freq", "0", "--no-tensorboard",
                    "--no-progress-bar", "--runs-dir", runs, "--seed", str(repeat + 1), *flags, *passed_on])
                result = train(settings)
                rates[name].append(result.steps_per_second)
                print(f"repeat {repeat + 1} {name}: {result.steps_per_second:,.0f} env steps/s "
                      f"(last win rate {result.eval_win_rate})", flush=True)
    before = statistics.median(rates["before"])
    print(f"\n{args.game} {' '.join(passed_on) or '(training defaults)'}, {args.steps:,} steps, "
          f"{args.eval_deals} eval deals every {args.eval_freq:,} steps, {args.repeats} repeats:")
    for name, values in rates.items():
        median = statistics.median(values)
        print(f"  {name:12s} median {median:,.0f} env steps/s (min {min(values):,.0f}, "
              f"max {max(values):,.0f})  x{median / before:.2f}")
    print(f"{os.cpu_count()} CPUs, load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after; "
          f"{time.perf_counter() - start:.0f} s wall, {time.process_time() - cpu_start:.0f} s CPU")


if __name__ == "__main__":
    main()
