"""Greedy Pyramid play from the seeds' tips (seed 000), reading only the observation.

Everything is decoded from the environment's observation vector
(:mod:`solitaire_rl.envs.pyramid.observation`),
which holds only what a person at the table knows: the face-up pyramid, the stock top in variant
000, the waste top, and the stock cards seen so far. Removed cards are public, so the number of
cards of each rank still in play is known too. Each legal action gets a score; the highest wins,
ties going to the lowest action index:

* **Kings at once** (seed: "do not hoard Kings"): removing a King scores above everything else.
* **Pyramid cards first**: each pyramid card a pair removes scores 10; a stock or waste card alone
  scores 1.
* **Pairs that uncover two cards first** (seed: "prefer the pair that opens two cards of the next
  row at once"): each pyramid card the move makes available scores 4 more.
* **Keep scarce partners** (seed: "do not waste partner cards"): a pyramid card of rank ``r`` goes
  only with a card of rank ``13 - r`` that does not lie on it, in the pyramid or from the stock
  and waste (whose count of each rank is known: the 4 of a rank less those removed and those in
  the pyramid). A move after which some pyramid card can no longer get a partner
  (:func:`partners_short`, a matching per pair of ranks) makes the pyramid impossible to clear:
  it scores -50 per card left short, so it is played only when nothing else is legal.
* **Use the waste top before it is buried**: a pair with the waste top scores 1 more than the same
  pair with the stock top, which the next draw only moves to the waste.
* **Draw when the table has nothing better** (score 0); **recycle** (score -1) only when the stock
  is empty and no pair is worth playing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from solitaire_rl.agents.base import Choice, legal_actions
from solitaire_rl.envs.pyramid.actions import ACTION_MOVES
from solitaire_rl.envs.pyramid.layout import BELOW_MASK, COVER_MASK, NUM_PYRAMID
from solitaire_rl.envs.pyramid.moves import DRAW, RECYCLE, STOCK, WASTE
from solitaire_rl.envs.pyramid.observation import PYRAMID_FEATURES, STOCK_FEATURES, split_observation

KING = 13
KING_SCORE = 100.0
PYRAMID_CARD_SCORE = 10.0
OTHER_CARD_SCORE = 1.0
UNCOVER_SCORE = 4.0
WASTE_SCORE = 1.0
SHORT_PARTNER_SCORE = -50.0
DRAW_SCORE = 0.0
RECYCLE_SCORE = -1.0

_P = {name: i for i, name in enumerate(PYRAMID_FEATURES)}
_S = {name: i for i, name in enumerate(STOCK_FEATURES)}
_PLACE_BITS = np.array([1 << p for p in range(NUM_PYRAMID)], dtype=np.int64)


@dataclass(frozen=True)
class PyramidView:
    """What a player knows, decoded from one observation."""

    ranks: tuple[int, ...]
    """Rank of each of the 28 pyramid positions (removed ones too)."""
    removed: int
    """Bitmask of removed pyramid positions."""
    top_ranks: dict[int, int]
    """Rank of the card at ``STOCK`` (if usable) and ``WASTE``, by place."""
    left_of_rank: tuple[int, ...]
    """Cards of each rank (index 1..13) not yet removed, wherever they are."""

    @classmethod
    def decode(cls, observation: np.ndarray) -> PyramidView:
        pyramid, stock, globals_ = split_observation(observation)
        rank_index = pyramid[:, :13].argmax(axis=1)
        ranks = tuple((rank_index + 1).tolist())
        gone = pyramid[:, _P["on_table"]] < 0.5
        removed = int(_PLACE_BITS[gone].sum())
        seen = stock[:, _S["seen"]] > 0.5
        seen_ranks = stock[:, :13].argmax(axis=1) + 1
        # Of each rank's 4 cards, take out the removed pyramid cards and the seen stock cards gone.
        left = 4 - np.bincount(rank_index[gone] + 1, minlength=14)
        left -= np.bincount(seen_ranks[seen & (stock[:, _S["gone"]] > 0.5)], minlength=14)
        left[0] = 0
        top_ranks: dict[int, int] = {}
        if globals_[6] > 0.5:
            tops = np.flatnonzero(seen & (stock[:, _S["stock_top"]] > 0.5))
            if tops.size:
                top_ranks[STOCK] = int(seen_ranks[tops[-1]])
        tops = np.flatnonzero(seen & (stock[:, _S["waste_top"]] > 0.5))
        if tops.size:
            top_ranks[WASTE] = int(seen_ranks[tops[-1]])
        return cls(ranks, removed, top_ranks, tuple(left.tolist()))

    def available(self, removed: int) -> set[int]:
        return {p for p in range(NUM_PYRAMID)
                if not (removed >> p) & 1 and (removed & COVER_MASK[p]) == COVER_MASK[p]}


def _max_matching(low: list[int], high: list[int]) -> int:
    """Most disjoint pairs of a ``low`` and a ``high`` position where neither lies on the other."""
    match: dict[int, int] = {}

    def augment(p: int, visited: set[int]) -> bool:
        for q in high:
            if q in visited or (BELOW_MASK[p] >> q) & 1 or (BELOW_MASK[q] >> p) & 1:
                continue
            visited.add(q)
            if q not in match or augment(match[q], visited):
                match[q] = p
                return True
        return False

    return sum(augment(p, set()) for p in low)


def partners_short(ranks: tuple[int, ...], removed: int, left: list[int] | tuple[int, ...]) -> int:
    """How many pyramid cards can get no partner, counting only what every player knows.

    For each pair of ranks ``r`` and ``13 - r``, pyramid cards pair with each other (never with a
    card lying on them) or with stock and waste cards, whose number of each rank is known: the
    cards of the rank not yet removed (``left``) less those in the pyramid. A card short of a
    partner makes the pyramid impossible to clear.
    """
    return sum(pair_short(ranks, removed, left, r) for r in range(1, 7))


def pair_short(ranks: tuple[int, ...], removed: int, left: list[int] | tuple[int, ...], r: int) -> int:
    """The cards of ranks ``r`` and ``13 - r`` (``r`` in 1..6) that :func:`partners_short` counts short.

    Only those ranks' cards and counts enter, so a move changes the count of the pairs of the
    ranks it removes and of no other.
    """
    low = [p for p in range(NUM_PYRAMID) if ranks[p] == r and not (removed >> p) & 1]
    high = [p for p in range(NUM_PYRAMID) if ranks[p] == 13 - r and not (removed >> p) & 1]
    if not low and not high:
        return 0
    pairs = _max_matching(low, high) if low and high else 0
    stock_low, stock_high = left[r] - len(low), left[13 - r] - len(high)
    return max(0, len(low) - pairs - stock_high) + max(0, len(high) - pairs - stock_low)


@dataclass(frozen=True)
class ActionTerms:
    """What a legal action does, in the terms the greedy score weighs (also the ``pyramid-actions``
    encoding's per-action features, :mod:`solitaire_rl.agents.encodings.pyramid_actions`)."""

    king: bool
    """Removes a King alone."""
    pyramid_cards: int
    """Pyramid cards removed (0..2)."""
    other_cards: int
    """Stock or waste tops removed (0..2)."""
    uncovered: int
    """Pyramid cards the move makes available."""
    uses_waste: bool
    short: int
    """Pyramid cards newly left without a possible partner (:func:`partners_short`); may be < 0."""
    ranks: tuple[int, ...]
    """Ranks of the removed cards."""
    left_after: tuple[int, ...]
    """Cards of each rank (index 1..13) left in play after the move."""


def action_terms(view: PyramidView, action: int) -> ActionTerms:
    """The :class:`ActionTerms` of a legal removal action (not draw or recycle)."""
    move = ACTION_MOVES[action]
    places = move.places()
    pyramid_places = [p for p in places if p < NUM_PYRAMID]
    ranks = tuple(view.ranks[p] if p < NUM_PYRAMID else view.top_ranks[p] for p in places)
    left_after = list(view.left_of_rank)
    for r in ranks:
        left_after[r] -= 1
    king = len(places) == 1 and ranks[0] == KING
    removed_after = view.removed | sum(1 << p for p in pyramid_places)
    short = 0
    if not king:  # a pair's ranks r and 13 - r: the one rank pair whose count it can change
        r = min(ranks[0], 13 - ranks[0])
        short = (pair_short(view.ranks, removed_after, left_after, r)
                 - pair_short(view.ranks, view.removed, view.left_of_rank, r))
    return ActionTerms(king, len(pyramid_places), len(places) - len(pyramid_places),
                       _uncovered(view, pyramid_places), WASTE in places, short, ranks, tuple(left_after))


def score_pyramid_action(view: PyramidView, action: int) -> tuple[float, str]:
    """The greedy score of a legal action and a few words on why."""
    move = ACTION_MOVES[action]
    if move.kind == DRAW:
        return DRAW_SCORE, "nothing better on the table: draw"
    if move.kind == RECYCLE:
        return RECYCLE_SCORE, "stock empty: recycle the waste"
    return terms_score(action_terms(view, action))


def terms_score(terms: ActionTerms) -> tuple[float, str]:
    """The greedy score of a removal from its :class:`ActionTerms`, and a few words on why."""
    if terms.king:
        return KING_SCORE + UNCOVER_SCORE * terms.uncovered, "remove the King at once"
    score = (PYRAMID_CARD_SCORE * terms.pyramid_cards + OTHER_CARD_SCORE * terms.other_cards
             + UNCOVER_SCORE * terms.uncovered + (WASTE_SCORE if terms.uses_waste else 0.0)
             + SHORT_PARTNER_SCORE * max(0, terms.short))
    if terms.short > 0:
        reason = "spends a scarce partner (last resort)"
    elif terms.uncovered >= 2:
        reason = f"uncovers {terms.uncovered} cards"
    elif terms.uncovered == 1:
        reason = "uncovers a card"
    elif terms.pyramid_cards:
        reason = "clears pyramid cards"
    else:
        reason = "clears the stock and waste tops"
    return score, reason


def _uncovered(view: PyramidView, pyramid_places: list[int]) -> int:
    """Pyramid cards that removing ``pyramid_places`` makes available."""
    if not pyramid_places:
        return 0
    before = view.available(view.removed)
    after = view.available(view.removed | sum(1 << p for p in pyramid_places))
    return len(after - before)


def best_index(scores: list[float]) -> int:
    """Index of the highest score, ties to the first (the lowest action index): greedy's pick."""
    return max(range(len(scores)), key=scores.__getitem__)


def choose_pyramid(observation: np.ndarray, mask: np.ndarray) -> Choice:
    """The greedy choice among the legal actions of ``mask``."""
    view = PyramidView.decode(observation)
    legal = legal_actions(mask)
    scored = [score_pyramid_action(view, int(action)) for action in legal]
    k = best_index([score for score, _ in scored])
    return Choice(int(legal[k]), scored[k][1])


__all__ = [
    "ActionTerms", "PyramidView", "action_terms", "best_index", "choose_pyramid", "score_pyramid_action",
    "terms_score",
]
