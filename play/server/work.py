"""One bound on the planner and solver work the play server does at once, across both games.

Hints (planner, guided search, network, agent) and verdict searches run in threads; without a
bound, many players asking at once would start one search each (threads, CPU and the solver's
table per search). :class:`WorkLimiter` holds ``slots`` places (default: one per CPU, at least 2):

* a hint takes a place or is refused at once with :class:`ServerBusy` (503 ``BUSY`` with
  ``Retry-After``; the game is unchanged), so that no request thread waits on the planner;
* a verdict search waits in its worker for a place (the page reads ``checking`` meanwhile, as it
  does for any running search) and gives up when its position changes. Verdicts hold at most
  ``slots - 1`` places (at least 1), so that a long search never leaves hints without one.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

RETRY_AFTER = 1
"""Seconds a refused hint is told to wait (the ``Retry-After`` header)."""


def default_slots() -> int:
    """One place per CPU, at least 2."""
    return max(2, os.cpu_count() or 2)


class ServerBusy(Exception):
    """Every place for planner work is taken: 503 ``BUSY`` with ``Retry-After``; nothing changed."""

    def __init__(self, retry_after: int = RETRY_AFTER) -> None:
        super().__init__(f"busy: retry after {retry_after} s")
        self.retry_after = retry_after


class WorkLimiter:
    """At most ``slots`` hints and verdict searches at once (see the module docstring)."""

    def __init__(self, slots: int | None = None, retry_after: int = RETRY_AFTER) -> None:
        self.slots = default_slots() if slots is None else slots
        if self.slots < 1:
            raise ValueError("the work limiter needs at least one place")
        self.verdict_slots = max(1, self.slots - 1)
        self.retry_after = retry_after
        self.busy = 0
        """Places taken now."""
        self.verdicts = 0
        """Places taken by verdict searches now."""
        self.refused = 0
        """Hints refused since the start."""
        self._cond = threading.Condition()

    def try_acquire(self) -> bool:
        """Take a place if one is free (a hint); ``False`` if not."""
        with self._cond:
            if self.busy >= self.slots:
                self.refused += 1
                return False
            self.busy += 1
            return True

    def release(self, verdict: bool = False) -> None:
        """Give back a place (``verdict``: one taken by :meth:`wait_verdict_slot`)."""
        with self._cond:
            self.busy -= 1
            if verdict:
                self.verdicts -= 1
            self._cond.notify_all()

    @contextmanager
    def slot(self) -> Iterator[None]:
        """A place for one hint, given back after; :class:`ServerBusy` when none is free."""
        if not self.try_acquire():
            raise ServerBusy(self.retry_after)
        try:
            yield
        finally:
            self.release()

    def wait_verdict_slot(self, cancelled: Callable[[], bool], poll: float = 0.05) -> bool:
        """Wait for a place for a verdict search; ``False`` (no place taken) once ``cancelled()``."""
        with self._cond:
            while self.busy >= self.slots or self.verdicts >= self.verdict_slots:
                if cancelled():
                    return False
                self._cond.wait(poll)
            if cancelled():
                return False
            self.busy += 1
            self.verdicts += 1
            return True


__all__ = ["RETRY_AFTER", "ServerBusy", "WorkLimiter", "default_slots"]
