"""The solver's command line (``python -m solitaire_rl.agents.solver pyramid ...``) and the benchmark
script."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from solitaire_rl.agents.solver.cli import build_parser, main, run_pyramid
from solitaire_rl.envs.pyramid import PyramidGame

ROOT = Path(__file__).resolve().parents[1]


def run(argv: list[str]) -> str:
    out = io.StringIO()
    args = build_parser().parse_args(argv)
    assert run_pyramid(args, out=out) == 0
    return out.getvalue()


def test_range_prints_each_deal_then_a_summary_with_the_wilson_interval() -> None:
    text = run(["pyramid", "0-9"])
    lines = text.splitlines()
    assert [line.split()[0] for line in lines[:10]] == [f"pyramid-random-v1-{i}" for i in range(10)]
    assert all(line.split()[1] in ("winnable", "not_winnable") and "states" in line for line in lines[:10])
    assert lines[10].startswith("10 deals (variant 000):")
    assert "95% Wilson interval" in lines[11]
    assert lines[12].startswith("time per deal: median")


def test_json_rows_and_summary_agree() -> None:
    text = run(["pyramid", "3", "20-24", "--json", "--variant", "001"])
    records = [json.loads(line) for line in text.splitlines()]
    rows, summary = records[:-1], records[-1]["summary"]
    assert [r["deal"] for r in rows] == [f"pyramid-random-v1-{i}" for i in (3, 20, 21, 22, 23, 24)]
    assert all(r["variant"] == "001" and r["states"] >= 0 and r["seconds"] >= 0 for r in rows)
    assert summary["deals"] == 6
    assert summary["winnable"] == sum(r["verdict"] == "winnable" for r in rows)
    low, high = summary["wilson95"]
    assert low <= summary["winnable_fraction"] <= high


def test_deal_ids_codes_and_winnable_kind() -> None:
    code = PyramidGame("pyramid-random-v1-5").deal.code
    text = run(["pyramid", code, "pyramid-random-v1-5", "--json"])
    records = [json.loads(line) for line in text.splitlines()]
    assert records[0]["deal"] == code and records[0]["verdict"] == records[1]["verdict"]
    text = run(["pyramid", "0-4", "--kind", "winnable", "--variant", "001", "--line"])
    assert text.count("pyramid-winnable-v1-") == 5 and text.count("  line: ") == 5
    assert "5 winnable" in text


def test_state_budget_gives_unknown_with_its_reason() -> None:
    text = run(["pyramid", "2390", "--max-states", "10"])
    assert "unknown (states)" in text
    assert "0 winnable, 0 not winnable, 1 unknown" in text


@pytest.mark.parametrize("argv", [["pyramid", "5-3"], ["pyramid", "pyramid-random-v1-x"], ["pyramid", "XX"],
                                  ["pyramid", "1", "--kind", "bogus"], ["pyramid", "1", "--budget", "-1"]])
def test_bad_arguments_exit_2_with_a_message(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("error: ") and captured.out == ""


def test_module_entry_point_runs() -> None:
    done = subprocess.run([sys.executable, "-m", "solitaire_rl.agents.solver", "pyramid", "1"], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    assert done.stdout.startswith("pyramid-random-v1-1 ")


def test_benchmark_script_writes_one_row_per_deal_and_summarizes(tmp_path: Path) -> None:
    rows = tmp_path / "rows.jsonl"
    script = ROOT / "benchmarks" / "pyramid_solver.py"
    command = [sys.executable, str(script), "--count", "20", "--variant", "001", "--out", str(rows)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    records = [json.loads(line) for line in rows.read_text().splitlines()]
    assert [r["deal"] for r in records] == [f"pyramid-random-v1-{i}" for i in range(20)]
    assert "20 deals (variant 001)" in done.stdout and "Wilson" in done.stdout
    again = subprocess.run([sys.executable, str(script), "--summarize", str(rows)],
                           cwd=ROOT, capture_output=True, text=True, check=True)
    assert again.stdout.splitlines()[0] == done.stdout.splitlines()[2]
