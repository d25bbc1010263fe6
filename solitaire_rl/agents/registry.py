"""Player names -> players: ``random``, ``greedy``, ``ppo``, ``solver`` and the planners ``pimc``
(Pyramid) and ``hop`` (Klondike).

Each agent is an :class:`AgentSpec` in :data:`AGENTS`: the games it plays, what it sees, whether it
draws random numbers, the checkpoint it loads, its options with their types and defaults; the
benchmark and the play server read these instead of testing names.
``make_player(name, variant, **options)`` builds one (a name ``MODULE:FACTORY`` is a player from
outside the package: :mod:`solitaire_rl.agents.outside`); ``unavailable_reason(name, variant)`` says
why one cannot be built here (``ppo`` without a checkpoint for the variant, ``solver`` without the
native core or without a solver for the game), or ``None``. Heavy imports (torch, the native
solver) happen only when such a player is built.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from numbers import Integral, Real
from pathlib import Path
from typing import Any, Literal

from solitaire_rl.agents.base import Player
from solitaire_rl.agents.outside import is_outside, load_factory, make_outside_player
from solitaire_rl.envs.errors import MalformedInputError, SolitaireError
from solitaire_rl.envs.spec import GameSpec, find_game

AGENT_NAMES = ("random", "greedy", "ppo", "solver", "pimc", "hop", "ismcts", "expert-net", "guided-ismcts",
               "guided-pimc", "world-bandit", "ppo-privileged", "expert-sampled")
"""Every player name; ``solver`` sees hidden cards (an upper bound); the planners ``pimc`` (Pyramid)
and ``hop`` (Klondike) sample the unseen cards and solve each sample natively (``pimc`` is also the
teacher of the shipped Pyramid policies); ``ismcts`` (Klondike) is ``hop`` with an information-set
tree search among its ties; ``expert-net`` is the expert-iteration network alone (no search) and
``guided-ismcts`` (Klondike) and ``guided-pimc`` (Pyramid) are ``ismcts`` and ``pimc`` whose ties
go to that network; ``world-bandit`` (Klondike) decides only at commitments (a card turned up, a
talon card played), each scored over sampled worlds by capped exact searches with a bandit
spending the worlds (:mod:`solitaire_rl.agents.planner.commitment`); ``ppo-privileged`` is a MaskablePPO
policy whose critic read the hidden cards in training, played by its actor alone
(:mod:`solitaire_rl.agents.ppo_privileged`); ``expert-sampled`` plays an expert network's checkpoint
drawing each move from its policy (:mod:`solitaire_rl.agents.expert.sampled`)."""


def _random(variant: GameSpec, seed: int | None = None) -> Player:
    from solitaire_rl.agents.random_agent import RandomPlayer

    return RandomPlayer(seed)


def _greedy(variant: GameSpec) -> Player:
    from solitaire_rl.agents.greedy import GreedyPlayer

    return GreedyPlayer(variant)


def _ppo(variant: GameSpec, checkpoint: str | Path | None = None, deterministic: bool | None = None,
         seed: int | None = None) -> Player:
    from solitaire_rl.agents.ppo import PpoPlayer

    return PpoPlayer(variant, checkpoint, deterministic=deterministic, seed=seed)


def _ppo_privileged(variant: GameSpec, checkpoint: str | Path | None = None,
                    deterministic: bool | None = None, seed: int | None = None) -> Player:
    from solitaire_rl.agents.ppo_privileged import PrivilegedPpoPlayer

    return PrivilegedPpoPlayer(variant, checkpoint, deterministic=deterministic, seed=seed)


def _solver(variant: GameSpec, time_limit: float | None = None) -> Player:
    from solitaire_rl.agents.solver.player import DEFAULT_TIME_LIMIT, SolverPlayer

    return SolverPlayer(variant, DEFAULT_TIME_LIMIT if time_limit is None else time_limit)


def _pimc(variant: GameSpec, seed: int | None = None, samples: int | None = None, **options: Any) -> Player:
    from solitaire_rl.agents.planner.pimc import DEFAULT_SAMPLES, PimcPlayer

    return PimcPlayer(variant, samples=DEFAULT_SAMPLES if samples is None else samples, seed=seed, **options)


def _hop(variant: GameSpec, seed: int | None = None, **options: Any) -> Player:
    from solitaire_rl.agents.planner.hop import HopPlayer

    return HopPlayer(variant, seed=seed, **options)


def _ismcts(variant: GameSpec, seed: int | None = None, **options: Any) -> Player:
    from solitaire_rl.agents.planner.ismcts import IsmctsPlayer

    return IsmctsPlayer(variant, seed=seed, **options)


def _expert_net(variant: GameSpec, checkpoint: str | Path | None = None) -> Player:
    from solitaire_rl.agents.expert.player import ExpertPlayer

    return ExpertPlayer(variant, checkpoint)


def _expert_sampled(variant: GameSpec, seed: int | None = None,
                    checkpoint: str | Path | None = None) -> Player:
    from solitaire_rl.agents.expert.sampled import SampledExpertPlayer

    return SampledExpertPlayer(variant, checkpoint, seed=seed)


def _guided_ismcts(variant: GameSpec, seed: int | None = None, checkpoint: str | Path | None = None,
                   **options: Any) -> Player:
    from solitaire_rl.agents.planner.ismcts import GuidedIsmctsPlayer

    return GuidedIsmctsPlayer(variant, seed=seed, expert_checkpoint=checkpoint, **options)


def _guided_pimc(variant: GameSpec, seed: int | None = None, checkpoint: str | Path | None = None,
                 samples: int | None = None, **options: Any) -> Player:
    from solitaire_rl.agents.planner.pimc import DEFAULT_SAMPLES, GuidedPimcPlayer

    return GuidedPimcPlayer(variant, seed=seed, expert_checkpoint=checkpoint,
                            samples=DEFAULT_SAMPLES if samples is None else samples, **options)


def _world_bandit(variant: GameSpec, seed: int | None = None, **options: Any) -> Player:
    from solitaire_rl.agents.planner.commitment import CommitmentBot

    return CommitmentBot(variant, seed=0 if seed is None else seed, **options)


Sees = Literal["hidden cards", "every card"]
"""What an agent reads of a deal: what a player sees, or every card (the solver: an upper bound)."""
CheckpointKind = Literal["ppo", "ppo-privileged", "expert"]
"""The checkpoint an agent loads: a MaskablePPO policy (``--checkpoint``), one trained with a
privileged critic (``--checkpoint`` too) or an expert network (``--expert-checkpoint``)."""
PPO_CHECKPOINTS: tuple[CheckpointKind, ...] = ("ppo", "ppo-privileged")
"""The kinds of MaskablePPO checkpoint (``--checkpoint``)."""
PYRAMID, KLONDIKE = frozenset({"pyramid"}), frozenset({"klondike"})
BOTH = PYRAMID | KLONDIKE


@dataclass(frozen=True)
class OptionSpec:
    """One keyword option of an agent: its type, its default and what it does."""

    type: type | tuple[type, ...]
    default: Any
    about: str


SEED = OptionSpec(object, None, "the generator's seed: what numpy.random.default_rng takes (the benchmark "
                  "reseeds per deal)")
TIME_LIMIT = OptionSpec((Real, type(None)), None, "seconds a decision may take (None: the default)")
SAMPLES = OptionSpec((Integral, type(None)), None, "sampled stocks per decision (None: the default)")
CHECKPOINT = OptionSpec((str, Path, type(None)), None, "the checkpoint file (None: the shipped one)")


@dataclass(frozen=True)
class AgentSpec:
    """What the registry knows of one agent, so that no caller tests its name."""

    name: str
    factory: Callable[..., Player]
    games: frozenset[str]
    """The games it plays (``pyramid``, ``klondike``)."""
    sees: Sees = "hidden cards"
    seeded: bool = False
    """Whether its play draws random numbers: reseeded before each deal, played once per seed
    (``ppo`` only when it samples its moves)."""
    checkpoint: CheckpointKind | None = None
    native: bool = False
    """Whether it needs the native core (the solvers)."""
    planner: bool = False
    """Whether it takes the planners' budgets (``--planner-option``; checked by the planner)."""
    stock_known: bool = False
    """Whether it can be shown the stock's order (``--stock-known``, Klondike)."""
    options: Mapping[str, OptionSpec] = field(default_factory=dict)
    """Its fixed keyword options; a planner also takes its budgets, which it checks itself."""

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Refuse an option it does not take, or a value of the wrong type (``MalformedInputError``)."""
        for key, value in options.items():
            spec = self.options.get(key)
            if spec is None:
                if self.planner:
                    continue
                known = ", ".join(sorted(self.options)) or "none"
                raise MalformedInputError(
                    f"the {self.name} agent takes no option {key!r} (its options: {known})")
            if not isinstance(value, spec.type):
                raise MalformedInputError(f"the {self.name} agent's option {key!r} must be "
                                          f"{_type_words(spec.type)}, not {value!r}")


def _type_words(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join("None" if k is type(None) else k.__name__ for k in kinds)


_PLANNER_OPTIONS = {"seed": SEED, "time_limit": TIME_LIMIT}
_PPO_OPTIONS = {"checkpoint": CHECKPOINT, "seed": SEED, "deterministic": OptionSpec(
    (bool, type(None)), None, "most probable move (True), sampled (False), as trained (None)")}
AGENTS: dict[str, AgentSpec] = {spec.name: spec for spec in (
    AgentSpec("random", _random, BOTH, seeded=True, options={"seed": SEED}),
    AgentSpec("greedy", _greedy, BOTH),
    AgentSpec("ppo", _ppo, BOTH, seeded=True, checkpoint="ppo", options=_PPO_OPTIONS),
    AgentSpec("solver", _solver, BOTH, sees="every card", native=True, options={"time_limit": TIME_LIMIT}),
    AgentSpec("pimc", _pimc, PYRAMID, seeded=True, native=True, planner=True, options={
        **_PLANNER_OPTIONS, "samples": SAMPLES}),
    AgentSpec("hop", _hop, KLONDIKE, seeded=True, native=True, planner=True, stock_known=True,
              options=_PLANNER_OPTIONS),
    AgentSpec("ismcts", _ismcts, KLONDIKE, seeded=True, native=True, planner=True, stock_known=True,
              options=_PLANNER_OPTIONS),
    AgentSpec("expert-net", _expert_net, BOTH, checkpoint="expert", options={"checkpoint": CHECKPOINT}),
    AgentSpec("guided-ismcts", _guided_ismcts, KLONDIKE, seeded=True, checkpoint="expert", native=True,
              planner=True, stock_known=True, options={**_PLANNER_OPTIONS, "checkpoint": CHECKPOINT}),
    AgentSpec("guided-pimc", _guided_pimc, PYRAMID, seeded=True, checkpoint="expert", native=True,
              planner=True, options={**_PLANNER_OPTIONS, "checkpoint": CHECKPOINT, "samples": SAMPLES}),
    AgentSpec("world-bandit", _world_bandit, KLONDIKE, seeded=True, native=True, planner=True,
              options=_PLANNER_OPTIONS),
    AgentSpec("ppo-privileged", _ppo_privileged, BOTH, seeded=True, checkpoint="ppo-privileged",
              options=_PPO_OPTIONS),
    AgentSpec("expert-sampled", _expert_sampled, BOTH, seeded=True, checkpoint="expert",
              options={"checkpoint": CHECKPOINT, "seed": SEED}),
)}
"""Every agent by name."""
assert tuple(AGENTS) == AGENT_NAMES


def agent_spec(name: str) -> AgentSpec:
    """The spec of registry agent ``name`` (``MalformedInputError`` naming the agents otherwise)."""
    spec = AGENTS.get(name)
    if spec is None:
        raise MalformedInputError(f"unknown agent {name!r}: choose from {', '.join(AGENT_NAMES)}")
    return spec


def make_player(name: str, variant: GameSpec | str, **options: Any) -> Player:
    """The player called ``name`` for ``variant``; ``options`` go to its constructor, checked
    against its :class:`AgentSpec` first (``seed`` for random, ppo and the planners, ``checkpoint``
    and ``deterministic`` for ppo, ``time_limit`` for solver and the planners, ``samples`` for pimc;
    the planners' budgets; ``checkpoint`` for expert-net and the guided planners: an expert
    network, default the shipped one)."""
    variant = find_game(variant) if isinstance(variant, str) else variant
    if is_outside(name):
        return make_outside_player(name, variant)
    spec = agent_spec(name)
    require_game(name, variant)
    spec.check_options(options)
    return spec.factory(variant, **options)


def require_game(name: str, variant: GameSpec) -> None:
    """Refuse ``variant`` if registry agent ``name`` does not play its game (``MalformedInputError``):
    what :func:`make_player` checks, and a player built directly checks in its constructor."""
    games = agent_spec(name).games
    if variant.game not in games:
        raise MalformedInputError(f"the {name} player plays {games_words(games)}, not {variant.game}")


def games_words(games: frozenset[str]) -> str:
    """``Pyramid and Klondike``, ``Klondike``: the games an agent plays."""
    return " and ".join(g.capitalize() for g in sorted(games, reverse=True))


def unavailable_reason(name: str, variant: GameSpec | str,
                       checkpoint: str | Path | None = None) -> str | None:
    """Why player ``name`` cannot play ``variant`` here, or ``None`` if it can (cheap: loads no weights)."""
    variant = find_game(variant) if isinstance(variant, str) else variant
    if is_outside(name):
        try:
            load_factory(name)
        except SolitaireError as exc:
            return str(exc)
        return None
    spec = AGENTS.get(name)
    if spec is None:
        return f"unknown agent {name!r}"
    if variant.game not in spec.games:
        return f"the {name} player plays {games_words(spec.games)} only"
    try:
        if spec.checkpoint in PPO_CHECKPOINTS:
            from solitaire_rl.agents.ppo import check_metadata, default_checkpoint, read_metadata

            privileged = spec.checkpoint == "ppo-privileged"
            path = Path(checkpoint) if checkpoint is not None else default_checkpoint(variant, privileged)
            check_metadata(read_metadata(path), variant, source=f"checkpoint {path}", privileged=privileged)
        elif spec.checkpoint == "expert":
            from solitaire_rl.agents.expert.checkpoint import (
                check_expert_metadata,
                default_expert_checkpoint,
                read_expert_metadata,
            )

            path = Path(checkpoint) if checkpoint is not None else default_expert_checkpoint(variant)
            check_expert_metadata(read_expert_metadata(path), variant, source=f"checkpoint {path}")
        if spec.native:
            from solitaire_rl.agents.solver.player import solve_function

            solve_function(variant)
    except SolitaireError as exc:
        return str(exc)
    return None


__all__ = ["AGENTS", "AGENT_NAMES", "PPO_CHECKPOINTS", "AgentSpec", "OptionSpec", "agent_spec", "games_words",
           "make_player", "require_game", "unavailable_reason"]
