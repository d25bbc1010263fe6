"""Play tuning deals with the ``world-bandit`` bot under given options: one JSON row per deal.

Tuning only on eval deals (100,001..110,000): the benchmark deals 1..100,000 are for reporting.
Rows are appended to ``--rows`` as each deal ends and deals already there are skipped, so a
stopped run resumes with the same command. Each row records the process CPU time of its deal.
``--compare A.jsonl B.jsonl`` prints the paired table of two rows files over their common deals
(wins each way and the two-sided sign test); ``--table REF.jsonl OTHER.jsonl ...`` the table of
several, each paired with the first on their common deals (a Markdown table), and ``--plot
FILE.png`` with it draws the win rate against the CPU time per decision.

    python benchmarks/commitment_planner_tune.py --deals 100001-100200 \\
        --rows benchmarks/results/commitment/tune_base.jsonl --option cap=1000 --option max_worlds=1500
    python benchmarks/commitment_planner_tune.py --compare A.jsonl B.jsonl
    python benchmarks/commitment_planner_tune.py --table REF.jsonl B.jsonl C.jsonl --plot tune.png
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

from solitaire_rl.agents.base import play_episode
from solitaire_rl.agents.planner.commitment import CommitmentBot
from solitaire_rl.envs.spec import klondike_spec
from solitaire_rl.training.splits import parse_deal_numbers


def option_value(text: str) -> Any:
    """``KEY=VALUE``'s value: an int, a float or a string."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def play(deals: list[int], options: dict[str, Any], rows: Path, draw_count: int) -> None:
    variant = klondike_spec(draw_count)
    done = set()
    if rows.exists():
        done = {json.loads(line)["deal"] for line in rows.read_text().splitlines() if line.strip()}
    env = variant.make_env()
    bot = CommitmentBot(variant, **options)
    with rows.open("a") as out:
        for deal in deals:
            if deal in done:
                continue
            cpu = time.process_time()
            result = play_episode(env, bot, variant.deal_id(deal), variant.cards_cleared)
            row = {"deal": deal, "won": result.won, "outcome": result.outcome, "steps": result.steps,
                   "cpu_seconds": round(time.process_time() - cpu, 3), "seconds": round(result.seconds, 3),
                   "decisions": sum(1 for s in bot.decision_seconds if s > 0.001),
                   "cleared": result.cards_cleared, "options": options}
            out.write(json.dumps(row) + "\n")
            out.flush()
            print(deal, result.outcome, row["cpu_seconds"], flush=True)


def read(path: Path) -> dict[int, dict[str, Any]]:
    """Rows by deal: this script's rows, or the benchmark's (its ``--rows`` JSON Lines file, or its
    ``--json`` document), whose ``deal_number`` names the deal (their header lines skipped)."""
    text = path.read_text()
    if path.suffix == ".json":
        rows = json.loads(text)["rows"]
    else:
        rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    out = {}
    for r in rows:
        if "deal" in r:
            out[r["deal"]] = r
        elif "deal_number" in r:
            out[r["deal_number"]] = r
    return out


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def sign_test(a_only: int, b_only: int) -> float:
    """Two-sided exact sign test p-value."""
    n = a_only + b_only
    if n == 0:
        return 1.0
    k = min(a_only, b_only)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def compare(a: Path, b: Path) -> None:
    ra, rb = read(a), read(b)
    common = sorted(set(ra) & set(rb))
    wa = sum(ra[d]["won"] for d in common)
    wb = sum(rb[d]["won"] for d in common)
    a_only = sum(ra[d]["won"] and not rb[d]["won"] for d in common)
    b_only = sum(rb[d]["won"] and not ra[d]["won"] for d in common)
    cpu_a = sorted(ra[d].get("cpu_seconds", ra[d].get("seconds", 0.0)) for d in common)
    cpu_b = sorted(rb[d].get("cpu_seconds", rb[d].get("seconds", 0.0)) for d in common)
    n = len(common)
    print(f"{n} common deals")
    for name, wins, cpu in ((a.name, wa, cpu_a), (b.name, wb, cpu_b)):
        low, high = wilson(wins, n)
        mean = sum(cpu) / max(n, 1)
        print(f"  {name}: {wins} wins ({wins / max(n, 1):.1%}, 95% {low:.1%}-{high:.1%}), "
              f"mean {mean:.2f} s, median {cpu[n // 2] if n else 0:.2f} s a deal")
    print(f"  won by {a.name} only: {a_only}; by {b.name} only: {b_only}; sign test p = "
          f"{sign_test(a_only, b_only):.3f}")


def table(paths: list[Path], plot_to: Path | None) -> None:
    """Each rows file against the first, on their common deals: a Markdown table (and a plot)."""
    ref = read(paths[0])
    print("| rows | options | deals | wins | reference wins | won only here / only by reference (sign p) "
          "| CPU s a deal | CPU ms a decision |")
    print("|---|---|---:|---:|---:|---|---:|---:|")
    points = []
    for path in paths:
        rows = read(path)
        common = sorted(set(rows) & set(ref))
        n = len(common)
        wins = sum(rows[d]["won"] for d in common)
        ref_wins = sum(ref[d]["won"] for d in common)
        here = sum(rows[d]["won"] and not ref[d]["won"] for d in common)
        there = sum(ref[d]["won"] and not rows[d]["won"] for d in common)
        cpu = sum(rows[d]["cpu_seconds"] for d in common)
        decisions = sum(rows[d]["decisions"] for d in common)
        options = ", ".join(f"{k}={v}" for k, v in (rows[common[0]]["options"] if common else {}).items())
        per_decision = 1000 * cpu / max(decisions, 1)
        print(f"| {path.stem} | {options or 'defaults'} | {n} | {wins} ({wins / max(n, 1):.0%}) | {ref_wins} "
              f"| {here} / {there} (p = {sign_test(here, there):.2f}) | {cpu / max(n, 1):.2f} "
              f"| {per_decision:.0f} |")
        all_rows = list(rows.values())
        all_cpu = sum(r["cpu_seconds"] for r in all_rows)
        all_decisions = sum(r["decisions"] for r in all_rows)
        points.append((path.stem, 1000 * all_cpu / max(all_decisions, 1),
                       sum(r["won"] for r in all_rows) / len(all_rows), len(all_rows)))
    if plot_to is not None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(7, 4.5))
        for name, x, y, n in points:
            half = 1.96 * math.sqrt(y * (1 - y) / n)
            ax.errorbar([x], [100 * y], yerr=[[100 * half], [100 * half]], fmt="o", capsize=3)
            ax.annotate(f"{name} ({n})", (x, 100 * y), textcoords="offset points", xytext=(5, 5), fontsize=7)
        ax.set_xscale("log")
        ax.set_xlabel("CPU ms per decision (one core)")
        ax.set_ylabel("deals won, % (95% interval)")
        ax.set_title("world-bandit on eval deals: win rate against compute per decision")
        fig.tight_layout()
        fig.savefig(plot_to, dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="100001-100200")
    parser.add_argument("--rows", type=Path)
    parser.add_argument("--option", action="append", default=[], help="KEY=VALUE for CommitmentBot")
    parser.add_argument("--draw", type=int, default=3, choices=(1, 3))
    parser.add_argument("--compare", nargs=2, type=Path)
    parser.add_argument("--table", nargs="+", type=Path)
    parser.add_argument("--plot", type=Path)
    args = parser.parse_args()
    if args.table:
        table(args.table, args.plot)
        return
    if args.compare:
        compare(*args.compare)
        return
    if args.rows is None:
        parser.error("--rows is needed to play")
    options = {k: option_value(v) for k, v in (o.split("=", 1) for o in args.option)}
    play(sorted(parse_deal_numbers(args.deals)), options, args.rows, args.draw)


if __name__ == "__main__":
    main()
