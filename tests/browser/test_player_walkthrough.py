"""Issue 51, what a player's walk through both pages found, each fixed and pinned here (Chromium, 1280x800
and a 390x844 phone with touch, English and Japanese):

* a Klondike move that leaves no way to progress opens the "No progress possible" panel at once, as a
  move that leaves no legal move opens "No legal move"; before, it came only when Hint was pressed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.test_klondike_page import open_page, open_position, settle, state, url
from tests.test_play_klondike_api import position

__all__ = ["open_page", "url"]  # the fixtures, used by name

Page = Any
SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
}
LAST_PROGRESS = position([["6H"], ["5S"]], foundations=(0, 0, 0, 4), filler_end="2H")
"""5S up to its foundation is the last move that makes progress: then only 5S down onto 6H and back."""


@pytest.mark.parametrize(("size", "lang"), [("desktop", "en"), ("phone", "ja")])
def test_a_move_that_leaves_no_progress_says_so_at_once(
    open_page: Callable[..., Page], url: str, size: str, lang: str
) -> None:
    page = open_position(open_page, url, {"position": LAST_PROGRESS}, **SIZES[size])
    if lang == "ja":
        page.evaluate("() => localStorage.setItem('solitaire-rl.lang', 'ja')")
        page.reload()
        page.wait_for_selector("#columns .card")
        settle(page)
        assert page.inner_text("#undo").startswith("取り消し")
    assert state(page)["outcome"] is None and page.is_hidden("#overlay")
    page.evaluate("() => act({type: 'move', source: 'c2', target: 'fS'})")
    settle(page)
    assert state(page)["outcome"] == "no_progress"
    page.wait_for_selector("#overlay[data-kind='no-progress']")
    title, why = {"en": ("No progress possible", "none of them leads anywhere new"),
                  "ja": ("前に進む手がありません", "どれを選んでも前に進みません")}[lang]
    assert page.inner_text("#panel-title") == title and why in page.inner_text("#panel-body")
    undo = {"en": "Undo", "ja": "取り消し"}[lang]
    buttons = page.locator("#panel-buttons button").all_inner_texts()
    assert buttons[0] == {"en": "Close", "ja": "閉じる"}[lang] and undo in buttons, buttons
    (page.tap if size == "phone" else page.click)(f"#panel-buttons button:text('{undo}')")
    settle(page)
    assert state(page)["outcome"] is None and state(page)["history"] == [] and page.is_hidden("#overlay")
    page.evaluate("() => act({type: 'move', source: 'c2', target: 'fS'})")  # reached again: said again
    settle(page)
    page.wait_for_selector("#overlay[data-kind='no-progress']")
    (page.tap if size == "phone" else page.click)("#panel-buttons button >> nth=0")  # Close: play on
    page.evaluate("() => act({type: 'move', source: 'fS', target: 'c1'})")  # a move that changes nothing
    settle(page)
    assert state(page)["history"][-1] == "fS>c1" and page.is_hidden("#overlay"), "said once, not at each move"
    assert page.errors == []
