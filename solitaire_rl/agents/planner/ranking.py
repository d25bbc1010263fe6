"""The order of ``hop``'s candidate moves: the parts of its tie-break key, named.

The player (:class:`solitaire_rl.agents.planner.hop.HopPlayer`) gathers what it knows of each candidate in a
:class:`Candidate`; :func:`rank_key` orders them, and the greatest key is played. Keys are
compared only within one decision, where all have the same type.
"""

from __future__ import annotations

from typing import NamedTuple

LOOP_VISITS = 4
"""A position met this often means play goes round in circles (``looping``): a hint then says so."""


class Candidate(NamedTuple):
    """What the player knows of one candidate move."""

    action: int
    near: bool
    """Its value is within about one standard error of the best
    (:func:`~solitaire_rl.agents.planner.sampling.tie_margin`)."""
    value: float
    """Its share of samples won (rounded, so that float noise breaks no tie)."""
    votes: int
    """Samples whose winning line starts with it."""
    samples: int
    seen_before: int
    """Times the player has met the position it leads to (0 when it shows a card)."""
    progress: bool
    """It makes progress (:meth:`solitaire_rl.envs.klondike.KlondikeGame.is_progress`)."""
    prior: float
    """The tie-break player's preference (greedy's score or a network's probability)."""
    planned: bool = False
    """It is the next move of the line being followed."""
    tree_near: bool = True
    """It is among the tree search's most visited moves (always, without the tree search)."""


class RankKey(NamedTuple):
    """The usual order."""

    near: bool
    planned: bool
    tree_near: bool
    majority: bool
    """Most samples' winning lines start with it."""
    fewer_visits: int
    """Minus the times its position was met."""
    progress_on_return: bool
    """It makes progress and the current position has been met before."""
    votes: int
    prior: float
    value: float
    lower_action: int
    """Minus the action index: the lowest index wins what is left of a tie."""


class PriorFirstRankKey(NamedTuple):
    """``guide_rank="early"``: the prior decides among the near moves before the votes."""

    near: bool
    planned: bool
    tree_near: bool
    fewer_visits: int
    prior: float
    votes: int
    value: float
    lower_action: int


class LoopRankKey(NamedTuple):
    """The current position met :data:`LOOP_VISITS` ``- 1`` times or more: progress first."""

    progress: bool
    near: bool
    planned: bool
    fewer_visits: int
    votes: int
    prior: float
    value: float
    lower_action: int


AnyRankKey = RankKey | PriorFirstRankKey | LoopRankKey


def rank_key(candidate: Candidate, here: int, prior_early: bool = False) -> AnyRankKey:
    """The key of ``candidate`` when the current position has been met ``here`` times."""
    c = candidate
    if here >= LOOP_VISITS - 1:
        return LoopRankKey(c.progress, c.near, c.planned, -c.seen_before, c.votes, c.prior, c.value,
                           -c.action)
    if prior_early:
        return PriorFirstRankKey(c.near, c.planned, c.tree_near, -c.seen_before, c.prior, c.votes, c.value,
                                 -c.action)
    return RankKey(c.near, c.planned, c.tree_near, c.votes * 2 > c.samples, -c.seen_before,
                   c.progress and here > 1, c.votes, c.prior, c.value, -c.action)


__all__ = ["LOOP_VISITS", "AnyRankKey", "Candidate", "LoopRankKey", "PriorFirstRankKey", "RankKey",
           "rank_key"]
