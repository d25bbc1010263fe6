"""Merging a retry run from another machine into the Klondike benchmark rows (benchmarks/)."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import klondike_native_input  # noqa: E402
import klondike_solver_native as bench  # noqa: E402

HEADER = bench.FIELDS


def write_rows(path: Path, rows: list[list[str]]) -> None:
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        writer.writerows(rows)


def test_only_unknown_rows_are_replaced_and_only_by_decided_deals(tmp_path: Path) -> None:
    rows_path = tmp_path / "klondike_x.csv"
    write_rows(rows_path, [
        ["klondike-random-v1-1", "3", "10.0", "cpu", "winnable", "none", "0.1", "10", "5", "120", "ok"],
        ["klondike-random-v1-2", "3", "10.0", "cpu", "unknown", "time", "10", "99", "50", "0", "-"],
        ["klondike-random-v1-3", "3", "10.0", "cpu", "unknown", "time", "10", "99", "50", "0", "-"],
    ])
    tsv = tmp_path / "retry.tsv"
    tsv.write_text(
        "klondike-random-v1-1\tnot_winnable\tnone\t1\t2\t3\t0\t-\n"  # decided already: ignored
        "klondike-random-v1-2\tnot_winnable\tnone\t12.5\t777\t88\t0\t-\n"
        "klondike-random-v1-3\tunknown\ttime\t20\t999\t99\t0\t-\n"  # still unknown: row kept
    )
    args = bench.parse_args(["--name", "x", "--time", "20", "--merge", str(tsv), "--clock", "cpu-other"])
    bench.merge_driver_output(args, rows_path)
    rows = {r["deal_id"]: r for r in bench.read_rows(rows_path)}
    assert rows["klondike-random-v1-1"]["status"] == "winnable"
    merged = rows["klondike-random-v1-2"]
    assert (merged["status"], merged["limit_s"], merged["clock"], merged["states"]) == (
        "not_winnable", "20.0", "cpu-other", "777")
    assert rows["klondike-random-v1-3"]["limit_s"] == "10.0"
    summary = bench.summarize(list(rows.values()), "x")
    assert "decided after retrying the unknowns with 20 s | 66.67%" in summary


def test_unknown_lines_name_exactly_the_unknown_deals(tmp_path: Path) -> None:
    rows_path = tmp_path / "rows.csv"
    write_rows(rows_path, [
        ["klondike-random-v1-7", "3", "10.0", "cpu", "unknown", "time", "10", "1", "1", "0", "-"],
        ["klondike-random-v1-8", "3", "10.0", "cpu", "winnable", "none", "1", "1", "1", "9", "ok"],
    ])
    lines = list(klondike_native_input.unknown_lines([str(rows_path)]))
    assert lines == list(klondike_native_input.deal_lines(7, 7))


def test_search_speed_counts_this_machines_long_rows_only() -> None:
    def row(clock: str, seconds: str, states: str) -> dict[str, str]:
        return dict(zip(HEADER, ["klondike-random-v1-1", "3", "10.0", clock, "not_winnable", "none",
                                 seconds, states, "1", "0", "-"], strict=True))

    rows = [
        row("cpu", "2.0", "3000000"),
        row("cpu", "10.0", "12000000"),
        row("cpu", "0.5", "999999999"),  # under a second: start-up costs, left out
        row("cpu-16-core-xeon", "8.0", "999999999"),  # another machine's clock, left out
    ]
    assert bench.search_speed(rows) == 15_000_000 / 12.0
    assert bench.search_speed(rows[2:]) is None
    assert "| search speed, deals that ran over 1 s (the machine's pace) | 1.25 M states/s |" in (
        bench.summarize(rows, "x"))


def test_a_summary_over_runs_with_different_first_limits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bench, "RESULTS", tmp_path)
    write_rows(tmp_path / "klondike_a.csv", [  # first limit 10 s; deal 2 took 5 s
        ["klondike-random-v1-1", "3", "10.0", "cpu", "winnable", "none", "0.2", "10", "5", "120", "ok"],
        ["klondike-random-v1-2", "3", "10.0", "cpu", "not_winnable", "none", "5.0", "9", "9", "0", "-"],
    ])
    write_rows(tmp_path / "klondike_b.csv", [  # first limit 1 s; deal 4 unknown at 1 s, retried with 60 s
        ["klondike-random-v1-3", "3", "1.0", "cpu", "winnable", "none", "0.5", "10", "5", "99", "ok"],
        ["klondike-random-v1-4", "3", "60.0", "cpu", "not_winnable", "none", "30", "9", "9", "0", "-"],
    ])
    bench.main(["--name", "a", "--also", "b", "--summary-only", "--no-build"])
    summary = (tmp_path / "klondike_a_summary.md").read_text()
    assert "`benchmarks/results/klondike_a.csv`, `benchmarks/results/klondike_b.csv`" in summary
    assert "| deals | 4 |" in summary and "| winnable / not winnable / unknown | 2 / 2 / 0 |" in summary
    assert "| decided within 1 s | 50.00% |" in summary  # deals 1 and 3; deal 2 took 5 s, deal 4 was retried
    assert "decided after retrying the unknowns with 60 s | 100.00%" in summary
    bench.main(["--name", "both", "--also", "a", "b", "--summary-only", "--no-build"])  # no rows of its own
    assert (tmp_path / "klondike_both_summary.md").read_text() == summary.replace(
        "benchmark: a", "benchmark: both")


def test_a_share_short_of_the_whole_never_reads_100_percent() -> None:
    assert (bench.share(2, 3), bench.share(1, 1)) == ("66.67%", "100.00%")
    assert bench.share(39_998, 40_000) == "99.995%"
