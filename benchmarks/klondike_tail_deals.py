"""Write the driver's position lines for the slow deals of a Klondike benchmark file, or a sample.

The tail of issue 25 is measured on the deals that took longest in a rows file of
``klondike_solver_native.py``; these lines feed ``klondike_solve`` (``native/tools``) directly, so
two builds can be run on the same deals one after the other.

Examples (from the repository root)::

    # every 5th of the deals that took 1..8 s, fastest first (27 deals of 1..10000):
    python benchmarks/klondike_tail_deals.py slow benchmarks/results/klondike_draw3_1-10000.csv \
        --over 1 --under 8 --every 5 > tail27.txt
    # 1000 deals of 1..10000 drawn with seed 25, in deal order:
    python benchmarks/klondike_tail_deals.py sample --first 1 --last 10000 --size 1000 --seed 25 > sample.txt
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from klondike_native_input import deal_lines


def slow_deals(path: str, over: float, under: float, every: int) -> list[int]:
    """Deal numbers whose row took more than ``over`` and less than ``under`` seconds, fastest
    first, keeping every ``every``-th."""
    with open(path, newline="", encoding="utf-8") as handle:
        rows = [r for r in csv.DictReader(handle) if over < float(r["seconds"]) < under]
    rows.sort(key=lambda r: float(r["seconds"]))
    return [int(r["deal_id"].rsplit("-", 1)[1]) for r in rows[::every]]


def sample_deals(first: int, last: int, size: int, seed: int) -> list[int]:
    """``size`` distinct deal numbers of ``first..last`` drawn with ``seed``, in deal order."""
    if not 0 < size <= last - first + 1:
        raise ValueError(f"size must be 1..{last - first + 1}, got {size}")
    return sorted(random.Random(seed).sample(range(first, last + 1), size))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="source", required=True)
    slow = sub.add_parser("slow", help="the slow deals of a rows file")
    slow.add_argument("path")
    slow.add_argument("--over", type=float, default=1.0)
    slow.add_argument("--under", type=float, default=float("inf"))
    slow.add_argument("--every", type=int, default=1)
    sample = sub.add_parser("sample", help="a random sample of deals")
    sample.add_argument("--first", type=int, default=1)
    sample.add_argument("--last", type=int, default=10000)
    sample.add_argument("--size", type=int, default=1000)
    sample.add_argument("--seed", type=int, default=25)
    args = parser.parse_args(argv)
    if args.source == "slow":
        if args.every < 1:
            parser.error("--every must be at least 1")
        numbers = slow_deals(args.path, args.over, args.under, args.every)
    else:
        try:
            numbers = sample_deals(args.first, args.last, args.size, args.seed)
        except ValueError as error:
            parser.error(str(error))
    for n in numbers:
        sys.stdout.write(next(deal_lines(n, n)) + "\n")


if __name__ == "__main__":
    main()
