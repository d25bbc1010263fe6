"""The FastAPI application: the pages' static files and both games' API.

Every error answers with a specific status and a JSON body ``{"error": code, "message": English,
"message_ja": Japanese}``; a refused request changes nothing:

* 400 ``MALFORMED``: a deal ID, deal code, move or place that cannot be read, or a save that
  does not replay;
* 404 ``UNKNOWN_GAME``: no such game (never created, or evicted to make room);
* 409 the rules refuse the action (code from :class:`solitaire_rl.envs.pyramid.Refusal`, e.g.
``NOT_THIRTEEN``);
* 403 ``CROSS_ORIGIN`` and 421 ``MISDIRECTED``: a request from another site's page, or one
  addressed to a host other than this machine (:mod:`solitaire_rl.play.server.limits`);
* 413 ``TOO_LARGE``: a request body over the size limit;
* 422 ``INVALID_REQUEST``: a body that does not fit the schema; ``DEAL_OUT_OF_RANGE``: a deal ID
  whose number is out of its range (:mod:`solitaire_rl.play.server.deal_numbers`);
* 503 ``BUSY`` with ``Retry-After``: a hint while the planner work of both games is at its bound
  (:class:`solitaire_rl.play.server.work.WorkLimiter`, ``create_app(work_slots=...)``);
* 404 ``NOT_FOUND`` and 405 ``METHOD_NOT_ALLOWED`` for a path or method the API does not have.

The schema is served at ``/openapi.json`` (every error response declared) and rendered at ``/docs``.

The game endpoints are :func:`solitaire_rl.play.server.game_routes.game_router`'s: Pyramid's
(``/api/games/...``)
mounted by :mod:`solitaire_rl.play.server.pyramid_api`, Klondike's (``/api/klondike/games/...``) by
:mod:`solitaire_rl.play.server.klondike_api`.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Collection
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.play.server.analysis_api import mount_analysis
from solitaire_rl.play.server.body_limits import MAX_BODY_BYTES, BodyLimit
from solitaire_rl.play.server.daily_api import mount_daily
from solitaire_rl.play.server.deal_numbers import DealOutOfRange
from solitaire_rl.play.server.game_routes import (
    STATIC_DIR,
    UnknownGame,
    deal_out_of_range,
    error_response,
    server_busy,
    unknown_game,
)
from solitaire_rl.play.server.klondike_api import mount_klondike
from solitaire_rl.play.server.limits import LOCAL_HOSTS, LocalOnly
from solitaire_rl.play.server.pyramid_api import PyramidServer, pyramid_router
from solitaire_rl.play.server.session import ActionRefused
from solitaire_rl.play.server.work import QUEUE_WAIT, ServerBusy, WorkLimiter


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


def create_app(server: PyramidServer | None = None, max_body_bytes: int = MAX_BODY_BYTES,
               hosts: Collection[str] = LOCAL_HOSTS, work_slots: int | None = None,
               work_queue_wait: float = QUEUE_WAIT) -> FastAPI:
    """The application; pass a :class:`solitaire_rl.play.server.pyramid_api.PyramidServer` to choose the
    Pyramid
    side's capacity, hint players or limits (Klondike's:
    :func:`solitaire_rl.play.server.klondike_api.mount_klondike`),
    ``hosts`` for the ``Host`` names served (:class:`solitaire_rl.play.server.limits.LocalOnly`),
    ``work_slots`` for the hints and verdict searches of both games at once (default: one per CPU,
    at least 2; :class:`solitaire_rl.play.server.work.WorkLimiter`, ``app.state.work``) and
    ``work_queue_wait``
    for the seconds a hint waits for a place before its 503."""
    server = server or PyramidServer()
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

    app.include_router(pyramid_router(server))  # the Pyramid page (/) and /api/games
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.add_middleware(BodyLimit, limit=max_body_bytes)
    app.add_middleware(ServerTiming)
    app.add_middleware(LocalOnly, hosts=hosts)  # outermost: DNS rebinding and cross-site writes
    mount_klondike(app)  # the Klondike page and /api/klondike (issue 8)
    mount_analysis(app)  # the analysis viewer and /api/analysis (issue 27)
    mount_daily(app)  # GET /api/daily: the daily deals of a date (issue 37)
    return app


__all__ = ["MAX_BODY_BYTES", "STATIC_DIR", "ServerTiming", "create_app"]
