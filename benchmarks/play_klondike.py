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

from play_timing import answered, parse_args, served, taps_during_verdict, timed, timed_actions

SLOW = "klondike-random-v1-1002"


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


def main() -> None:
    args = parse_args(__doc__, deals=20, actions=60)
    with served(timeout=60) as (client, base):
        games = f"{base}/api/klondike/games"
        timed_actions(client, games, "klondike-random-v1-", args, next_action, "Klondike actions")
        state, _, _ = timed(client, "POST", games, {"deal": SLOW})
        during, total, verdict = taps_during_verdict(client, f"{games}/{state['session']}",
                                                     {"type": "tap", "place": "c1"}, "?wait=10")
        print(f"during a verdict ({SLOW}: {verdict['status']}, search {verdict['seconds'] or 0:.2f} s, "
              f"{verdict['states'] or 0:,} states; answered after {total / 1000:.2f} s): {answered(during)}")


if __name__ == "__main__":
    main()
