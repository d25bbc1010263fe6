"""Write Klondike positions in the text form the native solver's driver reads.

One line per position: ``NAME t=COL/COL/... s=STOCK w=WASTE f=C,D,H,S`` (see
``native/src/klondike/position_text.hpp``): columns from bottom to end, a lower-case suit letter
for a face-down card; stock and waste from bottom to top (the stock's last card is drawn first).

Sources:

* ``deals FIRST LAST``: the project's ``klondike-random-v1-N`` deals. Their 52 cards come in the
  deal order of ``solitaire_rl.envs.klondike.layout``: 28 tableau cards dealt row by row (pass 1 puts one card
  on each of columns 1..7, column 1's face up; pass 2 one on each of columns 2..7, column 2's face
  up; ...), then the 24 stock cards from the top.
* ``unknowns CSV...``: the ``klondike-random-v1-N`` deals whose row in the given benchmark files
  (``klondike_solver_native.py``) says unknown, to retry them elsewhere
  (``klondike_retry_parallel.sh``).
* ``fixture PATH``: Solvitaire JSON deals (one JSON object a line, ``{"deal": {...}, ...}``):
  tableau piles from the bottom, lower-case suit face down, and the stock listed from the bottom,
  dealt from the end of the list (checked in Solvitaire's source: its parser pushes the listed
  cards onto the stock pile in order and draws take the pile's last card).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root, for envs
import _checkout  # noqa: F401  (stops if another checkout's code would load)

from solitaire_rl.envs.deals import DealId

RANKS = "A23456789TJQK"
SUITS = "CDHS"
_SOLVITAIRE_RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10}


def card_text(card: int, face_up: bool = True) -> str:
    """``(rank-1)*4+suit`` -> ``"TH"`` (face up) or ``"Th"`` (face down)."""
    suit = SUITS[card & 3]
    return RANKS[card >> 2] + (suit if face_up else suit.lower())


def deal_columns(cards: Sequence[int]) -> tuple[list[list[int]], list[int]]:
    """52 cards in deal order -> 7 columns (bottom to end) and the stock (bottom to top)."""
    if len(cards) != 52:
        raise ValueError(f"a deal has 52 cards, got {len(cards)}")
    columns: list[list[int]] = [[] for _ in range(7)]
    i = 0
    for row in range(7):
        for col in range(row, 7):
            columns[col].append(cards[i])
            i += 1
    stock_top_first = list(cards[28:])
    return columns, stock_top_first[::-1]


def deal_position_text(cards: Sequence[int]) -> str:
    """The position text of a fresh deal given as 52 cards in deal order."""
    columns, stock = deal_columns(cards)
    cols = "/".join(",".join(card_text(c, i == len(col) - 1) for i, c in enumerate(col)) for col in columns)
    return f"t={cols} s={','.join(card_text(c) for c in stock)} w=- f=0,0,0,0"


def _solvitaire_card(text: str) -> str:
    rank_text, suit = text[:-1], text[-1]
    key = rank_text.upper()
    rank = _SOLVITAIRE_RANKS[key] if key in _SOLVITAIRE_RANKS else int(rank_text)
    return RANKS[rank - 1] + suit  # keeps the suit's case: lower case = face down


def solvitaire_position_text(deal: Mapping[str, object]) -> str:
    """The position text of a Solvitaire JSON Klondike deal (tableau piles and stock)."""
    piles = deal["tableau piles"]
    cols = "/".join(",".join(_solvitaire_card(c) for c in pile) or "-" for pile in piles)
    stock = [_solvitaire_card(c).upper() for c in deal.get("stock", [])]
    return f"t={cols} s={','.join(stock) or '-'} w=- f=0,0,0,0"


def deal_lines(first: int, last: int) -> Iterator[str]:
    for n in range(first, last + 1):
        deal_id = f"klondike-random-v1-{n}"
        yield f"{deal_id} {deal_position_text(DealId.parse(deal_id).cards())}"


def unknown_lines(paths: Sequence[str]) -> Iterator[str]:
    """The driver's line for every deal whose row in the benchmark files ``paths`` says unknown."""
    import csv

    for path in paths:
        with open(path, newline="", encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                if row["status"] == "unknown":
                    number = int(row["deal_id"].rsplit("-", 1)[1])
                    yield from deal_lines(number, number)


def fixture_lines(path: str) -> Iterator[tuple[str, str]]:
    """(line for the driver, Solvitaire's verdict) for each deal of a fixture file."""
    with open(path, encoding="utf-8") as handle:
        for i, row in enumerate(line for line in handle if line.strip()):
            record = json.loads(row)
            yield f"fixture-{i} {solvitaire_position_text(record['deal'])}", record["solvitaire_draw3"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="source", required=True)
    deals = sub.add_parser("deals", help="klondike-random-v1-N for N in FIRST..LAST")
    deals.add_argument("first", type=int)
    deals.add_argument("last", type=int)
    fixture = sub.add_parser("fixture", help="a Solvitaire JSONL fixture")
    fixture.add_argument("path")
    unknowns = sub.add_parser("unknowns", help="the deals left unknown in benchmark CSV files")
    unknowns.add_argument("paths", nargs="+")
    args = parser.parse_args(argv)
    if args.source == "deals":
        lines = deal_lines(args.first, args.last)
    elif args.source == "unknowns":
        lines = unknown_lines(args.paths)
    else:
        lines = (line for line, _verdict in fixture_lines(args.path))
    for line in lines:
        sys.stdout.write(line + "\n")


if __name__ == "__main__":
    main()
