"""The chance of clearing the pyramid on the Pyramid page (issue 37), in a real browser at 1280x800 and
390x844 (touch), in English and Japanese: Chance (the bar's button, or C) shows the planner's
estimate, "at most about N%" with its samples, in the message line without changing the game; the
line goes once the player moves; everything stays inside the screen and uncovered, no engine code
is shown, and axe-core finds nothing serious. Screenshots: ``tests/artifacts/pyramid-chance-*.png``."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import settle
from tests.browser.test_layout import PAGES, SIZES, check_axe, check_layout, check_words
from tests.browser.test_pyramid_page import open_menu, state

Page = Any
DEAL = "pyramid-random-v1-28"
"""In variant 001 from its start: about 80%, neither certain nor hopeless."""
LINE = {"en": re.compile(r"^Chance of clearing the pyramid from here: at most about (\d+)% \(a line that "
                         r"clears it exists in (\d+) of (\d+) sampled orders of the stock cards you have "
                         r"not seen"),
        "ja": re.compile(r"^ここから全消しできる見込み：多くて約 (\d+)%（まだ見ていない山札の並びを "
                         r"(\d+) 通り試し、(\d+) 通りで全消しの手順あり")}
LABEL = {"en": ("Chance", "Chance of clearing the pyramid from here"),
         "ja": ("見込み", "ここから全消しできる見込み")}
FITS = """() => { const b = document.getElementById("chance");
  return b.scrollHeight <= b.clientHeight + 1 && b.scrollWidth <= b.clientWidth + 1; }"""
SEEN = [*PAGES["pyramid"]["must_see"], "#chance"]


@pytest.fixture
def page_at(browser: Any, base_url: str) -> Iterator[Callable[..., Page]]:
    """``page_at(size, lang)``: the Pyramid page in a fresh context, ``lang`` stored as the choice."""
    contexts = []

    def make(size: str, lang: str) -> Page:
        context = browser.new_context(**SIZES[size])
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.goto(base_url + "/static/style.css")
        page.evaluate("(lang) => localStorage.setItem('solitaire-rl.lang', lang)", lang)
        page.goto(base_url + "/")
        page.wait_for_selector("#pyramid .card")
        settle(page)
        return page

    yield make
    for context in contexts:
        context.close()


def open_in_001(page: Page) -> None:
    """Variant 001 from the menu (a new deal), then :data:`DEAL` typed into the deal box."""
    open_menu(page)
    page.select_option("#variant", "001")
    settle(page)
    open_menu(page)
    page.fill("#deal-input", DEAL)
    page.press("#deal-input", "Enter")
    settle(page)


def wait_chance(page: Page) -> None:
    settle(page)
    page.evaluate("() => window.pyramidApp.chancing")


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", list(SIZES))
def test_chance_shows_the_estimate_and_changes_nothing(page_at: Callable[..., Page], artifacts: Path,
                                                       size: str, lang: str) -> None:
    page = page_at(size, lang)
    touch = size == "phone"
    where = f"{size}-{lang}"
    open_in_001(page)
    before = state(page)
    assert before["variant"] == "001" and before["deal"]["label"] == DEAL
    text, label = LABEL[lang]
    assert page.inner_text("#chance").startswith(text)
    assert page.get_attribute("#chance", "aria-label") == label
    if touch:
        page.tap("#chance")
    else:
        page.keyboard.press("c")
    wait_chance(page)
    line = page.inner_text("#message")
    found = LINE[lang].match(line)
    assert found, f"{where}: {line!r}"
    percent, a, b = (int(g) for g in found.groups())
    samples, won = (b, a) if lang == "en" else (a, b)
    assert samples == 32 and 0 < won < 32 and percent == 5 * round(won / 32 * 20), line
    after = state(page)
    assert (after["history"], after["moves"], after["hints"], after["revision"]) == (
        before["history"], before["moves"], before["hints"], before["revision"]), "Chance changed the game"
    check_layout(page, SEEN, f"{where}: the chance line")
    assert page.evaluate(FITS), f"{where}: the Chance label does not fit its button"
    check_words(page, where)
    check_axe(page, where)
    page.screenshot(path=str(artifacts / f"pyramid-chance-{where}.png"))

    if touch:  # a move: the line was about the position before it
        page.tap("#draw")
    else:
        page.keyboard.press("d")
    settle(page)
    assert state(page)["moves"] == 1 and not LINE[lang].match(page.inner_text("#message"))
    assert not page.errors
