"""Game analysis (solitaire_rl.agents.analysis, python -m solitaire_rl.training.analyse): games whose losing
move is known by
construction, every verdict checked against a search of its own position."""

from __future__ import annotations

import json
import random

import pytest

from solitaire_rl.agents.analysis import (
    HINDSIGHT,
    LOST_AT_MOVE,
    NEVER_WINNABLE,
    UNDECIDED,
    VISIBLE,
    WON,
    analyse_game,
    analyse_played,
    judge_move,
)
from solitaire_rl.agents.analysis.line import positions_of
from solitaire_rl.agents.planner.hop import tie_margin
from solitaire_rl.agents.solver import SearchLimits, solve_klondike, solve_pyramid
from solitaire_rl.envs.errors import IllegalMoveError, MalformedInputError
from solitaire_rl.envs.klondike import KlondikeGame
from solitaire_rl.envs.pyramid import PyramidGame
from solitaire_rl.envs.spec import find_game
from solitaire_rl.training.analyse import cli

LIMITS = SearchLimits(time_limit=5, max_states=2_000_000)


def solve(game):
    return (solve_pyramid if isinstance(game, PyramidGame) else solve_klondike)(game, limits=LIMITS)


def losing_game(variant: str, deal: str, seed: int, tail: int = 40):
    """A game that follows the solver's winning line, then plays a move the solver proves lost,
    then random moves: its losing move is known by construction. Returns (moves, losing index)."""
    kind = find_game(variant)
    game = kind.new_game(deal)
    line = solve(game).line
    assert line is not None
    moves = []
    for step in line:
        for move in game.legal_moves():
            if move == step:
                continue
            after = game.copy()
            after.push(move)
            if solve(after).status == "not_winnable":
                k = len(moves)
                moves.append(move)
                rng = random.Random(seed)
                while after.legal_moves() and len(moves) < k + 1 + tail:
                    m = rng.choice(after.legal_moves())
                    after.push(m)
                    moves.append(m)
                return moves, k
        game.push(step)
        moves.append(step)
    raise AssertionError("no losing move found along the line")


def assert_agrees_with_solver(report, variant: str, deal: str) -> None:
    """Every position's verdict equals a search of that position alone, wherever it decides."""
    start = find_game(variant).new_game(deal)
    decided = 0
    for verdict, position in zip(report.verdicts, positions_of(start, report.moves), strict=True):
        status = solve(position).status if not position.is_won() else "winnable"
        if status != "unknown":
            decided += 1
            assert verdict == status
    assert decided >= len(report.verdicts) * 0.9


@pytest.mark.parametrize(("variant", "deal", "seed"), [
    ("pyramid-001", "pyramid-random-v1-1", 0),
    ("pyramid-000", "pyramid-random-v1-2", 1),
    ("klondike-draw3", "klondike-random-v1-1", 2),
])
def test_the_losing_move_known_by_construction_is_found_and_every_verdict_agrees(variant, deal, seed) -> None:
    moves, k = losing_game(variant, deal, seed)
    report = analyse_game(variant, deal, [str(m) for m in moves])
    assert report.outcome == LOST_AT_MOVE
    assert report.first_losing_move == k
    assert report.verdicts[: k + 1] == ("winnable",) * (k + 1)
    assert set(report.verdicts[k + 1:]) == {"not_winnable"}
    assert_agrees_with_solver(report, variant, deal)
    # the alternative wins from the position before the losing move, and is another move
    lm = report.losing_move
    assert lm.alternative[0] != lm.move
    before = positions_of(find_game(variant).new_game(deal), moves[:k])[-1]
    for move in lm.alternative:
        before.push(move)
    assert before.is_won()
    # few searches: a bisection, not one search a move
    assert report.searches <= 2 * len(moves).bit_length() + 2
    assert lm.hindsight is not None and lm.hindsight.judgement in (VISIBLE, HINDSIGHT)


def test_a_won_game_loses_nothing_and_needs_no_search() -> None:
    game = PyramidGame("pyramid-random-v1-1", stock_top_playable=False)
    for move in solve(game).line:
        game.push(move)
    report = analyse_played(game)
    assert report.outcome == WON and report.losing_move is None and report.first_losing_move is None
    assert set(report.verdicts) == {"winnable"} and report.searches == 0


def test_a_deal_that_cannot_be_won_is_lost_before_any_move() -> None:
    deal = next(f"pyramid-random-v1-{n}" for n in range(1, 200)
                if solve_pyramid(f"pyramid-random-v1-{n}", variant="001").status == "not_winnable")
    game = PyramidGame(deal, stock_top_playable=False)
    rng = random.Random(3)
    while game.legal_moves() and game.moves_played < 30:
        game.push(rng.choice(game.legal_moves()))
    report = analyse_played(game)
    assert report.outcome == NEVER_WINNABLE and report.losing_move is None
    assert set(report.verdicts) == {"not_winnable"}
    assert_agrees_with_solver(report, "pyramid-001", deal)


def test_a_search_out_of_budget_is_unknown_never_a_loss() -> None:
    game = KlondikeGame("klondike-random-v1-3")
    rng = random.Random(0)
    for _ in range(20):
        game.push(rng.choice(game.legal_moves()))
    report = analyse_played(game, limits=SearchLimits(time_limit=1, max_states=1))
    assert report.outcome == UNDECIDED and report.losing_move is None
    assert "not_winnable" not in report.verdicts and "unknown" in report.verdicts


def test_bad_input_is_refused_with_its_reason() -> None:
    with pytest.raises(IllegalMoveError, match="move 2"):
        analyse_game("klondike", "klondike-random-v1-1", ["draw", "c1>c7", "draw"])
    with pytest.raises(MalformedInputError, match="bogus"):
        analyse_game("pyramid-000", "pyramid-random-v1-1", ["draw", "bogus"])
    with pytest.raises(MalformedInputError, match="unknown game"):
        analyse_game("spider", "pyramid-random-v1-1", [])
    with pytest.raises(MalformedInputError, match="one text"):
        analyse_game("pyramid", "pyramid-random-v1-1", "draw")
    position = KlondikeGame.from_position([["KC"]] + [[]] * 6, [0] * 7, stock=None)
    with pytest.raises(MalformedInputError, match="hand-built position"):
        analyse_played(position)


def random_loss(variant: str, number: int):
    kind = find_game(variant)
    deal = f"pyramid-random-v1-{number}"
    game = kind.new_game(deal)
    rng = random.Random(number)
    while game.legal_moves():
        game.push(rng.choice(game.legal_moves()))
    return deal, analyse_played(game)


def test_the_judgement_follows_its_definition_and_both_kinds_occur() -> None:
    seen = set()
    for number in (4, 5):
        _, report = random_loss("pyramid-001", number)
        h = report.losing_move.hindsight
        assert h.unknown_cards > 0 and h.samples == 32
        gap = h.best_value - h.played_value
        assert (h.judgement == VISIBLE) == (gap > tie_margin(h.samples))
        seen.add(h.judgement)
    assert seen == {VISIBLE, HINDSIGHT}


def test_a_loss_with_every_card_known_is_visible_from_one_sample() -> None:
    game = PyramidGame("pyramid-random-v1-1", stock_top_playable=True)
    line = solve(game).line
    # play the line until every stock card has been seen, then look for a losing move
    for step in line:
        if game.all_stock_seen():
            losing = next((m for m in game.legal_moves() if m != step and solve(after := game.copy()).status
                           and (after.push(m) or solve(after).status == "not_winnable")), None)
            if losing is not None:
                h = judge_move(find_game("pyramid-000"), game, losing)
                assert (h.judgement, h.samples, h.unknown_cards, h.played_value) == (VISIBLE, 1, 0, 0.0)
                assert h.best_value == 1.0
                return
        game.push(step)
    raise AssertionError("no losing move with every card seen")


def test_the_judgement_reads_nothing_of_the_unseen_cards() -> None:
    """Two deals that differ only in cards the player has not seen get the same judgement."""
    a = PyramidGame("pyramid-random-v1-4", stock_top_playable=False)
    a.push(a.legal_moves()[-1])  # a draw: one stock card seen
    order = a.stock_order()
    unseen = [i for i, c in enumerate(order) if not (a.seen >> c) & 1]
    swapped = list(a.deal.cards)
    # swap the two deepest stock cards (never seen yet) in the deal itself
    swapped[50], swapped[51] = swapped[51], swapped[50]  # the stock's last two cards
    b = PyramidGame(swapped, stock_top_playable=False)
    b.push(b.legal_moves()[-1])
    assert len(unseen) > 2 and b.seen == a.seen
    kind = find_game("pyramid-001")
    for move in a.legal_moves():
        assert judge_move(kind, a, move) == judge_move(kind, b, move)


def test_cli_prints_the_analysis_writes_json_and_replays_a_benchmark_row(tmp_path, capsys) -> None:
    deal, report = random_loss("pyramid-001", 5)
    moves = ",".join(map(str, report.moves))
    out = tmp_path / "a.json"
    cli(["pyramid-001", "5", "--moves", moves, "--json", str(out)])
    text = capsys.readouterr().out
    assert f"lost at move {report.first_losing_move + 1}" in text and "<- the win was lost here" in text
    assert json.loads(out.read_text()) == json.loads(json.dumps(report.as_dict())) | {
        "seconds": json.loads(out.read_text())["seconds"]}
    bench = tmp_path / "bench.json"
    bench.write_text(json.dumps({"rows": [{"agent": "random", "deal_id": deal,
                                           "moves": [str(m) for m in report.moves]}]}))
    cli(["pyramid-001", deal, "--benchmark", str(bench), "--agent", "random"])
    assert f"lost at move {report.first_losing_move + 1}" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="no row of agent 'greedy'"):
        cli(["pyramid-001", deal, "--benchmark", str(bench), "--agent", "greedy"])
    with pytest.raises(SystemExit, match="not legal"):
        cli(["klondike", "1", "--moves", "c1>c7"])


def test_a_klondike_judgement_reads_nothing_of_the_face_down_cards() -> None:
    a = KlondikeGame("klondike-random-v1-1")
    b = a.copy()
    b.columns = [list(col) for col in a.columns]
    b.columns[6][0], b.columns[6][1] = b.columns[6][1], b.columns[6][0]  # two face-down cards swapped
    assert b.columns != a.columns and b.hidden[6] == 6
    kind = find_game("klondike")
    for move in a.legal_moves():
        assert judge_move(kind, a, move, samples=8) == judge_move(kind, b, move, samples=8)
