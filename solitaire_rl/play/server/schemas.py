"""Request bodies of both games, validated by Pydantic before anything changes."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from solitaire_rl.play.server.hints import HintSource, KlondikeHint, PyramidHint

MAX_SAVED_MOVES = 400
"""More moves than any Pyramid game holds (at most 126 without undo), so a real save always fits."""

MoveText = Annotated[str, Field(min_length=1, max_length=16)]
SeenCards = Annotated[list[Annotated[int, Field(ge=0, le=51)]], Field(max_length=52)]
"""A save's cards seen so far (stock cards turned up), as card numbers."""
Count = Annotated[int, Field(ge=0, le=10**9)]
"""A save's ``operations`` or ``hints``."""
Revision = Annotated[int, Field(ge=0, le=10**9, strict=True)]
"""The game's revision a request was made on (the state's ``revision``): an older one is refused,
409 ``STALE_GAME``; absent, it is not checked."""
Place = Annotated[str, Field(min_length=1, max_length=8)] | Annotated[int, Field(ge=0, le=29)]
HintedMoves = Annotated[list[Annotated[int, Field(ge=0, le=2 * MAX_SAVED_MOVES)]],
                        Field(max_length=2 * MAX_SAVED_MOVES)]
"""A save's moves that were the hint's (the state's ``hinted``: indices into ``history`` then ``redo``);
an index past them is a 400."""


class ErrorBody(BaseModel):
    """Every error the API answers: a code, and the message in English and Japanese."""

    error: str
    """``MALFORMED``, ``UNKNOWN_GAME``, a rule's code (``NOT_THIRTEEN``, ...), ``TOO_LARGE``,
    ``INVALID_REQUEST``, ``NOT_FOUND`` or ``METHOD_NOT_ALLOWED``."""
    message: str
    message_ja: str


ERROR_RESPONSES: dict[int | str, dict[str, object]] = {
    400: {"model": ErrorBody, "description": "MALFORMED: a deal, move, place or save that cannot be read"},
    404: {"model": ErrorBody, "description": "UNKNOWN_GAME: no such game (never created, or evicted)"},
    409: {"model": ErrorBody, "description": "the rules refuse the action (the rule's code and message), or "
                                             "STALE_GAME: the action names an older revision of the game"},
    413: {"model": ErrorBody, "description": "TOO_LARGE: a request body over the size limit"},
    422: {"model": ErrorBody, "description": "INVALID_REQUEST: a body or query that does not fit the schema; "
                                             "DEAL_OUT_OF_RANGE: a deal ID whose number is out of its range"},
}
"""The error responses every game endpoint declares in the OpenAPI schema."""


class Open(BaseModel):
    """A response part: the fields named here are always there with these types; a client must
    accept others beside them."""

    model_config = ConfigDict(extra="allow")


class NoticeBody(Open):
    """A message for the player: its code, English and Japanese text, and kind."""

    code: str
    en: str
    ja: str
    kind: str


class VerdictBody(Open):
    """The exact solver's verdict on the position (``checking`` while it runs)."""

    status: str
    en: str
    ja: str


class VerdictAnswer(BaseModel):
    """``GET .../verdict``: the verdict of the current position, or ``null`` when none was asked for."""

    verdict: VerdictBody | None


class ChanceAnswer(BaseModel):
    """``POST .../chance``: the chance of winning from the position as the player sees it."""

    share: float = Field(ge=0.0, le=1.0)
    """The best move's share of the samples won, a sample whose search ran out counting half (1 or 0
    when the game is over or every card is known and the solver has the answer)."""
    won: int = Field(ge=0)
    """Samples won by the best move (the solver's one search counts as one when every card is known)."""
    unknown: int = Field(ge=0)
    """Samples whose search ran out of budget (counted half in ``share``)."""
    samples: int = Field(ge=0)
    """Samples drawn (0: the game is over and nothing was sampled, or none finished in time)."""
    basis: Literal["sampled", "certain", "over", "none"]
    """``sampled``: an estimate from samples of the hidden cards; ``certain``: every card is known and
    the solver answered; ``over``: the game is won or lost; ``none``: no sample finished in time."""
    en: str
    ja: str


class DealBody(Open):
    label: str
    id: str | None
    code: str | None
    type: str


class GameState(Open):
    """What both games' states hold: the page renders the whole state it gets back."""

    session: str
    deal: DealBody
    moves: Annotated[int, Field(ge=0)]
    operations: Annotated[int, Field(ge=0)]
    hints: Annotated[int, Field(ge=0)]
    can_undo: bool
    can_redo: bool
    history: list[str]
    redo: list[str]
    seen: list[Annotated[int, Field(ge=0, le=51)]]
    outcome: str | None
    message: NoticeBody | None
    verdict: VerdictBody | None
    revision: Annotated[int, Field(ge=0)]
    """Bumped by every move, undo, redo, restart and restore; an action may name it (``revision``)."""
    hinted: list[Annotated[int, Field(ge=0)]]
    """The moves that were the hint's where they were played: 0-based indices into ``history`` then
    ``redo`` (what a save keeps, and a restore's ``hinted`` takes back)."""


class PyramidState(GameState):
    """A Pyramid game's state (``/api/games``)."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    variant: Literal["000", "001"]
    hint: PyramidHint | None
    """The hint shown (:mod:`solitaire_rl.play.server.hints`), ``null`` when none."""
    pyramid: Annotated[list[dict[str, object]], Field(min_length=28, max_length=28)]
    stock: dict[str, object]
    waste: dict[str, object]
    usable: list[dict[str, object]]
    selected: int | None
    needed_rank: int | None
    pass_number: Annotated[int, Field(alias="pass", ge=1, le=3)]
    passes: int
    recycles_left: Annotated[int, Field(ge=0, le=2)]
    cards_left: Annotated[int, Field(ge=0, le=28)]
    removed: Annotated[int, Field(ge=0, le=28)]
    draw_refusal: NoticeBody | None
    recycle_refusal: NoticeBody | None
    all_stock_seen: bool


class KlondikeState(GameState):
    """A Klondike game's state (``/api/klondike/games``)."""

    game: Literal["klondike"]
    hint: KlondikeHint | None
    """The hint shown, one of its kinds told apart by ``kind`` (:mod:`solitaire_rl.play.server.hints`),
    ``null``
    when none."""
    draw_count: Literal[1, 3]
    columns: Annotated[list[dict[str, object]], Field(min_length=7, max_length=7)]
    stock: dict[str, object]
    waste: dict[str, object]
    foundations: Annotated[list[dict[str, object]], Field(min_length=4, max_length=4)]
    selected: object
    selected_targets: list[object]
    recycles: Annotated[int, Field(ge=0)]
    cards_up: Annotated[int, Field(ge=0, le=52)]
    face_down: Annotated[int, Field(ge=0, le=52)]
    outcome_text: object
    finish: dict[str, object]
    auto_home: dict[str, str] | None = None
    """A card safe to send up now (``{source, target}``: no card left could ever need it), which the
    page's auto-play setting sends; ``null`` when there is none."""


class Strict(BaseModel):
    """A body with no fields besides its own."""

    model_config = ConfigDict(extra="forbid")


class NewGame(Strict):
    """Start a game: a new deal of a type, a deal by ID or code, or a saved game to resume."""

    variant: Literal["000", "001"] = "000"
    deal_type: Literal["random", "winnable"] = "random"
    deal: Annotated[str, Field(min_length=1, max_length=200)] | None = None
    """A deal ID (``pyramid-random-v1-42``) or a 104-character deal code; absent: a new deal."""
    history: Annotated[list[MoveText], Field(max_length=MAX_SAVED_MOVES)] = []
    redo: Annotated[list[MoveText], Field(max_length=MAX_SAVED_MOVES)] = []
    """Undone moves that redo would replay, next first."""
    seen: SeenCards = []
    operations: Count = 0
    hints: Count = 0
    hinted: HintedMoves = []


class Action(Strict):
    """One intent from the page."""

    type: Literal["tap", "move", "draw", "recycle", "undo", "redo", "restart", "clear"]
    place: Place | None = None
    """For ``tap``: ``r7c1``, ``stock``, ``waste``, or a place number 0..29."""
    move: MoveText | None = None
    """For ``move``: ``r7c1+r7c2``, ``r7c3``, ``stock+waste``, ``draw``, ``recycle``."""
    revision: Revision | None = None
    """The state's ``revision`` the page shows; another one: 409 ``STALE_GAME``, nothing changed."""


# ---------------------------------------------------------------- Klondike
KLONDIKE_MAX_SAVED_MOVES = 1500
"""Room for a long game with many draws; the app's body limit (16 KiB) still applies."""

PlaceText = Annotated[str, Field(min_length=1, max_length=8)]
CardItem = Annotated[int, Field(ge=0, le=51)] | Annotated[str, Field(min_length=2, max_length=3)]


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

    deal_type: Literal["random", "winnable"] = "random"
    """A new deal's type (without ``deal``): ``winnable`` deals ``klondike-winnable-v1-N`` (proved)."""
    draw_count: Literal[1, 3] = 3
    """Cards a draw turns from the stock: 3 (seed 002) or 1; for a deal, a position and a save alike
    (a save replays only in the draw it was played in)."""
    deal: Annotated[str, Field(min_length=1, max_length=4000)] | None = None
    position: HandPosition | None = None
    history: Annotated[list[MoveText], Field(max_length=KLONDIKE_MAX_SAVED_MOVES)] = []
    redo: Annotated[list[MoveText], Field(max_length=KLONDIKE_MAX_SAVED_MOVES)] = []
    """Undone moves that redo would replay, next first."""
    seen: SeenCards = []
    operations: Count = 0
    hints: Count = 0
    hinted: Annotated[list[Annotated[int, Field(ge=0, le=2 * KLONDIKE_MAX_SAVED_MOVES)]],
                      Field(max_length=2 * KLONDIKE_MAX_SAVED_MOVES)] = []
    """The save's moves that were the hint's (the state's ``hinted``: indices into ``history`` then
    ``redo``); an index past them is a 400."""

    @field_validator("draw_count", mode="before")
    @classmethod
    def _whole_draw(cls, value: object) -> object:
        """1 or 3 as a JSON integer: not ``true``, ``1.0`` or ``"1"``."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError("draw_count is the number 1 or 3")
        return value


class KlondikeAction(Strict):
    """One intent from the page (see :mod:`solitaire_rl.play.server.klondike_session`)."""

    type: Literal["tap", "select", "move", "stock", "finish", "undo", "redo", "restart", "clear"]
    place: PlaceText | None = None
    """For ``tap`` and ``select``: ``waste``, ``c3``, ``c3:4``, ``fH``, ``stock``."""
    source: PlaceText | None = None
    target: PlaceText | None = None
    """For ``move`` (a drag): source and target places; or ``move`` in the engine's text."""
    move: MoveText | None = None
    revision: Revision | None = None
    """The state's ``revision`` the page shows; another one: 409 ``STALE_GAME``, nothing changed."""


__all__ = ["KLONDIKE_MAX_SAVED_MOVES", "MAX_SAVED_MOVES", "Action", "ChanceAnswer", "Count", "HandPosition",
           "HintSource", "KlondikeAction", "KlondikeNewGame", "MoveText", "NewGame", "Revision",
           "SeenCards", "Strict"]
