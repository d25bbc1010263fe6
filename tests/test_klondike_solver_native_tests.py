"""The Klondike solver's own C++ tests (``native/src/klondike/tests/``), built and run here so
that CI runs them too: card text, validation, talon cursors, the safe rule and canonical lifts
regressions, an exhaustive search on reduced decks with each shortcut on and off, budgets, the
Solvitaire fixture and move-order stability on full deals."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COMPILER = shutil.which("g++") or shutil.which("c++")


@pytest.mark.skipif(COMPILER is None, reason="no C++ compiler")
def test_the_native_klondike_tests_pass(tmp_path: Path) -> None:
    sources = sorted(str(p) for p in (ROOT / "native" / "src" / "klondike").glob("*.cpp"))
    binary = tmp_path / "klondike_solver_test"
    subprocess.run(
        [COMPILER, "-O2", "-std=c++17", f"-I{ROOT / 'native' / 'src'}", *sources,
         str(ROOT / "native" / "src" / "klondike" / "tests" / "klondike_solver_test.cpp"), "-o", str(binary)],
        check=True,
    )
    data = ROOT / "native" / "src" / "klondike" / "tests" / "data"
    done = subprocess.run([str(binary), str(data), "150"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert done.stdout.rstrip().endswith(" 0 failures")
