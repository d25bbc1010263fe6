"""Player names -> players: ``random``, ``greedy``, ``ppo``, ``solver`` and the planners ``pimc``
(Pyramid) and ``hop`` (Klondike).

``make_player(name, variant, **options)`` builds one (a name ``MODULE:FACTORY`` is a player from
outside the package: :mod:`solitaire_rl.agents.outside`); ``unavailable_reason(name, variant)`` says
why one cannot be built here (``ppo`` without a checkpoint for the variant, ``solver`` without the
native core or without a solver for the game), or ``None``. Heavy imports (torch, the native
solver) happen only when such a player is built.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from solitaire_rl.agents.base import Player
from solitaire_rl.agents.outside import is_outside, load_factory, make_outside_player
from solitaire_rl.agents.variants import Variant, find_variant
from solitaire_rl.envs.errors import MalformedInputError, SolitaireError

AGENT_NAMES = ("random", "greedy", "ppo", "solver", "pimc", "hop", "ismcts", "expert-net", "guided-ismcts",
               "guided-pimc", "world-bandit")
"""Every player name; ``solver`` sees hidden cards (an upper bound); the planners ``pimc`` (Pyramid)
and ``hop`` (Klondike) sample the unseen cards and solve each sample natively (``pimc`` is also the
teacher of the shipped Pyramid policies); ``ismcts`` (Klondike) is ``hop`` with an information-set
tree search among its ties; ``expert-net`` is the expert-iteration network alone (no search) and
``guided-ismcts`` (Klondike) and ``guided-pimc`` (Pyramid) are ``ismcts`` and ``pimc`` whose ties
go to that network; ``world-bandit`` (Klondike) decides only at commitments (a card turned up, a
talon card played), each scored over sampled worlds by capped exact searches with a bandit
spending the worlds (:mod:`solitaire_rl.agents.planner.commitment`)."""


def _random(variant: Variant, seed: int | None = None) -> Player:
    from solitaire_rl.agents.random_agent import RandomPlayer

    return RandomPlayer(seed)


def _greedy(variant: Variant) -> Player:
    from solitaire_rl.agents.greedy import GreedyPlayer

    return GreedyPlayer(variant)


def _ppo(variant: Variant, checkpoint: str | Path | None = None, deterministic: bool | None = None,
         seed: int | None = None) -> Player:
    from solitaire_rl.agents.ppo import PpoPlayer

    return PpoPlayer(variant, checkpoint, deterministic=deterministic, seed=seed)


def _solver(variant: Variant, time_limit: float | None = None) -> Player:
    from solitaire_rl.agents.solver.player import DEFAULT_TIME_LIMIT, SolverPlayer

    return SolverPlayer(variant, DEFAULT_TIME_LIMIT if time_limit is None else time_limit)


def _pimc(variant: Variant, seed: int | None = None, samples: int | None = None, **options: Any) -> Player:
    from solitaire_rl.agents.planner.pimc import DEFAULT_SAMPLES, PimcPlayer

    return PimcPlayer(variant, samples=DEFAULT_SAMPLES if samples is None else samples, seed=seed, **options)


def _hop(variant: Variant, seed: int | None = None, **options: Any) -> Player:
    from solitaire_rl.agents.planner.hop import HopPlayer

    return HopPlayer(variant, seed=seed, **options)


def _ismcts(variant: Variant, seed: int | None = None, **options: Any) -> Player:
    from solitaire_rl.agents.planner.ismcts import IsmctsPlayer

    return IsmctsPlayer(variant, seed=seed, **options)


def _expert_net(variant: Variant, checkpoint: str | Path | None = None) -> Player:
    from solitaire_rl.agents.expert.player import ExpertPlayer

    return ExpertPlayer(variant, checkpoint)


def _guided_ismcts(variant: Variant, seed: int | None = None, checkpoint: str | Path | None = None,
                   **options: Any) -> Player:
    from solitaire_rl.agents.planner.ismcts import GuidedIsmctsPlayer

    return GuidedIsmctsPlayer(variant, seed=seed, expert_checkpoint=checkpoint, **options)


def _guided_pimc(variant: Variant, seed: int | None = None, checkpoint: str | Path | None = None,
                 samples: int | None = None, **options: Any) -> Player:
    from solitaire_rl.agents.planner.pimc import DEFAULT_SAMPLES, GuidedPimcPlayer

    return GuidedPimcPlayer(variant, seed=seed, expert_checkpoint=checkpoint,
                            samples=DEFAULT_SAMPLES if samples is None else samples, **options)


def _world_bandit(variant: Variant, seed: int | None = None, **options: Any) -> Player:
    from solitaire_rl.agents.planner.commitment import CommitmentBot

    return CommitmentBot(variant, seed=0 if seed is None else seed, **options)


_FACTORIES: dict[str, Callable[..., Player]] = {
    "random": _random, "greedy": _greedy, "ppo": _ppo, "solver": _solver, "pimc": _pimc, "hop": _hop,
    "ismcts": _ismcts, "expert-net": _expert_net, "guided-ismcts": _guided_ismcts,
    "guided-pimc": _guided_pimc, "world-bandit": _world_bandit,
}


def make_player(name: str, variant: Variant | str, **options: Any) -> Player:
    """The player called ``name`` for ``variant``; ``options`` go to its constructor
    (``seed`` for random, ppo and the planners, ``checkpoint`` and ``deterministic`` for ppo,
    ``time_limit`` for solver and the planners, ``samples`` for pimc; the planners' budgets;
    ``checkpoint`` for expert-net and the guided planners: an expert network, default the shipped one)."""
    variant = find_variant(variant) if isinstance(variant, str) else variant
    if is_outside(name):
        return make_outside_player(name, variant)
    factory = _FACTORIES.get(name)
    if factory is None:
        raise MalformedInputError(f"unknown agent {name!r}: choose from {', '.join(AGENT_NAMES)}")
    return factory(variant, **options)


def unavailable_reason(name: str, variant: Variant | str, checkpoint: str | Path | None = None) -> str | None:
    """Why player ``name`` cannot play ``variant`` here, or ``None`` if it can (cheap: loads no weights)."""
    variant = find_variant(variant) if isinstance(variant, str) else variant
    if is_outside(name):
        try:
            load_factory(name)
        except SolitaireError as exc:
            return str(exc)
        return None
    if name not in _FACTORIES:
        return f"unknown agent {name!r}"
    try:
        if name == "ppo":
            from solitaire_rl.agents.ppo import check_metadata, default_checkpoint, read_metadata

            path = Path(checkpoint) if checkpoint is not None else default_checkpoint(variant)
            check_metadata(read_metadata(path), variant, source=f"checkpoint {path}")
        elif name in ("expert-net", "guided-ismcts", "guided-pimc"):
            from solitaire_rl.agents.expert.checkpoint import (
                check_expert_metadata,
                default_expert_checkpoint,
                read_expert_metadata,
            )

            if name == "guided-ismcts" and variant.game != "klondike":
                return "the guided-ismcts player plays Klondike only"
            if name == "guided-pimc" and variant.game != "pyramid":
                return "the guided-pimc player plays Pyramid only"
            path = Path(checkpoint) if checkpoint is not None else default_expert_checkpoint(variant)
            check_expert_metadata(read_expert_metadata(path), variant, source=f"checkpoint {path}")
            if name in ("guided-ismcts", "guided-pimc"):
                from solitaire_rl.agents.solver.player import solve_function

                solve_function(variant.game)
        elif name in ("solver", "pimc", "hop", "ismcts", "world-bandit"):
            from solitaire_rl.agents.solver.player import solve_function

            if name == "pimc" and variant.game != "pyramid":
                return "the pimc player plays Pyramid only"
            if name in ("hop", "ismcts", "world-bandit") and variant.game != "klondike":
                return f"the {name} player plays Klondike only"
            solve_function(variant.game)
    except SolitaireError as exc:
        return str(exc)
    return None


__all__ = ["AGENT_NAMES", "make_player", "unavailable_reason"]
