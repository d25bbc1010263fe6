"""The FastAPI application: the page's static files and the game API.

Every error answers with a specific status and a JSON body ``{"error": code, "message": English,
"message_ja": Japanese}``; a refused request changes nothing:

* 400 ``MALFORMED``: a deal ID, deal code, move or place that cannot be read, or a save that
  does not replay;
* 404 ``UNKNOWN_GAME``: no such game (never created, or evicted to make room);
* 409 the rules refuse the action (code from :class:`envs.pyramid.Refusal`, e.g. ``NOT_THIRTEEN``);
* 403 ``CROSS_ORIGIN`` and 421 ``MISDIRECTED``: a request from another site's page, or one
  addressed to a host other than this machine (:mod:`play.server.limits`);
* 413 ``TOO_LARGE``: a request body over the size limit;
* 422 ``INVALID_REQUEST``: a body that does not fit the schema; ``DEAL_OUT_OF_RANGE``: a deal ID
  whose number is out of its range (:mod:`play.server.deal_numbers`);
* 503 ``BUSY`` with ``Retry-After``: a hint while the planner work of both games is at its bound
  (:class:`play.server.work.WorkLimiter`, ``create_app(work_slots=...)``);
* 404 ``NOT_FOUND`` and 405 ``METHOD_NOT_ALLOWED`` for a path or method the API does not have.

The schema is served at ``/openapi.json`` (every error response declared) and rendered at ``/docs``.

The game endpoints (``/api/games/...``) are :func:`play.server.game_routes.game_router`'s, as Klondike's are.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Collection
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

import agents.solver  # noqa: F401  (registers the winnable deal type)
from envs.deals import DealId, resolve_deal
from envs.errors import MalformedInputError
from envs.pyramid import Move, PyramidGame, parse_place
from play.server.advice import HintAdvisor, VerdictService
from play.server.analysis_api import mount_analysis
from play.server.body_limits import MAX_BODY_BYTES, BodyLimit
from play.server.daily_api import mount_daily
from play.server.deal_numbers import DealOutOfRange, check_deal_number, pyramid_variant
from play.server.game_routes import (
    STATIC_DIR,
    GameServer,
    UnknownGame,
    deal_out_of_range,
    error_response,
    game_router,
    new_deal_number,
    resume,
    server_busy,
    static_page,
    unknown_game,
)
from play.server.klondike_api import mount_klondike
from play.server.limits import LOCAL_HOSTS, LocalOnly
from play.server.schemas import Action, NewGame, PyramidState
from play.server.session import VARIANT_DEAL_TYPES, ActionRefused, PlaySession, SessionStore
from play.server.view import state_json
from play.server.work import QUEUE_WAIT, ServerBusy, WorkLimiter


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


@dataclass
class PlayServer(GameServer):
    """The server's state: sessions, hint players and verdict workers."""

    sessions: SessionStore = field(default_factory=SessionStore)
    hints: HintAdvisor = field(default_factory=HintAdvisor)
    verdicts: VerdictService = field(default_factory=VerdictService)

    def state(self, session: PlaySession) -> dict[str, Any]:
        return {**state_json(session, self.verdicts.current(session)), "revision": session.revision}


def new_session(body: NewGame) -> PlaySession:
    """A session for a new deal, a named deal or a saved game; raises before anything is stored
    (:class:`play.server.deal_numbers.DealOutOfRange` for a deal number out of its range)."""
    check_deal_number(body.deal)
    variant = pyramid_variant(body.deal, body.variant)  # a winnable deal ID opens in 001, its variant
    if body.deal_type not in VARIANT_DEAL_TYPES[variant]:
        raise MalformedInputError(
            f"variant {variant} has one deal type, random; the winnable type belongs to variant 001")
    if body.deal is None:
        deal_id = DealId("pyramid", body.deal_type, 1, new_deal_number())
        deal = resolve_deal(deal_id, "pyramid")
    else:
        deal = resolve_deal(body.deal, "pyramid")
    deal_type = deal.deal_id.kind if deal.deal_id is not None else "code"
    game = PyramidGame(deal, stock_top_playable=variant == "000")
    session = PlaySession(game, deal_type=deal_type, operations=body.operations, hints=body.hints)
    return resume(session, body, Move.parse)


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
    else:
        session.history_action(kind)


def create_app(server: PlayServer | None = None, max_body_bytes: int = MAX_BODY_BYTES,
               hosts: Collection[str] = LOCAL_HOSTS, work_slots: int | None = None,
               work_queue_wait: float = QUEUE_WAIT) -> FastAPI:
    """The application; pass a :class:`PlayServer` to choose capacity, hint players or limits,
    ``hosts`` for the ``Host`` names served (:class:`play.server.limits.LocalOnly`),
    ``work_slots`` for the hints and verdict searches of both games at once (default: one per CPU,
    at least 2; :class:`play.server.work.WorkLimiter`, ``app.state.work``) and ``work_queue_wait``
    for the seconds a hint waits for a place before its 503."""
    server = server or PlayServer()
    work = WorkLimiter(work_slots, queue_wait=work_queue_wait)
    server.use_work(work)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        server.verdicts.shutdown()

    app = FastAPI(title="solitaire-rl play", version="1", docs_url="/docs", redoc_url=None,
                  openapi_url="/openapi.json", lifespan=lifespan,
                  description="The play pages' API: Pyramid under /api/games, Klondike under "
                              "/api/klondike/games. Every error is an ErrorBody.")
    app.state.server = server
    app.state.work = work

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

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 405:
            response = error_response(405, "METHOD_NOT_ALLOWED", "This path does not take that method.",
                                      "この操作はできません")
        elif exc.status_code == 404:
            response = error_response(404, "NOT_FOUND", "No such page or endpoint on this server.",
                                      "ページが見つかりません")
        else:
            response = error_response(exc.status_code, "HTTP_ERROR", str(exc.detail), "")
        response.headers.update(exc.headers or {})
        return response

    app.add_exception_handler(UnknownGame, unknown_game)
    app.add_exception_handler(ServerBusy, server_busy)
    app.add_exception_handler(DealOutOfRange, deal_out_of_range)

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return static_page("index.html")

    app.include_router(game_router("/api/games", lambda _: server, NewGame, Action, new_session,
                                   apply_action, PyramidState))
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.add_middleware(BodyLimit, limit=max_body_bytes)
    app.add_middleware(ServerTiming)
    app.add_middleware(LocalOnly, hosts=hosts)  # outermost: DNS rebinding and cross-site writes
    mount_klondike(app)  # the Klondike page and /api/klondike (issue 8)
    mount_analysis(app)  # the analysis viewer and /api/analysis (issue 27)
    mount_daily(app)  # GET /api/daily: the daily deals of a date (issue 37)
    return app


__all__ = ["MAX_BODY_BYTES", "STATIC_DIR", "PlayServer", "apply_action", "create_app", "new_session"]
