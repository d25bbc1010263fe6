"""How fast the play server answers, and whether it answers while a verdict is being computed.

Starts the real server (uvicorn, 127.0.0.1, a free port) in this process and plays over HTTP:

1. **Time per action**: ``--deals`` random deals (variant 000), each played by taps from the
   server's own state (select a usable card, tap a partner or deselect, draw, undo, redo) for
   ``--actions`` actions. Reported: the median and 95th percentile of the server's own time per
   action (its ``Server-Timing`` header: routing, validation, engine, JSON) and of the round trip.
2. **Hints**: one hint per deal, after the agent is loaded (``ppo`` when its checkpoint loads,
   else ``greedy``; the line says which).
3. **During a verdict**: variant 001 deal ``pyramid-random-v1-74675`` takes the solver about
   0.3 s (446,000 states) to prove lost. A verdict is started, then select/deselect taps are sent
   one after the other until the search ends: their round-trip times are reported with the
   search's own time. The search runs in a worker thread with the GIL released.

Run: ``python benchmarks/play_server.py`` (add ``--deals 50 --actions 40`` for more rows).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import httpx

from play.server.cli import serve_in_thread

SLOW_001 = "pyramid-random-v1-74675"


def timed(client: httpx.Client, method: str, url: str, body: dict | None = None) -> tuple[dict, float, float]:
    start = time.perf_counter()
    r = client.request(method, url, json=body)
    wall = (time.perf_counter() - start) * 1000
    server_ms = float(r.headers["server-timing"].split("dur=")[1])
    return r.json(), server_ms, wall


def next_action(state: dict, step: int) -> dict:
    """A plausible player's next intent, from the state alone."""
    usable = state["usable"]
    if state["selected"] is not None:
        partners = next((u["partners"] for u in usable if u["place"] == state["selected"]), [])
        return {"type": "tap", "place": partners[0] if partners else state["selected"]}
    with_partner = [u for u in usable if u["partners"] or u["card"]["rank"] == 13]
    if with_partner:
        return {"type": "tap", "place": with_partner[0]["place"]}
    if step % 7 == 3 and state["can_undo"]:
        return {"type": "undo"}
    if state["can_redo"]:
        return {"type": "redo"}
    if state["draw_refusal"] is None:
        return {"type": "draw"}
    if state["recycle_refusal"] is None:
        return {"type": "recycle"}
    return {"type": "undo"}


def per_action(client: httpx.Client, base: str, deals: int, actions: int) -> tuple[list[float], list[float]]:
    server_times, walls = [], []
    for n in range(deals):
        state, _, _ = timed(client, "POST", f"{base}/api/games", {"deal": f"pyramid-random-v1-{n}"})
        for step in range(actions):
            if state["outcome"] is not None:
                break
            state, server_ms, wall = timed(client, "POST", f"{base}/api/games/{state['session']}/actions",
                                           next_action(state, step))
            if "error" in state:
                raise SystemExit(f"unexpected refusal: {state}")
            server_times.append(server_ms)
            walls.append(wall)
    return server_times, walls


def state_id(client: httpx.Client, base: str) -> str:
    return client.post(f"{base}/api/games", json={}).json()["session"]


def hints(client: httpx.Client, base: str, deals: int) -> list[float]:
    """Server time of one hint at the start of each deal (the first one loads the agent: left out)."""
    times = []
    for n in range(deals + 1):
        state, _, _ = timed(client, "POST", f"{base}/api/games", {"deal": f"pyramid-random-v1-{n}"})
        _, server_ms, _ = timed(client, "POST", f"{base}/api/games/{state['session']}/hint")
        times.append(server_ms)
    return times[1:]


def during_verdict(client: httpx.Client, base: str) -> tuple[list[float], float, float]:
    state, _, _ = timed(client, "POST", f"{base}/api/games", {"variant": "001", "deal": SLOW_001})
    game = f"{base}/api/games/{state['session']}"
    start = time.perf_counter()
    timed(client, "POST", f"{game}/verdict")
    walls = []
    while True:
        now, _, wall = timed(client, "POST", f"{game}/actions", {"type": "tap", "place": 21})
        if now["verdict"]["status"] != "checking":
            break
        walls.append(wall)
    verdict = client.get(f"{game}/verdict").json()["verdict"]
    return walls, (time.perf_counter() - start) * 1000, verdict["seconds"] * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--actions", type=int, default=40)
    args = parser.parse_args()
    server, thread, base = serve_in_thread()
    try:
        with httpx.Client(timeout=30) as client:
            cpu = time.process_time()
            server_times, walls = per_action(client, base, args.deals, args.actions)
            cpu = time.process_time() - cpu
            q = statistics.quantiles(server_times, n=20)
            load = os.getloadavg()[0]
            print(f"{len(server_times)} actions over {args.deals} deals (load average {load:.2f})")
            median = statistics.median(server_times)
            print(f"server time per action: median {median:.2f} ms, p95 {q[18]:.2f} ms")
            print(f"round trip per action:  median {statistics.median(walls):.2f} ms, "
                  f"p95 {statistics.quantiles(walls, n=20)[18]:.2f} ms; "
                  f"process CPU {cpu / len(walls) * 1000:.2f} ms per action (client and server)")
            hint_times = hints(client, base, args.deals)
            agent = client.post(f"{base}/api/games/{state_id(client, base)}/hint").json()["hint"]["agent"]
            print(f"hint ({agent}): median server time {statistics.median(hint_times):.2f} ms")
            during, total, search = during_verdict(client, base)
            print(f"during a verdict ({SLOW_001}, variant 001; search {search:.0f} ms, "
                  f"{total:.0f} ms to answer): "
                  f"{len(during)} actions answered, median round trip "
                  f"{statistics.median(during) if during else float('nan'):.2f} ms, "
                  f"max {max(during) if during else float('nan'):.2f} ms")
    finally:
        server.should_exit = True
        thread.join(timeout=10)


if __name__ == "__main__":
    main()
