"""The exact checks: no legal move, no progress possible, and the seed's auto-finish."""

from __future__ import annotations

import numpy as np
import pytest

from solitaire_rl.envs.cards import parse_card
from solitaire_rl.envs.errors import IllegalMoveError
from solitaire_rl.envs.klondike import KlondikeGame, Move
from solitaire_rl.envs.klondike.game import DEAD_END, NO_PROGRESS, WIN
from solitaire_rl.envs.klondike.moves import COLUMN_FOUNDATION, DRAW, RECYCLE, WASTE_FOUNDATION
from solitaire_rl.envs.klondike.progress import _relaxed_rounds


def cards(names) -> list[int]:
    return [parse_card(n) if isinstance(n, str) else n for n in names]


def build(columns, *, hidden=(), stock=(), waste=(), foundations=(0, 0, 0, 0), filler=6, filler_end=None,
          **kw):
    """A position whose unplaced cards lie face down in column ``filler`` (under ``filler_end``).

    Every stock card counts as seen unless ``seen`` says otherwise.
    """
    cols = [cards(col) for col in columns] + [[] for _ in range(7 - len(columns))]
    hidden = list(hidden) + [0] * (7 - len(hidden))
    placed = {c for col in cols for c in col} | set(cards(stock)) | set(cards(waste))
    if filler_end is not None:
        placed.add(parse_card(filler_end))
    placed |= {(r - 1) * 4 + s for s in range(4) for r in range(1, foundations[s] + 1)}
    rest = [c for c in range(52) if c not in placed]
    if rest:
        cols[filler] = rest + cols[filler] + ([parse_card(filler_end)] if filler_end else [])
        hidden[filler] += len(rest)
    kw.setdefault("seen", cards(stock))
    return KlondikeGame.from_position(cols, hidden, stock=cards(stock), waste=cards(waste),
                                      foundations=foundations, **kw)


def reference_progress(game: KlondikeGame, cap: int = 3000) -> bool | None:
    """Independent check: breadth-first over exact positions with the engine's legal moves;
    progress is read off the records (a card turned up, a foundation record beaten, a new card
    seen, the game won). ``None`` when more than ``cap`` positions would be needed."""
    start = game._copy_position()
    seen = start.seen
    frontier, visited = [start], {start.key()}
    while frontier:
        nxt = []
        for g in frontier:
            for move in g.legal_moves():
                h = g._copy_position()
                hidden, best = sum(h.hidden), list(h.best)
                h.push(move)
                beaten = any(a > b for a, b in zip(h.best, best, strict=True))
                if sum(h.hidden) < hidden or beaten or h.seen & ~seen or h.is_won():
                    return True
                if h.key() not in visited:
                    visited.add(h.key())
                    nxt.append(h)
                    if len(visited) > cap:
                        return None
        frontier = nxt
    return False


def immediate_progress(game: KlondikeGame) -> bool:
    return any(game.is_progress(m) for m in game.legal_moves())


# ------------------------------------------------------------------ hand-built positions
def test_an_unseen_stock_card_means_progress_is_possible() -> None:
    game = build([["KS"]], stock=["2H", "9C"], filler_end="5D", seen=["9C"])
    assert game.unseen_stock() == [parse_card("2H")]
    assert game.progress_possible()


def test_stock_cycling_that_shows_only_known_useless_cards_is_no_progress() -> None:
    # talon 9C 5S 9S, all seen: none of them fits anywhere, ever
    game = build([["2H"]], stock=["9S", "5S", "9C"], filler_end="4D")
    assert game.legal_moves() and not immediate_progress(game)
    assert not game.progress_possible()
    assert game.outcome() == NO_PROGRESS
    assert reference_progress(game) is False
    assert _relaxed_rounds(game) is None, "the quick relaxation already proves it"


def test_stock_cycling_that_brings_a_card_up_is_progress() -> None:
    # draw order 9S 5S AC ...: after a recycle AC comes up as a top card and goes to its foundation
    game = build([["2H"]], stock=list(reversed(["9S", "5S", "AC", "9C"])), filler_end="4D")
    assert game.stock_order() == cards(["9S", "5S", "AC", "9C"])
    assert not immediate_progress(game)
    assert game.progress_possible() and reference_progress(game) is True


def test_playing_waste_cards_to_shift_the_stock_phase_is_found() -> None:
    # draw order AC 5H 9S: only 9S ever comes up. 9S onto 10D, then 5H onto 6C, then AC is on top.
    game = build([["10D"], ["6C"]], stock=list(reversed(["AC", "5H", "9S"])), filler_end="2H")
    assert not immediate_progress(game)
    assert game.progress_possible() and reference_progress(game) is True
    # without the 6C, the 5H can never leave: the AC stays buried
    stuck = build([["10D"], ["6H"]], stock=list(reversed(["AC", "5H", "9S"])), filler_end="2H")
    assert not stuck.progress_possible() and reference_progress(stuck) is False
    assert stuck.outcome() == NO_PROGRESS


def test_moving_a_card_down_from_a_foundation_can_open_the_way() -> None:
    # 4D lies on a face-down card and needs a black 5; 5S can come down from its foundation onto 6H
    game = build([["6H"], ["KC", "4D"]], hidden=[0, 1], foundations=(0, 0, 0, 5), filler_end="2H")
    assert not immediate_progress(game)
    assert game.progress_possible() and reference_progress(game) is True
    line = ["fS>c1", "c2>c1"]
    for text in line:
        game.push(Move.parse(text))
    assert game.hidden[1] == 0, "the face-down card turned up"


def test_moving_a_card_down_and_up_again_is_not_progress() -> None:
    # the only moves: 5S down onto 6H and back up (its foundation has held it: no new record)
    game = build([["6H"]], foundations=(0, 0, 0, 5), filler_end="2H")
    moves = [str(m) for m in game.legal_moves()]
    assert "fS>c1" in moves
    assert not game.progress_possible() and game.outcome() == NO_PROGRESS
    game.push(Move.parse("fS>c1"))
    assert game.legal_moves() and not game.is_progress(Move.parse("c1>f"))
    assert not game.progress_possible()
    assert reference_progress(game) is False


@pytest.mark.parametrize("columns,foundations", [([["KD"], ["QD"]], (13, 11, 13, 13)),
                                                 ([["KC", "QD"], ["KD"]], (12, 11, 13, 13))])
def test_winning_with_cards_their_foundations_held_before_is_progress(columns, foundations) -> None:
    # Every foundation has reached its King; the cards left came back down (so they lie face up
    # in columns). Putting them up again beats no record, but it wins: that is progress, never
    # "no progress possible" one move before the win.
    game = KlondikeGame.from_position([cards(c) for c in columns] + [[]] * (7 - len(columns)), [0] * 7,
                                      foundations=foundations, best=(13, 13, 13, 13))
    assert game.outcome() is None and game.progress_possible()
    assert reference_progress(game) is True
    while not game.is_won():
        ups = [m for m in game.legal_moves() if m.kind == COLUMN_FOUNDATION]
        assert game.progress_possible() and game.outcome() is None
        game.push(ups[0])
    assert game.outcome() == WIN


def test_a_card_above_its_foundation_record_is_progress_after_a_detour() -> None:
    # 2D goes up only after AD (down in a column, record 1) goes back up: a detour, then progress
    game = build([["2S", "AD"]], waste=["2D"], foundations=(0, 0, 0, 0), best=[0, 1, 0, 0],
                 filler_end="9H")
    assert not immediate_progress(game)
    assert game.progress_possible() and reference_progress(game) is True


def test_no_legal_move_is_reported_as_a_dead_end_not_as_no_progress() -> None:
    game = build([["5H"], ["5D"], ["9H"], ["9D"], ["JH"], ["JD"]], filler_end="3H")
    assert game.legal_moves() == [] and game.outcome() == DEAD_END
    assert not game.progress_possible()


# ------------------------------------------------------------------ the search against the reference
@pytest.mark.parametrize("seed", [1, 2])
def test_progress_check_matches_an_independent_search_along_random_play(seed: int) -> None:
    """Along random games, every terminal and some ordinary positions agree with the reference."""
    import gymnasium

    import solitaire_rl  # noqa: F401

    env = gymnasium.make("Solitaire/Klondike-v0")
    raw = env.unwrapped
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    checked = {True: 0, False: 0}
    for _ in range(1500):
        legal = np.flatnonzero(raw.action_masks())
        _, _, terminated, truncated, _ = env.step(int(rng.choice(legal)))
        game = raw.game
        if terminated or (not game.unseen_stock() and rng.random() < 0.05):
            expected = reference_progress(game)
            if expected is not None and not game.is_won():
                assert (not terminated) == expected, game.history
                fresh = game._copy_position()
                assert fresh.progress_possible() == expected
                checked[expected] += 1
        if terminated or truncated:
            env.reset()
    assert checked[True] > 5 and checked[False] > 0, checked


# ------------------------------------------------------------------ auto-finish
def finishing_position() -> KlondikeGame:
    return build([["KC"], ["KD"], ["KS", "QH"], ["KH", "QS"]], foundations=(12, 12, 11, 11), filler=0)


def test_auto_finish_is_offered_once_nothing_is_face_down_and_no_stock_card_is_unseen() -> None:
    game = finishing_position()
    assert game.auto_finish_ready() and game.can_auto_finish()
    # a face-down card: not offered
    table = [["KC"], ["KD"], ["KS", "QH"], ["KH", "QS"]]
    hidden = build(table, hidden=[0, 0, 0, 1], foundations=(12, 12, 11, 11))
    assert not hidden.auto_finish_ready() and hidden.auto_finish_move() is None
    # an unseen stock card: not offered; once it has been seen, offered
    unseen = build([["KC"], ["KD"], ["KS", "QH"]], stock=["QS", "KH"], foundations=(12, 12, 11, 11), seen=[])
    assert not unseen.auto_finish_ready()
    seen = build([["KC"], ["KD"], ["KS", "QH"]], stock=["KH", "QS"], foundations=(12, 12, 11, 11))
    assert seen.auto_finish_ready() and seen.can_auto_finish()


def test_auto_finish_sends_the_cards_up_one_at_a_time_and_wins() -> None:
    game = finishing_position()
    steps = 0
    while not game.is_won():
        up = game.cards_up
        move = game.auto_finish_step()
        assert move.kind in (COLUMN_FOUNDATION, WASTE_FOUNDATION, DRAW, RECYCLE)
        assert game.cards_up == up + (1 if move.kind in (COLUMN_FOUNDATION, WASTE_FOUNDATION) else 0)
        steps += 1
    assert steps == 6 and game.outcome() == WIN
    with pytest.raises(IllegalMoveError):
        game.auto_finish_step()


def test_auto_finish_draws_through_the_stock_when_it_must() -> None:
    # draw order 7H 6H 5H: one tap fans all three with 5H on top, then each goes up in turn
    game = build([["KH"], ["QH"], ["JH"], ["10H"], ["9H"], ["8H"]], stock=list(reversed(["7H", "6H", "5H"])),
                 foundations=(13, 13, 4, 13))
    assert game.stock_order() == cards(["7H", "6H", "5H"])
    assert game.can_auto_finish()
    while not game.is_won():
        game.auto_finish_step()
    assert game.is_won() and game.stock == [] and game.waste == []


def test_the_finish_button_never_appears_where_the_finish_cannot_win() -> None:
    # draw order 5H 6H 7H: with draw 3 only 7H ever comes up, so sending cards up cannot finish
    game = build([["KH"], ["QH"], ["JH"], ["10H"], ["9H"], ["8H"]], stock=list(reversed(["5H", "6H", "7H"])),
                 foundations=(13, 13, 4, 13))
    assert game.auto_finish_ready(), "the seed's condition holds ..."
    assert not game.can_auto_finish(), "... but the finish would not win, so it is not offered"
    assert game.auto_finish_move() is None
    with pytest.raises(IllegalMoveError):
        game.auto_finish_step()
    one = build([["KH"], ["QH"], ["JH"], ["10H"], ["9H"], ["8H"]], stock=list(reversed(["5H", "6H", "7H"])),
                foundations=(13, 13, 4, 13), draw_count=1)
    assert one.can_auto_finish(), "with draw 1 every card comes up"


def test_a_long_line_down_from_the_foundations_is_found_by_the_probe(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal 90103 after 146 hinted moves: the only way on brings diamonds down from their
    foundation to free a red Four for the 3C; the depth-first probe finds it once the best-first
    search has gone on for a while (that search alone took seconds here)."""
    from solitaire_rl.envs.klondike import progress

    kings = [cards(["KC", "QH", "JC", "10H", "9C", "8H", "7C", "6H", "5C"]),
             cards(["KH", "QC", "JH", "10C", "9H", "8C", "7H", "6C", "5H", "4C"])]
    game = KlondikeGame.from_position([*kings, [], [], [], cards(["4H", "2C", "3C"]), []],
                                      [0, 0, 0, 0, 0, 2, 0], stock=[], foundations=(1, 13, 3, 13))
    assert not any(game.is_progress(m) for m in game.legal_moves())

    search = progress._search

    def search_until_the_probe(*args: object, limit: int | None = None) -> bool | None:
        assert limit is not None, "the whole best-first search was needed"
        return search(*args, limit=limit)  # type: ignore[arg-type]

    monkeypatch.setattr(progress, "_search", search_until_the_probe)
    assert game.progress_possible()
