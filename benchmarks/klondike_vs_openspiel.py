"""Klondike steps per second: this project's environment next to OpenSpiel's C++ ``solitaire``.

Both are driven from Python in this one process (one core) by a random policy that reads the legal
actions and the observation every step:

* ``Solitaire/Klondike-v0`` through ``gymnasium.make`` (its wrappers included) and raw
  (``.unwrapped``): each step reads ``action_masks()``, picks a legal action uniformly, steps (which
  builds the observation, the next mask and the exact no-progress check), and resets when the
  episode ends (resets count);
* OpenSpiel (``pip install open_spiel``, for this measurement only; not a project dependency):
  each decision step reads ``legal_actions()`` and ``observation_tensor()`` and applies a uniform
  legal action; chance nodes (cards turned up) are resolved in between by a uniform outcome and not
  counted as steps; a new game starts at a terminal state (OpenSpiel ends games after 150 moves).

Runs alternate between the settings so a busy machine affects them alike. Reported: the median
over runs of wall-clock steps/s and of steps per CPU-second of this process (on a shared machine
the wall clock also counts time given to others), and the ratio to OpenSpiel::

    python benchmarks/klondike_vs_openspiel.py --steps 20000 --repeats 5
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import gymnasium
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import _checkout  # noqa: F401  (stops if another checkout's code would load)

import solitaire_rl  # noqa: F401  (registers the environments)

Result = tuple[float, float, int]
"""(wall seconds, CPU seconds, episodes finished) of one run."""


def run_project(steps: int, seed: int, raw: bool) -> Result:
    env = gymnasium.make("Solitaire/Klondike-v0")
    stepper = env.unwrapped if raw else env
    masks = env.unwrapped.action_masks
    rng = np.random.default_rng(seed)
    stepper.reset(seed=seed)
    episodes = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(steps):
        legal = np.flatnonzero(masks())
        _, _, terminated, truncated, _ = stepper.step(legal[rng.integers(len(legal))])
        if terminated or truncated:
            episodes += 1
            stepper.reset()
    return time.perf_counter() - wall, time.process_time() - cpu, episodes


def run_openspiel(steps: int, seed: int) -> Result:
    import pyspiel

    game = pyspiel.load_game("solitaire")
    rng = random.Random(seed)
    state = game.new_initial_state()
    done = episodes = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while done < steps:
        if state.is_terminal():
            episodes += 1
            state = game.new_initial_state()
        elif state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.observation_tensor()
            state.apply_action(legal[rng.randrange(len(legal))])
            done += 1
    return time.perf_counter() - wall, time.process_time() - cpu, episodes


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=20000, help="steps per run")
    parser.add_argument("--repeats", type=int, default=5, help="runs per setting (medians reported)")
    args = parser.parse_args(argv)
    settings: dict[str, Callable[[int], Result]] = {
        "Solitaire/Klondike-v0 (gymnasium.make)": lambda seed: run_project(args.steps, seed, raw=False),
        "Solitaire/Klondike-v0 (raw)": lambda seed: run_project(args.steps, seed, raw=True),
    }
    try:
        import pyspiel  # noqa: F401

        settings["OpenSpiel solitaire (C++)"] = lambda seed: run_openspiel(args.steps, seed)
    except ImportError:
        print("# open_spiel is not installed (pip install open_spiel): OpenSpiel column skipped")
    results: dict[str, list[Result]] = {name: [] for name in settings}
    for repeat in range(args.repeats):
        for name, run in settings.items():
            results[name].append(run(repeat))
    print(f"# {args.repeats} runs x {args.steps} steps each, random policy, legal actions and observation "
          f"every step, python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} CPUs (after the runs)")
    print(f"{'setting':42} {'wall steps/s':>13} {'cpu steps/s':>12} {'steps/episode':>14}")
    medians = {}
    for name, runs in results.items():
        wall = statistics.median(args.steps / r[0] for r in runs)
        cpu = statistics.median(args.steps / r[1] for r in runs)
        per_episode = args.steps * len(runs) / max(1, sum(r[2] for r in runs))
        medians[name] = (wall, cpu)
        print(f"{name:42} {wall:13,.0f} {cpu:12,.0f} {per_episode:14.1f}")
    if "OpenSpiel solitaire (C++)" in medians:
        base_wall, base_cpu = medians["OpenSpiel solitaire (C++)"]
        for name, (wall, cpu) in medians.items():
            if not name.startswith("OpenSpiel"):
                print(f"ratio {name} / OpenSpiel: wall {wall / base_wall:.2f}, cpu {cpu / base_cpu:.2f}")


if __name__ == "__main__":
    main()
