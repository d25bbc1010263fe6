"""Where the play page's hints lead a player who follows every one of them, through the HTTP API.

Starts the real play server (uvicorn on 127.0.0.1, a free port) in this process and, for each
deal, creates a game as the page does, then asks for a hint and plays it, again and again, until
the game ends (won, no legal move, no progress possible) or ``--max-moves`` moves were played
(reported as still going: the hints went round in circles). Reported: games won, the solver's
verdict on each deal (its winnable deals are the ceiling), still-going games, and the hint's
latency as the player meets it (round trip of each hint request: median, 95th percentile, max).

    python benchmarks/follow_hints.py klondike --deals 90001-90050
    python benchmarks/follow_hints.py pyramid --variant 001 --deals 90001-90100
    python benchmarks/follow_hints.py klondike --deals 90001-90020 --source agent
    python benchmarks/follow_hints.py klondike --deals 90001-90020 --source planner
    python benchmarks/follow_hints.py klondike --deals 100001-100040 --source network  # or guided

Use deals of the benchmark split (1..100,000, :mod:`solitaire_rl.training.splits`) that nothing was tuned on:
the planners were tuned on deals 1..100. ``--json FILE`` writes one row per deal.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import _checkout  # noqa: F401  (stops if another checkout's code would load)
from play_timing import served

from solitaire_rl.training.splits import parse_deal_numbers


def solver_verdict(game: str, variant: str, deal: str, time_limit: float) -> str:
    from solitaire_rl.agents.solver import solve_klondike, solve_pyramid

    if game == "klondike":
        return solve_klondike(deal, time_limit=time_limit).status
    return solve_pyramid(deal, variant=variant, time_limit=time_limit).status


def follow(client: httpx.Client, base: str, game: str, variant: str, deal: str, source: str,
           max_moves: int) -> dict:
    """One deal followed hint by hint: its row."""
    games = f"{base}/api/klondike/games" if game == "klondike" else f"{base}/api/games"
    body = {"deal": deal} if game == "klondike" else {"deal": deal, "variant": variant}
    state = client.post(games, json=body).json()
    latencies: list[float] = []
    agents: set[str] = set()
    moves = 0
    end = "going"
    while moves < max_moves:
        if state.get("outcome") is not None:
            end = str(state["outcome"])
            break
        start = time.perf_counter()
        r = client.post(f"{games}/{state['session']}/hint", params={"source": source})
        latencies.append(time.perf_counter() - start)
        r.raise_for_status()
        hint = r.json()["hint"]
        if hint is None or hint.get("kind") == "no_progress" or hint.get("move") is None:
            end = "no_hint" if hint is None else str(hint.get("kind"))
            break
        agents.add(f"{hint['agent']}/{hint.get('hint_source')}")
        r = client.post(f"{games}/{state['session']}/actions", json={"type": "move", "move": hint["move"]})
        r.raise_for_status()
        state = r.json()
        moves += 1
    won = end in ("win", "won") or bool(state.get("won"))
    return {"deal": deal, "won": won, "end": end, "moves": moves, "latencies": latencies,
            "agents": sorted(agents)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=["pyramid", "klondike"])
    parser.add_argument("--variant", default="000", choices=["000", "001"], help="Pyramid's variant")
    parser.add_argument("--deals", default="90001-90050")
    parser.add_argument("--source", default="commitment",
                        choices=["commitment", "planner", "agent", "network", "guided"],
                        help="who gives the hints: the commitment planner (world-bandit: the Klondike page's "
                             "default; Pyramid answers with its planner), the planner, the ppo agent, the "
                             "expert network or the search it guides (guided-ismcts, guided-pimc)")
    parser.add_argument("--max-moves", type=int, default=600)
    parser.add_argument("--solver-time", type=float, default=10.0, help="seconds for each deal's verdict")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--planner-search", choices=["hop", "tree"], default=None,
                        help="the Klondike hint planner's search (default: the server's)")
    args = parser.parse_args()
    if args.planner_search is not None:
        import solitaire_rl.play.server.klondike_advice as klondike_advice

        klondike_advice.PLANNER_SEARCH = args.planner_search
    prefix = "klondike-random-v1-" if args.game == "klondike" else "pyramid-random-v1-"
    rows = []
    with served(timeout=30.0) as (client, base):
        for number in parse_deal_numbers(args.deals):
            deal = f"{prefix}{number}"
            row = follow(client, base, args.game, args.variant, deal, args.source, args.max_moves)
            row["verdict"] = solver_verdict(args.game, args.variant, deal, args.solver_time)
            rows.append(row)
            print(f"{deal}: {row['end']} after {row['moves']} moves ({row['verdict']})", file=sys.stderr)
    latencies = sorted(t for r in rows for t in r["latencies"])
    winnable = [r for r in rows if r["verdict"] == "winnable"]
    label = args.game if args.game == "klondike" else f"pyramid {args.variant}"
    print(f"{label}, deals {args.deals}, hints from the {args.source}:")
    print(f"  won {sum(r['won'] for r in rows)} of {len(rows)}; "
          f"{sum(r['won'] for r in winnable)} of the {len(winnable)} the solver proved winnable")
    print(f"  still going after {args.max_moves} moves: {sum(r['end'] == 'going' for r in rows)}")
    if latencies:
        p95 = latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))]
        print(f"  hint latency: median {statistics.median(latencies) * 1000:.0f} ms, "
              f"p95 {p95 * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms over {len(latencies)} hints")
    print(f"  hint givers: {sorted({a for r in rows for a in r['agents']})}")
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
