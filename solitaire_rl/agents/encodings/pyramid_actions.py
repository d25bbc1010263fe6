"""The ``pyramid-actions`` encoding: the observation plus a feature row for each legal action.

An MLP over the flat observation has to learn, for each of the 467 actions separately, when that
action is good; a pair of cards seen at one place teaches it nothing about the same pair at
another. This encoding lists the legal actions instead, each as one *slot*: its action index and
what the move does, in the terms the greedy heuristic weighs
(:class:`solitaire_rl.agents.greedy.pyramid.ActionTerms`).
A policy that scores every slot with one shared network (:mod:`solitaire_rl.agents.action_scoring_policy`)
then learns one rule for all actions.

Layout (:data:`PYRAMID_ACTIONS_SIZE` floats in [0, 1]): the environment's 883 observation values
as they are, then :data:`SLOTS` slots of :data:`SLOT_WIDTH` values, the legal actions in index
order, unused slots all zero. A slot: ``(action + 1) / 467``, then :data:`ACTION_FEATURES`.

:data:`SLOTS` = 38 is enough for every position: at most 9 places are usable at once (an
antichain of the pyramid has at most 7 cards, plus the stock and waste tops), a King pairs with
nothing, so removals number at most C(9, 2) = 36, and draw and recycle make 38.

Everything is read from the observation and the mask (what the player knows), like ``greedy``.

``pyramid-actions-relaxed`` adds one feature to each slot, ``relaxed_lost``: whether, after the
move, the exact solver's pruning rules prove the pyramid impossible to clear even in the relaxed
game where every stock and waste card may be used at any moment
(:func:`solitaire_rl.agents.solver.pyramid_relaxed_lost`). Those rules read only the pyramid and the ranks
left in the stock and waste, never their order, so a player who has seen none of the stock
knows the answer too. Greedy's own matching (``partners_short``) already covers the counting
rules; the relaxation is what it lacks: greedy with this one rule added (a move proved lost is
played only if every move is) won 537 of Pyramid 000's deals 1..1000 instead of 500, and 502 of
Pyramid 001's instead of 478.
"""

from __future__ import annotations

import math

import numpy as np

from solitaire_rl.agents.greedy.pyramid import (
    DRAW_SCORE,
    RECYCLE_SCORE,
    PyramidView,
    action_terms,
    best_index,
    terms_score,
)
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.pyramid.actions import ACTION_MOVES, NUM_ACTIONS
from solitaire_rl.envs.pyramid.layout import ALL_REMOVED, NUM_PYRAMID, ROW_COL
from solitaire_rl.envs.pyramid.moves import DRAW, RECYCLE, STOCK
from solitaire_rl.envs.pyramid.observation import OBSERVATION_SIZE

ACTION_FEATURES = (
    "king", "draw", "recycle", "pyramid_cards", "other_cards", "uncovered", "uses_waste",
    "uses_stock", "partners_short", "partners_freed", "greedy_score", "low_rank", "left_of_rank",
    "left_of_partner_rank", "deepest_row", "highest_row", "greedy_choice",
)
"""Per-action features, each in [0, 1]: what the move removes and uncovers, how many pyramid
cards it leaves without a possible partner (greedy's matching, ``partners_short``), greedy's
score (squashed) and whether greedy would pick it, the lower rank removed and how many cards of
it and of its partner rank stay in play, and the rows of the pyramid cards removed."""
RELAXED_FEATURES = (*ACTION_FEATURES, "relaxed_lost")
"""``pyramid-actions-relaxed``'s features: :data:`ACTION_FEATURES` and whether the move leaves a
position the relaxation proves lost."""
SLOTS = 38
SLOT_WIDTH = 1 + len(ACTION_FEATURES)
PYRAMID_ACTIONS_SIZE = OBSERVATION_SIZE + SLOTS * SLOT_WIDTH
RELAXED_SLOT_WIDTH = 1 + len(RELAXED_FEATURES)
PYRAMID_ACTIONS_RELAXED_SIZE = OBSERVATION_SIZE + SLOTS * RELAXED_SLOT_WIDTH

_F = {name: i + 1 for i, name in enumerate(RELAXED_FEATURES)}


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


def relaxed_lost_after(view: PyramidView, action: int, lost_now: bool) -> bool:
    """Whether the position after ``action`` is proved lost whatever the stock's order.

    A draw or recycle leaves the pyramid and the cards left as they are: ``lost_now`` answers.
    """
    from solitaire_rl.agents.solver import pyramid_relaxed_lost

    move = ACTION_MOVES[action]
    if move.kind in (DRAW, RECYCLE):
        return lost_now
    places = move.places()
    removed = view.removed | sum(1 << p for p in places if p < NUM_PYRAMID)
    if removed == ALL_REMOVED:
        return False  # won
    left = list(view.left_of_rank)
    for p in places:
        left[view.ranks[p] if p < NUM_PYRAMID else view.top_ranks[p]] -= 1
    return pyramid_relaxed_lost(view.ranks, removed, _bag(view.ranks, removed, left))


def relaxed_lost_now(view: PyramidView) -> bool:
    """Whether the position itself is proved lost whatever the stock's order."""
    from solitaire_rl.agents.solver import pyramid_relaxed_lost

    bag = _bag(view.ranks, view.removed, list(view.left_of_rank))
    return pyramid_relaxed_lost(view.ranks, view.removed, bag)


def _bag(ranks: tuple[int, ...], removed: int, left: list[int]) -> list[int]:
    """Cards of each rank in the stock and waste: those left in play less those in the pyramid."""
    bag = list(left)
    for p in range(NUM_PYRAMID):
        if not (removed >> p) & 1:
            bag[ranks[p]] -= 1
    return bag


def pyramid_actions(observation: np.ndarray, mask: np.ndarray | None, relaxed: bool = False) -> np.ndarray:
    """The ``pyramid-actions`` vector of one Pyramid observation and its action mask
    (``relaxed``: the ``pyramid-actions-relaxed`` one)."""
    if mask is None:
        raise MalformedInputError("the pyramid-actions encoding needs the action mask")
    width = RELAXED_SLOT_WIDTH if relaxed else SLOT_WIDTH
    out = np.zeros(OBSERVATION_SIZE + SLOTS * width, np.float32)
    out[:OBSERVATION_SIZE] = observation
    legal = np.flatnonzero(mask)
    if legal.size == 0:
        return out
    if legal.size > SLOTS:  # cannot happen (see the module docstring); never drop a legal move silently
        raise MalformedInputError(f"{legal.size} legal actions do not fit {SLOTS} slots")
    view = PyramidView.decode(observation)
    slots = out[OBSERVATION_SIZE:].reshape(SLOTS, width)
    scores = [action_slot(view, int(action), slots[i]) for i, action in enumerate(legal)]
    slots[best_index(scores), _F["greedy_choice"]] = 1.0
    if relaxed:
        lost_now = relaxed_lost_now(view)
        for i, action in enumerate(legal):
            slots[i, _F["relaxed_lost"]] = float(relaxed_lost_after(view, int(action), lost_now))
    return out


__all__ = [
    "ACTION_FEATURES", "PYRAMID_ACTIONS_RELAXED_SIZE", "PYRAMID_ACTIONS_SIZE", "RELAXED_FEATURES",
    "RELAXED_SLOT_WIDTH", "SLOTS", "SLOT_WIDTH", "action_slot", "pyramid_actions", "relaxed_lost_after",
    "relaxed_lost_now",
]
