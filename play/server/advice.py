"""Hints from a planner or the trained agent and verdicts from the exact solver, for a play session.

**Hints** come by default from the ``pimc`` planner (:mod:`agents.pimc`: samples of the unseen
stock cards, each solved exactly, for up to :data:`PLANNER_TIME` seconds); if no sample finishes
in time, or when the player asks for it (``source="agent"``), from the ``ppo`` player of
:mod:`agents.registry` for the game's variant, fed the environment's observation of the current
game (:func:`envs.pyramid.observation.observe`), which holds only what the player has seen: an
unseen stock card cannot influence a hint. When no checkpoint loads, the ``greedy`` player
answers and the hint says so. Two more sources read the expert-iteration network
(:mod:`agents.expert`): ``network``, the network alone (its most probable legal move), and
``guided``, ``guided-pimc`` (pimc whose exact ties go to the network) under the planner's budget.
Only variant 000 has a network checkpoint: without one, ``network`` falls back to the agent and
``guided`` to the planner; a guided search with no sample in time gives the network's move; the
hint says so.

**Verdicts** run :func:`agents.solver.play_verdict` (the seeds' wording rules: in variant 000
nothing is said while a stock card is unseen) in a worker thread; the native search releases
the GIL, so the server keeps answering. A verdict belongs to one position: when the position
changes, the running search is cancelled and its result discarded. With a
:class:`play.server.work.WorkLimiter` (``work``), a search first waits for a place (``checking``
meanwhile).
"""

from __future__ import annotations

import threading
import zlib
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agents.base import Choice, Player
from agents.pimc import GuidedPimcPlayer, PimcPlayer
from agents.planner import NO_SAMPLE
from agents.registry import make_player
from agents.solver import NOT_WINNABLE, UNSEEN_STOCK, WINNABLE, CancelToken, SearchLimits, play_verdict
from agents.solver.verdict import PlayVerdict
from agents.variants import Variant, find_variant
from envs.errors import MalformedInputError
from envs.pyramid import DRAW_MOVE, PyramidGame
from envs.pyramid.actions import action_to_move
from envs.pyramid.env import player_view
from play.server.pyramid_chance import pyramid_chance
from play.server.wording import describe_move, reason_ja
from play.server.work import WorkLimiter

PLANNER, AGENT = "planner", "agent"
"""Who gives a hint: the planner (``pimc``, ``hop``), or the trained agent (``ppo``, else ``greedy``)."""
NETWORK, GUIDED = "network", "guided"
"""Klondike's two more: the expert network alone, and the search it guides (``guided-ismcts``)."""
PLANNER_TIME = 0.8
"""Seconds a planner may think for one hint; it then answers with the samples it has."""
PLANNER_STATES = 1_000_000
PLANNER_THREADS = 2
PREFERRED_AGENT = "ppo"
FALLBACK_AGENT = "greedy"
HINT_SOURCES = (PLANNER, AGENT, NETWORK, GUIDED)
"""Every hint source (:data:`play.server.schemas.HintSource`)."""
PLANNER_LATE = "the planner found nothing within its time; the trained agent answers"
GUIDED_LATE = "the guided search found nothing within its time; the expert network answers"
HINT_OPTIONS: dict[str, dict[str, Any]] = {"ppo": {"deterministic": True}}
"""Options every hint player of that name gets: a ``ppo`` hint is the policy's most probable move."""


def build_hint_player(preferred: str, variant: Variant, options: dict[str, Any]) -> tuple[Player, str | None]:
    """``preferred`` for ``variant`` and ``None``; when it cannot be built, the fallback and why."""
    try:
        return make_player(preferred, variant, **{**HINT_OPTIONS.get(preferred, {}), **options}), None
    except Exception as exc:  # a missing or broken checkpoint, or no torch: fall back
        return make_player(FALLBACK_AGENT, variant), f"{preferred} unavailable: {exc}"


def check_source(source: str) -> None:
    """Refuse a hint source that is not one of :data:`HINT_SOURCES`."""
    if source not in HINT_SOURCES:
        raise MalformedInputError(f"hints come from one of {', '.join(HINT_SOURCES)}, not {source!r}")


def expert_network(variant: Variant, checkpoint: Any = None) -> tuple[Any, str | None]:
    """The expert network of ``variant`` (:class:`agents.expert.player.ExpertNetwork`), or ``None``
    and why not."""
    try:
        from agents.expert.player import ExpertNetwork

        return ExpertNetwork(variant, checkpoint), None
    except Exception as exc:  # no checkpoint for the variant, a broken one, or no torch
        return None, f"the expert network is unavailable: {exc}"



class HintAdvisor:
    """Hints from the ``pimc`` planner (default), from the trained agent (one player per variant,
    built on first use, ``ppo`` when its checkpoint loads, else ``greedy``), from the expert network
    or from the search it guides (``expert_checkpoints``: a network per variant key, default the
    shipped ones)."""

    def __init__(self, preferred: str = PREFERRED_AGENT,
                 options: dict[str, dict[str, Any]] | None = None, planner_time: float = PLANNER_TIME,
                 planner_threads: int = PLANNER_THREADS,
                 expert_checkpoints: dict[str, Any] | None = None) -> None:
        self.preferred = preferred
        self.planner_time, self.planner_threads = planner_time, planner_threads
        self.options = options or {}
        """Constructor options per variant key (e.g. a checkpoint path for ``pyramid-000``)."""
        self.expert_checkpoints = expert_checkpoints or {}
        self._players: dict[str, tuple[Player, str | None]] = {}
        self._networks: dict[str, tuple[Any, str | None]] = {}
        self._lock = threading.Lock()

    def network(self, variant_name: str) -> tuple[Any, str | None]:
        """The expert network of a variant, or ``None`` and why not (built on first use)."""
        variant = find_variant("pyramid", variant_name)
        with self._lock:
            if variant.key not in self._networks:
                checkpoint = self.expert_checkpoints.get(variant.key)
                self._networks[variant.key] = expert_network(variant, checkpoint)
            return self._networks[variant.key]

    def player(self, variant_name: str) -> tuple[Player, str | None]:
        """The hint player of a variant and, when it is the fallback, why the preferred one is not."""
        variant = find_variant("pyramid", variant_name)
        with self._lock:
            if variant.key not in self._players:
                self._players[variant.key] = build_hint_player(
                    self.preferred, variant, self.options.get(variant.key, {}))
            return self._players[variant.key]

    def planner_choice(self, game: PyramidGame, obs: np.ndarray, mask: np.ndarray,
                       network: Any = None) -> Choice | None:
        """The ``pimc`` planner's move within the time budget (``guided-pimc``'s with ``network``),
        or ``None`` if no sample finished."""
        variant, seed = find_variant("pyramid", game.variant), zlib.crc32(obs.tobytes())
        budget = {"time_limit": self.planner_time, "decision_states": PLANNER_STATES,
                  "threads": self.planner_threads}
        planner = (PimcPlayer(variant, seed=seed, **budget) if network is None
                   else GuidedPimcPlayer(variant, expert_network=network, seed=seed, **budget))
        choice = planner.plan(game, obs, mask)
        return None if choice.reason.startswith(NO_SAMPLE) else choice

    def hint(self, game: PyramidGame, source: str = PLANNER) -> dict[str, Any] | None:
        """The move of ``source`` (one of :data:`HINT_SOURCES`) for ``game`` from what the player
        can see, or ``None`` when none is legal; ``requested`` is ``source``, ``hint_source`` and
        ``agent`` who answered, ``fallback_reason`` why another did."""
        check_source(source)
        obs, mask, info = player_view(game)
        if not mask.any():
            return None
        asked, reasons = source, []
        network = None
        if source in (NETWORK, GUIDED):
            network, missing = self.network(game.variant)
            if network is None:
                reasons.append(missing)
                source = PLANNER if source == GUIDED else AGENT
        choice = None
        if source in (PLANNER, GUIDED):
            choice = self.planner_choice(game, obs, mask, network if source == GUIDED else None)
            agent, hint_source = ("pimc", PLANNER) if source == PLANNER else ("guided-pimc", GUIDED)
            if choice is None:
                reasons.append(PLANNER_LATE if source == PLANNER else GUIDED_LATE)
                source = AGENT if source == PLANNER else NETWORK
        if choice is None and source == NETWORK:
            probs, value = network.policy(obs, mask)
            legal = np.flatnonzero(mask)
            action = int(legal[np.argmax(probs[legal])])
            why = f"the network's pick ({probs[action]:.0%} likely; win chance {value:.0%})"
            choice = Choice(action, why)
            agent, hint_source = "expert-net", NETWORK
        if choice is None:
            player, down = self.player(game.variant)
            choice = player.choose(obs, mask, info)
            agent, hint_source = player.name, AGENT
            reasons += [down] if down else []
        fallback_reason = "; ".join(reasons) or None
        move = action_to_move(choice.action) if mask[choice.action] else DRAW_MOVE
        en, ja = describe_move(game, move)
        en, ja = f"{en[0].upper()}{en[1:]}.", f"{ja}のがおすすめです"
        return {
            "move": str(move), "places": list(move.places()),
            "kind": ["remove", "draw", "recycle"][move.kind],
            "agent": agent, "hint_source": hint_source, "fallback_reason": fallback_reason,
            "requested": asked,
            "reason": choice.reason, "reason_ja": reason_ja(choice.reason), "en": en, "ja": ja,
        }


    def chance(self, game: PyramidGame) -> dict[str, Any]:
        """The chance of clearing the pyramid from ``game`` as the player sees it
        (:func:`play.server.pyramid_chance.pyramid_chance`), under the planner's time and threads."""
        return pyramid_chance(game, time_limit=self.planner_time, threads=self.planner_threads)


VERDICT_TEXT = {
    "checking": ("Checking whether this position can be won…", "解けるか計算中…"),
    WINNABLE: ("A winning line exists from here.", "全消しの道があります"),
    NOT_WINNABLE: ("Not winnable from here: the solver proved that no line clears the pyramid.",
                   "この状態から全消しする手順はありません"),
    "unverified": ("Unverified: the search reached its limit before deciding. This is not a loss; "
                   "play on with the hint.",
                   "未確認：探索の上限までに確認できませんでした（解なしではありません）"),
    UNSEEN_STOCK: ("Some stock cards have not been seen yet: no verdict; hints advise from what you see.",
                   "山札にまだ見ていないカードがあるため、見えている範囲の助言だけを返します"),
}


def verdict_json(verdict: PlayVerdict, game: PyramidGame) -> dict[str, Any]:
    """What the page shows for a finished verdict of ``game``'s position."""
    if verdict.status == WINNABLE and verdict.line:
        key = WINNABLE
    elif verdict.status == NOT_WINNABLE:
        key = NOT_WINNABLE
    elif verdict.reason == UNSEEN_STOCK:
        key = UNSEEN_STOCK
    else:
        key = "unverified"
    en, ja = VERDICT_TEXT[key]
    out: dict[str, Any] = {"status": key, "en": en, "ja": ja, "reason": verdict.reason}
    if key == WINNABLE:
        first = verdict.line[0]
        step_en, step_ja = describe_move(game, first)
        out.update(first_step=str(first), first_step_places=list(first.places()),
                   first_step_en=f"Path to clear, first step: {step_en}.",
                   first_step_ja=f"全消しの道：最初の一手は{step_ja}",
                   line_length=len(verdict.line))
    if verdict.result is not None:
        out.update(states=verdict.result.states, seconds=verdict.result.seconds)
    return out


@dataclass
class VerdictJob:
    """One search for one position."""

    key: tuple[object, ...]
    token: CancelToken
    future: Future[Any]
    game: Any = field(repr=False)
    """The copy of the game the search ran on."""


def position_key(game: PyramidGame) -> tuple[object, ...]:
    """What a verdict depends on: the position and, in variant 000, whether all the stock was seen."""
    return (*game.key(), game.all_stock_seen())


class VerdictService:
    """Runs verdict searches in worker threads, one job per session at a time.

    A job is keyed by what its verdict depends on (:meth:`position_key`); asking again for the
    same key reuses it, a new key cancels the old search. The hooks below are Pyramid's;
    :class:`play.server.klondike_advice.KlondikeVerdictService` overrides them for Klondike.
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
        return position_key(game)

    def search(self, game: Any, token: CancelToken) -> Any:
        return play_verdict(game, limits=self.limits, cancel=token)

    def to_json(self, verdict: Any, game: Any) -> dict[str, Any]:
        return verdict_json(verdict, game)

    def checking_json(self) -> dict[str, Any]:
        en, ja = VERDICT_TEXT["checking"]
        return {"status": "checking", "en": en, "ja": ja, "reason": None}

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


__all__ = ["HINT_SOURCES", "HintAdvisor", "VerdictJob", "VerdictService", "check_source", "expert_network",
           "position_key", "verdict_json"]
