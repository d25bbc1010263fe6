"""MaskablePPO training throughput: environment steps per second through ``solitaire_rl.training.train``.

Each run trains a fresh model with ``solitaire_rl.training.train.main`` for ``--steps`` environment steps (no
evaluation, no periodic checkpoints, no TensorBoard, no progress bar) and takes the steps per
second of wall time over ``learn``: rollouts *and* updates, the rate training actually gets.
Worker start-up and the final save are outside the timing. Reports the median, min and max over
``--repeats`` runs, the machine's load average before and after (the machine is shared), and the
median steps per CPU-second of the learner process: with ``--vec-env dummy`` (everything in that
process) this is the rate on one idle core, whatever else the machine is doing.
Any other ``solitaire_rl.training.train`` flag is passed on (defaults: the training defaults)::

    python benchmarks/ppo_steps.py pyramid --repeats 3
    python benchmarks/ppo_steps.py pyramid --steps 40960 --n-envs 4 --net-arch 128 128
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import _checkout  # noqa: F401  (stops if another checkout's code would load)

from solitaire_rl.training.config import parse_args
from solitaire_rl.training.train import main as train


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("game", help="pyramid, pyramid-001 or klondike")
    parser.add_argument("--steps", type=int, default=65_536, help="environment steps per timed run")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs; the median is reported")
    args, passed_on = parser.parse_known_args(argv)
    rates: list[float] = []
    cpu_rates: list[float] = []
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as runs:
        for i in range(args.repeats):
            settings = parse_args([args.game, "--total-timesteps", str(args.steps), "--eval-freq", "0",
                                   "--checkpoint-freq", "0", "--no-tensorboard", "--no-progress-bar",
                                   "--runs-dir", runs, "--seed", str(i + 1), *passed_on])
            result = train(settings)
            rates.append(result.steps_per_second)
            cpu_rates.append(result.steps_per_cpu_second)
            print(f"run {i + 1}: {result.steps_per_second:,.0f} env steps/s, "
                  f"{result.steps_per_cpu_second:,.0f} per learner CPU-second", flush=True)
    setting = " ".join(passed_on) or "(training defaults)"
    print(f"{args.game} {setting}: median {statistics.median(rates):,.0f} "
          f"env steps/s (min {min(rates):,.0f}, max {max(rates):,.0f}) over {args.repeats} runs of "
          f"{args.steps:,} steps; median {statistics.median(cpu_rates):,.0f} per learner CPU-second; "
          f"{os.cpu_count()} CPUs, load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after")


if __name__ == "__main__":
    main()
