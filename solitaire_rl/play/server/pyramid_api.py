"""The Pyramid endpoints (``/api/games/...``) and the page (``/``), included in the play app.

The endpoints are :func:`solitaire_rl.play.server.game_routes.game_router`'s, as Klondike's are
(:mod:`solitaire_rl.play.server.klondike_api`); the request bodies are in
:mod:`solitaire_rl.play.server.schemas`. Errors
keep the app's JSON shape and statuses (:mod:`solitaire_rl.play.server.app`); a refused request changes
nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse

import solitaire_rl.agents.solver  # noqa: F401  (registers the winnable deal type)
from solitaire_rl.envs.deals import DealId, resolve_deal
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.pyramid import Move, PyramidGame, parse_place
from solitaire_rl.play.server.deal_numbers import check_deal_number, pyramid_variant
from solitaire_rl.play.server.game_routes import GameServer, game_router, new_deal_number, resume, static_page
from solitaire_rl.play.server.pyramid_advice import PyramidHintAdvisor, PyramidVerdictService
from solitaire_rl.play.server.pyramid_session import VARIANT_DEAL_TYPES, PyramidSession
from solitaire_rl.play.server.pyramid_view import state_json
from solitaire_rl.play.server.schemas import Action, NewGame, PyramidState
from solitaire_rl.play.server.session import SessionStore


@dataclass
class PyramidServer(GameServer):
    """The Pyramid side of the play server: sessions, hint players and verdict workers."""

    sessions: SessionStore[PyramidSession] = field(default_factory=SessionStore)
    hints: PyramidHintAdvisor = field(default_factory=PyramidHintAdvisor)
    verdicts: PyramidVerdictService = field(default_factory=PyramidVerdictService)

    def state(self, session: PyramidSession) -> dict[str, Any]:
        return {**state_json(session, self.verdicts.current(session)), "revision": session.revision,
                "hinted": session.hinted_moves()}


def new_session(body: NewGame) -> PyramidSession:
    """A session for a new deal, a named deal or a saved game; raises before anything is stored
    (:class:`solitaire_rl.play.server.deal_numbers.DealOutOfRange` for a deal number out of its range)."""
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
    session = PyramidSession(game, deal_type=deal_type, operations=body.operations, hints=body.hints)
    return resume(session, body, Move.parse)


def _place(value: str | int | None) -> int:
    if value is None:
        raise MalformedInputError("a tap names a place: r1c1..r7c7, stock or waste")
    return value if isinstance(value, int) else parse_place(value)


def apply_action(session: PyramidSession, action: Action) -> None:
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


def pyramid_router(server: PyramidServer) -> APIRouter:
    """The Pyramid page (``/``) and the ``/api/games`` endpoints, answered by ``server``."""
    router = APIRouter()

    @router.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return static_page("pyramid.html")

    router.include_router(game_router("/api/games", lambda _: server, NewGame, Action, new_session,
                                      apply_action, PyramidState))
    return router


__all__ = ["PyramidServer", "apply_action", "new_session", "pyramid_router"]
