"""The Pyramid solver through its Python API: verdicts against published ones, winning lines
that the engine accepts, any reachable position as a start, verdicts for play (seeds 000 and
001), winnable deal IDs, and clear errors for bad input."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from solitaire_rl.agents.solver import (
    PlayVerdict,
    PyramidPosition,
    SearchLimits,
    play_verdict,
    solve_pyramid,
    wilson_interval,
    winnable_cards,
)
from solitaire_rl.agents.solver.winnable import candidate_cards
from solitaire_rl.envs.deals import DealId, encode_deal_code
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.pyramid import DRAW_MOVE, RECYCLE_MOVE, WIN, PyramidGame

FIXTURE = Path(__file__).parent / "data" / "pyramid_000_verdicts.jsonl"


def replays_to_win(game: PyramidGame, line: tuple) -> bool:
    game = game.copy()
    game.replay(line)
    return game.outcome() == WIN


# ------------------------------------------------------------------ verdicts
def test_agrees_with_mchung94_exact_solver_on_100_decks() -> None:
    """Source: mchung94/pyramid-solver, resources/random-decks.txt (see data/*.SOURCE.md)."""
    rows = [json.loads(line) for line in FIXTURE.read_text().splitlines()]
    assert len(rows) == 100
    for row in rows:
        game = PyramidGame(row["cards"])
        result = solve_pyramid(game, limits=SearchLimits(time_limit=None))
        assert result.winnable is row["winnable"], row["deck"]
        if row["winnable"]:
            assert replays_to_win(game, result.line)


def test_winnable_fraction_of_random_deals_agrees_with_the_published_665_percent() -> None:
    """mchung94 reports 998 of 1,500 random decks winnable under variant 000 (66.5%)."""
    n = 600
    wins = sum(solve_pyramid(f"pyramid-random-v1-{i}").status == "winnable" for i in range(n))
    low, high = wilson_interval(wins, n)
    published_low, published_high = wilson_interval(998, 1500)
    assert low < published_high and published_low < high, (wins, n)


@pytest.mark.parametrize("variant", ["000", "001"])
def test_every_winning_line_replays_to_a_win_in_the_engine(variant: str) -> None:
    verdicts = {"winnable": 0, "not_winnable": 0}
    for i in range(300):
        game = PyramidGame(f"pyramid-random-v1-{i}", stock_top_playable=variant == "000")
        result = solve_pyramid(game)
        verdicts[result.status] += 1
        assert (result.line is not None) == (result.status == "winnable")
        if result.line is not None:
            assert replays_to_win(game, result.line)
    assert min(verdicts.values()) > 50


def test_a_deal_winnable_in_001_is_winnable_in_000() -> None:
    """Every 001 move is legal in 000, so 001 is the stricter variant."""
    for i in range(300):
        if solve_pyramid(f"pyramid-random-v1-{i}", variant="001").status == "winnable":
            assert solve_pyramid(f"pyramid-random-v1-{i}", variant="000").status == "winnable"


def test_solves_from_any_reachable_position() -> None:
    """Random playouts (draws, recycles, pairs): a position is winnable iff some move leads to a
    winnable one, and each line wins from where it starts."""
    rng = random.Random(3)
    checked = 0
    for i in range(40):
        game = PyramidGame(f"pyramid-random-v1-{500 + i}", stock_top_playable=i % 2 == 0)
        while game.legal_moves() and checked < 2000:
            result = solve_pyramid(game)
            children = []
            for move in game.legal_moves():
                child = game.copy()
                child.push(move)
                children.append(solve_pyramid(child).status == "winnable" or child.is_won())
            assert (result.status == "winnable") == any(children), str(game)
            if result.line is not None:
                assert replays_to_win(game, result.line)
            checked += 1
            game.push(rng.choice(game.legal_moves()))
    assert checked > 1000


def test_position_in_the_last_pass_and_a_won_position() -> None:
    game = PyramidGame("pyramid-random-v1-0")
    while game.pass_number < 3 or game.stock:
        game.push(RECYCLE_MOVE if not game.stock else DRAW_MOVE)
    assert solve_pyramid(game).status == "not_winnable"  # nothing ever removed; the stock is spent
    won = PyramidGame("pyramid-random-v1-4")
    won.replay(solve_pyramid(won).line)
    result = solve_pyramid(won)
    assert (result.status, result.line) == ("winnable", ())


def test_deals_by_id_code_and_names_give_the_same_verdict() -> None:
    game = PyramidGame("pyramid-random-v1-7")
    code = encode_deal_code(game.deal.cards)
    names = ",".join(code[i : i + 2] for i in range(0, len(code), 2))
    verdicts = {solve_pyramid(spec).status for spec in ("pyramid-random-v1-7", code, names, game, game.deal)}
    assert len(verdicts) == 1


# ------------------------------------------------------------------ verdicts for play
def _losing_deal_number() -> int:
    return next(i for i in range(100) if solve_pyramid(f"pyramid-random-v1-{i}").status == "not_winnable")


def test_play_verdict_000_never_says_not_winnable_while_a_stock_card_is_unseen() -> None:
    game = PyramidGame(f"pyramid-random-v1-{_losing_deal_number()}")
    assert play_verdict(game) == PlayVerdict("unknown", reason="unseen_stock")
    draws = 0
    while not game.all_stock_seen():
        assert play_verdict(game).status == "unknown"
        game.push(DRAW_MOVE)
        draws += 1
    assert draws == 23  # the last card shows on top of the stock once 23 have been drawn
    assert play_verdict(game).status == "not_winnable"
    while game.moves_played:  # undo keeps the seen record, so the verdict may stand
        game.pop()
    assert play_verdict(game).status == "not_winnable"


def test_play_verdict_000_withholds_a_win_found_by_peeking_too() -> None:
    game = PyramidGame("pyramid-random-v1-4")
    assert solve_pyramid(game).status == "winnable"
    assert play_verdict(game).status == "unknown"


def test_play_verdict_001_states_a_proved_loss_and_a_line() -> None:
    statuses = (solve_pyramid(f"pyramid-random-v1-{i}", variant="001").status for i in range(100))
    number = next(i for i, status in enumerate(statuses) if status == "not_winnable")
    game = PyramidGame(f"pyramid-random-v1-{number}", stock_top_playable=False)
    assert play_verdict(game).status == "not_winnable"
    win = PyramidGame("pyramid-winnable-v1-0", stock_top_playable=False)
    verdict = play_verdict(win)
    assert verdict.status == "winnable" and replays_to_win(win, verdict.line)


def test_play_verdict_001_out_of_budget_is_unknown_not_a_loss() -> None:
    game = PyramidGame("pyramid-random-v1-2390", stock_top_playable=False)
    verdict = play_verdict(game, limits=SearchLimits(max_states=100))
    assert (verdict.status, verdict.reason) == ("unknown", "states")


# ------------------------------------------------------------------ winnable deals
def test_winnable_deal_ids_give_deals_proved_winnable_in_both_variants() -> None:
    for n in range(30):
        cards = DealId.parse(f"pyramid-winnable-v1-{n}").cards()
        assert cards == winnable_cards(n)
        for variant in ("001", "000"):
            game = PyramidGame(f"pyramid-winnable-v1-{n}", stock_top_playable=variant == "000")
            result = solve_pyramid(game)
            assert result.status == "winnable" and replays_to_win(game, result.line)
    assert len({winnable_cards(n) for n in range(30)}) == 30


def test_winnable_deal_is_the_first_candidate_proved_winnable_in_001() -> None:
    """The documented rule, recomputed: so the mapping is fixed by the cards alone."""
    for n in range(20):
        k = 0
        while solve_pyramid(list(candidate_cards(n, k)), variant="001").status != "winnable":
            k += 1
        assert winnable_cards(n) == candidate_cards(n, k)
        assert candidate_cards(n, 0) == candidate_cards(n, 0)  # a pure function of its name


def test_winnable_deal_id_round_trips_and_keeps_its_version() -> None:
    game = PyramidGame("pyramid-winnable-v1-12")
    assert game.deal.label == "pyramid-winnable-v1-12"
    with pytest.raises(MalformedInputError):
        DealId.parse("pyramid-winnable-v2-12")


# ------------------------------------------------------------------ bad input
def _position(**changes: object) -> PyramidPosition:
    fields = dict(pyramid=tuple(range(28)), stock=tuple(range(28, 52)))
    fields.update(changes)
    return PyramidPosition(**fields)


@pytest.mark.parametrize(
    "changes",
    [dict(rows=0), dict(rows=8), dict(pyramid=tuple(range(27))), dict(pyramid=(0,) * 28),
     dict(stock=tuple(range(27, 51))), dict(stock=(*range(28, 52), 52)), dict(pyramid=(-1, *range(1, 28))),
     dict(removed=1), dict(removed=1 << 28), dict(removed=-1), dict(waste_count=25), dict(waste_count=-1),
     dict(pass_number=0), dict(pass_number=4), dict(max_passes=5), dict(stock_top_playable=1),
     dict(removed=True), dict(pyramid="AS2S"), dict(pass_number=1.0)],
)
def test_impossible_or_malformed_positions_are_refused_with_a_clear_error(changes: dict) -> None:
    with pytest.raises(MalformedInputError):
        _position(**changes)


def test_a_tampered_game_is_refused_before_the_search() -> None:
    game = PyramidGame("pyramid-random-v1-1")
    game.removed = 1  # the apex gone while everything covers it
    with pytest.raises(MalformedInputError, match="impossible position"):
        solve_pyramid(game)


@pytest.mark.parametrize("spec", ["pyramid-random-v1-x", "pyramid-nosuch-v1-1", "klondike-random-v1-1",
                                  "ASAS" * 26, "QQ", 42, None])
def test_bad_deals_are_refused(spec: object) -> None:
    with pytest.raises(MalformedInputError):
        solve_pyramid(spec)


def test_bad_variant_limits_and_token_are_refused() -> None:
    game = PyramidGame("pyramid-random-v1-1")
    with pytest.raises(MalformedInputError):
        solve_pyramid("pyramid-random-v1-1", variant="002")
    with pytest.raises(MalformedInputError, match="variant 000"):
        solve_pyramid(game, variant="001")
    with pytest.raises(MalformedInputError):
        solve_pyramid(game, limits={"time_limit": 1})
    with pytest.raises(MalformedInputError):
        solve_pyramid(game, cancel=True)


def test_wilson_interval_matches_the_published_figure() -> None:
    low, high = wilson_interval(998, 1500)
    assert (round(low, 3), round(high, 3)) == (0.641, 0.689)
    assert wilson_interval(0, 0) == (0.0, 1.0)
