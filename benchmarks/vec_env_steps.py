"""The native batched Pyramid and Klondike envs against the Python envs, side by side in one process.

Environment steps (the default): random masked actions drawn by NumPy, the sampler included in
the timing. The Python env (``gymnasium.make("Solitaire/Pyramid-v0")``, its wrappers included)
picks ``legal[rng.integers(len(legal))]`` from ``info["action_mask"]`` each step and resets when
an episode ends; the native env (``gymnasium.make_vec(..., num_envs=N,
vectorization_mode="vector_entry_point")``, next-step autoreset) draws one legal action per
sub-env from the ``N x 467`` mask with a few vectorised NumPy calls (:func:`sample_masked`).
Runs alternate (Python, native, Python, native, ...) so both see the same machine; each setting
reports the median, min and max steps/s over ``--repeats`` runs, and the ratio of the medians::

    python benchmarks/vec_env_steps.py                         # both variants, 1024 envs
    python benchmarks/vec_env_steps.py --num-envs 4096 --threads 4

``--game klondike``: the same for ``Solitaire/Klondike-v0`` (draw 3; ``--max-steps``, default the
env's 1,000), and OpenSpiel's C++ ``solitaire`` (``pip install open_spiel``, for this measurement
only) driven from Python the same way, one game at a time as ``klondike_vs_openspiel.py`` drives
it: each decision step reads ``legal_actions()`` and ``observation_tensor()`` and applies
``legal[rng.integers(len(legal))]``; chance nodes (cards turned up) are resolved by a uniform
outcome in between and not counted; a new game starts at a terminal state. Ratios are printed
against the Python env and against OpenSpiel::

    python benchmarks/vec_env_steps.py --game klondike --python-steps 10000 --repeats 5

``--ppo``: MaskablePPO training throughput through ``solitaire_rl.training.train.main`` instead, alternating
``--vec-env dummy`` (today's in-process setting: the Python envs in the learner's process) and
``--vec-env native`` with every other setting the same (the training defaults: ``pyramid-flat``,
16 envs x 128 steps, net 128 128; more flags are passed on), median env steps/s of each, of
wall time and per CPU-second of this process (the learner's: on a shared machine the steadier one)::

    python benchmarks/vec_env_steps.py --ppo --ppo-steps 32768 --repeats 3 --torch-threads 2

With ``--game klondike`` the PPO runs train ``klondike`` (draw 3; the training default encoding
``klondike-compact``, or ``--encoding klondike-actions`` as the shipped agent) the same way. The
shipped Pyramid agents' input and network (both encoded natively by ``--vec-env native``)::

    python benchmarks/vec_env_steps.py --ppo --ppo-steps 16384 --repeats 3 --torch-threads 1 \
        --encoding pyramid-actions-relaxed --net-arch 64 64 128 --learning-rate 5e-5
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import _checkout  # noqa: F401  (stops if another checkout's code would load)

import solitaire_rl  # noqa: F401  (registers the environments)

ENV_ID = "Solitaire/Pyramid-v0"
KLONDIKE_ID = "Solitaire/Klondike-v0"
VARIANTS = {"000": True, "001": False}


def sample_masked(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """One uniformly random legal action per row of the 0/1 ``mask`` (action 0 where none is legal).

    The legal entries' flat indices come from one ``flatnonzero`` over the mask viewed as booleans;
    each row picks one of its own with one uniform draw.
    """
    num_envs, num_actions = mask.shape
    legal = np.flatnonzero(mask.view(np.bool_))
    counts = np.bincount(legal // num_actions, minlength=num_envs)
    pick = np.cumsum(counts) - counts + (rng.random(num_envs) * counts).astype(np.int64)
    if not len(legal):
        return np.zeros(num_envs, np.int64)
    actions = legal[np.minimum(pick, len(legal) - 1)] % num_actions
    actions[counts == 0] = 0
    return actions


def python_run(env_id: str, steps: int, seed: int, **kwargs: Any) -> float:
    """Steps/s of ``env_id`` (``gymnasium.make(env_id, **kwargs)``) over ``steps`` random masked steps."""
    env = gymnasium.make(env_id, **kwargs)
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    start = time.perf_counter()
    for _ in range(steps):
        legal = np.flatnonzero(info["action_mask"])
        _, _, terminated, truncated, info = env.step(int(legal[rng.integers(len(legal))]))
        if terminated or truncated:
            _, info = env.reset()
    return steps / (time.perf_counter() - start)


def native_run(env_id: str, num_envs: int, batch_steps: int, seed: int, **kwargs: Any) -> float:
    """Env steps/s of ``env_id``'s native vector env over ``batch_steps`` steps of ``num_envs`` sub-envs."""
    env = gymnasium.make_vec(env_id, num_envs=num_envs, vectorization_mode="vector_entry_point", **kwargs)
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    start = time.perf_counter()
    for _ in range(batch_steps):
        _, _, _, _, info = env.step(sample_masked(rng, info["action_mask"]))
    return num_envs * batch_steps / (time.perf_counter() - start)


def openspiel_run(steps: int, seed: int) -> float:
    """Decision steps/s of OpenSpiel's ``solitaire``, one game at a time (module docstring)."""
    import pyspiel

    game = pyspiel.load_game("solitaire")
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    done = 0
    start = time.perf_counter()
    while done < steps:
        if state.is_terminal():
            state = game.new_initial_state()
        elif state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
        else:
            legal = state.legal_actions()
            state.observation_tensor()
            state.apply_action(legal[int(rng.integers(len(legal)))])
            done += 1
    return steps / (time.perf_counter() - start)


def alternate(runs: dict[str, Callable[[int], float]], repeats: int) -> dict[str, list[float]]:
    """Each run once to warm up, then ``repeats`` rounds of all of them in turn."""
    for run in runs.values():
        run(0)
    rates: dict[str, list[float]] = {name: [] for name in runs}
    for i in range(repeats):
        for name, run in runs.items():
            rates[name].append(run(i + 1))
    return rates


def report(label: str, rates: dict[str, list[float]], baseline: str, second: str | None = None) -> None:
    """One line per setting: median, min, max, the ratio to ``baseline`` (and to ``second``)."""
    base = statistics.median(rates[baseline])
    other = statistics.median(rates[second]) if second else None
    for name, values in rates.items():
        median = statistics.median(values)
        extra = f" {median / other:>9.1f}x" if other else ""
        print(f"{label:<14} {name:<30} {median:>12,.0f} {min(values):>12,.0f} {max(values):>12,.0f} "
              f"{median / base:>7.1f}x{extra}", flush=True)


def klondike_env_steps(args: argparse.Namespace) -> None:
    native_name = f"native x{args.num_envs}" + (f" ({args.threads} threads)" if args.threads > 1 else "")
    runs = {
        "python (gymnasium.make)": lambda i: python_run(KLONDIKE_ID, args.python_steps, args.seed + i,
                                                        max_episode_steps=args.max_steps),
        native_name: lambda i: native_run(KLONDIKE_ID, args.num_envs, args.batch_steps, args.seed + i,
                                          num_threads=args.threads, max_episode_steps=args.max_steps),
    }
    second = None
    try:
        import pyspiel  # noqa: F401

        second = "openspiel solitaire (C++)"
        runs[second] = lambda i: openspiel_run(args.python_steps, args.seed + i)
    except ImportError:
        print("# open_spiel is not installed (pip install open_spiel): OpenSpiel skipped")
    print(f"{'game':<14} {'env':<30} {'median steps/s':>12} {'min':>12} {'max':>12} {'ratio':>8}"
          + (f" {'/openspiel':>10}" if second else ""))
    report("klondike-d3", alternate(runs, args.repeats), "python (gymnasium.make)", second)


def env_steps(args: argparse.Namespace) -> None:
    print(f"{'variant':<14} {'env':<30} {'median steps/s':>12} {'min':>12} {'max':>12} {'ratio':>8}")
    for variant in args.variants:
        stock_top = VARIANTS[variant]
        native_name = f"native x{args.num_envs}" + (f" ({args.threads} threads)" if args.threads > 1 else "")
        runs = {
            "python (gymnasium.make)": lambda i, s=stock_top: python_run(
                ENV_ID, args.python_steps, args.seed + i, stock_top_playable=s),
            native_name: lambda i, s=stock_top: native_run(
                ENV_ID, args.num_envs, args.batch_steps, args.seed + i, stock_top_playable=s,
                num_threads=args.threads),
        }
        report(f"pyramid-{variant}", alternate(runs, args.repeats), "python (gymnasium.make)")


def ppo_steps(args: argparse.Namespace, passed_on: list[str]) -> None:
    from solitaire_rl.training.config import parse_args
    from solitaire_rl.training.train import main as train

    games = ["klondike"] if args.game == "klondike" else [f"pyramid-{v}" for v in args.variants]
    print(f"{'variant':<14} {'vec env':<30} {'median steps/s':>12} {'min':>12} {'max':>12} {'ratio':>8} "
          f"{'steps/cpu-s':>12} {'ratio':>8}")
    with tempfile.TemporaryDirectory() as runs_dir:
        for game in games:
            cpu_rates: dict[str, list[float]] = {"dummy (in-process Python)": [], "native": []}

            def run(i: int, vec_env: str, name: str, game: str = game,
                    cpu_rates: dict[str, list[float]] = cpu_rates) -> float:
                settings = parse_args([
                    game, "--total-timesteps", str(args.ppo_steps if i else 4096),
                    "--eval-freq", "0", "--checkpoint-freq", "0", "--no-tensorboard", "--no-progress-bar",
                    "--runs-dir", runs_dir, "--seed", str(i + 1), "--vec-env", vec_env,
                    "--torch-threads", str(args.torch_threads), *passed_on])
                result = train(settings)
                if i:
                    cpu_rates[name].append(result.steps_per_cpu_second)
                return result.steps_per_second

            rates = alternate({name: partial(run, vec_env=vec_env, name=name)
                               for name, vec_env in (("dummy (in-process Python)", "dummy"),
                                                     ("native", "native"))}, args.repeats)
            base, cpu_base = (statistics.median(r["dummy (in-process Python)"]) for r in (rates, cpu_rates))
            for name, values in rates.items():
                median, cpu = statistics.median(values), statistics.median(cpu_rates[name])
                print(f"{game:<14} {name:<30} {median:>12,.0f} {min(values):>12,.0f} "
                      f"{max(values):>12,.0f} {median / base:>7.1f}x {cpu:>12,.0f} {cpu / cpu_base:>7.1f}x",
                      flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=("pyramid", "klondike"), default="pyramid")
    parser.add_argument("--max-steps", type=int, default=1000, help="Klondike's step limit (both envs)")
    parser.add_argument("--variants", nargs="+", default=sorted(VARIANTS), choices=sorted(VARIANTS))
    parser.add_argument("--num-envs", type=int, default=1024, help="sub-envs of the native env")
    parser.add_argument("--batch-steps", type=int, default=200,
                        help="native steps per timed run (of all sub-envs)")
    parser.add_argument("--python-steps", type=int, default=20_000, help="Python env steps per timed run")
    parser.add_argument("--threads", type=int, default=1, help="native threads per step")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs of each; medians are reported")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ppo", action="store_true", help="measure MaskablePPO training throughput instead")
    parser.add_argument("--ppo-steps", type=int, default=32_768, help="environment steps per training run")
    parser.add_argument("--torch-threads", type=int, default=2,
                        help="torch threads of the learner (both settings)")
    args, passed_on = parser.parse_known_args(argv)
    if passed_on and not args.ppo:
        parser.error(f"unknown arguments {passed_on} (training flags go with --ppo)")
    print(f"# python {sys.version.split()[0]}, gymnasium {gymnasium.__version__}, numpy {np.__version__}, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    if args.ppo:
        ppo_steps(args, passed_on)
    elif args.game == "klondike":
        klondike_env_steps(args)
    else:
        env_steps(args)
    print(f"# load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
