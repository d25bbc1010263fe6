"""Request bodies, validated by Pydantic before anything changes."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

MAX_SAVED_MOVES = 400
"""More moves than any Pyramid game holds (at most 126 without undo), so a real save always fits."""

MoveText = Annotated[str, Field(min_length=1, max_length=16)]
Place = Annotated[str, Field(min_length=1, max_length=8)] | Annotated[int, Field(ge=0, le=29)]


class Strict(BaseModel):
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
    seen: Annotated[list[Annotated[int, Field(ge=0, le=51)]], Field(max_length=52)] = []
    operations: Annotated[int, Field(ge=0, le=10**9)] = 0
    hints: Annotated[int, Field(ge=0, le=10**9)] = 0


class Action(Strict):
    """One intent from the page."""

    type: Literal["tap", "move", "draw", "recycle", "undo", "redo", "restart", "clear"]
    place: Place | None = None
    """For ``tap``: ``r7c1``, ``stock``, ``waste``, or a place number 0..29."""
    move: MoveText | None = None
    """For ``move``: ``r7c1+r7c2``, ``r7c3``, ``stock+waste``, ``draw``, ``recycle``."""


__all__ = ["MAX_SAVED_MOVES", "Action", "NewGame"]
