"""The chance of clearing the pyramid on the Pyramid page (issue 37), in a real browser at 1280x800 and
390x844 (touch), in English and Japanese: Chance (the bar's button, or C) shows the planner's
estimate, "at most about N%" with its samples, in the message line without changing the game; the
line goes once the player moves; everything stays inside the screen and uncovered, no engine code
is shown, and axe-core finds nothing serious. Screenshots: ``tests/artifacts/pyramid-chance-*.png``."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import answer_chances, ask_chance, settle
from tests.browser.test_layout import PAGES, SIZES, check_axe, check_layout, check_words
from tests.browser.test_pyramid_page import open_menu, state

Page = Any
DEAL = "pyramid-random-v1-28"
"""In variant 001 from its start: about 80%, neither certain nor hopeless."""
LINE = {"en": re.compile(r"^Chance of clearing the pyramid from here, by the cards you have seen: "
                         r"at most about (?P<percent>\d+)% \(of "
                         r"(?P<samples>\d+) guesses at the order of the stock cards you have not seen, "
                         r"(?P<won>\d+) can be cleared"),
        "ja": re.compile(r"^ここから全消しできる見込み（見たカードから）：多くて約 (?P<percent>\d+)%"
                         r"（まだ見ていない山札の並びを (?P<samples>\d+) 通り想像すると、"
                         r"(?P<won>\d+) 通りで全消しできます")}
LABEL = {"en": ("Chance", "Chance of clearing the pyramid from here"),
         "ja": ("見込み", "ここから全消しできる見込み")}
FITS = """() => { const b = document.getElementById("chance");
  return b.scrollHeight <= b.clientHeight + 1 && b.scrollWidth <= b.clientWidth + 1; }"""
SEEN = [*PAGES["pyramid"]["must_see"], "#chance"]


@pytest.fixture
def page_at(new_page: Callable[..., Page]) -> Callable[..., Page]:
    """``page_at(size, lang)``: the Pyramid page in a fresh context, ``lang`` stored as the choice."""
    return lambda size, lang: new_page(storage={"solitaire-rl.lang": lang}, **SIZES[size])


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
    # the verdict line fills in on its own time (slower on a busy machine): the layout checks look
    # at it once it says something
    page.wait_for_function("() => document.getElementById('verdict').textContent.trim() !== ''")


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
    percent, samples, won, line = ask_chance(page, touch, LINE[lang], lang, where, wait_chance)
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


WARN_KEY = "solitaire-rl.pyramid.warn-drop"
WARNING = {"en": "That move lowered your chance of clearing the pyramid from about 60% to about 30%; "
                 "Undo takes it back.",
           "ja": "今の手で全消しできる見込みが約 60% から約 30% に下がりました。「戻す」で戻せます"}


def fixed(share: float) -> dict[str, Any]:
    """A chance answer of ``share`` (the server's words are not what this test reads)."""
    won = round(share * 32)
    return {"share": share, "won": won, "unknown": 0, "samples": 32, "basis": "sampled",
            "en": f"Chance of clearing the pyramid from here, by the cards you have seen: at most about "
                  f"{round(share * 100)}%",
            "ja": f"ここから全消しできる見込み（見たカードから）：多くて約 {round(share * 100)}%"}


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_sharp_drop_warning_is_off_by_default_kept_and_said_after_a_move(
        page_at: Callable[..., Page], size: str, lang: str) -> None:
    page = page_at(size, lang)
    touch = size == "phone"
    where = f"{size}-{lang}"
    asked = answer_chances(page, [fixed(0.6), fixed(0.3), None, fixed(0.2)], fixed(0.2))  # None: busy (503)
    assert page.evaluate("(k) => localStorage.getItem(k)", WARN_KEY) is None
    open_menu(page)
    assert not page.is_checked("#warn-drop"), f"{where}: the warning is on by default"
    check_axe(page, f"{where}: the menu with the warning")
    if touch:
        page.tap("#warn-drop")
    else:
        page.focus("#warn-drop")
        page.keyboard.press(" ")  # the keyboard reaches it
    wait_chance(page)
    assert page.is_checked("#warn-drop") and page.evaluate("(k) => localStorage.getItem(k)", WARN_KEY) == "1"
    if page.is_visible("#menu-button") and page.get_attribute("#menu-button", "aria-expanded") == "true":
        page.click("#menu-button")
    assert len(asked) == 1, "turning the warning on asks the estimate to compare with"

    def draw() -> None:
        if touch:
            page.tap("#draw")
        else:
            page.focus("#draw")
            page.keyboard.press("d")
        wait_chance(page)

    draw()
    assert len(asked) == 2 and state(page)["moves"] == 1
    assert page.inner_text("#message") == WARNING[lang], where
    assert "warning" in page.get_attribute("#message", "class")
    check_layout(page, [*SEEN, "#message"], f"{where}: the warning")
    check_axe(page, f"{where}: the warning")
    draw()  # busy: no warning, no error
    assert len(asked) == 3 and "error" not in page.get_attribute("#message", "class")
    assert page.inner_text("#message") != WARNING[lang]
    draw()  # 30% -> 20%: 10 points, no warning
    assert len(asked) == 4 and "warning" not in page.get_attribute("#message", "class")
    page.reload()  # the setting is kept (the box read as it is, in the menu on a phone)
    page.wait_for_selector("#pyramid .card")
    settle(page)
    assert page.is_checked("#warn-drop")
    assert not page.errors
