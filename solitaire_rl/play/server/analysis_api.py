"""The analysis viewer's endpoints: a finished game analysed, its positions drawn as pictures.

* ``POST /api/analysis`` (201): analyse the game of a session (``{"game": "pyramid", "session":
  ID}``; only once it is over: won, no move left, or no progress possible) or a replay (``{"game",
  "variant", "deal", "moves", "agent"}``: a benchmark row); the analysis in words, kept in an LRU;
* ``GET /api/analysis/{id}/frames/{i}.png``: the table after move ``i`` (0: the deal) in the page's
  card art; ``?show=alternative`` on the losing move's position frames the winning alternative;
* ``GET /analysis``: the viewer page.

It reads the game's own history; the pictures show what the player saw (face-down and unseen
cards stay backs). A game still in play is refused (409 ``GAME_NOT_OVER``), so nothing of the
hidden cards reaches the page before the game is over.
"""

# No ``from __future__ import annotations``: FastAPI reads the endpoints' annotations.

import io
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from pydantic import Field

from solitaire_rl.agents.analysis import GameAnalysis, analyse_game, analyse_played
from solitaire_rl.agents.analysis.line import positions_of
from solitaire_rl.envs.errors import IllegalMoveError, MalformedInputError
from solitaire_rl.envs.klondike import KlondikeGame
from solitaire_rl.envs.klondike.picture import klondike_picture, move_places
from solitaire_rl.envs.pyramid.moves import DRAW, RECYCLE, STOCK
from solitaire_rl.envs.pyramid.picture import pyramid_picture
from solitaire_rl.envs.spec import find_game
from solitaire_rl.play.server.analysis_words import (
    judgement_words,
    move_words,
    outcome_words,
    title_words,
    verdict_words,
)
from solitaire_rl.play.server.game_routes import UnknownGame, error_response, static_page
from solitaire_rl.play.server.schemas import ERROR_RESPONSES, MoveText, Strict

MAX_REPLAY_MOVES = 2000
"""More moves than a benchmark game holds (Klondike truncates at 1000)."""
CAPACITY = 32


class AnalysisRequest(Strict):
    """Analyse a session's finished game, or replay a game (a benchmark row)."""

    game: Literal["pyramid", "klondike"]
    session: Annotated[str, Field(min_length=1, max_length=64)] | None = None
    variant: Literal["000", "001", "pyramid-000", "pyramid-001", "draw3", "klondike-draw3"] | None = None
    deal: Annotated[str, Field(min_length=1, max_length=200)] | None = None
    moves: Annotated[list[MoveText], Field(max_length=MAX_REPLAY_MOVES)] | None = None
    agent: Annotated[str, Field(min_length=1, max_length=40)] | None = None


@dataclass
class StoredAnalysis:
    report: GameAnalysis
    positions: list[Any]
    agent: str | None
    hinted: frozenset[int] = frozenset()
    """The moves (0-based) that were the hint's where they were played (issue 51, defect 4)."""


class GameNotOver(Exception):
    """A session whose game is still in play."""


class AnalysisStore:
    """The latest analyses by ID (an LRU)."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self.capacity = capacity
        self._items: OrderedDict[str, StoredAnalysis] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, item: StoredAnalysis) -> str:
        key = secrets.token_urlsafe(12)
        with self._lock:
            self._items[key] = item
            while len(self._items) > self.capacity:
                self._items.popitem(last=False)
        return key

    def get(self, key: str) -> StoredAnalysis:
        with self._lock:
            item = self._items.get(key)
            if item is None:
                raise UnknownGame(key)
            self._items.move_to_end(key)
            return item


def game_over(game: Any) -> bool:
    """Won, no legal move, or (Klondike) no progress possible any more."""
    if isinstance(game, KlondikeGame):
        return game.is_won() or not game.legal_moves() or not game.progress_possible()
    return game.outcome() is not None


def analysis_json(key: str, stored: StoredAnalysis) -> dict[str, Any]:
    """The analysis as the viewer shows it: words for every move and verdict, no engine code."""
    report, positions = stored.report, stored.positions
    moves = []
    for i, move in enumerate(report.moves):
        moves.append({"index": i, "text": move_words(positions[i], move), "verdict": report.verdicts[i + 1],
                      "verdict_text": verdict_words(report.verdicts[i + 1], report.verdicts[0],
                                                    won=positions[i + 1].is_won()),
                      "losing": i == report.first_losing_move, "hint": i in stored.hinted})
    losing = None
    if report.losing_move is not None:
        lm = report.losing_move
        before = positions[lm.index]
        losing = {"index": lm.index, "alternative": move_words(before, lm.alternative[0]),
                  "line_length": len(lm.alternative),
                  "judgement": lm.hindsight.judgement if lm.hindsight else None,
                  "hint": lm.index in stored.hinted,
                  "judgement_text": judgement_words(lm.hindsight, hint=lm.index in stored.hinted)
                  if lm.hindsight else None}
    return {"id": key, "game": find_game(report.variant).game, "variant": report.variant, "deal": report.deal,
            "agent": stored.agent, "outcome": report.outcome, "summary": outcome_words(report),
            "title": title_words(report),
            "start_verdict": report.verdicts[0],
            "start_text": verdict_words(report.verdicts[0], report.verdicts[0]),
            "moves": moves, "losing": losing, "frames": len(positions)}


def variant_key(game: str, variant: str | None) -> str:
    """The key of the variant a replay names (``game`` alone: its first variant)."""
    if variant is None:
        return find_game(game).key
    return find_game(game, variant.removeprefix(f"{game}-")).key


def frame_png(stored: StoredAnalysis, index: int, alternative: bool) -> bytes:
    report, game = stored.report, stored.positions[index]
    highlight: tuple[Any, ...] = ()
    if alternative:
        lm = report.losing_move
        if lm is None or lm.index != index:
            raise MalformedInputError("the winning alternative is shown on the losing move's position only")
        move = lm.alternative[0]
        if isinstance(game, KlondikeGame):
            highlight = move_places(game, move)
        else:
            highlight = (STOCK,) if move.kind in (DRAW, RECYCLE) else move.places()
    draw = klondike_picture if isinstance(game, KlondikeGame) else pyramid_picture
    picture = draw(game, highlight, status=False)  # the page writes the words, in its language
    out = io.BytesIO()
    picture.save(out, format="PNG", optimize=False)
    return out.getvalue()


def session_analysis(server: Any, session_id: str) -> StoredAnalysis:
    """The finished game of a session (``server``: a game's server) analysed, with the moves that were
    the hint's where they were played (issue 51: never blamed on the player); :class:`GameNotOver`
    while it is in play."""
    session = server.session(session_id)
    with session.lock:
        game = session.game.copy()
        hinted = frozenset(session.hinted_moves(game.history))
    if not game_over(game):
        raise GameNotOver()
    report = analyse_played(game)
    return StoredAnalysis(report, positions_of(_start(report), report.moves), None, hinted)


def mount_analysis(app: FastAPI) -> FastAPI:
    """Add the viewer page and the analysis endpoints to the play app (store: ``app.state.analyses``)."""
    app.state.analyses = AnalysisStore()
    router = APIRouter(responses=ERROR_RESPONSES)

    @app.exception_handler(GameNotOver)
    async def not_over(_: Request, exc: Exception) -> JSONResponse:
        return error_response(409, "GAME_NOT_OVER", "The analysis opens once the game is over (won, no move "
                              "left, or no progress possible): play on, or finish the game first.",
                              "振り返りは局が終わってから（勝ち・打てる手なし・進展なし）開けます")

    @router.get("/analysis", include_in_schema=False)
    def page() -> FileResponse:
        return static_page("analysis.html")

    @router.post("/api/analysis", status_code=201)
    def analyse(request: Request, body: AnalysisRequest) -> dict[str, Any]:
        if body.session is not None:
            if body.deal is not None or body.moves is not None:
                raise MalformedInputError("give a session, or a deal with its moves, not both")
            server = {"pyramid": request.app.state.server, "klondike": request.app.state.klondike}[body.game]
            stored = session_analysis(server, body.session)
            return analysis_json(request.app.state.analyses.add(stored), stored)
        if body.deal is None or body.moves is None:
            raise MalformedInputError("a replay needs the deal and its moves (a benchmark row's deal_id "
                                      "and moves)")
        try:
            report = analyse_game(variant_key(body.game, body.variant), body.deal, body.moves)
        except IllegalMoveError as exc:  # a replay that does not replay is malformed input
            raise MalformedInputError(f"the game does not replay: {exc}") from None
        agent = body.agent
        kind_start = positions_of(_start(report), report.moves)
        stored = StoredAnalysis(report, kind_start, agent)
        return analysis_json(request.app.state.analyses.add(stored), stored)

    @router.get("/api/analysis/{key}/frames/{index}.png", response_class=Response,
                responses={200: {"content": {"image/png": {}}, "description": "the board after that move"}})
    def frame(request: Request, key: str, index: int,
              show: Literal["board", "alternative"] = Query("board")) -> Response:
        stored = request.app.state.analyses.get(key)
        if not 0 <= index < len(stored.positions):
            raise MalformedInputError(f"this game has positions 0..{len(stored.positions) - 1}, not {index}")
        return Response(frame_png(stored, index, show == "alternative"), media_type="image/png",
                        headers={"Cache-Control": "private, max-age=3600"})

    app.include_router(router)
    return app


def _start(report: GameAnalysis) -> Any:
    return find_game(report.variant).new_game(report.deal)


__all__ = ["AnalysisRequest", "AnalysisStore", "analysis_json", "game_over", "mount_analysis",
           "session_analysis"]
