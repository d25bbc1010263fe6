"""Klondike deals: deal order, the golden deal, every accepted spelling, Solvitaire JSON round trips."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solitaire_rl.envs.cards import card_name, parse_card
from solitaire_rl.envs.deals import Deal, DealId, encode_deal_code
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike import (
    DRAW_MOVE,
    KlondikeGame,
    deal_order,
    deal_table,
    parse_solvitaire,
    resolve_klondike_deal,
    to_solvitaire,
    to_solvitaire_json,
)
from solitaire_rl.envs.klondike.layout import DEAL_SLOTS

# Source: /work/shared/fixtures/README.md -- "`klondike_draw3_solvitaire.jsonl`: 40 random Klondike deals
# in Solvitaire's JSON format (tableau piles bottom to top, lower-case suit = face down; stock dealt from
# the end of the list), with Solvitaire's draw-3 `--classify` verdict at a 30 s limit: `solved`,
# `unsolvable` or `timed-out` (unknown)." Lines 1, 2 and 5 of that file:
SOLVITAIRE_FIXTURES = [
    '{"tableau piles": [["JS"], ["10c", "QH"], ["10d", "3c", "KH"], ["7d", "Qc", "10h", "6C"], ["4h", "Ks", '
    '"5s", "3d", "JD"], ["8s", "9s", "9d", "2s", "As", "KC"], ["Qs", "7h", "8d", "Kd", "Ah", "9h", "JC"]], '
    '"stock": ["8H", "4C", "6D", "2D", "5D", "6S", "AC", "2H", "4S", "2C", "7S", "7C", "AD", "QD", "3S", '
    '"5H", "3H", "6H", "8C", "4D", "5C", "10S", "JH", "9C"]}',
    '{"tableau piles": [["3D"], ["4h", "10C"], ["9d", "5c", "7C"], ["Ks", "Ah", "10d", "QD"], ["9c", "9h", '
    '"Jh", "6d", "2S"], ["5h", "7s", "8c", "8d", "6h", "JS"], ["6s", "8s", "Kc", "3s", "2d", "Qc", "AC"]], '
    '"stock": ["AS", "2C", "8H", "5D", "10H", "3H", "10S", "7H", "KD", "2H", "9S", "QH", "3C", "5S", "AD", '
    '"KH", "4D", "7D", "4S", "JC", "JD", "QS", "6C", "4C"]}',
    '{"tableau piles": [["QC"], ["6d", "10C"], ["Kh", "5s", "2H"], ["Js", "Jh", "Qs", "KS"], ["10s", "Kd", '
    '"2s", "7h", "3H"], ["6h", "5d", "9d", "2d", "8d", "7D"], ["5c", "3c", "Ah", "Kc", "9h", "6c", "9C"]], '
    '"stock": ["AD", "7S", "QH", "AC", "10H", "7C", "QD", "4S", "5H", "JD", "8C", "JC", "4C", "8S", "3D", '
    '"4H", "2C", "8H", "3S", "6S", "10D", "9S", "4D", "AS"]}',
]

decks = st.permutations(list(range(52)))


def names(cards) -> list[str]:
    return [card_name(c) for c in cards]


# ------------------------------------------------------------------ deal order
def test_golden_deal_klondike_random_v1_1() -> None:
    """``klondike-random-v1-1`` is pinned: a change to the PRNG, shuffle or deal order breaks it."""
    game = KlondikeGame("klondike-random-v1-1")
    assert [names(col) for col in game.columns] == [
        ["10D"],
        ["8D", "8H"],
        ["4D", "QD", "KC"],
        ["AS", "6S", "4S", "8S"],
        ["2H", "QC", "3C", "7D", "9S"],
        ["3S", "7H", "6H", "JD", "AD", "8C"],
        ["9H", "2D", "5H", "9D", "3D", "4C", "AC"],
    ]
    assert names(reversed(game.stock)) == [
        "3H", "6D", "QH", "AH", "7C", "5S", "4H", "2S", "KD", "KH", "KS", "7S",
        "QS", "10C", "10H", "JH", "5C", "6C", "5D", "2C", "9C", "JS", "10S", "JC",
    ]
    assert game.deal.code == (
        "TD8D4DAS2H3S9H8HQD6SQC7H2DKC4S3C6H5H8S7DJD9D9SAD3D8C4CAC"
        "3H6DQHAH7C5S4H2SKDKHKS7SQSTCTHJH5C6C5D2C9CJSTSJC"
    )


def test_deal_order_is_row_by_row_as_a_person_deals_then_the_stock_from_the_top() -> None:
    assert DEAL_SLOTS[:7] == tuple((c, 0) for c in range(7))  # pass 1: one card on each column
    assert DEAL_SLOTS[7:13] == tuple((c, 1) for c in range(1, 7))  # pass 2: columns 2..7
    assert DEAL_SLOTS[27] == (6, 6)  # the last tableau card is column 7's face-up card
    cards = list(range(52))
    columns, stock = deal_table(cards)
    assert [col[-1] for col in columns] == [0, 7, 13, 18, 22, 25, 27]  # each pass's first card, face up
    assert columns[6] == [6, 12, 17, 21, 24, 26, 27]
    assert stock[-1] == 28 and stock[0] == 51  # the top of the stock (drawn first) is index 28
    game = KlondikeGame(cards)
    game.push(DRAW_MOVE)
    assert game.waste == [28, 29, 30]


@settings(max_examples=50, deadline=None)
@given(decks)
def test_deal_table_and_deal_order_are_inverse(cards: list[int]) -> None:
    columns, stock = deal_table(cards)
    assert deal_order(columns, stock[::-1]) == tuple(cards)
    game = KlondikeGame(cards)
    assert game.columns == columns and game.stock == stock
    assert game.hidden == [0, 1, 2, 3, 4, 5, 6]


# ------------------------------------------------------------------ accepted spellings
def test_every_spelling_of_a_deal_gives_the_same_cards() -> None:
    deal_id = DealId.parse("klondike-random-v1-42")
    cards = deal_id.cards()
    code = encode_deal_code(cards)
    spellings = [
        "klondike-random-v1-42", " KLONDIKE-random-v1-42 ", deal_id, Deal(cards, deal_id), code,
        ",".join(names(cards)), names(cards), list(cards), to_solvitaire(cards), to_solvitaire_json(cards),
    ]
    for spec in spellings:
        assert resolve_klondike_deal(spec).cards == cards, spec
    assert KlondikeGame("klondike-random-v1-42").deal.label == "klondike-random-v1-42"
    assert KlondikeGame(code).deal.label == code


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("klondike-random-v9-1", "unknown deal ID"),
        ("pyramid-random-v1-1", "pyramid deal, not klondike"),
        ("TD8D", "exactly once"),
        ("XX" * 52, "malformed deal code"),
        ("AS," * 51 + "KS", "exactly once"),
        ([0] * 52, "exactly once"),
        ({"tableau piles": []}, "7 piles"),
        ("{not json", "Solvitaire JSON"),
        (3.5, "cannot read a deal"),
    ],
)
def test_bad_deals_are_refused_with_a_clear_error(spec: object, message: str) -> None:
    with pytest.raises(MalformedInputError, match=message):
        resolve_klondike_deal(spec)


# ------------------------------------------------------------------ Solvitaire JSON
@pytest.mark.parametrize("text", SOLVITAIRE_FIXTURES)
def test_solvitaire_fixture_deals_round_trip(text: str) -> None:
    data = json.loads(text)
    cards = parse_solvitaire(text)
    assert parse_solvitaire(data) == cards
    assert to_solvitaire(cards) == data
    assert to_solvitaire_json(cards) == json.dumps(data)
    game = KlondikeGame(data)
    for col, pile in zip(game.columns, data["tableau piles"], strict=True):
        assert col == [parse_card(name) for name in pile]  # bottom to end, as in the file
    # the end of Solvitaire's "stock" list is the top: the first draw deals its last three cards
    game.push(DRAW_MOVE)
    assert game.waste == [parse_card(name) for name in data["stock"][::-1][:3]]


@settings(max_examples=50, deadline=None)
@given(decks)
def test_solvitaire_round_trip_of_any_deal(cards: list[int]) -> None:
    data = to_solvitaire(cards)
    assert parse_solvitaire(data) == tuple(cards)
    assert parse_solvitaire(json.dumps(data)) == tuple(cards)
    piles = data["tableau piles"]
    assert [len(p) for p in piles] == [1, 2, 3, 4, 5, 6, 7]
    assert all(name[-1].isupper() == (i == len(p) - 1) for p in piles for i, name in enumerate(p))
    assert data["stock"][-1] == card_name(cards[28])


def test_solvitaire_reads_numeric_ranks_and_empty_extras() -> None:
    data = json.loads(SOLVITAIRE_FIXTURES[0])
    cards = parse_solvitaire(data)
    data["tableau piles"][0] = ["11S"]  # JS written as a number, as Solvitaire allows
    data["stock"] = [s.replace("A", "1") for s in data["stock"]]
    data |= {"waste": [], "foundations": [[], [], [], []]}
    assert parse_solvitaire(data) == cards


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["tableau piles"].pop(), "7 piles"),
        (lambda d: d["tableau piles"][1].pop(0), "pile 2 of a starting deal holds 2 cards"),
        (lambda d: d["tableau piles"][1].__setitem__(1, "QH".lower()), "should be face up"),
        (lambda d: d["tableau piles"][2].__setitem__(0, "10D"), "should be face down"),
        (lambda d: d["stock"].__setitem__(0, "JS"), "exactly once"),
        (lambda d: d["stock"].__setitem__(0, "1X"), "not a Solvitaire card"),
        (lambda d: d.__setitem__("waste", ["8H"]), "must be empty"),
        (lambda d: d.__setitem__("reserve", []), "no field 'reserve'"),
        (lambda d: d.__setitem__("foundations", 5), "'foundations' must be empty"),
        (lambda d: d.__setitem__("foundations", [5]), "'foundations' must be empty"),
        (lambda d: d.__setitem__("foundations", [[], "AH"]), "'foundations' must be empty"),
    ],
)
def test_malformed_solvitaire_deals_are_refused(change, message: str) -> None:
    data = json.loads(SOLVITAIRE_FIXTURES[0])
    change(data)
    with pytest.raises(MalformedInputError, match=message):
        parse_solvitaire(data)


@pytest.mark.parametrize("foundations", [5, "AH", ["AH"], [[], ["AS"]]])
def test_a_solvitaire_position_with_cards_up_is_refused_whatever_the_field_holds(foundations) -> None:
    from solitaire_rl.agents.solver.klondike import KlondikePosition

    data = json.loads(SOLVITAIRE_FIXTURES[0]) | {"foundations": foundations}
    with pytest.raises(MalformedInputError, match="'foundations' must be empty"):
        KlondikePosition.from_solvitaire(data)
