"""Klondike moves as small immutable values that round-trip through text.

A :class:`Move` is ``(kind, src, dst, count)``. Columns are 0..6 in code and ``c1``..``c7`` in text;
a foundation is named by its suit (0..3 in code, ``fC fD fH fS`` in text). Text forms:

==============  ==========================================================================
``draw``        deal the next 3 stock cards (fewer if fewer remain) onto the waste
``recycle``     turn the waste over, in the same order, into a new stock
``waste>f``     the waste's top card to its suit's foundation
``waste>c4``    the waste's top card to column 4
``c2>f``        column 2's last card to its suit's foundation
``c2>c5``       column 2's last card to column 5
``c2:3>c5``     column 2's last 3 cards (a face-up run, moved as a unit) to column 5
``fH>c4``       the top card of the hearts foundation back to column 4
==============  ==========================================================================

A run move's ``count`` names the run's first card by its distance from the column's end (1 = the
last card alone), so a move means the same thing in any position.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from solitaire_rl.envs.cards import SUITS
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike.layout import NUM_COLUMNS

DRAW, RECYCLE, WASTE_FOUNDATION, WASTE_COLUMN, COLUMN_FOUNDATION, COLUMN_COLUMN, FOUNDATION_COLUMN = range(7)
"""Move kinds."""

MAX_RUN = 13
"""Longest face-up run: King down to Ace."""

_RUN = re.compile(r"c(\d+)(?::(\d+))?")


def _check_column(col: int) -> int:
    if not (isinstance(col, int) and 0 <= col < NUM_COLUMNS):
        raise MalformedInputError(f"{col!r} is not a column number 0..6 (c1..c7 in text)")
    return col


def _check_suit(suit: int) -> int:
    if not (isinstance(suit, int) and 0 <= suit < 4):
        raise MalformedInputError(f"{suit!r} is not a foundation (suit 0..3, fC fD fH fS in text)")
    return suit


class Move(NamedTuple):
    """A Klondike move. ``src``/``dst`` are columns or a suit (``-1`` where unused)."""

    kind: int
    src: int = -1
    dst: int = -1
    count: int = 1  # type: ignore[assignment]  # a field named as tuple.count

    @classmethod
    def waste_to_foundation(cls) -> Move:
        return cls(WASTE_FOUNDATION)

    @classmethod
    def waste_to_column(cls, col: int) -> Move:
        return cls(WASTE_COLUMN, -1, _check_column(col))

    @classmethod
    def column_to_foundation(cls, col: int) -> Move:
        return cls(COLUMN_FOUNDATION, _check_column(col))

    @classmethod
    def column_to_column(cls, src: int, dst: int, count: int = 1) -> Move:
        """The last ``count`` cards of column ``src`` onto column ``dst``."""
        if not (isinstance(count, int) and 1 <= count <= MAX_RUN):
            raise MalformedInputError(f"a run holds 1..{MAX_RUN} cards, not {count!r}")
        return cls(COLUMN_COLUMN, _check_column(src), _check_column(dst), count)

    @classmethod
    def foundation_to_column(cls, suit: int, col: int) -> Move:
        return cls(FOUNDATION_COLUMN, _check_suit(suit), _check_column(col))

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse the text form of a move (see the module docstring); any case, spaces ignored."""
        if not isinstance(text, str):
            raise MalformedInputError(f"a move must be text, not {type(text).__name__}")
        name = re.sub(r"\s+", "", text).lower()
        if name == "draw":
            return DRAW_MOVE
        if name == "recycle":
            return RECYCLE_MOVE
        parts = name.split(">")
        if len(parts) != 2:
            raise MalformedInputError(
                f"{text!r} is not a move: use draw, recycle, waste>f, waste>c4, c2>f, c2:3>c5 or fH>c4"
            )
        src, dst = parts
        to_foundation = dst == "f"
        dst_col = -1
        if not to_foundation:
            match = re.fullmatch(r"c(\d+)", dst)
            if match is None:
                raise MalformedInputError(f"{text!r}: {dst!r} is not a target (c1..c7 or f)")
            dst_col = _column_from_text(match[1], text)
        if src == "waste":
            return cls.waste_to_foundation() if to_foundation else cls.waste_to_column(dst_col)
        if len(src) == 2 and src[0] == "f" and src[1].upper() in SUITS:
            if to_foundation:
                raise MalformedInputError(f"{text!r}: a foundation card goes back to a column, not to f")
            return cls.foundation_to_column(SUITS.index(src[1].upper()), dst_col)
        match = _RUN.fullmatch(src)
        if match is None:
            raise MalformedInputError(
                f"{text!r}: {src!r} is not a source (waste, c1..c7, c1:3 or fC fD fH fS)"
            )
        col = _column_from_text(match[1], text)
        count = int(match[2]) if match[2] is not None else 1
        if to_foundation:
            if count != 1:
                raise MalformedInputError(f"{text!r}: only a column's last card goes to a foundation")
            return cls.column_to_foundation(col)
        return cls.column_to_column(col, dst_col, count)

    def __str__(self) -> str:
        kind = self.kind
        if kind == DRAW:
            return "draw"
        if kind == RECYCLE:
            return "recycle"
        if kind == WASTE_FOUNDATION:
            return "waste>f"
        if kind == WASTE_COLUMN:
            return f"waste>c{self.dst + 1}"
        if kind == COLUMN_FOUNDATION:
            return f"c{self.src + 1}>f"
        if kind == COLUMN_COLUMN:
            run = f":{self.count}" if self.count != 1 else ""
            return f"c{self.src + 1}{run}>c{self.dst + 1}"
        return f"f{SUITS[self.src]}>c{self.dst + 1}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"


def _column_from_text(digits: str, text: str) -> int:
    number = int(digits)
    if not 1 <= number <= NUM_COLUMNS:
        raise MalformedInputError(f"{text!r}: there is no column {number} (columns are c1..c7)")
    return number - 1


DRAW_MOVE = Move(DRAW)
RECYCLE_MOVE = Move(RECYCLE)

__all__ = [
    "COLUMN_COLUMN", "COLUMN_FOUNDATION", "DRAW", "DRAW_MOVE", "FOUNDATION_COLUMN", "MAX_RUN", "RECYCLE",
    "RECYCLE_MOVE", "WASTE_COLUMN", "WASTE_FOUNDATION", "Move",
]
