"""README's two commands stay true: CI runs exactly README's test command."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```bash\n(.+?)\n```", text)


def test_readme_opens_with_install_and_test_commands() -> None:
    commands = readme_commands()
    assert commands[0].startswith('pip install -e ".[play]" && python -m play')
    assert commands[1].startswith('pip install -e ".[test]"') and "pytest" in commands[1]


def test_ci_runs_exactly_readmes_test_command() -> None:
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert readme_commands()[1] in ci_lines
