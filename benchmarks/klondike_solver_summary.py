"""Winnable fractions of the Klondike benchmark rows against Blake & Gent's published figures.

Reads per-deal rows written by ``klondike_solver_native.py`` (several files may make one sample)
and prints, per draw count: deals, winnable / not winnable / unknown, decided within the first
time limit, time percentiles, the winnable fraction among decided deals with its 95% Wilson
interval, the interval with the unknowns counted both ways (all lost .. all won), and whether it
agrees with Blake & Gent (thoughtful Klondike, 10^6 deals each: draw 3 81.945% +/- 0.084,
draw 1 90.480% +/- 0.116). The text is also written to ``--out`` when given.

Example (from the repository root)::

    python benchmarks/klondike_solver_summary.py \\
        --draw3 benchmarks/results/klondike_draw3_{1001-6000,6001-11000}.csv \\
        --draw1 benchmarks/results/klondike_draw1_1-2000.csv --out benchmarks/results/klondike_summary.md
"""

from __future__ import annotations

import argparse
import csv
import statistics
from pathlib import Path

from solitaire_rl.agents.solver.stats import percentile, wilson_interval

BLAKE_GENT = {3: (0.81945, 0.00084), 1: (0.90480, 0.00116)}
"""Blake & Gent, thoughtful Klondike: winnable fraction and its +/- (their 95% interval)."""




def read_rows(paths: list[Path]) -> list[dict[str, str]]:
    rows: dict[str, dict[str, str]] = {}
    for path in paths:
        with path.open(newline="") as handle:
            for row in csv.DictReader(handle):
                rows[row["deal_id"]] = row
    return list(rows.values())


def summary(draw: int, paths: list[Path]) -> list[str]:
    rows = read_rows(paths)
    n = len(rows)
    if n == 0:
        return [f"## Draw {draw}: no rows", ""]
    won = sum(r["status"] == "winnable" for r in rows)
    lost = sum(r["status"] == "not_winnable" for r in rows)
    unknown = n - won - lost
    first = min(float(r["limit_s"]) for r in rows)
    first_pass = [float(r["seconds"]) if float(r["limit_s"]) == first else first for r in rows]
    decided_first = sum(float(r["limit_s"]) == first and r["status"] != "unknown" for r in rows)
    lo, hi = wilson_interval(won, won + lost)
    lo_all, _ = wilson_interval(won, n)
    _, hi_all = wilson_interval(won + unknown, n)
    ref, ref_pm = BLAKE_GENT[draw]
    agrees_decided = lo <= ref + ref_pm and ref - ref_pm <= hi
    agrees_all = lo_all <= ref + ref_pm and ref - ref_pm <= hi_all
    bad = sum(r["check"].startswith("FAIL") for r in rows)
    clocks = ", ".join(sorted({r["clock"] for r in rows}))
    return [
        f"## Draw {draw}: {n} deals ({', '.join(p.name for p in paths)})",
        "",
        "| measure | value |",
        "|---|---|",
        f"| winnable / not winnable / unknown | {won} / {lost} / {unknown} |",
        f"| decided within {first:g} s ({clocks} clock) | {decided_first / n:.2%} |",
        f"| median / 90th / 99th percentile seconds | {statistics.median(first_pass):.4f} / "
        f"{percentile(first_pass, 0.9):.3f} / {percentile(first_pass, 0.99):.3f} |",
        f"| winnable among decided (95% Wilson) | {won / (won + lost):.3%} ({lo:.3%} .. {hi:.3%}) |",
        f"| winnable, unknowns counted either way | {lo_all:.3%} .. {hi_all:.3%} |",
        f"| Blake & Gent | {ref:.3%} +/- {ref_pm:.3%} |",
        f"| agrees (among decided / unknowns either way) | {'yes' if agrees_decided else 'NO'} / "
        f"{'yes' if agrees_all else 'NO'} |",
        f"| winning lines failing the replay check | {bad} |",
        "",
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draw3", type=Path, nargs="*", default=[])
    parser.add_argument("--draw1", type=Path, nargs="*", default=[])
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    lines = ["# Klondike solver: winnable fractions against Blake & Gent", ""]
    if args.draw3:
        lines += summary(3, args.draw3)
    if args.draw1:
        lines += summary(1, args.draw1)
    text = "\n".join(lines)
    print(text)
    if args.out is not None:
        args.out.write_text(text)


if __name__ == "__main__":
    main()
