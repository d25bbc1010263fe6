"""One bound on the planner and solver work the play server does at once, across both games.

Hints (planner, guided search, network, agent) and verdict searches run in threads; without a
bound, many players asking at once would start one search each (threads, CPU and the solver's
table per search). :class:`WorkLimiter` holds ``slots`` places (default: one per CPU, at least 2):

* a hint takes a free place; when none is free it joins a short first-come-first-served queue
  (at most ``max_waiting`` hints, default four per place) and waits up to ``queue_wait`` seconds
  (default 1.5) for its turn, so that a player who asks again and again is not passed over by
  luckier ones. A hint that finds the queue full, or is still waiting after ``queue_wait``, is
  refused with :class:`ServerBusy` (503 ``BUSY`` with ``Retry-After``; the game is unchanged).
  The queue bounds the request threads that wait;
* a verdict search waits in its worker for a place (the page reads ``checking`` meanwhile, as it
  does for any running search), after every queued hint, and gives up when its position changes.
  Verdicts hold at most ``slots - 1`` places (at least 1), so that a long search never leaves
  hints without one.
"""

from __future__ import annotations

import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager

RETRY_AFTER = 1
"""Seconds a refused hint is told to wait (the ``Retry-After`` header)."""
QUEUE_WAIT = 1.5
"""Seconds a hint waits in the queue for a place before it is refused."""
WAITING_PER_SLOT = 4
"""Hints that may wait in the queue, per place."""


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

    def __init__(self, slots: int | None = None, retry_after: int = RETRY_AFTER,
                 queue_wait: float = QUEUE_WAIT, max_waiting: int | None = None) -> None:
        self.slots = default_slots() if slots is None else slots
        if self.slots < 1:
            raise ValueError("the work limiter needs at least one place")
        if queue_wait < 0 or (max_waiting is not None and max_waiting < 0):
            raise ValueError("the queue's wait and length cannot be negative")
        self.verdict_slots = max(1, self.slots - 1)
        self.retry_after = retry_after
        self.queue_wait = queue_wait
        """Seconds a hint may wait for a place (0: refused at once when none is free)."""
        self.max_waiting = WAITING_PER_SLOT * self.slots if max_waiting is None else max_waiting
        """Most hints waiting at once; one more is refused at once."""
        self._queue: deque[object] = deque()
        """The waiting hints' tickets, first come first."""
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

    @property
    def waiting(self) -> int:
        """Hints waiting in the queue now."""
        return len(self._queue)

    def acquire_hint(self) -> bool:
        """Take a place for a hint: at once if one is free and nobody waits, else after the hints
        queued before it, within :attr:`queue_wait` seconds; ``False`` (refused) if not."""
        with self._cond:
            if self.busy < self.slots and not self._queue:
                self.busy += 1
                return True
            if self.queue_wait <= 0 or len(self._queue) >= self.max_waiting:
                self.refused += 1
                return False
            ticket = object()
            self._queue.append(ticket)
            deadline = time.monotonic() + self.queue_wait
            try:
                while True:
                    if self._queue[0] is ticket and self.busy < self.slots:
                        self.busy += 1
                        return True
                    left = deadline - time.monotonic()
                    if left <= 0:
                        self.refused += 1
                        return False
                    self._cond.wait(left)
            finally:
                self._queue.remove(ticket)
                self._cond.notify_all()

    def release(self, verdict: bool = False) -> None:
        """Give back a place (``verdict``: one taken by :meth:`wait_verdict_slot`)."""
        with self._cond:
            self.busy -= 1
            if verdict:
                self.verdicts -= 1
            self._cond.notify_all()

    @contextmanager
    def slot(self) -> Iterator[None]:
        """A place for one hint (:meth:`acquire_hint`), given back after; :class:`ServerBusy` when
        none came in time."""
        if not self.acquire_hint():
            raise ServerBusy(self.retry_after)
        try:
            yield
        finally:
            self.release()

    def wait_verdict_slot(self, cancelled: Callable[[], bool], poll: float = 0.05) -> bool:
        """Wait for a place for a verdict search; ``False`` (no place taken) once ``cancelled()``."""
        with self._cond:
            while self.busy >= self.slots or self.verdicts >= self.verdict_slots or self._queue:
                if cancelled():
                    return False
                self._cond.wait(poll)
            if cancelled():
                return False
            self.busy += 1
            self.verdicts += 1
            return True


__all__ = ["QUEUE_WAIT", "RETRY_AFTER", "ServerBusy", "WorkLimiter", "default_slots"]
