"""What the agents add to each game's :class:`~solitaire_rl.envs.spec.GameSpec`: the exact solver,
the planners' sampling loop and the greedy heuristic.

The spec lives in :mod:`solitaire_rl.envs`, which cannot import the agents; so each game's
:class:`AgentSide` is registered here, for a spec class (:class:`~solitaire_rl.envs.spec.PyramidSpec`,
:class:`~solitaire_rl.envs.spec.KlondikeSpec`: every variant of the game), and :func:`agent_side`
finds a spec's. Adding a variant of an existing game needs nothing here; a new game registers its
side with :func:`register_agent_side`. Heavy imports (the native solver) happen only when used.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from solitaire_rl.agents.base import Choice
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike import KlondikeGame
from solitaire_rl.envs.pyramid import PyramidGame
from solitaire_rl.envs.spec import Game, GameSpec, KlondikeSpec, PyramidSpec

if TYPE_CHECKING:  # the solver package loads the native core: imported where a solve happens
    from solitaire_rl.agents.solver.limits import SearchLimits
    from solitaire_rl.agents.solver.result import SolveResult


class Heuristic(Protocol):
    """A game's greedy heuristic: chooses from the observation and the mask alone."""

    def reset(self) -> None:
        """A new game starts."""

    def choose(self, observation: np.ndarray, mask: np.ndarray) -> Choice:
        """The heuristic's choice among the legal actions of ``mask``."""


class SampledTally(Protocol):
    """Per legal move, how many samples of the unseen cards were won, lost or undecided after it."""

    won: Any
    lost: Any
    unknown: Any
    samples: int


@dataclass(frozen=True)
class AgentSide:
    """One game's agent-side operations (see the module docstring)."""

    solve: Callable[[Game, SearchLimits], SolveResult[Any]]
    """The exact solver's verdict on the true position (every card known)."""
    sampled_tally: Callable[..., SampledTally]
    """``sampled_tally(game, moves, *, samples, states_per_solve, max_states, seed)``: for each of
    ``moves`` (legal in ``game``), in how many samples of the cards the player has not seen (every
    seen card where it was seen) the position after it is won, lost or undecided: the native loops
    the ``pimc`` and ``hop`` planners use."""
    heuristic: Callable[[], Heuristic]
    """A new greedy heuristic (:mod:`solitaire_rl.agents.greedy`)."""


_SIDES: dict[type[GameSpec], AgentSide] = {}


def register_agent_side(spec_type: type[GameSpec], side: AgentSide) -> None:
    """Give every variant of ``spec_type`` (a :class:`GameSpec` subclass) these operations."""
    if not (isinstance(spec_type, type) and issubclass(spec_type, GameSpec)):
        raise MalformedInputError(f"agent sides are registered for a GameSpec class, not {spec_type!r}")
    _SIDES[spec_type] = side


def agent_side(spec: GameSpec) -> AgentSide:
    """The agents' operations of ``spec``'s game."""
    for kind in type(spec).__mro__:
        if kind in _SIDES:
            return _SIDES[kind]
    raise MalformedInputError(f"no solver or planner is registered for {spec.key}")


# ---------------------------------------------------------------- Pyramid
def _solve_pyramid(game: Game, limits: SearchLimits) -> SolveResult[Any]:
    from solitaire_rl.agents.solver import solve_pyramid

    return solve_pyramid(game, limits=limits)


def _pyramid_tally(game: Game, moves: Sequence[Any], *, samples: int, states_per_solve: int, max_states: int,
                   seed: int) -> Any:
    from solitaire_rl.agents.planner.pimc import unseen_places
    from solitaire_rl.agents.solver import _native
    from solitaire_rl.agents.solver.pyramid import PyramidPosition, native_moves

    assert isinstance(game, PyramidGame)
    hidden = unseen_places(game)
    position = PyramidPosition.from_game(game)
    stock = list(position.stock)  # the unseen cards in card order: nothing of their places
    for place, card in zip(hidden, sorted(stock[i] for i in hidden), strict=True):
        stock[place] = card
    pimc = _native.PyramidPimcOptions(seed=seed % 2**63, states_per_solve=states_per_solve,
                                      max_samples=samples if hidden else 1, max_states=max_states)
    return _native.pyramid_pimc(replace(position, stock=tuple(stock)).to_native(), hidden,
                                native_moves(list(moves)), pimc)


class _PyramidHeuristic:
    """The Pyramid greedy rules (:func:`solitaire_rl.agents.greedy.pyramid.choose_pyramid`): no memory."""

    def reset(self) -> None:
        return None

    def choose(self, observation: np.ndarray, mask: np.ndarray) -> Choice:
        from solitaire_rl.agents.greedy.pyramid import choose_pyramid

        return choose_pyramid(observation, mask)


# ---------------------------------------------------------------- Klondike
def _solve_klondike(game: Game, limits: SearchLimits) -> SolveResult[Any]:
    from solitaire_rl.agents.solver import solve_klondike

    return solve_klondike(game, limits=limits)


def _klondike_tally(game: Game, moves: Sequence[Any], *, samples: int, states_per_solve: int, max_states: int,
                    seed: int) -> Any:
    from solitaire_rl.agents.planner.knowledge import klondike_knowledge
    from solitaire_rl.agents.solver import _native
    from solitaire_rl.agents.solver.klondike import native_actions
    from solitaire_rl.envs.klondike.observer import observe

    assert isinstance(game, KlondikeGame)
    knowledge = klondike_knowledge(observe(game), game.draw_count)
    options = _native.KlondikeHopOptions(
        draw_count=game.draw_count, seed=seed % 2**64, states_per_solve=states_per_solve,
        max_samples=samples if knowledge.unknown else 1, max_states=max_states)
    return _native.klondike_hop(knowledge.position.to_native(), list(knowledge.unknown),
                                native_actions(list(moves)), options).tally


def _klondike_heuristic() -> Heuristic:
    from solitaire_rl.agents.greedy.klondike import KlondikeGreedy

    return KlondikeGreedy()


register_agent_side(PyramidSpec, AgentSide(_solve_pyramid, _pyramid_tally, _PyramidHeuristic))
register_agent_side(KlondikeSpec, AgentSide(_solve_klondike, _klondike_tally, _klondike_heuristic))


__all__ = ["AgentSide", "Heuristic", "SampledTally", "agent_side", "register_agent_side"]
