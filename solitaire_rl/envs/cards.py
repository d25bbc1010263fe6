"""Cards as small integers, with names that round-trip through text.

A card is an ``int`` in ``0..51``: ``(rank - 1) * 4 + suit`` where rank is 1 (Ace) .. 13 (King)
and suit is 0..3 for clubs, diamonds, hearts, spades. Integers keep the engines fast; the
functions here give each card its name (``"10H"``, ``"QS"``) and parse names back, in either case.
"""

from __future__ import annotations

from solitaire_rl.envs.errors import MalformedInputError

SUITS = "CDHS"
"""Suit letters in index order: clubs, diamonds, hearts, spades."""
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Rank names for ranks 1..13, as written in card names."""
RANK_CODE = "A23456789TJQK"
"""One character per rank (``T`` is 10), as written in deal codes."""
NUM_CARDS = 52
FULL_DECK: tuple[int, ...] = tuple(range(NUM_CARDS))

_RANK_BY_NAME = {name: i + 1 for i, name in enumerate(RANK_NAMES)} | {"T": 10}


def make_card(rank: int, suit: int) -> int:
    """Return the card of ``rank`` (1..13) and ``suit`` (0..3)."""
    if not (1 <= rank <= 13 and 0 <= suit <= 3):
        raise MalformedInputError(f"no card has rank {rank} and suit {suit}")
    return (rank - 1) * 4 + suit


def rank(card: int) -> int:
    """Rank 1 (Ace) .. 13 (King)."""
    return (card >> 2) + 1


def suit(card: int) -> int:
    """Suit index 0..3 (``SUITS[suit]``)."""
    return card & 3


def is_red(card: int) -> bool:
    """Diamonds and hearts are red; clubs and spades black."""
    return (card & 3) in (1, 2)


def card_name(card: int) -> str:
    """The card's name, e.g. ``"10H"``, ``"AS"``."""
    return RANK_NAMES[card >> 2] + SUITS[card & 3]


def card_code(card: int) -> str:
    """The card's two-character code, e.g. ``"TH"``, ``"AS"``."""
    return RANK_CODE[card >> 2] + SUITS[card & 3]


def parse_card(text: str) -> int:
    """Parse a card name such as ``"10H"``, ``"th"``, ``"qs"`` or ``"AD"``."""
    if not isinstance(text, str):
        raise MalformedInputError(f"a card name must be a string, not {text!r}")
    name = text.strip().upper()
    if len(name) < 2 or name[:-1] not in _RANK_BY_NAME or name[-1] not in SUITS:
        raise MalformedInputError(
            f"{text!r} is not a card name: expected a rank (A, 2..10, J, Q, K) "
            f"followed by a suit (C, D, H, S), such as '10H' or 'QS'"
        )
    return make_card(_RANK_BY_NAME[name[:-1]], SUITS.index(name[-1]))
