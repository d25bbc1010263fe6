"""Geometry of the 28-card pyramid: positions, rows, and which cards cover which.

Positions are numbered 0..27 from the apex down, each row left to right: row ``r`` (1..7) holds
positions ``r*(r-1)/2 .. r*(r+1)/2 - 1``. The card at row ``r``, column ``c`` is covered by the
two cards at row ``r+1``, columns ``c`` and ``c+1``; the 7 cards of row 7 are uncovered.
"""

from __future__ import annotations

NUM_ROWS = 7
NUM_PYRAMID = 28
NUM_STOCK = 24
ALL_REMOVED = (1 << NUM_PYRAMID) - 1


def position(row: int, col: int) -> int:
    """Position of the card at ``row`` 1..7, ``col`` 1..row."""
    if not (1 <= row <= NUM_ROWS and 1 <= col <= row):
        raise ValueError(f"no pyramid card at row {row}, column {col}")
    return row * (row - 1) // 2 + col - 1


ROW_COL: tuple[tuple[int, int], ...] = tuple(
    (r, c) for r in range(1, NUM_ROWS + 1) for c in range(1, r + 1)
)
"""``ROW_COL[pos]`` is the (row, column) of a position, both 1-based."""

COVERED_BY: tuple[tuple[int, ...], ...] = tuple(
    (position(r + 1, c), position(r + 1, c + 1)) if r < NUM_ROWS else () for r, c in ROW_COL
)
"""The positions directly covering each position (empty for the bottom row)."""

COVER_MASK: tuple[int, ...] = tuple(sum(1 << q for q in cov) for cov in COVERED_BY)
"""Bitmask of the positions directly covering each position."""


def _below(pos: int) -> int:
    mask = 0
    for q in COVERED_BY[pos]:
        mask |= (1 << q) | _below(q)
    return mask


BELOW_MASK: tuple[int, ...] = tuple(_below(p) for p in range(NUM_PYRAMID))
"""Bitmask of every position that lies on top of a position (directly or further down)."""
