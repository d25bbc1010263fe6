"""The ``klondike-compact`` encoding: a Klondike observation as 709 floats in [0, 1].

For each of the 52 cards where it is (column 1..7 face up, waste top, waste, seen in the stock,
foundation, or not known: face down or unseen) and how deep (cards above it in its column, or its
place in the waste or in the stock's draw order); then per column its face-down and face-up
counts and whether it is empty; stock, waste and unseen counts; the foundations and their
records; the recycle count. Registered in :mod:`solitaire_rl.agents.encodings`.
"""

from __future__ import annotations

import numpy as np

from solitaire_rl.agents.greedy.klondike import KlondikeView
from solitaire_rl.envs.klondike.observer import UNSEEN

KLONDIKE_CARD_FEATURES = (
    "column_1", "column_2", "column_3", "column_4", "column_5", "column_6", "column_7",
    "waste_top", "waste", "stock_seen", "foundation", "unknown", "depth",
)
"""Per-card features of ``klondike-compact``: one location flag, and its depth (0 = reachable)."""
KLONDIKE_GLOBALS = 7 * 3 + 3 + 4 + 4 + 1
KLONDIKE_COMPACT_SIZE = 52 * len(KLONDIKE_CARD_FEATURES) + KLONDIKE_GLOBALS
_WASTE_TOP, _WASTE, _STOCK_SEEN, _FOUNDATION, _UNKNOWN, _DEPTH = (
    KLONDIKE_CARD_FEATURES.index(f)
    for f in ("waste_top", "waste", "stock_seen", "foundation", "unknown", "depth"))
_WIDTH = len(KLONDIKE_CARD_FEATURES)
_GLOBALS = 52 * _WIDTH
_EMPTY_VECTOR = np.zeros(KLONDIKE_COMPACT_SIZE, np.float32)
_EMPTY_VECTOR[_UNKNOWN:_GLOBALS:_WIDTH] = 1.0  # not known, until placed


def klondike_compact(observation: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """The ``klondike-compact`` vector of one Klondike observation (see the module docstring)."""
    return compact_vector(KlondikeView(observation))


def compact_vector(view: KlondikeView) -> np.ndarray:
    """The ``klondike-compact`` vector of the position ``view`` decodes.

    One walk over the view's cards in plain Python (a few dozen numpy calls on so small an array
    cost more), then the values are written into the vector at once: it runs once per environment
    step in training.
    """
    at: list[int] = []  # where the vector differs from _EMPTY_VECTOR,
    to: list[float] = []  # and what it holds there
    for c, up in enumerate(view.face_up):
        above = len(up)
        for card in up:  # the column's face-up cards, from the one on the face-down cards
            above -= 1
            row = card * _WIDTH
            at += (row + _UNKNOWN, row + c, row + _DEPTH)
            to += (0.0, 1.0, above / 12)
    for i, card in enumerate(view.waste):  # from the top
        row = card * _WIDTH
        at += (row + _UNKNOWN, row + (_WASTE if i else _WASTE_TOP), row + _DEPTH)
        to += (0.0, 1.0, i / 23)
    for i, card in enumerate(view.stock):  # in draw order
        if card != UNSEEN:
            row = card * _WIDTH
            at += (row + _UNKNOWN, row + _STOCK_SEEN, row + _DEPTH)
            to += (0.0, 1.0, i / 23)
    for suit, top in enumerate(view.foundations):
        for rank in range(top):
            row = (rank * 4 + suit) * _WIDTH
            at += (row + _UNKNOWN, row + _FOUNDATION)
            to += (0.0, 1.0)
    glob = [d / 6 for d in view.face_down] + [len(up) / 13 for up in view.face_up]
    glob += [float(not up and not d) for up, d in zip(view.face_up, view.face_down, strict=True)]
    glob += [len(view.stock) / 24, len(view.waste) / 24, view.stock.count(UNSEEN) / 24]
    glob += [f / 13 for f in view.foundations] + [b / 13 for b in view.best] + [view.recycles / 31]
    at += range(_GLOBALS, _GLOBALS + len(glob))
    to += glob
    out = _EMPTY_VECTOR.copy()
    out[at] = to
    return out


__all__ = ["KLONDIKE_CARD_FEATURES", "KLONDIKE_COMPACT_SIZE", "KLONDIKE_GLOBALS", "compact_vector",
           "klondike_compact"]
