"""A sweep on a two-node Ray cluster on loopback against the same sweep run locally, side by side.

    python benchmarks/ray_sweep.py --what solver --deals 1-3000 --repeats 3
    python benchmarks/ray_sweep.py --what benchmark --deals 1-3000 --repeats 3

Starts :class:`tests.ray_loopback.LoopbackCluster` (a head and a worker node on 127.0.0.1, one
CPU each: the machine's 2 cores), then runs the command as a fresh process, alternately local and
with ``--ray 127.0.0.1:PORT`` (which goes first swaps every repeat), and times each whole command
(Python start, imports, joining the cluster and the sweep):

* ``solver``: ``python -m solitaire_rl.agents.solver GAME DEALS --json`` (``--max-states N``: a budget
  that gives the same verdicts on any machine at any load, unlike a time limit); locally one
  process (the command has no workers option), so one core against the cluster's two;
* ``benchmark``: ``python -m solitaire_rl.training.benchmark GAME --deals DEALS --agents solver``; locally
  ``--workers 2`` (its default here: a process pool on both cores).

Each pair's per-deal rows must agree (timing fields left out). Then the per-task cost: no-op tasks
of one item each through :func:`solitaire_rl.agents.distributed.fan_out`, seconds per task. It prints the
median ratio (cluster / local), the load average around each run, and writes the figures to
``benchmarks/results/ray_sweep_{what}_{game}_{deals}.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _checkout  # noqa: F401  (stops if another checkout's code would load)

from solitaire_rl.agents.distributed import connect, fan_out
from tests.ray_loopback import LoopbackCluster

RESULTS = Path(__file__).resolve().parent / "results"
TIMING = {"seconds", "mean_seconds", "median_seconds", "max_seconds"}


def command(args: argparse.Namespace, address: str | None, out: Path) -> list[str]:
    if args.what == "solver":
        argv = [sys.executable, "-m", "solitaire_rl.agents.solver", args.game, args.deals, "--json",
                "--budget", str(args.budget)]
        if args.max_states is not None:
            argv += ["--max-states", str(args.max_states)]
    else:
        argv = [
            sys.executable,
            "-m",
            "solitaire_rl.training.benchmark",
            args.game,
            "--deals",
            args.deals,
            "--agents",
            "solver",
            "--solver-time-limit",
            str(args.budget),
            "--json",
            str(out),
            "--workers",
            "2",
        ]
    return [*argv, "--ray", address] if address else argv


def rows_of(what: str, stdout: str, out: Path) -> list[dict[str, Any]]:
    if what == "solver":
        records = [json.loads(line) for line in stdout.splitlines()]
    else:
        records = json.loads(out.read_text())["rows"]
    return [{k: v for k, v in r.items() if k not in TIMING} for r in records if "summary" not in r]


def timed(argv: list[str], what: str, out: Path,
          env: dict[str, str]) -> tuple[float, list[dict[str, Any]], float]:
    """Wall seconds of the command, its rows, and the 1-minute load average when it ended."""
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=False, env=os.environ | env)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return wall, rows_of(what, done.stdout, out), os.getloadavg()[0]


def task_cost(address: str, tasks: int) -> float:
    """Seconds per one-item no-op task (``abs``) through :func:`fan_out` on the cluster."""
    connect(address)
    list(fan_out(abs, list(range(50)), chunk_size=1, progress=None))  # warm the workers
    start = time.perf_counter()
    results = list(fan_out(abs, list(range(tasks)), chunk_size=1, progress=None))
    assert len(results) == tasks
    return (time.perf_counter() - start) / tasks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--what", choices=("solver", "benchmark"), default="solver")
    parser.add_argument("--game", choices=("pyramid", "klondike"), default="pyramid")
    parser.add_argument("--max-states", type=int, default=None,
                        help="state limit per deal (solver): a budget that gives the same verdicts anywhere")
    parser.add_argument("--deals", default="1-3000")
    parser.add_argument("--budget", type=float, default=10.0, help="seconds per deal, both runs")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--tasks", type=int, default=2000, help="no-op tasks timed for the per-task cost")
    args = parser.parse_args()

    runs: list[dict[str, Any]] = []
    with LoopbackCluster(cpus_per_node=1) as cluster, tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "rows.json"
        for repeat in range(args.repeats):
            order = ("local", "ray") if repeat % 2 == 0 else ("ray", "local")
            pair: dict[str, Any] = {"load_before": os.getloadavg()[0]}
            rows = {}
            for where in order:
                argv = command(args, cluster.address if where == "ray" else None, out)
                wall, rows[where], load = timed(argv, args.what, out, cluster.environment)
                pair[where], pair[f"load_after_{where}"] = wall, load
            if rows["local"] != rows["ray"]:
                raise SystemExit("the cluster's rows differ from the local rows")
            pair["ratio"], pair["deals"] = pair["ray"] / pair["local"], len(rows["local"])
            runs.append(pair)
            print(f"repeat {repeat + 1}: local {pair['local']:.2f} s, cluster {pair['ray']:.2f} s, "
                  f"ratio {pair['ratio']:.3f} ({pair['deals']} rows, same on both; load "
                  f"{pair['load_before']:.1f} -> {pair[f'load_after_{order[1]}']:.1f})", flush=True)
        os.environ.update(cluster.environment)
        per_task = statistics.median(task_cost(cluster.address, args.tasks) for _ in range(3))
        import ray

        ray.shutdown()
    figures = {
        "command": " ".join(sys.argv), "what": args.what, "game": args.game, "deals": args.deals,
        "budget": args.budget, "max_states": args.max_states,
        "local": "1 process" if args.what == "solver" else "--workers 2",
        "cluster": "2 nodes x 1 CPU on 127.0.0.1", "runs": runs,
        "median_ratio": statistics.median(r["ratio"] for r in runs),
        "median_local_seconds": statistics.median(r["local"] for r in runs),
        "median_ray_seconds": statistics.median(r["ray"] for r in runs),
        "seconds_per_task": per_task,
    }
    print(f"median: local {figures['median_local_seconds']:.2f} s, "
          f"cluster {figures['median_ray_seconds']:.2f} s, ratio {figures['median_ratio']:.3f}; "
          f"per task {per_task * 1e3:.2f} ms (one-item no-op tasks)")
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"ray_sweep_{args.what}_{args.game}_{args.deals}.json"
    path.write_text(json.dumps(figures, indent=1) + "\n")
    print(f"figures: {path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}")


if __name__ == "__main__":
    main()
