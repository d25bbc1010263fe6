"""Every rule and refusal of seeds 000 (stock top usable) and 001 (waste top only), on hand-built deals.

Messages quoted from the seeds: ``/work/shared/seeds/000_72daa40278e6108c.txt`` (refusals of a
pair, a covered card, an empty stock, and the three recycle refusals) and
``001_10eeef2f869228ea.txt`` (only the waste top besides the pyramid; no card with one covering it).
"""

from __future__ import annotations

import pytest

from solitaire_rl.envs.cards import parse_card
from solitaire_rl.envs.errors import IllegalMoveError, MalformedInputError
from solitaire_rl.envs.pyramid import (
    DEAD_END,
    DRAW_MOVE,
    RECYCLE_MOVE,
    STOCK,
    WASTE,
    WIN,
    Move,
    PyramidGame,
    Refusal,
)
from solitaire_rl.envs.pyramid.layout import NUM_PYRAMID, position

VARIANTS = {"000": True, "001": False}

# Bottom row: 5D+8S pair, KS, 4H (partner 9C, the stock's first card), 6C, AH, AD.
# Above: r6c1 = 8D (13 with r7c1, which covers it), r6c2 = KC (covered King).
# Stock from the top: 9C, 4S (9C+4S = 13 as waste top + stock top), KH, 7D.
PAIRS = {"r7c1": "5D", "r7c2": "8S", "r7c3": "KS", "r7c4": "4H", "r7c5": "6C", "r7c6": "AH", "r7c7": "AD",
         "r6c1": "8D", "r6c2": "KC"}
PAIRS_STOCK = ("9C", "4S", "KH", "7D")


@pytest.fixture(params=list(VARIANTS), ids=lambda v: f"variant{v}")
def variant(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def pairs_game(build_deal, variant: str) -> PyramidGame:
    return PyramidGame(build_deal(PAIRS, PAIRS_STOCK), stock_top_playable=VARIANTS[variant])


def snapshot(game: PyramidGame) -> tuple[object, ...]:
    """Everything observable about a game, to check that a refused move changed nothing."""
    return (game.key(), game.seen, list(game.discarded), game.history, game.redo_moves, str(game))


def assert_refused(game: PyramidGame, move: str | Move, refusal: Refusal) -> None:
    move = Move.parse(move) if isinstance(move, str) else move
    before = snapshot(game)
    assert game.refusal(move) is refusal
    assert not game.is_legal(move)
    assert move not in game.legal_moves()
    with pytest.raises(IllegalMoveError) as info:
        game.push(move)
    assert info.value.reason == refusal.en
    assert info.value.move == move
    assert snapshot(game) == before


# ------------------------------------------------------------------ the deal
def test_deal_order_is_pyramid_apex_down_then_stock_from_the_top(build_deal) -> None:
    game = PyramidGame(build_deal(PAIRS, PAIRS_STOCK))
    assert game.card_at(position(7, 1)) == parse_card("5D")
    assert game.card_at(position(6, 1)) == parse_card("8D")
    assert game.card_at(STOCK) == parse_card("9C")
    assert game.stock_order()[:4] == [parse_card(n) for n in PAIRS_STOCK]
    assert len(game.stock) == 24 and game.waste == [] and game.pass_number == 1
    assert game.cards_left == 28


def test_only_the_bottom_row_starts_available(pairs_game: PyramidGame) -> None:
    assert pairs_game.available_positions() == list(range(21, 28))


@pytest.mark.parametrize(("variant_name", "stock_top_seen"), [("000", True), ("001", False)])
def test_stock_top_face_up_in_000_face_down_in_001(
    build_deal, variant_name: str, stock_top_seen: bool
) -> None:
    game = PyramidGame(build_deal(PAIRS, PAIRS_STOCK), stock_top_playable=VARIANTS[variant_name])
    assert bool(game.seen >> parse_card("9C") & 1) is stock_top_seen
    assert all(game.seen >> c & 1 for c in game.pyramid)  # all 28 pyramid cards are face up
    assert not game.seen >> parse_card("4S") & 1
    assert ("9C" in str(game)) is stock_top_seen
    assert ("##" in str(game)) is not stock_top_seen


# ------------------------------------------------------------------ pairs
def test_pyramid_pair_is_removed_and_uncovers_the_card_above(pairs_game: PyramidGame) -> None:
    pairs_game.push(Move.parse("r7c1+r7c2"))
    assert pairs_game.cards_left == 26
    assert pairs_game.card_at(position(7, 1)) is None and pairs_game.card_at(position(7, 2)) is None
    assert pairs_game.is_available(position(6, 1))
    assert not pairs_game.is_available(position(6, 2))  # still covered by r7c3
    assert pairs_game.discarded == [parse_card("5D"), parse_card("8S")]


def test_pyramid_plus_stock_top_only_in_000(pairs_game: PyramidGame, variant: str) -> None:
    move = Move.parse("r7c4+stock")
    if variant == "000":
        pairs_game.push(move)
        assert pairs_game.card_at(position(7, 4)) is None
        assert pairs_game.card_at(STOCK) == parse_card("4S")
        assert len(pairs_game.stock) == 23 and pairs_game.waste == []
    else:
        assert_refused(pairs_game, move, Refusal.STOCK_TOP_UNUSABLE)


def test_pyramid_plus_waste_top_in_both(pairs_game: PyramidGame) -> None:
    pairs_game.push(DRAW_MOVE)
    assert pairs_game.card_at(WASTE) == parse_card("9C")
    pairs_game.push(Move.parse("r7c4+waste"))
    assert pairs_game.waste == [] and pairs_game.cards_left == 27


def test_stock_top_plus_waste_top_only_in_000(pairs_game: PyramidGame, variant: str) -> None:
    pairs_game.push(DRAW_MOVE)  # waste 9C, stock top 4S
    move = Move.parse("stock+waste")
    assert Move.parse("waste+stock") == move
    if variant == "000":
        pairs_game.push(move)
        assert pairs_game.waste == [] and pairs_game.card_at(STOCK) == parse_card("KH")
        assert pairs_game.cards_left == 28
    else:
        assert_refused(pairs_game, move, Refusal.STOCK_TOP_UNUSABLE)


def test_pairs_of_every_kind_listed_as_legal(pairs_game: PyramidGame, variant: str) -> None:
    pairs_game.push(DRAW_MOVE)  # waste 9C, stock top 4S
    legal = {str(m) for m in pairs_game.legal_moves()}
    expected = {"r7c1+r7c2", "r7c3", "r7c4+waste", "draw"}
    if variant == "000":
        expected |= {"stock+waste"}  # 4S + 9C; 4S pairs with nothing else on the table
    assert legal == expected


def test_two_cards_not_making_13_are_refused(pairs_game: PyramidGame) -> None:
    assert_refused(pairs_game, "r7c1+r7c4", Refusal.NOT_THIRTEEN)
    assert_refused(pairs_game, "r7c6+r7c7", Refusal.NOT_THIRTEEN)  # A + A


def test_a_single_card_other_than_a_king_is_refused(pairs_game: PyramidGame) -> None:
    assert_refused(pairs_game, "r7c1", Refusal.NEEDS_PARTNER)


def test_covered_card_is_refused(pairs_game: PyramidGame) -> None:
    assert_refused(pairs_game, "r6c1+r7c4", Refusal.COVERED)  # 8D + 4H: covered before any sum


def test_a_card_cannot_pair_with_a_card_covering_it(pairs_game: PyramidGame) -> None:
    assert_refused(pairs_game, "r6c1+r7c1", Refusal.COVERED)  # 8D + 5D = 13, but r7c1 covers r6c1


def test_a_missing_card_and_the_same_card_twice_are_refused(pairs_game: PyramidGame) -> None:
    assert_refused(pairs_game, "r7c4+waste", Refusal.NO_CARD)  # the waste is empty
    assert_refused(pairs_game, Move.remove(position(7, 1), position(7, 1)), Refusal.SAME_CARD)
    pairs_game.push(Move.parse("r7c1+r7c2"))
    assert_refused(pairs_game, "r7c1+r7c4", Refusal.NO_CARD)


# ------------------------------------------------------------------ Kings
def test_king_in_the_pyramid_is_removed_alone(pairs_game: PyramidGame) -> None:
    pairs_game.push(Move.parse("r7c3"))
    assert pairs_game.card_at(position(7, 3)) is None and pairs_game.cards_left == 27


def test_covered_king_is_refused(pairs_game: PyramidGame) -> None:
    assert_refused(pairs_game, "r6c2", Refusal.COVERED)


def test_king_on_the_stock_top_only_in_000(pairs_game: PyramidGame, variant: str) -> None:
    pairs_game.replay(["draw", "draw"])  # stock top KH
    assert pairs_game.card_at(STOCK) == parse_card("KH")
    if variant == "000":
        pairs_game.push(Move.parse("stock"))
        assert pairs_game.card_at(STOCK) == parse_card("7D") and len(pairs_game.stock) == 21
    else:
        assert_refused(pairs_game, "stock", Refusal.STOCK_TOP_UNUSABLE)


def test_king_on_the_waste_top_in_both(pairs_game: PyramidGame) -> None:
    pairs_game.replay(["draw", "draw", "draw"])  # waste top KH
    pairs_game.push(Move.parse("waste"))
    assert pairs_game.card_at(WASTE) == parse_card("4S")
    assert pairs_game.discarded == [parse_card("KH")]


# ------------------------------------------------------------------ stock
def test_draw_moves_the_stock_top_onto_the_waste(pairs_game: PyramidGame, variant: str) -> None:
    pairs_game.push(DRAW_MOVE)
    assert pairs_game.waste == [parse_card("9C")]
    assert len(pairs_game.stock) == 23 and pairs_game.card_at(STOCK) == parse_card("4S")
    assert pairs_game.seen >> parse_card("9C") & 1
    # the next card turns face up in 000 only
    assert bool(pairs_game.seen >> parse_card("4S") & 1) is (variant == "000")


def test_nothing_to_draw_and_the_three_passes(build_deal, draw_only_deal: str, variant: str) -> None:
    game = PyramidGame(draw_only_deal, stock_top_playable=VARIANTS[variant])
    order = game.stock_order()
    for pass_number in (1, 2, 3):
        assert game.pass_number == pass_number and game.stock_order() == order
        assert game.card_at(STOCK) == parse_card("3C")  # each pass starts from the first card again
        assert_refused(game, RECYCLE_MOVE, Refusal.STOCK_NOT_EMPTY)
        for _ in range(24):
            assert game.legal_moves() == [DRAW_MOVE]
            game.push(DRAW_MOVE)
        assert game.stock == [] and game.waste == order  # waste bottom..top in draw order
        assert_refused(game, DRAW_MOVE, Refusal.NOTHING_TO_DRAW)
        if pass_number < 3:
            assert game.legal_moves() == [RECYCLE_MOVE]
            game.push(RECYCLE_MOVE)
            assert game.waste == [] and game.stock_order() == order
    assert_refused(game, RECYCLE_MOVE, Refusal.NO_RECYCLES_LEFT)
    assert game.legal_moves() == [] and game.outcome() == DEAD_END and game.is_terminal()
    assert game.moves_played == 74  # 72 draws and 2 recycles
    assert game.all_stock_seen()


def test_recycle_refused_when_the_waste_is_empty(stock_pairs_deal: str) -> None:
    game = PyramidGame(stock_pairs_deal, stock_top_playable=True)
    for _ in range(12):
        game.push(DRAW_MOVE)
        game.push(Move.parse("stock+waste"))
    assert game.stock == [] and game.waste == [] and game.pass_number == 1
    assert_refused(game, RECYCLE_MOVE, Refusal.WASTE_EMPTY)
    assert_refused(game, DRAW_MOVE, Refusal.NOTHING_TO_DRAW)
    assert game.outcome() == DEAD_END  # no pair on the table, nothing to draw, nothing to recycle
    assert len(game.discarded) == 24 and game.cards_left == 28


def test_removals_only_delete_from_the_stock_order(pairs_game: PyramidGame, variant: str) -> None:
    order = pairs_game.stock_order()
    pairs_game.replay(["draw", "draw", "draw", "waste"])  # remove KH from the waste
    assert pairs_game.stock_order() == [c for c in order if c != parse_card("KH")]


# ------------------------------------------------------------------ the end
def test_win_with_cards_left_in_the_stock(win_deal: str, win_line: tuple[str, ...], variant: str) -> None:
    game = PyramidGame(win_deal, stock_top_playable=VARIANTS[variant])
    for move in win_line:
        assert game.outcome() is None
        game.push(Move.parse(move))
    assert game.outcome() == WIN and game.is_won() and game.cards_left == 0
    assert len(game.stock) == 24 and game.legal_moves() == []
    for move in ("draw", "stock", "recycle"):
        assert_refused(game, move, Refusal.GAME_WON)


def test_the_game_never_ends_while_a_move_is_left(draw_only_deal: str) -> None:
    game = PyramidGame(draw_only_deal)
    game.replay(["draw"] * 24 + ["recycle"] + ["draw"] * 24 + ["recycle"] + ["draw"] * 23)
    assert game.outcome() is None and game.legal_moves() == [DRAW_MOVE]


# ------------------------------------------------------------------ undo, redo, seen
def test_undo_of_draw_and_recycle_restores_the_pass(draw_only_deal: str, variant: str) -> None:
    game = PyramidGame(draw_only_deal, stock_top_playable=VARIANTS[variant])
    start = game.key()
    game.replay(["draw"] * 24)
    before_recycle = game.key()
    game.push(RECYCLE_MOVE)
    assert game.pass_number == 2
    assert game.pop() == RECYCLE_MOVE
    assert game.pass_number == 1 and game.key() == before_recycle
    for _ in range(24):
        assert game.pop() == DRAW_MOVE
    assert game.key() == start
    with pytest.raises(IllegalMoveError):
        game.pop()


def test_undo_of_a_removal_restores_cards_and_discards(pairs_game: PyramidGame) -> None:
    pairs_game.push(DRAW_MOVE)
    before = (pairs_game.key(), list(pairs_game.discarded))
    pairs_game.push(Move.parse("r7c4+waste"))
    pairs_game.pop()
    assert (pairs_game.key(), list(pairs_game.discarded)) == before
    assert pairs_game.is_available(position(7, 4))


def test_seen_record_is_kept_across_undo_and_restart(pairs_game: PyramidGame, variant: str) -> None:
    pairs_game.replay(["draw", "draw"])
    seen = pairs_game.seen
    assert seen >> parse_card("4S") & 1
    pairs_game.pop()
    pairs_game.pop()
    assert pairs_game.seen == seen  # 4S is back face down in the stock but stays seen
    pairs_game.replay(["draw", "draw", "draw"])
    pairs_game.restart()
    assert pairs_game.moves_played == 0 and pairs_game.seen >> parse_card("KH") & 1


def test_all_stock_seen_after_one_full_pass(draw_only_deal: str, variant: str) -> None:
    game = PyramidGame(draw_only_deal, stock_top_playable=VARIANTS[variant])
    game.replay(["draw"] * 23)
    assert game.all_stock_seen() is (variant == "000")  # 000 shows the last card on the stock
    game.push(DRAW_MOVE)
    assert game.all_stock_seen()
    game.restart()
    assert game.all_stock_seen()


def test_redo_replays_undone_moves_until_a_new_move(pairs_game: PyramidGame) -> None:
    with pytest.raises(IllegalMoveError):
        pairs_game.redo()
    pairs_game.replay(["r7c1+r7c2", "draw", "r7c4+waste"])
    after = pairs_game.key()
    for _ in range(3):
        pairs_game.pop()
    assert [str(m) for m in pairs_game.redo_moves] == ["r7c1+r7c2", "draw", "r7c4+waste"]
    assert pairs_game.redo() == Move.parse("r7c1+r7c2")
    pairs_game.push(DRAW_MOVE)  # the move redo would play next keeps the rest of the redo list
    assert pairs_game.redo() == Move.parse("r7c4+waste") and pairs_game.key() == after
    pairs_game.pop()
    pairs_game.push(Move.parse("r7c3"))  # a different move drops the redo list
    assert pairs_game.redo_moves == []
    with pytest.raises(IllegalMoveError):
        pairs_game.redo()


def test_restart_and_copy(pairs_game: PyramidGame) -> None:
    start = pairs_game.key()
    pairs_game.replay(["draw", "r7c4+waste"])
    clone = pairs_game.copy()
    pairs_game.restart()
    assert pairs_game.key() == start and pairs_game.redo_moves == [] and pairs_game.discarded == []
    assert clone.moves_played == 2 and clone.cards_left == 27
    clone.pop()
    assert pairs_game.key() == start  # copies are independent


# ------------------------------------------------------------------ messages and text forms
def test_refusal_texts_are_the_seeds_messages() -> None:
    assert Refusal.NOT_THIRTEEN.ja == "この 2 枚は合計 13 になりません"
    assert Refusal.COVERED.ja == "このカードはまだ重なっています"
    assert Refusal.NOTHING_TO_DRAW.ja == "めくれるカードがありません"
    assert Refusal.STOCK_NOT_EMPTY.ja == "山札をめくり終えると再利用できます"
    assert Refusal.NO_RECYCLES_LEFT.ja == "再利用できる回数が残っていません"
    assert Refusal.WASTE_EMPTY.ja == "捨て札に再利用できるカードがありません"
    assert len({r.en for r in Refusal}) == len(Refusal)


@pytest.mark.parametrize(
    "text", ["r7c1+r7c2", "r7c3", "r6c2+waste", "stock+waste", "stock", "draw", "recycle"]
)
def test_moves_round_trip_through_text(text: str) -> None:
    move = Move.parse(text)
    assert str(move) == text and Move.parse(str(move)) == move
    assert eval(repr(move), {"Move": Move}) == move
    assert Move.parse(text.upper()) == move


@pytest.mark.parametrize("text", ["r8c1", "r7c8", "r3c4", "r0c1", "king", "r7c1+r7c2+r7c3", "", "r7c1+"])
def test_malformed_moves_are_rejected(text: str) -> None:
    with pytest.raises(MalformedInputError):
        Move.parse(text)


def test_move_places_and_pairs_are_unordered() -> None:
    assert Move.remove(WASTE, position(7, 1)) == Move.remove(position(7, 1), WASTE)
    assert Move.parse("r7c3").places() == (position(7, 3),) and DRAW_MOVE.places() == ()
    assert Move.parse("r7c1+waste").is_pair and not Move.parse("r7c3").is_pair
    with pytest.raises(MalformedInputError):
        Move.remove(30)
    assert NUM_PYRAMID == 28 and STOCK == 28 and WASTE == 29


def test_render_marks_available_and_removed_cards(pairs_game: PyramidGame, variant: str) -> None:
    pairs_game.push(Move.parse("r7c1+r7c2"))
    text = str(pairs_game)
    assert "[ 8D]" in text and " KC " in text and ".." in text
    assert f"variant {variant}" in text and "pass 1/3" in text and "pyramid 26/28 left" in text
