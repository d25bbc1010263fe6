"""The suite's short run of every native entry point's fuzz target (tests/native_fuzz_targets.py),
and the resumable chunked runner that plays them by the million (benchmarks/fuzz_entry_points.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("solitaire_native")

from tests.native_fuzz_targets import TARGETS, run_target

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "benchmarks" / "fuzz_entry_points.py"


@pytest.mark.parametrize("name", [t.name for t in TARGETS])
def test_each_entry_point_answers_or_refuses_clearly(name: str) -> None:
    """400 inputs (valid, mutated, garbage) of one entry point; the run reaches both its answers
    and its refusals, so the harness tries the entry point's checks as well as its work."""
    tally = run_target(name, seed=0, inputs=400)
    assert tally.get("answered", 0) + tally.get("validated", 0) > 20, tally
    assert tally.get("refused", 0) + tally.get("invalid", 0) > 20, tally


def test_a_seed_makes_the_same_inputs() -> None:
    """A chunk's seed replays it: the same calls answered and refused."""
    assert run_target("klondike_solve", 5, 150) == run_target("klondike_solve", 5, 150)


def test_every_native_entry_point_that_takes_outside_data_has_a_target() -> None:
    """A function or batch method added to the extension needs a target here."""
    import solitaire_native

    names = {t.name for t in TARGETS}
    functions = {
        n
        for n in dir(solitaire_native)
        if not n.startswith("_")
        and callable(getattr(solitaire_native, n))
        and not isinstance(getattr(solitaire_native, n), type)
    }
    methods = {
        f"{cls}.{m}"
        for cls in ("KlondikeBatch", "PyramidBatch")
        for m, value in vars(getattr(solitaire_native, cls)).items()
        if not m.startswith("_") and callable(value)
    }
    assert functions | methods <= names


def runner(ledger: Path, *args: str) -> subprocess.CompletedProcess:
    command = [sys.executable, str(RUNNER), "-k", "random_deal", "--ledger", str(ledger), *args]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_the_runner_records_chunks_and_goes_on_where_it_stopped(tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.jsonl"
    first = runner(ledger, "--inputs", "60", "--chunk", "30")
    assert first.returncode == 0, first.stderr
    rows = [json.loads(line) for line in ledger.read_text().splitlines()]
    assert [(r["target"], r["seed"], r["inputs"], r["ok"]) for r in rows] == [
        ("random_deal", 1, 30, True),
        ("random_deal", 2, 30, True),
    ]
    assert all(r["cpu_s"] >= 0 and r["build"] == "normal" for r in rows)
    with ledger.open("a") as f:
        f.write('{"target": "random_deal", "se')  # a line cut by a stop is played again
    again = runner(ledger, "--inputs", "90", "--chunk", "30", "--summary", str(tmp_path / "s.json"))
    assert again.returncode == 0, again.stderr
    assert "1 chunks to play" in again.stdout
    summary = json.loads((tmp_path / "s.json").read_text())
    assert summary["targets"]["random_deal"]["inputs"] == 90
    assert summary["targets"]["random_deal"]["failed_chunks"] == 0


def test_a_failed_chunk_fails_the_run_and_keeps_its_seed(tmp_path: Path) -> None:
    """A chunk's process that fails exits non-zero with its error; a failed chunk in the ledger
    keeps its seed (to replay with --chunk-run), does not count, and fails every later run until
    its line is removed."""
    ledger = tmp_path / "ledger.jsonl"
    bad = subprocess.run(
        [sys.executable, str(RUNNER), "--chunk-run", "no such target", "1", "5"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode != 0 and "KeyError" in bad.stderr
    ledger.write_text(
        json.dumps(
            {
                "target": "random_deal",
                "seed": 1,
                "inputs": 30,
                "build": "normal",
                "ok": False,
                "error": "boom",
            }
        )
        + "\n"
    )
    report = runner(ledger, "--inputs", "30", "--chunk", "30")
    assert report.returncode == 1
    assert "1 failed chunks" in report.stdout
    rows = [json.loads(line) for line in ledger.read_text().splitlines()]
    assert [r["seed"] for r in rows] == [1, 2]  # the failed seed is kept, the next chunk takes a new one
