"""The route plumbing both games share: the game endpoints, the 404 for an unknown game, the pages.

Pyramid (:mod:`solitaire_rl.play.server.app`, ``/api/games``) and Klondike
(:mod:`solitaire_rl.play.server.klondike_api`,
``/api/klondike/games``) have the same endpoints; each game supplies its request models, how a
body becomes a session and how an action is carried out, and :func:`game_router` declares:

* ``POST {prefix}`` (201): a new session, stored (evicted sessions lose their verdict jobs);
* ``GET {prefix}/{id}``: the state; ``POST {prefix}/{id}/actions``: one intent, refused (409
  ``STALE_GAME``, nothing changed) when it names a ``revision`` the game has moved on from;
* ``POST {prefix}/{id}/hint?source=planner|agent|network|guided``: advice from the planner
  (default: it searches for up to about a second), the trained agent, the expert network or the
  search it guides, kept only if the position did not change; another source is a 422; when the
  server's planner work is at its bound (:class:`solitaire_rl.play.server.work.WorkLimiter`), 503 ``BUSY``
  with
  ``Retry-After`` and the game unchanged (:func:`server_busy`);
* ``POST {prefix}/{id}/chance``: the chance of winning from the position as the player sees it
  (``ChanceAnswer``, the game unchanged; 503 ``BUSY`` as for a hint);
* ``POST {prefix}/{id}/verdict`` (202) starts a verdict, ``GET {prefix}/{id}/verdict?wait=`` reads it.

An unknown session ID raises :class:`UnknownGame`: 404 ``UNKNOWN_GAME`` (:func:`unknown_game`).
"""

# No ``from __future__ import annotations`` here: FastAPI reads the endpoints' annotations, which
# name each game's request models, when the routes are declared.

import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, JSONResponse
from pydantic import BaseModel

from solitaire_rl.envs.deals import DEAL_NUMBERS
from solitaire_rl.play.server.advice import VerdictService
from solitaire_rl.play.server.hints import HintSource
from solitaire_rl.play.server.openapi_links import game_links
from solitaire_rl.play.server.schemas import ERROR_RESPONSES, ChanceAnswer, ErrorBody, VerdictAnswer
from solitaire_rl.play.server.session import GameSession, SessionStore
from solitaire_rl.play.server.work import ServerBusy, WorkLimiter

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
"""The pages: plain HTML, CSS and JavaScript, served as they are."""

SessionT = TypeVar("SessionT", bound=GameSession)


class UnknownGame(Exception):
    """No session by that ID (never created, or evicted to make room)."""


def error_response(status: int, code: str, message: str, message_ja: str = "") -> JSONResponse:
    """An error in the API's shape: ``{"error": code, "message": English, "message_ja": Japanese}``."""
    return JSONResponse({"error": code, "message": message, "message_ja": message_ja}, status_code=status)


async def unknown_game(_: Request, exc: Exception) -> JSONResponse:
    """The exception handler for :class:`UnknownGame`: 404 ``UNKNOWN_GAME``."""
    return error_response(404, "UNKNOWN_GAME", "No such game on this server (it may have been closed to "
                          "make room): start a new deal or reload your saved game.",
                          "このゲームはサーバーにありません")


async def deal_out_of_range(_: Request, exc: Exception) -> JSONResponse:
    """The handler for :class:`solitaire_rl.play.server.deal_numbers.DealOutOfRange`: 422
    ``DEAL_OUT_OF_RANGE``."""
    return error_response(422, "DEAL_OUT_OF_RANGE", str(exc), getattr(exc, "ja", ""))


async def server_busy(_: Request, exc: Exception) -> JSONResponse:
    """The exception handler for :class:`solitaire_rl.play.server.work.ServerBusy`: 503 ``BUSY`` with
    ``Retry-After``."""
    retry = exc.retry_after if isinstance(exc, ServerBusy) else 1
    response = error_response(503, "BUSY", f"The server is busy with other players' hints: ask again in "
                              f"{retry} s. Your game is unchanged.",
                              f"他のプレイヤーのヒントを計算中です。{retry} 秒後にもう一度どうぞ"
                              "（ゲームはそのままです）")
    response.headers["Retry-After"] = str(retry)
    return response


BUSY_RESPONSE: dict[int | str, dict[str, Any]] = {503: {
    "model": ErrorBody,
    "description": "BUSY: the planner work is at its bound; ask again after Retry-After seconds "
                   "(nothing changed)"}}
"""The hint endpoints' busy answer in the OpenAPI schema."""


def static_page(name: str) -> FileResponse:
    """A page from :data:`STATIC_DIR`, never cached (it names the current scripts)."""
    return FileResponse(STATIC_DIR / name, headers={"Cache-Control": "no-store"})


def new_deal_number() -> int:
    """A random deal number for a new game."""
    return secrets.randbelow(DEAL_NUMBERS)


def resume(session: SessionT, body: Any, parse_move: Callable[[str], Any]) -> SessionT:
    """``session`` with the body's save replayed (``history``, ``redo`` next first, ``seen``), if any,
    and the moves the save says were the hint's (``hinted``) remembered as such."""
    if body.history or body.redo or body.seen:
        session.restore([parse_move(m) for m in body.history], [parse_move(m) for m in body.redo], body.seen)
    if body.hinted:
        session.restore_hinted(body.hinted)
    return session


class GameServer:
    """One game's server state and what its endpoints do, once they have their input.

    A subclass is a dataclass with ``sessions``, ``hints`` (``hint(game)``: advice or ``None``;
    ``chance(game)``: the ``ChanceAnswer`` body) and
    ``verdicts``, and defines :meth:`state`. Every session has ``lock``, ``game`` (with ``copy``
    and ``key``), ``hint``, ``hints`` and ``selected``.
    """

    sessions: SessionStore
    hints: Any
    verdicts: VerdictService
    work: WorkLimiter | None = None
    """The bound on planner and solver work, shared by both games (:meth:`use_work`); ``None``: none."""
    hint_clears_notice: ClassVar[bool] = False
    """Whether a hint taken also clears the session's message (Klondike's page)."""

    def state(self, session: Any) -> dict[str, Any]:
        """The whole state of ``session`` as the page renders it, with its current verdict."""
        raise NotImplementedError

    def use_work(self, work: WorkLimiter | None) -> None:
        """Bound this server's hints and verdict searches by ``work`` (shared with the other game's)."""
        self.work = self.verdicts.work = work

    def session(self, session_id: str) -> Any:
        """The session by ID; :class:`UnknownGame` (404) if there is none."""
        session = self.sessions.get(session_id)
        if session is None:
            raise UnknownGame(session_id)
        return session

    def create(self, session: Any) -> dict[str, Any]:
        """Store a new session (dropping the verdict jobs of the sessions it evicts); its state."""
        for old in self.sessions.add(session):
            self.verdicts.discard(old.session_id)
        return self.state(session)

    def read(self, session_id: str) -> dict[str, Any]:
        session = self.session(session_id)
        with session.lock:
            return self.state(session)

    def act(self, session_id: str, apply: Callable[[Any], None],
            revision: int | None = None) -> dict[str, Any]:
        """Carry out ``apply(session)``; a position it changes loses its verdict job. A ``revision``
        other than the session's is refused (409 ``STALE_GAME``) before anything changes."""
        session = self.session(session_id)
        with session.lock:
            session.check_revision(revision)
            before = self.verdicts.position_key(session.game)
            apply(session)
            if self.verdicts.position_key(session.game) != before:
                self.verdicts.discard(session_id)
            return self.state(session)

    def hint(self, session_id: str, source: str = "planner") -> dict[str, Any]:
        """Ask the hint giver (``planner`` or ``agent``) outside the lock; keep its advice only if
        the position is unchanged. :class:`ServerBusy` (nothing changed) when :attr:`work` is full."""
        session = self.session(session_id)
        if self.work is None:
            advice, game = self._advice(session, source)
        else:
            with self.work.slot():
                advice, game = self._advice(session, source)
        with session.lock:
            if advice is not None and game.key() == session.game.key():
                session.hint = advice
                session.note_hint(advice)
                session.hints += 1
                session.selected = None
                if self.hint_clears_notice:
                    session.notice = None
            return self.state(session)

    def chance(self, session_id: str) -> dict[str, Any]:
        """The chance of winning from the session's position as the player sees it
        (``hints.chance(game)``), computed outside the lock on a copy: nothing in the game changes.
        :class:`ServerBusy` when :attr:`work` is full, as for a hint."""
        session = self.session(session_id)
        with session.lock:
            game = session.game.copy()
        if self.work is None:
            return self.hints.chance(game)
        with self.work.slot():
            return self.hints.chance(game)

    def _advice(self, session: Any, source: str) -> tuple[Any, Any]:
        with session.lock:
            game = session.game.copy()
        return self.hints.hint(game, source), game

    def start_verdict(self, session_id: str) -> dict[str, Any]:
        session = self.session(session_id)
        with session.lock:
            self.verdicts.request(session)
            return self.state(session)

    def read_verdict(self, session_id: str, wait: float) -> dict[str, Any]:
        """The verdict of the current position, waiting up to ``wait`` seconds for a running one."""
        return {"verdict": self.verdicts.current(self.session(session_id), wait)}


def game_router(prefix: str, server_of: Callable[[Request], GameServer], new_game_model: type[BaseModel],
                action_model: type[BaseModel], new_session: Callable[[Any], Any],
                apply_action: Callable[[Any, Any], None], state_model: type[BaseModel]) -> APIRouter:
    """The game endpoints under ``prefix`` (see the module docstring).

    ``new_session(body)`` makes a session from a ``new_game_model`` body (raising before anything
    is stored); ``apply_action(session, action)`` carries out an ``action_model`` body. Every
    endpoint but the verdict's answers the game's state, which the schema declares as
    ``state_model`` (documented, not filtered: the state is sent as the server builds it).
    """
    router = APIRouter(responses=ERROR_RESPONSES)

    def state(status: int, more: dict[int | str, dict[str, Any]] | None = None) -> dict[str, Any]:
        return {"response_model": None, "status_code": status,
                "responses": {status: {"model": state_model, "description": "the game's state",
                                       "links": game_links(prefix)},
                              **(more or {})}}

    @router.post(prefix, **state(201))
    def create(request: Request, body: new_game_model) -> dict[str, Any]:  # type: ignore[valid-type]
        return server_of(request).create(new_session(body))

    @router.get(prefix + "/{session_id}", **state(200))
    def read(request: Request, session_id: str) -> dict[str, Any]:
        return server_of(request).read(session_id)

    @router.post(prefix + "/{session_id}/actions", **state(200))
    def act(request: Request, session_id: str,
            action: action_model) -> dict[str, Any]:  # type: ignore[valid-type]
        return server_of(request).act(session_id, lambda session: apply_action(session, action),
                                      getattr(action, "revision", None))

    @router.post(prefix + "/{session_id}/hint", **state(200, BUSY_RESPONSE))
    def hint(request: Request, session_id: str,
             source: HintSource = "planner") -> dict[str, Any]:
        return server_of(request).hint(session_id, source)

    @router.post(prefix + "/{session_id}/chance", response_model=ChanceAnswer, responses=BUSY_RESPONSE)
    def chance(request: Request, session_id: str) -> dict[str, Any]:
        """The chance of winning from here, as the player sees the position (the game is unchanged)."""
        return server_of(request).chance(session_id)

    @router.post(prefix + "/{session_id}/verdict", **state(202))
    def start_verdict(request: Request, session_id: str) -> dict[str, Any]:
        return server_of(request).start_verdict(session_id)

    @router.get(prefix + "/{session_id}/verdict", response_model=None,
                responses={200: {"model": VerdictAnswer, "description": "the verdict"}})
    def read_verdict(request: Request, session_id: str,
                     wait: float = Query(0.0, ge=0.0, le=10.0)) -> dict[str, Any]:
        return server_of(request).read_verdict(session_id, wait)

    return router


__all__ = ["BUSY_RESPONSE", "STATIC_DIR", "GameServer", "UnknownGame", "deal_out_of_range",
           "error_response",
           "game_router", "new_deal_number", "resume", "server_busy", "static_page", "unknown_game"]
