"""Hand-built Pyramid deals shared by the rules and environment tests."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import pytest

from solitaire_rl.envs.cards import FULL_DECK, parse_card
from solitaire_rl.envs.deals import encode_deal_code
from solitaire_rl.envs.pyramid.layout import NUM_PYRAMID
from solitaire_rl.envs.pyramid.moves import parse_place

DealBuilder = Callable[[Mapping[str, str], Sequence[str]], str]


def build_pyramid_deal(pyramid: Mapping[str, str], stock: Sequence[str] = ()) -> str:
    """A deal code with the named pyramid cards (``{"r7c1": "5D"}``) and stock cards from the top.

    Every other slot takes the unused cards in deck order (AC, AD, AH, AS, 2C, ...), pyramid
    positions first (apex down), then the rest of the stock.
    """
    slots: list[int | None] = [None] * 52
    for place, name in pyramid.items():
        slots[parse_place(place)] = parse_card(name)
    for i, name in enumerate(stock):
        slots[NUM_PYRAMID + i] = parse_card(name)
    used = {c for c in slots if c is not None}
    if len(used) != sum(c is not None for c in slots):
        raise ValueError("a card is named twice")
    spare = iter(c for c in FULL_DECK if c not in used)
    return encode_deal_code([c if c is not None else next(spare) for c in slots])


# A pyramid that clears by itself, row by row: adjacent pairs and a King closing odd rows.
WIN_PYRAMID = {
    "r7c1": "AC", "r7c2": "QC", "r7c3": "2C", "r7c4": "JC", "r7c5": "3C", "r7c6": "TC", "r7c7": "KC",
    "r6c1": "AD", "r6c2": "QD", "r6c3": "2D", "r6c4": "JD", "r6c5": "3D", "r6c6": "TD",
    "r5c1": "4C", "r5c2": "9C", "r5c3": "4D", "r5c4": "9D", "r5c5": "KD",
    "r4c1": "5C", "r4c2": "8C", "r4c3": "5D", "r4c4": "8D",
    "r3c1": "6C", "r3c2": "7C", "r3c3": "KH",
    "r2c1": "6D", "r2c2": "7D",
    "r1c1": "KS",
}
WIN_LINE = (
    "r7c1+r7c2", "r7c3+r7c4", "r7c5+r7c6", "r7c7", "r6c1+r6c2", "r6c3+r6c4", "r6c5+r6c6",
    "r5c1+r5c2", "r5c3+r5c4", "r5c5", "r4c1+r4c2", "r4c3+r4c4", "r3c1+r3c2", "r3c3", "r2c1+r2c2",
    "r1c1",
)
"""Clears :data:`WIN_PYRAMID` in 16 moves without touching the stock (either variant)."""

# No two usable cards ever sum to 13 and no King is ever usable: only draws and recycles.
DRAW_ONLY_PYRAMID = {"r7c1": "AC", "r7c2": "AD", "r7c3": "AH", "r7c4": "AS", "r7c5": "2C", "r7c6": "2D",
                     "r7c7": "2H"}
DRAW_ONLY_STOCK = (
    "3C", "3D", "3H", "3S", "4C", "4D", "4H", "4S", "5C", "5D", "5H", "5S",
    "6C", "6D", "6H", "6S", "8C", "8D", "8H", "8S", "9C", "9D", "9H", "9S",
)

# Consecutive stock cards sum to 13 (Q A, J 2, ...): in variant 000 a draw then a stock+waste pair,
# twelve times, empties stock and waste in pass 1. The bottom row has no pair and no King.
STOCK_PAIRS_PYRAMID = {"r7c1": "AC", "r7c2": "AD", "r7c3": "2C", "r7c4": "2D", "r7c5": "3C", "r7c6": "3D",
                       "r7c7": "4C"}
STOCK_PAIRS_STOCK = (
    "QH", "AH", "JH", "2H", "TH", "3H", "9H", "4H", "8H", "5H", "7H", "6H",
    "QS", "AS", "JS", "2S", "TS", "3S", "9S", "4S", "8S", "5S", "7S", "6S",
)


@pytest.fixture
def build_deal() -> DealBuilder:
    return build_pyramid_deal


@pytest.fixture
def win_deal() -> str:
    return build_pyramid_deal(WIN_PYRAMID)


@pytest.fixture
def win_line() -> tuple[str, ...]:
    return WIN_LINE


@pytest.fixture
def draw_only_deal() -> str:
    return build_pyramid_deal(DRAW_ONLY_PYRAMID, DRAW_ONLY_STOCK)


@pytest.fixture
def stock_pairs_deal() -> str:
    return build_pyramid_deal(STOCK_PAIRS_PYRAMID, STOCK_PAIRS_STOCK)
