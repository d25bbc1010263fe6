"""The ``pyramid-actions`` encoding: the observation plus a feature row for each legal action.

An MLP over the flat observation has to learn, for each of the 467 actions separately, when that
action is good; a pair of cards seen at one place teaches it nothing about the same pair at
another. This encoding lists the legal actions instead, each as one *slot*: its action index and
what the move does, in the terms the greedy heuristic weighs (:class:`agents.greedy.pyramid.ActionTerms`).
A policy that scores every slot with one shared network (:mod:`agents.action_scoring_policy`)
then learns one rule for all actions.

Layout (:data:`PYRAMID_ACTIONS_SIZE` floats in [0, 1]): the environment's 883 observation values
as they are, then :data:`SLOTS` slots of :data:`SLOT_WIDTH` values, the legal actions in index
order, unused slots all zero. A slot: ``(action + 1) / 467``, then :data:`ACTION_FEATURES`.

:data:`SLOTS` = 38 is enough for every position: at most 9 places are usable at once (an
antichain of the pyramid has at most 7 cards, plus the stock and waste tops), a King pairs with
nothing, so removals number at most C(9, 2) = 36, and draw and recycle make 38.

Everything is read from the observation and the mask (what the player knows), like ``greedy``.
"""

from __future__ import annotations

import math

import numpy as np

from agents.greedy.pyramid import (
    DRAW_SCORE,
    RECYCLE_SCORE,
    PyramidView,
    action_terms,
    best_index,
    terms_score,
)
from envs.errors import MalformedInputError
from envs.pyramid.actions import ACTION_MOVES, NUM_ACTIONS
from envs.pyramid.layout import NUM_PYRAMID, ROW_COL
from envs.pyramid.moves import DRAW, RECYCLE, STOCK
from envs.pyramid.observation import OBSERVATION_SIZE

ACTION_FEATURES = (
    "king", "draw", "recycle", "pyramid_cards", "other_cards", "uncovered", "uses_waste",
    "uses_stock", "partners_short", "partners_freed", "greedy_score", "low_rank", "left_of_rank",
    "left_of_partner_rank", "deepest_row", "highest_row", "greedy_choice",
)
"""Per-action features, each in [0, 1]: what the move removes and uncovers, how many pyramid
cards it leaves without a possible partner (greedy's matching, ``partners_short``), greedy's
score (squashed) and whether greedy would pick it, the lower rank removed and how many cards of
it and of its partner rank stay in play, and the rows of the pyramid cards removed."""
SLOTS = 38
SLOT_WIDTH = 1 + len(ACTION_FEATURES)
PYRAMID_ACTIONS_SIZE = OBSERVATION_SIZE + SLOTS * SLOT_WIDTH

_F = {name: i + 1 for i, name in enumerate(ACTION_FEATURES)}


def _squash(score: float) -> float:
    return 0.5 + 0.5 * math.tanh(score / 30.0)


def action_slot(view: PyramidView, action: int, slot: np.ndarray) -> float:
    """Write the slot of one legal action into ``slot`` (zeros); return greedy's score of it."""
    slot[0] = (action + 1) / NUM_ACTIONS
    move = ACTION_MOVES[action]
    if move.kind == DRAW:
        slot[_F["draw"]] = 1.0
        slot[_F["greedy_score"]] = _squash(DRAW_SCORE)
        return DRAW_SCORE
    if move.kind == RECYCLE:
        slot[_F["recycle"]] = 1.0
        slot[_F["greedy_score"]] = _squash(RECYCLE_SCORE)
        return RECYCLE_SCORE
    terms = action_terms(view, action)
    score, _ = terms_score(terms)
    slot[_F["greedy_score"]] = _squash(score)
    low = min(terms.ranks)
    rows = [ROW_COL[p][0] for p in move.places() if p < NUM_PYRAMID]
    slot[_F["king"]] = float(terms.king)
    slot[_F["pyramid_cards"]] = terms.pyramid_cards / 2
    slot[_F["other_cards"]] = terms.other_cards / 2
    slot[_F["uncovered"]] = min(terms.uncovered, 3) / 3
    slot[_F["uses_waste"]] = float(terms.uses_waste)
    slot[_F["uses_stock"]] = float(STOCK in move.places())
    slot[_F["partners_short"]] = min(max(terms.short, 0), 4) / 4
    slot[_F["partners_freed"]] = min(max(-terms.short, 0), 4) / 4
    slot[_F["low_rank"]] = low / 13
    slot[_F["left_of_rank"]] = terms.left_after[low] / 4
    slot[_F["left_of_partner_rank"]] = 0.0 if terms.king else terms.left_after[13 - low] / 4
    if rows:
        slot[_F["deepest_row"]] = max(rows) / 7
        slot[_F["highest_row"]] = min(rows) / 7
    return score


def pyramid_actions(observation: np.ndarray, mask: np.ndarray | None) -> np.ndarray:
    """The ``pyramid-actions`` vector of one Pyramid observation and its action mask."""
    if mask is None:
        raise MalformedInputError("the pyramid-actions encoding needs the action mask")
    out = np.zeros(PYRAMID_ACTIONS_SIZE, np.float32)
    out[:OBSERVATION_SIZE] = observation
    legal = np.flatnonzero(mask)
    if legal.size == 0:
        return out
    if legal.size > SLOTS:  # cannot happen (see the module docstring); never drop a legal move silently
        raise MalformedInputError(f"{legal.size} legal actions do not fit {SLOTS} slots")
    view = PyramidView.decode(observation)
    slots = out[OBSERVATION_SIZE:].reshape(SLOTS, SLOT_WIDTH)
    scores = [action_slot(view, int(action), slots[i]) for i, action in enumerate(legal)]
    slots[best_index(scores), _F["greedy_choice"]] = 1.0
    return out


__all__ = ["ACTION_FEATURES", "PYRAMID_ACTIONS_SIZE", "SLOTS", "SLOT_WIDTH", "action_slot", "pyramid_actions"]
