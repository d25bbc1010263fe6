"""The play package's layout shows its design (issue 38): what both games share lives under shared
names, each game's code under its game's name (``pyramid_*``, ``klondike_*``), in the server's modules
and in the pages' files alike."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from solitaire_rl.play.server.app import create_app
from tests.play_api_helpers import LOCAL

SERVER = Path(__file__).resolve().parents[1] / "solitaire_rl" / "play" / "server"
STATIC = SERVER.parent / "static"
GAMES = ("pyramid", "klondike")
BOTH_GAMES = {"__init__", "app", "analysis_api", "analysis_words"}
"""Shared modules that are about both games by design: the app that mounts them and the analysis viewer."""
SHARED_FILES = {"common.js", "common.css", "stats.js", "analyse_link.js", "player.js"}
"""The files both game pages load."""


def game_of(name: str) -> str | None:
    """The game a module or file belongs to by its name, or ``None`` for a shared one."""
    return next((game for game in GAMES if name.startswith(game)), None)


def game_imports(path: Path) -> set[str]:
    """The games whose engine (``solitaire_rl.envs.<game>``) or play modules
    (``solitaire_rl.play.server.<game>_*``) ``path`` imports."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = ([node.module] if isinstance(node, ast.ImportFrom) and node.module else
                 [a.name for a in node.names] if isinstance(node, ast.Import) else [])
        for name in names:
            match = re.match(r"(?:solitaire_rl\.)?(?:envs\.|play\.server\.)(pyramid|klondike)", name)
            if match:
                found.add(match[1])
    return found


MODULES = sorted(SERVER.glob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=[p.stem for p in MODULES])
def test_a_module_imports_only_its_own_game(path: Path) -> None:
    game = game_of(path.stem)
    imported = game_imports(path)
    if game is not None:
        assert imported <= {game}, f"{path.name} is {game}'s but imports {sorted(imported - {game})}"
    elif path.stem not in BOTH_GAMES:
        assert not imported, f"{path.name} has a shared name but imports {sorted(imported)}'s code"


def test_no_module_or_page_file_keeps_a_generic_name_for_one_game() -> None:
    names = {p.name for p in [*SERVER.glob("*.py"), *STATIC.iterdir()]}
    assert not names & {"app.js", "style.css", "i18n.js", "index.html"}, "Pyramid's files carry its name"


@pytest.mark.parametrize(("path", "game"), [("/", "pyramid"), ("/klondike", "klondike")])
def test_a_page_loads_the_shared_files_and_its_own_games_only(path: str, game: str) -> None:
    page = TestClient(create_app(), base_url=LOCAL).get(path).text
    loaded = set(re.findall(r'(?:src|href)="/static/([^"]+)"', page))
    assert loaded >= SHARED_FILES
    own = loaded - SHARED_FILES
    assert own and all(game_of(name) == game for name in own), own
    for name in loaded:
        assert (STATIC / name).is_file(), name
