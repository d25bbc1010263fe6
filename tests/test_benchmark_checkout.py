"""Benchmark scripts run the code of their own checkout, or stop and say why (benchmarks/_checkout.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import _checkout  # noqa: E402


def test_the_packages_load_from_this_checkout() -> None:
    assert _checkout.use_this_checkout() == ROOT
    import solitaire_rl

    assert Path(solitaire_rl.__file__).resolve().parent == ROOT / "solitaire_rl"


def test_a_script_in_another_checkout_stops_with_the_reason(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    monkeypatch.setattr(_checkout, "ROOT", tmp_path)
    monkeypatch.setattr(sys, "path", [*sys.path])  # it puts its root first; undone after the test
    with pytest.raises(SystemExit) as stop:
        _checkout.use_this_checkout()
    message = str(stop.value)
    assert "`import solitaire_rl` would load" in message and str(ROOT / "solitaire_rl") in message
    assert f"pip install -e .` in {tmp_path}" in message
