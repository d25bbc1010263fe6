"""A month of daily deals followed hint by hint on both pages, at the page's own budget, over HTTP.

Starts the real play server (uvicorn on 127.0.0.1, a free port, the page's hint budgets: the
commitment planner's 0.8 s a hint on Klondike, the planner's on Pyramid) and, for each daily deal of
the month, plays what a player who asks for a hint at every position and plays it would
(:func:`solitaire_rl.play.server.follow_hints.follow_game`): before each hint the verdict (and, where
it decides something, the chance) the page would show, checked against the hint; a game that ends
unwon is analysed and read for blame. Reported: the games won, where the others ended, positions
where two lines disagreed, analysis lines that blamed the player for the hint's move (both should be
0), and the hint's latency. ``--json FILE`` writes one row per deal. The suite's
``tests/test_play_follow_daily_hints.py`` does the same on a small budget in worlds.

    python benchmarks/follow_daily_hints.py --month 2026-11
    python benchmarks/follow_daily_hints.py --month 2026-11 --games klondike --json rows.json
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

from solitaire_rl.play.server.follow_hints import (
    PAGE_SOURCES,
    FollowedGame,
    HttpApi,
    follow_game,
    month_deals,
)

VARIANTS = {"pyramid": "001", "klondike": None}
"""Pyramid's daily deal is played in variant 001 (the one with deal types); Klondike's in draw 3."""


def month_of(text: str) -> tuple[int, int]:
    """``YYYY-MM`` as (year, month)."""
    try:
        year, month = (int(part) for part in text.split("-"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a month is YYYY-MM, not {text!r}") from None
    if not 1 <= month <= 12:
        raise argparse.ArgumentTypeError(f"a month is YYYY-MM, not {text!r}")
    return year, month


def report(game: str, games: list[FollowedGame]) -> None:
    """The month's figures for ``game``."""
    won = sum(g.won for g in games)
    latencies = sorted(t for g in games for t in g.hint_seconds)
    print(f"{game} ({PAGE_SOURCES[game]} hints): won {won} of {len(games)}")
    for g in games:
        if not g.won:
            where = f", lost at move {g.losing_move + 1}" if g.losing_move is not None else ""
            print(f"  {g.deal}: {g.end} after {g.moves} moves{where}")
    print(f"  positions where two lines disagreed: {sum(len(g.disagreements) for g in games)}; "
          f"analysis lines blaming the player for the hint's move: {sum(len(g.blamed) for g in games)}")
    for g in games:
        for line in [*g.disagreements, *g.blamed][:3]:
            print(f"    {g.deal}: {line}")
    if latencies:
        p95 = latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))]
        print(f"  hint latency: median {statistics.median(latencies) * 1000:.0f} ms, "
              f"p95 {p95 * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms over {len(latencies)} hints")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--month", type=month_of, default=(2026, 11), help="YYYY-MM (a month already past)")
    parser.add_argument("--games", nargs="+", choices=sorted(PAGE_SOURCES), default=["pyramid", "klondike"])
    parser.add_argument("--days", type=int, default=None, help="only the month's first N days (a quick look)")
    parser.add_argument("--max-moves", type=int, default=600)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    rows = []
    started, cpu = time.perf_counter(), time.process_time()
    with served(timeout=60.0) as (_, base), httpx.Client(base_url=base, timeout=60.0) as client:
        api = HttpApi(client)
        for game in args.games:
            deals = month_deals(game, *args.month)[: args.days]
            games = []
            for deal in deals:
                followed = follow_game(api, game, deal, variant=VARIANTS[game], max_moves=args.max_moves)
                print(f"{deal}: {followed.end} after {followed.moves} moves ({followed.seconds:.1f} s)",
                      file=sys.stderr)
                games.append(followed)
                rows.append({"game": game, **followed.as_row()})
            report(game, games)
    print(f"wall {time.perf_counter() - started:.0f} s, CPU {time.process_time() - cpu:.0f} s (this process, "
          f"server included)")
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
