"""How long the analysis of a 150-move Klondike game takes, against solving every position.

Builds ``--games`` Klondike games of ``--moves`` moves each, two kinds:

* ``random``: random legal moves from the deal (seeded by the deal number), deals whose random game
  lasts that long;
* ``line``: the solver's winning line for the first two thirds of the moves, then random moves:
  positions stay winnable for long, so the losing move lies deep in the game.

For each game it times, side by side in this process, ``--repeats`` times each: the whole
:func:`solitaire_rl.agents.analysis.analyse_game` (the verdicts, and the losing move judged from samples of
the
unseen cards), its verdicts alone (``judge=False``: the bisection), and the baseline, one search of
every position with the same per-search limits; it checks that the verdicts agree with the
baseline wherever the baseline decides. Prints one row per game and the medians::

    python benchmarks/analysis_speed.py --games 10 --moves 150 --repeats 3
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import _checkout  # noqa: F401  (stops if another checkout's code would load)

from solitaire_rl.agents.analysis import DEFAULT_LIMITS, analyse_game
from solitaire_rl.agents.analysis.line import positions_of
from solitaire_rl.agents.solver import solve_klondike
from solitaire_rl.envs.klondike import KlondikeGame
from solitaire_rl.envs.spec import find_game

KINDS = ("random", "line")


def build_game(kind: str, number: int, moves: int) -> list | None:
    """The moves of one game of ``kind`` on deal ``number``, or ``None`` if it ends too early."""
    game = KlondikeGame(f"klondike-random-v1-{number}")
    rng = random.Random(number)
    played = []
    if kind == "line":
        result = solve_klondike(game, limits=DEFAULT_LIMITS)
        if result.line is None or len(result.line) < moves:
            return None
        for move in result.line[: 2 * moves // 3]:
            game.push(move)
            played.append(move)
    while len(played) < moves:
        legal = game.legal_moves()
        if not legal or game.is_won():
            return None
        move = rng.choice(legal)
        game.push(move)
        played.append(move)
    return played


def baseline(deal: str, moves: list) -> list[str]:
    """One search of every position, with the analysis's per-search limits."""
    kind = find_game("klondike")
    return [solve_klondike(p, limits=DEFAULT_LIMITS).status if not p.is_won() else "winnable"
            for p in positions_of(kind.new_game(deal), moves)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games of each kind")
    parser.add_argument("--moves", type=int, default=150)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--first", type=int, default=1, help="first deal number tried")
    args = parser.parse_args(argv)
    print(f"Klondike draw 3, {args.moves}-move games, median of {args.repeats} runs each")
    print("| kind | deal | outcome | losing move | searches | analysis (s) | verdicts (s) "
          "| every position (s) | every position / verdicts |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|")
    summary: dict[str, list[tuple[float, float, float]]] = {k: [] for k in KINDS}
    for kind in KINDS:
        number = args.first
        while len(summary[kind]) < args.games:
            moves = build_game(kind, number, args.moves)
            number += 1
            if moves is None:
                continue
            deal = f"klondike-random-v1-{number - 1}"
            whole, ours, theirs = [], [], []
            for _ in range(args.repeats):
                start = time.perf_counter()
                report = analyse_game("klondike", deal, moves)
                whole.append(time.perf_counter() - start)
                start = time.perf_counter()
                analyse_game("klondike", deal, moves, judge=False)
                ours.append(time.perf_counter() - start)
                start = time.perf_counter()
                every = baseline(deal, moves)
                theirs.append(time.perf_counter() - start)
            for a, b in zip(report.verdicts, every, strict=True):
                assert b == "unknown" or a in (b, "unknown"), (deal, a, b)
            w, a, b = statistics.median(whole), statistics.median(ours), statistics.median(theirs)
            summary[kind].append((w, a, b))
            losing = "-" if report.first_losing_move is None else report.first_losing_move + 1
            print(f"| {kind} | {number - 1} | {report.outcome} | {losing} | {report.searches} | {w:.3f} "
                  f"| {a:.3f} | {b:.3f} | {b / a:.1f}x |", flush=True)
    for kind, rows in summary.items():
        whole = [w for w, _, _ in rows]
        ratios = [b / a for _, a, b in rows]
        print(f"{kind}: analysis median {statistics.median(whole):.3f} s, max {max(whole):.3f} s; "
              f"every position / verdicts, median {statistics.median(ratios):.1f}x")


if __name__ == "__main__":
    main()
