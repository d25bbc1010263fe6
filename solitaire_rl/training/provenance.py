"""Where a result came from: the code's commit, the libraries' versions, the machine and the date.

:func:`provenance` is what every benchmark JSON and every session of a rows file records; a
checkpoint's digest and how an agent moves are in the run's options
(:mod:`solitaire_rl.training.benchmark_options`), which the JSON holds beside it.
"""

from __future__ import annotations

import datetime
import os
import platform
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

LIBRARIES = ("numpy", "torch", "gymnasium", "stable-baselines3", "sb3-contrib", "solitaire-rl")
"""The installed distributions whose versions a result records (``None`` where one is absent)."""


def _git(root: Path, *argv: str) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(root), *argv], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


def git_state(root: Path | None = None) -> dict[str, Any]:
    """The commit of the checkout the package runs from and whether its tracked files differ from
    it (``dirty``); both ``None`` for an installed wheel or without git."""
    root = root or Path(__file__).resolve().parents[2]
    commit = _git(root, "rev-parse", "HEAD")
    if commit is None:
        return {"commit": None, "dirty": None}
    status = _git(root, "status", "--porcelain", "--untracked-files=no")
    return {"commit": commit.strip(), "dirty": None if status is None else bool(status.strip())}


def versions() -> dict[str, str | None]:
    """Python's version and each of :data:`LIBRARIES`' (without importing them)."""
    out: dict[str, str | None] = {"python": platform.python_version()}
    for name in LIBRARIES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def provenance() -> dict[str, Any]:
    """The date (UTC), the git state, the versions, the platform and the command line of this process."""
    return {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "git": git_state(),
        "versions": versions(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "argv": list(sys.argv),
    }


__all__ = ["LIBRARIES", "git_state", "provenance", "versions"]
