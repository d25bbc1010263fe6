"""The Klondike endpoints (``/api/klondike/...``) and the page (``/klondike``), mounted on the play app.

Errors keep the app's JSON shape ``{"error", "message", "message_ja"}`` and statuses: 400
``MALFORMED`` (a deal, place, move or save that cannot be read), 404 ``UNKNOWN_GAME``, 409 a rule
refuses the action (code from :class:`solitaire_rl.envs.klondike.Refusal`, or ``NOTHING_TO_UNDO`` ...), 413
and 422 as for every request. A refused request changes nothing. The endpoints are
:func:`solitaire_rl.play.server.game_routes.game_router`'s; the request bodies are in
:mod:`solitaire_rl.play.server.schemas`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse

from solitaire_rl.envs.deals import DealId
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike import KlondikeGame, Move, resolve_klondike_deal
from solitaire_rl.play.server.deal_numbers import DealOutOfRange, check_deal_number
from solitaire_rl.play.server.game_routes import (
    GameServer,
    UnknownGame,
    deal_out_of_range,
    game_router,
    new_deal_number,
    resume,
    server_busy,
    static_page,
    unknown_game,
)
from solitaire_rl.play.server.klondike_advice import (
    KlondikeHintAdvisor,
    KlondikeVerdictService,
    proved_at_start,
)
from solitaire_rl.play.server.klondike_session import KlondikeSession, parse_place
from solitaire_rl.play.server.klondike_view import state_json
from solitaire_rl.play.server.schemas import KlondikeAction, KlondikeNewGame, KlondikeState
from solitaire_rl.play.server.session import SessionStore
from solitaire_rl.play.server.work import ServerBusy


@dataclass
class KlondikeServer(GameServer):
    """The Klondike side of the play server: sessions, the hint player and the verdict workers."""

    sessions: SessionStore = field(default_factory=SessionStore)
    hints: KlondikeHintAdvisor = field(default_factory=KlondikeHintAdvisor)
    verdicts: KlondikeVerdictService = field(default_factory=KlondikeVerdictService)
    hint_clears_notice = True

    def state(self, session: KlondikeSession) -> dict[str, Any]:
        return {**state_json(session, self.verdicts.current(session)), "revision": session.revision,
                "hinted": session.hinted_moves()}

    def _advice(self, session: KlondikeSession, source: str) -> tuple[Any, Any]:
        """As the shared server's, with the session's own game named, so its commitment bot is kept
        from one hint to the next (the hint is worked out on a copy)."""
        with session.lock:
            game = session.game.copy()
        return self.hints.hint(game, source, owner=session.game), game

    def create(self, session: KlondikeSession) -> dict[str, Any]:
        """Store a new session; a winnable deal at its start comes with its verdict, proved already."""
        state = super().create(session)
        if proved_at_start(session.game) is None:
            return state
        with session.lock:
            self.verdicts.request(session)
            return self.state(session)


def new_session(body: KlondikeNewGame) -> KlondikeSession:
    """A session for a new deal, a named deal, a position or a save; raises before anything is stored."""
    if body.deal is not None and body.position is not None:
        raise MalformedInputError("give a deal or a position, not both")
    check_deal_number(body.deal)  # DealOutOfRange: 422
    if body.position is not None:
        p = body.position
        game = KlondikeGame.from_position(p.columns, p.hidden, p.stock, p.waste, p.foundations,
                                          draw_count=body.draw_count, recycles=p.recycles, seen=p.seen)
        deal_type = "position"
    else:
        if body.deal is None:
            deal = resolve_klondike_deal(DealId("klondike", body.deal_type, 1, new_deal_number()))
        else:
            deal = resolve_klondike_deal(body.deal.strip())
        game = KlondikeGame(deal, draw_count=body.draw_count)
        deal_type = deal.deal_id.kind if deal.deal_id is not None else "code"
    session = KlondikeSession(game, deal_type=deal_type, operations=body.operations, hints=body.hints)
    return resume(session, body, Move.parse)


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
    else:
        session.history_action(kind)


def build_router() -> APIRouter:
    """The page route and the ``/api/klondike`` endpoints; the server is ``app.state.klondike``."""
    router = APIRouter()

    @router.get("/klondike", include_in_schema=False)
    def page() -> FileResponse:
        return static_page("klondike.html")

    def server_of(request: Request) -> KlondikeServer:
        return request.app.state.klondike

    router.include_router(game_router("/api/klondike/games", server_of, KlondikeNewGame, KlondikeAction,
                                      new_session, apply_action, KlondikeState))

    return router


def mount_klondike(app: FastAPI, server: KlondikeServer | None = None) -> FastAPI:
    """Add the Klondike page and endpoints to the play app, once; a later call with a ``server``
    puts that server in place (tests choose capacities and limits this way). The Klondike server
    shares the app's bound on planner work (``app.state.work``), if it has one."""
    existing = getattr(app.state, "klondike", None)
    if existing is not None:
        if server is not None and server is not existing:
            existing.verdicts.shutdown()
            server.use_work(existing.work)
            app.state.klondike = server
        return app
    app.state.klondike = server or KlondikeServer()
    app.state.klondike.use_work(getattr(app.state, "work", None))

    app.add_exception_handler(UnknownGame, unknown_game)
    app.add_exception_handler(ServerBusy, server_busy)
    app.add_exception_handler(DealOutOfRange, deal_out_of_range)
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
