"""``python -m solitaire_rl.agents.solver klondike``: deals by number, ID and Solvitaire JSON (inline or in a
file), the summary, errors; and the ``solver`` player on Klondike."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from solitaire_rl.agents.registry import make_player
from solitaire_rl.agents.solver.cli import build_parser, main, run_klondike
from solitaire_rl.envs.klondike import KlondikeGame, to_solvitaire
from solitaire_rl.envs.spec import find_game

FIXTURE = Path(__file__).parent / "data" / "klondike_draw3_solvitaire.jsonl"


def run(argv: list[str]) -> list[str]:
    out = io.StringIO()
    assert run_klondike(build_parser().parse_args(argv), out=out) == 0
    return out.getvalue().splitlines()


def test_deals_by_number_and_id_with_a_summary() -> None:
    lines = run(["klondike", "1", "2", "klondike-random-v1-4", "--max-states", "300000"])
    assert lines[0].startswith("klondike-random-v1-1") and "winnable" in lines[0]
    assert lines[1].startswith("klondike-random-v1-2") and "not_winnable" in lines[1]
    assert lines[2].startswith("klondike-random-v1-4")
    assert lines[3] == "3 deals (draw 3): 2 winnable, 1 not winnable, 0 unknown"


def test_json_output_with_lines_that_replay_in_the_engine() -> None:
    lines = run(["klondike", "5-6", "--draw", "1", "--json", "--line", "--max-states", "300000"])
    records = [json.loads(line) for line in lines]
    assert [r["deal"] for r in records[:2]] == ["klondike-random-v1-5", "klondike-random-v1-6"]
    assert records[-1]["summary"]["draw"] == 1 and records[-1]["summary"]["deals"] == 2
    for record in records[:2]:
        assert record["verdict"] == "winnable"
        game = KlondikeGame(record["deal"], draw_count=1)
        game.replay(record["line"])
        assert game.is_won()


def test_solvitaire_deal_files_and_inline_json(tmp_path: Path) -> None:
    rows = [json.loads(line) for line in FIXTURE.read_text().splitlines()[:3]]
    jsonl = tmp_path / "deals.jsonl"
    jsonl.write_text("\n".join(json.dumps(r) for r in rows) + "\n")  # {"deal": ...} per line
    single = tmp_path / "one.json"
    single.write_text(json.dumps(to_solvitaire(KlondikeGame("klondike-random-v1-4").deal.cards)))
    reduced = json.dumps({"tableau piles": [["2s", "AH"], ["AS"]], "stock": ["2H"]})
    lines = run(["klondike", str(jsonl), str(single), reduced, "--max-states", "300000"])
    assert [line.split()[0] for line in lines[:5]] == [
        "deals.jsonl:1", "deals.jsonl:2", "deals.jsonl:3", "one.json:1", "json-1"]
    assert all(" winnable " in line for line in lines[:5])  # fixture deals 0-2 are solved
    assert lines[5].startswith("5 deals (draw 3): 5 winnable")


def test_bad_arguments_exit_with_status_2_and_a_message(capsys) -> None:
    for argv in (["klondike", "1", "--time", "-1"], ["klondike", "missing.json"],
                 ["klondike", "{\"tableau piles\": 3}"], ["klondike", "5-1"]):
        assert main(argv) == 2
        assert capsys.readouterr().err.startswith("error: ")
    for argv, words in ((["klondike", "1-x"], "bad range '1-x': need FIRST-LAST, two deal numbers"),
                        (["klondike", "klondike-random-v1--3"], "deal number after 'klondike-random-v1-'")):
        assert main(argv) == 2
        assert words in capsys.readouterr().err


def test_module_entry_point() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "solitaire_rl.agents.solver", "klondike", "4", "--draw", "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "klondike-random-v1-4" in done.stdout and "1 winnable" in done.stdout


def test_solver_player_plays_its_winning_lines_on_klondike() -> None:
    variant = find_game("klondike")
    player = make_player("solver", variant)
    env = variant.make_env()
    won = 0
    for number in (1, 4, 5, 6, 7, 9, 10):
        obs, info = env.reset(options={"deal": variant.deal_id(number)})
        player.reset(env)
        assert player.result.status == "winnable"
        done = False
        while not done:
            choice = player.choose(obs, env.unwrapped.action_masks(), info)
            obs, _, terminated, truncated, info = env.step(choice.action)
            done = terminated or truncated
        won += env.unwrapped.game.is_won()
    assert won == 7
