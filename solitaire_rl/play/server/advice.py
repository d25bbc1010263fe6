"""What the hints and verdicts of both games share: the hint sources, the planner's budget, the
players' fallbacks, and the verdict jobs.

**Hints** come from one of :data:`HINT_SOURCES`: the planner (default; up to :data:`PLANNER_TIME`
seconds), the trained agent (``ppo``; :data:`FALLBACK_AGENT` when no checkpoint loads:
:func:`build_hint_player`), the expert-iteration network alone, or the search it guides
(:func:`expert_network`). Each game's advisor says which player answered and why another did:
:class:`solitaire_rl.play.server.pyramid_advice.PyramidHintAdvisor`,
:class:`solitaire_rl.play.server.klondike_advice.KlondikeHintAdvisor`; the hint's shape is
:data:`solitaire_rl.play.server.hints.Hint`.

**Verdicts** (:class:`VerdictService`) run the game's exact solver in a worker thread; the native
search releases the GIL, so the server keeps answering. A verdict belongs to one position: when
the position changes, the running search is cancelled and its result discarded. With a
:class:`solitaire_rl.play.server.work.WorkLimiter` (``work``), a search first waits for a place (``checking``
meanwhile).
"""

from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import Any

from solitaire_rl.agents.base import Player
from solitaire_rl.agents.registry import make_player
from solitaire_rl.agents.solver import CancelToken, SearchLimits
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.spec import GameSpec
from solitaire_rl.play.server.work import WorkLimiter

PLANNER, AGENT = "planner", "agent"
"""Who gives a hint: the planner (``pimc``, ``hop``), or the trained agent (``ppo``, else ``greedy``)."""
NETWORK, GUIDED = "network", "guided"
"""Two more: the expert network alone, and the search it guides (``guided-pimc``, ``guided-ismcts``)."""
PLANNER_TIME = 0.8
"""Seconds a planner may think for one hint; it then answers with the samples it has."""
PLANNER_STATES = 1_000_000
PLANNER_THREADS = 2
PREFERRED_AGENT = "ppo"
FALLBACK_AGENT = "greedy"
COMMITMENT = "commitment"
"""Klondike: the commitment planner (``world-bandit``, :mod:`solitaire_rl.agents.planner.commitment`), the
Klondike page's default (issue 51); Pyramid asked for it answers with its planner."""
HINT_SOURCES = (PLANNER, AGENT, NETWORK, GUIDED, COMMITMENT)
"""Every hint source (:data:`solitaire_rl.play.server.hints.HintSource`)."""
PLANNER_LATE = "the planner found nothing within its time; the trained agent answers"
GUIDED_LATE = "the guided search found nothing within its time; the expert network answers"
HINT_OPTIONS: dict[str, dict[str, Any]] = {"ppo": {"deterministic": True}}
"""Options every hint player of that name gets: a ``ppo`` hint is the policy's most probable move."""


def build_hint_player(preferred: str, variant: GameSpec,
                      options: dict[str, Any]) -> tuple[Player, str | None]:
    """``preferred`` for ``variant`` and ``None``; when it cannot be built, the fallback and why."""
    try:
        return make_player(preferred, variant, **{**HINT_OPTIONS.get(preferred, {}), **options}), None
    except Exception as exc:  # a missing or broken checkpoint, or no torch: fall back
        return make_player(FALLBACK_AGENT, variant), f"{preferred} unavailable: {exc}"


def check_source(source: str) -> None:
    """Refuse a hint source that is not one of :data:`HINT_SOURCES`."""
    if source not in HINT_SOURCES:
        raise MalformedInputError(f"hints come from one of {', '.join(HINT_SOURCES)}, not {source!r}")


def expert_network(variant: GameSpec, checkpoint: Any = None) -> tuple[Any, str | None]:
    """The expert network of ``variant`` (:class:`solitaire_rl.agents.expert.player.ExpertNetwork`), or
    ``None``
    and why not."""
    try:
        from solitaire_rl.agents.expert.player import ExpertNetwork

        return ExpertNetwork(variant, checkpoint), None
    except Exception as exc:  # no checkpoint for the variant, a broken one, or no torch
        return None, f"the expert network is unavailable: {exc}"


@dataclass
class VerdictJob:
    """One search for one position."""

    key: tuple[object, ...]
    token: CancelToken
    future: Future[Any]
    game: Any = field(repr=False)
    """The copy of the game the search ran on."""


class VerdictService:
    """Runs verdict searches in worker threads, one job per session at a time.

    A job is keyed by what its verdict depends on (:meth:`position_key`); asking again for the
    same key reuses it, a new key cancels the old search. Each game gives the hooks:
    :class:`solitaire_rl.play.server.pyramid_advice.PyramidVerdictService`,
    :class:`solitaire_rl.play.server.klondike_advice.KlondikeVerdictService`.
    """

    thread_name_prefix = "verdict"

    def __init__(self, limits: SearchLimits | None = None, workers: int = 2,
                 work: WorkLimiter | None = None) -> None:
        self.limits = limits or SearchLimits(time_limit=10.0, max_memory_bytes=256 << 20)
        self.work = work
        """The server's bound on planner and solver work (``None``: only ``workers`` bounds it)."""
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix=self.thread_name_prefix)
        self._jobs: dict[str, VerdictJob] = {}
        self._lock = threading.Lock()

    # ------------------------------------------------------------ per-game hooks
    def position_key(self, game: Any) -> tuple[object, ...]:
        """What a verdict of ``game`` depends on: a job is kept while this stays the same."""
        raise NotImplementedError

    def search(self, game: Any, token: CancelToken) -> Any:
        """The verdict of ``game`` (a copy), searched in a worker; ``token`` cancels it."""
        raise NotImplementedError

    def to_json(self, verdict: Any, game: Any) -> dict[str, Any]:
        """What the page shows for a finished ``verdict`` of ``game``'s position."""
        raise NotImplementedError

    def checking_json(self) -> dict[str, Any]:
        """What the page shows while the search runs."""
        raise NotImplementedError

    # ------------------------------------------------------------ the jobs
    def run(self, game: Any, token: CancelToken) -> Any:
        """:meth:`search` in a worker, once :attr:`work` has a place for it; ``None`` if cancelled first."""
        work = self.work
        if work is None:
            return self.search(game, token)
        if not work.wait_verdict_slot(lambda: token.cancelled):
            return None
        try:
            return self.search(game, token)
        finally:
            work.release(verdict=True)

    def request(self, session: Any) -> VerdictJob:
        """Start a search for the session's position unless one is running or done for it."""
        key = self.position_key(session.game)
        with self._lock:
            job = self._jobs.get(session.session_id)
            if job is not None and job.key == key:
                return job
            if job is not None:
                job.token.cancel()
            game = session.game.copy()
            token = CancelToken()
            job = self._jobs[session.session_id] = VerdictJob(key, token, self.start(game, token), game)
            return job

    def start(self, game: Any, token: CancelToken) -> Future[Any]:
        """The future verdict of ``game`` (a copy): a search in the worker pool."""
        return self._pool.submit(self.run, game, token)

    def discard(self, session_id: str) -> None:
        """Cancel and forget the session's search (its position changed, or it was evicted)."""
        with self._lock:
            job = self._jobs.pop(session_id, None)
        if job is not None:
            job.token.cancel()

    def current(self, session: Any, wait: float = 0.0) -> dict[str, Any] | None:
        """The verdict of the session's current position: finished, ``checking``, or ``None`` if not asked.

        Waits up to ``wait`` seconds for a running search, without holding the session's lock.
        """
        with session.lock:
            key = self.position_key(session.game)
        with self._lock:
            job = self._jobs.get(session.session_id)
        if job is None or job.key != key:
            return None
        try:
            verdict = job.future.result(timeout=wait) if wait > 0 else (
                job.future.result() if job.future.done() else None)
        except FutureTimeout:
            verdict = None
        if verdict is None:
            return self.checking_json()
        return self.to_json(verdict, job.game)

    def shutdown(self) -> None:
        with self._lock:
            jobs, self._jobs = list(self._jobs.values()), {}
        for job in jobs:
            job.token.cancel()
        self._pool.shutdown(wait=True, cancel_futures=True)


__all__ = ["AGENT", "COMMITMENT", "FALLBACK_AGENT", "GUIDED", "GUIDED_LATE", "HINT_SOURCES", "NETWORK",
           "PLANNER", "PLANNER_LATE", "PLANNER_STATES", "PLANNER_THREADS", "PLANNER_TIME", "PREFERRED_AGENT",
           "VerdictJob", "VerdictService", "build_hint_player", "check_source", "expert_network"]
