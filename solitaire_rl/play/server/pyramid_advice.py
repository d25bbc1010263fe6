"""Pyramid hints from a planner, the trained agent or the expert network, and verdicts from the exact solver.

**Hints** come by default from the ``pimc`` planner (:mod:`solitaire_rl.agents.planner.pimc`: samples of the
unseen
stock cards, each solved exactly, for up to :data:`~solitaire_rl.play.server.advice.PLANNER_TIME` seconds); if
no
sample finishes in time, or when the player asks for it (``source="agent"``), from the ``ppo`` player of
:mod:`solitaire_rl.agents.registry` for the game's variant, fed the environment's observation of the current
game (:func:`solitaire_rl.envs.pyramid.observation.observe`), which holds only what the player has seen: an
unseen stock card cannot influence a hint. When no checkpoint loads, the ``greedy`` player
answers and the hint says so. Two more sources read the expert-iteration network
(:mod:`solitaire_rl.agents.expert`): ``network``, the network alone (its most probable legal move), and
``guided``, ``guided-pimc`` (pimc whose exact ties go to the network) under the planner's budget.
Only variant 000 has a network checkpoint: without one, ``network`` falls back to the agent and
``guided`` to the planner; a guided search with no sample in time gives the network's move; the
hint says so.

**Verdicts** run :func:`solitaire_rl.agents.solver.play_verdict` (the seeds' wording rules: in variant 000
nothing is said while a stock card is unseen) in a worker thread; the native search releases
the GIL, so the server keeps answering (:class:`solitaire_rl.play.server.advice.VerdictService`'s jobs). A
verdict belongs to one position: when the position changes, the running search is cancelled and
its result discarded.
"""

from __future__ import annotations

import threading
import zlib
from typing import Any

import numpy as np

from solitaire_rl.agents.base import Choice, Player
from solitaire_rl.agents.planner import NO_SAMPLE
from solitaire_rl.agents.planner.pimc import GuidedPimcPlayer, PimcPlayer
from solitaire_rl.agents.solver import (
    NOT_WINNABLE,
    UNSEEN_STOCK,
    WINNABLE,
    CancelToken,
    SearchLimits,
    play_verdict,
)
from solitaire_rl.agents.solver.verdict import PlayVerdict
from solitaire_rl.envs.pyramid import DRAW_MOVE, PyramidGame
from solitaire_rl.envs.pyramid.actions import action_to_move
from solitaire_rl.envs.pyramid.env import player_view
from solitaire_rl.envs.spec import find_game, spec_of
from solitaire_rl.play.server.advice import (
    AGENT,
    COMMITMENT,
    GUIDED,
    GUIDED_LATE,
    NETWORK,
    PLANNER,
    PLANNER_LATE,
    PLANNER_STATES,
    PLANNER_THREADS,
    PLANNER_TIME,
    PREFERRED_AGENT,
    VerdictService,
    build_hint_player,
    check_source,
    expert_network,
)
from solitaire_rl.play.server.hints import lost_reason_fields, pyramid_hint, reason_fields
from solitaire_rl.play.server.pyramid_chance import pyramid_chance
from solitaire_rl.play.server.pyramid_wording import describe_move


class PyramidHintAdvisor:
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
        variant = find_game("pyramid", variant_name)
        with self._lock:
            if variant.key not in self._networks:
                checkpoint = self.expert_checkpoints.get(variant.key)
                self._networks[variant.key] = expert_network(variant, checkpoint)
            return self._networks[variant.key]

    def player(self, variant_name: str) -> tuple[Player, str | None]:
        """The hint player of a variant and, when it is the fallback, why the preferred one is not."""
        variant = find_game("pyramid", variant_name)
        with self._lock:
            if variant.key not in self._players:
                self._players[variant.key] = build_hint_player(
                    self.preferred, variant, self.options.get(variant.key, {}))
            return self._players[variant.key]

    def planner_choice(self, game: PyramidGame, obs: np.ndarray, mask: np.ndarray,
                       network: Any = None) -> Choice | None:
        """The ``pimc`` planner's move within the time budget (``guided-pimc``'s with ``network``),
        or ``None`` if no sample finished."""
        variant, seed = spec_of(game), zlib.crc32(obs.tobytes())
        budget = {"time_limit": self.planner_time, "decision_states": PLANNER_STATES,
                  "threads": self.planner_threads}
        planner = (PimcPlayer(variant, seed=seed, **budget) if network is None
                   else GuidedPimcPlayer(variant, expert_network=network, seed=seed, **budget))
        choice = planner.plan(game, obs, mask)
        return None if choice.reason.startswith(NO_SAMPLE) else choice

    def hint(self, game: PyramidGame, source: str = PLANNER) -> dict[str, Any] | None:
        """The move of ``source`` (one of :data:`~solitaire_rl.play.server.advice.HINT_SOURCES`) for ``game``
        from
        what the player can see, as :class:`solitaire_rl.play.server.hints.PyramidMoveHint` sends it, or
        ``None``
        when none is legal; ``requested`` is ``source``, ``hint_source`` and ``agent`` who answered,
        ``fallback_reason`` why another did."""
        check_source(source)
        obs, mask, info = player_view(game)
        if not mask.any():
            return None
        asked, reasons, fallbacks = source, [], []
        if source == COMMITMENT:  # the commitment planner plays Klondike only: the planner answers
            reasons.append(KLONDIKE_ONLY)
            fallbacks.append("klondike_only")
            source = PLANNER
        network = None
        if source in (NETWORK, GUIDED):
            network, missing = self.network(game.variant)
            if network is None:
                reasons.append(missing)
                fallbacks.append("network_unavailable")
                source = PLANNER if source == GUIDED else AGENT
        choice = None
        if source in (PLANNER, GUIDED):
            choice = self.planner_choice(game, obs, mask, network if source == GUIDED else None)
            agent, hint_source = ("pimc", PLANNER) if source == PLANNER else ("guided-pimc", GUIDED)
            if choice is None:
                reasons.append(PLANNER_LATE if source == PLANNER else GUIDED_LATE)
                fallbacks.append("planner_late" if source == PLANNER else "guided_late")
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
            if down:
                reasons.append(down)
                fallbacks.append("agent_unavailable")
        fallback_reason = "; ".join(reasons) or None
        move = action_to_move(choice.action) if mask[choice.action] else DRAW_MOVE
        en, ja = describe_move(game, move)
        en, ja = f"{en[0].upper()}{en[1:]}.", f"{ja}のがおすすめです"
        reasons_shown = reason_fields(choice.reason)
        if proved_lost(game):  # issue 51: a proved loss is said, not "Draw a card" through passes
            en = f"{LOST_HINT[0]} To play on: {en}"
            ja = f"{LOST_HINT[1]}続けるなら：{ja}"
            reasons_shown.update(lost_reason_fields())  # never "the unseen cards will decide" beside it
        return pyramid_hint({
            "kind": "move", "move": str(move), "places": list(move.places()),
            "move_kind": ["remove", "draw", "recycle"][move.kind],
            "agent": agent, "hint_source": hint_source, "fallback_reason": fallback_reason,
            "fallbacks": fallbacks, "requested": asked, **reasons_shown, "en": en, "ja": ja,
        })


    def chance(self, game: PyramidGame) -> dict[str, Any]:
        """The chance of clearing the pyramid from ``game`` as the player sees it
        (:func:`solitaire_rl.play.server.pyramid_chance.pyramid_chance`), under the planner's time and
        threads."""
        return pyramid_chance(game, time_limit=self.planner_time, threads=self.planner_threads)


VERDICT_TEXT = {
    "checking": ("Checking whether this position can be won…", "解けるか計算中…"),
    WINNABLE: ("A line that clears the pyramid exists from here (you have seen every card).",
               "ここから全消しの道があります（山札もすべて見ています）"),
    NOT_WINNABLE: ("Not winnable from here: no line clears the pyramid (you have seen every card).",
                   "この状態から全消しする手順はありません（山札もすべて見ています）"),
    "unverified": ("Unverified: the search reached its limit before deciding. This is not a loss; "
                   "play on with the hint.",
                   "未確認：探索の上限までに確認できませんでした（解なしではありません）"),
    UNSEEN_STOCK: ("Some stock cards have not been seen yet: whether the pyramid can be cleared is said "
                   "once you have seen them all.",
                   "山札にまだ見ていないカードがあります。全消しできるかどうかは、山札をすべて見てからお知らせします"),
}
"""What the verdict line says, by its status, once it speaks from cards the player has seen (issue 51:
each line says what it knows, after its answer: a phone shows two lines of it)."""
WHOLE_DEAL_TEXT = {
    WINNABLE: ("A line that clears the pyramid exists (knowing every card, the unseen stock's order too).",
               "全消しの道があります（まだ見ていない山札の並びも含め、すべてのカードで確かめました）"),
    NOT_WINNABLE: ("Not winnable from here (knowing every card, the unseen stock's order too).",
                   "この状態から全消しする手順はありません（まだ見ていない山札の並びも含め、すべてのカードで"
                   "確かめました）"),
}
"""Variant 001's verdict while stock cards are unseen: the solver's answer on the whole deal (seed 001),
said as such, so that it never reads as disagreeing with the chance, which knows only what the player
has seen (issue 51: "at most about 80%" under "A winning line exists")."""


KLONDIKE_ONLY = "the commitment planner plays Klondike only; the planner answers"
LOST_HINT = ("No line clears the pyramid from here (proved): Undo, Restart or New deal.",
             "ここから全消しする手順はありません（確認済み）。戻す・最初から・新しい局から選べます。")
"""What a hint says first once the verdict proves the position lost."""
LOSS_CHECK = SearchLimits(time_limit=0.5)
"""The budget of a hint's check that the verdict proves the position lost."""


def proved_lost(game: PyramidGame) -> bool:
    """Whether the verdict the seeds allow (:func:`play_verdict`: in variant 000 only once every stock
    card has been seen) proves ``game``'s position lost, within :data:`LOSS_CHECK`."""
    return play_verdict(game.copy(), limits=LOSS_CHECK).status == NOT_WINNABLE


def verdict_json(verdict: PlayVerdict, game: PyramidGame) -> dict[str, Any]:
    """What the page shows for a finished verdict of ``game``'s position: a decided one says whether it
    knows only cards the player has seen or, in variant 001, the whole deal (:data:`WHOLE_DEAL_TEXT`)."""
    if verdict.status == WINNABLE and verdict.line:
        key = WINNABLE
    elif verdict.status == NOT_WINNABLE:
        key = NOT_WINNABLE
    elif verdict.reason == UNSEEN_STOCK:
        key = UNSEEN_STOCK
    else:
        key = "unverified"
    en, ja = (WHOLE_DEAL_TEXT if key in WHOLE_DEAL_TEXT and not game.all_stock_seen() else VERDICT_TEXT)[key]
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


def position_key(game: PyramidGame) -> tuple[object, ...]:
    """What a verdict depends on: the position and, in variant 000, whether all the stock was seen."""
    return (*game.key(), game.all_stock_seen())



class PyramidVerdictService(VerdictService):
    """The play server's verdict jobs (:class:`solitaire_rl.play.server.advice.VerdictService`) for Pyramid:
    the
    seeds' wording rules of :func:`solitaire_rl.agents.solver.play_verdict`."""

    def position_key(self, game: PyramidGame) -> tuple[object, ...]:
        return position_key(game)

    def search(self, game: PyramidGame, token: CancelToken) -> PlayVerdict:
        return play_verdict(game, limits=self.limits, cancel=token)

    def to_json(self, verdict: PlayVerdict, game: PyramidGame) -> dict[str, Any]:
        return verdict_json(verdict, game)

    def checking_json(self) -> dict[str, Any]:
        en, ja = VERDICT_TEXT["checking"]
        return {"status": "checking", "en": en, "ja": ja, "reason": None}


__all__ = ["LOST_HINT", "VERDICT_TEXT", "WHOLE_DEAL_TEXT", "PyramidHintAdvisor", "PyramidVerdictService",
           "position_key", "proved_lost", "verdict_json"]
