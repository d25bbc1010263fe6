"""Cards as integers 0..51: rank, suit, colour, names and codes, and parsing names back."""

from __future__ import annotations

import pytest

from solitaire_rl.envs.cards import (
    FULL_DECK,
    NUM_CARDS,
    card_code,
    card_name,
    is_red,
    make_card,
    parse_card,
    rank,
    suit,
)
from solitaire_rl.envs.errors import MalformedInputError, SolitaireError


def test_card_numbering_is_rank_major_then_suit_cdhs() -> None:
    assert make_card(1, 0) == 0 and card_name(0) == "AC"
    assert make_card(1, 3) == 3 and card_name(3) == "AS"
    assert make_card(10, 2) == 38 and card_name(38) == "10H" and card_code(38) == "TH"
    assert make_card(13, 3) == 51 and card_name(51) == "KS"
    assert tuple(range(52)) == FULL_DECK and NUM_CARDS == 52


def test_every_card_round_trips_through_rank_suit_name_and_code() -> None:
    for card in FULL_DECK:
        assert make_card(rank(card), suit(card)) == card
        assert parse_card(card_name(card)) == card
        assert parse_card(card_code(card)) == card
        assert parse_card(card_name(card).lower()) == card
    assert len({card_name(c) for c in FULL_DECK}) == 52 == len({card_code(c) for c in FULL_DECK})


def test_diamonds_and_hearts_are_red() -> None:
    assert [is_red(make_card(5, s)) for s in range(4)] == [False, True, True, False]
    assert sum(is_red(c) for c in FULL_DECK) == 26


@pytest.mark.parametrize(("text", "expected"), [
    ("10h", (10, 2)), ("TH", (10, 2)), (" qs ", (12, 3)), ("Ad", (1, 1)), ("kC", (13, 0)), ("7S", (7, 3)),
])
def test_parse_card_accepts_any_case_ten_as_10_or_t(text: str, expected: tuple[int, int]) -> None:
    assert parse_card(text) == make_card(*expected)


@pytest.mark.parametrize("text", ["", "H", "1H", "11H", "QX", "QSS", "0C", "ZZ"])
def test_parse_card_rejects_what_is_not_a_card_and_quotes_it(text: str) -> None:
    with pytest.raises(MalformedInputError) as info:
        parse_card(text)
    assert repr(text) in str(info.value)


def test_parse_card_rejects_non_strings() -> None:
    with pytest.raises(MalformedInputError):
        parse_card(5)  # type: ignore[arg-type]


@pytest.mark.parametrize(("r", "s"), [(0, 0), (14, 0), (1, -1), (1, 4)])
def test_make_card_rejects_impossible_cards(r: int, s: int) -> None:
    with pytest.raises(MalformedInputError):
        make_card(r, s)


def test_errors_are_value_errors() -> None:
    assert issubclass(MalformedInputError, SolitaireError) and issubclass(SolitaireError, ValueError)
