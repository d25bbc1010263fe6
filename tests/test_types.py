"""The type check: mypy over solitaire_rl/envs/, solitaire_rl/agents/ and solitaire_rl/training/ with the
settings in pyproject.toml."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_finds_no_type_error_in_envs_agents_and_training() -> None:
    run = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True,
                         timeout=600, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    checked = re.search(r"no issues found in (\d+) source files", run.stdout)
    assert checked is not None and int(checked.group(1)) >= 60, run.stdout
