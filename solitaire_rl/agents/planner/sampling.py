"""The native sample-and-solve loops of the Klondike planners, as values per candidate move.

:func:`hop_values` is hindsight optimisation (:func:`solitaire_native.klondike_hop`: samples of
the unknown cards, each solved after every move; one call a decision, the GIL released, samples
spread over threads); :func:`tree_values` the information-set tree search
(:func:`solitaire_native.klondike_ismcts`). Both read only what the player knows
(:class:`solitaire_rl.agents.planner.knowledge.KlondikeKnowledge`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from solitaire_rl.agents.planner.knowledge import KlondikeKnowledge
from solitaire_rl.envs.klondike import KlondikeGame
from solitaire_rl.envs.klondike.actions import move_of
from solitaire_rl.envs.klondike.moves import Move

DEFAULT_STATES_PER_SOLVE = 2_000
"""States one solve of one sample may enter; past it that sample counts half for the move."""
DEFAULT_DECISION_STATES = 200_000
"""States one decision may spend over all its samples (the benchmark's budget)."""
DEFAULT_MAX_SAMPLES = 32


@dataclass(frozen=True)
class MoveValues:
    """What the samples said of each candidate action."""

    actions: np.ndarray
    won: np.ndarray
    lost: np.ndarray
    unknown: np.ndarray
    first: np.ndarray
    """Samples whose winning line (from the position before the move) starts with the move."""
    samples: int
    states: int
    seconds: float
    stop_reason: str | None
    lines: tuple[tuple[Move, ...], ...] = ()
    """Each kept sample's winning line from the position (empty where its solve did not win)."""

    @property
    def values(self) -> np.ndarray:
        """Share of samples won, an unfinished search counting half (zeros when no sample ran)."""
        return (self.won + 0.5 * self.unknown) / max(self.samples, 1)


@dataclass(frozen=True)
class TreeValues:
    """What the information-set tree search said of each candidate action."""

    actions: np.ndarray
    visits: np.ndarray
    value_sum: np.ndarray
    iterations: int
    states: int
    seconds: float

    @property
    def values(self) -> np.ndarray:
        return self.value_sum / np.maximum(self.visits, 1)


def native_candidates(game: KlondikeGame, actions: np.ndarray) -> list[tuple[int, int, int, int, int]]:
    """``actions`` as the native loops' atomic actions (the moved card left to the sample)."""
    from solitaire_rl.agents.solver.klondike import native_actions

    return native_actions([move_of(game, int(a)) for a in actions])


def hop_values(knowledge: KlondikeKnowledge, actions: np.ndarray, *, seed: int = 0,
               states_per_solve: int = DEFAULT_STATES_PER_SOLVE, max_samples: int = DEFAULT_MAX_SAMPLES,
               max_states: int | None = DEFAULT_DECISION_STATES, time_limit: float | None = None,
               threads: int = 1, cancel: Any = None) -> MoveValues:
    """Sample-and-solve values of ``actions`` (legal action indices) in the known position."""
    from solitaire_rl.agents.solver import _native
    from solitaire_rl.agents.solver.klondike import native_move

    game = knowledge.game
    candidates = native_candidates(game, actions)
    options = _native.KlondikeHopOptions(
        draw_count=game.draw_count, seed=seed % 2**64, states_per_solve=states_per_solve,
        max_samples=max_samples, max_states=max_states or 0, time_limit_s=time_limit or 0.0,
        threads=threads,
    )
    position = knowledge.position.to_native()
    result = _native.klondike_hop(position, list(knowledge.unknown), candidates, options, cancel)
    tally = result.tally
    reason = None if tally.stop_reason == _native.StopReason.none else tally.stop_reason.name
    lines = tuple(tuple(native_move(a) for a in line) for line in result.lines)
    return MoveValues(np.asarray(actions), np.asarray(tally.won, float), np.asarray(tally.lost, float),
                      np.asarray(tally.unknown, float), np.asarray(tally.first, float), tally.samples,
                      tally.states, tally.seconds, reason, lines)


def tree_values(knowledge: KlondikeKnowledge, actions: np.ndarray, *, seed: int = 0,
                states_per_solve: int = DEFAULT_STATES_PER_SOLVE, iterations: int = 400,
                max_states: int | None = None, time_limit: float | None = None, exploration: float = 0.5,
                max_depth: int = 8, cancel: Any = None) -> TreeValues:
    """Information-set tree search values of ``actions`` (:func:`solitaire_native.klondike_ismcts`)."""
    from solitaire_rl.agents.solver import _native

    game = knowledge.game
    candidates = native_candidates(game, actions)
    options = _native.KlondikeIsmctsOptions(
        draw_count=game.draw_count, seed=seed % 2**64, states_per_solve=states_per_solve,
        max_iterations=iterations, max_states=max_states or 0, time_limit_s=time_limit or 0.0,
        exploration=exploration, max_depth=max_depth,
    )
    position = knowledge.position.to_native()
    result = _native.klondike_ismcts(position, list(knowledge.unknown), candidates, options, cancel)
    return TreeValues(np.asarray(actions), np.asarray(result.visits, float), np.asarray(result.value_sum),
                      result.iterations, result.states, result.seconds)


def tie_margin(samples: int) -> float:
    """Values this close to the best are ties: about one standard error of a share over ``samples``."""
    return 0.5 / max(samples, 1) ** 0.5


__all__ = ["DEFAULT_DECISION_STATES", "DEFAULT_MAX_SAMPLES", "DEFAULT_STATES_PER_SOLVE", "MoveValues",
           "TreeValues", "hop_values", "native_candidates", "tie_margin", "tree_values"]
