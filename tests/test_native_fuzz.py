"""Fast fuzzing of native entry points that take outside data (issue #39): valid positions,
positions one mutation away, and garbage. Each call must give the right answer (the native
validator agrees with an independent Python statement of the rules' constraints) or a clear
Python exception, never a crash. benchmarks/sanitize.sh runs this file on the ASan/UBSan build."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

solitaire_native = pytest.importorskip("solitaire_native")

from tests.native_fuzz_targets import klondike_valid  # noqa: E402  (the constraints, stated independently)

EXAMPLES = int(os.environ.get("SOLITAIRE_FUZZ_EXAMPLES", "150"))
"""Examples per harness: the suite's few, or benchmarks/fuzz_native.py's many."""
FAST = settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
CLEAR = (ValueError, IndexError, TypeError, OverflowError)
"""The exceptions a bad input may raise (RuntimeError or MemoryError would be a finding)."""


@st.composite
def klondike_positions(draw: st.DrawFn) -> tuple:
    """A valid reduced or full position (columns, stock, waste, foundations, max_rank)."""
    max_rank = draw(st.integers(1, 13))
    suits = sorted(draw(st.sets(st.integers(0, 3), min_size=1)))
    foundation = [draw(st.integers(0, max_rank)) if s in suits else 0 for s in range(4)]
    cards = [(r - 1) << 2 | s for s in suits for r in range(foundation[s] + 1, max_rank + 1)]
    cards = draw(st.permutations(cards))
    ncols = draw(st.integers(1, 7))
    face_down: list[list[int]] = [[] for _ in range(ncols)]
    face_up: list[list[int]] = [[] for _ in range(ncols)]
    stock: list[int] = []
    waste: list[int] = []
    for card in cards:
        place = draw(st.integers(0, 2 * ncols + 1))
        target = stock if place == 2 * ncols else waste if place == 2 * ncols + 1 else (
            face_down[place // 2] if place % 2 == 0 else face_up[place // 2])
        target.append(card)
    return face_down, face_up, stock, waste, foundation, max_rank


@st.composite
def mutated_klondike_positions(draw: st.DrawFn) -> tuple:
    """A valid position with one thing changed (which may or may not keep it valid)."""
    face_down, face_up, stock, waste, foundation, max_rank = draw(klondike_positions())
    places = [*face_down, *face_up, stock, waste]
    value = draw(st.sampled_from([-1, 52, 53, 255, -(2**31), 2**31 - 1, *range(52)]))
    kind = draw(st.integers(0, 6))
    if kind == 0:
        draw(st.sampled_from(places)).append(value)
    elif kind == 1 and any(places):
        place = draw(st.sampled_from([p for p in places if p]))
        place[draw(st.integers(0, len(place) - 1))] = value
    elif kind == 2 and any(places):
        draw(st.sampled_from([p for p in places if p])).pop()
    elif kind == 3:
        max_rank = draw(st.sampled_from([0, -1, 14, 2**31 - 1, *range(1, 14)]))
    elif kind == 4:
        foundation[draw(st.integers(0, 3))] = draw(st.sampled_from([-1, 14, 2**31 - 1, *range(14)]))
    elif kind == 5:
        face_down.append([])
        face_up.append([value])
    else:
        face_down, face_up = [], []
    return face_down, face_up, stock, waste, foundation, max_rank


def _klondike_calls(position: object, draw_count: int) -> None:
    limits = solitaire_native.Limits()
    limits.max_states = 2000
    limits.time_limit_s = 2.0
    options = solitaire_native.KlondikeOptions()
    options.draw_count = draw_count
    result = solitaire_native.klondike_solve(position, options, limits)
    assert result.status in set(solitaire_native.Status)
    assert result.seconds < 10
    for kind, *_ in solitaire_native.klondike_legal_actions(position, draw_count):
        assert 0 <= kind < 16
    solitaire_native.klondike_generated_moves(position, draw_count)
    solitaire_native.klondike_forced_move(position, draw_count)
    assert solitaire_native.klondike_proved_lost_without_search(position, draw_count) in (True, False)


@FAST
@given(st.one_of(klondike_positions(), mutated_klondike_positions()), st.sampled_from([1, 3, 0, -1, 53]))
def test_klondike_positions_are_answered_or_refused(case: tuple, draw_count: int) -> None:
    """klondike_validate agrees with the rules' constraints; the queries answer valid positions and
    refuse the others (and bad draw counts) with ValueError."""
    try:
        position = solitaire_native.KlondikePosition(*case)
    except CLEAR:  # values outside C int, which nanobind refuses
        return
    valid = klondike_valid(*case)
    assert (solitaire_native.klondike_validate(position) == "") == valid, case
    if valid and 1 <= draw_count <= 52:
        _klondike_calls(position, draw_count)
    else:
        with pytest.raises(ValueError):
            _klondike_calls(position, draw_count)


@FAST
@given(st.lists(st.lists(st.integers(-3, 60), max_size=30), max_size=9),
       st.lists(st.lists(st.integers(-3, 60), max_size=30), max_size=9),
       st.lists(st.integers(-3, 60), max_size=60), st.lists(st.integers(-3, 60), max_size=60),
       st.lists(st.integers(-3, 15), min_size=4, max_size=4), st.integers(-3, 15))
def test_klondike_garbage_positions(face_down: list, face_up: list, stock: list, waste: list,
                                    foundation: list, max_rank: int) -> None:
    """Garbage positions: validated as the constraints say, and refused by the solver if invalid."""
    try:
        position = solitaire_native.KlondikePosition(face_down, face_up, stock, waste, foundation, max_rank)
    except CLEAR:
        return
    valid = klondike_valid(face_down, face_up, stock, waste, foundation, max_rank)
    assert (solitaire_native.klondike_validate(position) == "") == valid
    if not valid:
        with pytest.raises(ValueError):
            _klondike_calls(position, 3)


@FAST
@given(st.sampled_from(["pyramid", "klondike", "", "x" * 300, "\x00", "é"]), st.integers(0, 2**64 - 1))
def test_random_deal_is_a_deck(game: str, number: int) -> None:
    """random_deal gives a permutation of the 52 cards for any game name and number."""
    assert sorted(solitaire_native.random_deal(game, number)) == list(range(52))


def test_random_deal_refuses_negative_numbers() -> None:
    with pytest.raises(TypeError):
        solitaire_native.random_deal("pyramid", -1)
