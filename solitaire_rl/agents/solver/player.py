"""The ``solver`` player: the exact full-information solver (:mod:`solitaire_rl.agents.solver`), an upper
bound.

Unlike every other player it reads the deal itself, hidden cards included (``sees_hidden_cards``).
At the start of each episode it solves the position; when the deal is winnable it plays the
solver's winning line move by move, otherwise (proved not winnable, or unknown within the time
limit) it plays the ``greedy`` heuristic to clear what it can. :attr:`SolverPlayer.result` keeps
the solver's verdict of the last deal.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np

from solitaire_rl.agents.base import Choice, Player, game_of
from solitaire_rl.agents.greedy import GreedyPlayer
from solitaire_rl.envs.errors import IllegalMoveError, MalformedInputError, SolitaireError
from solitaire_rl.envs.spec import GameSpec

DEFAULT_TIME_LIMIT = 10.0
"""Seconds the solver may spend on one deal before its verdict is ``unknown``."""


class SolverUnavailableError(SolitaireError):
    """The exact solver cannot play this game here (not built, or no solver for the game yet)."""


def solve_function(variant: GameSpec) -> Callable[..., Any]:
    """The exact solver of ``variant``'s game (``solve(game, limits)``, :mod:`solitaire_rl.agents.games`);
    :class:`SolverUnavailableError` if it cannot be had (the native core not built, no solver for the
    game)."""
    try:
        importlib.import_module("solitaire_rl.agents.solver")
    except ImportError as exc:
        raise SolverUnavailableError(f"the exact solver is not available: {exc}") from None
    from solitaire_rl.agents.games import agent_side

    try:
        return agent_side(variant).solve
    except MalformedInputError as exc:
        raise SolverUnavailableError(str(exc)) from None


class SolverPlayer(Player):
    """Plays the solver's winning line when there is one, else the greedy heuristic."""

    name = "solver"
    sees_hidden_cards = True

    def __init__(self, variant: GameSpec, time_limit: float | None = DEFAULT_TIME_LIMIT) -> None:
        self.variant = variant
        self._solve = solve_function(variant)
        from solitaire_rl.agents.solver import SearchLimits

        self.limits = SearchLimits(time_limit=time_limit)
        self._fallback = GreedyPlayer(variant)
        self._line: list[int] = []
        self.result: Any = None
        """The solver's result for the deal being played (status, line, states, seconds)."""

    def reset(self, env: gymnasium.Env) -> None:
        game = game_of(env)
        self.result = self._solve(game, self.limits)
        line = self.result.line or ()
        self._line = [self.variant.action_of(move) for move in reversed(line)]

    def choose(self, observation: np.ndarray, mask: np.ndarray, info: dict[str, Any]) -> Choice:
        if self._line:
            action = self._line.pop()
            if not mask[action]:
                raise IllegalMoveError(f"the solver's line plays an illegal action {action}", action)
            return Choice(action, "on a proven winning line")
        choice = self._fallback.choose(observation, mask, info)
        status = getattr(self.result, "status", "unknown")
        return Choice(choice.action, f"{status.replace('_', ' ')}: {choice.reason}")


__all__ = ["DEFAULT_TIME_LIMIT", "SolverPlayer", "SolverUnavailableError", "solve_function"]
