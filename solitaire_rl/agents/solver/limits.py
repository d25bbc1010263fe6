"""The budget of one search: time, states and memory, checked here before any search starts."""

from __future__ import annotations

import math
from dataclasses import dataclass

from solitaire_rl.agents.solver import _native
from solitaire_rl.envs.errors import MalformedInputError

DEFAULT_TIME_LIMIT = 10.0
"""Seconds a search may take unless told otherwise."""
DEFAULT_MAX_MEMORY_BYTES: int = _native.DEFAULT_MAX_MEMORY_BYTES
"""Peak size of a search's tables unless told otherwise: 512 MiB."""
MIN_MAX_MEMORY_BYTES: int = _native.MIN_MAX_MEMORY_BYTES
MAX_MAX_MEMORY_BYTES = 64 << 30


@dataclass(frozen=True)
class SearchLimits:
    """How much one search may spend; a search that runs out reports ``unknown``, never a loss."""

    time_limit: float | None = DEFAULT_TIME_LIMIT
    """Wall-clock seconds, or ``None`` for no limit."""
    max_states: int | None = None
    """States visited (of the game and of its relaxation), or ``None`` for no limit. Unlike
    time, a state limit gives the same answer on every machine."""
    max_memory_bytes: int = DEFAULT_MAX_MEMORY_BYTES
    """Peak memory of the search's tables; the default, 512 MiB, keeps well under 2 GiB."""

    def __post_init__(self) -> None:
        t = self.time_limit
        if t is not None and (
            isinstance(t, bool) or not isinstance(t, int | float) or not math.isfinite(t) or t <= 0
        ):
            raise MalformedInputError(f"time limit must be a positive number of seconds or None, not {t!r}")
        s = self.max_states
        if s is not None and (isinstance(s, bool) or not isinstance(s, int) or not 1 <= s < 2**63):
            raise MalformedInputError(f"state limit must be a positive integer or None, not {s!r}")
        m = self.max_memory_bytes
        if isinstance(m, bool) or not isinstance(m, int) or not (
            MIN_MAX_MEMORY_BYTES <= m <= MAX_MAX_MEMORY_BYTES
        ):
            raise MalformedInputError(
                f"memory limit must be an integer from {MIN_MAX_MEMORY_BYTES} to {MAX_MAX_MEMORY_BYTES} "
                f"bytes, not {m!r}"
            )

    def to_native(self) -> _native.Limits:
        limits = _native.Limits()
        limits.time_limit_s = 0.0 if self.time_limit is None else float(self.time_limit)
        limits.max_states = 0 if self.max_states is None else self.max_states
        limits.max_memory_bytes = self.max_memory_bytes
        return limits


class _Default:
    """The type of :data:`DEFAULT`: a ``time_limit`` the caller did not give."""

    def __repr__(self) -> str:
        return "DEFAULT"


DEFAULT = _Default()
"""``time_limit``'s default in the solvers' signatures: :data:`DEFAULT_TIME_LIMIT` seconds, unless
``limits`` is given (``None`` means no time limit, so it cannot stand for "not given")."""


def search_budget(
    limits: SearchLimits | None = None,
    time_limit: float | _Default | None = DEFAULT,
    max_states: int | None = None,
) -> SearchLimits:
    """The budget of a ``solve_*`` call: ``limits``, or one built from ``time_limit`` (seconds;
    ``None``: none; default :data:`DEFAULT_TIME_LIMIT`) and ``max_states``, never both.

    Every solver takes these three keywords the same way; a wrong one is refused with
    :class:`MalformedInputError` naming it.
    """
    if limits is None:
        if isinstance(time_limit, _Default):
            return SearchLimits(max_states=max_states)
        return SearchLimits(time_limit=time_limit, max_states=max_states)
    if not isinstance(limits, SearchLimits):
        raise MalformedInputError(f"limits must be a SearchLimits, not {type(limits).__name__}")
    if not isinstance(time_limit, _Default) or max_states is not None:
        raise MalformedInputError("give either limits or time_limit/max_states, not both")
    return limits


__all__ = ["DEFAULT", "DEFAULT_MAX_MEMORY_BYTES", "DEFAULT_TIME_LIMIT", "SearchLimits", "search_budget"]
