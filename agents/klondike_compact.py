"""The ``klondike-compact`` encoding: a Klondike observation as 709 floats in [0, 1].

For each of the 52 cards where it is (column 1..7 face up, waste top, waste, seen in the stock,
foundation, or not known: face down or unseen) and how deep (cards above it in its column, or its
place in the waste or in the stock's draw order); then per column its face-down and face-up
counts and whether it is empty; stock, waste and unseen counts; the foundations and their
records; the recycle count. Registered in :mod:`agents.encodings`.
"""

from __future__ import annotations

import numpy as np

from envs.klondike.layout import MAX_COLUMN, NUM_COLUMNS, NUM_STOCK
from envs.klondike.observer import EMPTY, FACE_DOWN, UNSEEN, VIEWS

KLONDIKE_CARD_FEATURES = (
    "column_1", "column_2", "column_3", "column_4", "column_5", "column_6", "column_7",
    "waste_top", "waste", "stock_seen", "foundation", "unknown", "depth",
)
"""Per-card features of ``klondike-compact``: one location flag, and its depth (0 = reachable)."""
KLONDIKE_GLOBALS = 7 * 3 + 3 + 4 + 4 + 1
KLONDIKE_COMPACT_SIZE = 52 * len(KLONDIKE_CARD_FEATURES) + KLONDIKE_GLOBALS
_FOUNDATION, _UNKNOWN, _DEPTH = (KLONDIKE_CARD_FEATURES.index(f) for f in ("foundation", "unknown", "depth"))
_WIDTH = len(KLONDIKE_CARD_FEATURES)
_RANK_INDEX = np.arange(13)[None, :]
_FOUNDATION_CARDS = _RANK_INDEX * 4 + np.arange(4)[:, None]
"""Card ``(rank - 1) * 4 + suit`` at ``[suit, rank - 1]``."""


def _slot_tables() -> tuple[np.ndarray, ...]:
    """For each observation slot of the columns, waste and stock: the location flag a card there
    gets, its column (7 outside the columns), and its depth as
    ``(offset + scale * column length) / divisor``."""
    in_column, of_column = np.arange(MAX_COLUMN), np.repeat(np.arange(NUM_COLUMNS), MAX_COLUMN)
    column_slots, pile_slots, in_pile = of_column.size, 2 * NUM_STOCK, np.arange(NUM_STOCK)
    flags = np.concatenate([of_column, [7], np.full(NUM_STOCK - 1, 8), np.full(NUM_STOCK, 9)])
    column = np.concatenate([of_column, np.full(pile_slots, NUM_COLUMNS)])
    # In a column the face-up cards come last: the one at index i has (length - 1 - i) cards above it.
    offset = np.concatenate([np.tile(-1 - in_column, NUM_COLUMNS), in_pile, in_pile])
    scale = np.concatenate([np.ones(column_slots, np.int64), np.zeros(pile_slots, np.int64)])
    divisor = np.concatenate([np.full(column_slots, 12.0), np.full(pile_slots, 23.0)])
    return flags, column, offset, scale, divisor


_SLOT_FLAG, _SLOT_COLUMN, _SLOT_OFFSET, _SLOT_SCALE, _SLOT_DIVISOR = _slot_tables()
_PLACED = _SLOT_FLAG.size
"""Observation slots (columns, waste, stock) that may hold a card."""
if (VIEWS["columns"].start, VIEWS["waste"].start, VIEWS["stock"].start, VIEWS["stock"].stop) != (
        0, NUM_COLUMNS * MAX_COLUMN, NUM_COLUMNS * MAX_COLUMN + NUM_STOCK, _PLACED):
    raise ImportError("klondike-compact's slot tables expect the observation to start with its columns, "
                      "waste and stock")


def klondike_compact(observation: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """The ``klondike-compact`` vector of one Klondike observation (see the module docstring).

    A few array operations on precomputed slot tables: it runs once per environment step in
    training.
    """
    obs = np.asarray(observation, dtype=np.int64)
    out = np.zeros(KLONDIKE_COMPACT_SIZE, np.float32)
    out[_UNKNOWN : 52 * _WIDTH : _WIDTH] = 1.0  # not known, until placed below
    glob = out[52 * _WIDTH:]
    columns = obs[VIEWS["columns"]].reshape(7, -1)
    length = (columns != EMPTY).sum(axis=1)
    down = (columns == FACE_DOWN).sum(axis=1)
    slots = np.flatnonzero(obs[:_PLACED] < 52)  # face up in a column, in the waste, seen in the stock
    rows = obs[slots] * _WIDTH
    out[rows + _UNKNOWN] = 0.0
    out[rows + _SLOT_FLAG[slots]] = 1.0
    above = _SLOT_OFFSET[slots] + _SLOT_SCALE[slots] * np.append(length, 0)[_SLOT_COLUMN[slots]]
    out[rows + _DEPTH] = above / _SLOT_DIVISOR[slots]
    foundations = obs[VIEWS["foundations"]]
    rows = _FOUNDATION_CARDS[foundations[:, None] > _RANK_INDEX] * _WIDTH
    out[rows + _UNKNOWN] = 0.0
    out[rows + _FOUNDATION] = 1.0
    stock_size = int((obs[VIEWS["stock"]] != EMPTY).sum())
    glob[0:7], glob[7:14], glob[14:21] = down / 6, (length - down) / 13, length == 0
    glob[21], glob[22] = stock_size / 24, int((obs[VIEWS["waste"]] != EMPTY).sum()) / 24
    glob[23] = int((obs[VIEWS["stock"]] == UNSEEN).sum()) / 24
    glob[24:28] = foundations / 13
    glob[28:32] = obs[VIEWS["best"]] / 13
    glob[32] = obs[VIEWS["recycles"]][0] / 31
    return out


__all__ = ["KLONDIKE_CARD_FEATURES", "KLONDIKE_COMPACT_SIZE", "KLONDIKE_GLOBALS", "klondike_compact"]
