"""Scenario tests for every rule, refusal and message of seed 002 (Klondike, draw 3)."""

from __future__ import annotations

import pytest

from solitaire_rl.envs.cards import card_name, parse_card
from solitaire_rl.envs.errors import IllegalMoveError, MalformedInputError
from solitaire_rl.envs.klondike import DRAW_MOVE, RECYCLE_MOVE, Announcement, KlondikeGame, Move, Refusal
from solitaire_rl.envs.klondike.game import DEAD_END, WIN
from solitaire_rl.envs.klondike.moves import (
    COLUMN_COLUMN,
    COLUMN_FOUNDATION,
    DRAW,
    FOUNDATION_COLUMN,
    RECYCLE,
    WASTE_COLUMN,
    WASTE_FOUNDATION,
)


def position(columns, hidden=None, **kwargs) -> KlondikeGame:
    """A hand-built position (columns padded to 7). Unplaced cards fill the stock, or, when the
    stock is given, lie face down under column 7's cards."""
    columns = [[parse_card(c) for c in col] for col in columns] + [[] for _ in range(7 - len(columns))]
    hidden = list(hidden or []) + [0] * (7 - len(hidden or []))
    kwargs.setdefault("stock", None)
    if kwargs["stock"] is not None:
        fnd = kwargs.get("foundations", (0, 0, 0, 0))
        placed = {c for col in columns for c in col} | {parse_card(c) for c in kwargs["stock"]}
        placed |= {parse_card(c) for c in kwargs.get("waste", ())}
        placed |= {(r - 1) * 4 + s for s in range(4) for r in range(1, fnd[s] + 1)}
        rest = [c for c in range(52) if c not in placed]
        if rest:
            assert columns[6], "the unplaced cards go face down under column 7"
            columns[6] = rest + columns[6]
            hidden[6] += len(rest)
    return KlondikeGame.from_position(columns, hidden, **kwargs)


def refused(game: KlondikeGame, text: str) -> Refusal:
    """Push ``text`` expecting a refusal; check that nothing changed; return the reason."""
    move = Move.parse(text)
    before = (game.key(), game.history, list(game.best), game.recycles, game.seen)
    reason = game.refusal(move)
    assert reason is not None, f"{text} should be refused"
    assert not game.is_legal(move) and move not in game.legal_moves()
    with pytest.raises(IllegalMoveError) as info:
        game.push(move)
    assert info.value.reason == reason.en and info.value.move == move
    assert (game.key(), game.history, list(game.best), game.recycles, game.seen) == before
    return reason


def legal(game: KlondikeGame, text: str) -> None:
    move = Move.parse(text)
    assert game.refusal(move) is None and move in game.legal_moves(), f"{text} should be legal"
    game.push(move)


# ------------------------------------------------------------------ the deal
def test_standard_deal_has_seven_columns_of_one_to_seven_with_only_the_last_face_up() -> None:
    game = KlondikeGame("klondike-random-v1-7")
    assert [len(col) for col in game.columns] == [1, 2, 3, 4, 5, 6, 7]
    assert game.hidden == [0, 1, 2, 3, 4, 5, 6]
    assert [game.face_up(c) for c in range(7)] == [[col[-1]] for col in game.columns]
    assert len(game.stock) == 24 and game.waste == [] and game.foundations == [0, 0, 0, 0]
    assert game.recycles == 0 and game.outcome() is None
    assert game.seen == sum(1 << col[-1] for col in game.columns)
    assert len(game.unseen_stock()) == 24


# ------------------------------------------------------------------ the stock and the waste
def test_draw_deals_three_cards_with_the_last_one_on_top() -> None:
    game = KlondikeGame("klondike-random-v1-7")
    order = game.stock_order()
    game.push(DRAW_MOVE)
    assert game.waste == order[:3] and game.waste[-1] == order[2]
    assert len(game.stock) == 21 and game.stock_order() == order
    assert all((game.seen >> c) & 1 for c in order[:3]), "all three fanned cards are readable"
    assert game.unseen_stock() == list(reversed(game.stock))


@pytest.mark.parametrize("left", [1, 2])
def test_with_one_or_two_stock_cards_left_draw_deals_that_many(left: int) -> None:
    stock = [*["2C", "3C", "4C"][:left], "5C", "6C", "7C"]
    game = position([["KS"], [], [], [], [], [], ["KH"]], stock=stock)
    game.push(DRAW_MOVE)
    assert len(game.stock) == left and game.waste[-1] == parse_card("5C")
    game.push(DRAW_MOVE)
    assert game.stock == [] and len(game.waste) == 3 + left
    assert game.waste[-1] == parse_card("2C"), "the stock's bottom card was dealt last, so it is on top"


def test_draw_one_option_deals_a_single_card() -> None:
    game = KlondikeGame("klondike-random-v1-7", draw_count=1)
    order = game.stock_order()
    game.push(DRAW_MOVE)
    assert game.waste == order[:1]
    with pytest.raises(MalformedInputError):
        KlondikeGame("klondike-random-v1-7", draw_count=2)


def test_only_the_waste_top_is_playable_and_the_card_under_it_comes_next() -> None:
    # waste bottom..top: 9D, 2H, 5C. 2H fits on 3S but lies under 5C.
    game = position([["3S"], ["6D"]], waste=["9D", "2H", "5C"])
    assert [str(m) for m in game.legal_moves() if m.kind in (WASTE_COLUMN, WASTE_FOUNDATION)] == ["waste>c2"]
    assert refused(game, "waste>c1") is Refusal.BUILD_DOWN
    legal(game, "waste>c2")
    assert game.columns[1] == [parse_card("6D"), parse_card("5C")]
    legal(game, "waste>c1")
    assert game.waste == [parse_card("9D")]


def test_recycle_turns_the_waste_over_in_the_same_order_and_counts() -> None:
    game = KlondikeGame("klondike-random-v1-7")
    order = game.stock_order()
    tops = []
    while game.stock:
        game.push(DRAW_MOVE)
        tops.append(game.waste[-1])
    assert tops == order[2::3]
    assert refused(game, "draw") is Refusal.STOCK_EMPTY
    assert game.stock_move() == RECYCLE_MOVE
    game.push(RECYCLE_MOVE)
    assert game.recycles == 1 and game.waste == [] and game.stock_order() == order
    again = []
    while game.stock:
        game.push(DRAW_MOVE)
        again.append(game.waste[-1])
    assert again == tops


def test_recycles_are_unlimited() -> None:
    game = KlondikeGame("klondike-random-v1-7")
    for n in range(1, 31):
        while game.stock:
            game.push(DRAW_MOVE)
        game.push(game.stock_move())
        assert game.recycles == n
    assert game.outcome() is None


def test_recycle_before_the_stock_is_empty_is_refused() -> None:
    game = KlondikeGame("klondike-random-v1-7")
    assert refused(game, "recycle") is Refusal.STOCK_NOT_EMPTY
    game.push(DRAW_MOVE)
    assert refused(game, "recycle") is Refusal.STOCK_NOT_EMPTY


def test_tapping_the_stock_when_stock_and_waste_are_empty_is_refused_with_a_message() -> None:
    game = position([["KS"], ["QS"]], stock=[], foundations=[13, 13, 13, 11])
    assert game.stock_move() == DRAW_MOVE
    assert refused(game, "draw") is Refusal.NOTHING_TO_DRAW
    assert refused(game, "recycle") is Refusal.NOTHING_TO_DRAW
    assert "山札" in Refusal.NOTHING_TO_DRAW.ja and "めくり札" in Refusal.NOTHING_TO_DRAW.ja


def test_an_empty_waste_has_no_card_to_play() -> None:
    game = position([["KS"]])
    assert refused(game, "waste>c2") is Refusal.WASTE_EMPTY
    assert refused(game, "waste>f") is Refusal.WASTE_EMPTY


# ------------------------------------------------------------------ the tableau
def test_columns_build_down_by_one_in_alternating_colour() -> None:
    assert refused(position([["8S"], ["7C"]]), "c2>c1") is Refusal.BUILD_DOWN  # same colour
    assert refused(position([["8S"], ["6H"]]), "c2>c1") is Refusal.BUILD_DOWN  # two ranks apart
    assert refused(position([["8S"], ["9H"]]), "c2>c1") is Refusal.BUILD_DOWN  # one higher
    game = position([["8S"], ["7H"]])
    legal(game, "c2>c1")
    assert game.columns[0] == [parse_card("8S"), parse_card("7H")] and game.columns[1] == []
    game = position([["8C"]], waste=["7D"])
    legal(game, "waste>c1")


def test_a_face_up_run_moves_as_a_unit_judged_by_its_first_card() -> None:
    game = position([["9C", "8H", "7S"], ["10D"], ["9S"]])
    assert refused(game, "c1:2>c2") is Refusal.BUILD_DOWN  # 8H does not go on 10D
    legal(game, "c1:2>c3")  # 8H 7S onto 9S
    assert game.columns[2] == [parse_card(n) for n in ("9S", "8H", "7S")]
    legal(game, "c1>c2")  # 9C onto 10D
    legal(game, "c3:2>c2")  # 8H 7S onto 9C
    assert game.columns[1] == [parse_card(n) for n in ("10D", "9C", "8H", "7S")]


def test_face_down_cards_and_missing_cards_cannot_be_moved() -> None:
    game = position([["2C", "9C", "8H", "7S"], ["10D"]], hidden=[1])
    assert refused(game, "c1:4>c2") is Refusal.FACE_DOWN
    assert refused(game, "c1:5>c2") is Refusal.NO_CARD
    assert refused(game, "c3>c2") is Refusal.NO_CARD
    assert refused(game, "c3>f") is Refusal.NO_CARD
    assert refused(game, "c1>c1") is Refusal.SAME_COLUMN


def test_an_exposed_face_down_card_turns_up_by_itself_and_undo_turns_it_down() -> None:
    game = position([["2C", "9C"], ["10D"]], hidden=[1])
    two_clubs = parse_card("2C")
    assert not (game.seen >> two_clubs) & 1
    legal(game, "c1>c2")
    assert game.hidden[0] == 0 and game.face_up(0) == [two_clubs]
    assert (game.seen >> two_clubs) & 1
    game.pop()
    assert game.hidden[0] == 1 and game.face_up(0) == [parse_card("9C")]
    assert (game.seen >> two_clubs) & 1, "what the player has seen stays known after undo"


def test_only_a_king_or_a_king_run_goes_to_an_empty_column() -> None:
    assert refused(position([["QH"], []]), "c1>c2") is Refusal.KING_ONLY
    assert refused(position([["KC", "QH"], []]), "c1>c2") is Refusal.KING_ONLY
    assert refused(position([["KC"]], waste=["QH"]), "waste>c2") is Refusal.KING_ONLY
    game = position([["3C", "KH", "QS"], []], hidden=[1])
    legal(game, "c1:2>c2")
    assert game.columns[1] == [parse_card("KH"), parse_card("QS")] and game.face_up(0) == [parse_card("3C")]
    legal(position([["KC"]], waste=["KH"]), "waste>c2")


# ------------------------------------------------------------------ the foundations
def test_foundations_build_up_by_suit_from_the_ace() -> None:
    assert refused(position([["2C"]]), "c1>f") is Refusal.FOUNDATION_ORDER
    game = position([["2C"], ["AC"]], waste=["3C"])
    assert refused(game, "waste>f") is Refusal.FOUNDATION_ORDER
    legal(game, "c2>f")
    legal(game, "c1>f")
    legal(game, "waste>f")
    assert game.foundations == [3, 0, 0, 0] and game.cards_up == 3
    assert refused(position([["2H"]], foundations=[1, 0, 0, 0]), "c1>f") is Refusal.FOUNDATION_ORDER


def test_only_a_columns_last_card_goes_up() -> None:
    game = position([["9C", "8H"]], foundations=[0, 0, 7, 0])
    assert Move.parse("c1>f") in game.legal_moves()
    legal(game, "c1>f")  # the last card, 8H
    assert game.foundations[2] == 8 and game.columns[0] == [parse_card("9C")]
    assert refused(game, "c1>f") is Refusal.FOUNDATION_ORDER  # 9C: clubs are empty


def test_a_foundations_top_card_may_go_back_to_a_column() -> None:
    game = position([["6S"], ["6H"], []], foundations=[13, 0, 5, 0])
    assert refused(game, "fH>c2") is Refusal.BUILD_DOWN
    assert refused(game, "fH>c3") is Refusal.KING_ONLY
    assert refused(game, "fD>c1") is Refusal.NO_CARD
    legal(game, "fH>c1")
    assert game.foundations[2] == 4 and game.columns[0][-1] == parse_card("5H")
    assert game.best[2] == 5, "the foundation's record stays"
    legal(game, "fC>c3")  # a King to an empty column
    legal(game, "c1>f")  # and back up


def test_all_52_up_wins_and_then_every_action_is_refused() -> None:
    game = position([["KS"]], stock=[], foundations=[13, 13, 13, 12])
    assert game.outcome() is None and game.legal_moves()[0] == Move.parse("c1>f")
    legal(game, "c1>f")
    assert game.is_won() and game.outcome() == WIN and game.cards_up == 52
    assert game.legal_moves() == []
    for text in ("draw", "recycle", "fS>c1", "waste>f"):
        assert refused(game, text) is Refusal.GAME_WON
    assert not game.progress_possible()


def test_no_legal_move_at_all_is_a_dead_end() -> None:
    ends = ["5H", "5D", "9H", "9D", "JH", "JD", "3H"]
    rest = [c for c in range(52) if card_name(c) not in ends]
    columns = [[*rest[i * 6:(i + 1) * 6], parse_card(e)] for i, e in enumerate(ends)]
    columns[6] = [*rest[36:], parse_card("3H")]
    game = KlondikeGame.from_position(columns, [len(c) - 1 for c in columns], stock=[])
    assert game.legal_moves() == [] and game.outcome() == DEAD_END
    assert not game.progress_possible()
    assert Announcement.NO_LEGAL_MOVE.ja and Announcement.NO_LEGAL_MOVE.en


# ------------------------------------------------------------------ moves, order, undo
TABLE = [["KS", "QH"], ["JC"], ["AD"], [], ["5C"], ["9D", "8C"], ["7H"]]


def test_legal_moves_come_in_the_documented_order() -> None:
    game = position(TABLE, foundations=[0, 0, 0, 6], waste=["4D"])
    assert [str(m) for m in game.legal_moves()] == [
        "draw", "waste>c5", "c3>f", "c1:2>c4", "c2>c1", "c7>c6", "fS>c7",
    ]
    order = [DRAW, RECYCLE, WASTE_FOUNDATION, WASTE_COLUMN, COLUMN_FOUNDATION, COLUMN_COLUMN,
             FOUNDATION_COLUMN]
    kinds = [m.kind for m in game.legal_moves()]
    assert kinds == sorted(kinds, key=order.index)


@pytest.mark.parametrize(
    ("waste", "text"),
    [(["4D"], "draw"), (["4D"], "waste>c5"), (["AH"], "waste>f"), (["4D"], "c3>f"), (["4D"], "c1:2>c4"),
     (["4D"], "c2>c1"), (["4D"], "c7>c6"), (["4D"], "fS>c7")],
)
def test_every_kind_of_move_is_undone_exactly(waste: list[str], text: str) -> None:
    table = [list(col) for col in TABLE]
    table[1] = ["2C", "JC"]  # c2>c1 then turns up 2C
    game = position(table, hidden=[0, 1], foundations=[0, 0, 0, 6], waste=waste)
    before = (game.key(), list(game.best), game.recycles, list(game.hidden), list(game.legal_moves()))
    game.push(Move.parse(text))
    assert game.key() != before[0]
    game.pop()
    assert (game.key(), list(game.best), game.recycles, list(game.hidden), game.legal_moves()) == before


def test_recycle_is_undone_exactly() -> None:
    game = KlondikeGame("klondike-random-v1-5")
    while game.stock:
        game.push(DRAW_MOVE)
    before = game.key()
    game.push(RECYCLE_MOVE)
    assert game.recycles == 1
    game.pop()
    assert game.key() == before and game.recycles == 0


def test_undo_redo_and_restart() -> None:
    game = KlondikeGame("klondike-random-v1-3")
    start = game.key()
    with pytest.raises(IllegalMoveError):
        game.pop()
    with pytest.raises(IllegalMoveError):
        game.redo()
    moves = []
    for _ in range(12):
        move = game.legal_moves()[-1]
        moves.append(move)
        game.push(move)
    end = game.key()
    assert game.history == moves and game.moves_played == 12
    game.pop()
    game.pop()
    assert game.redo_moves == moves[-2:]
    game.redo()
    game.redo()
    assert game.key() == end
    game.restart()
    assert game.key() == start and game.history == [] and game.redo_moves == []


def test_known_information_records_seen_stock_and_revealed_cards() -> None:
    for deal_number in range(40):
        game = KlondikeGame(f"klondike-random-v1-{deal_number}")
        turning = [m for m in game.legal_moves() if game.is_progress(m) and m.kind == COLUMN_COLUMN]
        if turning:
            break
    assert turning, "some early deal has a move that turns a card up"
    assert game.revealed() == []
    game.push(turning[0])
    src = turning[0].src
    assert game.revealed() == [game.columns[src][-1]]
    game.push(DRAW_MOVE)
    assert len(game.unseen_stock()) == 21
    game.restart()
    assert len(game.revealed()) == 1 and len(game.unseen_stock()) == 21, "knowledge survives undo"


def test_refusal_and_notice_messages_exist_in_english_and_japanese() -> None:
    for reason in Refusal:
        assert reason.en.endswith(".") and reason.ja and reason.ja != reason.en
    for notice in Announcement:
        assert notice.en and notice.ja
    # sentences taken from seed 002
    assert Refusal.KING_ONLY.ja == "空いた列に置けるのは K だけ、または K で始まる一続きだけです"
    assert "同じスートの次の札だけを重ねられます" in Refusal.FOUNDATION_ORDER.ja
    assert "1 つ小さく、色が反対" in Refusal.BUILD_DOWN.ja
    assert Announcement.NO_PROGRESS.ja == "手は残っていますが、どれを選んでも前に進みません"


def test_hand_built_positions_are_checked() -> None:
    with pytest.raises(MalformedInputError, match="52 cards exactly once"):
        KlondikeGame.from_position([["KS"]] + [[]] * 6, [0] * 7, stock=[])
    with pytest.raises(MalformedInputError, match="cannot lie on"):
        position([["KS", "QS"]])
    with pytest.raises(MalformedInputError, match="last card must be face up"):
        position([["KS", "QH"]], hidden=[2])
    with pytest.raises(MalformedInputError, match="has been on its foundation"):
        position([["KS"]], foundations=[0, 0, 0, 0], best=[2, 0, 0, 0])


@pytest.mark.parametrize(
    "text",
    ["c8>c1", "c0>f", "c1:0>c2", "c1:14>c2", "fX>c1", "waste>waste", "c1:3>f", "fH>f", "draw3", "", "c1"],
)
def test_malformed_move_texts_are_refused(text: str) -> None:
    with pytest.raises(MalformedInputError):
        Move.parse(text)


def test_move_texts_round_trip() -> None:
    for text in ("draw", "recycle", "waste>f", "waste>c4", "c2>f", "c2>c5", "c2:3>c5", "fH>c4"):
        move = Move.parse(text)
        assert str(move) == text and Move.parse(repr(move)[12:-2]) == move
    assert Move.parse(" C2:1 > C5 ") == Move.parse("c2>c5") == Move.column_to_column(1, 4)


def test_the_key_tells_positions_apart_and_ignores_history() -> None:
    game = KlondikeGame("klondike-random-v1-11")
    start = game.key()
    game.push(DRAW_MOVE)
    drawn = game.key()
    assert drawn != start and len(drawn) < 100
    game.pop()
    game.push(DRAW_MOVE)
    assert game.key() == drawn, "the same position after another history has the same key"
    turned = position([["10H", "9C"]], hidden=[1])
    up = position([["10H", "9C"]], hidden=[0])
    assert turned.key() != up.key(), "face-down counts are part of the key"
