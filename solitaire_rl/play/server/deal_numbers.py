"""The deal numbers the play server opens, and the variant a Pyramid deal ID belongs to.

A random deal's number is 0..2,147,483,647 (``2**31 - 1``: the numbers :mod:`solitaire_rl.training.splits`
divides and the server deals new games from), and so is a Pyramid winnable deal's; a Klondike
winnable deal's is 0..:data:`solitaire_rl.agents.solver.klondike_winnable.MAX_NUMBER` (twelve digits). A deal
ID
outside its range raises :class:`DealOutOfRange` (422 ``DEAL_OUT_OF_RANGE``, nothing stored); a daily
deal's number is a date, checked by :mod:`solitaire_rl.agents.solver.daily` (400 when off the calendar),
and a date still to come anywhere is out of range too (:func:`check_daily_date`).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from solitaire_rl.agents.solver.daily import day_of_number
from solitaire_rl.agents.solver.klondike_winnable import MAX_NUMBER as KLONDIKE_WINNABLE_MAX
from solitaire_rl.envs.deals import DEAL_NUMBERS, DealId
from solitaire_rl.envs.errors import MalformedInputError

RANDOM_MAX = DEAL_NUMBERS - 1
"""The largest random deal number: the server's new deals and the splits use ``0 .. 2**31 - 1``."""
NUMBER_RANGES = {("pyramid", "random"): RANDOM_MAX, ("klondike", "random"): RANDOM_MAX,
                 ("pyramid", "winnable"): RANDOM_MAX, ("klondike", "winnable"): KLONDIKE_WINNABLE_MAX}
"""The largest number of each game's deal type; the smallest is 0."""
WINNABLE_VARIANT = "001"
"""Pyramid's winnable deals are proved in variant 001, whose menu offers them: they open there."""


class DealOutOfRange(Exception):
    """A deal ID whose number is outside its deal type's range: 422, in English and Japanese."""

    def __init__(self, en: str, ja: str) -> None:
        super().__init__(en)
        self.en, self.ja = en, ja


def deal_id_of(text: str | None) -> DealId | None:
    """The deal ID ``text`` names, or ``None`` (no deal, a code, a card list, or an ID that is not
    known: those are read, and refused if need be, where the deal is resolved)."""
    if text is None:
        return None
    try:
        return DealId.parse(text.strip())
    except MalformedInputError:
        return None


def check_deal_number(text: str | None) -> None:
    """Raise :class:`DealOutOfRange` if ``text`` is a random or winnable deal ID whose number is
    outside its range; anything else passes (and is read where the deal is resolved)."""
    deal_id = deal_id_of(text)
    if deal_id is not None and deal_id.kind == "daily":
        check_daily_date(deal_id)
        return
    if deal_id is None or (deal_id.game, deal_id.kind) not in NUMBER_RANGES:
        return
    last = NUMBER_RANGES[(deal_id.game, deal_id.kind)]
    if 0 <= deal_id.number <= last:
        return
    digits = str(deal_id.number)
    shown = digits if len(digits) <= 16 else f"{digits[:12]}… ({len(digits)} digits)"
    raise DealOutOfRange(
        f"Deal number {shown} is out of range: {deal_id.game} {deal_id.kind} deals are numbered 0..{last}, "
        f"such as {deal_id.game}-{deal_id.kind}-v{deal_id.version}-42.",
        f"配りの番号 {shown if len(digits) <= 16 else digits[:12] + '…'} は範囲外です。"
        f"番号は 0 から {last} までです")


LATEST_ZONE = timedelta(hours=14)
"""The farthest ahead of UTC a player's local date can be (UTC+14): a later daily deal is not out yet."""


def check_daily_date(deal_id: DealId, now: datetime | None = None) -> None:
    """Raise :class:`DealOutOfRange` for a daily deal of a date still to come everywhere on Earth
    (issue 51: tomorrow's deal could be typed in and counted towards today's streak); a date off the
    calendar is left to where the deal is resolved."""
    try:
        day = day_of_number(deal_id.number)
    except MalformedInputError:
        return
    latest = ((now or datetime.now(UTC)) + LATEST_ZONE).date()
    if day > latest:
        shown = day.isoformat()
        raise DealOutOfRange(f"The daily deal of {shown} is not out yet: a daily deal opens on its day.",
                             f"{shown} の今日の配りはまだ公開されていません。その日になると遊べます")


def pyramid_variant(text: str | None, variant: str) -> str:
    """The variant a Pyramid game of deal ``text`` opens in: a winnable deal ID's is 001, where
    the menu offers winnable deals (``variant`` asked for 000 is overridden); else ``variant``."""
    deal_id = deal_id_of(text)
    return WINNABLE_VARIANT if deal_id is not None and deal_id.kind == "winnable" else variant


__all__ = ["LATEST_ZONE", "NUMBER_RANGES", "RANDOM_MAX", "WINNABLE_VARIANT", "DealOutOfRange",
           "check_daily_date", "check_deal_number", "deal_id_of", "pyramid_variant"]
