"""docs/leaderboard.md is generated from the benchmark's rows files, and stays so
(solitaire_rl/training/leaderboard.py)."""

from __future__ import annotations

import json
import shutil
from dataclasses import asdict
from pathlib import Path

import pytest

from solitaire_rl.training import leaderboard
from solitaire_rl.training.benchmark import Args, main
from solitaire_rl.training.benchmark_rows import Row
from solitaire_rl.training.leaderboard import ROWS_DIR, deal_ranges, entries_of, load, render

ROOT = Path(__file__).resolve().parents[1]


def test_the_leaderboard_regenerated_from_the_rows_files_equals_the_file() -> None:
    assert render(load()) == (ROOT / "docs" / "leaderboard.md").read_text(encoding="utf-8"), (
        "docs/leaderboard.md is stale: run python -m solitaire_rl.training.leaderboard")


def test_every_rows_file_and_agent_has_its_line_with_a_date_and_a_command() -> None:
    files = sorted(ROWS_DIR.glob("*.json"))
    entries = load()
    assert {e.source for e in entries} == {f"benchmarks/results/agents/{f.name}" for f in files}
    for path in files:
        agents = {r["agent"] for r in json.loads(path.read_text())["rows"]}
        assert {e.agent for e in entries if e.source.endswith(path.name)} == agents
    assert all(e.date[:4] == "2026" and e.command.startswith("python -m solitaire_rl.training.benchmark ")
               for e in entries)
    pimc = next(e for e in entries if e.agent == "pimc" and e.variant == "pyramid-000")
    assert (pimc.date, pimc.wins, pimc.deal_count) == ("2026-12-02", 640, 1000)  # its own run, in the file
    assert "--agents solver,pimc" in pimc.command


def write_run(folder: Path, name: str, **options: object) -> Path:
    out = folder / name
    main(Args(game="pyramid", workers=1, analyse=False, json=str(out), **options))  # type: ignore[arg-type]
    return out


def test_a_new_run_joins_its_table_ranked_within_what_its_agents_see(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rows_dir = tmp_path / "agents"
    rows_dir.mkdir()
    write_run(rows_dir, "a.json", deals="1-8", agents="random,greedy,solver", seeds="0-1")
    shutil.copy(ROWS_DIR / "pyramid-001-expert-net.json", rows_dir / "b.json")
    entries = load(rows_dir, tmp_path)
    page = render(entries)
    assert page.count("\n## ") == 2
    assert "## Pyramid, seed 000 (stock and waste tops playable) (`pyramid-000`)" in page
    mine = [line for line in page.splitlines() if "[a.json](../agents/a.json)" in line]
    assert [line.split(" | ")[0] for line in mine] == ["| greedy", "| random", "| solver"]  # solver last
    random = next(e for e in entries if e.agent == "random")
    assert random.runs == 2 and random.deal_count == 8 and "(2 seeds)" in mine[1]
    assert random.low <= random.rate <= random.high and random.date == random.date[:10]
    data = json.loads((rows_dir / "a.json").read_text())
    assert random.date == data["provenance"]["date"][:10]
    greedy = [Row(**r) for r in data["rows"] if r["agent"] == "greedy"]
    solo = next(e for e in entries if e.agent == "greedy")
    assert solo.wins == sum(r.won for r in greedy) and solo.deals == "1..8"
    out = tmp_path / "board.md"
    monkeypatch.chdir(tmp_path)
    assert leaderboard.main(leaderboard.Args(rows_dir=rows_dir, out=out, check=True)) == 1
    assert not out.exists()  # --check writes nothing
    assert leaderboard.main(leaderboard.Args(rows_dir=rows_dir, out=out)) == 0
    assert leaderboard.main(leaderboard.Args(rows_dir=rows_dir, out=out, check=True)) == 0
    assert out.read_text() == render(load(rows_dir))


def test_the_next_line_comparison_counts_wins_each_way(tmp_path: Path) -> None:
    def rows(agent: str, wins: list[int]) -> list[dict]:
        return [asdict(Row(agent, f"pyramid-random-v1-{n}", n, "win", n in wins, 0, 1, 0.0))
                for n in range(1, 11)]

    path = tmp_path / "x.json"
    path.write_text(json.dumps({"variant": "pyramid-001", "command": "python -m training.benchmark x",
                                "provenance": {"date": "2026-12-05T10:00:00+00:00"},
                                "rows": rows("a", [1, 2, 3, 4, 5, 6]) + rows("b", [1, 7])}))
    first, second = leaderboard.ranked(entries_of(path, tmp_path))
    assert (first.agent, second.agent) == ("a", "b")
    assert leaderboard.paired_with_next(first, second) == "5–1, p = 0.2188"  # 2 * 7/64
    assert first.command == "python -m solitaire_rl.training.benchmark x" and first.date == "2026-12-05"


def test_deal_ranges_read_as_written() -> None:
    assert deal_ranges([3, 1, 2, 42, 100_000, 99_999]) == "1..3, 42, 99,999..100,000"


def test_the_paired_figures_of_benchmark_md_come_from_the_rows_files() -> None:
    """docs/benchmark.md, "Against the targets": ppo against greedy on deals 1..1000 (37-0, 22-0, 78-8)
    and the Klondike planners' pairs, from the rows in benchmarks/results/agents/."""
    from solitaire_rl.training.benchmark_stats import paired_tests

    def pair(*names: str, agents: tuple[str, ...] = ("greedy", "ppo")) -> list:
        rows = [Row(**r) for name in names
                for r in json.loads((ROWS_DIR / f"{name}.json").read_text())["rows"]]
        return paired_tests([r for r in rows if r.agent in agents])

    doc = " ".join((ROOT / "docs" / "benchmark.md").read_text().split())
    for name, ppo_only, said in (("pyramid-000", 37, "(37 against 0, exact McNemar p = 1.5e-11)"),
                                 ("pyramid-001", 22, "(22 against 0, p = 4.8e-7)")):
        (test,) = pair(name)
        assert (test.first_only, test.second_only) == (0, ppo_only) and said in doc
        assert test.p_value == pytest.approx(float(said.rpartition("= ")[2][:-1]), rel=0.05)
    (klondike,) = pair("klondike-draw3")
    assert (klondike.second_only, klondike.first_only) == (78, 8)
    assert "78 deals against 8 (p = 1.5e-15)" in doc
    assert klondike.p_value == pytest.approx(1.5e-15, rel=0.05)
    planners = ("hop", "ismcts", "guided-ismcts")
    hop_ismcts, _, ismcts_guided = pair(*(f"klondike-draw3-{a}" for a in planners), agents=planners)
    assert (hop_ismcts.second_only, hop_ismcts.first_only) == (123, 87)
    assert (round(hop_ismcts.p_value, 3), round(hop_ismcts.p_holm, 3)) == (0.016, 0.047)
    assert "123 deals against 87 (p = 0.016; 0.047 after" in doc
    assert (ismcts_guided.second_only, ismcts_guided.first_only) == (34, 46)
    assert round(ismcts_guided.p_value, 2) == 0.22 and "34 against 46 (p = 0.22)" in doc


def test_the_seeds_figures_of_benchmark_md_come_from_their_rows_file() -> None:
    """docs/benchmark.md: Klondike ppo over five seeds, 18.7/17.9/18.9/18.2/18.4%, mean 18.4%
    (16.1-20.7%); seed 0 plays every deal as the 2026-11-30 rows (klondike-draw3.json) do."""
    data = json.loads((ROWS_DIR / "klondike-draw3-ppo-seeds.json").read_text())
    (runs,) = data["aggregates"]
    assert [round(100 * r, 1) for r in runs["run_rates"]] == [18.7, 17.9, 18.9, 18.2, 18.4]
    assert [round(100 * runs[k], 1) for k in ("mean", "mean_low", "mean_high")] == [18.4, 16.1, 20.7]
    old = {r["deal_number"]: r for r in json.loads((ROWS_DIR / "klondike-draw3.json").read_text())["rows"]
           if r["agent"] == "ppo"}
    fields = ("won", "steps", "cards_cleared", "outcome")
    seed0 = [r for r in data["rows"] if r["seed"] == 0]
    assert len(seed0) == 1000 and all(old[r["deal_number"]][k] == r[k] for r in seed0 for k in fields)
    doc = " ".join((ROOT / "docs" / "benchmark.md").read_text().split())
    said = "18.7%, 17.9%, 18.9%, 18.2% and 18.4%, a mean of **18.4% (95% bootstrap interval over seeds and "
    assert said + "deals 16.1-20.7%)**" in doc
