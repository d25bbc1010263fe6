"""What a player's game on the server is, for both games: the session, its store, notices and refusals.

:class:`GameSession` holds a game (an engine with ``push``, ``pop``, ``redo``, ``restart``,
``moves_played``, ``redo_moves`` and the ``seen`` bitmask) with the selection, the counts, the last
message and the hint, and carries out what both games do alike: undo, redo, restart, clear, the
revision that tells a stale tab, and the replay of a save. Each game's session adds its own intents:
:class:`solitaire_rl.play.server.pyramid_session.PyramidSession`,
:class:`solitaire_rl.play.server.klondike_session.KlondikeSession`.
:class:`SessionStore` keeps the sessions of one game, least recently used evicted.

A refused intent raises :class:`ActionRefused` and changes nothing (selection included).
"""

from __future__ import annotations

import hashlib
import secrets
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from solitaire_rl.envs.errors import IllegalMoveError, MalformedInputError, SolitaireError


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


def refusal_notice(refusal: Any, detail: tuple[str, str] = ("", "")) -> Notice:
    """The notice of an engine refusal (:class:`solitaire_rl.envs.pyramid.Refusal` or
    :class:`solitaire_rl.envs.klondike.Refusal`: a
    ``name``, ``en`` and ``ja``), with an optional detail ``(English, Japanese)`` appended."""
    ja = f"{refusal.ja}。{detail[1]}" if detail[1] else refusal.ja
    return Notice(refusal.name, f"{refusal.en} {detail[0]}".strip(), ja)


MAX_HINTS_SHOWN = 4096
"""Hints a session remembers (the oldest forgotten past this many): more than a long game asks for."""


def line_digests(moves: Sequence[Any]) -> list[bytes]:
    """A digest of every line of play along ``moves``: ``[0]`` the empty line (the deal), ``[i]`` the
    first ``i`` moves. Two positions share a digest only when the same moves led to them, so a hint
    shown at one is found again after undo, redo and restart, and never at another."""
    digest = b""
    out = [digest]
    for move in moves:
        digest = hashlib.blake2b(digest + str(move).encode(), digest_size=16).digest()
        out.append(digest)
    return out


class ActionRefused(SolitaireError):
    """An intent the rules refuse now; the session is unchanged."""

    def __init__(self, notice: Notice) -> None:
        super().__init__(notice.en)
        self.notice = notice


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
    hint: dict[str, Any] | None = None
    """The hint shown, as the page reads it (one of :data:`solitaire_rl.play.server.hints.Hint`, dumped);
    cleared by
    every change."""
    hints_shown: OrderedDict[bytes, set[str]] = field(default_factory=OrderedDict, repr=False)
    """The moves the hints shown named, by the line of play they were shown at (:func:`line_digests`):
    what tells the analysis which moves were the hint's (issue 51, defect 4)."""
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

    def note_hint(self, hint: dict[str, Any] | None) -> None:
        """Remember a move hint shown at the current line of play (other kinds name no move)."""
        if not hint or hint.get("kind") != "move" or not hint.get("move"):
            return
        key = line_digests(self.game.history)[-1]
        self.hints_shown.setdefault(key, set()).add(self.canonical_move(str(hint["move"])))
        self.hints_shown.move_to_end(key)
        while len(self.hints_shown) > MAX_HINTS_SHOWN:
            self.hints_shown.popitem(last=False)

    def hinted_moves(self, line: Sequence[Any] | None = None) -> list[int]:
        """The 0-based indices of the moves of ``line`` (default: the moves played, then the moves to
        redo, next first) that a hint shown where each was played had named."""
        if not self.hints_shown:
            return []
        moves = list(line) if line is not None else [*self.game.history, *self.game.redo_moves]
        digests = line_digests(moves)
        return [i for i, move in enumerate(moves) if str(move) in self.hints_shown.get(digests[i], ())]

    def restore_hinted(self, hinted: Sequence[int]) -> None:
        """A save's hinted moves (indices into its moves played then to redo, as :meth:`hinted_moves`
        gives them) remembered as hints shown; an index out of the save's moves is malformed."""
        moves = [*self.game.history, *self.game.redo_moves]
        bad = [i for i in hinted if not 0 <= i < len(moves)]
        if bad:
            raise MalformedInputError(f"hinted move {bad[0]} is not one of the save's {len(moves)} moves")
        digests = line_digests(moves)
        for i in sorted(set(hinted)):
            self.hints_shown.setdefault(digests[i], set()).add(str(moves[i]))

    def canonical_move(self, text: str) -> str:
        """A move's text as the engine writes it (a game's session reads it with its own parser)."""
        return text

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


SessionT = TypeVar("SessionT", bound=GameSession)


class SessionStore(Generic[SessionT]):
    """One game's sessions by ID, at most ``capacity`` of them: the least recently used is evicted."""

    def __init__(self, capacity: int = 256) -> None:
        if capacity < 1:
            raise ValueError("a session store holds at least one session")
        self.capacity = capacity
        self._sessions: OrderedDict[str, SessionT] = OrderedDict()
        self._lock = threading.Lock()
        self.evicted: list[SessionT] = []

    def add(self, session: SessionT) -> list[SessionT]:
        """Store ``session``; return the sessions evicted to make room."""
        evicted = []
        with self._lock:
            self._sessions[session.session_id] = session
            while len(self._sessions) > self.capacity:
                evicted.append(self._sessions.popitem(last=False)[1])
        return evicted

    def get(self, session_id: str) -> SessionT | None:
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
    "MAX_HINTS_SHOWN", "NOTHING_TO_REDO", "NOTHING_TO_UNDO", "STALE_GAME", "ActionRefused", "GameSession",
    "Notice", "SessionStore", "line_digests", "refusal_notice",
]
