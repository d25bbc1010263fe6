"""The Klondike endpoints (``/api/klondike/...``) and the page (``/klondike``), mounted on the play app.

Errors keep the app's JSON shape ``{"error", "message", "message_ja"}`` and statuses: 400
``MALFORMED`` (a deal, place, move or save that cannot be read), 404 ``UNKNOWN_GAME``, 409 a rule
refuses the action (code from :class:`envs.klondike.Refusal`, or ``NOTHING_TO_UNDO`` ...), 413
and 422 as for every request. A refused request changes nothing.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.responses import FileResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from envs.deals import DealId
from envs.errors import MalformedInputError
from envs.klondike import KlondikeGame, Move, resolve_klondike_deal
from play.server.klondike_advice import KlondikeHintAdvisor, KlondikeVerdictService, position_key
from play.server.klondike_session import KlondikeSession, parse_place
from play.server.klondike_view import state_json
from play.server.session import SessionStore

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
DEAL_NUMBERS = 2**31
MAX_SAVED_MOVES = 1500
"""Room for a long game with many draws; the app's body limit (16 KiB) still applies."""

MoveText = Annotated[str, Field(min_length=1, max_length=16)]
PlaceText = Annotated[str, Field(min_length=1, max_length=8)]
CardItem = Annotated[int, Field(ge=0, le=51)] | Annotated[str, Field(min_length=2, max_length=3)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class HandPosition(Strict):
    """A hand-built position (puzzles, tests): as :meth:`KlondikeGame.from_position` takes it."""

    columns: Annotated[list[Annotated[list[CardItem], Field(max_length=52)]],
                       Field(min_length=7, max_length=7)]
    hidden: Annotated[list[Annotated[int, Field(ge=0, le=51)]], Field(min_length=7, max_length=7)]
    stock: Annotated[list[CardItem], Field(max_length=24)] = []
    waste: Annotated[list[CardItem], Field(max_length=24)] = []
    foundations: Annotated[list[Annotated[int, Field(ge=0, le=13)]], Field(min_length=4, max_length=4)] = [
        0, 0, 0, 0]
    recycles: Annotated[int, Field(ge=0, le=10**6)] = 0
    seen: Annotated[list[CardItem], Field(max_length=52)] = []


class KlondikeNewGame(Strict):
    """Start a game: a new deal, a deal by ID / code / Solvitaire JSON, a hand-built position, or a save."""

    deal: Annotated[str, Field(min_length=1, max_length=4000)] | None = None
    position: HandPosition | None = None
    history: Annotated[list[MoveText], Field(max_length=MAX_SAVED_MOVES)] = []
    redo: Annotated[list[MoveText], Field(max_length=MAX_SAVED_MOVES)] = []
    """Undone moves that redo would replay, next first."""
    seen: Annotated[list[Annotated[int, Field(ge=0, le=51)]], Field(max_length=52)] = []
    operations: Annotated[int, Field(ge=0, le=10**9)] = 0
    hints: Annotated[int, Field(ge=0, le=10**9)] = 0


class KlondikeAction(Strict):
    """One intent from the page (see :mod:`play.server.klondike_session`)."""

    type: Literal["tap", "select", "move", "stock", "finish", "undo", "redo", "restart", "clear"]
    place: PlaceText | None = None
    """For ``tap`` and ``select``: ``waste``, ``c3``, ``c3:4``, ``fH``, ``stock``."""
    source: PlaceText | None = None
    target: PlaceText | None = None
    """For ``move`` (a drag): source and target places; or ``move`` in the engine's text."""
    move: MoveText | None = None


@dataclass
class KlondikeServer:
    """The Klondike side of the play server: sessions, the hint player and the verdict workers."""

    sessions: SessionStore = field(default_factory=SessionStore)
    hints: KlondikeHintAdvisor = field(default_factory=KlondikeHintAdvisor)
    verdicts: KlondikeVerdictService = field(default_factory=KlondikeVerdictService)

    def state(self, session: KlondikeSession) -> dict[str, Any]:
        return state_json(session, self.verdicts.current(session))


class UnknownKlondikeGame(Exception):
    pass


def new_session(body: KlondikeNewGame) -> KlondikeSession:
    """A session for a new deal, a named deal, a position or a save; raises before anything is stored."""
    if body.deal is not None and body.position is not None:
        raise MalformedInputError("give a deal or a position, not both")
    if body.position is not None:
        p = body.position
        game = KlondikeGame.from_position(p.columns, p.hidden, p.stock, p.waste, p.foundations,
                                          recycles=p.recycles, seen=p.seen)
        deal_type = "position"
    else:
        if body.deal is None:
            deal = resolve_klondike_deal(DealId("klondike", "random", 1, secrets.randbelow(DEAL_NUMBERS)))
        else:
            deal = resolve_klondike_deal(body.deal.strip())
        game = KlondikeGame(deal)
        deal_type = deal.deal_id.kind if deal.deal_id is not None else "code"
    session = KlondikeSession(game, deal_type=deal_type, operations=body.operations, hints=body.hints)
    if body.history or body.redo or body.seen:
        session.restore([Move.parse(m) for m in body.history], [Move.parse(m) for m in body.redo], body.seen)
    return session


def _need(value: str | None, what: str) -> str:
    if value is None:
        raise MalformedInputError(f"this action needs {what}")
    return value


def apply_action(session: KlondikeSession, action: KlondikeAction) -> None:
    """Carry out one intent (raises and changes nothing when refused)."""
    kind = action.type
    if kind == "tap":
        session.tap(parse_place(_need(action.place, "a place (waste, c3, c3:4, fH, stock)")))
    elif kind == "select":
        session.select(parse_place(_need(action.place, "a place (waste, c3, c3:4, fH)")))
    elif kind == "move":
        if action.move is not None:
            if action.source is not None or action.target is not None:
                raise MalformedInputError("give a move, or a source and a target, not both")
            session.play(Move.parse(action.move))
        else:
            session.drop(parse_place(_need(action.source, "a source place")),
                         parse_place(_need(action.target, "a target place")))
    elif kind == "stock":
        session.tap_stock()
    elif kind == "finish":
        session.finish_step()
    elif kind == "undo":
        session.undo()
    elif kind == "redo":
        session.redo()
    elif kind == "restart":
        session.restart()
    else:
        session.clear()


def build_router() -> APIRouter:
    """The page route and the ``/api/klondike`` endpoints; the server is ``app.state.klondike``."""
    router = APIRouter()

    def server_of(request: Request) -> KlondikeServer:
        return request.app.state.klondike

    def session_of(request: Request, session_id: str) -> KlondikeSession:
        session = server_of(request).sessions.get(session_id)
        if session is None:
            raise UnknownKlondikeGame(session_id)
        return session

    @router.get("/klondike", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC_DIR / "klondike.html", headers={"Cache-Control": "no-store"})

    @router.post("/api/klondike/games", status_code=201)
    def create(request: Request, body: KlondikeNewGame) -> dict[str, Any]:
        server = server_of(request)
        session = new_session(body)
        for old in server.sessions.add(session):
            server.verdicts.discard(old.session_id)
        return server.state(session)

    @router.get("/api/klondike/games/{session_id}")
    def read(request: Request, session_id: str) -> dict[str, Any]:
        session = session_of(request, session_id)
        with session.lock:
            return server_of(request).state(session)

    @router.post("/api/klondike/games/{session_id}/actions")
    def act(request: Request, session_id: str, action: KlondikeAction) -> dict[str, Any]:
        server = server_of(request)
        session = session_of(request, session_id)
        with session.lock:
            before = position_key(session.game)
            apply_action(session, action)
            if position_key(session.game) != before:
                server.verdicts.discard(session_id)
            return server.state(session)

    @router.post("/api/klondike/games/{session_id}/hint")
    def hint(request: Request, session_id: str) -> dict[str, Any]:
        server = server_of(request)
        session = session_of(request, session_id)
        with session.lock:
            game = session.game.copy()
        advice = server.hints.hint(game)
        with session.lock:
            if advice is not None and game.key() == session.game.key():
                session.hint = advice
                session.hints += 1
                session.selected = None
                session.notice = None
            return server.state(session)

    @router.post("/api/klondike/games/{session_id}/verdict", status_code=202)
    def start_verdict(request: Request, session_id: str) -> dict[str, Any]:
        server = server_of(request)
        session = session_of(request, session_id)
        with session.lock:
            server.verdicts.request(session)
            return server.state(session)

    @router.get("/api/klondike/games/{session_id}/verdict")
    def read_verdict(request: Request, session_id: str,
                     wait: float = Query(0.0, ge=0.0, le=10.0)) -> dict[str, Any]:
        session = session_of(request, session_id)
        return {"verdict": server_of(request).verdicts.current(session, wait)}

    return router


def mount_klondike(app: FastAPI, server: KlondikeServer | None = None) -> FastAPI:
    """Add the Klondike page and endpoints to the play app, once; a later call with a ``server``
    puts that server in place (tests choose capacities and limits this way)."""
    existing = getattr(app.state, "klondike", None)
    if existing is not None:
        if server is not None and server is not existing:
            existing.verdicts.shutdown()
            app.state.klondike = server
        return app
    app.state.klondike = server or KlondikeServer()

    async def unknown(_: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"error": "UNKNOWN_GAME", "message": "No such game on this server (it may have "
                             "been closed to make room): start a new deal or reload your saved game.",
                             "message_ja": "このゲームはサーバーにありません"}, status_code=404)

    app.add_exception_handler(UnknownKlondikeGame, unknown)
    app.include_router(build_router())
    outer = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(a: Any) -> AsyncIterator[Any]:  # stop the verdict workers with the app
        async with outer(a) as state:
            yield state
        app.state.klondike.verdicts.shutdown()

    app.router.lifespan_context = lifespan
    return app


__all__ = ["KlondikeAction", "KlondikeNewGame", "KlondikeServer", "apply_action", "mount_klondike",
           "new_session"]
