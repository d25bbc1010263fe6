"""A real two-node Ray cluster on 127.0.0.1, for the tests and the benchmark scripts.

``LoopbackCluster(cpus_per_node=1)`` runs ``ray start --head --node-ip-address=127.0.0.1`` and
``ray start --address=127.0.0.1:PORT --node-ip-address=127.0.0.1``, each with one CPU, its own
temp dir under ``/tmp`` and its own free ports; the dashboard is off. The cluster uses Ray's token
authentication with a token of its own (not ``~/.ray/auth_token``, which another cluster on the
machine may have written): a driver joins with :attr:`LoopbackCluster.environment` in its
environment. Ray 2.x turns a loopback
node address into the machine's routable one (``resolve_ip_for_localhost``), which would send the
cluster's traffic through that interface; the nodes are therefore started through ``ray start``'s
own command with that one function keeping 127.0.0.1 as given (``python -m tests.ray_loopback
start ...``), so every address the cluster uses is 127.0.0.1. Drivers join with
:func:`solitaire_rl.agents.distributed.connect` and the same address.

``stop()`` ends exactly the processes the two ``ray start`` commands started (each runs in a
session of its own; every Ray process of that node, its workers included, stays in it), by their
process IDs, never by name, and removes the temp dirs. ``ray stop`` is not used: it signals every
Ray process on the machine, other people's clusters included.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOOPBACK = "127.0.0.1"


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as sock:
        sock.bind((LOOPBACK, 0))
        return sock.getsockname()[1]


def session_processes(session: int) -> list[int]:
    """IDs of the live processes of the session ``session`` (Linux ``/proc``)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z" and int(fields[3]) == session:  # state, ppid, pgrp, session
            found.append(int(entry.name))
    return found


def process_title(pid: int) -> str:
    """The command line of ``pid`` as it shows it (Ray workers show ``ray::TASK`` while running one)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


class LoopbackCluster:
    """A head node and a worker node on 127.0.0.1, ``cpus_per_node`` CPUs each."""

    def __init__(self, cpus_per_node: int = 1, nodes: int = 2) -> None:
        if nodes < 1 or cpus_per_node < 1:
            raise ValueError(f"need at least one node of one CPU, not {nodes} x {cpus_per_node}")
        self.cpus_per_node = cpus_per_node
        self.nodes = nodes
        self.port = free_port()
        self.address = f"{LOOPBACK}:{self.port}"
        self.temp_dirs: list[Path] = []
        self.starters: list[subprocess.Popen[bytes]] = []
        self.environment: dict[str, str] = {}
        """What a driver's environment needs to join (Ray's token authentication, this cluster's token)."""

    def _ray_start(self, *options: str) -> tuple[subprocess.Popen[bytes], Path]:
        """Launch one ``ray start`` (it exits once its node is up); its log goes to its temp dir."""
        temp = Path(tempfile.mkdtemp(prefix="ray-", dir="/tmp"))  # short: Ray's socket paths have a limit
        self.temp_dirs.append(temp)
        command = [sys.executable, "-m", "tests.ray_loopback", "start", "--node-ip-address", LOOPBACK,
                   "--num-cpus", str(self.cpus_per_node), "--temp-dir", str(temp), "--disable-usage-stats",
                   "--dashboard-agent-listen-port", str(free_port()), "--object-store-memory", str(200 << 20),
                   "--include-log-monitor=false", *options]
        # connect() may have set this switch in this process: a worker node refuses to start with it
        env = {k: v for k, v in os.environ.items() if k != "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"}
        env |= {"RAY_USAGE_STATS_ENABLED": "0", **self.environment}
        with (temp / "ray-start.log").open("wb") as log:
            starter = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env,
                                       start_new_session=True, cwd=ROOT)
        self.starters.append(starter)
        return starter, temp

    def start(self) -> LoopbackCluster:
        """Start the nodes (the worker nodes' ``ray start`` wait for the head's GCS: all start at once)."""
        token_dir = Path(tempfile.mkdtemp(prefix="ray-token-", dir="/tmp"))
        self.temp_dirs.append(token_dir)
        token = token_dir / "auth_token"
        token.touch(mode=0o600)
        token.write_text(secrets.token_hex(32))
        self.environment = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": str(token)}
        try:
            launched = [self._ray_start("--head", "--port", str(self.port), "--include-dashboard=false",
                                        "--no-monitor", "--dashboard-host", LOOPBACK,
                                        "--dashboard-port", str(free_port()),
                                        "--ray-client-server-port", str(free_port()))]
            launched += [self._ray_start("--address", self.address) for _ in range(self.nodes - 1)]
            for starter, temp in launched:
                code = starter.wait(timeout=120)
                if code != 0:
                    log = (temp / "ray-start.log").read_text()[-2000:]
                    raise RuntimeError(f"ray start failed ({code}): {log}")
        except BaseException:
            self.stop()
            raise
        return self

    def processes(self) -> list[int]:
        """Every live process of this cluster (both nodes' daemons and workers)."""
        return [pid for starter in self.starters for pid in session_processes(starter.pid)]

    def stop(self, wait: float = 10.0) -> None:
        """Kill this cluster's processes (SIGKILL, as ``ray stop --force``: a throwaway cluster keeps
        nothing worth a graceful end) and remove its temp dirs."""
        deadline = time.monotonic() + wait
        while (left := self.processes()) and time.monotonic() < deadline:
            for pid in left:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.05)
        for temp in self.temp_dirs:
            shutil.rmtree(temp, ignore_errors=True)
        if left:
            raise RuntimeError(f"Ray processes still alive after SIGKILL: {left}")

    def __enter__(self) -> LoopbackCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _ray_cli_keeping_loopback() -> None:
    """``ray`` (the command) with 127.0.0.1 kept as 127.0.0.1."""
    from ray._private import services
    from ray.scripts.scripts import main

    resolve = services.resolve_ip_for_localhost
    services.resolve_ip_for_localhost = lambda host: host if host == LOOPBACK else resolve(host)
    main()


if __name__ == "__main__":
    _ray_cli_keeping_loopback()
