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

``--phases`` also says where the time went (:mod:`ppo_phases`: env stepping, action masks, the
policy's forward in the rollout, the rest of the rollout, the update), summed over the runs.
``--privileged`` runs each repeat twice in turn, plain and with ``--privileged-critic``, and reports
both side by side (the same process, the same load)::

    python benchmarks/ppo_steps.py klondike --encoding klondike-actions --net-arch 64 128 128 \\
        --vec-env native --torch-threads 1 --phases --privileged
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import _checkout  # noqa: F401  (stops if another checkout's code would load)
from ppo_phases import PhaseClock

from solitaire_rl.training.config import parse_args
from solitaire_rl.training.train import main as train


def phase_table(clocks: dict[str, PhaseClock]) -> str:
    """Each setting's seconds and share of ``learn`` per phase, wall time (CPU-seconds beside)."""
    names = list(next(iter(clocks.values())).shares())
    lines = ["| phase | " + " | ".join(f"{s}: wall s (share), CPU s" for s in clocks) + " |",
             "|---|" + "---|" * len(clocks)]
    for name in names:
        cells = []
        for clock in clocks.values():
            wall, cpu, total = clock.shares()[name], clock.shares("cpu")[name], clock.wall["learn"]
            cells.append(f"{wall:.1f} ({wall / total:.0%}), {cpu:.1f}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("game", help="pyramid, pyramid-001 or klondike")
    parser.add_argument("--steps", type=int, default=65_536, help="environment steps per timed run")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs; the median is reported")
    parser.add_argument("--phases", action="store_true", help="also time each phase of the iterations")
    parser.add_argument("--privileged", action="store_true",
                        help="each repeat: a plain run, then one with --privileged-critic")
    args, passed_on = parser.parse_known_args(argv)
    settings_of = {"plain": []} | ({"privileged critic": ["--privileged-critic"]} if args.privileged else {})
    rates: dict[str, list[float]] = {name: [] for name in settings_of}
    cpu_rates: dict[str, list[float]] = {name: [] for name in settings_of}
    clocks = {name: PhaseClock() for name in settings_of}
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as runs:
        for i in range(args.repeats):
            for name, flags in settings_of.items():
                settings = parse_args([args.game, "--total-timesteps", str(args.steps), "--eval-freq", "0",
                                       "--checkpoint-freq", "0", "--no-tensorboard", "--no-progress-bar",
                                       "--runs-dir", runs, "--seed", str(i + 1), *passed_on, *flags])
                if args.phases:
                    with clocks[name].running():
                        result = train(settings)
                else:
                    result = train(settings)
                rates[name].append(result.steps_per_second)
                cpu_rates[name].append(result.steps_per_cpu_second)
                print(f"run {i + 1} {name}: {result.steps_per_second:,.0f} env steps/s, "
                      f"{result.steps_per_cpu_second:,.0f} per learner CPU-second", flush=True)
    setting = " ".join(passed_on) or "(training defaults)"
    for name in settings_of:
        print(f"{args.game} {setting} [{name}]: median {statistics.median(rates[name]):,.0f} "
              f"env steps/s (min {min(rates[name]):,.0f}, max {max(rates[name]):,.0f}) over {args.repeats} "
              f"runs of {args.steps:,} steps; median {statistics.median(cpu_rates[name]):,.0f} per learner "
              f"CPU-second")
    print(f"{os.cpu_count()} CPUs, load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after")
    if args.phases:
        print(phase_table(clocks))


if __name__ == "__main__":
    main()
