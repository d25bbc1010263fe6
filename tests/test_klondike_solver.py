"""The Klondike solver through its Python API: winning lines the engine accepts (from deals and
from positions reached in play), agreement with Solvitaire's verdicts, budgets that never turn
"unknown" into a loss, cancellation from another thread, and clear errors for bad input."""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path

import pytest

from solitaire_rl.agents.solver import KlondikePosition, SearchLimits, solve_klondike
from solitaire_rl.agents.solver.klondike import CancelToken
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike import KlondikeGame, to_solvitaire
from solitaire_rl.envs.klondike.moves import Move

FIXTURE = Path(__file__).parent / "data" / "klondike_draw3_solvitaire.jsonl"
QUICK = {"max_states": 300_000, "time_limit": None}
"""A budget in states, so that the verdicts are the same on every machine."""


def replays_to_win(game: KlondikeGame, line: tuple) -> bool:
    game = game.copy()
    for move in line:
        game.push(move)  # raises IllegalMoveError on an illegal move
    return game.is_won()


# ------------------------------------------------------------------ winning lines
@pytest.mark.parametrize("draw", [3, 1])
def test_every_winning_line_replays_to_a_win_in_the_engine(draw: int) -> None:
    counts = {"winnable": 0, "not_winnable": 0, "unknown": 0}
    for n in range(1, 121):
        game = KlondikeGame(f"klondike-random-v1-{n}", draw_count=draw)
        result = solve_klondike(game, **QUICK)
        counts[result.status] += 1
        if result.status == "winnable":
            assert replays_to_win(game, result.line), n
        else:
            assert result.line is None
    assert counts["winnable"] >= 80 and counts["not_winnable"] >= 5, counts


def test_solves_positions_reached_in_play_not_only_deals() -> None:
    rng = random.Random(6)
    won = 0
    for n in range(200, 240):
        game = KlondikeGame(f"klondike-random-v1-{n}", draw_count=rng.choice((1, 3)))
        for _ in range(rng.randrange(5, 60)):
            moves = game.legal_moves()
            if not moves or game.is_won():
                break
            game.push(rng.choice(moves))
        result = solve_klondike(game, **QUICK)
        if result.status == "winnable":
            won += 1
            assert replays_to_win(game, result.line), n
    assert won >= 10


# A winning line of deal 675 (found by the solver before rule 8, so its runs that empty a column do
# not wait for a King). It needs foundation cards brought down in an interleaved order (4C onto
# 5D, 4D onto 5C, 3C onto 4D, 2H onto 3C): a shortcut once tried ("a card comes down only to
# take a card at once, or with the one under it next") proved positions on it lost.
LINE_675 = (
    "draw draw draw waste>c6 c4>c5 draw draw draw draw draw recycle draw draw draw draw draw "
    "waste>c2 draw draw draw waste>c7 recycle draw draw draw draw draw draw waste>c7 draw recycle "
    "draw draw draw draw draw draw waste>c6 draw recycle draw draw draw draw draw waste>c7 "
    "c2:2>c7 c2>c4 draw draw recycle draw draw draw waste>c2 draw draw draw recycle draw draw "
    "waste>f c3>f c1>c7 waste>c7 draw draw draw draw recycle draw draw waste>c5 waste>c4 c5:3>c1 "
    "c7:8>c1 waste>f draw draw waste>c6 draw waste>c4 recycle draw draw waste>f c3>f c3>c7 "
    "c6:4>c4 c4:8>c3 draw draw recycle draw draw waste>c6 c4>c1 c6:2>c3 c6>c7 c6>f c1>f c3>f "
    "c6>c2 fD>c3 c6>c3 c3>f c3>f c1>c7 c1>f c7:2>c1 c7>f fD>c7 c3>f c7>f c7>f c3>f c3>f draw "
    "waste>f waste>c6 c3>c5 c3>f c1:7>c7 c1>f c5:2>c3 c7:8>c1 recycle draw waste>c7 waste>c3 "
    "c7:2>c3 fC>c7 c7:2>c2 c7>c2 waste>c7 draw waste>c3 fC>c7 fC>c2 waste>c7 waste>c2 c1:4>c2 "
    "c1>f c3:4>c7 c3>f c2:5>c1 c2>f fC>c2 fD>c3 fC>c3 fD>c2 fD>c3 fC>c2 fC>c3 fD>c2 fC>c2 fD>c3 "
    "fC>c3 c5>c3 c3:2>c7 c3>f c7>c5 c7>f c2>f c5:2>c7 c5>f c2>f c7>f c1>f c3>f c2>f c7>f c1>f "
    "c3>f c2>f c7>f c1>f c3>f c2>f c7>f c1>f c3>f c2>f c7>f c1>f c7>f c1>f c3>f c7>f c1>f c1>f "
    "c3>f c1>f c7>f c2>f c3>f c4>f c7>f c2>f c2>f c2>f c3>f c3>f c7>f c1>f c1>f c6>f"
)


def test_positions_along_a_winning_line_are_never_proved_lost() -> None:
    game = KlondikeGame("klondike-random-v1-675", draw_count=3)
    for step, text in enumerate([*LINE_675.split(), None]):
        if step % 3 == 0 or text is None:
            assert solve_klondike(game, **QUICK).status != "not_winnable", f"after {step} moves"
        if text is not None:
            game.push(Move.parse(text))
    assert game.is_won()


def test_a_won_position_is_winnable_with_an_empty_line() -> None:
    game = KlondikeGame.from_position([[] for _ in range(7)], [0] * 7, stock=[], foundations=[13] * 4)
    result = solve_klondike(game)
    assert result.status == "winnable" and result.line == ()


def test_the_draw_count_is_the_games_own() -> None:
    game = KlondikeGame("klondike-random-v1-1", draw_count=1)
    result = solve_klondike(game, **QUICK)
    assert result.status == "winnable" and replays_to_win(game, result.line)
    with pytest.raises(MalformedInputError, match="draw 1"):
        solve_klondike(game, draw_count=3)


def test_deals_are_accepted_as_ids_and_as_solvitaire_json() -> None:
    game = KlondikeGame("klondike-random-v1-5")
    by_id = solve_klondike("klondike-random-v1-5", **QUICK)
    by_json = solve_klondike(json.dumps(to_solvitaire(game.deal.cards)), **QUICK)
    assert by_id.status == by_json.status == "winnable"
    assert by_id.line == by_json.line and replays_to_win(game, by_id.line)


# ------------------------------------------------------------------ verdicts
def test_agrees_with_solvitaire_on_the_fixture_deals() -> None:
    """Source: the project's shared fixtures (see data/klondike_draw3_solvitaire.SOURCE.md)."""
    rows = [json.loads(line) for line in FIXTURE.read_text().splitlines()]
    assert len(rows) == 40
    decided = 0
    for i, row in enumerate(rows):
        reference = row["solvitaire_draw3"]
        result = solve_klondike(row["deal"], draw_count=3, **QUICK)
        if result.status == "unknown" or reference == "timed-out":
            continue
        decided += 1
        assert result.status == {"solved": "winnable", "unsolvable": "not_winnable"}[reference], i
        if result.status == "winnable":
            assert replays_to_win(KlondikeGame(row["deal"]), result.line)
    assert decided >= 35


def test_unknown_is_never_reported_as_not_winnable() -> None:
    """Tiny state budgets: whatever is decided agrees with the verdict of a full search."""
    truth = {n: solve_klondike(f"klondike-random-v1-{n}", **QUICK).status for n in range(1, 41)}
    unknown = 0
    for n, status in truth.items():
        if status == "unknown":
            continue
        for states in (1, 10, 100, 1000):
            result = solve_klondike(f"klondike-random-v1-{n}", max_states=states, time_limit=None)
            assert result.status in (status, "unknown"), (n, states)
            if result.status == "unknown":
                unknown += 1
                assert result.reason == "states" and result.line is None and result.states == states
    assert unknown >= 40


def test_time_budget_stops_a_hard_deal() -> None:
    result = solve_klondike("klondike-random-v1-148", time_limit=0.05)  # undecided after 10 s
    assert result.status == "unknown" and result.reason == "time" and result.seconds < 1.0


def test_a_tiny_memory_cap_keeps_verdicts_exact() -> None:
    limits = SearchLimits(time_limit=None, max_states=200_000, max_memory_bytes=64 << 10)
    for n in (1, 2, 4, 10, 13):
        small = solve_klondike(f"klondike-random-v1-{n}", limits=limits)
        full = solve_klondike(f"klondike-random-v1-{n}", **QUICK)
        assert small.status in (full.status, "unknown"), n
        if small.status == "winnable":
            assert replays_to_win(KlondikeGame(f"klondike-random-v1-{n}"), small.line)


# ------------------------------------------------------------------ cancellation
def test_cancellation_from_another_thread_stops_the_search() -> None:
    token = CancelToken()
    results = []
    worker = threading.Thread(
        target=lambda: results.append(solve_klondike("klondike-random-v1-148", time_limit=60, cancel=token))
    )
    start = time.monotonic()
    worker.start()
    time.sleep(0.2)  # the GIL is released while searching: this thread runs meanwhile
    token.cancel()
    worker.join(timeout=10)
    assert not worker.is_alive() and time.monotonic() - start < 5
    assert results[0].status == "unknown" and results[0].reason == "cancelled"


def test_a_cancelled_token_stops_at_once_and_reset_reuses_it() -> None:
    token = CancelToken()
    token.cancel()
    assert solve_klondike("klondike-random-v1-1", cancel=token).reason == "cancelled"
    token.reset()
    assert solve_klondike("klondike-random-v1-1", cancel=token, **QUICK).status == "winnable"


# ------------------------------------------------------------------ bad input
def _deal_position() -> KlondikePosition:
    return KlondikePosition.from_deal("klondike-random-v1-1")


@pytest.mark.parametrize("change", [
    {"stock": (0, 0)},                                   # a card twice, cards missing
    {"stock": (52,)},                                    # not a card
    {"foundations": (0, 0, 0)},                          # three foundations
    {"foundations": (14, 0, 0, 0)},                      # rank 14
    {"max_rank": 0},
    {"face_up": ((),) * 8, "face_down": ((),) * 8},      # eight columns
    {"face_down": ((),)},                                # columns differ in number
    {"waste": "AS"},                                     # text, not cards
])
def test_a_corrupt_position_is_refused_clearly(change: dict) -> None:
    base = _deal_position()
    names = ("face_down", "face_up", "stock", "waste", "foundations", "max_rank")
    fields = {k: getattr(base, k) for k in names}
    with pytest.raises(MalformedInputError):
        KlondikePosition(**(fields | change))


def test_a_card_both_on_its_foundation_and_on_the_table_is_refused() -> None:
    base = _deal_position()
    with pytest.raises(MalformedInputError, match="impossible Klondike position"):
        KlondikePosition(base.face_down, base.face_up, base.stock, base.waste, (13, 0, 0, 0))


@pytest.mark.parametrize("kwargs", [
    {"draw_count": 2}, {"draw_count": 0}, {"draw_count": "3"}, {"draw_count": True},
    {"time_limit": -1}, {"time_limit": float("nan")}, {"max_states": 0}, {"max_states": 1.5},
    {"order_seed": -1}, {"cancel": object()}, {"limits": 10},
    {"limits": SearchLimits(), "time_limit": 5},
])
def test_bad_options_are_refused_clearly(kwargs: dict) -> None:
    with pytest.raises(MalformedInputError):
        solve_klondike("klondike-random-v1-1", **kwargs)


def test_bad_targets_are_refused_clearly() -> None:
    for target in ("klondike-random-v1-x", 42.5, {"tableau piles": []}, "{not json"):
        with pytest.raises(MalformedInputError):
            solve_klondike(target)


def test_the_native_side_refuses_bad_input_again_rather_than_crash() -> None:
    import solitaire_native

    position = solitaire_native.KlondikePosition([[]], [[0, 0]], [], [], [0, 0, 0, 0], 13)
    assert "twice" in solitaire_native.klondike_validate(position)
    options = solitaire_native.KlondikeOptions()
    with pytest.raises(ValueError):
        solitaire_native.klondike_solve(position, options, SearchLimits().to_native())
    good = KlondikePosition.from_deal("klondike-random-v1-1").to_native()
    options.draw_count = 0
    with pytest.raises(ValueError, match="draw_count"):
        solitaire_native.klondike_solve(good, options, SearchLimits().to_native())
    with pytest.raises(ValueError):
        solitaire_native.klondike_generated_moves(position, 3)
