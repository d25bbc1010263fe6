"""Benchmark of the exact Pyramid solver: one row per deal, then figures computed from the rows.

Run (one process, so one core; ``--cpu`` pins it):

    python benchmarks/pyramid_solver.py --variant 000 --first 0 --count 10000 --budget 1
    python benchmarks/pyramid_solver.py --summarize benchmarks/results/pyramid_000_random_0-9999.jsonl

Rows go to ``benchmarks/results/pyramid_{variant}_{kind}_{first}-{last}.csv.gz`` (or ``--out``
ending in .csv, .csv.gz or .jsonl), one per deal: deal, variant, verdict, seconds of the native
search, states, reason (why unknown), wall_seconds of the whole Python call. They are flushed
as they come, so a long run can be watched and resumed (``--resume``).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # numpy comes in with envs; keep it to this core

import argparse
import csv
import gzip
import json
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import _checkout  # noqa: F401  (stops if another checkout's code would load)

from solitaire_rl.agents.solver import PyramidPosition, SearchLimits, solve_pyramid
from solitaire_rl.agents.solver.report import DealRow, format_ms, format_summary, summarize
from solitaire_rl.agents.solver.stats import median

RESULTS = Path(__file__).resolve().parent / "results"


@dataclass
class Args:
    """Benchmark settings."""

    variant: str = "000"
    """Pyramid variant: 000 (stock top usable) or 001 (waste top only)."""
    kind: str = "random"
    """Deal type of the numbered deals."""
    first: int = 0
    """First deal number."""
    count: int = 1000
    """Number of deals."""
    budget: float = 1.0
    """Time limit per deal, seconds."""
    out: Path | None = None
    """Rows file (.csv, .csv.gz or .jsonl); default under benchmarks/results/."""
    resume: bool = False
    """Skip deals already in the rows file."""
    cpu: int | None = None
    """Pin the process to this CPU."""
    summarize: Path | None = None
    """Only print the figures of an existing rows file."""


def parse_args(argv: list[str] | None = None) -> Args:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    defaults = Args()
    parser.add_argument("--variant", choices=["000", "001"], default=defaults.variant)
    parser.add_argument("--kind", default=defaults.kind)
    parser.add_argument("--first", type=int, default=defaults.first)
    parser.add_argument("--count", type=int, default=defaults.count)
    parser.add_argument("--budget", type=float, default=defaults.budget)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--cpu", type=int, default=None)
    parser.add_argument("--summarize", type=Path, default=None)
    return Args(**vars(parser.parse_args(argv)))


FIELDS = ("deal", "variant", "verdict", "seconds", "states", "reason", "wall_seconds")


def open_text(path: Path, mode: str):
    """Open a rows file as text, gzip-compressed if its name ends in .gz."""
    return gzip.open(path, mode + "t", newline="") if path.suffix == ".gz" else path.open(mode, newline="")


def read_rows(path: Path) -> list[dict]:
    with open_text(path, "r") as f:
        if path.name.endswith(".jsonl"):
            return [json.loads(line) for line in f if line.strip()]
        return [
            {**r, "seconds": float(r["seconds"]), "states": int(r["states"]), "reason": r["reason"] or None,
             "wall_seconds": float(r["wall_seconds"])}
            for r in csv.DictReader(f)
        ]


def write_row(f, path: Path, record: dict) -> None:
    if path.name.endswith(".jsonl"):
        f.write(json.dumps(record) + "\n")
    else:
        csv.writer(f).writerow([record[k] if record[k] is not None else "" for k in FIELDS])


def report(records: list[dict]) -> str:
    """The figures of a run, from its rows."""
    rows = [DealRow(r["deal"], r["variant"], r["verdict"], r["seconds"], r["states"], r.get("reason"))
            for r in records]
    variants = sorted({r.variant for r in rows})
    text = format_summary(summarize(rows), "/".join(variants))
    seconds = sorted(r.seconds for r in rows)
    if seconds:
        p99 = seconds[min(len(seconds) - 1, int(0.99 * len(seconds)))]
        wall = median([r.get("wall_seconds", 0.0) for r in records])
        text += f"\np99 {format_ms(p99)}; median wall time of the whole Python call {format_ms(wall)}"
    return text


def main(args: Args) -> int:
    if args.summarize is not None:
        print(report(read_rows(args.summarize)))
        return 0
    if args.cpu is not None:
        os.sched_setaffinity(0, {args.cpu})
    last = args.first + args.count - 1
    out = args.out or RESULTS / f"pyramid_{args.variant}_{args.kind}_{args.first}-{last}.csv.gz"
    out.parent.mkdir(parents=True, exist_ok=True)
    resume = args.resume and out.exists()
    done = {r["deal"] for r in read_rows(out)} if resume else set()
    limits = SearchLimits(time_limit=args.budget)
    with open_text(out, "a" if resume else "w") as rows:
        if not resume and not out.name.endswith(".jsonl"):
            csv.writer(rows).writerow(FIELDS)
        for number in range(args.first, last + 1):
            deal = f"pyramid-{args.kind}-v1-{number}"
            if deal in done:
                continue
            start = time.perf_counter()
            result = solve_pyramid(PyramidPosition.from_deal(deal, args.variant), limits=limits)
            wall = time.perf_counter() - start
            row = DealRow(deal, args.variant, result.status, result.seconds, result.states, result.reason)
            write_row(rows, out, row.to_json() | {"wall_seconds": round(wall, 7)})
            rows.flush()
    shown = out.resolve().relative_to(Path.cwd()) if out.resolve().is_relative_to(Path.cwd()) else out
    print(f"command: python {shlex.join(sys.argv)}")
    print(f"rows: {shown}")
    print(report(read_rows(out)))
    return 0


if __name__ == "__main__":
    sys.exit(main(parse_args()))
