"""The native extension's type stub, ``typings/solitaire_native.pyi``, is nanobind's stubgen of the module.

mypy reads the stub (``mypy_path`` in pyproject.toml), so every use of ``solitaire_native`` is checked
against what the module really exports. When the bindings change, regenerate it with the command in
native/README.md; this test fails while the committed stub and the module differ.
"""

from __future__ import annotations

import difflib
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STUB = ROOT / "typings" / "solitaire_native.pyi"


def test_the_committed_stub_is_the_stub_of_the_built_module(tmp_path: Path) -> None:
    fresh = tmp_path / "solitaire_native.pyi"
    stubgen = [sys.executable, "-m", "nanobind.stubgen", "-q", "-m", "solitaire_native", "-o", str(fresh)]
    run = subprocess.run(stubgen, cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stderr
    committed, built = STUB.read_text(encoding="utf-8"), fresh.read_text(encoding="utf-8")
    drift = "".join(difflib.unified_diff(committed.splitlines(True), built.splitlines(True),
                                         "typings/solitaire_native.pyi", "stubgen of the built module", n=1))
    assert not drift, ("the stub drifted from the module; regenerate it: python -m nanobind.stubgen -m "
                       f"solitaire_native -o typings/solitaire_native.pyi\n{drift[:4000]}")


def test_the_stub_declares_what_the_package_imports() -> None:
    text = STUB.read_text(encoding="utf-8")
    for name in ("def klondike_solve", "def pyramid_solve", "class KlondikeBatch", "class PyramidBatch",
                 "class CancelToken"):
        assert name in text
