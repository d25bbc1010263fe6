"""The Pyramid page in a real browser: the seeds' play behaviour, saving, tabs, phones."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from solitaire_rl.agents.solver import solve_pyramid
from solitaire_rl.envs.pyramid import PyramidGame
from tests.browser.conftest import settle
from tests.conftest import (
    DRAW_ONLY_PYRAMID,
    DRAW_ONLY_STOCK,
    STOCK_PAIRS_PYRAMID,
    STOCK_PAIRS_STOCK,
    WIN_LINE,
    WIN_PYRAMID,
    build_pyramid_deal,
)

DEAL_1 = "pyramid-random-v1-1"  # bottom row QC 5D 8S 9S AD AC 3D, stock top 10S
SAVE_KEY = "solitaire-rl.pyramid.save"
Page = Any


def state(page: Page) -> dict[str, Any]:
    return page.evaluate("() => window.pyramidApp.state")


def open_menu(page: Page) -> None:
    """On a phone the deal controls are in the menu: open it (on a desktop they are in the header)."""
    if page.is_visible("#menu-button") and page.get_attribute("#menu-button", "aria-expanded") == "false":
        page.click("#menu-button")


def open_deal(page: Page, deal: str, variant: str = "000") -> None:
    open_menu(page)
    if page.input_value("#variant") != variant:
        page.select_option("#variant", variant)
        settle(page)
    page.fill("#deal-input", deal)
    page.press("#deal-input", "Enter")
    settle(page)
    if page.is_visible("#overlay") and page.get_attribute("#overlay", "data-kind") == "confirm":
        page.click("#panel-buttons button:text('Replace')")
        settle(page)
    assert state(page)["deal"]["label"] == deal or state(page)["deal"]["code"] == deal


def selector(place: str) -> str:
    return {"stock": "#stock", "waste": "#waste"}.get(place, f"#card-{place}")


def click(page: Page, target: str) -> None:
    """Click like a person: grey (aria-disabled) buttons and covered cards can be pressed and explain why.

    The target is first scrolled to the middle of the window, as a person would, so that the sticky
    control bar at the bottom never lies over it (a forced click does not check what is on top).
    """
    page.locator(target).evaluate("(e) => e.scrollIntoView({block: 'center'})")
    page.click(target, force=True)
    settle(page)


def play_line(page: Page, moves: list[str]) -> None:
    for i, move in enumerate(moves):
        if move in ("draw", "recycle"):
            click(page, f"#{move}")
        else:
            for place in move.split("+"):
                click(page, selector(place))
        assert state(page)["moves"] == i + 1, f"move {i} {move}: {page.inner_text('#message')}"


def message(page: Page) -> str:
    return page.inner_text("#message")


def saved_game(deal: str, moves: list[str], variant: str = "000", **extra: Any) -> str:
    game = PyramidGame(deal, stock_top_playable=variant == "000")
    game.replay(moves)
    data = {
        "format": 1,
        "writer": "test",
        "saved_at": 0,
        "variant": variant,
        "deal": game.deal.code,
        "label": game.deal.label,
        "deal_type": "code",
        "history": moves,
        "redo": [],
        "seen": [c for c in range(52) if game.seen >> c & 1],
        "active_ms": 61_000,
        "operations": len(moves),
        "hints": 2,
        "won": False,
        **extra,
    }
    return json.dumps(data)


def with_save(new_page: Callable[..., Page], save: str, **options: Any) -> Page:
    return new_page(storage={SAVE_KEY: save}, **options)


def resume(page: Page) -> None:
    """Resume a saved game: the page opens it paused (its panel may render a moment after load)."""
    page.wait_for_selector('#overlay[data-kind="paused"]', timeout=10_000)
    click(page, "#panel-buttons button:text('Resume')")


# ---------------------------------------------------------------- winning
def test_win_a_deal_by_clicking_through_the_solvers_line(
    new_page: Callable[..., Page], artifacts: Path
) -> None:
    page = new_page()
    open_deal(page, DEAL_1)
    result = solve_pyramid(DEAL_1)
    assert result.status == "winnable"
    click(page, "#card-r7c1")  # QC selected: the Aces light up
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(artifacts / "play-desktop.png"))
    click(page, "#card-r7c1")
    play_line(page, [str(m) for m in result.line])
    assert page.get_attribute("#overlay", "data-kind") == "result"
    panel = page.inner_text("#panel")
    assert (
        "Pyramid cleared!" in panel
        and f"Moves {len(result.line)}" in panel
        and "Cards removed: 28 of 28" in panel
    )
    assert DEAL_1 in panel and "Another deal" in panel and "Replay this deal" in panel
    page.screenshot(path=str(artifacts / "play-desktop-win.png"))
    click(page, "#panel-buttons button:text('View the board')")
    assert page.is_hidden("#overlay") and state(page)["outcome"] == "win"
    click(page, "#records-button")
    assert "1 deal cleared" in page.inner_text("#panel")
    assert page.errors == []


def test_records_count_a_deal_once_keep_the_latest_1000_and_replay_works(
    new_page: Callable[..., Page],
) -> None:
    old = [
        {
            "variant": "001",
            "type": "random",
            "code": f"old{i}",
            "label": f"pyramid-random-v1-{i}",
            "time_ms": 1000,
            "moves": 30,
            "operations": 30,
            "hints": 0,
            "at": "2026-01-01",
        }
        for i in range(1000)
    ]
    deal = build_pyramid_deal(WIN_PYRAMID)
    page = new_page(storage={"solitaire-rl.pyramid.records": json.dumps({"format": 1, "items": old}),
                             SAVE_KEY: saved_game(deal, list(WIN_LINE[:-1]))})  # one move from the win
    resume(page)
    click(page, f"#card-{WIN_LINE[-1]}")
    assert page.get_attribute("#overlay", "data-kind") == "result"
    click(page, "#panel-buttons button:text('Replay this deal')")
    assert state(page)["moves"] == 0 and state(page)["deal"]["code"] == deal
    play_line(page, list(WIN_LINE))  # the same deal again: not counted twice
    click(page, "#panel-buttons button:text('Another deal')")
    assert state(page)["deal"]["code"] != deal and state(page)["moves"] == 0
    items = json.loads(page.evaluate("localStorage.getItem('solitaire-rl.pyramid.records')"))["items"]
    assert len(items) == 1000 and items[0]["code"] == "old1"  # the oldest went
    assert [r["code"] for r in items].count(deal) == 1 and items[-1]["type"] == "code"
    click(page, "#records-button")
    groups = "1000 deals cleared: waste only · random: 999, stock and waste · typed in: 1"  # words, not codes
    assert groups in page.inner_text("#panel")


# ---------------------------------------------------------------- keyboard
def test_keyboard_only_play_with_visible_focus(new_page: Callable[..., Page]) -> None:
    page = new_page()
    open_deal(page, build_pyramid_deal(WIN_PYRAMID))
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("ArrowRight")  # focus the first available card: r7c1 (A)
    assert page.evaluate("document.activeElement.id") == "card-r7c1"
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"
    page.keyboard.press("Enter")
    settle(page)
    assert state(page)["selected"] == 21 and "needs Q" in page.inner_text("#card-r7c1")
    page.keyboard.press("Escape")
    settle(page)
    assert state(page)["selected"] is None
    page.keyboard.press("Space")
    settle(page)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")  # Q on r7c2: the pair goes
    settle(page)
    assert state(page)["history"] == ["r7c1+r7c2"]
    page.keyboard.press("ArrowUp")  # up to row 6
    assert page.evaluate("document.activeElement.id").startswith("card-r6")
    page.keyboard.press("d")
    settle(page)
    assert state(page)["stock"]["count"] == 23
    page.keyboard.press("u")
    settle(page)
    assert state(page)["stock"]["count"] == 24 and state(page)["history"] == ["r7c1+r7c2"]
    page.keyboard.press("h")
    settle(page)
    assert message(page).startswith("Hint: ") and state(page)["hints"] == 1  # the page's own source: unnamed
    assert page.locator(".hinted").count() >= 1  # shown on the table
    page.keyboard.press("Escape")
    settle(page)
    assert state(page)["hint"] is None
    page.keyboard.press("r")
    settle(page)
    assert message(page) == "You can recycle once the stock has been drawn to the end."
    page.keyboard.press("n")  # the game has history: asks first
    assert page.get_attribute("#overlay", "data-kind") == "confirm"
    page.keyboard.press("Enter")  # focus is on "Replace"
    settle(page)
    assert state(page)["moves"] == 0 and state(page)["deal"]["type"] == "random"


# ---------------------------------------------------------------- rejections and messages
def test_each_rejection_shows_the_seeds_message_and_changes_nothing(new_page: Callable[..., Page]) -> None:
    page = new_page()
    open_deal(page, DEAL_1)
    click(page, "#card-r7c1")
    assert message(page) == "Selected the Queen of clubs (row 7, position 1): it needs an Ace."
    assert page.locator(".card.partner").count() == 2  # the two Aces r7c5 and r7c6
    assert page.get_attribute("#card-r7c5", "aria-label").endswith("partner of the selected card")
    before = state(page)["history"]
    click(page, "#card-r7c3")
    assert message(page) == "These two cards do not add up to 13."
    click(page, "#card-r6c1")
    assert message(page) == ("This card is still covered. The Queen of clubs (row 7, position 1) and "
                             "the 5 of diamonds (row 7, position 2) are on top of it: remove both first.")
    assert page.get_attribute("#recycle", "aria-disabled") == "true"
    assert page.inner_text("#recycle-reason") == "You can recycle once the stock has been drawn to the end."
    click(page, "#recycle")
    assert message(page) == "You can recycle once the stock has been drawn to the end."
    assert state(page)["history"] == before
    assert state(page)["selected"] == 21
    click(page, "#card-r7c1")  # a second tap deselects
    assert state(page)["selected"] is None and page.locator(".card.partner").count() == 0

    page = with_save(
        new_page,
        saved_game(
            build_pyramid_deal(STOCK_PAIRS_PYRAMID, STOCK_PAIRS_STOCK),
            ["draw", "stock+waste"] * 11 + ["draw"],
        ),
    )
    resume(page)
    click(page, "#stock")  # the stock top (7S) and the waste top (6S): a pair of the last two cards
    click(page, "#waste")
    assert state(page)["stock"]["count"] == 0 and state(page)["waste"]["count"] == 0
    assert page.get_attribute("#overlay", "data-kind") == "dead-end"  # nothing left to pair or draw
    assert page.inner_text("#recycle-reason") == "The waste has no cards to recycle."

    page = with_save(
        new_page, saved_game(build_pyramid_deal(DRAW_ONLY_PYRAMID, DRAW_ONLY_STOCK), ["draw"] * 24)
    )
    resume(page)
    click(page, "#draw")
    assert message(page) == "There is no card to draw."


def test_001_moves_the_selection_shows_the_needed_rank_and_draws_from_the_stock(
    new_page: Callable[..., Page],
) -> None:
    page = new_page()
    open_deal(page, DEAL_1, variant="001")
    click(page, "#card-r7c1")
    assert "needs A" in page.inner_text("#card-r7c1")
    click(page, "#card-r7c2")  # 5D does not make 13 with QC: the selection moves
    assert state(page)["selected"] == 22 and "needs 8" in page.inner_text("#card-r7c2")
    assert page.get_attribute("#card-r7c2", "aria-pressed") == "true"
    page.focus("#card-r7c1")
    page.keyboard.press("Tab")  # Tab moves through the available cards only
    assert page.evaluate("document.activeElement.id") == "card-r7c2"
    assert "partner" in page.get_attribute("#card-r7c3", "class")
    click(page, "#stock")  # face down in 001: a tap draws
    assert state(page)["waste"]["count"] == 1 and state(page)["stock"]["top"] is None


def test_undo_and_redo_across_a_recycle_bring_the_pass_back(new_page: Callable[..., Page]) -> None:
    deal = build_pyramid_deal(DRAW_ONLY_PYRAMID, DRAW_ONLY_STOCK)
    page = with_save(new_page, saved_game(deal, ["draw"] * 24))
    resume(page)
    assert "Pass 1/3" in page.inner_text("#status-pass")
    assert page.get_attribute("#recycle", "aria-disabled") == "false"
    click(page, "#recycle")
    assert "Pass 2/3" in page.inner_text("#status-pass") and page.inner_text("#status-stock") == "Stock 24"
    click(page, "#undo")
    assert "Pass 1/3" in page.inner_text("#status-pass") and page.inner_text("#status-stock") == "Stock 0"
    click(page, "#redo")
    assert "Pass 2/3 (1 recycle left)" in page.inner_text("#status-pass")


def test_no_recycles_left_and_the_dead_end_panel(new_page: Callable[..., Page]) -> None:
    deal = build_pyramid_deal(DRAW_ONLY_PYRAMID, DRAW_ONLY_STOCK)
    page = with_save(new_page, saved_game(deal, (["draw"] * 24 + ["recycle"]) * 2 + ["draw"] * 24))
    resume(page)
    assert page.get_attribute("#overlay", "data-kind") == "dead-end"
    panel = page.inner_text("#panel")
    assert "No moves left" in panel and "Restart this deal" in panel and "New deal" in panel
    click(page, "#panel-buttons button:text('Undo')")
    assert state(page)["pass"] == 3 and state(page)["stock"]["count"] == 1
    click(page, "#recycle")
    assert message(page) == "You can recycle once the stock has been drawn to the end."
    click(page, "#draw")
    assert page.get_attribute("#overlay", "data-kind") == "dead-end"
    assert page.inner_text("#recycle-reason") == "No recycles are left."
    assert page.get_attribute("#recycle", "aria-label") == "Recycle, unavailable: No recycles are left."


# ---------------------------------------------------------------- verdicts
def test_not_winnable_only_after_every_stock_card_was_seen_with_exits(new_page: Callable[..., Page]) -> None:
    deal = build_pyramid_deal(DRAW_ONLY_PYRAMID, DRAW_ONLY_STOCK)
    page = with_save(new_page, saved_game(deal, ["draw"] * 22))  # the last stock card is still unseen
    resume(page)
    done = "() => window.pyramidApp.state.verdict && window.pyramidApp.state.verdict.status !== 'checking'"
    page.wait_for_function(done)
    assert page.inner_text("#verdict").startswith("Some stock cards have not been seen yet")
    assert page.is_hidden("#verdict-actions")
    table_top = "document.querySelector('#pyramid').getBoundingClientRect().top + window.scrollY"
    top = page.evaluate(table_top)
    click(page, "#draw")
    page.wait_for_function(done)
    assert page.inner_text("#verdict").startswith("Not winnable from here")
    assert page.evaluate(table_top) == top  # the verdict and its exits arrived without moving the table
    exits = page.inner_text("#verdict-actions")
    for exit_ in ("Undo", "Hint", "Restart this deal", "Another deal"):
        assert exit_ in exits
    click(page, "#verdict-actions button:text('Undo')")
    page.wait_for_function(done)
    assert page.inner_text("#verdict").startswith("Not winnable from here")  # seen stays seen after undo
    click(page, "#verdict-actions button:text('Restart this deal')")
    assert state(page)["moves"] == 0


def test_path_to_clear_shows_the_first_step(new_page: Callable[..., Page]) -> None:
    page = new_page()
    open_deal(page, "pyramid-winnable-v1-2", variant="001")
    page.wait_for_function(
        "() => window.pyramidApp.state.verdict && window.pyramidApp.state.verdict.status === 'winnable'"
    )
    assert "first step" not in page.inner_text("#verdict")  # shown on request only
    click(page, "#path")
    verdict = state(page)["verdict"]
    text = page.inner_text("#verdict")
    whole_deal = "A line that clears the pyramid exists (knowing every card, the unseen stock's order too)."
    # 001's verdict knows the whole deal, and says so (issue 51)
    assert text == f"{whole_deal} {verdict['first_step_en']}"
    assert verdict["first_step"] not in text  # the step in words only, no engine code
    assert text.split("first step: ")[1].startswith(("remove the ", "draw a card"))
    for place in verdict["first_step_places"]:  # and framed on the table
        assert "hinted" in page.get_attribute(f"[data-place='{place}']", "class")
    click(page, "#lang")
    assert page.inner_text("#verdict") == (
        f"全消しの道があります（まだ見ていない山札の並びも含め、すべてのカードで確かめました） "
        f"{verdict['first_step_ja']}")


# ---------------------------------------------------------------- saving
def test_reload_resumes_paused_with_counts_kept(new_page: Callable[..., Page]) -> None:
    page = new_page()
    open_deal(page, DEAL_1)
    click(page, "#draw")
    click(page, "#card-r7c2")
    click(page, "#card-r7c3")
    click(page, "#undo")
    click(page, "#hint")
    before = state(page)
    page.reload()
    page.wait_for_selector("#overlay[data-kind='paused']", state="visible")
    settle(page)
    clock = page.inner_text("#status-clock")
    page.wait_for_timeout(1200)
    assert page.inner_text("#status-clock") == clock  # paused until resume
    resume(page)
    after = state(page)
    assert after["history"] == before["history"] and after["redo"] == before["redo"]
    assert after["operations"] == before["operations"] and after["hints"] == before["hints"] == 1
    click(page, "#redo")
    assert state(page)["operations"] == before["operations"] + 1


def test_a_corrupt_or_unsupported_save_is_reported_and_never_overwritten(
    new_page: Callable[..., Page],
) -> None:
    for bad, words in (("{not json", "corrupt"), (json.dumps({"format": 99}), "unsupported version")):
        page = with_save(new_page, bad)
        assert words in page.inner_text("#save-notice")
        click(page, "#draw")
        assert page.evaluate("(k) => localStorage.getItem(k)", SAVE_KEY) == bad
    bad = saved_game(DEAL_1, ["r7c1+r7c5"]).replace("r7c1+r7c5", "r7c1+r7c2")  # QC + 5D: does not replay
    page = with_save(new_page, bad)
    assert "it does not replay" in page.inner_text("#save-notice")
    click(page, "#save-notice button:text('Delete the old save')")  # the player may choose to drop it
    assert (
        json.loads(page.evaluate("(k) => localStorage.getItem(k)", SAVE_KEY))["deal"]
        != json.loads(bad)["deal"]
    )


def test_replacing_a_game_with_history_asks_first(new_page: Callable[..., Page]) -> None:
    page = new_page()
    open_deal(page, DEAL_1)
    click(page, "#draw")
    click(page, "#new-deal")
    assert page.get_attribute("#overlay", "data-kind") == "confirm"
    click(page, "#panel-buttons button:text('Keep playing')")
    assert state(page)["deal"]["label"] == DEAL_1 and state(page)["moves"] == 1


def test_a_second_tab_stops_this_tabs_saving_and_asks_to_reload(new_page: Callable[..., Page]) -> None:
    first = new_page()
    open_deal(first, DEAL_1)
    click(first, "#draw")
    second = new_page(first.context)
    resume(second)
    click(second, "#draw")
    first.wait_for_selector("#tab-notice", state="visible")
    assert "another tab" in first.inner_text("#tab-notice") and "Reload" in first.inner_text("#tab-notice")
    saved = first.evaluate("(k) => localStorage.getItem(k)", SAVE_KEY)
    click(first, "#undo")
    assert first.evaluate("(k) => localStorage.getItem(k)", SAVE_KEY) == saved  # this tab no longer saves


def test_no_storage_plays_on_with_a_notice(new_page: Callable[..., Page], browser: Any) -> None:
    context = browser.new_context()
    context.add_init_script(
        "Object.defineProperty(window, 'localStorage', "
        "{get() { throw new DOMException('blocked', 'SecurityError'); }});"
    )
    page = new_page(context)
    assert "Saving is not available" in page.inner_text("#storage-notice")
    click(page, "#draw")
    assert state(page)["stock"]["count"] == 23
    context.close()


# ---------------------------------------------------------------- screens, clock, rules
def test_phone_viewport_with_touch(new_page: Callable[..., Page], artifacts: Path) -> None:
    page = new_page(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, device_scale_factor=2
    )
    open_deal(page, DEAL_1)
    page.tap("#card-r7c2")
    settle(page)
    page.locator("#available-list button", has_text="8 of spades").tap()  # the large-button list
    settle(page)
    assert state(page)["history"] == ["r7c2+r7c3"]
    assert page.inner_text("#status-left") == "26 of 28 cards left"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(artifacts / "play-phone.png"))
    page.set_viewport_size({"width": 844, "height": 390})  # rotate: the game stays
    settle(page)
    assert state(page)["history"] == ["r7c2+r7c3"]
    page.set_viewport_size({"width": 320, "height": 640})  # narrow: only the pyramid scrolls sideways
    assert page.evaluate("(e => e.scrollWidth > e.clientWidth)(document.querySelector('#pyramid-scroll'))")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    assert state(page)["history"] == ["r7c2+r7c3"]


def test_the_clock_stops_while_the_tab_is_hidden(new_page: Callable[..., Page]) -> None:
    page = new_page()
    page.evaluate("""() => {
        Object.defineProperty(document, 'hidden', {configurable: true, get: () => true});
        document.dispatchEvent(new Event('visibilitychange'));
    }""")
    ms = page.evaluate("() => window.pyramidApp.activeMs")
    page.wait_for_timeout(700)
    assert page.evaluate("() => window.pyramidApp.clockFrom") is None
    assert page.evaluate("() => window.pyramidApp.activeMs") == ms
    page.evaluate("""() => {
        Object.defineProperty(document, 'hidden', {configurable: true, get: () => false});
        document.dispatchEvent(new Event('visibilitychange'));
    }""")
    assert page.evaluate("() => window.pyramidApp.clockFrom") is not None


def test_rules_page_and_screen_reader_names(new_page: Callable[..., Page]) -> None:
    page = new_page(permissions=["clipboard-read", "clipboard-write"])
    open_deal(page, DEAL_1)
    click(page, "#copy-deal")  # one tap copies the deal ID
    assert page.evaluate("navigator.clipboard.readText()") == DEAL_1
    assert page.get_attribute("#card-r7c1", "aria-label") == "Queen of clubs, row 7, position 1, available"
    assert page.get_attribute("#card-r6c1", "aria-label").endswith(
        ", covered: The Queen of clubs (row 7, position 1) and the 5 of diamonds (row 7, position 2) "
        "are on top of it: remove both first.")
    assert page.get_attribute("#message", "aria-live") == "polite"
    assert page.get_attribute("#stock", "aria-label").startswith("Stock top: 10 of spades")
    click(page, "#rules-button")
    assert page.is_visible("#rules") and page.is_hidden("#game-view")
    assert "3 passes in all" in page.inner_text("#rules")
    click(page, "#rules-back")
    assert page.is_visible("#game-view") and state(page)["deal"]["label"] == DEAL_1


def test_a_game_the_server_forgot_is_restored_without_a_reload(
    new_page: Callable[..., Page], live_server: tuple[Any, str]
) -> None:
    page = new_page()
    open_deal(page, DEAL_1)
    click(page, "#draw")
    old = state(page)["session"]
    sessions = live_server[0].config.app.state.server.sessions
    sessions._sessions.pop(old)  # as if evicted, or the server restarted
    click(page, "#draw")
    s = state(page)
    assert s["session"] != old and s["history"] == ["draw", "draw"] and s["deal"]["label"] == DEAL_1


def test_checking_is_shown_while_play_goes_on(new_page: Callable[..., Page]) -> None:
    page = new_page()
    page.evaluate("""() => {
        window.verdictTexts = [];
        const verdict = document.querySelector('#verdict');
        new MutationObserver(() => window.verdictTexts.push(verdict.textContent))
            .observe(verdict, {childList: true, characterData: true, subtree: true});
    }""")
    open_deal(page, "pyramid-random-v1-74675", variant="001")  # about 450,000 states to prove it lost
    click(page, "#card-r7c1")  # answered while the search runs
    assert state(page)["selected"] == 21
    page.wait_for_function("() => window.pyramidApp.state.verdict.status !== 'checking'", timeout=30_000)
    texts = page.evaluate("window.verdictTexts")
    assert "Checking whether this position can be won…" in texts
    assert page.inner_text("#verdict").startswith("Not winnable from here")


# ---------------------------------------------------------------- Japanese, a win after undo, the list
def test_the_page_speaks_the_seeds_japanese_and_remembers_the_choice(
    new_page: Callable[..., Page], artifacts: Path
) -> None:
    page = new_page(locale="ja-JP")  # a Japanese browser gets the Japanese page
    open_deal(page, DEAL_1)
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert page.inner_text("#status-left") == "28 枚中 28 枚"
    assert page.inner_text("#status-pass").startswith("1/3 巡目")
    assert page.inner_text("#undo").startswith("戻す")  # seed 000's word
    assert page.inner_text("#path") == "全消しの道"
    assert page.inner_text("#recycle-reason") == "山札をめくり終えると再利用できます"
    click(page, "#card-r7c1")
    assert message(page) == "クラブの Q（7 段目の 1 枚目）を選択中：相手の数字は A です"
    assert page.get_attribute("#card-r7c1", "aria-label").startswith("クラブの Q, 7 段目の 1 枚目")
    click(page, "#card-r7c3")
    assert message(page) == "この 2 枚は合計 13 になりません"
    click(page, "#card-r6c1")
    assert message(page).startswith(
        "このカードはまだ重なっています。クラブの Q（7 段目の 1 枚目）とダイヤの 5（")
    click(page, "#recycle")
    assert message(page) == "山札をめくり終えると再利用できます"
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(artifacts / "play-desktop-ja.png"))
    page.fill("#deal-input", "zzz")
    page.press("#deal-input", "Enter")
    settle(page)
    assert message(page) == ("「zzz」は開ける配りではありません。配りの識別子（例：pyramid-random-v1-123）か"
                             "盤面コードを入力してください。")
    click(page, "#rules-button")
    assert page.is_visible("#rules-ja") and page.is_hidden("#rules-en")
    assert "合計 3 巡" in page.inner_text("#rules")
    click(page, "#rules-back")
    click(page, "#lang")  # to English, and the choice is kept
    assert page.inner_text("#status-left") == "28 of 28 cards left"
    assert page.evaluate("document.documentElement.lang") == "en"
    page.reload()
    page.wait_for_selector("#overlay[data-kind='paused']", state="visible")
    settle(page)
    assert page.inner_text("#panel-title") == "Game paused"


def test_a_win_undone_and_won_again_reopens_the_result_panel(new_page: Callable[..., Page]) -> None:
    deal = build_pyramid_deal(WIN_PYRAMID)
    page = with_save(new_page, saved_game(deal, list(WIN_LINE[:-1])))  # one move from the win
    resume(page)
    click(page, f"#card-{WIN_LINE[-1]}")  # the last King
    assert page.get_attribute("#overlay", "data-kind") == "result"
    click(page, "#panel-buttons button:text('View the board')")
    assert message(page).startswith("The pyramid is cleared.")
    assert page.evaluate("() => window.pyramidApp.clockFrom") is None  # stopped at the win
    click(page, "#undo")
    assert state(page)["outcome"] != "win" and page.evaluate("() => window.pyramidApp.clockFrom") is not None
    click(page, "#redo")
    assert page.get_attribute("#overlay", "data-kind") == "result"
    records = json.loads(page.evaluate("localStorage.getItem('solitaire-rl.pyramid.records')"))["items"]
    assert [r["code"] for r in records] == [deal]  # won twice, recorded once
    click(page, "#panel-buttons button:text('View the board')")
    click(page, "#records-button")
    assert page.locator("#panel table th").all_inner_texts()[:3] == ["game", "deal type", "deal"]
    assert page.locator("#panel table tbody tr").count() == 1


def test_the_large_button_list_holds_the_exposed_pyramid_cards_and_keeps_keyboard_focus(
    new_page: Callable[..., Page],
) -> None:
    page = new_page()
    open_deal(page, DEAL_1)  # 000: the exposed pyramid cards, then the usable stock top (10S)
    names = page.locator("#available-list button").all_inner_texts()
    assert len(names) == 8 and all("row 7, position" in n for n in names[:7])
    assert names[7] == "10 of spades — stock top"
    page.focus("#available-list button >> nth=1")  # 5D
    page.keyboard.press("Enter")
    settle(page)
    assert state(page)["selected"] == 22
    assert page.evaluate("document.activeElement.dataset.listPlace") == "22"  # focus stays in the list
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # 8S: the pair goes
    settle(page)
    assert state(page)["history"] == ["r7c2+r7c3"]
    assert page.evaluate("document.activeElement.closest('#available-list') !== null")


def test_panels_hold_the_keyboard_and_give_focus_back_and_restart_asks_first(
    new_page: Callable[..., Page],
) -> None:
    page = new_page()
    open_deal(page, DEAL_1)
    assert page.inner_text("#stock-label") == "Stock 24 · pass 1/3"  # beside the stock: count and pass
    page.focus("#records-button")
    page.keyboard.press("Enter")
    assert page.get_attribute("#overlay", "data-kind") == "records"
    for _ in range(4):  # Tab never leaves the open panel
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.closest('#overlay') !== null")
    page.keyboard.press("Escape")
    assert page.is_hidden("#overlay") and page.evaluate("document.activeElement.id") == "records-button"
    click(page, "#draw")
    page.focus("#restart")
    page.keyboard.press("Enter")  # restart throws the history away: it asks first
    assert page.get_attribute("#overlay", "data-kind") == "confirm"
    for behind in ("#lang", "#card-r1c1"):  # the page behind the panel (clear of it) takes no clicks
        page.click(behind, force=True)
        settle(page)
    assert page.get_attribute("#overlay", "data-kind") == "confirm"
    assert page.evaluate("document.documentElement.lang") == "en" and message(page) == ""
    click(page, "#panel-buttons button:text('Keep playing')")
    assert state(page)["history"] == ["draw"] and page.evaluate("document.activeElement.id") == "restart"
    click(page, "#restart")
    click(page, "#panel-buttons button:text('Replace')")
    assert state(page)["moves"] == 0 and state(page)["deal"]["label"] == DEAL_1


def test_a_bad_deal_is_refused_with_a_message_and_001_deals_a_winnable_type(
    new_page: Callable[..., Page],
) -> None:
    page = new_page()
    before = state(page)["deal"]["label"]
    page.fill("#deal-input", "pyramid-random-v1-x")
    page.press("#deal-input", "Enter")
    settle(page)
    assert message(page) == ('"pyramid-random-v1-x" is not a deal this page can open. Type a deal ID '
                             "(like pyramid-random-v1-123) or a deal code.")
    assert state(page)["deal"]["label"] == before
    assert page.input_value("#deal-input") == "pyramid-random-v1-x"  # kept, so a typo can be fixed
    assert page.get_attribute("#overlay", "data-kind") != "confirm"  # checked before asking to replace
    page.select_option("#variant", "001")
    settle(page)
    page.select_option("#deal-type", "winnable")
    settle(page)
    s = state(page)
    assert s["variant"] == "001" and s["deal"]["type"] == "winnable"
    assert s["deal"]["label"].startswith("pyramid-winnable-v1-")
    assert page.inner_text("#copy-deal") == s["deal"]["label"]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_phone_held_sideways_shows_the_whole_recycle_reason_and_the_chip_speaks_the_language(
    new_page: Callable[..., Page], artifacts: Path, lang: str
) -> None:
    """844x390 (touch): the recycle reason (the longest, before the stock is drawn to the end) fits its
    box and the play area shows all of it (it was cut at its third line); the deal chip's tooltip is in
    the page's language (it was English on the Pyramid page)."""
    page = new_page(storage={"solitaire-rl.lang": lang}, viewport={"width": 844, "height": 390},
                    has_touch=True, is_mobile=True)
    box = page.evaluate("""() => {
        const el = document.getElementById('recycle-reason'), r = el.getBoundingClientRect();
        const area = document.querySelector('.play-area').getBoundingClientRect();  // it clips the table
        return {text: el.innerText, over: el.scrollHeight - el.clientHeight, bottom: r.bottom,
                areaBottom: area.bottom, right: r.right}; }""")
    assert box["text"] == ("You can recycle once the stock has been drawn to the end." if lang == "en"
                           else "山札をめくり終えると再利用できます")
    assert box["over"] <= 1 and box["bottom"] <= box["areaBottom"] + 0.5 and box["right"] <= 844, box
    label = page.evaluate("() => window.pyramidApp.state.deal.label")
    title = page.get_attribute("#copy-deal", "title")
    assert title == (f"Copy {label}" if lang == "en" else f"{label} をコピー")
    page.screenshot(path=str(artifacts / f"pyramid-sideways-{lang}.png"))
    assert not page.errors
