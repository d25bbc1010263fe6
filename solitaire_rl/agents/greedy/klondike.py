"""Greedy Klondike draw-3 play from the seed's tips (seed 002), reading only the observation.

Everything is decoded from the environment's observation (:mod:`solitaire_rl.envs.klondike.observer`): face-up
column cards, face-down counts, the waste, the foundations and the recycle count; never a
face-down or unseen card. Each legal action gets a score; the highest wins, ties going to the
lowest action index:

* **Turn face-down cards first** (seed: "of two moves worth about the same, take the one that turns
  up a face-down card; the long columns on the right count most"): a move that turns one up
  scores 50, plus 5 per face-down card in its column.
* **Do not rush low cards up** (seed: "Aces and 2s can always go up, but a 5 or a 6 may still be
  needed on the table for a 4"): a card goes to its foundation at once (score 40) only when it is
  an Ace or a 2, or when both foundations of the other colour already hold the rank below it (then
  no card left can need it as a place). Otherwise it scores 0.5: played only when stuck (below).
* **Play the waste**: a waste card onto a column scores 10.
* **Choose the King for an empty column**: emptying a column with no face-down card scores 3 when a
  King is waiting for it (on the waste, or leading a run that lies on face-down cards), else -1;
  the turn-up bonus then prefers the King whose column has the most face-down cards.
* Other run moves between columns, and cards back from a foundation, score -1 and -2: never
  played (they only shuffle the table).
* **Think before drawing** (seed): drawing or recycling scores 1, played only when nothing above
  scores more.
* **A recycle is a resource, not an end** (seed: "if a whole pass changes nothing, ten more will
  not either"): after a whole pass through the stock with nothing but draws, the player is
  *stuck* and an early foundation move scores 20, until some other move is played.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from solitaire_rl.agents.base import Choice, legal_actions
from solitaire_rl.envs.klondike.actions import ACTION_MOVES, STOCK_ACTION
from solitaire_rl.envs.klondike.layout import MAX_COLUMN, NUM_COLUMNS
from solitaire_rl.envs.klondike.moves import (
    COLUMN_COLUMN,
    COLUMN_FOUNDATION,
    FOUNDATION_COLUMN,
    WASTE_COLUMN,
    WASTE_FOUNDATION,
)
from solitaire_rl.envs.klondike.observer import EMPTY, FACE_DOWN, VIEWS

TURN_UP_SCORE = 50.0
PER_FACE_DOWN_SCORE = 5.0
SAFE_FOUNDATION_SCORE = 40.0
EARLY_FOUNDATION_SCORE = 0.5
STUCK_FOUNDATION_SCORE = 20.0
WASTE_TO_COLUMN_SCORE = 10.0
EMPTY_FOR_KING_SCORE = 3.0
SHUFFLE_SCORE = -1.0
FROM_FOUNDATION_SCORE = -2.0
STOCK_SCORE = 1.0

_RED = (False, True, True, False)  # clubs, diamonds, hearts, spades


class KlondikeView:
    """What a player sees, decoded from one observation."""

    def __init__(self, observation: np.ndarray) -> None:
        values = np.asarray(observation).tolist()  # plain ints: faster to walk than numpy scalars
        columns = values[VIEWS["columns"]]
        self.face_down: list[int] = []
        self.face_up: list[list[int]] = []
        for c in range(0, NUM_COLUMNS * MAX_COLUMN, MAX_COLUMN):
            col = columns[c:c + MAX_COLUMN]  # face down, face up, then EMPTY to the end
            down = col.count(FACE_DOWN)
            self.face_down.append(down)
            self.face_up.append(col[down:MAX_COLUMN - col.count(EMPTY)])
        waste, stock = values[VIEWS["waste"]], values[VIEWS["stock"]]  # each EMPTY after its cards
        self.waste = waste[:len(waste) - waste.count(EMPTY)]
        """The waste from its top."""
        self.stock = stock[:len(stock) - stock.count(EMPTY)]
        """The stock in draw order: a card if seen, else ``UNSEEN``."""
        self.waste_top = self.waste[0] if self.waste else None
        self.foundations = values[VIEWS["foundations"]]
        self.best = values[VIEWS["best"]]
        """Each foundation's record: the most cards it has held."""
        self.recycles = values[VIEWS["recycles"]][0]

    def safe_to_foundation(self, card: int) -> bool:
        """Whether ``card`` can go up without any table card ever needing it as a place."""
        rank, suit = (card >> 2) + 1, card & 3
        if rank <= 2:
            return True
        others = [self.foundations[s] for s in range(4) if _RED[s] != _RED[suit]]
        return min(others) >= rank - 1

    def king_waiting(self) -> bool:
        """A King on the waste, or leading a face-up run that lies on face-down cards."""
        if self.waste_top is not None and self.waste_top >> 2 == 12:
            return True
        pairs = zip(self.face_up, self.face_down, strict=True)
        return any(up and up[0] >> 2 == 12 and down for up, down in pairs)


class MoveTerms(NamedTuple):
    """What a legal action does, in the terms greedy weighs (the ``klondike-actions`` rows read them too)."""

    card: int | None
    """The card the move takes: the one going up, or the first of the run; ``None`` for the stock."""
    count: int  # type: ignore[assignment]  # a field named as tuple.count
    """Cards taken from a column (0 for a move from the waste or a foundation, or the stock)."""
    source_face_down: int
    """Face-down cards in that column (0 for other moves)."""
    turns_up: bool
    """It takes every face-up card of a column that still has face-down cards."""
    empties_column: bool
    """It takes every card of a column."""


_NO_COLUMN = (0, 0, False, False)


def move_terms(view: KlondikeView, action: int) -> MoveTerms:
    """The terms of one legal action in the position ``view``."""
    if action == STOCK_ACTION:
        return MoveTerms(None, *_NO_COLUMN)
    move = ACTION_MOVES[action]
    kind = move.kind
    if kind in (WASTE_FOUNDATION, WASTE_COLUMN):
        return MoveTerms(view.waste_top, *_NO_COLUMN)
    if kind == FOUNDATION_COLUMN:
        return MoveTerms((view.foundations[move.src] - 1) * 4 + move.src, *_NO_COLUMN)
    up, down = view.face_up[move.src], view.face_down[move.src]
    count = 1 if kind == COLUMN_FOUNDATION else move.count
    whole = count == len(up)
    return MoveTerms(up[-count], count, down, whole and down > 0, whole and down == 0)


def score_klondike_action(view: KlondikeView, action: int, stuck: bool) -> tuple[float, str]:
    """The greedy score of a legal action and a few words on why."""
    return terms_score(view, action, move_terms(view, action), stuck)


def terms_score(view: KlondikeView, action: int, terms: MoveTerms, stuck: bool) -> tuple[float, str]:
    """The greedy score of a legal action from its :func:`move_terms`, and a few words on why."""
    if action == STOCK_ACTION:
        return STOCK_SCORE, "nothing better on the table: tap the stock"
    move = ACTION_MOVES[action]
    kind = move.kind
    if terms.turns_up:
        score = TURN_UP_SCORE + PER_FACE_DOWN_SCORE * terms.source_face_down
        return score, f"turns up a face-down card in column {move.src + 1}"
    if kind in (WASTE_FOUNDATION, COLUMN_FOUNDATION):
        assert terms.card is not None
        if view.safe_to_foundation(terms.card):
            return SAFE_FOUNDATION_SCORE, "up to the foundation: no card needs it any more"
        if stuck:
            return STUCK_FOUNDATION_SCORE, "a whole pass changed nothing: send it up"
        return EARLY_FOUNDATION_SCORE, "too early to send up (a lower card may need it)"
    if kind == WASTE_COLUMN:
        return WASTE_TO_COLUMN_SCORE, "plays the waste card"
    if kind == COLUMN_COLUMN:
        if terms.empties_column and view.king_waiting():
            return EMPTY_FOR_KING_SCORE, "empties a column for a King"
        return SHUFFLE_SCORE, "only moves cards around"
    assert kind == FOUNDATION_COLUMN
    return FROM_FOUNDATION_SCORE, "takes a card back from a foundation"


class KlondikeGreedy:
    """The heuristic with its one piece of memory: whether the last whole pass only drew."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self._recycles = 0
        self._played_since_recycle = True
        self.stuck = False

    def look(self, view: KlondikeView) -> None:
        """Take in the position about to be played (a pass through the stock may just have ended)."""
        if view.recycles != self._recycles:
            self.stuck = self.stuck or not self._played_since_recycle
            self._recycles, self._played_since_recycle = view.recycles, False

    def played(self, action: int) -> None:
        """Note the action chosen in the position last looked at."""
        if action != STOCK_ACTION:
            self._played_since_recycle, self.stuck = True, False

    def choose(self, observation: np.ndarray, mask: np.ndarray) -> Choice:
        view = KlondikeView(observation)
        self.look(view)
        best: tuple[float, int, str] | None = None
        for action in legal_actions(mask):
            score, reason = score_klondike_action(view, int(action), self.stuck)
            if best is None or score > best[0]:
                best = (score, int(action), reason)
        assert best is not None
        self.played(best[1])
        return Choice(best[1], best[2])


__all__ = ["KlondikeGreedy", "KlondikeView", "MoveTerms", "move_terms", "score_klondike_action",
           "terms_score"]
