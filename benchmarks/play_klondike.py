"""How fast the play server answers Klondike actions, and whether it answers while a verdict runs.

Starts the real server (uvicorn, 127.0.0.1, a free port, the Klondike endpoints mounted) in this
process and plays over HTTP:

1. **Time per action**: ``--deals`` random deals, each played from the server's own state for
   ``--actions`` actions (a face-up card with a target is tapped, or selected and its target
   tapped; otherwise the stock; now and then undo and redo). Reported: median and 95th percentile
   of the server's own time per action (its ``Server-Timing`` header: routing, validation, engine,
   the no-progress and finish checks, JSON) and of the round trip.
2. **During a verdict**: deal ``klondike-random-v1-1002`` takes the solver about 5 s (7.7 million
   states). A verdict is started, then select/deselect taps (which leave the position, and so the
   search, alone) are sent one after the other until it ends: their round trips are reported.

Run: ``python benchmarks/play_klondike.py`` (``--deals 20 --actions 60`` by default).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import httpx

from play.server import create_app
from play.server.cli import serve_in_thread
from play.server.klondike_api import mount_klondike

SLOW = "klondike-random-v1-1002"


def timed(client: httpx.Client, method: str, url: str, body: dict | None = None) -> tuple[dict, float, float]:
    start = time.perf_counter()
    r = client.request(method, url, json=body)
    wall = (time.perf_counter() - start) * 1000
    return r.json(), float(r.headers["server-timing"].split("dur=")[1]), wall


def next_action(state: dict, step: int) -> dict:
    """A plausible player's next intent, from the state alone."""
    if state["selected"] is not None:
        targets = state["selected_targets"]
        return {"type": "tap", "place": targets[0] if targets else state["selected"]}
    if step % 9 == 4 and state["can_undo"]:
        return {"type": "undo"}
    if state["can_redo"] and step % 9 == 5:
        return {"type": "redo"}
    cards = [c for col in state["columns"] for c in col["cards"]]
    movable = [c["place"] for c in cards if not c["face_down"] and c["targets"]]
    if state["waste"]["targets"]:
        movable.append("waste")
    if movable and step % 3:
        return {"type": "tap", "place": movable[step % len(movable)]}
    return {"type": "stock"}


def per_action(client: httpx.Client, base: str, deals: int, actions: int) -> tuple[list[float], list[float]]:
    server_times, walls = [], []
    for n in range(deals):
        state, _, _ = timed(client, "POST", f"{base}/api/klondike/games", {"deal": f"klondike-random-v1-{n}"})
        for step in range(actions):
            if state["outcome"] is not None:
                break
            url = f"{base}/api/klondike/games/{state['session']}/actions"
            state, server_ms, wall = timed(client, "POST", url, next_action(state, step))
            if "error" in state:
                raise SystemExit(f"unexpected refusal: {state}")
            server_times.append(server_ms)
            walls.append(wall)
    return server_times, walls


def during_verdict(client: httpx.Client, base: str) -> tuple[list[float], float, dict]:
    state, _, _ = timed(client, "POST", f"{base}/api/klondike/games", {"deal": SLOW})
    game = f"{base}/api/klondike/games/{state['session']}"
    start = time.perf_counter()
    timed(client, "POST", f"{game}/verdict")
    walls = []
    while True:
        now, _, wall = timed(client, "POST", f"{game}/actions", {"type": "tap", "place": "c1"})
        if now["verdict"] is None or now["verdict"]["status"] != "checking":
            break
        walls.append(wall)
    verdict = client.get(f"{game}/verdict?wait=10").json()["verdict"]
    return walls, (time.perf_counter() - start) * 1000, verdict


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--actions", type=int, default=60)
    args = parser.parse_args()
    server, thread, base = serve_in_thread(mount_klondike(create_app()))
    try:
        with httpx.Client(timeout=60) as client:
            cpu = time.process_time()
            server_times, walls = per_action(client, base, args.deals, args.actions)
            cpu = time.process_time() - cpu
            q = statistics.quantiles(server_times, n=20)
            print(f"{len(server_times)} Klondike actions over {args.deals} deals "
                  f"(load average {os.getloadavg()[0]:.2f})")
            print(f"server time per action: median {statistics.median(server_times):.2f} ms, "
                  f"p95 {q[18]:.2f} ms")
            print(f"round trip per action:  median {statistics.median(walls):.2f} ms, "
                  f"p95 {statistics.quantiles(walls, n=20)[18]:.2f} ms; "
                  f"process CPU {cpu / len(walls) * 1000:.2f} ms per action (client and server)")
            during, total, verdict = during_verdict(client, base)
            print(f"during a verdict ({SLOW}: {verdict['status']}, search {verdict['seconds'] or 0:.2f} s, "
                  f"{verdict['states'] or 0:,} states; answered after {total / 1000:.2f} s): "
                  f"{len(during)} actions answered, median round trip "
                  f"{statistics.median(during) if during else float('nan'):.2f} ms, "
                  f"max {max(during) if during else float('nan'):.2f} ms")
    finally:
        server.should_exit = True
        thread.join(timeout=10)


if __name__ == "__main__":
    main()
