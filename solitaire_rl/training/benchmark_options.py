"""The benchmark's options as one frozen object: what its workers take and its rows file's header.

:class:`PlayOptions` holds every option that changes a row (the variant, the deal type, each agent
entry with its checkpoint's digest and how ``ppo`` moves, the solver's and the planners' budgets,
the analysis budgets). Which deals and seeds are played is not in it: each row names its deal and
seed. A ``--rows`` file starts with the object, and a run whose object differs is refused.

An :class:`AgentEntry` is one line of the table: a registry agent (``greedy``), an agent with one
of several checkpoints (``ppo:run3``, named for the file; ``ppo`` alone is the shipped checkpoint)
or a player from outside the package (``MODULE:FACTORY``, named for the player).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from solitaire_rl.agents.registry import AGENTS, PPO_CHECKPOINTS
from solitaire_rl.envs.errors import MalformedInputError

EXPERT_AGENTS = tuple(name for name, spec in AGENTS.items() if spec.checkpoint == "expert")
"""Agents that play an expert network (``--expert-checkpoint``)."""
CHECKPOINT_AGENTS = tuple(name for name, spec in AGENTS.items() if spec.checkpoint is not None)
PPO_AGENTS = tuple(name for name, spec in AGENTS.items() if spec.checkpoint in PPO_CHECKPOINTS)
"""Agents that play a MaskablePPO checkpoint (``--checkpoint``: each plays the files of its kind)."""
DETERMINISTIC_AGENTS = tuple(name for name, spec in AGENTS.items() if not spec.seeded)
"""Registry agents whose play draws no random numbers: with several seeds they play once."""


@dataclass(frozen=True)
class AgentEntry:
    """One agent of the table."""

    name: str
    """The row name."""
    agent: str
    """The registry name, or ``MODULE:FACTORY`` for a player from outside the package."""
    checkpoint: str | None = None
    """The checkpoint file as given (``None``: the shipped one, or no checkpoint)."""
    checkpoint_sha256: str | None = None
    """SHA-256 of the checkpoint played (the shipped one's too)."""
    moves: str | None = None
    """``ppo``: ``argmax`` (the most probable move) or ``sampled``; ``None`` for other agents."""
    seeded: bool = True
    """Whether its play draws random numbers (then it plays each seed; else once, seed ``None``)."""
    group: str | None = None
    """The aggregate this entry belongs to (the checkpoints of one agent), or ``None``."""


@dataclass(frozen=True)
class PlayOptions:
    """Every option that changes a row; frozen, written whole as a rows file's header."""

    variant: str
    deal_type: str = "random"
    agents: tuple[AgentEntry, ...] = ()
    solver_time_limit: float = 10.0
    planner: tuple[tuple[str, Any], ...] = ()
    """The planners' settings (``--planner-option``), sorted by name."""
    stock_known: bool = False
    analyse: bool = True
    analysis_states: int = 200_000
    analysis_time_budget: float = 10.0

    def entry(self, name: str) -> AgentEntry:
        """The agent entry called ``name``."""
        for entry in self.agents:
            if entry.name == name:
                return entry
        raise MalformedInputError(f"no agent {name!r} in these options")

    def to_json(self) -> dict[str, Any]:
        """The options as JSON (the rows file's header)."""
        data = asdict(self)
        data["agents"] = [asdict(entry) for entry in self.agents]
        data["planner"] = dict(self.planner)
        return data

    @classmethod
    def from_json(cls, data: Any) -> PlayOptions:
        """Options read back from :meth:`to_json`'s form; anything else is refused."""
        try:
            known = {f.name for f in fields(cls)}
            if not isinstance(data, dict):
                raise TypeError(f"a JSON object, not {data!r}")
            if not set(data) <= known:
                raise TypeError(f"unexpected fields {sorted(set(data) - known)}")
            agents = tuple(AgentEntry(**entry) for entry in data.get("agents", ()))
            planner = tuple(sorted(dict(data.get("planner", {})).items()))
            return cls(**{**data, "agents": agents, "planner": planner})
        except (TypeError, ValueError) as exc:
            raise MalformedInputError(f"not benchmark options: {exc}") from None

    def differences(self, other: PlayOptions) -> list[str]:
        """The fields where ``other`` differs from these options, as ``name: mine -> theirs``."""
        return [f"{f.name}: {getattr(self, f.name)!r} -> {getattr(other, f.name)!r}"
                for f in fields(self) if getattr(self, f.name) != getattr(other, f.name)]


def sha256_of(path: Path) -> str:
    """The SHA-256 hex digest of a file."""
    digest = hashlib.sha256()
    with path.open("rb") as source:
        for block in iter(lambda: source.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def split_paths(paths: Sequence[str | Path]) -> list[Path]:
    """``--checkpoint`` values: each repeated flag, and each comma-separated path in one."""
    return [Path(part) for value in paths for part in str(value).split(",") if part.strip()]


def file_names(paths: Sequence[Path]) -> list[str]:
    """A short name per file: its stem, with as many parent folders as tell it from the others."""
    parts = [p.with_suffix("").parts for p in paths]
    names = []
    for i, mine in enumerate(parts):
        for depth in range(1, len(mine) + 1):
            name = "/".join(mine[-depth:])
            if all("/".join(other[-depth:]) != name for j, other in enumerate(parts) if j != i):
                names.append(name)
                break
        else:
            raise MalformedInputError(f"the same checkpoint given twice: {paths[i]}")
    return names


def parse_seeds(text: str) -> tuple[int, ...]:
    """``--seeds``: integers and ranges, comma-separated (``0-4``, ``1,7``), each once."""
    seeds: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        start, sep, end = part.partition("-")
        try:
            first, last = (int(start), int(end)) if sep and start else (int(part), int(part))
        except ValueError:
            raise MalformedInputError(f"--seeds {text!r}: give integers or ranges (0-4 or 1,7)") from None
        if first < 0 or last < first:
            raise MalformedInputError(f"--seeds {text!r}: seeds are 0 or more, ranges low-high")
        seeds += range(first, last + 1)
    if len(set(seeds)) != len(seeds):
        raise MalformedInputError(f"--seeds {text!r} gives a seed twice")
    return tuple(seeds)


__all__ = ["CHECKPOINT_AGENTS", "DETERMINISTIC_AGENTS", "EXPERT_AGENTS", "PPO_AGENTS", "AgentEntry",
           "PlayOptions", "file_names", "parse_seeds", "sha256_of", "split_paths"]
