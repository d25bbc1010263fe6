"""Data flows one way: rules and environments (``solitaire_rl.envs``) <- ``agents`` <- ``training``
<- ``play``.

Every module of a subpackage is read (imports inside functions too) and none may import a
subpackage above it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ABOVE = {
    "envs": {"agents", "training", "play"},
    "agents": {"training", "play"},
    "training": {"play"},
}


def layer_of(module: str) -> str:
    """The layer a module name belongs to: ``solitaire_rl.X...`` is ``X``; others their top name."""
    parts = module.split(".")
    return parts[1] if parts[0] == "solitaire_rl" and len(parts) > 1 else parts[0]


def imported_packages(path: Path) -> set[str]:
    """The layer (see :func:`layer_of`) of every absolute import in the module at ``path``."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(layer_of(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(layer_of(node.module))
    return found


@pytest.mark.parametrize("package", sorted(ABOVE))
def test_no_module_imports_a_package_above_its_own(package: str) -> None:
    modules = sorted((ROOT / "solitaire_rl" / package).rglob("*.py"))
    assert len(modules) > 3
    wrong = {str(path.relative_to(ROOT)): sorted(imported_packages(path) & ABOVE[package])
             for path in modules}
    assert {path: names for path, names in wrong.items() if names} == {}


def test_the_scan_sees_imports_inside_functions(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "import os\n\ndef f():\n    from solitaire_rl.play.server import app\n"
        "    import solitaire_rl.training.train\n"
    )
    assert imported_packages(module) == {"os", "play", "training"}
