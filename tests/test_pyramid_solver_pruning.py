"""Each pruning rule cuts a position it must cut and leaves one it must not; each forced move
(Kings at once, forced pairs) is played where it applies and only there; and both are sound:
brute force agrees on random small positions."""

from __future__ import annotations

import random

import pytest

from solitaire_rl.agents.solver import PRUNE_RULES, PyramidPosition, pyramid_forced_moves, pyramid_prune_rule
from solitaire_rl.envs.cards import make_card
from solitaire_rl.envs.pyramid import DRAW_MOVE, STOCK, WASTE, Move
from tests.test_pyramid_solver_bruteforce import BruteForce, random_small_position

_SUITS = {}


def cards(*ranks: int) -> tuple[int, ...]:
    """Distinct cards of the given ranks (suits handed out in turn; suits play no part)."""
    out = []
    for r in ranks:
        suit = _SUITS.get(r, 0)
        _SUITS[r] = suit + 1
        out.append(make_card(r, suit % 4))
    return tuple(out)


def position(pyramid: tuple[int, ...], stock: tuple[int, ...] = (), **kwargs: object) -> PyramidPosition:
    _SUITS.clear()
    all_cards = cards(*pyramid, *stock)
    rows = {1: 1, 3: 2, 6: 3, 10: 4}[len(pyramid)]
    size = len(pyramid)
    return PyramidPosition(pyramid=all_cards[:size], stock=all_cards[size:], rows=rows, **kwargs)


K = 13
# Three-row pyramids: position 0 is the apex; 1, 2 the middle row; 3, 4, 5 the bottom row.
# Position 1 is covered by 3 and 4, position 2 by 4 and 5; both cover the apex.
CASES = {
    # A 5 and no 8 left anywhere.
    "rank_count": (position((5,)), position((5,), (8,))),
    # The apex 5's only 8 lies on top of it (and that 8's only 5 is under it).
    "buried_partner": (position((5, 8, 3), (10,)), position((5, 8, 3), (10, 8, 5))),
    # Two 5s (positions 3 and 4) can both use only the 8 at position 5: the apex 8 lies under them.
    "partner_matching": (position((8, K, K, 5, 5, 8), (5,)), position((8, K, K, 5, 5, 8), (5, 8))),
    # The 9 (position 3) can pair only with the 4 at position 2, which needs position 5 gone; the 10
    # there can pair only with the 3 at position 1, which needs position 3 gone: a cycle.
    "relaxation": (position((K, 3, 4, 9, K, 10)), position((K, 3, 4, 9, K, 10), (4, 9))),
}


def test_every_rule_has_cases() -> None:
    assert set(CASES) == set(PRUNE_RULES)


@pytest.mark.parametrize("rule", PRUNE_RULES)
def test_rule_cuts_a_lost_position(rule: str) -> None:
    cut, _ = CASES[rule]
    assert pyramid_prune_rule(cut) == rule
    assert not BruteForce(cut).winnable()


@pytest.mark.parametrize("rule", PRUNE_RULES)
def test_rule_leaves_a_winnable_position(rule: str) -> None:
    _, kept = CASES[rule]
    assert pyramid_prune_rule(kept) is None
    assert BruteForce(kept).winnable()


def test_pruning_is_sound_on_random_small_positions() -> None:
    rng = random.Random(7)
    fired = dict.fromkeys(PRUNE_RULES, 0)
    for _ in range(2000):
        pos = random_small_position(rng)
        rule = pyramid_prune_rule(pos)
        if rule is not None:
            fired[rule] += 1
            assert not BruteForce(pos).winnable(), (rule, pos)
    assert all(count > 0 for count in fired.values()), fired


# ------------------------------------------------------------------ forced moves
def test_available_pyramid_king_goes_at_once_but_not_a_covered_one() -> None:
    pos = position((K, 5, K), (8,))  # apex King covered; the King at position 2 available
    assert pyramid_forced_moves(pos)[0] == Move.remove(2)
    assert pyramid_forced_moves(position((K, 5, 9), (8, 8, 4, 4))) == []


def test_king_on_the_stock_top_goes_at_once_in_000_and_is_drawn_then_removed_in_001() -> None:
    assert pyramid_forced_moves(position((5,), (K, 8)))[0] == Move.remove(STOCK)
    assert pyramid_forced_moves(position((5,), (K, 8), stock_top_playable=False))[:2] == [
        DRAW_MOVE, Move.remove(WASTE),
    ]


def test_king_on_the_waste_top_goes_at_once() -> None:
    assert pyramid_forced_moves(position((5,), (8, K), waste_count=2))[0] == Move.remove(WASTE)


def test_forced_pair_with_the_only_partner_left_but_not_with_one_of_two() -> None:
    assert pyramid_forced_moves(position((5,), (8,), waste_count=1)) == [Move.remove(0, WASTE)]
    assert pyramid_forced_moves(position((5,), (8, 8), waste_count=1)) == []


def test_forced_moves_keep_the_verdict_on_random_small_positions() -> None:
    rng = random.Random(8)
    played = 0
    for _ in range(2000):
        pos = random_small_position(rng)
        forced = pyramid_forced_moves(pos)
        if not forced:
            continue
        played += 1
        brute = BruteForce(pos)
        state = brute.start()
        for move in forced:
            state = brute.play(state, move)
        removed, stock, waste, pass_number = state
        after = PyramidPosition(
            pyramid=pos.pyramid, stock=waste + stock, removed=removed, waste_count=len(waste),
            pass_number=pass_number, stock_top_playable=pos.stock_top_playable, rows=pos.rows,
            max_passes=pos.max_passes,
        )
        assert BruteForce(after).winnable() == brute.winnable(), pos
    assert played > 200
