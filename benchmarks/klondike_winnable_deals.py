"""How long dealing a winnable Klondike deal takes, how many candidates are skipped, and a check
that every deal is proved with a line that wins in the engine (issue 37's figures).

For each generator number (not a benchmark agent deal: any numbers will do), deals
``klondike-winnable-v1-N`` from a cold cache and times it: the capped searches of the candidates
up to the chosen one and the engine replay of its line
(:func:`solitaire_rl.agents.solver.klondike_winnable.winnable_deal`). Then, untimed, it checks the deal
independently: the ID resolves to the same cards, the line replays to a win in a fresh
:class:`~solitaire_rl.envs.klondike.KlondikeGame`, and each earlier candidate was lost or undecided within the
cap (so it counts the skipped ones)::

    python benchmarks/klondike_winnable_deals.py --numbers 1-1000
    python benchmarks/klondike_winnable_deals.py --numbers 1-1000 --json figures.json

Exit status 1 if any deal fails a check or the p95 is over ``--target-ms`` (default 50).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import _checkout  # noqa: F401  (stops if another checkout's code would load)

from solitaire_rl.agents.solver.klondike_winnable import (
    MAX_STATES,
    candidate_cards,
    solve_candidate,
    winnable_deal,
)
from solitaire_rl.agents.solver.result import NOT_WINNABLE, UNKNOWN
from solitaire_rl.envs.deals import DealId
from solitaire_rl.envs.klondike import WIN, KlondikeGame
from solitaire_rl.training.splits import parse_deal_numbers


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values`` by the nearest-rank rule."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered) + 0.5) - 1))]


def measure(numbers: list[int]) -> dict[str, Any]:
    """Time and check the winnable deal of each number; the figures as a dict."""
    times, failures = [], []
    counts = {"candidates": 0, "skipped_undecided": 0, "lost": 0, "numbers_with_a_skip": 0}
    for number in numbers:
        winnable_deal.cache_clear()
        start = time.perf_counter()
        k, cards, line = winnable_deal(number)
        times.append(time.perf_counter() - start)
        game = KlondikeGame(f"klondike-winnable-v1-{number}")
        if DealId.parse(f"klondike-winnable-v1-{number}").cards() != cards or game.deal is None \
                or game.deal.cards != cards:
            failures.append(f"{number}: the ID does not resolve to the generated cards")
        for move in line:
            game.push(move)
        if game.outcome() != WIN:
            failures.append(f"{number}: the line does not win in the engine")
        counts["candidates"] += k + 1
        skipped = 0
        for earlier in range(k):
            status = solve_candidate(candidate_cards(number, earlier)).status
            if status == UNKNOWN:
                skipped += 1
            elif status == NOT_WINNABLE:
                counts["lost"] += 1
            else:
                failures.append(f"{number}: candidate {earlier} is winnable but was passed over")
        counts["skipped_undecided"] += skipped
        counts["numbers_with_a_skip"] += skipped > 0
    ms = [t * 1000 for t in times]
    proved = len(numbers) - len({f.split(":")[0] for f in failures})
    return {
        "numbers": len(numbers), "max_states": MAX_STATES,
        "ms_p50": statistics.median(ms), "ms_p95": percentile(ms, 0.95), "ms_max": max(ms),
        "ms_mean": statistics.fmean(ms),
        "candidates": counts["candidates"], "skipped_undecided": counts["skipped_undecided"],
        "lost": counts["lost"], "skipped_share": counts["skipped_undecided"] / counts["candidates"],
        "numbers_with_a_skip": counts["numbers_with_a_skip"],
        "proved_and_replayed": proved, "proved_share": proved / len(numbers), "failures": failures,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--numbers", default="1-1000", help="generator numbers: ranges and single numbers")
    parser.add_argument("--target-ms", type=float, default=50.0, help="the p95 to reach, ms")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = parser.parse_args(argv)
    figures = measure(parse_deal_numbers(args.numbers))
    figures["command"] = "python benchmarks/klondike_winnable_deals.py --numbers " + args.numbers
    print(f"klondike-winnable-v1, numbers {args.numbers} ({figures['numbers']}), state cap {MAX_STATES:,}")
    print(f"time to deal one: p50 {figures['ms_p50']:.1f} ms, p95 {figures['ms_p95']:.1f} ms, "
          f"max {figures['ms_max']:.1f} ms (mean {figures['ms_mean']:.1f} ms)")
    print(f"candidates searched {figures['candidates']}: {figures['lost']} proved lost, "
          f"{figures['skipped_undecided']} skipped undecided ({figures['skipped_share']:.1%}; "
          f"{figures['numbers_with_a_skip']} numbers passed over one or more)")
    print(f"proved winnable with a line that wins in the engine: {figures['proved_and_replayed']}/"
          f"{figures['numbers']} ({figures['proved_share']:.1%})")
    for failure in figures["failures"]:
        print(f"FAILED {failure}")
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=1) + "\n")
    return int(bool(figures["failures"]) or figures["ms_p95"] > args.target_ms)


if __name__ == "__main__":
    raise SystemExit(main())
