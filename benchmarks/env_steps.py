"""Environment steps per second under a random masked policy, median of repeated runs.

Each run makes the environment, resets it with a seed and plays ``--steps`` steps: every step reads
the action mask from ``info["action_mask"]``, picks a legal action uniformly, steps, and resets
when the episode ends (resets are part of the cost). The observation is built every step. Runs
both through ``gymnasium.make`` (with its wrappers) and on the raw class (``.unwrapped``), in this
one process (one core). Reported per setting: the median, min and max of wall-clock steps/s over
the runs, the median of steps per CPU-second of this process (on a shared machine, the wall
clock also counts time given to others), and all the runs' steps over all their CPU seconds
(``all/cpu-s``: unlike a median, it weighs the rare slow steps, such as Klondike's long
no-progress searches, in full). Any registered env ID works; give keyword arguments after a
colon::

    python benchmarks/env_steps.py                                   # both Pyramid variants
    python benchmarks/env_steps.py Solitaire/Pyramid-v0:stock_top_playable=False --repeats 9
    python benchmarks/env_steps.py Solitaire/Klondike-v0 --steps 5000
"""

from __future__ import annotations

import argparse
import ast
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import _checkout  # noqa: F401  (stops if another checkout's code would load)

import solitaire_rl  # noqa: F401  (registers the environments)

DEFAULT_SPECS = ("Solitaire/Pyramid-v0", "Solitaire/Pyramid-v0:stock_top_playable=False")


@dataclass(frozen=True)
class Run:
    """One timed run: steps played, wall-clock seconds, this process's CPU seconds, episodes finished."""

    steps: int
    seconds: float
    cpu_seconds: float
    episodes: int

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds

    @property
    def steps_per_cpu_second(self) -> float:
        """Steps per second of CPU time given to this process: less sensitive to a busy machine."""
        return self.steps / self.cpu_seconds


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"ID:key=value,key=value"`` -> (ID, kwargs); values are Python literals or plain strings."""
    env_id, _, rest = spec.partition(":")
    kwargs: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"bad keyword argument {item!r} in {spec!r}: expected key=value")
        try:
            kwargs[key.strip()] = ast.literal_eval(value.strip())
        except (ValueError, SyntaxError):
            kwargs[key.strip()] = value.strip()
    return env_id, kwargs


def timed_run(env: gymnasium.Env, steps: int, seed: int) -> Run:
    """Play ``steps`` random masked steps on ``env`` and time them."""
    rng = random.Random(seed)
    _, info = env.reset(seed=seed)
    episodes = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for _ in range(steps):
        legal = info["action_mask"].nonzero()[0]
        _, _, terminated, truncated, info = env.step(legal[rng.randrange(len(legal))])
        if terminated or truncated:
            episodes += 1
            _, info = env.reset()
    return Run(steps, time.perf_counter() - start, time.process_time() - cpu_start, episodes)


def measure(env_id: str, kwargs: dict[str, Any], raw: bool, steps: int, repeats: int, seed: int) -> list[Run]:
    """``repeats`` timed runs (after one short warm-up run) on fresh environments."""
    runs = []
    for i in range(repeats + 1):
        env = gymnasium.make(env_id, **kwargs)
        run = timed_run(env.unwrapped if raw else env, steps if i else min(steps, 1000), seed + i)
        env.close()
        if i:
            runs.append(run)
    return runs


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("specs", nargs="*", default=list(DEFAULT_SPECS), help="ENV_ID[:key=value,...]")
    parser.add_argument("--steps", type=int, default=20_000, help="steps per timed run")
    parser.add_argument("--repeats", type=int, default=7, help="timed runs; the median is reported")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first run (run i uses seed + i)")
    parser.add_argument("--cpu", type=int, default=None, help="pin this process to one CPU (Linux)")
    args = parser.parse_args(argv)
    if args.cpu is not None:
        os.sched_setaffinity(0, {args.cpu})

    print(f"# {args.repeats} runs x {args.steps} steps, random masked policy, "
          f"python {sys.version.split()[0]}, gymnasium {gymnasium.__version__}, numpy {np.__version__}, "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"{'environment':<48} {'mode':<4} {'median steps/s':>14} {'min':>8} {'max':>8} "
          f"{'steps/cpu-s':>11} {'all/cpu-s':>9} {'steps/episode':>13}")
    for spec in args.specs:
        env_id, kwargs = parse_spec(spec)
        for raw in (False, True):
            runs = measure(env_id, kwargs, raw, args.steps, args.repeats, args.seed)
            rates = [r.steps_per_second for r in runs]
            per_episode = sum(r.steps for r in runs) / max(1, sum(r.episodes for r in runs))
            cpu_rate = statistics.median(r.steps_per_cpu_second for r in runs)
            overall = sum(r.steps for r in runs) / sum(r.cpu_seconds for r in runs)
            print(f"{spec:<48} {'raw' if raw else 'make':<4} {statistics.median(rates):>14,.0f} "
                  f"{min(rates):>8,.0f} {max(rates):>8,.0f} {cpu_rate:>11,.0f} {overall:>9,.0f} "
                  f"{per_episode:>13.1f}", flush=True)
    print(f"# load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
