"""The parts of the JSON state both pages render alike: a card and a notice. Each game's whole state
is its own: :mod:`solitaire_rl.play.server.pyramid_view`, :mod:`solitaire_rl.play.server.klondike_view`."""

from __future__ import annotations

from typing import Any

from solitaire_rl.envs.cards import card_name, rank
from solitaire_rl.play.server.session import Notice
from solitaire_rl.play.server.wording import spoken, spoken_ja

SUIT_SYMBOLS = "♣♦♥♠"


def card_json(card: int | None) -> dict[str, Any] | None:
    """A card's name, rank, suit symbol and spoken name (``None`` for no card)."""
    if card is None:
        return None
    return {"card": card, "name": card_name(card), "rank": rank(card), "suit": SUIT_SYMBOLS[card & 3],
            "red": (card & 3) in (1, 2), "spoken": spoken(card), "spoken_ja": spoken_ja(card)}


def notice_json(notice: Notice | None) -> dict[str, str] | None:
    if notice is None:
        return None
    return {"code": notice.code, "en": notice.en, "ja": notice.ja, "kind": notice.kind}


__all__ = ["SUIT_SYMBOLS", "card_json", "notice_json"]
