"""Winnable Klondike deals on the page (issue 37), in a real browser at 1280x800 and 390x844, in
English and Japanese: the menu's deal type deals ``klondike-winnable-v1-N``, the deal ID chip shows
it, the verdict reads proved at once, New deal keeps the type, and the control works by keyboard.
Screenshots: ``/tmp/winnable-{size}-{lang}.png`` (and ``-menu`` with the menu open)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.browser.test_klondike_page import open_menu, settle, state
from tests.browser.test_layout import check_axe, check_layout

Page = Any
SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
}
PROVED = {"en": "Can it be won? A winning line exists", "ja": "勝てるか：勝つ手順があります"}
WINNABLE_OPTION = {"en": "winnable deals", "ja": "勝てる配り"}
DEAL_TYPE_LABEL = {"en": "Deal type", "ja": "配りの種類"}
MUST_SEE = ["#stock", "#f-C", "#f-S", "#undo", "#hint", "#third", "#redo", "#new-deal", "#copy-deal",
            "#verdict"]


def klondike_pages(browser: Any, base_url: str, timeout: int = 15_000) -> Iterator[Callable[..., Page]]:
    """The body of a ``page_at(size, lang)`` fixture: the Klondike page in a fresh context, ``lang``
    stored as the choice, each context closed after the test (``timeout``: Playwright's, in ms)."""
    contexts = []

    def make(size: str, lang: str) -> Page:
        context = browser.new_context(**SIZES[size])
        context.set_default_timeout(timeout)
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.goto(base_url + "/static/common.css")
        page.evaluate("(lang) => localStorage.setItem('solitaire-rl.lang', lang)", lang)
        page.goto(base_url + "/klondike")
        page.wait_for_selector("#columns .card")
        settle(page)
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page_at(browser: Any, base_url: str) -> Iterator[Callable[..., Page]]:
    """``page_at(size, lang)``: the Klondike page in a fresh context, ``lang`` stored as the choice."""
    yield from klondike_pages(browser, base_url)


def close_menu(page: Page) -> None:
    if page.get_attribute("#menu-button", "aria-expanded") == "true":
        page.keyboard.press("Escape")


def assert_proved_winnable(page: Page, lang: str) -> str:
    """The game is a winnable deal, its ID on the chip and its verdict proved; its ID."""
    s = state(page)
    deal_id = s["deal"]["id"]
    assert deal_id.startswith("klondike-winnable-v1-") and s["deal"]["type"] == "winnable"
    assert page.inner_text("#copy-deal") == deal_id
    assert page.input_value("#deal-type") == "winnable"
    verdict = page.locator("#verdict")
    assert verdict.get_attribute("data-status") == "winnable"
    assert verdict.inner_text().startswith(PROVED[lang]), verdict.inner_text()
    return deal_id


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", list(SIZES))
def test_choosing_winnable_deals_a_proved_deal(page_at: Callable[..., Page], size: str, lang: str) -> None:
    page = page_at(size, lang)
    assert state(page)["deal"]["type"] == "random" and page.input_value("#deal-type") == "random"
    open_menu(page)
    option = page.locator('#deal-type option[value="winnable"]')
    assert option.inner_text() == WINNABLE_OPTION[lang]
    assert page.get_attribute("#deal-type", "aria-label") == DEAL_TYPE_LABEL[lang]
    check_axe(page, f"{size}-{lang} menu open")
    page.screenshot(path=f"/tmp/winnable-{size}-{lang}-menu.png")
    page.select_option("#deal-type", "winnable")
    settle(page)
    first = assert_proved_winnable(page, lang)  # at once: no search was waited for
    close_menu(page)
    check_layout(page, MUST_SEE, f"{size}-{lang} winnable")
    page.screenshot(path=f"/tmp/winnable-{size}-{lang}.png")

    page.click("#new-deal") if size == "desktop" else page.tap("#new-deal")  # New deal keeps the type
    settle(page)
    second = assert_proved_winnable(page, lang)
    assert second != first
    page.reload()  # the saved game comes back as the same winnable deal
    page.wait_for_selector("#columns .card")
    settle(page)
    assert state(page)["deal"]["id"] == second and page.input_value("#deal-type") == "winnable"
    assert page.errors == []


def test_the_deal_type_by_keyboard_and_a_replaced_game_asks_first(page_at: Callable[..., Page]) -> None:
    page = page_at("desktop", "en")
    page.focus("#deal-type")
    page.keyboard.press("ArrowDown")  # random -> winnable
    settle(page)
    deal_id = assert_proved_winnable(page, "en")
    page.locator("#stock").focus()
    page.keyboard.press("Space")  # a move: a new deal now asks before replacing the game
    settle(page)
    assert state(page)["moves"] == 1 and (state(page)["verdict"] or {}).get("basis") != "winnable_deal"
    page.focus("#deal-type")
    page.keyboard.press("ArrowUp")  # winnable -> random: asks first
    settle(page)
    assert page.get_attribute("#overlay", "data-kind") == "confirm"
    assert page.input_value("#deal-type") == "winnable"  # the menu still tells the game in play
    page.keyboard.press("Escape")
    settle(page)
    assert state(page)["deal"]["id"] == deal_id and state(page)["moves"] == 1
    page.focus("#deal-type")
    page.keyboard.press("ArrowUp")
    settle(page)
    page.click("#panel-buttons button:text('Replace')")
    settle(page)
    assert state(page)["deal"]["type"] == "random" and page.input_value("#deal-type") == "random"
    assert page.errors == []
