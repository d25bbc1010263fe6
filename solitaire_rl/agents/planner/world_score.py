"""World scores: a dense value target for Klondike positions as a player knows them (issue 53).

The world score of a position is the share of K sampled worlds (the unknown cards dealt at random
over their places) in which the exact solver, capped at ``cap`` states, finds a win: what the
``world-bandit`` bot (:mod:`solitaire_rl.agents.planner.commitment`) scores its commitments by.
:func:`world_scores` computes it for a batch of observations in one native call
(:func:`solitaire_native.klondike_world_scores`, native/src/klondike/world_score.hpp), threads over
positions and worlds, the GIL released.

Each position's worlds are seeded from ``seed`` and what the player sees there, so a label
depends only on the options and the observation: not on the batch, the thread count, or where
the hidden cards really are. Only the observation is read (:mod:`solitaire_rl.agents.planner.knowledge`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from solitaire_rl.agents.planner.knowledge import klondike_knowledge
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike.observer import OBS_NVEC, OBS_SIZE

DEFAULT_WORLDS = 200
"""K: worlds sampled at each position."""
DEFAULT_CAP = 600
"""States each world's search may enter (the shipped ``world-bandit``'s cap)."""


@dataclass(frozen=True)
class WorldScores:
    """Per position, in the batch's order: what its K worlds' capped searches came to."""

    won: np.ndarray
    """Worlds where a win was found within the cap (``int32``)."""
    lost: np.ndarray
    """Worlds proved lost (``int32``)."""
    cut: np.ndarray
    """Worlds whose search hit the cap (``int32``); ``won + lost + cut == worlds``."""
    states: np.ndarray
    """States the position's searches entered (``int64``)."""
    worlds: int
    """K."""
    cap: int
    searches: int
    """Capped searches run over the batch (one for a position with at most one unknown card)."""
    seconds: float
    """Wall-clock time of the native call."""

    def __len__(self) -> int:
        return int(self.won.shape[0])

    @property
    def share(self) -> np.ndarray:
        """The world score: the share of worlds won (``float64``, 0..1)."""
        return self.won / self.worlds


def _checked_observations(observations: np.ndarray | Sequence[np.ndarray]) -> np.ndarray:
    batch = np.asarray(observations)
    if batch.size == 0:
        return np.zeros((0, OBS_SIZE), np.uint8)
    if batch.ndim != 2 or batch.shape[1] != OBS_SIZE:
        raise MalformedInputError(f"observations must be a batch of shape (N, {OBS_SIZE}), not {batch.shape}")
    if not np.issubdtype(batch.dtype, np.integer) or (batch < 0).any() or (batch >= OBS_NVEC).any():
        raise MalformedInputError("observations must hold the Klondike observer's integers, "
                                  "each within its range")
    return batch


def world_scores(observations: np.ndarray | Sequence[np.ndarray], draw_count: int = 3, *,
                 worlds: int = DEFAULT_WORLDS, cap: int = DEFAULT_CAP, seed: int = 0, threads: int = 1,
                 surely_won_stops: bool = True) -> WorldScores:
    """The world scores of the Klondike positions that ``observations`` show (one row each).

    ``surely_won_stops``: a world's search stops as won once nothing is face down and the talon
    holds at most one card (as ``world-bandit`` searches). Bad options or observations raise
    :class:`~solitaire_rl.envs.errors.MalformedInputError` before anything is searched.
    """
    from solitaire_rl.agents.solver import _native

    if draw_count not in (1, 3):
        raise MalformedInputError(f"draw_count must be 1 or 3, not {draw_count!r}")
    for name, value in (("worlds", worlds), ("cap", cap), ("seed", seed), ("threads", threads)):
        if isinstance(value, bool) or not isinstance(value, int | np.integer):
            raise MalformedInputError(f"{name} must be an integer, not {value!r}")
    if not isinstance(surely_won_stops, bool | np.bool_):
        raise MalformedInputError(f"surely_won_stops must be True or False, not {surely_won_stops!r}")
    if not 0 <= seed < 2**64:
        raise MalformedInputError(f"seed must be from 0 to 2**64 - 1, not {seed}")
    if cap < 1:
        raise MalformedInputError(f"world scores: cap must be at least 1, not {cap}")
    try:  # the native options check every range (ValueError naming the option)
        options = _native.KlondikeWorldScoreOptions(draw_count=draw_count, seed=int(seed), worlds=int(worlds),
                                                    cap=int(cap), surely_won_stops=bool(surely_won_stops),
                                                    threads=int(threads))
    except (TypeError, ValueError) as exc:
        raise MalformedInputError(str(exc)) from None
    batch = _checked_observations(observations)
    positions, unknown = [], []
    for row, observation in enumerate(batch):
        try:
            knowledge = klondike_knowledge(observation, draw_count)
        except ValueError as exc:
            raise MalformedInputError(f"observation {row} shows no Klondike position: {exc}") from None
        positions.append(knowledge.position.to_native())
        unknown.append(list(knowledge.unknown))
    try:
        native = _native.klondike_world_scores(positions, unknown, options)
    except ValueError as exc:
        raise MalformedInputError(str(exc)) from None
    return WorldScores(
        won=np.asarray(native.won, np.int32), lost=np.asarray(native.lost, np.int32),
        cut=np.asarray(native.cut, np.int32), states=np.asarray(native.states, np.int64),
        worlds=int(worlds), cap=int(cap), searches=int(native.searches), seconds=float(native.seconds),
    )


__all__ = ["DEFAULT_CAP", "DEFAULT_WORLDS", "WorldScores", "world_scores"]
