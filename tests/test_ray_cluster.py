"""``--ray`` on a real two-node Ray cluster on 127.0.0.1: the same per-deal rows as a local run.

The cluster (:class:`tests.ray_loopback.LoopbackCluster`: a head and a worker node, one CPU each,
every address 127.0.0.1, dashboard off) is started once for the module and always stopped, its
processes ended by ID, even when a test fails. Ray is in the test extra: these tests fail, not
skip, without it.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import json
import os
import pickle
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import asdict
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from solitaire_rl.agents.distributed import Failed, connect, fan_out, in_order
from solitaire_rl.agents.ppo import default_checkpoint
from solitaire_rl.agents.solver.cli import build_parser, report, solve_on_ray, solve_pyramid_item
from solitaire_rl.agents.solver.limits import SearchLimits
from solitaire_rl.envs.deals import resolve_deal
from solitaire_rl.envs.spec import find_game
from solitaire_rl.training.benchmark import (
    _SHIPPED,
    AgentEntry,
    Args,
    PlayOptions,
    play_deal,
    play_shipped_deal,
    ship_checkpoints,
)
from solitaire_rl.training.benchmark import main as benchmark
from tests.ray_loopback import LoopbackCluster, process_title

ROOT = Path(__file__).resolve().parents[1]
TIMING = {"seconds", "mean_seconds", "seconds_per_move", "median_seconds", "max_seconds"}


@pytest.fixture(scope="module")
def cluster() -> Iterator[LoopbackCluster]:
    assert importlib.util.find_spec("ray") is not None, "the test extra installs ray"
    nodes = LoopbackCluster(cpus_per_node=1).start()  # stops what it started if it fails
    saved = {name: os.environ.get(name) for name in nodes.environment}
    try:
        os.environ.update(nodes.environment)  # the cluster's own token
        connect(nodes.address)
        yield nodes
    finally:
        import ray

        ray.shutdown()
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        nodes.stop()
        assert nodes.processes() == []


def solver_run(argv: list[str]) -> tuple[int, list[dict[str, Any]]]:
    """``python -m solitaire_rl.agents.solver ARGV --json`` in this process: exit status and the JSON
    lines."""
    args = build_parser().parse_args([*argv, "--json"])
    out = io.StringIO()
    code = args.run(args, out)
    return code, [json.loads(line) for line in out.getvalue().splitlines()]


def untimed(record: dict[str, Any]) -> dict[str, Any]:
    """A JSON row or summary without its timing fields (they differ from run to run)."""
    return {k: untimed(v) if isinstance(v, dict) else v for k, v in record.items() if k not in TIMING}


def tcp_sockets(pids: list[int]) -> list[tuple[str, str]]:
    """(local, remote) IP addresses, as ``/proc/net`` writes them (hex), of every TCP socket ``pids`` hold."""
    inodes = set()
    for pid in pids:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                target = fd.readlink().as_posix()
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    found = []
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/{pids[0]}/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[9] in inodes:
                found.append((fields[1].split(":")[0], fields[2].split(":")[0]))
    return found


LOOPBACK_HEX = {"0100007F", "0000000000000000FFFF00000100007F"}
"""127.0.0.1 as ``/proc/net/tcp`` and ``tcp6`` (IPv4-mapped) write it."""
UNCONNECTED_HEX = {"00000000", "0" * 32}


def test_the_cluster_is_two_nodes_talking_on_loopback_only(cluster: LoopbackCluster) -> None:
    import ray

    nodes = [n for n in ray.nodes() if n["Alive"]]
    assert sorted((n["NodeManagerAddress"], n["Resources"]["CPU"]) for n in nodes) == [("127.0.0.1", 1.0)] * 2
    sockets = tcp_sockets(cluster.processes())
    assert len(sockets) > 10
    assert {local for local, _ in sockets} <= LOOPBACK_HEX  # nothing listens beyond 127.0.0.1
    assert {remote for _, remote in sockets} <= LOOPBACK_HEX | UNCONNECTED_HEX


def test_a_solver_sweep_on_the_cluster_gives_the_local_rows(cluster: LoopbackCluster) -> None:
    typed = resolve_deal("pyramid-random-v1-9", "pyramid").code  # travels as a Deal, not as an ID
    deals = ["1-300", "pyramid-winnable-v1-3", typed]
    for argv in (["pyramid", *deals], ["pyramid", "1-60", "--variant", "001", "--line"],
                 ["klondike", "1-12", "--line"]):
        local_code, local = solver_run(argv)
        ray_code, on_ray = solver_run([*argv, "--ray", cluster.address])
        assert (local_code, ray_code) == (0, 0)
        assert len(on_ray) == len(local) > 12
        assert [untimed(r) for r in on_ray] == [untimed(r) for r in local]  # same deals, same order


def test_the_benchmark_on_the_cluster_gives_the_local_rows(cluster: LoopbackCluster, tmp_path: Path) -> None:
    common = dict(game="pyramid-001", deals="1-8", agents="random,greedy,solver,pimc", seed=5)
    local, local_table, _ = benchmark(Args(**common, workers=1, json=str(tmp_path / "local.json")))
    rows, table, notes = benchmark(Args(**common, ray=cluster.address, json=str(tmp_path / "ray.json")))
    assert notes == [] and len(rows) == len(local) == 32
    assert [untimed(asdict(r)) for r in rows] == [untimed(asdict(r)) for r in local]
    assert [untimed(asdict(s)) for s in table] == [untimed(asdict(s)) for s in local_table]
    on_disk = [json.loads((tmp_path / name).read_text()) for name in ("local.json", "ray.json")]
    expected = [untimed(asdict(r)) for r in local]
    assert [[untimed(r) for r in data["rows"]] for data in on_disk] == [expected, expected]
    assert on_disk[0]["command"] == on_disk[1]["command"]


def test_world_labels_on_the_cluster_give_the_local_shards(cluster: LoopbackCluster, tmp_path: Path) -> None:
    from solitaire_rl.training import world_labels

    config = world_labels.LabelConfig(chunk=1, max_worlds=60, bot_options={"cap": 150, "hopeless_worlds": 30},
                                      label_worlds=8, label_cap=100)
    first = world_labels.TRAIN.first + 3
    local = world_labels.run(tmp_path / "local", config, first, 2, progress=False)
    on_ray = world_labels.run(tmp_path / "ray", config, first, 2, ray=cluster.address, progress=False)
    assert local["shards"] == on_ray["shards"] == 2
    names = sorted(p.name for p in (tmp_path / "local").glob("deals-*.npz"))
    assert names == sorted(p.name for p in (tmp_path / "ray").glob("deals-*.npz"))
    assert all((tmp_path / "local" / n).read_bytes() == (tmp_path / "ray" / n).read_bytes() for n in names)


def test_a_checkpoint_file_travels_with_the_task(tmp_path: Path) -> None:
    """A ``--checkpoint`` only the driver has goes to the workers as bytes (in the task's function,
    which Ray's object store carries) and is written once per machine: the same rows as from the path.
    (``ppo`` itself is left off the cluster tests: two workers importing torch cost 20 s here.)"""
    checkpoint = tmp_path / "elsewhere.zip"
    shutil.copy(default_checkpoint(find_game("pyramid-000")), checkpoint)
    entry = AgentEntry("ppo:elsewhere", "ppo", str(checkpoint), moves="argmax", seeded=False)
    options = PlayOptions("pyramid-000", agents=(entry,))
    shipped = ship_checkpoints(options)
    assert shipped["ppo:elsewhere"][2] == checkpoint.read_bytes()
    checkpoint.unlink()  # the worker must not need the driver's file
    row = play_shipped_deal(options, pickle.loads(pickle.dumps(shipped)), ("ppo:elsewhere", 3, None))
    written = _SHIPPED.pop(shipped["ppo:elsewhere"][0])
    assert written.read_bytes() == shipped["ppo:elsewhere"][2]
    written.unlink()
    with contextlib.suppress(OSError):  # the folder, unless something else is in it
        written.parent.rmdir()
    shutil.copy(default_checkpoint(find_game("pyramid-000")), checkpoint)
    assert untimed(asdict(row)) == untimed(asdict(play_deal(options, ("ppo:elsewhere", 3, None))))


def test_a_killed_worker_loses_no_deal(cluster: LoopbackCluster) -> None:
    """Klondike deal 96 takes over a second to prove lost: the worker busy on it is killed mid-task
    and Ray runs its task again; every deal comes back, with the local rows."""
    argv = ["klondike", "1-11", "96"]
    _, local = solver_run(argv)
    killed: list[int] = []
    done = threading.Event()

    def kill_a_busy_worker() -> None:
        seen: dict[int, float] = {}
        while not done.is_set() and not killed:
            now = time.monotonic()
            busy = {pid for pid in cluster.processes() if process_title(pid).startswith("ray::_run_chunk")}
            for pid in busy:
                if now - seen.setdefault(pid, now) > 0.25:  # busy on a task for a while: mid-run
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
                    break
            seen = {pid: t for pid, t in seen.items() if pid in busy}
            time.sleep(0.02)

    killer = threading.Thread(target=kill_a_busy_worker)
    killer.start()
    try:
        code, on_ray = solver_run([*argv, "--ray", cluster.address])
    finally:
        done.set()
        killer.join()
    assert len(killed) == 1 and code == 0
    assert [untimed(r) for r in on_ray] == [untimed(r) for r in local]


def test_a_deal_that_fails_is_reported_not_dropped(cluster: LoopbackCluster) -> None:
    solve = partial(solve_pyramid_item, "000", SearchLimits(time_limit=10.0), False)
    items = ["pyramid-random-v1-1", "pyramid-random-v1-2", "no-such-deal", "pyramid-random-v1-4"]
    args = argparse.Namespace(json=True, line=False)
    out = io.StringIO()
    assert report(args, solve_on_ray(cluster.address, solve, items), "000", "variant", out) == 1
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [line["deal"] for line in lines[:-1]] == items
    assert "error" in lines[2] and "no-such-deal" in lines[2]["error"]
    assert all("verdict" in line for line in lines[:2] + lines[3:4])
    assert lines[-1]["summary"]["deals"] == 3 and lines[-1]["summary"]["failed"] == 1


def _exit_on_seven(number: int) -> int:
    if number == 7:
        os._exit(3)  # the item itself kills its worker, every time
    return number * number


def test_an_item_that_kills_its_worker_fails_alone(cluster: LoopbackCluster) -> None:
    import ray.cloudpickle

    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # workers cannot import tests/
    try:
        pairs = fan_out(_exit_on_seven, list(range(10)), chunk_size=5, max_retries=0, progress=None)
        results = list(in_order(pairs, 10))
    finally:
        ray.cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    assert [r for r in results if not isinstance(r, Failed)] == [n * n for n in range(10) if n != 7]
    assert isinstance(results[7], Failed) and "died" in results[7].error


def test_without_ray_nothing_imports_it() -> None:
    script = "\n".join([
        "import sys", "from solitaire_rl.agents.solver.cli import main",
        "from solitaire_rl.training.benchmark import Args, main as bench",
        "main(['pyramid', '1-3'])", "bench(Args(game='pyramid', deals='1-3', agents='random', workers=1))",
        "assert 'ray' not in sys.modules, 'ray was imported'"])
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
