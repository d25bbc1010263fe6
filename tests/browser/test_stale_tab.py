"""Two tabs on one game (issue 37): a reload takes up the game the server holds, so both tabs play
the same game; a move from the tab that shows an older position is refused (409 ``STALE_GAME``),
that tab then shows the latest position and says why, in English and Japanese, and a reload after
it loses no move of either tab."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import settle
from tests.browser.test_pyramid_page import DEAL_1, click, message, open_deal, state

Page = Any
STALE = {"en": "changed in another tab", "ja": "別のタブ"}


def resume(page: Page) -> None:
    """Resume a game restored paused (the panel's one button, in either language)."""
    assert page.get_attribute("#overlay", "data-kind") == "paused"
    click(page, "#panel-buttons button")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_stale_tab_is_refused_shows_the_latest_game_and_a_reload_loses_nothing(
    new_page: Callable[..., Page], artifacts: Path, lang: str,
) -> None:
    first = new_page(storage={"solitaire-rl.lang": lang})
    open_deal(first, DEAL_1)
    click(first, "#draw")
    second = new_page(first.context)  # the second tab takes up the same game on the server
    resume(second)
    assert state(second)["session"] == state(first)["session"]
    click(second, "#draw")
    click(second, "#draw")
    played = state(second)["history"]
    assert played == ["draw", "draw", "draw"] and state(first)["history"] == ["draw"]

    click(first, "#draw")  # the first tab still shows one draw: refused, and brought up to date
    assert state(first)["history"] == played, "the stale tab's move changed nothing; it shows the latest game"
    assert STALE[lang] in message(first)
    first.screenshot(path=str(artifacts / f"stale-tab-{lang}.png"))
    click(first, "#draw")  # now current: carried out
    assert state(first)["history"] == [*played, "draw"]

    second.reload()  # the second tab's save holds three draws; the server's game holds four
    second.wait_for_selector("#overlay[data-kind='paused']")
    settle(second)
    assert state(second)["history"] == [*played, "draw"], "a reload keeps every move of both tabs"
    assert state(second)["session"] == state(first)["session"]
    assert not first.errors and not second.errors


def test_old_saves_without_a_session_still_replay(new_page: Callable[..., Page]) -> None:
    page = new_page()
    open_deal(page, DEAL_1)
    click(page, "#draw")
    page.evaluate("""() => { const s = JSON.parse(localStorage.getItem('solitaire-rl.pyramid.save'));
        delete s.server_session; delete s.revision; window.pyramidApp.saving = false;
        localStorage.setItem('solitaire-rl.pyramid.save', JSON.stringify(s)); }""")
    old = state(page)["session"]
    page.reload()
    page.wait_for_selector("#overlay[data-kind='paused']")
    settle(page)
    assert state(page)["history"] == ["draw"] and state(page)["session"] != old  # replayed as before


def test_klondike_a_stale_tab_is_refused_and_brought_up_to_date(browser: Any, base_url: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.set_default_timeout(10_000)
    try:
        first = context.new_page()
        first.goto(base_url + "/klondike")
        first.wait_for_selector("#columns .card")
        k_open_deal(first, "klondike-random-v1-1")
        k_click(first, "#stock")
        second = context.new_page()
        second.goto(base_url + "/klondike")
        second.wait_for_selector("#overlay[data-kind='paused']")
        k_click(second, "#panel-buttons button")
        assert k_state(second)["session"] == k_state(first)["session"]
        k_click(second, "#stock")
        played = k_state(second)["history"]
        k_click(first, "#stock")  # stale: refused, then the latest game is shown with the reason
        assert k_state(first)["history"] == played
        assert "changed in another tab" in first.inner_text("#message")
        k_click(first, "#stock")
        assert k_state(first)["history"] == [*played, "draw"]
        second.reload()
        second.wait_for_selector("#overlay[data-kind='paused']")
        assert k_state(second)["history"] == [*played, "draw"], "a reload keeps every move of both tabs"
    finally:
        context.close()


def k_state(page: Page) -> dict[str, Any]:
    return page.evaluate("() => window.klondikeApp.state")


def k_click(page: Page, target: str) -> None:
    page.click(target)
    page.evaluate("() => window.klondikeApp.busy.then(() => true)")


def k_open_deal(page: Page, deal: str) -> None:
    page.fill("#deal-input", deal)
    page.press("#deal-input", "Enter")
    page.evaluate("() => window.klondikeApp.busy.then(() => true)")
    assert k_state(page)["deal"]["id"] == deal
