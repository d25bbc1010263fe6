"""Deal IDs, deal codes and card-name lists: every way a deal can be named.

* A **deal ID** such as ``pyramid-random-v1-42`` names a deal reproducibly: game, deal type,
  generator version, number. ``str(DealId.parse(s)) == s`` for every canonical ID. Type
  ``random`` is a uniform shuffle (:func:`solitaire_rl.envs.rng.shuffled` seeded with the ID's text); other
  types (``winnable``) are registered by the code that can generate them.
* A **deal code** spells the 52 cards in the game's deal order, two characters a card (rank
  ``A23456789TJQK``, suit ``CDHS``), 104 characters in all, e.g. ``6D5HAHJD...``. Pyramid's order
  is the 28 pyramid cards from the apex down, each row left to right, then the 24 stock cards
  from the top; Klondike documents its own order in :mod:`solitaire_rl.envs.klondike`.
* A **card-name list** is the same 52 cards as names (``["QS", "10H", "AD", ...]``), or on a
  command line those names joined by commas. Ranks ``A 2..10 J Q K``, suits ``C D H S``, any case.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from solitaire_rl.envs.cards import FULL_DECK, NUM_CARDS, RANK_CODE, SUITS, card_code, card_name, parse_card
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.rng import shuffled

GAMES = ("pyramid", "klondike")
DEAL_NUMBERS = 2**31
"""Random deal numbers are ``range(DEAL_NUMBERS)``: what the envs draw on ``reset(seed=...)``, the
play server deals and :mod:`solitaire_rl.training.splits` divides (a larger number is refused where it
matters)."""
"""Games whose deals this module names."""

DealGenerator = Callable[["DealId"], tuple[int, ...]]
_GENERATORS: dict[tuple[str, str, int], DealGenerator] = {}
_ID_PATTERN = re.compile(r"^\s*([a-z]+)-([a-z]+)-v(\d+)-(\d+)\s*$", re.IGNORECASE)
_ID_PREFIX = re.compile(r"^(pyramid|klondike)-[a-z]+-v\d+-", re.IGNORECASE)
"""The start of a deal ID: what follows must be its number (a deal code never starts so)."""


@dataclass(frozen=True, order=True)
class DealId:
    """A reproducible deal name: ``{game}-{kind}-v{version}-{number}``."""

    game: str
    kind: str
    version: int
    number: int

    def __str__(self) -> str:
        return f"{self.game}-{self.kind}-v{self.version}-{self.number}"

    @classmethod
    def parse(cls, text: str) -> DealId:
        """Parse ``pyramid-random-v1-42`` (any case); raise :class:`MalformedInputError` if unknown."""
        match = _ID_PATTERN.match(text) if isinstance(text, str) else None
        if match is None:
            raise MalformedInputError(
                f"{text!r} is not a deal ID: expected GAME-TYPE-vVERSION-NUMBER, "
                f"such as 'pyramid-random-v1-42'"
            )
        game, kind, version, number = match.groups()
        deal_id = cls(game.lower(), kind.lower(), int(version), int(number))
        deal_id.generator()  # validates game, kind and version
        return deal_id

    def generator(self) -> DealGenerator:
        """The registered generator for this ID's game, type and version."""
        key = (self.game, self.kind, self.version)
        if key not in _GENERATORS:
            known = ", ".join(f"{g}-{k}-v{v}" for g, k, v in sorted(_GENERATORS))
            hint = (
                " (importing solitaire_rl.agents.solver registers winnable deals)"
                if self.kind == "winnable"
                else ""
            )
            raise MalformedInputError(f"unknown deal ID {str(self)!r}: known kinds are {known}{hint}")
        return _GENERATORS[key]

    def cards(self) -> tuple[int, ...]:
        """The 52 cards of this deal, in the game's deal order."""
        return self.generator()(self)


def register_deal_type(game: str, kind: str, version: int, generator: DealGenerator) -> None:
    """Make IDs ``{game}-{kind}-v{version}-N`` resolve through ``generator``."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}")
    _GENERATORS[(game, kind, version)] = generator


def is_deal_type_registered(game: str, kind: str, version: int) -> bool:
    """Whether IDs of this game, type and version can be resolved now."""
    return (game, kind, version) in _GENERATORS


def _random_deal(deal_id: DealId) -> tuple[int, ...]:
    return tuple(shuffled(FULL_DECK, str(deal_id)))


for _game in GAMES:
    register_deal_type(_game, "random", 1, _random_deal)


def check_full_deck(cards: Sequence[int]) -> tuple[int, ...]:
    """Return ``cards`` as a tuple if it holds each of the 52 cards exactly once; else explain."""
    counts = Counter(cards)
    missing = [c for c in FULL_DECK if counts[c] == 0]
    doubled = sorted(c for c, n in counts.items() if n > 1)
    if len(cards) != NUM_CARDS or missing or doubled:
        parts = [f"a deal needs each of the 52 cards exactly once, got {len(cards)} cards"]
        if missing:
            parts.append("missing " + " ".join(card_name(c) for c in missing))
        if doubled:
            parts.append("doubled " + " ".join(card_name(c) for c in doubled))
        raise MalformedInputError("; ".join(parts))
    return tuple(cards)


def encode_deal_code(cards: Sequence[int]) -> str:
    """The 104-character deal code of 52 cards in deal order."""
    return "".join(card_code(c) for c in check_full_deck(cards))


def parse_deal_code(text: str) -> tuple[int, ...]:
    """Parse a deal code (``TH`` or ``10H`` for tens; spaces, commas, dashes ignored)."""
    if not isinstance(text, str):
        raise MalformedInputError(f"a deal code must be a string, not {type(text).__name__}")
    compact = re.sub(r"[\s,;\-]", "", text).upper().replace("10", "T")
    pairs = [compact[i : i + 2] for i in range(0, len(compact), 2)]
    for pair in pairs:
        if len(pair) != 2 or pair[0] not in RANK_CODE or pair[1] not in SUITS:
            raise MalformedInputError(
                f"malformed deal code: {pair!r} is not a card (each card is a rank from "
                f"{RANK_CODE} followed by a suit from {SUITS})"
            )
    return check_full_deck([parse_card(pair) for pair in pairs])


def parse_card_names(names: str | Sequence[str]) -> tuple[int, ...]:
    """Parse 52 card names, as a sequence or as one comma-separated string."""
    items = names.split(",") if isinstance(names, str) else list(names)
    return check_full_deck([parse_card(n) for n in items])


@dataclass(frozen=True)
class Deal:
    """52 cards in deal order, with the ID that named them (``None`` for a typed-in deal)."""

    cards: tuple[int, ...]
    deal_id: DealId | None = None

    @property
    def code(self) -> str:
        return encode_deal_code(self.cards)

    @property
    def label(self) -> str:
        """The deal ID if there is one, else the deal code: what ``info["deal_id"]`` shows."""
        return str(self.deal_id) if self.deal_id is not None else self.code


def resolve_deal(spec: object, game: str) -> Deal:
    """Turn any accepted deal description into a :class:`Deal` of ``game``.

    Accepts a :class:`Deal`, a :class:`DealId`, an ID string, a deal code, a comma-joined list of
    card names, or a sequence of 52 card names or card integers.
    """
    if isinstance(spec, Deal):
        return spec
    if isinstance(spec, DealId):
        deal_id = spec
    elif isinstance(spec, str):
        text = spec.strip()
        if not _ID_PATTERN.match(text):
            if prefix := _ID_PREFIX.match(text):
                raise MalformedInputError(
                    f"{text[:40]!r} is not a deal ID: the deal number after {prefix[0]!r} must be a whole "
                    "number, 0 or more"
                )
            if "," in text:
                return Deal(parse_card_names(text))
            try:
                return Deal(parse_deal_code(text))
            except MalformedInputError as exc:
                raise MalformedInputError(
                    f"{text[:40]!r} is neither a deal ID (such as '{game}-random-v1-42') nor a "
                    f"valid deal code: {exc}"
                ) from None
        deal_id = DealId.parse(text)
    elif isinstance(spec, Sequence) and not isinstance(spec, bytes):
        items = list(spec)
        if all(isinstance(c, str) for c in items):
            return Deal(parse_card_names(items))
        if all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c < NUM_CARDS for c in items):
            return Deal(check_full_deck(items))
        raise MalformedInputError("a deal list must hold 52 card names or 52 card numbers 0..51")
    else:
        raise MalformedInputError(f"cannot read a deal from {type(spec).__name__}")
    if deal_id.game != game:
        raise MalformedInputError(f"deal ID {str(deal_id)!r} is a {deal_id.game} deal, not {game}")
    return Deal(deal_id.cards(), deal_id)
