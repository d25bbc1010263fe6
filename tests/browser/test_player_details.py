"""What a player meets beyond the rules (issue 29): a hint that keeps play going, a table that stays
still, plain answers from the deal box and the path button, exits that do something, tabs that
only complain about a real change."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.conftest import settle
from tests.browser.test_pyramid_page import DEAL_1, click, message, open_deal, resume, state
from tests.test_play_api import SLOW_001

Page = Any
HINT = re.compile(r"/hint\?")


def test_a_hint_says_checking_play_goes_on_and_an_old_positions_hint_is_dropped(
    new_page: Callable[..., Page], live_server: tuple[Any, str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    page = new_page()
    open_deal(page, DEAL_1)
    advisor = live_server[0].config.app.state.server.hints
    answer, asked, release = advisor.hint, threading.Event(), threading.Event()

    def slow_hint(game: Any, source: str) -> Any:  # the server's hint giver waits, as a slow planner would
        asked.set()
        release.wait(timeout=30)
        return answer(game, source)

    monkeypatch.setattr(advisor, "hint", slow_hint)
    try:
        with page.expect_request(HINT) as request:
            page.keyboard.press("h")
        page.wait_for_function("() => window.pyramidApp.hintPending")
        assert message(page) == "Thinking…"
        assert request.value.url.endswith("/hint?source=planner") and asked.wait(timeout=10)
        page.click("#draw")  # play goes on meanwhile (the request queue does not wait for the hint)
        page.evaluate("() => window.pyramidApp.busy")
        assert state(page)["history"] == ["draw"]
        assert message(page) != "Thinking…"
        with page.expect_response(HINT):
            release.set()  # the answer to a request made before the draw: dropped
        page.evaluate("() => window.pyramidApp.hinting")
        assert state(page)["hint"] is None and not message(page).startswith("Hint")
    finally:
        release.set()
        monkeypatch.setattr(advisor, "hint", answer)

    page.select_option("#hint-source", "agent")  # the setting is sent and remembered
    with page.expect_request(HINT) as asked:
        page.keyboard.press("h")
    assert asked.value.url.endswith("/hint?source=agent")
    settle(page)
    assert message(page).startswith("Hint (") and state(page)["hint"] is not None
    click(page, "#card-r7c2")  # another card selected: the hint for the old position goes
    assert state(page)["hint"] is None and message(page).startswith("Selected the 5 of diamonds")
    page.reload()
    page.wait_for_selector("#overlay[data-kind='paused']")
    assert page.input_value("#hint-source") == "agent"
    page.keyboard.press("Escape")


def test_the_draw_button_and_labels_stay_put_and_the_needed_rank_stays_in_its_card(
    new_page: Callable[..., Page],
) -> None:
    page = new_page(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    open_deal(page, DEAL_1)
    draw = page.locator("#draw").bounding_box()
    assert page.inner_text("#recycle-reason")  # shown now: the stock has cards
    fits = "(e) => e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight"
    page.tap("#stock")  # 000: the stock top (10S) selected, it needs a 3
    settle(page)
    need = page.locator("#stock .need").bounding_box()
    stock = page.locator("#stock").bounding_box()
    label = page.locator("#stock-label").bounding_box()
    assert stock["x"] <= need["x"] and need["x"] + need["width"] <= stock["x"] + stock["width"]
    assert need["y"] + need["height"] <= stock["y"] + stock["height"] <= label["y"]  # above its label
    assert page.locator("#waste").evaluate(fits)  # "empty" stays inside the empty waste
    for _ in range(24):
        page.keyboard.press("d")
    settle(page)
    assert state(page)["stock"]["count"] == 0 and page.inner_text("#recycle-reason") == ""
    assert page.locator("#draw").bounding_box() == draw  # the reason went; the button did not move


def test_path_to_clear_says_why_not_while_stock_cards_are_unseen(new_page: Callable[..., Page]) -> None:
    page = new_page()
    open_deal(page, DEAL_1)
    page.wait_for_function("() => (window.pyramidApp.state.verdict || {}).status === 'unseen_stock'")
    assert page.get_attribute("#path", "aria-disabled") == "true"
    click(page, "#path")
    assert message(page).startswith("No path to show yet: Some stock cards have not been seen yet")
    assert message(page).endswith("Ask for a hint (H) instead.")


def test_a_deal_lost_from_its_start_offers_only_exits_that_act(new_page: Callable[..., Page]) -> None:
    page = new_page()
    open_deal(page, SLOW_001, variant="001")
    page.wait_for_function("() => (window.pyramidApp.state.verdict || {}).status === 'not_winnable'",
                           timeout=30_000)
    assert page.locator("#verdict-actions button").all_inner_texts() == ["Hint", "Another deal"]
    assert page.get_attribute("#restart", "aria-disabled") == "true"  # nothing to restart either
    assert page.get_attribute("#undo", "aria-disabled") == "true"


def test_opening_a_second_tab_is_not_a_change_but_a_move_there_is(new_page: Callable[..., Page]) -> None:
    first = new_page()
    open_deal(first, DEAL_1)
    click(first, "#draw")
    second = new_page(first.context)  # the same game, resumed: nothing changed
    resume(second)
    first.wait_for_timeout(200)
    assert first.locator("#tab-notice").count() == 0 and first.evaluate("window.pyramidApp.saving")
    click(second, "#draw")
    first.wait_for_selector("#tab-notice", state="visible")


def test_klondike_deal_box_checks_first_keeps_the_text_and_says_it_plainly(
    browser: Any, base_url: str,
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(base_url + "/klondike")
    page.wait_for_selector("#columns .card")
    page.evaluate("() => window.klondikeApp.busy")
    page.click("#stock")  # a move: replacing the game would ask first
    page.evaluate("() => window.klondikeApp.busy")
    for typed in ('{"tableau piles": [["DF"]]}', "klondike-random-v1-x"):
        page.fill("#deal-input", typed)
        page.press("#deal-input", "Enter")
        page.evaluate("() => window.klondikeApp.busy")
        shown = typed if len(typed) <= 40 else typed[:37] + "…"
        assert page.inner_text("#message") == (
            f'"{shown}" is not a deal this page can open. Type a deal ID (like klondike-random-v1-123), '
            "a deal code or a Solvitaire JSON deal.")
        assert page.input_value("#deal-input") == typed and page.is_hidden("#overlay")
        assert page.evaluate("() => window.klondikeApp.state.history") == ["draw"]
    context.close()


def test_klondike_hint_flight_never_outlives_the_position(browser: Any, base_url: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(base_url + "/klondike")
    page.wait_for_selector("#columns .card")
    page.evaluate("() => window.klondikeApp.busy")
    for _ in range(30):  # until the hint is a card's move (a draw hint frames the stock; nothing flies)
        page.keyboard.press("h")
        page.evaluate("() => window.klondikeApp.hinting")
        h = page.evaluate("() => window.klondikeApp.state.hint")
        if h and h["kind"] == "move" and h["to_place"] != "stock":
            break
        page.keyboard.press("Space")
        page.evaluate("() => window.klondikeApp.busy")
    assert page.locator(".hint-ghost").count() == 1  # the move flies once
    page.keyboard.press("Space")  # a draw: the flying copy goes at once
    page.evaluate("() => window.klondikeApp.busy")
    assert page.locator(".hint-ghost").count() == 0
    context.close()


def test_a_server_stopped_and_started_again_at_once_resumes_the_open_game(browser: Any) -> None:
    """Item 10: the same port answers again at once, and the open page carries on with its game."""
    from solitaire_rl.play.server.cli import free_port, serve_in_thread

    port = free_port()
    server, thread, url = serve_in_thread(port=port)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(url + "/")
        page.wait_for_selector("#pyramid .card")
        open_deal(page, DEAL_1)
        click(page, "#draw")
        server.should_exit = True  # the page's keep-alive connection is closed by the server
        thread.join(timeout=10)
        server, thread, again = serve_in_thread(port=port)  # at once, on the same port
        assert again == url
        click(page, "#draw")  # the new server does not know the game: the page replays it and draws
        assert state(page)["history"] == ["draw", "draw"] and state(page)["deal"]["label"] == DEAL_1
    finally:
        context.close()
        server.should_exit = True
        thread.join(timeout=10)
