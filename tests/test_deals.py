"""Deal IDs, deal codes and card-name lists: golden deals, round trips, and clear errors."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solitaire_rl.envs import deals
from solitaire_rl.envs.cards import FULL_DECK, card_name, parse_card
from solitaire_rl.envs.deals import (
    Deal,
    DealId,
    check_full_deck,
    encode_deal_code,
    parse_card_names,
    parse_deal_code,
    register_deal_type,
    resolve_deal,
)
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.rng import SplitMix64, fnv1a64, shuffled

# Computed once from the documented generator (solitaire_rl/envs/rng.py) and pinned: a change to the PRNG, the
# shuffle or the deal order changes what every published deal ID means.
GOLDEN = {
    "pyramid-random-v1-0": (
        "3HTH6SJS2D2S8S2C5S6H9HKC4H5C9S7CQDJCKDACKHKS6D8HJH5D"
        "6C7SQC8DADTC9C7H4CAS4SJD5H2H3SQHTDQS8C3CTS7D3D4DAH9D"
    ),
    "pyramid-random-v1-42": (
        "4D9SQHKH9C7C9DKDKC4CKSAD3S2S8CJH8HAHQC4SJD3HACASTC8S"
        "2D7DJS4H5H3D6S6DTS6C5D7S5CTH2H9HQD6H7H3C5S2CTDQS8DJC"
    ),
    "pyramid-random-v1-123456789": (
        "4D4C9HAD4HJC3CJS7H2C7DTD2HKSTHJH5CTCQS2DKD8DKH6S6D9D"
        "5S6CAC4S8H7C2S3S9S3D8C3HJDAH7S5HQD6HQHKC9CAS8STSQC5D"
    ),
    "klondike-random-v1-0": (
        "8D2SKC9DTCTSAD9C8C5HJS4CKD3DKH9H5SAH2D2CTH5CQC6DAC2H"
        "QS6HJD3C3S5D3H7HJC4S8SJH7SQD7D6CTD8H6SQH4D9SASKS4H7C"
    ),
    "klondike-random-v1-42": (
        "5D8C2H7S5S3D5CQHQCQDKD5H8H6HTS2SJCTHAS3S3CJDAH2D8DTC"
        "9C4SQS2C6SKS4CJH8S7CKH4HAC3H4D7HKCAD7D6C9DTD9H9S6DJS"
    ),
}

# Source of the fixture: mchung94/pyramid-solver, resources/random-decks.txt (MIT licence), copied
# from /work/shared/fixtures/pyramid_000_verdicts.jsonl (deck 0): 28 pyramid cards from the apex
# down, each row left to right, then the 24 stock cards from the top.
FIXTURE_DECK_0 = json.loads(
    '["6D", "5H", "AH", "JD", "4S", "KS", "6S", "8C", "2H", "4D", "9S", "KD", "6C", "AD", "8S", "AC", '
    '"5C", "9D", "7H", "3H", "8D", "5S", "4C", "QC", "JH", "KC", "KH", "3C", "3S", "9C", "AS", "5D", '
    '"QH", "10S", "4H", "7S", "10D", "9H", "10H", "7C", "8H", "2C", "7D", "10C", "2D", "6H", "2S", '
    '"JS", "QD", "3D", "QS", "JC"]'
)

permutations = st.permutations(list(FULL_DECK))


# ------------------------------------------------------------------ the generator
def test_splitmix64_matches_the_published_reference_outputs() -> None:
    # Vigna's splitmix64.c from state 0, and the Rosetta Code "Pseudo-random numbers/Splitmix64" task
    # from seed 1234567.
    rng = SplitMix64(0)
    assert [rng.next() for _ in range(4)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F, 0xF88BB8A8724C81EC,
    ]
    rng = SplitMix64(1234567)
    assert [rng.next() for _ in range(5)] == [
        6457827717110365317, 3203168211198807973, 9817491932198370423, 4593380528125082431,
        16408922859458223821,
    ]


def test_fnv1a64_matches_the_reference_test_vectors() -> None:
    assert fnv1a64("") == 0xCBF29CE484222325
    assert fnv1a64("a") == 0xAF63DC4C8601EC8C
    assert fnv1a64("foobar") == 0x85944171F73967E8


def test_shuffle_is_pinned_and_a_permutation() -> None:
    assert shuffled(list(range(10)), "test") == [0, 4, 3, 9, 1, 2, 5, 6, 8, 7]
    assert sorted(shuffled(FULL_DECK, "anything")) == list(FULL_DECK)


@given(st.integers(1, 1000), st.integers(0, 2**64 - 1))
def test_below_stays_in_range(n: int, seed: int) -> None:
    rng = SplitMix64(seed)
    assert all(0 <= rng.below(n) < n for _ in range(5))


# ------------------------------------------------------------------ deal IDs
@pytest.mark.parametrize(("deal_id", "code"), GOLDEN.items())
def test_golden_deal_ids_keep_their_cards(deal_id: str, code: str) -> None:
    cards = DealId.parse(deal_id).cards()
    assert encode_deal_code(cards) == code
    assert resolve_deal(deal_id, deal_id.split("-")[0]).cards == cards


def test_the_same_number_deals_differently_in_each_game() -> None:
    assert GOLDEN["pyramid-random-v1-0"] != GOLDEN["klondike-random-v1-0"]


@pytest.mark.parametrize("text", [
    "pyramid-random-v1-0", "klondike-random-v1-42", "pyramid-random-v1-99999999999",
])
def test_deal_id_round_trips(text: str) -> None:
    deal_id = DealId.parse(text)
    assert str(deal_id) == text and DealId.parse(str(deal_id)) == deal_id


def test_deal_id_parsing_ignores_case_and_spaces() -> None:
    assert DealId.parse("  Pyramid-RANDOM-V1-7 ") == DealId("pyramid", "random", 1, 7)


@pytest.mark.parametrize("text", ["pyramid-random-v2-1", "pyramid-winnable-v7-1", "freecell-random-v1-1"])
def test_unknown_deal_ids_are_refused_by_name(text: str) -> None:
    with pytest.raises(MalformedInputError, match="unknown deal ID") as info:
        DealId.parse(text)
    assert text in str(info.value) and "pyramid-random-v1" in str(info.value)


@pytest.mark.parametrize("text", [
    "pyramid-random-1", "pyramid-random-v1-", "pyramid_random_v1_3", "", "v1-3",
])
def test_malformed_deal_ids_are_refused(text: str) -> None:
    with pytest.raises(MalformedInputError, match="not a deal ID"):
        DealId.parse(text)


def test_registering_a_deal_type_makes_its_ids_resolve(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(deals, "_GENERATORS", dict(deals._GENERATORS))  # undone after the test
    register_deal_type("pyramid", "reversed", 99, lambda deal_id: tuple(reversed(FULL_DECK)))
    assert DealId.parse("pyramid-reversed-v99-5").cards() == tuple(reversed(FULL_DECK))
    with pytest.raises(ValueError, match="unknown game"):
        register_deal_type("freecell", "random", 1, lambda deal_id: FULL_DECK)


# ------------------------------------------------------------------ deal codes and name lists
@given(permutations)
def test_deal_code_round_trips(cards: list[int]) -> None:
    code = encode_deal_code(cards)
    assert len(code) == 104
    assert parse_deal_code(code) == tuple(cards)
    assert parse_deal_code(code.lower()) == tuple(cards)


@given(permutations)
def test_name_lists_round_trip_as_lists_and_comma_strings(cards: list[int]) -> None:
    names = [card_name(c) for c in cards]
    assert parse_card_names(names) == tuple(cards)
    assert parse_card_names(",".join(names)) == tuple(cards)
    assert parse_card_names(", ".join(n.lower() for n in names)) == tuple(cards)
    assert resolve_deal(names, "pyramid").cards == tuple(cards)


def test_tens_may_be_written_10_or_t_in_codes_and_names() -> None:
    code = GOLDEN["pyramid-random-v1-42"]
    assert parse_deal_code(code.replace("T", "10")) == parse_deal_code(code)
    names = [card_name(c) for c in parse_deal_code(code)]
    assert parse_card_names([n.replace("10", "T") for n in names]) == parse_card_names(names)


def test_fixture_deck_reads_as_a_pyramid_deal() -> None:
    deal = resolve_deal(FIXTURE_DECK_0, "pyramid")
    assert deal.code.startswith("6D5HAHJD4SKS") and deal.deal_id is None
    assert resolve_deal(deal.code, "pyramid") == deal
    assert resolve_deal(",".join(FIXTURE_DECK_0), "pyramid") == deal


def test_a_code_with_spaces_and_dashes_is_read() -> None:
    code = GOLDEN["pyramid-random-v1-0"]
    spaced = " ".join(code[i : i + 2] for i in range(0, 104, 2))
    assert parse_deal_code(spaced) == parse_deal_code(code)


@pytest.mark.parametrize("bad", ["XX", "3H1", "3Z", "??"])
def test_malformed_codes_name_the_bad_pair(bad: str) -> None:
    code = GOLDEN["pyramid-random-v1-0"][:-2] + bad
    with pytest.raises(MalformedInputError, match="malformed deal code"):
        parse_deal_code(code)


def test_a_doubled_card_is_named_with_the_missing_one() -> None:
    code = GOLDEN["pyramid-random-v1-0"]  # starts 3H TH ...
    with pytest.raises(MalformedInputError) as info:
        parse_deal_code("3H3H" + code[4:])
    assert "missing 10H" in str(info.value) and "doubled 3H" in str(info.value)


def test_a_short_deal_names_the_missing_card() -> None:
    names = [card_name(c) for c in FULL_DECK if c != parse_card("QS")]
    with pytest.raises(MalformedInputError) as info:
        parse_card_names(names)
    assert "got 51 cards" in str(info.value) and "missing QS" in str(info.value)


def test_a_bad_name_in_a_list_is_quoted() -> None:
    names = [card_name(c) for c in FULL_DECK]
    names[7] = "11H"
    with pytest.raises(MalformedInputError, match="'11H'"):
        parse_card_names(names)


def test_check_full_deck_accepts_exactly_one_of_each() -> None:
    assert check_full_deck(list(reversed(FULL_DECK))) == tuple(reversed(FULL_DECK))
    with pytest.raises(MalformedInputError, match="got 53 cards"):
        check_full_deck([*FULL_DECK, 0])


# ------------------------------------------------------------------ resolve_deal
def test_resolve_deal_accepts_every_form() -> None:
    deal_id = DealId.parse("pyramid-random-v1-42")
    by_id = resolve_deal("pyramid-random-v1-42", "pyramid")
    assert by_id == Deal(deal_id.cards(), deal_id) and by_id.label == "pyramid-random-v1-42"
    assert resolve_deal(deal_id, "pyramid") == by_id
    assert resolve_deal(by_id, "pyramid") is by_id
    typed = resolve_deal(GOLDEN["pyramid-random-v1-42"], "pyramid")
    assert typed.cards == by_id.cards and typed.deal_id is None
    assert typed.label == typed.code == GOLDEN["pyramid-random-v1-42"]
    assert resolve_deal(list(by_id.cards), "pyramid").cards == by_id.cards


def test_resolve_deal_refuses_another_games_id() -> None:
    with pytest.raises(MalformedInputError, match="klondike deal, not pyramid"):
        resolve_deal("klondike-random-v1-3", "pyramid")


@pytest.mark.parametrize("spec", [None, 42, 3.5, [1, 2, 3], [*range(51), 52], [True] * 52, b"3HTH"])
def test_resolve_deal_refuses_what_is_not_a_deal(spec: object) -> None:
    with pytest.raises(MalformedInputError):
        resolve_deal(spec, "pyramid")
