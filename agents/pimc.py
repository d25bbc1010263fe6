"""The ``pimc`` player for Pyramid: Monte-Carlo sampling of the unseen cards, each sample solved exactly.

Perfect-information Monte Carlo (as in Bjarnason, Fern and Tadepalli's Klondike planners): the
player knows the pyramid, the cards it has seen and where they lie; the unseen stock cards are
known only as a set (every card not seen). For each of ``samples`` deals consistent with what it
knows (the unseen cards shuffled over the unseen places, one shuffle per sample, the same for
every action), it asks the exact solver (:mod:`agents.solver`) whether each legal move leaves a
winnable position, and plays the move that wins in most samples; ties go to the greedy
heuristic's preference. A search that runs out of its small budget counts half.

It never reads an unseen card's identity from the game: the shuffle replaces all of them. Its
choices are a training signal for the ``ppo`` policy (:mod:`training.imitation`) and a benchmark
agent; they cost about ``samples x legal moves`` small searches per move.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from agents.base import Choice, Player, legal_actions
from agents.greedy.pyramid import PyramidView, score_pyramid_action
from agents.variants import Variant
from envs.errors import MalformedInputError
from envs.pyramid.actions import ACTION_MOVES
from envs.pyramid.game import PyramidGame

DEFAULT_SAMPLES = 12
DEFAULT_MAX_STATES = 20_000
"""States one search may enter; past it the sample counts half for that move."""


def unseen_places(game: PyramidGame) -> list[int]:
    """Indices into ``game.stock_order()`` of the cards never face up."""
    return [i for i, card in enumerate(game.stock_order()) if not (game.seen >> card) & 1]


def determinized(game: PyramidGame, order: list[int]) -> PyramidGame:
    """A copy of ``game`` whose stock and waste, in draw order, are ``order``."""
    other = game.copy()
    waste_count = len(game.waste)
    other.waste = list(order[:waste_count])
    other.stock = list(reversed(order[waste_count:]))
    return other


def afterstate_values(game: PyramidGame, actions: np.ndarray, limits: Any) -> np.ndarray:
    """For each action, 1 if the position after it is winnable, 0 if not, 0.5 if the search ran out.

    ``game`` must be fully known (a determinized sample, or the true deal): the exact solver reads
    every card of it.
    """
    from agents.solver import solve_pyramid

    values = np.zeros(len(actions))
    for k, action in enumerate(actions):
        after = game.copy()
        after.push(ACTION_MOVES[int(action)])
        if after.is_won():
            values[k] = 1.0
            continue
        values[k] = {"winnable": 1.0, "unknown": 0.5}.get(solve_pyramid(after, limits=limits).status, 0.0)
    return values


class PimcPlayer(Player):
    """Plays the move that wins in most sampled completions of what the player has seen."""

    name = "pimc"

    def __init__(self, variant: Variant, samples: int = DEFAULT_SAMPLES,
                 max_states: int = DEFAULT_MAX_STATES, seed: int | None = None) -> None:
        if variant.game != "pyramid":
            raise MalformedInputError(f"the pimc player plays Pyramid, not {variant.game}")
        if samples < 1 or max_states < 1:
            raise MalformedInputError("samples and max_states must be positive")
        from agents.solver import SearchLimits

        self.variant, self.samples = variant, samples
        self._limits = SearchLimits(max_states=max_states, time_limit=None)
        self.rng = np.random.default_rng(seed)
        self._env: gymnasium.Env | None = None

    def reset(self, env: gymnasium.Env) -> None:
        self._env = env

    def move_values(self, game: PyramidGame, actions: np.ndarray) -> np.ndarray:
        """For each action, the share of sampled completions in which it leaves a winnable game."""
        order = game.stock_order()
        hidden = unseen_places(game)
        wins = np.zeros(len(actions))
        for _ in range(self.samples):
            sample = list(order)
            cards = sorted(order[i] for i in hidden)  # the unseen set, whatever their true order
            self.rng.shuffle(cards)
            for i, card in zip(hidden, cards, strict=True):
                sample[i] = card
            wins += afterstate_values(determinized(game, sample), actions, self._limits)
            if not hidden:  # nothing to sample: one exact answer is all there is
                return wins
        return wins / self.samples

    def choose(self, observation: np.ndarray, mask: np.ndarray, info: dict[str, Any]) -> Choice:
        if self._env is None:
            raise MalformedInputError("reset(env) first: the pimc player reads the game it plays")
        legal = legal_actions(mask)
        game: PyramidGame = self._env.unwrapped.game
        values = self.move_values(game, legal)
        view = PyramidView.decode(observation)
        best = max(range(len(legal)),
                   key=lambda k: (values[k], score_pyramid_action(view, int(legal[k]))[0], -legal[k]))
        return Choice(int(legal[best]), f"wins in {values[best]:.0%} of {self.samples} sampled stocks")


__all__ = ["PimcPlayer", "determinized", "unseen_places"]
