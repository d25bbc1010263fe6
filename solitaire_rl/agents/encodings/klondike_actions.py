"""The ``klondike-actions`` encoding: ``klondike-compact`` plus a feature row for each legal action.

The Klondike counterpart of :mod:`solitaire_rl.agents.encodings.pyramid_actions`: each legal action is one
*slot*, its
action index and what the move does in the terms the greedy heuristic weighs
(:func:`solitaire_rl.agents.greedy.klondike.move_terms`), so that one shared network
(:mod:`solitaire_rl.agents.action_scoring_policy`) learns one rule for all 590 actions.

Layout (:data:`KLONDIKE_ACTIONS_SIZE` floats in [0, 1]): the 709 ``klondike-compact`` values, then
:data:`SLOTS` slots of :data:`SLOT_WIDTH` values, the legal actions in index order, unused slots
all zero. A slot: ``(action + 1) / 590``, then :data:`ACTION_FEATURES`.

:data:`SLOTS` = 33 is enough for every position. A non-empty column takes only the two cards one
rank lower of the other colour, an empty one only the four Kings, and each card lies in one
place (waste top, a column, a foundation top), so at most 7 x 4 = 28 moves go to columns; a
foundation takes only the next card of its suit, so at most 4 moves go up; and one taps the
stock.

Everything is read from the observation and the mask (what the player knows), like ``greedy``;
greedy's one piece of memory (a whole pass with nothing but draws) is not in the observation, so
``greedy_score`` and ``greedy_choice`` are greedy's as if that pass had not happened.
"""

from __future__ import annotations

import math

import numpy as np

from solitaire_rl.agents.encodings.klondike_compact import KLONDIKE_COMPACT_SIZE, compact_vector
from solitaire_rl.agents.greedy.klondike import KlondikeView, move_terms, terms_score
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike.actions import ACTION_MOVES, NUM_ACTIONS, STOCK_ACTION
from solitaire_rl.envs.klondike.moves import (
    COLUMN_COLUMN,
    COLUMN_FOUNDATION,
    FOUNDATION_COLUMN,
    WASTE_COLUMN,
    WASTE_FOUNDATION,
    Move,
)
from solitaire_rl.envs.klondike.observer import UNSEEN
from solitaire_rl.envs.klondike.rules import PARENTS

ACTION_FEATURES = (
    "draw", "recycle", "waste_to_foundation", "waste_to_column", "column_to_foundation",
    "column_to_column", "foundation_to_column", "turns_up", "source_face_down", "empties_column",
    "to_empty_column", "target_face_down", "cards_moved", "rank", "safe_up", "next_card_known",
    "next_card_plays", "greedy_score", "greedy_choice", "source_column", "target_column",
)
"""Per-action features, each in [0, 1]: the move's kind; whether it turns up a face-down card and
how many lie in its source column; whether it empties a column or fills an empty one, and the
face-down cards under its target; how many cards it moves and the rank of the first; whether the
card going up is safe there (no table card can need it); the card it makes playable next (the
waste's next card, the face-up card left behind, or the card a draw turns up): whether it is
known and whether it can go anywhere; greedy's score (squashed) and choice; the columns."""
SLOTS = 33
SLOT_WIDTH = 1 + len(ACTION_FEATURES)
_F = {name: i + 1 for i, name in enumerate(ACTION_FEATURES)}
_KINDS = {WASTE_FOUNDATION: "waste_to_foundation", WASTE_COLUMN: "waste_to_column",
          COLUMN_FOUNDATION: "column_to_foundation", COLUMN_COLUMN: "column_to_column",
          FOUNDATION_COLUMN: "foundation_to_column"}


KLONDIKE_ACTIONS_SIZE = KLONDIKE_COMPACT_SIZE + SLOTS * SLOT_WIDTH


def _squash(score: float) -> float:
    return 0.5 + 0.5 * math.tanh(score / 30.0)


class _Table:
    """The view plus what the features ask of it: each column's end card and the empty columns."""

    def __init__(self, observation: np.ndarray) -> None:
        self.view = view = KlondikeView(observation)
        self.ends = {up[-1]: c for c, up in enumerate(view.face_up) if up}
        self.empty = {c for c, up in enumerate(view.face_up) if not up and not view.face_down[c]}

    def plays_after(self, card: int, move: Move | None, moved: int = -1, own: int = -1) -> bool:
        """Whether ``card``, which ``move`` (taking ``moved`` first) leaves on the waste top (``own``
        = -1) or at the end of column ``own``, can then go to its foundation, onto another column's
        end card, or (a King) into an empty column. ``move`` None: a draw, which leaves the table
        as it is."""
        foundations, ends, empty = list(self.view.foundations), dict(self.ends), set(self.empty)
        if move is not None:
            kind = move.kind
            if kind in (WASTE_FOUNDATION, COLUMN_FOUNDATION):
                foundations[moved & 3] += 1
            else:  # onto a column: the run's last card becomes that column's end
                ends = {c: col for c, col in ends.items() if col != move.dst}
                last = self.view.waste[0] if kind == WASTE_COLUMN else self.view.face_up[move.src][-1]
                ends[last] = move.dst
                empty.discard(move.dst)
            if own >= 0:
                ends = {c: col for c, col in ends.items() if col != own}
                ends[card] = own
        if foundations[card & 3] == card >> 2:
            return True
        if card >> 2 == 12:
            return bool(empty - {own})
        return any(ends.get(p, own) != own for p in PARENTS[card])


def action_slot(table: _Table, action: int, slot: list[float]) -> float:
    """Write the slot of one legal action into ``slot`` (zeros); return greedy's score of it."""
    view = table.view
    slot[0] = (action + 1) / NUM_ACTIONS
    terms = move_terms(view, action)
    score, _ = terms_score(view, action, terms, stuck=False)
    slot[_F["greedy_score"]] = _squash(score)
    if action == STOCK_ACTION:
        if not view.stock:
            slot[_F["recycle"]] = 1.0
            return score
        slot[_F["draw"]] = 1.0
        nxt = view.stock[min(2, len(view.stock) - 1)]  # the last of the (up to) three drawn
        if nxt != UNSEEN:
            slot[_F["next_card_known"]] = 1.0
            slot[_F["next_card_plays"]] = float(table.plays_after(nxt, None))
        return score
    move = ACTION_MOVES[action]
    kind, card = move.kind, terms.card
    assert card is not None
    slot[_F[_KINDS[kind]]] = 1.0
    nxt, own = None, -1
    if kind in (WASTE_FOUNDATION, WASTE_COLUMN):
        nxt = view.waste[1] if len(view.waste) > 1 else None
    elif kind != FOUNDATION_COLUMN:
        slot[_F["cards_moved"]] = terms.count / 13
        slot[_F["source_face_down"]] = terms.source_face_down / 6
        slot[_F["source_column"]] = (move.src + 1) / 7
        slot[_F["turns_up"]] = float(terms.turns_up)
        slot[_F["empties_column"]] = float(terms.empties_column)
        if not (terms.turns_up or terms.empties_column):
            nxt, own = view.face_up[move.src][-terms.count - 1], move.src
    if kind in (WASTE_FOUNDATION, COLUMN_FOUNDATION):
        slot[_F["safe_up"]] = float(view.safe_to_foundation(card))
    else:
        slot[_F["target_column"]] = (move.dst + 1) / 7
        slot[_F["target_face_down"]] = view.face_down[move.dst] / 6
        slot[_F["to_empty_column"]] = float(move.dst in table.empty)
    slot[_F["rank"]] = ((card >> 2) + 1) / 13
    if nxt is not None:
        slot[_F["next_card_known"]] = 1.0
        slot[_F["next_card_plays"]] = float(table.plays_after(nxt, move, card, own))
    return score


def klondike_actions(observation: np.ndarray, mask: np.ndarray | None) -> np.ndarray:
    """The ``klondike-actions`` vector of one Klondike observation and its action mask."""
    if mask is None:
        raise MalformedInputError("the klondike-actions encoding needs the action mask")
    flat = KLONDIKE_COMPACT_SIZE
    legal = np.flatnonzero(mask)
    if legal.size > SLOTS:  # cannot happen (see the module docstring); never drop a legal move silently
        raise MalformedInputError(f"{legal.size} legal actions do not fit {SLOTS} slots")
    table = _Table(observation)
    out = np.zeros(KLONDIKE_ACTIONS_SIZE, np.float32)
    out[:flat] = compact_vector(table.view)
    if legal.size == 0:
        return out
    rows = [[0.0] * SLOT_WIDTH for _ in range(legal.size)]  # filled as lists, copied in at once
    scores = [action_slot(table, action, row) for action, row in zip(legal.tolist(), rows, strict=True)]
    rows[scores.index(max(scores))][_F["greedy_choice"]] = 1.0  # ties to the lowest index, as greedy
    out[flat:flat + legal.size * SLOT_WIDTH] = np.ravel(rows)
    return out


__all__ = ["ACTION_FEATURES", "KLONDIKE_ACTIONS_SIZE", "SLOTS", "SLOT_WIDTH", "action_slot",
           "klondike_actions"]
