"""One player's game on the server: the engine, the selection, the counts and the last message.

The page sends intents (tap a card, draw, recycle, undo, redo, restart, clear); :class:`PlaySession`
turns them into engine moves with the seeds' tap rules, so the page holds no rule logic:

* a tap selects a usable card and marks its partners; a second tap on it deselects it;
* a King goes with one tap; a partner making 13 removes the pair;
* a second card that does not make 13 is refused with the seed's message in variant 000 and
  takes the selection in variant 001;
* a covered card is refused, naming the cards still on it.

A refused intent raises :class:`ActionRefused` and changes nothing (selection included).
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from envs.cards import rank
from envs.errors import IllegalMoveError, MalformedInputError, SolitaireError
from envs.pyramid import DRAW_MOVE, RECYCLE_MOVE, STOCK, Move, PyramidGame, Refusal
from envs.pyramid.layout import COVERED_BY, NUM_PYRAMID
from play.server.wording import RANK_SHORT, RANK_WORDS, place_label, place_label_ja, spoken, spoken_ja

DEAL_TYPES = ("random", "winnable")
VARIANT_DEAL_TYPES = {"000": ("random",), "001": DEAL_TYPES}
"""Seed 000 has one deal type; seed 001 adds the winnable one."""


@dataclass(frozen=True)
class Notice:
    """A message for the player: a code, English and the seeds' Japanese, and its kind."""

    code: str
    en: str
    ja: str
    kind: str = "error"
    """``"error"`` (an action was refused) or ``"info"``."""


NOTHING_TO_UNDO = Notice("NOTHING_TO_UNDO", "There is no move to undo.", "戻せる手がありません")
NOTHING_TO_REDO = Notice("NOTHING_TO_REDO", "There is no move to redo.", "やり直せる手がありません")
STALE_GAME = Notice("STALE_GAME", "This game was changed in another tab or window, so this action was not "
                    "carried out: this page now shows the latest position.",
                    "この局は別のタブかウィンドウで進められていたため、この操作は行いませんでした。最新の局面を表示します")


def refusal_notice(refusal: Refusal, detail: tuple[str, str] = ("", "")) -> Notice:
    """The notice of an engine refusal, with an optional detail ``(English, Japanese)`` appended."""
    ja = f"{refusal.ja}。{detail[1]}" if detail[1] else refusal.ja
    return Notice(refusal.name, f"{refusal.en} {detail[0]}".strip(), ja)


class ActionRefused(SolitaireError):
    """An intent the rules refuse now; the session is unchanged."""

    def __init__(self, notice: Notice) -> None:
        super().__init__(notice.en)
        self.notice = notice


def covering_places(game: PyramidGame, pos: int) -> list[int]:
    """The cards still lying on pyramid position ``pos``, directly or further down, nearest first."""
    found: list[int] = []
    frontier = [q for q in COVERED_BY[pos] if game.card_at(q) is not None]
    while frontier:
        q = frontier.pop(0)
        if q not in found:
            found.append(q)
            frontier.extend(r for r in COVERED_BY[q] if game.card_at(r) is not None)
    return found


def covered_detail(game: PyramidGame, pos: int) -> tuple[str, str]:
    """Why a covered card cannot be chosen, naming the cards on it, in English and Japanese
    (``The 7 of hearts (row 7, position 3) is on top of it: remove it first.``)."""
    direct = [q for q in COVERED_BY[pos] if game.card_at(q) is not None]
    en_cards = " and ".join(f"the {spoken(game.card_at(q))} ({place_label(q)})" for q in direct)
    ja_cards = "と".join(f"{spoken_ja(game.card_at(q))}（{place_label_ja(q)}）" for q in direct)
    if len(direct) == 1:
        return (f"{en_cards[0].upper()}{en_cards[1:]} is on top of it: remove it first.",
                f"{ja_cards}が上に重なっています。先に取り除くと選べます")
    return (f"{en_cards[0].upper()}{en_cards[1:]} are on top of it: remove both first.",
            f"{ja_cards}が上に重なっています。2 枚とも取り除くと選べます")


GameT = TypeVar("GameT")
SelectionT = TypeVar("SelectionT")


@dataclass
class GameSession(Generic[GameT, SelectionT]):
    """A game and everything the page needs besides it, the same for every game (counts never go down).

    It carries out undo, redo, restart, clear and the restoring of a save. ``game`` is an engine
    with ``push``, ``pop``, ``redo``, ``restart``, ``moves_played``, ``redo_moves`` and the
    ``seen`` bitmask; ``selected`` is a place in the game's own terms.
    """

    game: GameT
    deal_type: str = "random"
    session_id: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    selected: SelectionT | None = None
    operations: int = 0
    """Accepted actions that changed the board: moves, undos and redos (never goes down)."""
    hints: int = 0
    notice: Notice | None = None
    hint: dict | None = None
    revision: int = 0
    """Bumped by every change to the game (move, undo, redo, restart, restore): a request that names
    an older one comes from a page showing a stale game (another tab moved meanwhile)."""
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False)

    def undo(self) -> None:
        if not self.game.moves_played:
            raise ActionRefused(NOTHING_TO_UNDO)
        self.game.pop()
        self._changed()

    def redo(self) -> None:
        if not self.game.redo_moves:
            raise ActionRefused(NOTHING_TO_REDO)
        self.game.redo()
        self._changed()

    def restart(self) -> None:
        """Back to the deal's first position (the engine's restart: what was seen stays seen)."""
        if not self.game.moves_played:
            self.clear()
            return
        self.game.restart()
        self._changed()

    def clear(self) -> None:
        """Esc: drop the selection, the hint and the message."""
        self.selected = None
        self.hint = None
        self.notice = None

    def history_action(self, kind: str) -> None:
        """One of the intents ``undo``, ``redo``, ``restart`` and ``clear``, by name."""
        {"undo": self.undo, "redo": self.redo, "restart": self.restart, "clear": self.clear}[kind]()

    def restore(self, history: list[Any], redo: list[Any], seen: list[int]) -> None:
        """Replay a saved game: ``history`` played, then ``redo`` (next first) played and undone."""
        game = self.game
        try:
            for move in [*history, *redo]:
                game.push(move)
        except IllegalMoveError as exc:
            raise MalformedInputError(f"the saved game does not replay: {exc}") from None
        for _ in redo:
            game.pop()
        for card in seen:
            game.seen |= 1 << card
        self.revision += 1

    def check_revision(self, revision: int | None) -> None:
        """Refuse (:data:`STALE_GAME`, nothing changed) a request made on an older ``revision`` of the
        game; ``None`` (a client that sends none) is not checked."""
        if revision is not None and revision != self.revision:
            raise ActionRefused(STALE_GAME)

    def _play(self, move: Any) -> None:
        self.game.push(move)
        self._changed()

    def _changed(self) -> None:
        self.operations += 1
        self.revision += 1
        self.selected = None
        self.hint = None
        self.notice = None


class PlaySession(GameSession[PyramidGame, int]):
    """A Pyramid game: ``selected`` is a place number (seed 001: ``operations`` never goes down)."""

    @property
    def variant(self) -> str:
        return self.game.variant

    # ------------------------------------------------------------ queries
    def partners(self, place: int) -> list[int]:
        """Usable places whose card makes 13 with the card at ``place`` (none for a King)."""
        card = self.game.card_at(place)
        if card is None or rank(card) == 13:
            return []
        need = 13 - rank(card)
        return [q for q in self.game.usable_places() if q != place and rank(self.game.card_at(q)) == need]

    # ------------------------------------------------------------ intents
    def tap(self, place: int) -> None:
        """Tap the card at ``place`` (a pyramid position, ``STOCK`` or ``WASTE``)."""
        game = self.game
        if game.is_won():
            self._refuse(refusal_notice(Refusal.GAME_WON))
        card = game.card_at(place)
        if card is None:
            self._refuse(refusal_notice(Refusal.NO_CARD))
        if place == STOCK and not game.stock_top_playable:
            self._refuse(refusal_notice(Refusal.STOCK_TOP_UNUSABLE))
        if place < NUM_PYRAMID and not game.is_available(place):
            self._refuse(refusal_notice(Refusal.COVERED, covered_detail(game, place)))
        if rank(card) == 13:
            self._play(Move.remove(place))
            return
        if self.selected is None or self.selected not in game.usable_places():
            self._select(place)
            return
        if self.selected == place:
            self.selected = None
            self.notice = None
            return
        other = game.card_at(self.selected)
        if rank(other) + rank(card) == 13:
            self._play(Move.remove(self.selected, place))
        elif game.stock_top_playable:
            self._refuse(refusal_notice(Refusal.NOT_THIRTEEN))
        else:
            self._select(place)

    def play(self, move: Move) -> None:
        """Play a move given whole (a hint or a solver step); refused moves change nothing."""
        reason = self.game.refusal(move)
        if reason is not None:
            detail = ("", "")
            if reason == Refusal.COVERED:
                pos = next(p for p in move.places() if p < NUM_PYRAMID and not self.game.is_available(p))
                detail = covered_detail(self.game, pos)
            self._refuse(refusal_notice(reason, detail))
        self._play(move)

    def draw(self) -> None:
        self.play(DRAW_MOVE)

    def recycle(self) -> None:
        self.play(RECYCLE_MOVE)

    # ------------------------------------------------------------ helpers
    def _select(self, place: int) -> None:
        self.selected = place
        self.hint = None  # a hint for another card would be stale
        card = self.game.card_at(place)
        need = 13 - rank(card)
        word = RANK_WORDS[need]
        article = "an" if word in ("Ace", "8") else "a"
        self.notice = Notice("SELECTED", f"Selected the {spoken(card)} ({place_label(place)}): it needs "
                             f"{article} {word}.",
                             f"{spoken_ja(card)}（{place_label_ja(place)}）を選択中：相手の数字は "
                             f"{RANK_SHORT[need]} です", kind="info")

    def _refuse(self, notice: Notice) -> None:
        raise ActionRefused(notice)


class SessionStore:
    """Sessions by ID, at most ``capacity`` of them: the least recently used is evicted."""

    def __init__(self, capacity: int = 256) -> None:
        if capacity < 1:
            raise ValueError("a session store holds at least one session")
        self.capacity = capacity
        self._sessions: OrderedDict[str, PlaySession] = OrderedDict()
        self._lock = threading.Lock()
        self.evicted: list[PlaySession] = []

    def add(self, session: PlaySession) -> list[PlaySession]:
        """Store ``session``; return the sessions evicted to make room."""
        evicted = []
        with self._lock:
            self._sessions[session.session_id] = session
            while len(self._sessions) > self.capacity:
                evicted.append(self._sessions.popitem(last=False)[1])
        return evicted

    def get(self, session_id: str) -> PlaySession | None:
        with self._lock:
            session = self._sessions.get(session_id)
            if session is not None:
                self._sessions.move_to_end(session_id)
            return session

    def __len__(self) -> int:
        return len(self._sessions)

    def __contains__(self, session_id: object) -> bool:
        return session_id in self._sessions


__all__ = [
    "DEAL_TYPES", "NOTHING_TO_REDO", "NOTHING_TO_UNDO", "STALE_GAME", "VARIANT_DEAL_TYPES", "ActionRefused",
    "GameSession", "Notice", "PlaySession", "SessionStore", "covered_detail", "covering_places",
    "refusal_notice",
]
