"""Real-browser fixtures: the play server on a free port and Debian's chromium driven by Playwright.

Playwright never downloads a browser here: it launches ``/usr/bin/chromium`` (``apt-get install -y
chromium``), headless, without the sandbox (CI runs as root) and without background networking.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("PLAY_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
"""Screenshots land here (git-ignored)."""

os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")

SETTINGS_KEY = "solitaire-rl.settings"
HINT_SOURCE_KEY = "solitaire-rl.hint-source"
PLAIN_SETTINGS = (f"try {{ if (location.protocol.startsWith('http')) {{ "
                  f"if (localStorage.getItem('{SETTINGS_KEY}') === null) "
                  f"localStorage.setItem('{SETTINGS_KEY}', "
                  "JSON.stringify({autoPlay: false, advancedOpen: true})); "
                  f"if (localStorage.getItem('{HINT_SOURCE_KEY}') === null) "
                  f"localStorage.setItem('{HINT_SOURCE_KEY}', 'planner'); }} "
                  "} catch (e) {}")
"""Run before each page's scripts, unless the test has kept its own: auto-play off, the menu's Advanced
section open (the tests of the deal box, the hint source and the warning use them), and hints from the
planner (the tests of hints were written for it; the Klondike page's own default, the commitment planner,
has its tests in test_casual_player.py)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def live_server() -> Iterator[tuple[Any, str]]:
    """The play server (uvicorn, in a thread) and its URL."""
    from solitaire_rl.play.server.cli import serve_in_thread

    server, thread, url = serve_in_thread()
    yield server, url
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="session")
def base_url(live_server: tuple[Any, str]) -> str:
    return live_server[1]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright import sync_api  # the test extra installs it
    executable = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    if executable is None:
        pytest.fail(f"no chromium at {CHROMIUM}: sh tests/browser/chromium.sh installs it")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=executable,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        make_context = browser.new_context

        def new_context(**options: Any) -> Any:
            # Tests see the cards where their moves put them: auto-play off (a player's default is on)
            # unless a test stores its own settings, and no animation unless a test asks for motion.
            context = make_context(**{"reduced_motion": "reduce", **options})
            context.add_init_script(PLAIN_SETTINGS)
            return context

        browser.new_context = new_context
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser: Any, base_url: str) -> Iterator[Callable[..., Any]]:
    """``new_page(**context_options)``: a page on the game in a fresh context (empty storage)."""
    contexts = []

    def make(context: Any = None, storage: dict[str, str] | None = None, path: str = "/",
             ready: str = "#pyramid .card", **options: Any) -> Any:
        """A page on the game at ``path`` (Pyramid's by default), once ``ready`` shows and its requests
        are answered; ``storage`` is written to localStorage before the game loads."""
        if context is None:
            context = browser.new_context(**{"viewport": {"width": 1280, "height": 900}, **options})
            context.set_default_timeout(15_000)
            contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.errors = errors
        if storage:
            page.goto(base_url + "/static/common.css")  # same origin, without the game
            page.evaluate(
                "(items) => { for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v); }",
                storage,
            )
        page.goto(base_url + path)
        page.wait_for_selector(ready)
        settle(page, "klondikeApp" if path.startswith("/klondike") else "pyramidApp")
        return page

    yield make
    for context in contexts:
        context.close()


def settle(page: Any, app: str = "pyramidApp") -> None:
    """Wait until every request the page (``app``: ``pyramidApp`` or ``klondikeApp``) has queued has
    been answered and rendered."""
    page.evaluate(f"() => window.{app}.busy.then(() => window.{app}.hinting)"
                  f".then(() => window.{app}.busy).then(() => true)")


def ask_chance(page: Any, touch: bool, line: re.Pattern[str], lang: str, where: str,
               wait: Callable[[Any], None]) -> tuple[int, int, int, str]:
    """Ask the chance as a player does (a tap on a phone, C on a desktop), ``wait`` for it, and read
    the message line with ``line`` (named groups ``percent``, ``samples`` and ``won``): its percent,
    samples and samples won, and the line itself."""
    if touch:
        page.tap("#chance")
    else:
        page.keyboard.press("c")
    wait(page)
    text = page.inner_text("#message")
    found = line.match(text)
    assert found, f"{where}: {text!r}"
    return int(found["percent"]), int(found["samples"]), int(found["won"]), text


def answer_chances(page: Any, answers: list[dict[str, Any] | None], then: dict[str, Any]) -> list[str]:
    """Answer the page's chance requests with ``answers`` in turn (``None``: the server is busy, a 503
    with Retry-After), then with ``then``; returns the list the requests' URLs are added to."""
    asked: list[str] = []
    left = list(answers)

    def answer(route: Any) -> None:
        asked.append(route.request.url)
        body = left.pop(0) if left else then
        if body is None:
            route.fulfill(status=503, content_type="application/json", headers={"Retry-After": "1"},
                          body=json.dumps({"error": "BUSY", "message": "busy", "message_ja": "混雑"}))
        else:
            route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    page.route("**/chance", answer)
    return asked


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
