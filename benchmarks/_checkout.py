"""Importing this module makes a benchmark script use the project in its own checkout, or stops it.

``python benchmarks/SCRIPT.py`` puts this checkout first on ``sys.path``. An editable install of
another checkout (``pip install -e`` there) answers ``import solitaire_rl`` through its import hook
before ``sys.path`` is read, so a script started from a second checkout (a worktree of an older
commit, say) would silently run and time the first checkout's code. :func:`use_this_checkout`
refuses that case with a message saying what to do. The native core (``solitaire_native``) is
whatever build is installed, whichever checkout the script comes from.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""The checkout this script belongs to."""
PACKAGES = ("solitaire_rl",)
"""The project's one installed package (``wheel.packages`` in ``pyproject.toml``)."""


def use_this_checkout() -> Path:
    """Put :data:`ROOT` first on ``sys.path`` and check that the project's packages load from it.

    Raises ``SystemExit`` with the place they would load from otherwise. Returns :data:`ROOT`.
    """
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    for name in PACKAGES:
        spec = importlib.util.find_spec(name)
        origin = Path(spec.origin).resolve() if spec is not None and spec.origin else None
        if origin is None or ROOT not in origin.parents:
            raise SystemExit(
                f"`import {name}` would load {origin}, not this checkout ({ROOT}): another checkout's "
                f"editable install takes precedence. Install this one (`pip install -e .` in {ROOT}, "
                "in its own virtual environment to keep the other), or run the script from there."
            )
    return ROOT


use_this_checkout()
