"""The fenced code blocks of the docs, and the shell commands in them (tests/test_readme.py,
tests/test_doc_snippets.py)."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
"""Every page whose snippets run in the suite."""

SHELL = {"bash", "sh", "console", "shell", ""}
"""Info strings of shell blocks; a fence without one holds commands too in these docs."""

FENCE = re.compile(r"^(?P<indent> *)```(?P<info>[^`]*)$")
PROJECT_PACKAGES = {"benchmarks", "solitaire_rl"}


@dataclass(frozen=True)
class Block:
    """One fenced block: its page, the line of its opening fence (1-based), language, flags, text."""

    page: Path
    line: int
    lang: str
    flags: tuple[str, ...]
    text: str

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def fenced_blocks(page: Path) -> list[Block]:
    """The fenced blocks of ``page`` in order; an indented fence (in a list item) loses its indent."""
    lines = page.read_text(encoding="utf-8").splitlines()
    blocks, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, (lang, *flags) = len(m["indent"]), (m["info"].split() or [""])
        end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == "```"), None)
        if end is None:
            raise ValueError(f"{page.relative_to(ROOT)}:{i + 1}: a code fence that never closes")
        body = [line[indent:] if not line[:indent].strip() else line.lstrip() for line in lines[i + 1:end]]
        blocks.append(Block(page, i + 1, lang.lower(), tuple(flags), "\n".join(body) + "\n"))
        i = end + 1
    return blocks


@dataclass(frozen=True)
class Command:
    """One project command of a shell block: its argv (after ``python``), stdout redirect, where."""

    where: str
    argv: tuple[str, ...]
    stdout: str | None = None

    @property
    def text(self) -> str:
        return shlex.join(["python", *self.argv]) + (f" > {self.stdout}" if self.stdout else "")


def shell_commands(block: Block) -> list[Command]:
    """The project entry points (``python -m agents...``, ``python benchmarks/...``) of a shell block.

    Lines continued with ``\\`` are joined, comments dropped, ``&&``, ``;`` and ``|`` chains split, a
    trailing ``&`` ignored; ``pip``, ``git``, ``ray`` and every other program are left out.
    """
    commands: list[Command] = []
    logical, start = "", 0
    for n, line in enumerate(block.text.splitlines(), block.line + 1):
        start = start or n
        if line.rstrip().endswith("\\"):
            logical += line.rstrip()[:-1] + " "
            continue
        logical += line
        where = f"{block.page.relative_to(ROOT)}:{start}"
        try:
            tokens = shlex.split(logical, comments=True)
        except ValueError as error:
            raise ValueError(f"{where}: {error}") from None
        logical, start = "", 0
        part: list[str] = []
        for token in [*tokens, ";"]:
            if token not in ("&&", ";", "&", "||", "|"):
                part.append(token)
                continue
            stdout = None
            if ">" in part:
                stdout, part = part[part.index(">") + 1], part[: part.index(">")]
            if is_project_command(part):
                commands.append(Command(where, tuple(part[1:]), stdout))
            part = []
    return commands


def is_project_command(argv: list[str]) -> bool:
    """Whether ``argv`` runs one of this project's entry points with ``python``."""
    if len(argv) < 2 or argv[0] not in ("python", "python3"):
        return False
    if argv[1] == "-m":
        return len(argv) > 2 and argv[2].split(".")[0] in PROJECT_PACKAGES
    return argv[1].startswith("benchmarks/")
