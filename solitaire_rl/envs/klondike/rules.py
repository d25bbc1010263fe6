"""The building rule, in one place: which card may lie on which in a column.

A card goes on a card one rank higher of the other colour; only a King goes to an empty column.
Foundations take the next card of their suit (``foundations[suit] == rank - 1``), which needs no
table.
"""

from __future__ import annotations

from solitaire_rl.envs.cards import NUM_CARDS, is_red

RED: tuple[bool, ...] = tuple(is_red(c) for c in range(NUM_CARDS))
"""``RED[card]``: diamonds and hearts."""

PARENTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(p for p in range(NUM_CARDS) if (p >> 2) == (c >> 2) + 1 and RED[p] != RED[c])
    for c in range(NUM_CARDS)
)
"""``PARENTS[card]``: the two cards ``card`` may lie on in a column (none for a King)."""


def fits(card: int, target: int) -> bool:
    """Whether ``card`` may lie on ``target`` in a column: one rank lower, the other colour."""
    return (target >> 2) == (card >> 2) + 1 and RED[target] != RED[card]


def targets_for(card: int, end_col: dict[int, int], empty: list[int]) -> list[int]:
    """Columns, in order, that may take ``card``: the empty ones for a King, else those whose last
    card is one rank higher in the other colour. ``end_col`` maps each column's last card to its
    column and ``empty`` lists the empty columns (see ``KlondikeGame.column_ends``)."""
    if card >> 2 == 12:
        return empty
    found = [end_col[p] for p in PARENTS[card] if p in end_col]
    if len(found) == 2 and found[0] > found[1]:
        found.reverse()
    return found


__all__ = ["PARENTS", "RED", "fits", "targets_for"]
