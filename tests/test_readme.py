"""README's two commands stay true: CI runs exactly README's test command."""

from __future__ import annotations

import re

from tests.doc_blocks import DOCS, ROOT, fenced_blocks


def readme_commands() -> list[str]:
    """The text of README's bash blocks (tests/test_doc_snippets.py runs the docs' snippets)."""
    return [b.text.rstrip("\n") for b in fenced_blocks(ROOT / "README.md") if b.lang == "bash"]


def test_readme_opens_with_install_and_test_commands() -> None:
    commands = readme_commands()
    assert commands[0].startswith('pip install -e ".[play]" && solitaire-rl play')
    assert commands[1].startswith("sh tests/browser/chromium.sh && ")  # the browser tests' chromium
    assert 'pip install -e ".[test]"' in commands[1] and "pytest" in commands[1]


def test_ci_runs_exactly_readmes_test_command() -> None:
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert readme_commands()[1] in ci_lines


def test_readme_stays_short() -> None:
    assert len((ROOT / "README.md").read_text(encoding="utf-8")) < 12_000


def test_every_relative_link_in_the_docs_resolves() -> None:
    pages = [
        *DOCS,
        ROOT / "solitaire_rl" / "training" / "README.md",
        ROOT / "benchmarks" / "diagnostics" / "README.md",
    ]
    broken = []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)|src=\"([^\"]+)\"", text):
            link = next(t for t in target if t)
            if re.match(r"[a-z]+:", link) or link.startswith("#"):
                continue
            path = link.split("#", 1)[0]
            if not (page.parent / path).exists():
                broken.append(f"{page.relative_to(ROOT)}: {link}")
    assert not broken, broken
