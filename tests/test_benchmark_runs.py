"""The benchmark's runs and output (issues 50, 52): several seeds and checkpoints per agent, outside
agents, the provenance of the JSON, the command line built from the options, the solver drawn as an
upper bound."""

from __future__ import annotations

import hashlib
import json
import shlex
import subprocess
import sys
import textwrap
from dataclasses import fields, replace
from pathlib import Path

import pytest
import tyro

from solitaire_rl.agents.ppo import default_checkpoint
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.spec import find_game
from solitaire_rl.training.benchmark import OUTPUT_FIELDS, Args, Row, command_line, main
from solitaire_rl.training.benchmark_report import draw
from solitaire_rl.training.provenance import LIBRARIES
from tests.checkpoint_helpers import chosen_by_sampling, rewrite_metadata

ROOT = Path(__file__).resolve().parents[1]
PYRAMID = find_game("pyramid-000")


def untimed(rows: list[Row]) -> list[Row]:
    return [replace(r, seconds=0.0) for r in rows]


def test_several_seeds_play_the_seeded_agents_once_per_seed_and_aggregate(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "seeds.json"
    rows, summaries, _ = main(Args(game="pyramid", deals="1-6", agents="random,greedy", seeds="0-2",
                                   workers=1, analyse=False, json=str(out)))
    assert [(r.agent, r.seed) for r in rows[::6]] == [("random", 0), ("random", 1), ("random", 2),
                                                      ("greedy", None)]
    assert len(rows) == 24
    alone, _, _ = main(Args(game="pyramid", deals="1-6", agents="random", seed=1, workers=1, analyse=False))
    assert untimed(alone) == untimed(rows[6:12])  # a seed plays as --seed alone plays it
    assert [(s.agent, s.seed, s.deals) for s in summaries] == [
        ("random", 0, 6), ("random", 1, 6), ("random", 2, 6), ("greedy", None, 6)]
    printed = capsys.readouterr().out
    assert "| agent | seed | sees |" in printed and "| greedy | - | hidden cards |" in printed
    data = json.loads(out.read_text())
    assert data["seeds"] == [0, 1, 2]
    (random_runs,) = data["aggregates"]
    rates = [s.win_rate for s in summaries[:3]]
    assert random_runs["agent"] == "random" and random_runs["runs"] == 3 and random_runs["deals"] == 6
    assert random_runs["run_rates"] == pytest.approx(rates)
    assert random_runs["mean"] == pytest.approx(sum(rates) / 3)
    assert random_runs["mean_low"] <= random_runs["mean"] <= random_runs["mean_high"]
    assert len(data["paired"]) == 6  # every two of the four runs
    assert data["paired"][0]["first"] == "random (seed 0)" and data["paired"][-1]["second"] == "greedy"
    with pytest.raises(MalformedInputError, match="give one"):
        main(Args(game="pyramid", deals="1", agents="random", seed=2, seeds="0-1", workers=1))
    with pytest.raises(MalformedInputError, match="twice"):
        main(Args(game="pyramid", deals="1", agents="random", seeds="0-2,1", workers=1))


def test_each_checkpoint_is_a_row_named_for_its_file_and_the_json_records_digests_and_moves(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shipped = default_checkpoint(PYRAMID)
    for run in ("a", "b"):
        (tmp_path / run).mkdir()
        rewrite_metadata(shipped, tmp_path / run / "best.zip",
                         lambda record, run=run: record.setdefault("note", run))  # other bytes, same weights
    sampled = rewrite_metadata(shipped, tmp_path / "sampled.zip", chosen_by_sampling)
    out = tmp_path / "ckpt.json"
    rows, summaries, _ = main(Args(
        game="pyramid", deals="1-3", agents="ppo,greedy", workers=1, analyse=False, json=str(out),
        checkpoint=(Path(f"{shipped},{tmp_path / 'a' / 'best.zip'}"), tmp_path / "b" / "best.zip", sampled)))
    assert [s.agent for s in summaries] == ["ppo", "ppo:a/best", "ppo:b/best", "ppo:sampled", "greedy"]
    by_agent = {a: [r for r in rows if r.agent == a] for a in ("ppo", "ppo:a/best", "ppo:sampled")}
    assert untimed([replace(r, agent="ppo") for r in by_agent["ppo:a/best"]]) == untimed(by_agent["ppo"])
    assert {r.seed for r in by_agent["ppo"]} == {None} and {r.seed for r in by_agent["ppo:sampled"]} == {0}
    data = json.loads(out.read_text())
    entries = {e["name"]: e for e in data["options"]["agents"]}
    for name, path in (("ppo", shipped), ("ppo:a/best", tmp_path / "a" / "best.zip"),
                       ("ppo:sampled", sampled)):
        assert entries[name]["checkpoint_sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert entries["ppo"]["checkpoint"] == str(shipped)
    moves = [entries[n]["moves"] for n in ("ppo", "ppo:a/best", "ppo:sampled")]
    assert moves == ["argmax", "argmax", "sampled"]
    assert entries["greedy"]["moves"] is None and entries["greedy"]["checkpoint_sha256"] is None
    groups = {entries[n]["group"] for n in ("ppo:a/best", "ppo:b/best", "ppo:sampled")}
    assert groups == {"ppo (3 checkpoints)"}
    assert entries["ppo"]["group"] is None
    (group,) = data["aggregates"]
    assert group["agent"] == "ppo (3 checkpoints)" and group["runs"] == 3
    assert "ppo (3 checkpoints) | hidden cards | 3 | 3 |" in capsys.readouterr().out
    lone, _, _ = main(Args(game="pyramid", deals="1", agents="ppo", workers=1, analyse=False))
    assert [r.agent for r in lone] == ["ppo"]  # the shipped checkpoint alone keeps the name ppo


def test_the_json_records_the_commit_the_versions_and_the_date(tmp_path: Path) -> None:
    out = tmp_path / "p.json"
    main(Args(game="pyramid", deals="1-2", agents="greedy", workers=1, analyse=False, json=str(out)))
    data = json.loads(out.read_text())
    record = data["provenance"]
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True)
    assert record["git"]["commit"] == head.stdout.strip() and isinstance(record["git"]["dirty"], bool)
    assert set(record["versions"]) == {"python", *LIBRARIES}
    assert record["versions"]["numpy"] == __import__("numpy").__version__
    assert record["versions"]["python"] == ".".join(map(str, sys.version_info[:3]))
    assert record["date"][:4] >= "2026" and record["date"].endswith("+00:00")
    assert data["options"]["analysis_states"] == 200_000 and data["options"]["variant"] == "pyramid-000"


BOT = textwrap.dedent('''\
    """A player from outside the package: the first legal move, or a random one with a seed."""
    import numpy as np

    from solitaire_rl.agents.base import Choice, Player


    class FirstLegal(Player):
        name = "first-legal"

        def choose(self, observation, mask, info):
            return Choice(int(np.flatnonzero(mask)[0]))


    class Dice(Player):
        def __init__(self):
            self.rng = np.random.default_rng(0)

        def reseed(self, seed):
            self.rng = np.random.default_rng(seed)

        def choose(self, observation, mask, info):
            return Choice(int(self.rng.choice(np.flatnonzero(mask))))


    def make_player(variant):
        return FirstLegal()


    def make_dice(variant):
        return Dice()


    def make_nothing(variant):
        return "not a player"
    ''')


def test_an_agent_defined_in_a_file_outside_the_repository_plays_under_its_own_name(tmp_path: Path) -> None:
    """As a researcher runs it: ``python -m`` in their own folder, their module beside them."""
    (tmp_path / "mybot.py").write_text(BOT)
    done = subprocess.run(
        [sys.executable, "-m", "solitaire_rl.training.benchmark", "pyramid", "--deals", "1-3", "--agents",
         "greedy,mybot:make_player", "--workers", "2", "--no-analyse", "--json", "out.json"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    data = json.loads((tmp_path / "out.json").read_text())
    played = [(r["agent"], r["deal_number"]) for r in data["rows"]]
    assert played[3:] == [("first-legal", n) for n in (1, 2, 3)]
    assert "| first-legal | hidden cards | 3 |" in done.stdout
    assert data["options"]["agents"][1] == {"name": "first-legal", "agent": "mybot:make_player",
                                            "checkpoint": None, "checkpoint_sha256": None, "moves": None,
                                            "seeded": False, "group": None}


def test_an_outside_agent_from_a_file_path_with_a_name_and_seeds(tmp_path: Path) -> None:
    bot = tmp_path / "elsewhere" / "bots.py"
    bot.parent.mkdir()
    bot.write_text(BOT)
    rows, summaries, _ = main(Args(game="pyramid", deals="1-4", agents=f"dice={bot}:make_dice,random",
                                   seeds="3-4", workers=1, analyse=False))
    assert [(s.agent, s.seed) for s in summaries] == [("dice", 3), ("dice", 4), ("random", 3), ("random", 4)]
    again, _, _ = main(Args(game="pyramid", deals="1-4", agents=f"dice={bot}:make_dice", seed=4, workers=1,
                            analyse=False))
    assert untimed(again) == untimed([r for r in rows if r.agent == "dice" and r.seed == 4])
    for agents, message in ((f"{bot}:make_nothing", "not a solitaire_rl.agents.base.Player"),
                            (f"{bot}:missing", "no function 'missing'"),
                            ("no_such_module_here:make", "cannot be imported"),
                            (f"{tmp_path / 'none.py'}:make", "no such file"),
                            (f"greedy={bot}:make_dice", "not a free row name"),
                            (f"{bot}:make_player,first-legal={bot}:make_dice", "share a row name")):
        with pytest.raises(MalformedInputError, match=message):
            main(Args(game="pyramid", deals="1", agents=agents, workers=1, analyse=False))


def test_the_command_line_is_built_from_every_option_and_reads_back_as_the_same_options() -> None:
    """Each field of Args that is not an output option appears when it differs from its default (the
    analysis budgets were once forgotten), and tyro reads the command back to the same Args."""
    args = Args(game="pyramid", variant="001", deals="1-5", deal_type="winnable",
                agents="greedy,ppo,expert-net", checkpoint=(Path("a b.zip"), Path("c.zip")),
                expert_checkpoint=(Path("e.zip"),), ppo_sample=True, ppo_argmax=True, solver_time_limit=2.5,
                stock_known=True, planner_option=("samples=3", "x=y"), seed=4, seeds="0-2", analyse=False,
                analysis_states=1000, analysis_time_budget=2.0)
    defaults = Args(game="pyramid")
    changed = {f.name for f in fields(Args) if getattr(args, f.name) != getattr(defaults, f.name)}
    assert changed | {"game", *OUTPUT_FIELDS} == {f.name for f in fields(Args)}  # a new option joins here
    line = command_line(args)
    assert "--analysis-states 1000" in line and "--analysis-time-budget 2" in line
    prog, module, *argv = shlex.split(line)
    assert (prog, module) == ("python", "-m") and argv[0] == "solitaire_rl.training.benchmark"
    assert replace(tyro.cli(Args, args=argv[1:]), workers=args.workers) == args
    assert command_line(Args(game="pyramid")) == (
        "python -m solitaire_rl.training.benchmark pyramid --deals 1-1000 --agents random,greedy,ppo,solver")


def test_the_plot_draws_the_solver_as_an_upper_bound_not_an_agent() -> None:
    rows = [Row("greedy", PYRAMID.deal_id(n), n, "win", n < 3, 20, 5, 0.01, setting="hidden cards")
            for n in range(1, 6)]
    rows += [Row("solver", PYRAMID.deal_id(n), n, "win", n < 5, 28, 5, 0.01, "winnable", 3,
                 setting="thoughtful") for n in range(1, 6)]
    from solitaire_rl.training.benchmark_rows import summarize

    figure = draw(summarize(rows), PYRAMID, "1-5")
    left, right = figure.axes
    assert [t.get_text() for t in left.get_xticklabels()] == ["greedy"]  # one bar: the solver is no agent
    assert [round(p.get_height(), 6) for p in left.patches if p.get_width() < 1] == [40.0]
    (bound,) = [line for line in left.get_lines() if line.get_linestyle() == "--"]
    assert bound.get_ydata()[0] == pytest.approx(80.0) and "upper bound" in bound.get_label()
    assert "solver (sees every card): upper bound" in [t.get_text() for t in left.get_legend().get_texts()]
    assert any(line.get_linestyle() == "--" and line.get_ydata()[0] == pytest.approx((28 * 5) / 5)
               for line in right.get_lines())
    import matplotlib.pyplot as plt

    plt.close(figure)


def test_the_options_read_back_from_json_and_bad_ones_are_refused() -> None:
    from solitaire_rl.training.benchmark import play_options, resolve_agents
    from solitaire_rl.training.benchmark_options import PlayOptions

    args = Args(game="klondike", deals="1", agents="greedy,hop,ppo", stock_known=True,
                planner_option=("max_states=5000", "time_limit=0.5"), analysis_states=1234)
    variant = find_game("klondike")
    options = play_options(args, variant, resolve_agents(args, variant)[0])
    assert PlayOptions.from_json(json.loads(json.dumps(options.to_json()))) == options
    assert options.planner == (("max_states", 5000), ("time_limit", 0.5)) and options.analysis_states == 1234
    assert [(e.name, e.seeded, e.moves) for e in options.agents] == [
        ("greedy", False, None), ("hop", True, None), ("ppo", True, "sampled")]  # the shipped one samples
    for bad in ([], {"variant": "klondike", "speed": 3}, {"variant": "klondike", "agents": [{"nom": "x"}]}):
        with pytest.raises(MalformedInputError, match="not benchmark options"):
            PlayOptions.from_json(bad)


def test_checkpoint_names_and_seed_lists() -> None:
    from solitaire_rl.training.benchmark_options import file_names, parse_seeds

    assert file_names([Path("runs/a/best.zip"), Path("runs/b/best.zip"), Path("x/final.zip")]) == [
        "a/best", "b/best", "final"]
    with pytest.raises(MalformedInputError, match="twice"):
        file_names([Path("a.zip"), Path("a.zip")])
    assert parse_seeds("0-2,7") == (0, 1, 2, 7) and parse_seeds("5") == (5,)
    for bad in ("x", "3-1", "-1", "1,1"):
        with pytest.raises(MalformedInputError, match="--seeds"):
            parse_seeds(bad)
