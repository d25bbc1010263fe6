"""The FastAPI application: the page's static files and the game API.

Every error answers with a specific status and a JSON body ``{"error": code, "message": English,
"message_ja": Japanese}``; a refused request changes nothing:

* 400 ``MALFORMED``: a deal ID, deal code, move or place that cannot be read, or a save that
  does not replay;
* 404 ``UNKNOWN_GAME``: no such game (never created, or evicted to make room);
* 409 the rules refuse the action (code from :class:`envs.pyramid.Refusal`, e.g. ``NOT_THIRTEEN``);
* 413 ``TOO_LARGE``: a request body over the size limit;
* 422 ``INVALID_REQUEST``: a body that does not fit the schema.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

import agents.solver  # noqa: F401  (registers the winnable deal type)
from envs.deals import DealId, resolve_deal
from envs.errors import MalformedInputError
from envs.pyramid import Move, PyramidGame, parse_place
from play.server.advice import HintAdvisor, VerdictService, position_key
from play.server.klondike_api import mount_klondike
from play.server.schemas import Action, NewGame
from play.server.session import VARIANT_DEAL_TYPES, ActionRefused, PlaySession, SessionStore
from play.server.view import state_json

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
"""The page: plain HTML, CSS and JavaScript, served as they are."""
MAX_BODY_BYTES = 16 * 1024
DEAL_NUMBERS = 2**31


class BodyTooLarge(Exception):
    pass


class BodyLimit:
    """ASGI middleware: refuse a request body over ``limit`` bytes with 413 before it is read whole."""

    def __init__(self, app: Any, limit: int) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await _too_large(self.limit)(scope, receive, send)
            return
        seen = 0

        async def limited_receive() -> dict:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise BodyTooLarge
            return message

        try:
            await self.app(scope, limited_receive, send)
        except BodyTooLarge:
            await _too_large(self.limit)(scope, receive, send)


class ServerTiming:
    """ASGI middleware: a ``Server-Timing: app;dur=<ms>`` header on every response (time in the app)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()

        async def timed_send(message: dict) -> None:
            if message["type"] == "http.response.start":
                ms = (time.perf_counter() - start) * 1000
                timing = (b"server-timing", f"app;dur={ms:.3f}".encode())
                message["headers"] = [*message.get("headers", []), timing]
            await send(message)

        await self.app(scope, receive, timed_send)


def _too_large(limit: int) -> JSONResponse:
    return error_response(413, "TOO_LARGE", f"A request body may hold at most {limit} bytes.",
                          f"リクエストは {limit} バイトまでです")


def error_response(status: int, code: str, message: str, message_ja: str = "") -> JSONResponse:
    return JSONResponse({"error": code, "message": message, "message_ja": message_ja}, status_code=status)


@dataclass
class PlayServer:
    """The server's state: sessions, hint players and verdict workers."""

    sessions: SessionStore = field(default_factory=SessionStore)
    hints: HintAdvisor = field(default_factory=HintAdvisor)
    verdicts: VerdictService = field(default_factory=VerdictService)

    def session(self, session_id: str) -> PlaySession:
        session = self.sessions.get(session_id)
        if session is None:
            raise UnknownGame(session_id)
        return session

    def state(self, session: PlaySession) -> dict[str, Any]:
        return state_json(session, self.verdicts.current(session))


class UnknownGame(Exception):
    pass


def new_session(body: NewGame) -> PlaySession:
    """A session for a new deal, a named deal or a saved game; raises before anything is stored."""
    if body.deal_type not in VARIANT_DEAL_TYPES[body.variant]:
        raise MalformedInputError(
            f"variant {body.variant} has one deal type, random; the winnable type belongs to variant 001")
    if body.deal is None:
        deal_id = DealId("pyramid", body.deal_type, 1, secrets.randbelow(DEAL_NUMBERS))
        deal = resolve_deal(deal_id, "pyramid")
    else:
        deal = resolve_deal(body.deal, "pyramid")
    deal_type = deal.deal_id.kind if deal.deal_id is not None else "code"
    game = PyramidGame(deal, stock_top_playable=body.variant == "000")
    session = PlaySession(game, deal_type=deal_type, operations=body.operations, hints=body.hints)
    if body.history or body.redo or body.seen:
        session.restore([Move.parse(m) for m in body.history], [Move.parse(m) for m in body.redo], body.seen)
    return session


def _place(value: str | int | None) -> int:
    if value is None:
        raise MalformedInputError("a tap names a place: r1c1..r7c7, stock or waste")
    return value if isinstance(value, int) else parse_place(value)


def apply_action(session: PlaySession, action: Action) -> None:
    """Carry out one intent on the session (raises :class:`ActionRefused` and changes nothing)."""
    kind = action.type
    if kind == "tap":
        session.tap(_place(action.place))
    elif kind == "move":
        if action.move is None:
            raise MalformedInputError("a move action names a move, e.g. r7c1+r7c2, r7c3, draw")
        session.play(Move.parse(action.move))
    elif kind == "draw":
        session.draw()
    elif kind == "recycle":
        session.recycle()
    elif kind == "undo":
        session.undo()
    elif kind == "redo":
        session.redo()
    elif kind == "restart":
        session.restart()
    else:
        session.clear()


def create_app(server: PlayServer | None = None, max_body_bytes: int = MAX_BODY_BYTES) -> FastAPI:
    """The application; pass a :class:`PlayServer` to choose capacity, hint players or limits."""
    server = server or PlayServer()

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        server.verdicts.shutdown()

    app = FastAPI(title="solitaire-rl play", docs_url=None, redoc_url=None, openapi_url=None,
                  lifespan=lifespan)
    app.state.server = server

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        text = f"{where}: {first.get('msg', 'invalid request')}".strip(": ")
        return error_response(422, "INVALID_REQUEST", text,
                              "リクエストの形式が正しくありません")

    @app.exception_handler(MalformedInputError)
    async def malformed(_: Request, exc: MalformedInputError) -> JSONResponse:
        return error_response(400, "MALFORMED", str(exc), "入力を読み取れません")

    @app.exception_handler(ActionRefused)
    async def refused(_: Request, exc: ActionRefused) -> JSONResponse:
        return error_response(409, exc.notice.code, exc.notice.en, exc.notice.ja)

    @app.exception_handler(UnknownGame)
    async def unknown(_: Request, exc: UnknownGame) -> JSONResponse:
        return error_response(404, "UNKNOWN_GAME", "No such game on this server (it may have been closed to "
                              "make room): start a new deal or reload your saved game.",
                              "このゲームはサーバーにありません")

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-store"})

    @app.post("/api/games", status_code=201)
    def create(body: NewGame) -> dict[str, Any]:
        session = new_session(body)
        for old in server.sessions.add(session):
            server.verdicts.discard(old.session_id)
        return server.state(session)

    @app.get("/api/games/{session_id}")
    def read(session_id: str) -> dict[str, Any]:
        session = server.session(session_id)
        with session.lock:
            return server.state(session)

    @app.post("/api/games/{session_id}/actions")
    def act(session_id: str, action: Action) -> dict[str, Any]:
        session = server.session(session_id)
        with session.lock:
            before = position_key(session.game)
            apply_action(session, action)
            if position_key(session.game) != before:
                server.verdicts.discard(session_id)
            return server.state(session)

    @app.post("/api/games/{session_id}/hint")
    def hint(session_id: str) -> dict[str, Any]:
        session = server.session(session_id)
        with session.lock:
            game = session.game.copy()
        advice = server.hints.hint(game)
        with session.lock:
            if advice is not None and game.key() == session.game.key():
                session.hint = advice
                session.hints += 1
                session.selected = None
            return server.state(session)

    @app.post("/api/games/{session_id}/verdict", status_code=202)
    def start_verdict(session_id: str) -> dict[str, Any]:
        session = server.session(session_id)
        with session.lock:
            server.verdicts.request(session)
            return server.state(session)

    @app.get("/api/games/{session_id}/verdict")
    def read_verdict(session_id: str, wait: float = Query(0.0, ge=0.0, le=10.0)) -> dict[str, Any]:
        session = server.session(session_id)
        verdict = server.verdicts.current(session, wait)
        return {"verdict": verdict}

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.add_middleware(BodyLimit, limit=max_body_bytes)
    app.add_middleware(ServerTiming)
    mount_klondike(app)  # the Klondike page and /api/klondike (issue 8)
    return app


__all__ = ["MAX_BODY_BYTES", "STATIC_DIR", "PlayServer", "apply_action", "create_app", "new_session"]
