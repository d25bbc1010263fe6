"""The benchmark: rows per deal, a table computed from them, Wilson intervals, JSON, plot, workers."""

from __future__ import annotations

import json
from dataclasses import asdict, replace
from pathlib import Path

import pytest

import solitaire_rl.training.benchmark
from solitaire_rl.agents.registry import unavailable_reason
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.spec import find_game
from solitaire_rl.training.benchmark import (
    _PLAYERS,
    ROWS_FORMAT,
    Args,
    PlayOptions,
    Row,
    command_line,
    format_table,
    main,
    planner_settings,
    play_options,
    resolve_agents,
    summarize,
)
from tests.checkpoint_helpers import chosen_by_sampling, rewrite_metadata

PYRAMID = find_game("pyramid-000")


def row(agent: str, number: int, won: bool, cleared: int = 20, verdict: str | None = None) -> Row:
    return Row(agent, PYRAMID.deal_id(number), number, "win" if won else "dead_end", won,
               28 if won else cleared, 50, 0.01, verdict, 10 if verdict else None)


def test_wilson_intervals_match_published_values() -> None:
    """Newcombe (1998), Statistics in Medicine 17:857-872, Table I, method 3 (Wilson score, no
    continuity correction): 81/263 -> 0.2553-0.3662; 15/148 -> 0.0624-0.1605; 0/20 -> 0-0.1611;
    1/29 -> 0.0061-0.1718."""
    for wins, deals, low, high in ((81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605),
                                   (0, 20, 0.0, 0.1611), (1, 29, 0.0061, 0.1718)):
        rows = [row("greedy", n, n <= wins) for n in range(1, deals + 1)]
        (summary,) = summarize(rows)
        assert (summary.wins, summary.deals) == (wins, deals)
        assert summary.ci_low == pytest.approx(low, abs=5e-5)
        assert summary.ci_high == pytest.approx(high, abs=5e-5)


def test_the_table_counts_wins_on_the_deals_the_solver_proves_winnable() -> None:
    rows = [row("solver", n, n <= 6, verdict="winnable" if n <= 6 else "not_winnable") for n in range(1, 11)]
    rows += [row("greedy", n, n in (1, 2), cleared=n) for n in range(1, 11)]
    solver, greedy = summarize(rows)
    assert (solver.solver_winnable, solver.wins_on_winnable) == (6, 6)
    assert (greedy.wins, greedy.solver_winnable, greedy.wins_on_winnable) == (2, 6, 2)
    assert greedy.mean_cleared == pytest.approx((28 + 28 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10) / 10)
    table = format_table([solver, greedy], PYRAMID)
    assert ("| greedy | hidden cards | 10 | 2 | 20.0% (5.7%–51.0%) | 10.80 / 28 | 2/6 (33.3%) | 10.0 ms |"
            in table)
    assert "| solver | thoughtful | 10 | 6 |" in table  # every row states what its agent sees
    assert "n/a (no solver)" in format_table(summarize([r for r in rows if r.agent == "greedy"]), PYRAMID)


def test_table_and_json_agree(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "result.json"
    rows, summaries, _ = main(Args(game="pyramid-001", deals="1-12", agents="random,greedy", workers=1,
                                   json=str(out)))
    printed = capsys.readouterr().out
    data = json.loads(out.read_text())
    assert data["variant"] == "pyramid-001" and data["deals"] == "1-12"
    command = "python -m solitaire_rl.training.benchmark pyramid-001 --deals 1-12 --agents random,greedy"
    assert data["command"].startswith(command)
    assert data["rows"] == [asdict(r) for r in rows] and len(rows) == 24
    assert data["table"] == [asdict(s) for s in summarize([Row(**r) for r in data["rows"]])]
    assert format_table(summaries, find_game("pyramid-001")) in printed
    for entry in data["table"]:
        wins = sum(r["won"] for r in data["rows"] if r["agent"] == entry["agent"])
        assert entry["wins"] == wins
        assert f"| {entry['agent']} | {entry['setting']} | 12 | {wins} | {entry['win_rate']:.1%} " in printed


def test_workers_give_the_same_rows_as_one_process() -> None:
    args = Args(game="pyramid", deals="1-8", agents="random,greedy", workers=1, seed=4)
    alone, _, _ = main(args)
    parallel, _, _ = main(replace(args, workers=2))
    strip = [replace(r, seconds=0.0) for r in alone]
    assert [replace(r, seconds=0.0) for r in parallel] == strip


def test_unavailable_agents_are_left_out_with_a_note(tmp_path: Path) -> None:
    rows, _, notes = main(Args(game="pyramid", deals="1-3", agents="greedy,ppo", workers=1,
                               checkpoint=tmp_path / "missing.zip"))
    assert {r.agent for r in rows} == {"greedy"}
    assert len(notes) == 1 and notes[0].startswith("ppo:missing: left out: no checkpoint")
    with pytest.raises(MalformedInputError, match="unknown agent"):
        main(Args(game="pyramid", deals="1-3", agents="greedy,human", workers=1))
    with pytest.raises(MalformedInputError, match="no agent can play"):
        main(Args(game="pyramid", deals="1-3", agents="ppo", workers=1, checkpoint=tmp_path / "missing.zip"))


@pytest.mark.skipif(unavailable_reason("solver", "pyramid") is not None, reason="no exact solver here")
def test_solver_rows_carry_verdicts_and_the_plot_is_written(tmp_path: Path) -> None:
    picture = tmp_path / "chart.png"
    args = Args(game="pyramid", deals="1-6", agents="greedy,solver", workers=1, plot=picture)
    rows, summaries, _ = main(args)
    solver_rows = [r for r in rows if r.agent == "solver"]
    assert all(r.verdict in ("winnable", "not_winnable") and r.states is not None for r in solver_rows)
    assert all(r.won == (r.verdict == "winnable") for r in solver_rows)
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert summaries[1].wins == summaries[1].wins_on_winnable == summaries[1].solver_winnable


def test_benchmark_notes_training_deals() -> None:
    _, _, notes = main(Args(game="pyramid", deals="1000000-1000001", agents="greedy", workers=1))
    assert any("training deals" in n for n in notes)


def test_sampled_ppo_play_is_reproducible_whatever_the_workers() -> None:
    args = Args(game="pyramid", deals="1-6", agents="ppo", workers=1, seed=2, ppo_sample=True)
    alone, _, _ = main(args)
    parallel, _, _ = main(replace(args, workers=2))
    assert [replace(r, seconds=0.0) for r in parallel] == [replace(r, seconds=0.0) for r in alone]
    assert "--ppo-sample" in command_line(args)
    again, _, _ = main(args)
    assert [replace(r, seconds=0.0) for r in again] == [replace(r, seconds=0.0) for r in alone]


def test_the_checkpoint_decides_how_ppo_plays_unless_a_flag_does(tmp_path: Path) -> None:
    """A checkpoint chosen by sampled evaluation samples without a flag, as ``--ppo-sample`` plays
    the same policy; ``--ppo-argmax`` plays it as the plain checkpoint plays by default."""
    from solitaire_rl.agents.ppo import default_checkpoint

    shipped = default_checkpoint(PYRAMID)
    sampled = rewrite_metadata(shipped, tmp_path / "sampled.zip", chosen_by_sampling)

    def rows(**options: object) -> list[Row]:  # the row names differ (ppo:sampled, ppo): the play does not
        played, _, _ = main(Args(game="pyramid", deals="1-4", agents="ppo", workers=1, seed=3, **options))
        return [replace(r, seconds=0.0, agent="ppo") for r in played]

    assert rows(checkpoint=sampled) == rows(checkpoint=shipped, ppo_sample=True)
    assert rows(checkpoint=sampled, ppo_argmax=True) == rows(checkpoint=shipped)
    assert rows(checkpoint=sampled) != rows(checkpoint=shipped)
    assert "--ppo-argmax" in command_line(Args(game="pyramid", ppo_argmax=True))
    with pytest.raises(MalformedInputError, match="contradict"):
        main(Args(game="pyramid", deals="1-2", agents="ppo", workers=1, ppo_sample=True, ppo_argmax=True))


def test_rows_hold_the_moves_and_the_first_losing_move_of_the_analysis() -> None:
    from solitaire_rl.agents.analysis import analyse_game

    rows, _, _ = main(Args(game="pyramid-001", deals="1-6", agents="random,solver", workers=1))
    assert any(r.analysis == "lost_at_move" for r in rows)
    for r in rows:
        assert len(r.moves) == r.steps
        report = analyse_game("pyramid-001", r.deal_id, r.moves, judge=False)
        assert (r.analysis, r.first_losing_move) == (report.outcome, report.first_losing_move)
        if r.agent == "solver":  # the solver loses nothing: it wins or the deal was never winnable
            assert r.analysis == ("won" if r.verdict == "winnable" else "never_winnable")
    skipped, _, _ = main(Args(game="pyramid-001", deals="1-2", agents="greedy", workers=1, analyse=False))
    assert all(r.analysis is None and r.first_losing_move is None and r.moves for r in skipped)


def test_planner_options_reach_the_planners_and_bad_ones_stop_the_run() -> None:
    assert planner_settings(["tree_iterations=400", "time_limit=0.5", "max_states=none", "prior=greedy"]) == {
        "tree_iterations": 400, "time_limit": 0.5, "max_states": None, "prior": "greedy"}
    with pytest.raises(MalformedInputError, match="KEY=VALUE"):
        planner_settings(["tree_iterations"])
    with pytest.raises(MalformedInputError, match="does not fit pimc"):
        main(Args(game="pyramid", deals="1", agents="pimc", workers=1, planner_option=("bogus=1",)))
    args = Args(game="pyramid", deals="1", agents="greedy,pimc", workers=1, analyse=False,
                planner_option=("samples=3",))
    main(args)
    assert [p.samples for k, p in _PLAYERS.items() if k[0].agent == "pimc" and ("samples", 3) in k[2]] == [3]
    assert "--planner-option samples=3" in command_line(args)


def test_a_rows_file_resumes_a_stopped_run_and_refuses_other_options(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rows_file = tmp_path / "rows.jsonl"
    args = Args(game="pyramid", deals="1-6", agents="random,greedy", workers=1, seed=3, rows=rows_file,
                analyse=False)
    whole, summaries, _ = main(replace(args, rows=None))
    first, _, _ = main(args)
    assert [replace(r, seconds=0.0) for r in first] == [replace(r, seconds=0.0) for r in whole]
    lines = rows_file.read_text().splitlines()
    options = play_options(args, PYRAMID, resolve_agents(args, PYRAMID)[0])
    assert json.loads(lines[0]) == {"format": ROWS_FORMAT, "options": options.to_json()}
    assert set(json.loads(lines[1])) == {"session"} and len(lines) == 14  # header, session, 12 rows
    # a run stopped after 4 rows, the 5th cut off mid-line: the same command plays only the rest
    rows_file.write_text("\n".join(lines[:6]) + "\n" + lines[6][:20])
    played: list[tuple[str, int, int | None]] = []
    real = solitaire_rl.training.benchmark.play_deal

    def counting(options: PlayOptions, task: tuple[str, int, int | None]) -> Row:
        played.append(task)
        return real(options, task)

    monkeypatch.setattr(solitaire_rl.training.benchmark, "play_deal", counting)
    resumed, again, _ = main(args)
    kept = [Row(**json.loads(line)) for line in lines[2:6]]
    assert sorted(played) == sorted({(r.agent, r.deal_number, r.seed) for r in whole}
                                    - {(r.agent, r.deal_number, r.seed) for r in kept})
    assert [replace(r, seconds=0.0) for r in resumed] == [replace(r, seconds=0.0) for r in whole]
    assert [(s.agent, s.wins, s.deals) for s in again] == [(s.agent, s.wins, s.deals) for s in summaries]
    assert len(rows_file.read_text().splitlines()) == 15  # a second session line
    # more deals with the same options extend the file
    more, _, _ = main(replace(args, deals="1-7"))
    assert len(more) == 14 and len(rows_file.read_text().splitlines()) == 18
    before = rows_file.read_text()
    (tmp_path / "other.txt").write_text("not rows\n")
    with pytest.raises(MalformedInputError, match="not a benchmark rows file"):
        main(replace(args, rows=tmp_path / "other.txt"))
    assert rows_file.read_text() == before


@pytest.mark.parametrize(("change", "named"), [
    ({"analysis_states": 100_000}, "analysis_states: 200000 -> 100000"),
    ({"analysis_time_budget": 2.0}, "analysis_time_budget: 10.0 -> 2.0"),
    ({"solver_time_limit": 2.0}, "solver_time_limit: 10.0 -> 2.0"),
    ({"analyse": False}, "analyse: True -> False"),
    ({"agents": "random"}, "agents: "),
    ({"planner_option": ("samples=3",), "agents": "random,greedy"}, "planner: () -> (('samples', 3),)"),
])
def test_a_resumed_run_with_a_changed_option_is_refused(tmp_path: Path, change: dict, named: str) -> None:
    """Every option that changes a row is in the rows file's header (the analysis budgets, which the
    hand-built command line of old forgot, included): resuming with another is refused, naming it,
    and the file is left as it was."""
    rows_file = tmp_path / "rows.jsonl"
    args = Args(game="pyramid", deals="1-2", agents="random,greedy", workers=1, rows=rows_file)
    main(args)
    before = rows_file.read_text()
    with pytest.raises(MalformedInputError, match="other options") as refused:
        main(replace(args, **change))
    assert named in str(refused.value)
    assert rows_file.read_text() == before


def test_a_rows_file_of_the_old_format_is_refused(tmp_path: Path) -> None:
    rows_file = tmp_path / "rows.jsonl"
    rows_file.write_text(json.dumps({"format": "solitaire-rl benchmark rows v1", "command": "x"}) + "\n")
    with pytest.raises(MalformedInputError, match="older benchmark"):
        main(Args(game="pyramid", deals="1", agents="greedy", workers=1, rows=rows_file))
