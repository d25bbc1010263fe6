"""The terminal demo and game (``python -m solitaire_rl.play.terminal``)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from solitaire_rl.envs.pyramid import PyramidGame
from solitaire_rl.play.terminal import demo, first_move_policy, interactive, main, solver_policy


def test_demo_plays_the_solvers_winning_line_to_a_win() -> None:
    out = io.StringIO()
    game = PyramidGame("pyramid-random-v1-1")
    assert demo(game, solver_policy(game, out), out) == "win"
    assert game.is_won()
    assert "solver: winnable" in out.getvalue()
    assert out.getvalue().rstrip().endswith(f"28 of 28 pyramid cards removed in {game.moves_played} moves")


def test_demo_of_an_unwinnable_deal_plays_on_to_a_dead_end() -> None:
    """pyramid_000_verdicts.jsonl deck 2 is not winnable (mchung94's exact solver)."""
    rows = (Path(__file__).parent / "data" / "pyramid_000_verdicts.jsonl").read_text().splitlines()
    deck = json.loads(rows[2])
    assert deck["winnable"] is False
    out = io.StringIO()
    game = PyramidGame(deck["cards"])
    policy = solver_policy(game, out)
    assert policy is first_move_policy
    assert "solver: not winnable" in out.getvalue()
    assert demo(game, policy, out) == "dead_end"


def test_interactive_game_refuses_with_the_reason_and_undoes() -> None:
    game = PyramidGame("pyramid-random-v1-1")  # bottom row QC 5D 8S 9S AD AC 3D, stock top 10S
    inp = io.StringIO("r7c1+r7c3\nr6c1\nr7c1+r7c5\nmoves\nu\nfoo\nq\n")
    out = io.StringIO()
    assert interactive(game, inp, out) == "quit"
    text = out.getvalue()
    assert "These two cards do not add up to 13." in text
    assert "This card is still covered." in text
    assert "is not a place" in text
    assert game.moves_played == 0 and game.removed == 0


def test_main_rejects_a_bad_deal_with_a_clear_message(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--deal", "bogus"])
    assert exc.value.code == 2
    assert "neither a deal ID" in capsys.readouterr().err
