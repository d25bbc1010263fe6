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

import statistics

import httpx
from play_timing import answered, parse_args, served, taps_during_verdict, timed, timed_actions

SLOW_001 = "pyramid-random-v1-74675"


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


def main() -> None:
    args = parse_args(__doc__, deals=30, actions=40)
    with served(timeout=30) as (client, base):
        timed_actions(client, f"{base}/api/games", "pyramid-random-v1-", args, next_action, "actions")
        hint_times = hints(client, base, args.deals)
        agent = client.post(f"{base}/api/games/{state_id(client, base)}/hint").json()["hint"]["agent"]
        print(f"hint ({agent}): median server time {statistics.median(hint_times):.2f} ms")
        state, _, _ = timed(client, "POST", f"{base}/api/games", {"variant": "001", "deal": SLOW_001})
        during, total, verdict = taps_during_verdict(client, f"{base}/api/games/{state['session']}",
                                                     {"type": "tap", "place": 21})
        print(f"during a verdict ({SLOW_001}, variant 001; search {verdict['seconds'] * 1000:.0f} ms, "
              f"{total:.0f} ms to answer): {answered(during)}")


if __name__ == "__main__":
    main()
