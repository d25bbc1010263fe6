"""``GET /api/daily?date=YYYY-MM-DD``: the daily deals of a date, for both games.

The page needs no answer from here to play the daily deal: it writes the ID from the player's local
date (``pyramid-daily-v1-20261203``) and opens it as any deal ID; the server resolves it through
:mod:`solitaire_rl.agents.solver.daily` (a winnable deal chosen by the date). This endpoint names the same
deals
for other clients, with the winnable deal each one is: the same ID and cards for every caller on a
date. A date that is not ``YYYY-MM-DD``, or not on the calendar, is a 422 ``INVALID_REQUEST``.
"""

# No ``from __future__ import annotations``: FastAPI reads the endpoint's annotations.

from typing import Literal

from fastapi import APIRouter, FastAPI, Query
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel

from solitaire_rl.agents.solver.daily import daily_id, daily_number, parse_day
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.play.server.schemas import ERROR_RESPONSES

Game = Literal["pyramid", "klondike"]
GAMES: tuple[Game, ...] = ("pyramid", "klondike")


class DailyDeal(BaseModel):
    """One game's daily deal on the date."""

    game: Game
    deal: str
    """The daily deal's ID, ``{game}-daily-v1-YYYYMMDD``: open it as any deal ID."""
    winnable_deal: str
    """The winnable deal it is (the same cards): ``pyramid-winnable-v1-N``, ``klondike-winnable-v1-N``."""
    number: int
    """``N`` of :attr:`winnable_deal`, chosen from the date
    (:func:`solitaire_rl.agents.solver.daily.daily_number`)."""
    variants: list[str]
    """The page's variants it is played in (the same cards in each; winnable in each)."""


class DailyDeals(BaseModel):
    """``GET /api/daily``: the date and each game's daily deal on it."""

    date: str
    deals: list[DailyDeal]


VARIANTS = {"pyramid": ["000", "001"], "klondike": ["draw3", "draw1"]}


def daily_deals(text: str) -> DailyDeals:
    """The daily deals of the date ``text`` (``YYYY-MM-DD``); :class:`MalformedInputError` if it is none."""
    day = parse_day(text)
    deals = [DailyDeal(game=game, deal=str(daily_id(game, day)), number=daily_number(game, day),
                       winnable_deal=f"{game}-winnable-v1-{daily_number(game, day)}", variants=VARIANTS[game])
             for game in GAMES]
    return DailyDeals(date=day.isoformat(), deals=deals)


def mount_daily(app: FastAPI) -> FastAPI:
    """Add ``GET /api/daily`` to the play app."""
    router = APIRouter(responses=ERROR_RESPONSES)

    @router.get("/api/daily", response_model=DailyDeals,
                responses={200: {"description": "each game's daily deal on the date"}})
    def daily(date: str = Query(..., min_length=10, max_length=10, pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
                                description="the player's local date, YYYY-MM-DD")) -> DailyDeals:
        try:
            return daily_deals(date)
        except MalformedInputError as exc:  # on the pattern, off the calendar: the same 422 as the pattern's
            error = {"loc": ("query", "date"), "msg": str(exc), "type": "value_error"}
            raise RequestValidationError([error]) from None

    app.include_router(router)
    return app


__all__ = ["DailyDeal", "DailyDeals", "daily_deals", "mount_daily"]
