"""Klondike's suit symmetries: renaming suits within and across colours changes no rule.

Building down in alternating colours and up by suit only ask whether two suits share a colour
and whether two cards share a suit, so a renaming of the suits that keeps the colour classes
together (clubs and spades black, diamonds and hearts red; the two classes may also trade
colours) maps every game to one that plays the same. There are eight (:data:`SUIT_SYMMETRIES`).
:func:`permute_observations` and :func:`permute_actions` apply one to observations, masks and
per-action arrays, for data augmentation; ``tests/test_klondike_symmetry.py`` holds them to
the engine (a renamed deal shows the renamed observation and mask at every step).
"""

from __future__ import annotations

import numpy as np

from solitaire_rl.envs.klondike.actions import NUM_ACTIONS
from solitaire_rl.envs.klondike.observer import CARD_VALUES, VIEWS

SUIT_SYMMETRIES: tuple[tuple[int, int, int, int], ...] = (
    (0, 1, 2, 3), (3, 1, 2, 0), (0, 2, 1, 3), (3, 2, 1, 0),
    (1, 0, 3, 2), (2, 0, 3, 1), (1, 3, 0, 2), (2, 3, 0, 1),
)
"""Suit renamings ``new_suit = sigma[suit]`` (suits C, D, H, S) that keep colours together."""

FOUNDATION_ACTIONS = 562
"""The first ``fX>cN`` action: ``562 + suit * 7 + column``."""


def card_table(sigma: tuple[int, ...]) -> np.ndarray:
    """Lookup of every observation card value under ``sigma`` (face-down, unseen, empty kept)."""
    table = np.arange(CARD_VALUES)
    cards = np.arange(52)
    table[:52] = cards // 4 * 4 + np.asarray(sigma)[cards % 4]
    return table


def action_permutation(sigma: tuple[int, ...]) -> np.ndarray:
    """``perm[a]``: the action that ``a`` becomes under ``sigma`` (only ``fX>cN`` moves change)."""
    perm = np.arange(NUM_ACTIONS)
    for suit in range(4):
        for column in range(7):
            perm[FOUNDATION_ACTIONS + suit * 7 + column] = FOUNDATION_ACTIONS + sigma[suit] * 7 + column
    return perm


_CARD_SLOTS = np.r_[VIEWS["columns"], VIEWS["waste"], VIEWS["stock"]]


def permute_observations(observations: np.ndarray, sigma: tuple[int, ...]) -> np.ndarray:
    """Observations (one per row) of the renamed games."""
    obs = np.array(observations, copy=True)
    obs[:, _CARD_SLOTS] = card_table(sigma)[obs[:, _CARD_SLOTS]]
    for view in ("foundations", "best"):
        part = np.asarray(observations)[:, VIEWS[view]]
        obs[:, VIEWS[view].start + np.asarray(sigma)] = part
    return obs


def permute_actions(per_action: np.ndarray, sigma: tuple[int, ...]) -> np.ndarray:
    """Per-action rows (masks, policy targets) of the renamed games."""
    out = np.empty_like(per_action)
    out[:, action_permutation(sigma)] = per_action
    return out


__all__ = ["SUIT_SYMMETRIES", "action_permutation", "card_table", "permute_actions", "permute_observations"]
