"""The hint a game's state carries (its ``hint``), typed: one model per kind of hint, told apart by
``kind``, each field with one meaning in both games.

* ``kind`` ``"move"``: a move to play, :class:`PyramidMoveHint` or :class:`KlondikeMoveHint`. Both
  say who answered (:class:`AnsweredHint`: ``requested``, ``hint_source``, ``agent``,
  ``fallback_reason``, ``fallbacks``), the move (``move`` in the engine's text, ``en`` / ``ja``
  in words) and why (``reason``, ``reason_en``, ``reason_ja``); then where it is on the game's table:
  Pyramid's ``places`` and ``move_kind``, Klondike's ``from_place`` and ``to_place`` (and
  ``progress``).
* ``kind`` ``"looping"`` (Klondike, :class:`LoopingHint`): the planner sees no way on that does not
  come back to a position met again and again; who said so, and the words.
* ``kind`` ``"no_progress"`` (Klondike, :class:`NoProgressHint`): moves remain but none can ever lead
  anywhere new (the engine's check, no advisor); the words.

A game with no legal move gets no hint: the state's ``hint`` stays ``null``. :data:`KlondikeHint`
is the discriminated union of Klondike's kinds; Pyramid has one kind, :data:`PyramidHint`. The
advisors build their hints through these models (:func:`pyramid_hint`, :func:`klondike_hint`), so
a hint the server sends always fits its schema; ``/openapi.json`` declares them (``PyramidState``,
``KlondikeState``).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from solitaire_rl.play.server.wording import reason_en, reason_ja

HintSource = Literal["planner", "agent", "network", "guided", "commitment"]
"""Who a hint comes from: the planner (``pimc``, ``hop``), the ``ppo`` agent, the expert network alone,
the search it guides (``guided-pimc``, ``guided-ismcts``), or (Klondike) the commitment planner
(``world-bandit``); see :mod:`solitaire_rl.play.server.advice`."""

FallbackCode = Literal[
    "network_unavailable", "guided_late", "planner_late", "agent_unavailable", "draw3_only", "klondike_only"
]
"""Why the source asked did not answer, one step of the fall: ``network_unavailable``, no expert
network (the agent answers for it, the planner for the guided search); ``guided_late``, the guided
search finished no sample in time (the network answers); ``planner_late``, the planner finished no
sample in time (the trained agent answers; in Klondike draw 1 the ``greedy`` player);
``agent_unavailable``, no trained agent (``greedy`` answers); ``draw3_only`` (Klondike draw 1), the
source asked plays draw 3 only (the planner answers); ``klondike_only`` (Pyramid), the commitment
planner plays Klondike only (the planner answers)."""

KlondikePlace = Annotated[str, Field(pattern=r"^(stock|waste|f[CDHS]|c[1-7](:([2-9]|1[0-3]))?)$")]
"""A Klondike place as the state names it: ``stock``, ``waste``, ``fC``..``fS``, ``c3``, ``c3:4`` (the
run of column 3's last 4 cards)."""


class HintBody(BaseModel):
    """Every hint: its kind and its words, in English and Japanese; no other field than its own (each
    field's meaning, below, is its description in ``/openapi.json``)."""

    model_config = ConfigDict(extra="forbid", use_attribute_docstrings=True)

    kind: str
    """What the hint is: each member names its own (``move``, ``looping``, ``no_progress``)."""
    en: str
    ja: str


class AnsweredHint(HintBody):
    """A hint an advisor gave: the source asked, and who answered."""

    requested: HintSource
    """The source the player asked for (the hint request's ``source``)."""
    hint_source: HintSource
    """The source that answered: ``requested``, or another when it could not (``fallback_reason``)."""
    agent: str
    """The player that answered, by its name in :mod:`solitaire_rl.agents.registry` (``pimc``, ``hop``,
    ``ppo``,
    ``greedy``, ``expert-net``, ``guided-pimc``, ``guided-ismcts``)."""
    fallback_reason: str | None
    """Why another source than the one asked answered, in the server's English words (``None``: the
    one asked did)."""
    fallbacks: list[FallbackCode] = []
    """The same as codes, in the order the sources fell through (empty: the one asked answered);
    the page words each in the player's language."""


class MoveHint(AnsweredHint):
    """A move to play, in both games."""

    kind: Literal["move"]
    move: Annotated[str, Field(min_length=1)]
    """The move in the engine's text (what ``{"type": "move", "move": ...}`` plays)."""
    reason: str
    """The advisor's own words for its choice (``wins in 24 of 32 sampled stocks``)."""
    reason_en: str
    """The reason as a player reads it in English (a preference is not called a chance)."""
    reason_ja: str | None
    """The reason in Japanese, when it is one the server knows (``None`` otherwise)."""


class PyramidMoveHint(MoveHint):
    """A Pyramid move: the cards it removes, or a draw or a recycle."""

    places: list[Annotated[int, Field(ge=0, le=29)]]
    """The places of the cards it removes (pyramid 0..27, stock top 28, waste top 29); empty for a
    draw or a recycle."""
    move_kind: Literal["remove", "draw", "recycle"]


class KlondikeMoveHint(MoveHint):
    """A Klondike move: where its card (or run) comes from and where it goes."""

    from_place: KlondikePlace
    """Where the card or run is taken from (``stock`` for a draw or a recycle)."""
    to_place: KlondikePlace
    """Where it goes (``stock`` for a draw or a recycle)."""
    progress: bool
    """Whether the move makes progress (the engine's check: not one that only shuffles known cards)."""


class LoopingHint(AnsweredHint):
    """Klondike: play keeps coming back to this position and the planner sees no way on."""

    kind: Literal["looping"]


class NoProgressHint(HintBody):
    """Klondike: moves remain but none can ever lead anywhere new (the engine's exact check)."""

    kind: Literal["no_progress"]


KlondikeHint = Annotated[KlondikeMoveHint | LoopingHint | NoProgressHint, Field(discriminator="kind")]
"""A Klondike hint: one of its kinds, told apart by ``kind``."""
PyramidHint = PyramidMoveHint
"""A Pyramid hint: always a move (a game with no legal move gets no hint)."""

KLONDIKE_HINT: TypeAdapter[Any] = TypeAdapter(KlondikeHint)
PYRAMID_HINT: TypeAdapter[Any] = TypeAdapter(PyramidHint)


def reason_fields(reason: str) -> dict[str, Any]:
    """A move hint's ``reason`` with the player's words for it (``reason_en``, ``reason_ja``)."""
    return {"reason": reason, "reason_en": reason_en(reason), "reason_ja": reason_ja(reason)}


LOST_REASON = ("a move to play on with: no line wins from here",
               "続けるための手です（ここから勝つ手順はありません）")
"""A move hint's reason once the verdict proves the position lost: the planner's own reason (a share of
guesses won, "the cards you have not seen will decide") would contradict the verdict (issue 51)."""


def lost_reason_fields() -> dict[str, Any]:
    """The reason words of a move hint in a position the verdict proves lost (:data:`LOST_REASON`)."""
    return {"reason_en": LOST_REASON[0], "reason_ja": LOST_REASON[1]}


def pyramid_hint(fields: dict[str, Any]) -> dict[str, Any]:
    """A Pyramid hint checked against :data:`PyramidHint`, as the state carries it."""
    return PYRAMID_HINT.validate_python(fields).model_dump()


def klondike_hint(fields: dict[str, Any]) -> dict[str, Any]:
    """A Klondike hint checked against :data:`KlondikeHint` (the member its ``kind`` names), as the
    state carries it."""
    return KLONDIKE_HINT.validate_python(fields).model_dump()


__all__ = ["KLONDIKE_HINT", "LOST_REASON", "PYRAMID_HINT", "AnsweredHint", "FallbackCode", "HintBody",
           "HintSource", "KlondikeHint", "KlondikeMoveHint", "KlondikePlace", "LoopingHint", "MoveHint",
           "NoProgressHint", "PyramidHint", "PyramidMoveHint", "klondike_hint", "lost_reason_fields",
           "pyramid_hint", "reason_fields"]
