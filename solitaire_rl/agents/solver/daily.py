"""Daily deals: deal IDs ``pyramid-daily-v1-YYYYMMDD`` and ``klondike-daily-v1-YYYYMMDD``.

The same deal for everyone on a date, always winnable. Generator version 1: the number is the
date written ``YYYYMMDD`` (``klondike-daily-v1-20261203`` is the Klondike deal of 3 December 2026);
the date picks a winnable deal by a pure function of the game and the date,

    daily_number(game, date) = int(sha256(f"solitaire-rl daily v1 {game} {date:%Y-%m-%d}")[:8]) % 10**9

(the first 8 bytes of the digest, big-endian), and the daily deal's cards are those of winnable deal
``{game}-winnable-v1-{daily_number}`` (:mod:`solitaire_rl.agents.solver.winnable`,
:mod:`solitaire_rl.agents.solver.klondike_winnable`): proved winnable by the exact solver, its line replayed
in
the engine, before the deal is returned. So a daily deal is winnable in every variant the page
offers: a Pyramid winnable deal is proved in variant 001, whose moves are all legal in 000; a
Klondike one in draw 3, and a draw-3 line plays in draw 1 as well (three single draws turn the same
cards onto the waste in the same order). The date is the player's local date, as the page reads it.
Any change to this rule needs a new generator version, so that old IDs keep their deals.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import date

from solitaire_rl.agents.solver.klondike_winnable import winnable_cards as klondike_winnable_cards
from solitaire_rl.agents.solver.winnable import winnable_cards as pyramid_winnable_cards
from solitaire_rl.envs.deals import DealId, is_deal_type_registered, register_deal_type
from solitaire_rl.envs.errors import MalformedInputError

VERSION = 1
WINNABLE_CARDS: dict[str, Callable[[int], tuple[int, ...]]] = {
    "pyramid": pyramid_winnable_cards, "klondike": klondike_winnable_cards}
"""Each game's winnable deals (by deal ID game name), which its daily deals are drawn from."""
DAILY_RANGE = 10**9
"""Daily deals are drawn from winnable deal numbers ``0 .. DAILY_RANGE - 1``."""
FIRST_NUMBER, LAST_NUMBER = 10000101, 99991231
"""The ID numbers of the dates 1000-01-01 and 9999-12-31: eight digits, ``YYYYMMDD``."""


def parse_day(text: str) -> date:
    """``YYYY-MM-DD`` (a calendar date, years 1000..9999) as a date; else :class:`MalformedInputError`."""
    text = text if isinstance(text, str) else repr(text)
    digits = text[:4] + text[5:7] + text[8:]
    if len(text) != 10 or text[4] != "-" or text[7] != "-" or not (digits.isascii() and digits.isdigit()):
        raise MalformedInputError(f"a date is written YYYY-MM-DD, not {text!r}")
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise MalformedInputError(f"{text!r} is not a calendar date") from None
    if day.year < 1000:
        raise MalformedInputError(f"a daily deal's year is 1000..9999, not {day.year}")
    return day


def day_of_number(number: int) -> date:
    """The date a daily deal ID's number names (``20261203``); else :class:`MalformedInputError`."""
    if isinstance(number, bool) or not isinstance(number, int) or not FIRST_NUMBER <= number <= LAST_NUMBER:
        raise MalformedInputError(f"a daily deal's number is a date written YYYYMMDD, not {number!r}")
    text = str(number)
    return parse_day(f"{text[:4]}-{text[4:6]}-{text[6:]}")


def daily_id(game: str, day: date) -> DealId:
    """The daily deal ID of ``game`` (``pyramid`` or ``klondike``) on ``day``."""
    if game not in WINNABLE_CARDS:
        raise MalformedInputError(f"daily deals are for {' and '.join(WINNABLE_CARDS)}, not {game!r}")
    return DealId(game, "daily", VERSION, int(day.strftime("%Y%m%d")))


def daily_number(game: str, day: date) -> int:
    """The winnable deal number that is ``game``'s daily deal on ``day`` (a pure function)."""
    digest = hashlib.sha256(f"solitaire-rl daily v{VERSION} {game} {day.isoformat()}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % DAILY_RANGE


def daily_cards(game: str, day: date) -> tuple[int, ...]:
    """The 52 cards of ``game``'s daily deal on ``day``, in the game's deal order."""
    if game not in WINNABLE_CARDS:
        raise MalformedInputError(f"no daily deals for {game!r}: the games are {', '.join(WINNABLE_CARDS)}")
    return WINNABLE_CARDS[game](daily_number(game, day))


def _generate(deal_id: DealId) -> tuple[int, ...]:
    return daily_cards(deal_id.game, day_of_number(deal_id.number))


def register_daily_deals() -> None:
    """Make ``pyramid-daily-v1-YYYYMMDD`` and ``klondike-daily-v1-YYYYMMDD`` resolve (done when
    :mod:`solitaire_rl.agents.solver` is imported)."""
    for game in WINNABLE_CARDS:
        if not is_deal_type_registered(game, "daily", VERSION):
            register_deal_type(game, "daily", VERSION, _generate)


__all__ = ["DAILY_RANGE", "VERSION", "WINNABLE_CARDS", "daily_cards", "daily_id", "daily_number",
           "day_of_number", "parse_day", "register_daily_deals"]
