"""Pyramid moves as small immutable values that round-trip through text.

A *place* is where a usable card lies: a pyramid position 0..27, :data:`STOCK` (the stock's top
card) or :data:`WASTE` (the waste's top card). Text forms: ``r7c1`` for row 7 column 1,
``stock``, ``waste``. Moves read ``r7c3`` (a King removed alone), ``r7c1+r7c2`` or
``r6c2+waste`` (a pair summing to 13), ``draw`` and ``recycle``.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.pyramid.layout import NUM_PYRAMID, ROW_COL, position

STOCK = 28
"""Place of the stock's top card."""
WASTE = 29
"""Place of the waste's top card."""
NUM_PLACES = 30

REMOVE, DRAW, RECYCLE = 0, 1, 2
"""Move kinds: remove one King or a pair, draw one stock card, recycle the waste."""


def place_name(place: int) -> str:
    """``r{row}c{col}`` for a pyramid position, ``stock`` or ``waste``."""
    if place == STOCK:
        return "stock"
    if place == WASTE:
        return "waste"
    row, col = ROW_COL[place]
    return f"r{row}c{col}"


def parse_place(text: str) -> int:
    """Parse a place name (``r7c1``, ``stock``, ``waste``; any case)."""
    name = text.strip().lower()
    if name == "stock":
        return STOCK
    if name == "waste":
        return WASTE
    match = re.fullmatch(r"r(\d)c(\d)", name)
    if match is None:
        raise MalformedInputError(f"{text!r} is not a place: use r1c1..r7c7, stock or waste")
    try:
        return position(int(match[1]), int(match[2]))
    except ValueError as exc:
        raise MalformedInputError(str(exc)) from None


class Move(NamedTuple):
    """A Pyramid move. For ``REMOVE``, ``a`` is a place and ``b`` the partner (``-1`` for a King).

    Pairs are stored with ``a < b``, so a pair has one value whichever card was named first.
    """

    kind: int
    a: int = -1
    b: int = -1

    @classmethod
    def remove(cls, a: int, b: int = -1) -> Move:
        """Remove the King at ``a``, or the pair ``a`` + ``b``."""
        for p in (a, b) if b != -1 else (a,):
            if not 0 <= p < NUM_PLACES:
                raise MalformedInputError(f"{p!r} is not a place number 0..{NUM_PLACES - 1}")
        return cls(REMOVE, min(a, b), max(a, b)) if b != -1 else cls(REMOVE, a, -1)

    @classmethod
    def parse(cls, text: str) -> Move:
        """Parse the text form of a move (``draw``, ``recycle``, ``r7c3``, ``r7c1+waste``)."""
        name = text.strip().lower()
        if name == "draw":
            return DRAW_MOVE
        if name == "recycle":
            return RECYCLE_MOVE
        parts = name.split("+")
        if len(parts) > 2:
            raise MalformedInputError(f"{text!r} is not a move: a pair names two places")
        places = [parse_place(p) for p in parts]
        return cls.remove(*places)

    @property
    def is_pair(self) -> bool:
        return self.kind == REMOVE and self.b != -1

    def places(self) -> tuple[int, ...]:
        """The places whose cards this move removes."""
        if self.kind != REMOVE:
            return ()
        return (self.a,) if self.b == -1 else (self.a, self.b)

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    def __str__(self) -> str:
        if self.kind == DRAW:
            return "draw"
        if self.kind == RECYCLE:
            return "recycle"
        return "+".join(place_name(p) for p in self.places())


DRAW_MOVE = Move(DRAW)
RECYCLE_MOVE = Move(RECYCLE)
KING_MOVES: tuple[Move, ...] = tuple(Move(REMOVE, p, -1) for p in range(NUM_PLACES))
"""``KING_MOVES[p]`` removes the King at place ``p`` (prebuilt, so move generation allocates none)."""
PAIR_MOVES: tuple[tuple[Move, ...], ...] = tuple(
    tuple(Move(REMOVE, min(a, b), max(a, b)) for b in range(NUM_PLACES)) for a in range(NUM_PLACES)
)
"""``PAIR_MOVES[a][b]`` removes the pair of places ``a`` and ``b`` (either order)."""
__all__ = [
    "DRAW_MOVE", "KING_MOVES", "NUM_PLACES", "NUM_PYRAMID", "PAIR_MOVES", "RECYCLE_MOVE", "STOCK", "WASTE",
    "Move",
]
