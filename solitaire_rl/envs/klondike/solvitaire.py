"""Klondike deals in Solvitaire's JSON format, the format Solvitaire and lonelybot exchange.

A deal reads ``{"tableau piles": [[...], ... 7 piles], "stock": [...]}``:

* each tableau pile lists its cards **from the bottom to the end** (the last card is the face-up
  one a person can move);
* a card is a rank (``A``/``1``, ``2``..``10``, ``J``/``11``, ``Q``/``12``, ``K``/``13``) and a suit
  letter; an **upper-case suit is face up, a lower-case suit face down** (``"10h"`` is a face-down
  ten of hearts, ``"QS"`` a face-up queen of spades);
* ``"stock"`` lists the stock **from the bottom to the top: the last element is the top card, the
  first one drawn**.

The stock's direction was checked against Solvitaire's source: its deal parser pushes the JSON
stock cards onto the stock pile in list order, and a stock-to-waste move takes the pile's last
card; lonelybot's exporter writes its deck reversed for the same reason. The fixture
``klondike_draw3_solvitaire.jsonl`` states the same ("stock dealt from the end of the list").
So JSON ``stock == list(reversed(cards[28:]))`` for a deal in this project's deal order.

Only starting deals are read: 7 piles of 1..7 cards, every card face down except each pile's last,
24 stock cards, and no waste or foundation cards (empty ``"waste"``/``"foundations"`` lists, and
lonelybot's ``"foundation"``, are accepted).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import TypeGuard

from solitaire_rl.envs.cards import RANK_NAMES, SUITS, make_card
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike.layout import NUM_COLUMNS, deal_order, deal_table

_CARD = re.compile(r"^(10|11|12|13|[1-9]|[AaJjQqKkTt])([CDHScdhs])$")
_RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10}
_KEYS = {"tableau piles", "stock", "waste", "foundations", "foundation"}


def _is_list(value: object) -> TypeGuard[Sequence[object]]:
    return isinstance(value, Sequence) and not isinstance(value, str | bytes)


def _parse_card(text: object) -> tuple[int, bool]:
    """A Solvitaire card name -> (card, face_up)."""
    match = _CARD.match(text) if isinstance(text, str) else None
    if match is None:
        raise MalformedInputError(
            f"{text!r} is not a Solvitaire card: expected a rank (A, 2..10, J, Q, K) and a suit "
            f"letter, upper case face up and lower case face down, such as 'QS' or '10h'"
        )
    rank_text, suit_text = match.groups()
    rank = _RANKS[rank_text.upper()] if rank_text.upper() in _RANKS else int(rank_text)
    return make_card(rank, SUITS.index(suit_text.upper())), suit_text.isupper()


def _card_text(card: int, face_up: bool) -> str:
    suit = SUITS[card & 3]
    return RANK_NAMES[card >> 2] + (suit if face_up else suit.lower())


def parse_solvitaire_card(text: object) -> tuple[int, bool]:
    """A Solvitaire card (``10h``, ``QS``): the card and whether it is face up (upper-case suit)."""
    return _parse_card(text)


def load_solvitaire(deal: str | Mapping[str, object]) -> Mapping[str, object]:
    """The JSON object of a Solvitaire Klondike deal (text or an already-parsed dict), its field
    names checked; what the fields hold is for the reader of each kind of deal to check."""
    if isinstance(deal, str):
        try:
            deal = json.loads(deal)
        except json.JSONDecodeError as exc:
            raise MalformedInputError(f"not a Solvitaire JSON deal: {exc}") from None
    if not isinstance(deal, Mapping):
        raise MalformedInputError(f"a Solvitaire deal is a JSON object, not {type(deal).__name__}")
    unknown = set(deal) - _KEYS
    if unknown:
        raise MalformedInputError(f"a Solvitaire Klondike deal has no field {sorted(unknown)[0]!r}")
    return deal


def parse_solvitaire(deal: str | Mapping[str, object]) -> tuple[int, ...]:
    """Read a Solvitaire JSON deal (text or an already-parsed dict); return 52 cards in deal order."""
    deal = load_solvitaire(deal)
    for key in ("waste", "foundations", "foundation"):
        extra = deal.get(key, [])
        if not _is_list(extra) or (extra if key == "waste" else
                                   [c for p in extra for c in (p if _is_list(p) else [p])]):
            raise MalformedInputError(f"only starting deals are read: {key!r} must be empty")
    piles = deal.get("tableau piles")
    stock = deal.get("stock")
    if not _is_list(piles) or len(piles) != NUM_COLUMNS:
        raise MalformedInputError("a Solvitaire Klondike deal needs 'tableau piles': a list of 7 piles")
    if not _is_list(stock):
        raise MalformedInputError("a Solvitaire Klondike deal needs 'stock': a list of cards")
    columns: list[list[int]] = []
    for c, pile in enumerate(piles):
        if not _is_list(pile) or len(pile) != c + 1:
            raise MalformedInputError(f"tableau pile {c + 1} of a starting deal holds {c + 1} cards")
        column: list[int] = []
        for i, text in enumerate(pile):
            card, face_up = _parse_card(text)
            if face_up != (i == c):
                raise MalformedInputError(
                    f"tableau pile {c + 1}: {text!r} should be face "
                    f"{'up (upper-case suit)' if i == c else 'down (lower-case suit)'} in a starting deal"
                )
            column.append(card)
        columns.append(column)
    stock_cards = [_parse_card(text)[0] for text in stock]
    return deal_order(columns, stock_cards[::-1])


def to_solvitaire(cards: Sequence[int]) -> dict[str, list]:
    """The Solvitaire JSON object (as a dict) of 52 cards in deal order."""
    columns, stock = deal_table(cards)
    return {
        "tableau piles": [[_card_text(c, i == len(col) - 1) for i, c in enumerate(col)] for col in columns],
        "stock": [_card_text(c, True) for c in stock],
    }


def to_solvitaire_json(cards: Sequence[int]) -> str:
    """The Solvitaire JSON text of 52 cards in deal order (one line, as in the fixtures)."""
    return json.dumps(to_solvitaire(cards))


def looks_like_solvitaire(spec: object) -> bool:
    """Whether ``spec`` is meant as a Solvitaire deal: a mapping, or text starting with ``{``."""
    return isinstance(spec, Mapping) or (isinstance(spec, str) and spec.lstrip().startswith("{"))

__all__ = [
    "load_solvitaire", "looks_like_solvitaire", "parse_solvitaire", "parse_solvitaire_card", "to_solvitaire",
    "to_solvitaire_json",
]
