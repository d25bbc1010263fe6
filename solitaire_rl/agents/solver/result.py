"""What a solver concluded: a status, a winning line when there is one, and counters."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

WINNABLE = "winnable"
NOT_WINNABLE = "not_winnable"
UNKNOWN = "unknown"
STATUSES = (WINNABLE, NOT_WINNABLE, UNKNOWN)
REASONS = ("time", "states", "memory", "cancelled")
"""Why a search stopped before deciding (``SolveResult.reason`` when the status is unknown)."""

M = TypeVar("M")


@dataclass(frozen=True)
class SolveResult(Generic[M]):
    """The verdict of one search. ``unknown`` means the budget ran out: it is never a loss."""

    status: str
    """``"winnable"``, ``"not_winnable"`` (proved) or ``"unknown"``."""
    line: tuple[M, ...] | None
    """A winning line from the position, as moves the game engine accepts; ``None`` unless winnable."""
    states: int
    """States the search visited."""
    seconds: float
    """Wall-clock time of the search itself."""
    reason: str | None = None
    """Why the search stopped early (one of :data:`REASONS`) when the status is unknown."""
    table_entries: int = 0
    """Lost states held in the transposition table at the end."""
    table_bytes: int = 0
    """Final size of the transposition table."""

    @property
    def winnable(self) -> bool | None:
        """``True`` or ``False`` when decided, ``None`` when unknown."""
        return None if self.status == UNKNOWN else self.status == WINNABLE


__all__ = ["NOT_WINNABLE", "REASONS", "STATUSES", "UNKNOWN", "WINNABLE", "SolveResult"]
