"""The part of the sanitizer runs that fits the suite's time (issue #39): the ASan/UBSan build of the
extension and the C++ tests (``benchmarks/sanitize.sh build``, incremental after the first time), the
C++ tests for a few rounds, and every native entry point's fuzz target for a few hundred inputs, all
on that build. ``benchmarks/sanitize.sh`` and ``benchmarks/fuzz_entry_points.py`` run the same at
length (docs/hardening.md)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SANITIZE = ROOT / "benchmarks" / "sanitize.sh"
REPORT_WORDS = ("AddressSanitizer", "UndefinedBehaviorSanitizer", "runtime error:")


def _libasan() -> bool:
    gxx = shutil.which("g++")
    if gxx is None:
        return False
    asked = subprocess.run([gxx, "-print-file-name=libasan.so"], capture_output=True, text=True)
    found = asked.stdout.strip()
    return os.path.isabs(found) and Path(found).exists()


pytestmark = pytest.mark.skipif(
    not (_libasan() and shutil.which("cmake")), reason="the sanitizer build needs g++ with libasan and cmake"
)


@pytest.fixture(scope="module")
def sanitizer_build() -> Path:
    """build/asan, built or brought up to date (about 2 minutes from nothing on two cores)."""
    done = subprocess.run([str(SANITIZE), "build"], cwd=ROOT, env={**os.environ, "JOBS": "2"},
                          capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    return ROOT / "build" / "asan"


def test_the_cpp_tests_pass_under_the_sanitizers(sanitizer_build: Path) -> None:
    done = subprocess.run([str(SANITIZE), "native", "20"], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    out = done.stdout + done.stderr
    assert done.returncode == 0 and " 0 failures" in out, out[-3000:]
    assert not any(word in out for word in REPORT_WORDS), out[-3000:]


def test_every_native_entry_point_takes_fuzzed_input_under_the_sanitizers(
    sanitizer_build: Path, tmp_path: Path
) -> None:
    ledger, summary = tmp_path / "ledger.jsonl", tmp_path / "summary.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "fuzz_entry_points.py"), "--sanitize", "--inputs", "300",
         "--chunk", "300", "--ledger", str(ledger), "--summary", str(summary)],
        cwd=ROOT, capture_output=True, text=True, timeout=900,
    )
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    totals = json.loads(summary.read_text())
    assert totals["build"] == "asan+ubsan"
    assert all(t["inputs"] == 300 and t["failed_chunks"] == 0 for t in totals["targets"].values()), totals
    rows = [json.loads(line) for line in ledger.read_text().splitlines()]
    assert {Path(r["module"]).parent for r in rows} == {sanitizer_build / "py"}, "not the sanitizer build"
