"""What the play-server benchmarks share: timed requests, games played action by action, and the
taps sent while a verdict runs (``play_server.py`` for Pyramid, ``play_klondike.py`` for Klondike).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import httpx

from solitaire_rl.play.server.cli import serve_in_thread

NextAction = Callable[[dict, int], dict]
"""A player's next intent from the state and the step number."""


def timed(client: httpx.Client, method: str, url: str, body: dict | None = None) -> tuple[dict, float, float]:
    """The response's JSON, the server's own time (its ``Server-Timing`` header) and the round trip, in ms."""
    start = time.perf_counter()
    r = client.request(method, url, json=body)
    wall = (time.perf_counter() - start) * 1000
    return r.json(), float(r.headers["server-timing"].split("dur=")[1]), wall


def parse_args(doc: str, deals: int, actions: int) -> argparse.Namespace:
    """``--deals`` and ``--actions`` with the script's defaults; the description is ``doc``'s first line."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--deals", type=int, default=deals)
    parser.add_argument("--actions", type=int, default=actions)
    return parser.parse_args()


@contextmanager
def served(timeout: float) -> Iterator[tuple[httpx.Client, str]]:
    """The real play server on a free port in this process, and a client for it; both stopped after."""
    server, thread, base = serve_in_thread()
    try:
        with httpx.Client(timeout=timeout) as client:
            yield client, base
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def per_action(client: httpx.Client, games: str, deal_prefix: str, deals: int, actions: int,
               next_action: NextAction) -> tuple[list[float], list[float]]:
    """Deals ``{deal_prefix}0..`` played from ``games`` (the games URL); server times and round trips."""
    server_times, walls = [], []
    for n in range(deals):
        state, _, _ = timed(client, "POST", games, {"deal": f"{deal_prefix}{n}"})
        for step in range(actions):
            if state["outcome"] is not None:
                break
            state, server_ms, wall = timed(client, "POST", f"{games}/{state['session']}/actions",
                                           next_action(state, step))
            if "error" in state:
                raise SystemExit(f"unexpected refusal: {state}")
            server_times.append(server_ms)
            walls.append(wall)
    return server_times, walls


def report_actions(what: str, deals: int, server_times: list[float], walls: list[float], cpu: float) -> None:
    """Print the median and 95th percentile of the server times and round trips, and the CPU per action."""
    print(f"{len(server_times)} {what} over {deals} deals (load average {os.getloadavg()[0]:.2f})")
    print(f"server time per action: median {statistics.median(server_times):.2f} ms, "
          f"p95 {statistics.quantiles(server_times, n=20)[18]:.2f} ms")
    print(f"round trip per action:  median {statistics.median(walls):.2f} ms, "
          f"p95 {statistics.quantiles(walls, n=20)[18]:.2f} ms; "
          f"process CPU {cpu / len(walls) * 1000:.2f} ms per action (client and server)")


def timed_actions(client: httpx.Client, games: str, deal_prefix: str, args: argparse.Namespace,
                  next_action: NextAction, what: str) -> None:
    """:func:`per_action` for ``args.deals`` deals of ``args.actions`` actions, and its report."""
    cpu = time.process_time()
    server_times, walls = per_action(client, games, deal_prefix, args.deals, args.actions, next_action)
    report_actions(what, args.deals, server_times, walls, time.process_time() - cpu)


def taps_during_verdict(client: httpx.Client, game: str, tap: dict,
                        verdict_query: str = "") -> tuple[list[float], float, dict]:
    """Start the verdict of ``game`` (a game's URL), send ``tap`` until it is no longer ``checking``.

    Returns the taps' round trips, the ms until the verdict was read, and the verdict.
    """
    start = time.perf_counter()
    timed(client, "POST", f"{game}/verdict")
    walls = []
    while True:
        now, _, wall = timed(client, "POST", f"{game}/actions", tap)
        if now["verdict"] is None or now["verdict"]["status"] != "checking":
            break
        walls.append(wall)
    verdict = client.get(f"{game}/verdict{verdict_query}").json()["verdict"]
    return walls, (time.perf_counter() - start) * 1000, verdict


def answered(walls: list[float]) -> str:
    """How the actions sent during a verdict were answered."""
    return (f"{len(walls)} actions answered, median round trip "
            f"{statistics.median(walls) if walls else float('nan'):.2f} ms, "
            f"max {max(walls) if walls else float('nan'):.2f} ms")


__all__ = ["answered", "parse_args", "per_action", "report_actions", "served", "taps_during_verdict", "timed",
           "timed_actions"]
