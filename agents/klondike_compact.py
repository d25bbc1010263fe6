"""The ``klondike-compact`` encoding: a Klondike observation as 709 floats in [0, 1].

For each of the 52 cards where it is (column 1..7 face up, waste top, waste, seen in the stock,
foundation, or not known: face down or unseen) and how deep (cards above it in its column, or its
place in the waste or in the stock's draw order); then per column its face-down and face-up
counts and whether it is empty; stock, waste and unseen counts; the foundations and their
records; the recycle count. Registered in :mod:`agents.encodings`.
"""

from __future__ import annotations

import numpy as np

KLONDIKE_CARD_FEATURES = (
    "column_1", "column_2", "column_3", "column_4", "column_5", "column_6", "column_7",
    "waste_top", "waste", "stock_seen", "foundation", "unknown", "depth",
)
"""Per-card features of ``klondike-compact``: one location flag, and its depth (0 = reachable)."""
KLONDIKE_GLOBALS = 7 * 3 + 3 + 4 + 4 + 1
KLONDIKE_COMPACT_SIZE = 52 * len(KLONDIKE_CARD_FEATURES) + KLONDIKE_GLOBALS
_UNKNOWN, _DEPTH = KLONDIKE_CARD_FEATURES.index("unknown"), KLONDIKE_CARD_FEATURES.index("depth")
_RANK_INDEX = np.arange(13)[None, :]
_FOUNDATION_CARDS = _RANK_INDEX * 4 + np.arange(4)[:, None]
"""Card ``(rank - 1) * 4 + suit`` at ``[suit, rank - 1]``."""


def klondike_compact(observation: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """The ``klondike-compact`` vector of one Klondike observation (see the module docstring).

    Array operations throughout: it runs once per environment step in training.
    """
    from envs.klondike.observer import EMPTY, FACE_DOWN, VIEWS

    obs = np.asarray(observation, dtype=np.int64)
    out = np.zeros(KLONDIKE_COMPACT_SIZE, np.float32)
    cards = out[: 52 * len(KLONDIKE_CARD_FEATURES)].reshape(52, len(KLONDIKE_CARD_FEATURES))
    cards[:, _UNKNOWN] = 1.0  # not known, until placed below
    glob = out[52 * len(KLONDIKE_CARD_FEATURES):]

    def place(placed: np.ndarray, flags: np.ndarray | int, depths: np.ndarray | float) -> None:
        cards[placed, _UNKNOWN] = 0.0
        cards[placed, flags] = 1.0
        cards[placed, _DEPTH] = depths

    columns = obs[VIEWS["columns"]].reshape(7, -1)
    up = (columns != FACE_DOWN) & (columns != EMPTY)
    down, n_up = (columns == FACE_DOWN).sum(axis=1), up.sum(axis=1)
    above = n_up[:, None] - np.cumsum(up, axis=1)  # face-up cards above each one in its column
    place(columns[up], np.nonzero(up)[0], above[up] / 12)
    glob[0:7], glob[7:14], glob[14:21] = down / 6, n_up / 13, down + n_up == 0
    waste = obs[VIEWS["waste"]]
    waste = waste[waste != EMPTY]
    place(waste, np.where(np.arange(waste.size) == 0, 7, 8), np.arange(waste.size) / 23)
    stock = obs[VIEWS["stock"]]
    stock = stock[stock != EMPTY]
    seen = np.flatnonzero(stock < 52)
    place(stock[seen], 9, seen / 23)
    foundations = obs[VIEWS["foundations"]]
    place(_FOUNDATION_CARDS[foundations[:, None] > _RANK_INDEX], 10, 0.0)
    glob[21], glob[22] = stock.size / 24, waste.size / 24
    glob[23] = (stock.size - seen.size) / 24
    glob[24:28] = foundations / 13
    glob[28:32] = obs[VIEWS["best"]] / 13
    glob[32] = obs[VIEWS["recycles"]][0] / 31
    return out


__all__ = ["KLONDIKE_CARD_FEATURES", "KLONDIKE_COMPACT_SIZE", "KLONDIKE_GLOBALS", "klondike_compact"]
