"""Many simulated players against the real play server at once (issue 39): status counts, latency, memory.

Starts the play server (uvicorn on 127.0.0.1, a free port) in a child process, then ``--players``
threads, each with its own HTTP client, play for ``--seconds``: each creates a game (Klondike and
Pyramid in turn, random deals), asks a hint (``--source``, default the planner), plays the hinted
move (after ``--think`` seconds, default 0), asks a verdict every ``--verdict-every`` moves, and
starts a new game when one ends. A 503 ``BUSY`` is honoured (the player waits ``Retry-After``
seconds); a 404 (an evicted game) makes the player start another. Reported: requests, status counts
(5xx other than 503 must be 0), transport errors, latency (p50/p95/p99 of each kind of request, of
hints answered, of every request, and the time to a hint as the player meets it: from the first ask
to the answer, 503s and their waits included), and the server's resident memory (peak sampled once a
second, and the kernel's high-water mark ``VmHWM``), with its thread count.

    python benchmarks/load_players.py --players 16 --seconds 30
    python benchmarks/load_players.py --players 64 --seconds 300 --json load.json   # the issue's target

``--work-slots N`` sets the server's bound on hints and verdict searches at once (default: one per CPU,
at least 2; ``solitaire_rl.play.server.work``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import _checkout  # noqa: F401  (stops if another checkout's code would load)

from solitaire_rl.play.server.cli import HOST, free_port

ROOT = Path(__file__).resolve().parent.parent
SERVER = """
import sys
sys.path.insert(0, sys.argv[4])
import _checkout  # stops if another checkout's code would load
import uvicorn
from solitaire_rl.play.server import create_app
slots = None if sys.argv[2] == "auto" else int(sys.argv[2])
from solitaire_rl.play.server.cli import server_settings  # the bounds python -m solitaire_rl.play runs with
settings = {**server_settings(), "host": sys.argv[3], "port": int(sys.argv[1])}
uvicorn.run(create_app(work_slots=slots), **settings)
"""
GAMES = {"klondike": "/api/klondike/games", "pyramid": "/api/games"}


@dataclass
class Tally:
    """What every player saw, shared (under ``lock``)."""

    statuses: Counter[str] = field(default_factory=Counter)
    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: Counter[str] = field(default_factory=Counter)
    games: int = 0
    moves: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, kind: str, status: int, seconds: float) -> None:
        with self.lock:
            self.statuses[f"{kind} {status}"] += 1
            self.latencies.setdefault(kind, []).append(seconds)
            if kind == "hint" and status == 200:
                self.latencies.setdefault("hint 200", []).append(seconds)


def request(client: httpx.Client, tally: Tally, kind: str, method: str, url: str,
            **kwargs: object) -> httpx.Response | None:
    """One request, timed and counted; ``None`` for a transport error (counted too)."""
    start = time.perf_counter()
    try:
        r = client.request(method, url, **kwargs)  # type: ignore[arg-type]
    except httpx.HTTPError as exc:
        with tally.lock:
            tally.errors[f"{kind} {type(exc).__name__}"] += 1
        return None
    tally.record(kind, r.status_code, time.perf_counter() - start)
    return r


def player(index: int, base: str, end: float, source: str, verdict_every: int, think: float,
           tally: Tally) -> None:
    """One player until ``end``: new game, hint, hinted move (after ``think`` seconds), a verdict now
    and then."""
    game = "klondike" if index % 2 == 0 else "pyramid"
    games = base + GAMES[game]
    with httpx.Client(timeout=60.0) as client:
        session = None
        moves = 0
        asked: float | None = None  # when the player first asked for the hint not yet answered
        while time.monotonic() < end:
            if session is None:
                r = request(client, tally, "create", "POST", games, json={})
                if r is None or r.status_code != 201:
                    time.sleep(0.5)
                    continue
                session = r.json()["session"]
                with tally.lock:
                    tally.games += 1
            asked = time.perf_counter() if asked is None else asked
            r = request(client, tally, "hint", "POST", f"{games}/{session}/hint", params={"source": source})
            if r is None:
                continue
            if r.status_code == 503:
                time.sleep(float(r.headers.get("retry-after", "1")))
                continue
            if r.status_code == 200:
                with tally.lock:  # what the player waits for: the first ask to the hint, 503s included
                    tally.latencies.setdefault("time to a hint", []).append(time.perf_counter() - asked)
            asked = None
            if r.status_code != 200:
                session = None
                continue
            state = r.json()
            hint = state.get("hint")
            if state.get("outcome") is not None or not hint or hint.get("move") is None:
                session = None  # the game is over, or no move left to hint: a new game
                continue
            time.sleep(think)
            r = request(client, tally, "move", "POST", f"{games}/{session}/actions",
                        json={"type": "move", "move": hint["move"]})
            if r is None or r.status_code != 200:
                session = None
                continue
            moves += 1
            with tally.lock:
                tally.moves += 1
            if r.json().get("outcome") is not None:
                session = None
            elif verdict_every and moves % verdict_every == 0:
                request(client, tally, "verdict", "POST", f"{games}/{session}/verdict")


def server_memory(pid: int) -> dict[str, int]:
    """The server's resident memory now and its peak (``VmRSS``, ``VmHWM``, bytes) and threads:
    from ``/proc``, else psutil (its peak is then the RSS now)."""
    status = Path(f"/proc/{pid}/status")
    if not status.exists():
        import psutil

        process = psutil.Process(pid)
        rss = process.memory_info().rss
        return {"rss": rss, "hwm": rss, "threads": process.num_threads()}
    fields = {}
    for line in status.read_text().splitlines():
        name, _, value = line.partition(":")
        fields[name] = value.split()[0] if value.split() else "0"
    return {"rss": int(fields["VmRSS"]) * 1024, "hwm": int(fields["VmHWM"]) * 1024,
            "threads": int(fields["Threads"])}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def start_server(work_slots: str) -> tuple[subprocess.Popen[bytes], str]:
    """The play server in a child process; it and its base URL once it answers."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    proc = subprocess.Popen([sys.executable, "-c", SERVER, str(port), work_slots, HOST,
                             str(Path(__file__).resolve().parent)], cwd=ROOT, env=env)
    base = f"http://{HOST}:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the play server exited with {proc.returncode}")
        try:
            if httpx.get(base + "/", timeout=2).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    proc.kill()
    raise SystemExit("the play server did not start within 60 s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--source", default="planner", choices=["planner", "agent", "network", "guided"])
    parser.add_argument("--verdict-every", type=int, default=5, help="a verdict every N moves (0: none)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds a player looks at a hint before playing it (default 0: a bot)")
    parser.add_argument("--work-slots", default="auto", help="the server's work bound (default: auto)")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = parser.parse_args()
    proc, base = start_server(args.work_slots)
    tally = Tally()
    peak = {"rss": 0, "threads": 0}
    try:
        end = time.monotonic() + args.seconds
        threads = [threading.Thread(target=player, daemon=True,
                                    args=(i, base, end, args.source, args.verdict_every, args.think, tally))
                   for i in range(args.players)]
        started = time.monotonic()
        for t in threads:
            t.start()
        while any(t.is_alive() for t in threads):
            memory = server_memory(proc.pid)
            peak = {k: max(peak[k], memory[k]) for k in peak}
            time.sleep(1.0)
        wall = time.monotonic() - started
        memory = server_memory(proc.pid)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    requests = sum(tally.statuses.values())
    server_errors = sum(n for k, n in tally.statuses.items() if k.split()[-1].startswith("5")
                        and k.split()[-1] != "503")
    busy = sum(n for k, n in tally.statuses.items() if k.endswith(" 503"))
    every = [t for kind, ts in tally.latencies.items() if kind not in ("hint 200", "time to a hint")
             for t in ts]
    figures = {
        "players": args.players, "seconds": round(wall, 1), "source": args.source, "think_s": args.think,
        "work_slots": args.work_slots, "requests": requests, "requests_per_s": round(requests / wall, 1),
        "games": tally.games, "moves": tally.moves, "statuses": dict(sorted(tally.statuses.items())),
        "5xx_but_503": server_errors, "503": busy, "transport_errors": dict(tally.errors),
        "latency_s": {kind: {f"p{q}": round(percentile(ts, q / 100), 3) for q in (50, 95, 99)}
                      for kind, ts in [*sorted(tally.latencies.items()), ("all", every)]},
        "server_rss_peak_sampled_mib": round(peak["rss"] / 2**20),
        "server_vmhwm_mib": round(memory["hwm"] / 2**20),
        "server_threads_peak": peak["threads"],
    }
    print(json.dumps(figures, indent=2))
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    if server_errors or tally.errors:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
