"""Draw 1 on the Klondike page (issue 37), in a real browser at 1280x800 and 390x844 (touch), in
English and Japanese: the menu's labelled Draw select beside the deal type deals a draw-1 game, a
tap on the stock turns one card onto the waste, the hint answers (the planner; a draw-3-only source
says the planner answered for it), nothing overlaps or leaves the screen, the draw is kept over a
reload and a New deal, the select works by keyboard and asks before replacing a game, and the
records keep draw-1 and draw-3 wins apart. Screenshots: ``tests/artifacts/klondike-draw1-{size}-{lang}.png``
(and ``-menu`` with the menu open, ``-fallback`` with the hint asked of the trained agent)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_klondike_page import open_menu, settle, state
from tests.browser.test_klondike_winnable_page import MUST_SEE, SIZES, close_menu, klondike_pages
from tests.browser.test_layout import check_axe, check_layout, check_words

Page = Any
DRAW_LABEL = {"en": "Draw", "ja": "めくる枚数"}
OPTIONS = {"en": ["draw 3", "draw 1"], "ja": ["3 枚めくり", "1 枚めくり"]}
TITLE = {"en": "draw 1", "ja": "1 枚めくり"}
BY_PLANNER = {"en": "Hint (planner", "ja": "ヒント（プランナー"}
AGENT_NOTE = {"en": "planner, the trained agent plays draw 3 only): ",
              "ja": "プランナー、学習済みエージェントは 3 枚めくり専用です）："}
DRAW_ONE = {"en": "Draw 1 card from the stock", "ja": "山札から 1 枚めくりましょう"}

# The menu's controls: each inside the screen, not covered at its centre, and none overlapping another.
MENU_GEOMETRY = """(ids) => {
  const boxes = ids.map((id) => {
    const el = document.getElementById(id), r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {id, left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height,
            hit: !!hit && (hit === el || el.contains(hit) || hit.contains(el))};
  });
  return {boxes, width: innerWidth, height: innerHeight};
}"""
MENU_CONTROLS = ["deal-type", "draw-count", "deal-input", "hint-source", "lang", "records-button"]


@pytest.fixture
def page_at(browser: Any, base_url: str) -> Iterator[Callable[..., Page]]:
    """``page_at(size, lang)``: the Klondike page in a fresh context, ``lang`` stored as the choice."""
    yield from klondike_pages(browser, base_url, timeout=20_000)


def check_menu(page: Page, where: str) -> None:
    found = page.evaluate(MENU_GEOMETRY, MENU_CONTROLS)
    boxes = found["boxes"]
    for b in boxes:
        assert b["width"] > 0 and b["height"] > 0, f"{where}: {b['id']} is not shown"
        inside = b["left"] >= 0 and b["top"] >= 0 and b["right"] <= found["width"] + 0.5 and \
            b["bottom"] <= found["height"] + 0.5
        assert inside, f"{where}: {b['id']} is outside the {found['width']}x{found['height']} screen: {b}"
        assert b["hit"], f"{where}: {b['id']} is covered"
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = a["right"] <= b["left"] + 0.5 or b["right"] <= a["left"] + 0.5 or \
                a["bottom"] <= b["top"] + 0.5 or b["bottom"] <= a["top"] + 0.5
            assert apart, f"{where}: {a['id']} overlaps {b['id']}: {a} {b}"


def press(page: Page, selector: str, size: str) -> None:
    page.tap(selector) if size == "phone" else page.click(selector)


def choose_source(page: Page, source: str) -> None:
    open_menu(page)
    page.select_option("#hint-source", source)
    close_menu(page)


def ask_hint(page: Page, size: str) -> str:
    press(page, "#hint", size)
    settle(page)
    return page.inner_text("#message")


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", list(SIZES))
def test_draw_1_from_the_menu_draws_one_card_and_hints(page_at: Callable[..., Page], artifacts: Path,
                                                       size: str, lang: str) -> None:
    page = page_at(size, lang)
    assert state(page)["draw_count"] == 3 and page.input_value("#draw-count") == "3"
    open_menu(page)
    assert page.get_attribute("#draw-count", "aria-label") == DRAW_LABEL[lang]
    assert page.locator("#draw-count option").all_inner_texts() == OPTIONS[lang]
    page.select_option("#draw-count", "1")  # a fresh deal with no move: no question asked
    settle(page)
    s = state(page)
    assert s["draw_count"] == 1 and s["moves"] == 0 and page.input_value("#draw-count") == "1"
    assert page.inner_text("#draw-title") == TITLE[lang] and TITLE[lang] in page.title()
    open_menu(page)  # a new game closes the phone's menu: open it again to look at it
    check_menu(page, f"{size}-{lang} menu")
    check_axe(page, f"{size}-{lang} menu open")
    page.screenshot(path=str(artifacts / f"klondike-draw1-{size}-{lang}-menu.png"))
    close_menu(page)
    settle(page)

    for n in (1, 2):  # each tap on the stock turns one card; the waste shows it alone
        press(page, "#stock", size)
        settle(page)
        s = state(page)
        assert (s["stock"]["count"], s["waste"]["count"], s["history"]) == (24 - n, n, ["draw"] * n)
        assert page.locator("#waste .card").count() == 1
        assert page.get_attribute("#waste [data-place]", "data-card") == str(s["waste"]["fan"][0]["card"])
    assert (page.get_attribute("#third", "aria-label") or "").startswith(
        {"en": "Draw 1 from the stock", "ja": "山札から 1 枚めくる"}[lang])

    text = ask_hint(page, size)
    hint = state(page)["hint"]
    assert hint["hint_source"] == "planner" and hint["requested"] == "planner" and hint["kind"] == "move"
    assert text.startswith(BY_PLANNER[lang]) and "3 枚めくり専用" not in text and "draw 3 only" not in text
    check_layout(page, [*MUST_SEE, "#message", "#draw-title"], f"{size}-{lang} draw 1 hint")
    check_words(page, f"{size}-{lang} draw 1 hint")
    page.screenshot(path=str(artifacts / f"klondike-draw1-{size}-{lang}.png"))

    choose_source(page, "agent")  # draw 3 only: the planner answers, and the hint says so
    text = ask_hint(page, size)
    hint = state(page)["hint"]
    answered = (hint["requested"], hint["hint_source"], hint["fallbacks"])
    assert answered == ("agent", "planner", ["draw3_only"])
    assert AGENT_NOTE[lang] in text, text
    check_layout(page, [*MUST_SEE, "#message"], f"{size}-{lang} draw 1 fallback hint")
    check_axe(page, f"{size}-{lang} draw 1 fallback hint")
    page.screenshot(path=str(artifacts / f"klondike-draw1-{size}-{lang}-fallback.png"))

    page.reload()  # the save keeps the draw
    page.wait_for_selector("#columns .card")
    settle(page)
    s = state(page)
    assert s["draw_count"] == 1 and s["history"] == ["draw", "draw"]
    assert page.input_value("#draw-count") == "1"
    assert s["waste"]["count"] == 2 and page.locator("#waste .card").count() == 1
    assert page.errors == []


def test_new_deal_keeps_draw_1_and_a_fresh_visit_starts_in_it(page_at: Callable[..., Page],
                                                               base_url: str) -> None:
    page = page_at("desktop", "en")
    page.select_option("#draw-count", "1")
    settle(page)
    first = state(page)["deal"]["id"]
    page.keyboard.press("n")  # New deal (no move yet: no question)
    settle(page)
    s = state(page)
    assert s["draw_count"] == 1 and s["deal"]["id"] != first
    page.goto(base_url + "/static/common.css")  # leaving saves the game: drop it for a visit with no save
    page.evaluate("() => localStorage.removeItem('solitaire-rl.klondike.save')")
    page.goto(base_url + "/klondike")
    page.wait_for_selector("#columns .card")
    settle(page)
    assert state(page)["draw_count"] == 1 and page.input_value("#draw-count") == "1"
    page.click("#stock")
    settle(page)
    assert state(page)["waste"]["count"] == 1
    assert page.errors == []


def test_the_draw_by_keyboard_asks_before_replacing_a_game(page_at: Callable[..., Page]) -> None:
    page = page_at("desktop", "ja")
    page.focus("#draw-count")
    page.keyboard.press("ArrowDown")  # draw 3 -> draw 1, at once (no move yet)
    settle(page)
    assert state(page)["draw_count"] == 1
    page.locator("#stock").focus()
    page.keyboard.press("Space")
    settle(page)
    s = state(page)
    assert s["moves"] == 1 and s["waste"]["count"] == 1
    page.focus("#draw-count")
    page.keyboard.press("ArrowUp")  # back to draw 3: the game has a move, so it asks first
    settle(page)
    assert page.get_attribute("#overlay", "data-kind") == "confirm"
    assert page.input_value("#draw-count") == "1"  # the menu still tells the game in play
    page.keyboard.press("Escape")
    settle(page)
    assert state(page)["session"] == s["session"] and state(page)["draw_count"] == 1
    page.focus("#draw-count")
    page.keyboard.press("ArrowUp")
    settle(page)
    page.click("#panel-buttons button:text('置き換える')")
    settle(page)
    s = state(page)
    assert s["draw_count"] == 3 and s["moves"] == 0 and page.input_value("#draw-count") == "3"
    assert page.inner_text("#draw-title") == "3 枚めくり"
    assert page.errors == []


def test_records_keep_draw_1_and_draw_3_wins_apart(page_at: Callable[..., Page]) -> None:
    page = page_at("desktop", "en")
    page.select_option("#draw-count", "1")
    settle(page)
    deal = state(page)["deal"]["id"]
    items = page.evaluate("() => { record(); record(); "  # the page's own record(): once per deal and draw
                          "return JSON.parse(localStorage.getItem('solitaire-rl.klondike.records')).items; }")
    assert len(items) == 1 and items[0]["draw"] == 1 and items[0]["code"] == deal
    page.select_option("#draw-count", "3")  # the same deal in draw 3 is another record
    settle(page)
    page.fill("#deal-input", deal)
    page.press("#deal-input", "Enter")
    settle(page)
    assert state(page)["deal"]["id"] == deal and state(page)["draw_count"] == 3
    items = page.evaluate("() => { record(); "
                          "return JSON.parse(localStorage.getItem('solitaire-rl.klondike.records')).items; }")
    assert [i["draw"] for i in items] == [1, 3]
    page.click("#records-button")
    text = page.inner_text("#panel")
    assert "2 deals won: draw 1 · random: 1, draw 3 · random: 1" in text, text
    assert "draw 1 · random" in page.inner_text("#panel table")
    page.keyboard.press("Escape")
    assert page.errors == []
