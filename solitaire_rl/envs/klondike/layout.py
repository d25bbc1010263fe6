"""Klondike's table and deal order: how the 52 cards of a deal are laid out.

**Deal order** (the order of a deal code, a 52-name list and ``DealId.cards()``): the 28 tableau
cards as a person deals them, then the 24 stock cards from the top.

* The tableau is dealt in 7 passes. Pass 1 puts one card on each of columns 1..7, pass 2 one card
  on each of columns 2..7, ..., pass 7 one card on column 7. In pass ``p`` the card dealt to column
  ``p`` is that column's last card and is face up; every other card is face down. So deal indices
  0..6 are pass 1 (index 0 is column 1's only card, face up), 7..12 are pass 2 (index 7 is
  column 2's face-up card), 13..17 pass 3, 18..21 pass 4, 22..24 pass 5, 25..26 pass 6 and 27 is
  column 7's face-up card.
* Indices 28..51 are the stock from its top down: index 28 is the first card drawn, and with draw 3
  the first tap moves indices 28, 29, 30 to the waste with 30 on top.

Columns are numbered 0..6 in code and 1..7 in text; a column is a list from its bottom (first
card dealt) to its end (the card a person can move).
"""

from __future__ import annotations

from collections.abc import Sequence

from solitaire_rl.envs.deals import check_full_deck
from solitaire_rl.envs.errors import MalformedInputError

NUM_COLUMNS = 7
NUM_TABLEAU = 28
NUM_STOCK = 24
MAX_FACE_DOWN = 6
"""Most face-down cards a column holds: column 7 starts with 6 and no column ever gains one."""
MAX_COLUMN = MAX_FACE_DOWN + 13
"""Most cards a column can hold: 6 face-down cards under a face-up King..Ace run."""

DEAL_SLOTS: tuple[tuple[int, int], ...] = tuple(
    (col, depth) for depth in range(NUM_COLUMNS) for col in range(depth, NUM_COLUMNS)
)
"""``DEAL_SLOTS[i]`` is the (column, depth from the bottom) that deal index ``i`` (0..27) lands on."""


def deal_table(cards: Sequence[int]) -> tuple[list[list[int]], list[int]]:
    """Lay out 52 cards in deal order: 7 columns (bottom to end) and the stock (top card last).

    Column ``c`` holds ``c + 1`` cards, of which only the last is face up.
    """
    deck = check_full_deck(cards)
    columns: list[list[int]] = [[] for _ in range(NUM_COLUMNS)]
    for i, (col, _depth) in enumerate(DEAL_SLOTS):
        columns[col].append(deck[i])
    stock = list(reversed(deck[NUM_TABLEAU:]))
    return columns, stock


def deal_order(columns: Sequence[Sequence[int]], stock_top_first: Sequence[int]) -> tuple[int, ...]:
    """Inverse of :func:`deal_table`: 52 cards in deal order from a starting table.

    ``columns`` must hold 1..7 cards (bottom to end); ``stock_top_first`` the 24 stock cards,
    the first card drawn first.
    """
    if len(columns) != NUM_COLUMNS or any(len(col) != c + 1 for c, col in enumerate(columns)):
        sizes = [len(col) for col in columns]
        raise MalformedInputError(
            f"a Klondike deal has 7 columns of 1..7 cards, got {len(columns)} columns of sizes {sizes}"
        )
    if len(stock_top_first) != NUM_STOCK:
        raise MalformedInputError(f"a Klondike deal has 24 stock cards, got {len(stock_top_first)}")
    tableau = [columns[col][depth] for col, depth in DEAL_SLOTS]
    return check_full_deck(tableau + list(stock_top_first))


__all__ = ["DEAL_SLOTS", "MAX_COLUMN", "MAX_FACE_DOWN", "NUM_COLUMNS", "NUM_STOCK", "NUM_TABLEAU",
           "deal_order", "deal_table"]
