"""The world scores' own C++ tests (``native/src/klondike/tests/world_score_test.cpp``), built and run
here so that CI runs them too: counts equal to an exhaustive search world by world on reduced decks,
the same counts for any batch, order, thread count or hidden places, one search where at most one
card is unknown, refusals naming the option or the position."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COMPILER = shutil.which("g++") or shutil.which("c++")


@pytest.mark.skipif(COMPILER is None, reason="no C++ compiler")
def test_the_native_world_score_tests_pass(tmp_path: Path) -> None:
    assert COMPILER is not None
    sources = sorted(str(p) for p in (ROOT / "native" / "src" / "klondike").glob("*.cpp"))
    binary = tmp_path / "world_score_test"
    subprocess.run(
        [COMPILER, "-O2", "-std=c++17", "-pthread", f"-I{ROOT / 'native' / 'src'}", *sources,
         str(ROOT / "native" / "src" / "klondike" / "tests" / "world_score_test.cpp"), "-o", str(binary)],
        check=True,
    )
    data = ROOT / "native" / "src" / "klondike" / "tests" / "data"
    done = subprocess.run([str(binary), str(data)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert done.stdout.rstrip().endswith(" 0 failures")
