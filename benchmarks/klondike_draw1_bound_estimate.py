"""Estimate what the Klondike solver's draw-1 bound saves on deals measured without it.

Both searches are deterministic: the draw-3 search runs as before until the bound decides, and a
draw-1 search with a cap of B states decides exactly when the uncapped one needs at most B. So from
the draw-3 rows (``klondike_solver_native.py``, states and seconds without the bound) and the
driver's draw-1 output on the same deals (``klondike_solve --draw 1``), the states entered with the
bound follow (up to the 256-state steps at which the search checks its budget: within 0.02% on
the 27 deals of ``klondike_issue25_tail27_draw1_bound.tsv``). Seconds are
scaled from the row by the states, at the draw-3 rate (draw-1 states come cheaper: an upper
estimate).

Example (from the repository root)::

    python benchmarks/klondike_tail_deals.py slow benchmarks/results/klondike_draw3_1-10000.csv > slow.txt
    klondike_solve --draw 1 --time 20 --cpu-time < slow.txt > draw1.tsv
    python benchmarks/klondike_draw1_bound_estimate.py benchmarks/results/klondike_draw3_1-10000.csv draw1.tsv
"""

from __future__ import annotations

import argparse
import csv
import statistics


def states_with_bound(draw3: int, draw1_status: str, draw1: int, first: int, growth: int) -> int:
    """States entered with the bound (draw-3 and draw-1 states together, as the solver counts
    them): tried once ``first`` states are entered, with as many states as entered so far, again
    each time they have grown ``growth``-fold; draw 1 winning ends the tries."""
    spent = 0  # draw-1 states of the tries so far
    at = first  # total states at the next try
    while at - spent < draw3:
        if draw1 <= at:
            return (at if draw1_status == "not_winnable" else draw3 + spent) + draw1
        spent += at
        at *= growth
    return draw3 + spent


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows", help="draw-3 rows CSV of klondike_solver_native.py")
    parser.add_argument("draw1", help="klondike_solve --draw 1 output on some of those deals")
    parser.add_argument("--first", type=int, default=1_000_000, help="SolveOptions::draw1_after_states")
    parser.add_argument("--growth", type=int, default=8)
    args = parser.parse_args(argv)
    with open(args.rows, newline="", encoding="utf-8") as handle:
        rows = {r["deal_id"]: r for r in csv.DictReader(handle)}
    ratios, seconds_before, seconds_after, seconds_oracle = [], [], [], []
    with open(args.draw1, encoding="utf-8") as handle:
        for line in handle:
            name, status, _stop, _sec, states = line.split("\t")[:5]
            row = rows[name]
            before = int(row["states"])
            draw1 = int(states) if status != "unknown" else 1 << 62
            after = states_with_bound(before, status, draw1, args.first, args.growth)
            ratios.append(after / before)
            seconds_before.append(float(row["seconds"]))
            seconds_after.append(float(row["seconds"]) * after / before)
            # An oracle that knew draw 1's verdict and ran it only where it proves the loss sooner.
            oracle = min(before, draw1) if status == "not_winnable" else before
            seconds_oracle.append(float(row["seconds"]) * oracle / before)
    print(f"deals: {len(ratios)}")
    print(f"states with / without the bound: median {statistics.median(ratios):.2f}, "
          f"least {min(ratios):.2f}, most {max(ratios):.2f}")
    print(f"seconds in all: {sum(seconds_before):.0f} -> {sum(seconds_after):.0f} (estimate)")
    print(f"over 1 s: {sum(s > 1 for s in seconds_before)} -> {sum(s > 1 for s in seconds_after)} (estimate)")
    print(f"oracle: {sum(seconds_oracle):.0f} s in all, {sum(s > 1 for s in seconds_oracle)} over 1 s")


if __name__ == "__main__":
    main()
