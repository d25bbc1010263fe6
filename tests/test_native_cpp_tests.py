"""The native core's own C++ tests (``native/src/klondike/tests/``), built and run here so that CI
runs them too (``ctest`` runs the same programs from a CMake build with ``SOLITAIRE_NATIVE_TOOLS``).

* ``klondike_solver_test``: card text, validation, talon cursors, the safe rule and canonical lifts
  regressions, an exhaustive search on reduced decks with each shortcut on and off, budgets, the
  Solvitaire fixture and move-order stability on full deals (150 rounds of reduced decks).
* ``world_score_test``: counts equal to an exhaustive search world by world on reduced decks, the
  same counts for any batch, order, thread count or hidden places, one search where at most one
  card is unknown, refusals naming the option or the position.

Each program is only compiled and linked against the core: the editable install's
``libsolitaire_core.a`` when it is newer than every native source, else the core's sources compiled
once for both.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "native" / "src"
DATA = SOURCE / "klondike" / "tests" / "data"
COMPILER = shutil.which("g++") or shutil.which("c++")
FLAGS = ("-O2", "-std=c++17", "-pthread", f"-I{SOURCE}")

pytestmark = pytest.mark.skipif(COMPILER is None, reason="no C++ compiler")


def built_core() -> Path | None:
    """The core library the editable install built (``build/<wheel tag>/libsolitaire_core.a``), if it
    is newer than every native source: the extension's own core, so nothing is compiled twice."""
    sources = [p for p in SOURCE.rglob("*") if p.suffix in (".cpp", ".hpp", ".h")]
    newest = max(p.stat().st_mtime for p in sources)
    built = [p for p in (ROOT / "build").glob("*/libsolitaire_core.a") if p.stat().st_mtime > newest]
    return max(built, key=lambda p: p.stat().st_mtime) if built else None


@pytest.fixture(scope="module")
def core_objects(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The Klondike core to link the programs with: the install's library when it is up to date,
    else its sources compiled once for the module's programs."""
    assert COMPILER is not None
    library = built_core()
    if library is not None:
        return [library]
    folder = tmp_path_factory.mktemp("klondike_core")
    objects = []
    for source in sorted((SOURCE / "klondike").glob("*.cpp")) + sorted((SOURCE / "common").glob("*.cpp")):
        target = folder / f"{source.parent.name}_{source.stem}.o"
        subprocess.run([COMPILER, *FLAGS, "-c", str(source), "-o", str(target)], check=True)
        objects.append(target)
    return objects


def run_program(main: str, objects: list[Path], folder: Path, *args: str) -> str:
    """Build ``native/src/klondike/tests/<main>.cpp`` against the core and run it; its output."""
    assert COMPILER is not None
    binary = folder / main
    subprocess.run([COMPILER, *FLAGS, str(SOURCE / "klondike" / "tests" / f"{main}.cpp"),
                    *map(str, objects), "-o", str(binary)], check=True)
    done = subprocess.run([str(binary), str(DATA), *args], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    return done.stdout


def test_the_native_klondike_solver_tests_pass(core_objects: list[Path], tmp_path: Path) -> None:
    assert run_program("klondike_solver_test", core_objects, tmp_path, "150").rstrip().endswith(" 0 failures")


def test_the_native_world_score_tests_pass(core_objects: list[Path], tmp_path: Path) -> None:
    assert run_program("world_score_test", core_objects, tmp_path).rstrip().endswith(" 0 failures")
