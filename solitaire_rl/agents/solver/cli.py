"""Command line: ``python -m solitaire_rl.agents.solver pyramid DEALS...`` and ``... klondike DEALS...``.

DEALS are deal IDs (``pyramid-random-v1-42``), numbers (``42``), number ranges (``1-1000``),
deal codes or comma-joined card names; numbers name deals of ``--kind`` (random by default).
For Klondike a DEAL may also be a Solvitaire JSON deal, or a file of them (one deal, a list, or
one per line, as ``{"deal": {...}}`` or bare), reduced deals (fewer columns or ranks) included.
Each deal's verdict, time and states is printed, then a summary with the winnable fraction and
its 95% Wilson interval.

``--ray ADDRESS`` solves the deals as tasks on a Ray cluster (``auto``: the one this machine runs,
else a new local one; ``HOST:PORT``: a running cluster; needs the ``ray`` extra) and prints the
same rows in the same order, with a progress bar on standard error; a deal that fails there is
printed as an error and counted, and the exit status is then 1. See ``docs/ray.md``.
"""

from __future__ import annotations

import argparse
import bisect
import importlib.util
import json
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any, TextIO

from solitaire_rl.agents.distributed import Failed
from solitaire_rl.agents.solver.klondike import KlondikePosition, solve_klondike, solvitaire_deals
from solitaire_rl.agents.solver.limits import DEFAULT_MAX_MEMORY_BYTES, SearchLimits
from solitaire_rl.agents.solver.pyramid import VARIANTS, PyramidPosition, solve_pyramid
from solitaire_rl.agents.solver.report import DealRow, format_row, format_summary, summarize
from solitaire_rl.envs.deals import Deal, resolve_deal
from solitaire_rl.envs.errors import SolitaireError

_RANGE = re.compile(r"^(\d+)-(\d+)$")
MAX_RANGE = 10_000_000


@dataclass(frozen=True)
class DealSpan:
    """Deals numbered ``first..last`` of one kind, expanded only while solving."""

    kind: str
    first: int
    last: int
    game: str = "pyramid"

    def __iter__(self) -> Iterator[str]:
        return (f"{self.game}-{self.kind}-v1-{n}" for n in range(self.first, self.last + 1))


def parse_deals(specs: Sequence[str], kind: str, game: str = "pyramid") -> list[DealSpan | Deal]:
    """Check every deal argument before anything is solved; raise SolitaireError on a bad one."""
    parsed: list[DealSpan | Deal] = []
    for spec in specs:
        text = spec.strip()
        if text.isdigit():
            parsed.append(DealSpan(kind, int(text), int(text), game))
        elif match := _RANGE.match(text):
            first, last = int(match[1]), int(match[2])
            if first > last or last - first >= MAX_RANGE:
                raise SolitaireError(
                    f"bad range {spec!r}: need FIRST-LAST with FIRST <= LAST, at most {MAX_RANGE} deals"
                )
            parsed.append(DealSpan(kind, first, last, game))
        elif re.match(r"^\d+\s*-", text):
            raise SolitaireError(f"bad range {spec!r}: need FIRST-LAST, two deal numbers such as 1-100")
        else:
            parsed.append(resolve_deal(text, game))
    if kind != "random":
        for item in parsed:  # resolve one of the kind now, so an unknown kind fails early
            if isinstance(item, DealSpan):
                resolve_deal(f"{game}-{kind}-v1-{item.first}", game)
                break
    return parsed


def iter_deals(parsed: Sequence[DealSpan | Deal], game: str = "pyramid") -> Iterator[Deal]:
    for item in parsed:
        if isinstance(item, Deal):
            yield item
        else:
            for deal_id in item:
                yield resolve_deal(deal_id, game)


KlondikeItem = tuple[str, KlondikePosition] | DealSpan | Deal


def parse_klondike_deals(specs: Sequence[str], kind: str) -> list[KlondikeItem]:
    """Klondike DEALS: what :func:`parse_deals` reads, plus Solvitaire JSON deals and files of them."""
    parsed: list[KlondikeItem] = []
    typed = 0
    for spec in specs:
        text = spec.strip()
        if text.startswith(("{", "[")):
            deals = solvitaire_deals(text)
            parsed += [(f"json-{typed + i + 1}", p) for i, p in enumerate(deals)]
            typed += len(deals)
        elif text.endswith((".json", ".jsonl")) or (not _RANGE.match(text) and Path(text).is_file()):
            path = Path(text)
            if not path.is_file():
                raise SolitaireError(f"no such Solvitaire deal file: {text}")
            deals = solvitaire_deals(path.read_text())
            parsed += [(f"{path.name}:{i + 1}", p) for i, p in enumerate(deals)]
        else:
            parsed += parse_deals([text], kind, "klondike")
    return parsed


def iter_klondike(parsed: Sequence[KlondikeItem]) -> Iterator[tuple[str, KlondikePosition]]:
    for item in parsed:
        if isinstance(item, tuple):
            yield item
        else:
            for deal in iter_deals([item], "klondike"):
                yield deal.label, KlondikePosition.from_deal(deal)


def add_search_options(parser: argparse.ArgumentParser) -> None:
    """The budget and output options both games' commands take."""
    parser.add_argument("--time", "--budget", type=float, default=10.0, metavar="SECONDS", dest="budget",
                        help="time limit per deal (default 10); past it the verdict is unknown")
    parser.add_argument("--max-states", type=int, default=None, help="state limit per deal")
    parser.add_argument("--max-memory-mib", type=int, default=DEFAULT_MAX_MEMORY_BYTES >> 20,
                        help="memory for the search tables, MiB (default 512)")
    parser.add_argument("--json", action="store_true", help="one JSON object per deal, then a summary object")
    parser.add_argument("--line", action="store_true", help="also print each winning line")
    parser.add_argument("--ray", metavar="ADDRESS", default=None,
                        help="solve on a Ray cluster: auto (this machine's, else a new local one) or "
                             "HOST:PORT of a running one (needs the ray extra; see docs/ray.md)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m solitaire_rl.agents.solver", description="Exact solitaire solvers."
    )
    games = parser.add_subparsers(dest="game", required=True, metavar="GAME")
    pyramid = games.add_parser("pyramid", help="decide Pyramid deals (full information)",
                               description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    pyramid.add_argument("deals", nargs="+", metavar="DEALS", help="deal IDs, numbers, ranges (1-100), codes")
    pyramid.add_argument("--variant", choices=VARIANTS, default="000",
                         help="000: stock top and waste top usable (default); 001: waste top only")
    pyramid.add_argument("--kind", default="random",
                         help="deal type that numbers and ranges name (random, winnable)")
    add_search_options(pyramid)
    pyramid.set_defaults(run=run_pyramid)

    klondike = games.add_parser("klondike", help="decide Klondike deals (thoughtful: all cards known)",
                                description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    klondike.add_argument("deals", nargs="+", metavar="DEALS",
                          help="deal IDs, numbers, ranges (1-100), codes, Solvitaire JSON deals or files")
    klondike.add_argument("--draw", type=int, choices=(1, 3), default=3,
                          help="cards a draw turns (default 3)")
    klondike.add_argument("--kind", default="random", help="deal type that numbers and ranges name")
    add_search_options(klondike)
    klondike.set_defaults(run=run_klondike)
    return parser


def limits_from(args: argparse.Namespace) -> SearchLimits:
    return SearchLimits(time_limit=args.budget, max_states=args.max_states,
                        max_memory_bytes=args.max_memory_mib << 20)


def report(args: argparse.Namespace, solved: Iterator[tuple[str, Any]], variant: str, what: str,
           out: TextIO) -> int:
    """Print one row per ``(label, result)`` as it comes (text or JSON), then the summary; a
    :class:`Failed` result is printed as an error and counted (exit status 1)."""
    rows, failed = [], 0
    for label, result in solved:
        if isinstance(result, Failed):  # the deal gave no verdict on the cluster
            failed += 1
            text = {"deal": label, "variant": variant, "error": result.error}
            print(json.dumps(text) if args.json else f"{label:<24} error: {result.error}", file=out)
            continue
        row = DealRow(label, variant, result.status, result.seconds, result.states, result.reason)
        rows.append(row)
        line = [str(m) for m in result.line] if result.line is not None else None
        if args.json:
            print(json.dumps(row.to_json() | ({"line": line} if args.line else {})), file=out)
        else:
            print(format_row(row), file=out)
            if args.line and line is not None:
                print("  line: " + " ".join(line), file=out)
    summary = summarize(rows) | ({"failed": failed} if failed else {})
    if args.json:
        game = {"variant": variant} if what == "variant" else {"draw": int(variant)}
        print(json.dumps({"summary": summary | game}), file=out)
    else:
        print(format_summary(summary, variant, what), file=out)
        if failed:
            print(f"{failed} deals failed (no verdict): see the error rows", file=out)
    return 1 if failed else 0


class DealItems(Sequence[Any]):
    """The parsed deal arguments as one indexable list, expanded only item by item: a range
    stands for deal IDs, anything else for itself (what a cluster task is sent)."""

    def __init__(self, parsed: Sequence[Any]) -> None:
        self.parts = list(parsed)
        self.starts = [0]
        for part in self.parts:
            size = part.last - part.first + 1 if isinstance(part, DealSpan) else 1
            self.starts.append(self.starts[-1] + size)

    def __len__(self) -> int:
        return self.starts[-1]

    def __getitem__(self, index: int) -> Any:  # type: ignore[override]
        if not 0 <= index < len(self):
            raise IndexError(index)
        at = bisect.bisect_right(self.starts, index) - 1
        part = self.parts[at]
        if isinstance(part, DealSpan):
            return f"{part.game}-{part.kind}-v1-{part.first + index - self.starts[at]}"
        return part


def _label(item: Any) -> str:
    return item if isinstance(item, str) else item[0] if isinstance(item, tuple) else item.label


def _sendable(result: Any, with_line: bool) -> Any:
    """A result to send back from a worker: the line as text (or left out)."""
    line = tuple(str(m) for m in result.line) if with_line and result.line is not None else None
    return replace(result, line=line)


def solve_pyramid_item(variant: str, limits: SearchLimits, with_line: bool, item: str | Deal) -> Any:
    """One Pyramid deal (a deal ID or a :class:`Deal`), as a cluster task solves it."""
    deal = resolve_deal(item, "pyramid")
    return _sendable(solve_pyramid(PyramidPosition.from_deal(deal, variant), limits=limits), with_line)


def solve_klondike_item(draw: int, limits: SearchLimits, with_line: bool, item: Any) -> Any:
    """One Klondike deal (a deal ID, a :class:`Deal` or a ``(label, position)`` pair), on the cluster."""
    if isinstance(item, tuple):
        position = item[1]
    else:
        position = KlondikePosition.from_deal(resolve_deal(item, "klondike"))
    return _sendable(solve_klondike(position, draw_count=draw, limits=limits), with_line)


def solve_on_ray(address: str, solve: Callable[[Any], Any],
                 items: Sequence[Any]) -> Iterator[tuple[str, Any]]:
    """``(label, result)`` for every item, in item order, solved as tasks on the Ray cluster."""
    from solitaire_rl.agents.distributed import connect, fan_out, in_order

    if importlib.util.find_spec("ray") is None:  # checked before any deal is sent
        raise SolitaireError("--ray needs Ray: pip install -e '.[ray]'")
    try:
        connect(address)
    except (ConnectionError, ValueError) as exc:
        raise SolitaireError(f"cannot join the Ray cluster {address!r}: {exc}") from None
    results = in_order(fan_out(solve, items), len(items))
    return ((_label(item), result) for item, result in zip(items, results, strict=True))


def run_pyramid(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    limits = limits_from(args)
    parsed = parse_deals(args.deals, args.kind)
    if args.ray:
        solve = partial(solve_pyramid_item, args.variant, limits, args.line)
        return report(args, solve_on_ray(args.ray, solve, DealItems(parsed)), args.variant, "variant", out)
    solved = ((deal.label, solve_pyramid(PyramidPosition.from_deal(deal, args.variant), limits=limits))
              for deal in iter_deals(parsed))
    return report(args, solved, args.variant, "variant", out)


def run_klondike(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    limits = limits_from(args)
    parsed = parse_klondike_deals(args.deals, args.kind)
    if args.ray:
        solve = partial(solve_klondike_item, args.draw, limits, args.line)
        return report(args, solve_on_ray(args.ray, solve, DealItems(parsed)), str(args.draw), "draw", out)
    solved = ((label, solve_klondike(position, draw_count=args.draw, limits=limits))
              for label, position in iter_klondike(parsed))
    return report(args, solved, str(args.draw), "draw", out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except SolitaireError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


__all__ = ["DealItems", "build_parser", "main", "parse_deals", "parse_klondike_deals", "run_klondike",
           "run_pyramid", "solve_klondike_item", "solve_on_ray", "solve_pyramid_item"]
