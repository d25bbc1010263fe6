"""Klondike hints from the bots, the trained agent or the expert network; verdicts from the solver.

**Hints.** This advisor decides only which source answers, the order in which the others stand in,
and the words; the planning is the bots' (:mod:`solitaire_rl.agents.planner`). Each game in play
keeps one bot per planning source (:class:`KeptBot`), told the moves played since its last hint or
taken up afresh where the game stands:

* ``commitment`` (the Klondike page's default): the commitment planner ``world-bandit``
  (:class:`solitaire_rl.agents.planner.commitment.CommitmentBot`, within the planner's time
  :data:`~solitaire_rl.play.server.advice.PLANNER_TIME`): it follows the line it chose, takes the free
  pass through the stock, and once every card is known follows the solver's winning line with no way
  back to a position met (:mod:`solitaire_rl.agents.planner.endgame`; issue 37: re-solving at each
  hint had shuttled a queen between its foundation and a column on deals 9 and 17). Its words come
  from its typed decision in both languages (:func:`commitment_words`). If it fails, the planner
  answers.
* ``planner``: the ``hop`` planner (:class:`solitaire_rl.agents.planner.hop.HopPlayer` as a bot,
  seeded by what the player sees, so the same position gets the same hint): samples of the
  face-down and unseen stock cards, each solved exactly, never leading back to a position met; it
  keeps its line between hints, the same endgame line once every card is known, and finds the way
  out when play keeps coming back to one position (:meth:`~solitaire_rl.agents.planner.hop.HopPlayer.step`,
  the answer ``looping`` when there is none). If no sample finishes in time, or when the player asks
  for it (``agent``), the ``ppo`` player for ``klondike-draw3`` answers (fallback ``greedy``; the
  hint says which answered).
* ``network``: the expert-iteration network alone (:mod:`solitaire_rl.agents.expert`, ``docs/expert.md``;
  its most probable move by :func:`~solitaire_rl.agents.planner.revisits.fresh_action`, as the ``ppo``
  hint; a few ms), and ``guided``: ``guided-ismcts`` (the planner's tree search with the network's
  policy as its prior) under the planner's budget, a bot of its own kept as the planner's. Without a
  network checkpoint, ``network`` falls back to the agent and ``guided`` to the planner; a guided
  search that finds nothing in time gives the network's move; the hint says so.

All are fed the environment's observation (:func:`solitaire_rl.envs.klondike.observer.observe`): face-down
and unseen stock cards are absent from it, so they cannot influence a hint. When moves remain but none
can make progress (the engine's exact check), the hint is the seed's notice instead of a move.

**Draw 1** (a game with ``draw_count`` 1): the commitment planner and ``hop`` (for
:data:`solitaire_rl.envs.spec.KLONDIKE_DRAW1`) and the solver serve it; the trained agent and the expert
network play draw 3 only, so a hint asked from ``agent``, ``network`` or ``guided`` is the
planner's and says so (``fallbacks`` ``["draw3_only"]``, :data:`DRAW3_ONLY`); with no sample in
time the ``greedy`` player answers (``planner_late``).

A ``ppo`` or ``network`` hint is the policy's most probable move among those leading to the position
met least often in the game's line of play (:func:`~solitaire_rl.agents.planner.revisits.fresh_action`),
so that a player who follows the hints is not led round in circles: the policy's most probable move
alone can move a card back and forth, or tap through the stock, for ever (following it on eval deals
100,001..100,100, 73 of 100 games were still going after 1,000 moves and 2 were won; with this rule 8
and 11: ``python benchmarks/klondike_hints.py --deals 100001-100100``).

**Verdicts** (seed 002, issues 8 and 51): the verdict says only what follows from what the player
knows. While a card is face down or a stock card unseen it says "not decided while cards are
hidden" whatever the full deal holds (issue 51: "a winning line exists" at a random deal's start
told what only the full deal tells, and its switch to "unknown" after a losing move gave the loss
away); the exceptions are a winnable deal at its start (proved when it was dealt, which its type
tells the player), no legal move and the no-progress check. Once every card is known the solver
decides: "a winning line exists" or "not winnable"; a search out of budget is "unknown", never
worded as a loss. Searches run in a
worker thread with the GIL released; a verdict belongs to one position and is cancelled and
discarded when the position changes.
"""

from __future__ import annotations

import threading
import weakref
import zlib
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from solitaire_rl.agents.base import Choice, Player
from solitaire_rl.agents.planner.hop import (
    DEFAULT_DECISION_STATES,
    DEFAULT_MAX_SAMPLES,
    ENDGAME_REASON,
    HopPlayer,
    HopStep,
    hop_values,
)
from solitaire_rl.agents.planner.knowledge import klondike_knowledge
from solitaire_rl.agents.planner.revisits import fresh_action
from solitaire_rl.agents.ppo import PpoPlayer
from solitaire_rl.agents.registry import make_player
from solitaire_rl.agents.solver import SearchLimits
from solitaire_rl.agents.solver.klondike import CancelToken, solve_klondike
from solitaire_rl.agents.solver.klondike_winnable import DRAW_COUNT
from solitaire_rl.agents.solver.result import NOT_WINNABLE, WINNABLE
from solitaire_rl.envs.errors import SolitaireError
from solitaire_rl.envs.klondike import DEAD_END, NO_PROGRESS, WIN, KlondikeGame, Move
from solitaire_rl.envs.klondike.actions import move_of
from solitaire_rl.envs.klondike.env import player_view
from solitaire_rl.envs.klondike.messages import Announcement
from solitaire_rl.envs.spec import find_game, klondike_spec
from solitaire_rl.play.server.advice import (
    AGENT,
    COMMITMENT,
    FALLBACK_AGENT,
    GUIDED,
    GUIDED_LATE,
    HINT_SOURCES,
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
from solitaire_rl.play.server.chance_words import chance_json, estimate_words
from solitaire_rl.play.server.hints import klondike_hint, lost_reason_fields, reason_fields
from solitaire_rl.play.server.klondike_session import move_source, move_target
from solitaire_rl.play.server.klondike_wording import describe_klondike_move

VARIANT = "klondike-draw3"
PLANNER_SEARCH = "hop"
"""The hint planner's search: ``hop``, or ``tree`` (the information-set tree search among its ties)."""
ENDGAME_STATES = 500_000
"""States the solver may search once every card is known (the chance, and whether a hint's position is
proved lost)."""
ENDGAME_TIME = 1.0
"""Seconds for the chance's search once every card is known."""
DRAW3_ONLY = {
    AGENT: "the trained agent plays draw 3 only; the planner answers",
    NETWORK: "the expert network plays draw 3 only; the planner answers",
    GUIDED: "the network-guided search plays draw 3 only (no expert network for draw 1); the planner answers",
}
"""Draw 1: why the planner answers a hint asked from a source trained for draw 3 only."""
DRAW1_PLANNER_LATE = ("the planner found nothing within its time; the simple player answers (no trained "
                      "agent plays draw 1)")
"""Draw 1: why the ``greedy`` player answers when no planner sample finished in time."""


LOST_HINT = ("No winning line from here: every card is known and no line wins. Undo, Restart or New deal.",
             "すべての札が見えていて、ここから勝つ手順はありません。戻す・最初から・新しい配りから選べます。")
"""What a hint says first once the verdict proves the position lost (issue 51: as Pyramid's)."""
LOSS_CHECK_TIME = 0.5
"""Seconds a hint's check that the verdict proves the position lost may take."""


def proved_lost(game: KlondikeGame) -> bool:
    """Whether the verdict proves ``game``'s position lost (every card known and no winning line, within
    :data:`LOSS_CHECK_TIME`); only then may a hint say so."""
    if not all_known(game):
        return False
    return solve_klondike(game, time_limit=LOSS_CHECK_TIME, max_states=ENDGAME_STATES).status == NOT_WINNABLE


COMMITMENT_AGENT = "world-bandit"
COMMITMENT_LATE = "the commitment planner found nothing; the planner answers"


@dataclass
class KeptBot:
    """A bot kept for one game in play and one hint source, and what of the game it has been told."""

    bot: Any
    """A bot on OpenSpiel's model: ``restart_at(game)``, ``step(observation, mask)``, and with
    :attr:`told`, ``inform(move)``."""
    lock: threading.Lock
    told: bool
    """Whether the moves played since its last answer are told to it one by one (``inform``: the
    commitment bot). Otherwise, unless its own move was played, it is taken up afresh where the game
    stands (``restart_at``: the hop planner, which counts every position the line met, as moves
    alone cannot show it)."""
    line: tuple[Move, ...] | None = None
    """The game's moves when it was last told of the game (``None``: not yet taken up)."""
    expected: Move | None = None
    """The move it last answered, which it assumes played (``None``: no move, or not hinted)."""

    def take_up(self, game: KlondikeGame) -> None:
        """Bring the bot to where ``game`` stands: told the moves played since, or taken up afresh
        when the game's line went back (undo) or elsewhere. Call with :attr:`lock` held."""
        history = tuple(game.history)
        known = self.line
        if known is None or history[:len(known)] != known:
            self.bot.restart_at(game)
        else:
            played = history[len(known):]
            own = self.expected is not None and played[:1] == (self.expected,)
            if self.told:
                for move in played[1:] if own else played:
                    self.bot.inform(move)
            elif not (own and len(played) == 1):
                self.bot.restart_at(game)
        self.line, self.expected = history, None


COMMITMENT_REASONS: dict[str, tuple[str, str]] = {
    "following": ("the next move of the line planned earlier", "前に選んだ手順の次の一手です"),
    "stock-pass": ("a free look through the stock: it costs nothing",
                   "山札をひと通り見ておきます（損はありません）"),
    "endgame-solved": ("every card is known: this move is on a winning line",
                       "すべての札が見えています：勝ち筋の一手です"),
    "forced": ("the only useful move", "できる手はこれだけです"),
    "only-move": ("the only legal move", "できる手はこれだけです"),
    "no-progress": ("a move that can still make progress (none of the guesses at the cards you have not "
                    "seen could be won; the game is not proved lost)",
                    "まだ前に進める手です（見えていない札の並びを試しても勝ち筋は見つかりませんでしたが、"
                    "負けと決まったわけではありません）"),
}
"""The bot's reason for each kind of :class:`~solitaire_rl.agents.planner.commitment.Decision` but
``planned`` (whose words carry its worlds), in a player's words in English and Japanese (issue 51: no
"commitment", "worlds" or "solver" on the main screen)."""
COMMITMENT_MOVE = ("the move the hint planned", "ヒントが選んだ手です")
"""The reason of a decision of a kind :data:`COMMITMENT_REASONS` does not know."""


def commitment_words(decision: Any) -> tuple[str, str]:
    """The bot's reason in both languages, written from its typed decision (issue 49: nothing parsed
    back): a planned commitment's worlds won, else its kind's words."""
    chosen = decision.chosen_candidate
    if decision.kind == "planned" and chosen is not None and chosen.worlds:
        return (f"wins in {chosen.won} of {chosen.worlds} guesses at the cards you have not seen",
                f"見えていない札の並びを {chosen.worlds} 通り試して {chosen.won} 通りで勝てる手です")
    return COMMITMENT_REASONS.get(decision.kind, COMMITMENT_MOVE)


WAY_OUT_WORDS = ("this position has come up before: this move leads on to something new",
                 "この局面は前にも出ています。この手から新しい展開につながります")
"""The planner's reason for a way out of a loop (a ``way-out`` :class:`HopStep`), in both languages."""


def looping_hint() -> dict[str, Any]:
    """The planner's word when every way on leads back where the game has been, again and again."""
    return {"kind": "looping", "en": LOOPING_TEXT[0], "ja": LOOPING_TEXT[1], "agent": "hop",
            "hint_source": PLANNER, "fallback_reason": None}


LOOPING_TEXT = ("You have been in this position several times already: no way forward was found that does "
                "not lead back here. Undo and try another line, or start a new deal.",
                "この局面はもう何度も出ています。ここから先に進む手が見つかりません。戻って別の手を試すか、"
                "新しいゲームを始めてください")


def no_progress_hint() -> dict[str, Any]:
    """The engine's word when moves remain but none can ever lead anywhere new (no advisor's)."""
    return {"kind": "no_progress", "en": Announcement.NO_PROGRESS.en, "ja": Announcement.NO_PROGRESS.ja}


GUIDED_AGENT = "guided-ismcts"
NETWORK_AGENT = "expert-net"


class KlondikeHintAdvisor:
    """Which source answers a Klondike hint, who stands in for it, and the words: the commitment bot,
    the ``hop`` planner and the network-guided search (bots kept per game), the trained agent (``ppo``
    when its checkpoint loads, else ``greedy``) and the expert network; players and the network are
    built on first use (``expert_checkpoint``: default the shipped one)."""

    def __init__(self, preferred: str = PREFERRED_AGENT, options: dict[str, Any] | None = None,
                 planner_time: float | None = PLANNER_TIME, planner_threads: int = PLANNER_THREADS,
                 planner_states: int = PLANNER_STATES, planner_search: str | None = None,
                 expert_checkpoint: str | Path | None = None,
                 commitment_options: dict[str, Any] | None = None) -> None:
        self.preferred = preferred
        self.commitment_options = dict(commitment_options or {})
        """Options of the commitment planner's bot beside the planner's time and threads (``max_worlds``;
        ``time_limit`` ``None`` with ``max_worlds``: a budget in worlds alone, the same on every machine)."""
        self.options = options or {}
        self.planner_time, self.planner_threads = planner_time, planner_threads
        self.planner_states, self.planner_search = planner_states, planner_search or PLANNER_SEARCH
        self.expert_checkpoint = expert_checkpoint
        self._player: tuple[Player, str | None] | None = None
        self._network: tuple[Any, str | None] | None = None
        self._lock = threading.Lock()
        self._bots: weakref.WeakKeyDictionary[KlondikeGame, dict[str, KeptBot]] = weakref.WeakKeyDictionary()
        """The bots of each game in play, by hint source (gone with its game)."""

    def player(self) -> tuple[Player, str | None]:
        """The hint player and, when it is the fallback, why the preferred one is not used."""
        with self._lock:
            if self._player is None:
                self._player = build_hint_player(self.preferred, find_game(VARIANT), self.options)
            return self._player

    def network(self) -> tuple[Any, str | None]:
        """The expert network (:class:`solitaire_rl.agents.expert.player.ExpertNetwork`), or ``None`` and why
        not."""
        with self._lock:
            if self._network is None:
                self._network = expert_network(find_game(VARIANT), self.expert_checkpoint)
            return self._network

    # ------------------------------------------------------------ the bots kept per game
    def kept_bot(self, source: str, game: KlondikeGame, owner: KlondikeGame | None = None,
                 network: Any = None) -> KeptBot:
        """The bot of ``source`` (``commitment``, ``planner`` or ``guided``, which needs ``network``) kept
        for ``owner`` (a session's game object; default ``game``, which may be a copy of it); a new one
        for a game it does not play. Bring it to where ``game`` stands (:meth:`KeptBot.take_up`) and
        ask it under its lock."""
        owner = game if owner is None else owner
        with self._lock:
            bots = self._bots.setdefault(owner, {})
            kept = bots.get(source)
            if kept is None or kept.bot.draw_count != game.draw_count:
                kept = bots[source] = self.new_bot(source, game.draw_count, network)
        return kept

    def new_bot(self, source: str, draw_count: int, network: Any = None) -> KeptBot:
        """A fresh bot of ``source`` for a game of ``draw_count``, with the planner's budget."""
        variant = klondike_spec(draw_count)
        if source == COMMITMENT:
            options = {"time_limit": self.planner_time, "threads": self.planner_threads,
                       **self.commitment_options}
            return KeptBot(make_player(COMMITMENT_AGENT, variant, **options), threading.Lock(), told=True)
        budget: dict[str, Any] = {"time_limit": self.planner_time, "max_states": self.planner_states,
                  "threads": self.planner_threads, "position_seeded": True}
        if source == GUIDED:  # GuidedIsmctsPlayer's settings, with the network loaded once
            bot = HopPlayer(variant, search="tree", prior="expert", expert_network=network, **budget)
        else:
            bot = HopPlayer(variant, search=self.planner_search, **budget)
        return KeptBot(bot, threading.Lock(), told=False)

    def planner_step(self, game: KlondikeGame, obs: np.ndarray, mask: np.ndarray,
                     owner: KlondikeGame | None = None, network: Any = None) -> HopStep:
        """The answer of the planner kept for the game (``network``: the guided search's)."""
        kept = self.kept_bot(PLANNER if network is None else GUIDED, game, owner, network)
        with kept.lock:
            kept.take_up(game)
            answer = kept.bot.step(obs, mask)
            if answer.choice is not None and answer.kind != "late":
                kept.expected = move_of(game, answer.choice.action)
        return answer

    # ------------------------------------------------------------ which source answers
    def hint(self, game: KlondikeGame, source: str = PLANNER, owner: KlondikeGame | None = None
             ) -> dict[str, Any] | None:
        """The move of ``source`` (one of :data:`HINT_SOURCES`) from what the player sees, the
        planner's word that play goes round in circles, or the no-progress notice, as
        :data:`solitaire_rl.play.server.hints.KlondikeHint` sends them; ``None`` if no move. The hint's
        ``requested`` is ``source``, its ``hint_source`` and ``agent`` who answered,
        ``fallback_reason`` why another did. ``owner``: the game in play whose bots answer (``game``
        may be a copy of it; default ``game`` itself)."""
        check_source(source)
        outcome = game.outcome()
        if outcome in (WIN, DEAD_END):
            return None
        if outcome == NO_PROGRESS:
            return klondike_hint(no_progress_hint())
        advice = self.advice(game, source, owner)
        if advice.get("kind") == "move" and advice.get("reason") != ENDGAME_REASON and proved_lost(game):
            advice = {**advice, "en": f"{LOST_HINT[0]} To play on: {advice['en']}",
                      "ja": f"{LOST_HINT[1]}続けるなら：{advice['ja']}", **lost_reason_fields()}
        return klondike_hint(advice)

    def advice(self, game: KlondikeGame, source: str, owner: KlondikeGame | None = None) -> dict[str, Any]:
        """The fields of :meth:`hint` for a game still in play where progress is possible (checked
        against the schema by :meth:`hint`)."""
        obs, mask, info = player_view(game)
        if game.draw_count != DRAW_COUNT:
            if source == COMMITMENT:  # the same bot plays draw 1; hop answers if it fails
                advice = self.commitment_hint(game, obs, mask, owner)
                if advice is not None:
                    return {**advice, "requested": source}
            return {**self.draw1_hint(game, obs, mask, info, source, owner), "requested": source}
        late: str | None = None
        fell: list[str] = []  # the fallbacks' codes, in order
        if source == COMMITMENT:
            advice = self.commitment_hint(game, obs, mask, owner)
            if advice is not None:
                return {**advice, "requested": source}
            late, fell, source = COMMITMENT_LATE, ["planner_late"], PLANNER  # then hop, then the agent
        if source in (NETWORK, GUIDED):
            network, missing = self.network()
            if network is not None:
                advice = self.guided_hint(game, obs, mask, network, owner=owner) if source == GUIDED else None
                if advice is not None:
                    return {**advice, "requested": source}
                late, fell = (GUIDED_LATE, ["guided_late"]) if source == GUIDED else (None, [])
                return {**self.network_hint(game, obs, mask, network, late), "fallbacks": fell,
                        "requested": source}
            fell = ["network_unavailable"]
            if source == NETWORK:
                return {**self.agent_hint(game, obs, mask, info, missing, fell), "requested": source}
            late = missing  # no network: the guided search's place goes to the planner
        if source in (PLANNER, GUIDED):
            advice = self.guided_hint(game, obs, mask, None, late, owner)
            if advice is not None:
                return {**advice, "fallbacks": fell, "requested": source}
            late = f"{late}; {PLANNER_LATE}" if late else PLANNER_LATE
            fell = [*fell, "planner_late"]
        return {**self.agent_hint(game, obs, mask, info, late, fell), "requested": source}

    def commitment_hint(self, game: KlondikeGame, obs: np.ndarray, mask: np.ndarray,
                        owner: KlondikeGame | None = None) -> dict[str, Any] | None:
        """The commitment planner's hint (``world-bandit``, within the planner's time) from the bot
        kept for the game, worded from its typed decision; ``None`` if the bot fails (the planner
        answers)."""
        kept = self.kept_bot(COMMITMENT, game, owner)
        with kept.lock:
            kept.take_up(game)
            try:
                decision = kept.bot.step(obs, mask)
            except SolitaireError:
                return None
            kept.expected = decision.move
        words = commitment_words(decision)  # the reason kept in the engine's words, the player's beside it
        reason = ENDGAME_REASON if decision.kind == "endgame-solved" else words[0]
        return self.move_hint(game, Choice(decision.action, reason), COMMITMENT_AGENT, COMMITMENT, None,
                              words)

    def draw1_hint(self, game: KlondikeGame, obs: np.ndarray, mask: np.ndarray, info: dict[str, Any],
                   source: str, owner: KlondikeGame | None = None) -> dict[str, Any]:
        """A draw-1 hint: the planner (``hop`` for draw 1; the solver's line once every card is
        known) answers every source, since the trained agent and the expert network play draw 3
        only (the hint says so: ``fallbacks`` ``["draw3_only"]``); when no sample finishes in
        time, the ``greedy`` player (``planner_late``)."""
        why = DRAW3_ONLY.get(source)
        fell = ["draw3_only"] if why else []
        advice = self.guided_hint(game, obs, mask, None, why, owner)
        if advice is not None:
            return {**advice, "fallback_reason": why, "fallbacks": fell}
        late = f"{why}; {DRAW1_PLANNER_LATE}" if why else DRAW1_PLANNER_LATE
        player = make_player(FALLBACK_AGENT, klondike_spec(game.draw_count))
        choice = player.choose(obs, mask, info)
        if not mask[choice.action]:
            choice = Choice(int(np.flatnonzero(mask)[0]), choice.reason)
        hint = self.move_hint(game, choice, player.name, AGENT, late)
        return {**hint, "fallbacks": [*fell, "planner_late"]}

    def guided_hint(self, game: KlondikeGame, obs: np.ndarray, mask: np.ndarray, network: Any,
                    fallback_reason: str | None = None, owner: KlondikeGame | None = None
                    ) -> dict[str, Any] | None:
        """The planner's hint (``network`` ``None``) or the guided search's, from the bot kept for the
        game (:meth:`planner_step`); ``None`` when the search found nothing in time."""
        agent, hint_source = ("hop", PLANNER) if network is None else (GUIDED_AGENT, GUIDED)
        answer = self.planner_step(game, obs, mask, owner, network)
        if answer.kind == "looping":
            return {**looping_hint(), "agent": agent, "hint_source": hint_source}
        if answer.kind == "late" or answer.choice is None:
            return None
        words = WAY_OUT_WORDS if answer.kind == "way-out" else None
        return self.move_hint(game, answer.choice, agent, hint_source, fallback_reason, words)

    def network_hint(self, game: KlondikeGame, obs: np.ndarray, mask: np.ndarray, network: Any,
                     fallback_reason: str | None = None) -> dict[str, Any]:
        """The expert network's most probable move among those leading to the position met least
        often in the game (:func:`fresh_action`); it reads the observation and mask only."""
        with self._lock:
            probs, value = network.policy(obs, mask)
        action, best = fresh_action(game, np.flatnonzero(mask), probs), int(np.argmax(probs))
        why = f"the network's pick ({probs[action]:.0%} likely; win chance {value:.0%})"
        if action != best:
            why += "; its first choice goes back to a position met before"
        return self.move_hint(game, Choice(action, why), NETWORK_AGENT, NETWORK, fallback_reason)

    def agent_hint(self, game: KlondikeGame, obs: np.ndarray, mask: np.ndarray, info: dict[str, Any],
                   late: str | None, fell: list[str]) -> dict[str, Any]:
        """The trained agent's hint (``ppo``, else ``greedy``); ``late`` and ``fell``: why others did
        not answer, in words and as fallback codes."""
        player, reason = self.player()
        if player.name == FALLBACK_AGENT:  # greedy remembers passes: a fresh one per hint
            player = make_player(FALLBACK_AGENT, find_game(VARIANT))
        with self._lock:
            if isinstance(player, PpoPlayer):
                probs = player.action_probabilities(obs, mask)
                action, best = fresh_action(game, np.flatnonzero(mask), probs), int(np.argmax(probs))
                why = f"the trained policy's pick ({probs[action]:.0%} likely)"
                if action != best:
                    why += "; its first choice goes back to a position met before"
                choice = Choice(action, why)
            else:
                choice = player.choose(obs, mask, info)
        if not mask[choice.action]:
            choice = Choice(int(np.flatnonzero(mask)[0]), choice.reason)
        reasons = "; ".join(r for r in (late, reason) if r)
        fell = [*fell, "agent_unavailable"] if reason else fell
        return {**self.move_hint(game, choice, player.name, AGENT, reasons or None), "fallbacks": fell}

    def chance(self, game: KlondikeGame) -> dict[str, Any]:
        """The chance of winning from ``game`` as the player sees it (:func:`klondike_chance`),
        under the planner's time and threads."""
        return klondike_chance(game, time_limit=self.planner_time, threads=self.planner_threads)

    @staticmethod
    def move_hint(game: KlondikeGame, choice: Choice, agent: str, source: str,
                  fallback_reason: str | None, words: tuple[str, str] | None = None) -> dict[str, Any]:
        """The hint of ``choice`` (a legal action) as the page shows it; ``words``: its reason in English
        and Japanese, from a typed decision (else the player's reason as the page words it)."""
        move = move_of(game, choice.action)
        en, ja = describe_klondike_move(game, move)
        reason = reason_fields(choice.reason) if words is None else {
            "reason": choice.reason, "reason_en": words[0], "reason_ja": words[1]}
        return {"kind": "move", "move": str(move), "from_place": move_source(move),
                "to_place": move_target(move, game),
                "agent": agent, "hint_source": source, "fallback_reason": fallback_reason,
                **reason, "progress": game.is_progress(move), "en": en, "ja": ja}


CHANCE_SAMPLES = DEFAULT_MAX_SAMPLES
"""Samples of the hidden cards a chance estimate draws (32, as a hint's)."""
CHANCE_STATES = DEFAULT_DECISION_STATES
"""States the estimate may spend over all its samples (the same answer on every machine)."""


def sampled_chance(share: float, won: int, unknown: int, samples: int) -> dict[str, Any]:
    """The estimate in a player's words, honest about what it rests on: the cards the player has seen,
    and guesses at where the hidden cards lie, each solved with every card known, so the share is an
    upper bound on a real player's chance ("at most about 60% (of 32 guesses at where the hidden cards
    lie, 19 can be won)"); guesses the search could not settle in time count as even chances (issue 51:
    not "sampled ... counted half"). No guess won is "very low", never "at most about 0%" nor a proof of
    a loss; every guess won is "high, but not certain" (:func:`estimate_words`)."""
    how_en, how_ja = estimate_words(share)
    en = f"Chance of winning from here, by the cards you have seen: {how_en} ("
    ja = f"ここから勝てる見込み（見えている札から）：{how_ja}（"
    if won:
        en += f"of {samples} guesses at where the hidden cards lie, {won} can be won"
        ja += f"見えない札の並びを {samples} 通り想像すると、{won} 通りで勝てます"
    else:
        en += f"none of {samples} guesses at where the hidden cards lie can be won"
        ja += f"見えない札の並びを {samples} 通り想像しても、勝てる並びはありません"
    if unknown:
        en += f"; {unknown} more could not be worked out in time and count as even chances"
        ja += f"。時間内に読み切れなかった {unknown} 通りは五分五分と数えました"
    if not won:
        en += "; this does not prove the game lost"
        ja += "。負けと決まったわけではありません"
    return chance_json(share, won, unknown, samples, "sampled", en + ")", ja + "）")


CHANCE_TEXT = {
    WIN: ("You have won this game.", "このゲームは勝ちました"),
    DEAD_END: ("Chance of winning from here: none, no legal move is left.",
               "ここから勝てる見込み：ありません（正しい手が残っていません）"),
    NO_PROGRESS: ("Chance of winning from here: none, no move can ever lead anywhere new.",
                  "ここから勝てる見込み：ありません（どの手も前に進みません）"),
    "certain_win": ("Chance of winning from here: certain, every card is known and a winning line exists.",
                    "ここから勝てる見込み：確実です（すべての札が見えていて、勝つ手順があります）"),
    "certain_loss": ("Chance of winning from here: none, every card is known and no winning line exists.",
                     "ここから勝てる見込み：ありません（すべての札が見えていて、勝つ手順がありません）"),
    "none": ("Chance of winning from here: no estimate, nothing was worked out in time; ask again.",
             "ここから勝てる見込み：時間内に試行が終わりませんでした。もう一度どうぞ"),
}


def klondike_chance(game: KlondikeGame, *, time_limit: float | None = PLANNER_TIME,
                    threads: int = PLANNER_THREADS, samples: int = CHANCE_SAMPLES,
                    max_states: int = CHANCE_STATES) -> dict[str, Any]:
    """The chance of winning from ``game`` as the player sees it (the ``ChanceAnswer`` body): the
    best legal move's share of the samples of the hidden cards in which it leaves a winnable
    game, a search out of budget counting half (:func:`solitaire_rl.agents.planner.hop.hop_values`, fed the
    observation only, seeded by it, so hidden cards cannot change the answer). A finished game
    needs no sampling; once every card is known the solver's answer is certain."""
    outcome = game.outcome()
    if outcome == WIN:
        return chance_json(1.0, 0, 0, 0, "over", *CHANCE_TEXT[WIN])
    if outcome in (DEAD_END, NO_PROGRESS):
        return chance_json(0.0, 0, 0, 0, "over", *CHANCE_TEXT[outcome])
    obs, mask, _ = player_view(game)
    knowledge = klondike_knowledge(obs, game.draw_count)
    if all_known(game):
        result = solve_klondike(knowledge.game, time_limit=ENDGAME_TIME, max_states=ENDGAME_STATES)
        if result.status == WINNABLE:
            return chance_json(1.0, 1, 0, 1, "certain", *CHANCE_TEXT["certain_win"])
        if result.status == NOT_WINNABLE:
            return chance_json(0.0, 0, 0, 1, "certain", *CHANCE_TEXT["certain_loss"])
    values = hop_values(knowledge, np.flatnonzero(mask), seed=zlib.crc32(obs.tobytes()), max_samples=samples,
                        max_states=max_states, time_limit=time_limit, threads=threads)
    if values.samples == 0:
        return chance_json(0.0, 0, 0, 0, "none", *CHANCE_TEXT["none"])
    shares = values.values
    best = int(np.argmax(shares))
    return sampled_chance(float(min(1.0, shares[best])), int(values.won[best]), int(values.unknown[best]),
                          int(values.samples))


VERDICT_TEXT = {
    "checking": ("Checking whether this position can be won…", "勝てるか確認中…"),
    WINNABLE: ("A winning line exists from here (every card is known).",
               "ここから勝つ手順があります（すべての札が見えています）"),
    "winnable_deal": ("A winning line exists: a winnable deal, checked knowing every card when dealt.",
                      "勝つ手順があります（勝てる配りです。配るときに、すべての札で確かめてあります）"),
    "no_legal_move": ("Not winnable: no legal move is left.", "正しい手が残っていないので勝てません"),
    "no_progress": ("Not winnable: moves remain, but none of them can ever lead anywhere new.",
                    "手は残っていますが、どれを選んでも前に進まないので勝てません"),
    "proved": ("Not winnable from here: every card is known and no line wins.",
               "すべての札が見えていて、勝つ手順はありません"),
    "hidden": ("Not decided while cards are hidden: this line speaks once every card is known.",
               "裏向きの札や未見の山札があるうちは判定しません（すべての札が見えたら判定します）"),
    "unknown": ("Not decided: the search reached its limit first (this is not a loss); play on.",
                "まだ判定できません（探索の上限に達しました。負けではありません）"),
}


@dataclass(frozen=True)
class KlondikeVerdict:
    status: str
    """``winnable``, ``not_winnable`` or ``unknown``."""
    key: str
    """Which text: a key of :data:`VERDICT_TEXT`."""
    reason: str | None = None
    states: int | None = None
    seconds: float | None = None


def all_known(game: KlondikeGame) -> bool:
    """Whether no card is hidden from the player: none face down, every stock card seen."""
    return game.face_down_count() == 0 and not game.unseen_stock()


def klondike_verdict(game: KlondikeGame, limits: SearchLimits,
                     cancel: CancelToken | None = None) -> KlondikeVerdict:
    """What may be said about ``game`` (see the module docstring)."""
    outcome = game.outcome()
    if outcome == WIN:
        return KlondikeVerdict(WINNABLE, WINNABLE, "won")
    if outcome == DEAD_END:
        return KlondikeVerdict(NOT_WINNABLE, "no_legal_move", "no legal move")
    if outcome == NO_PROGRESS:
        return KlondikeVerdict(NOT_WINNABLE, "no_progress", "no progress possible")
    if not all_known(game):  # only the full deal could tell more: said the same way whatever it holds
        return KlondikeVerdict("unknown", "hidden", "hidden cards")
    return solver_verdict(game, limits, cancel)


def solver_verdict(game: KlondikeGame, limits: SearchLimits,
                   cancel: CancelToken | None = None) -> KlondikeVerdict:
    """The solver's verdict on ``game`` as a whole deal (every card, hidden ones included); a loss is
    said only when every card is known. :func:`klondike_verdict` asks it once nothing is hidden."""
    result = solve_klondike(game, limits=limits, cancel=cancel)
    if result.status == WINNABLE:
        return KlondikeVerdict(WINNABLE, WINNABLE, None, result.states, result.seconds)
    if result.status == NOT_WINNABLE and all_known(game):
        return KlondikeVerdict(NOT_WINNABLE, "proved", "every card known", result.states, result.seconds)
    reason = "hidden cards" if result.status == NOT_WINNABLE else (result.reason or "budget")
    return KlondikeVerdict("unknown", "unknown", reason, result.states, result.seconds)


def proved_at_start(game: KlondikeGame) -> KlondikeVerdict | None:
    """The verdict of a winnable deal (``klondike-winnable-v1-N``, or the daily deal, which is one of
    them: :mod:`solitaire_rl.agents.solver.daily`) at its start, proved when it was dealt
    (:mod:`solitaire_rl.agents.solver.klondike_winnable`); ``None`` for any other deal or position.

    The proof is for draw 3 and holds for draw 1 too: a draw of 3 (or of the 1 or 2 cards left)
    is that many draws of 1, which leave the same stock and waste, and every other move is the
    same in both, so a draw-3 winning line becomes a draw-1 one (``tests/test_klondike_draw1_api.py``
    replays the line so expanded)."""
    deal = game.deal
    if deal is None or deal.deal_id is None or deal.deal_id.kind not in ("winnable", "daily"):
        return None
    if game.key() != KlondikeGame(deal, draw_count=game.draw_count).key():
        return None
    return KlondikeVerdict(WINNABLE, "winnable_deal", "winnable deal")


def verdict_json(verdict: KlondikeVerdict) -> dict[str, Any]:
    en, ja = VERDICT_TEXT[verdict.key]
    return {"status": verdict.status, "basis": verdict.key, "en": en, "ja": ja, "reason": verdict.reason,
            "states": verdict.states, "seconds": verdict.seconds}


def position_key(game: KlondikeGame) -> tuple[object, ...]:
    """What a verdict depends on: the position, the foundation records and what is known."""
    return (game.key(), tuple(game.best), game.seen)


class KlondikeVerdictService(VerdictService):
    """The play server's verdict jobs (:class:`solitaire_rl.play.server.advice.VerdictService`) for
    Klondike."""

    thread_name_prefix = "klondike-verdict"

    def position_key(self, game: KlondikeGame) -> tuple[object, ...]:
        return position_key(game)

    def search(self, game: KlondikeGame, token: CancelToken) -> KlondikeVerdict:
        return klondike_verdict(game, self.limits, token)

    def start(self, game: KlondikeGame, token: CancelToken) -> Future[Any]:
        """As :meth:`VerdictService.start`, but a winnable deal at its start needs no search: its
        verdict is ready at once (:func:`proved_at_start`)."""
        proved = proved_at_start(game)
        if proved is None:
            return super().start(game, token)
        future: Future[Any] = Future()
        future.set_result(proved)
        return future

    def to_json(self, verdict: KlondikeVerdict, game: KlondikeGame) -> dict[str, Any]:
        return verdict_json(verdict)

    def checking_json(self) -> dict[str, Any]:
        en, ja = VERDICT_TEXT["checking"]
        return {"status": "checking", "basis": None, "en": en, "ja": ja, "reason": None}


__all__ = [
    "HINT_SOURCES",
    "VERDICT_TEXT",
    "WAY_OUT_WORDS",
    "KeptBot",
    "KlondikeHintAdvisor",
    "KlondikeVerdict",
    "KlondikeVerdictService",
    "all_known",
    "commitment_words",
    "klondike_chance",
    "klondike_verdict",
    "no_progress_hint",
    "position_key",
    "proved_at_start",
    "proved_lost",
    "solver_verdict",
    "verdict_json",
]
