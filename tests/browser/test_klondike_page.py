"""The Klondike draw-3 page in a real browser: seed 002's play behaviour, saving, phones.

The server here is the play app with the Klondike endpoints mounted (:func:`mount_klondike` is
idempotent, so this works whether or not ``create_app`` already mounts them).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from solitaire_rl.agents.solver import SearchLimits
from solitaire_rl.agents.solver.klondike import solve_klondike
from solitaire_rl.envs.klondike import KlondikeGame
from solitaire_rl.envs.klondike.moves import COLUMN_FOUNDATION, WASTE_FOUNDATION
from solitaire_rl.play.server.klondike_advice import KlondikeVerdictService
from solitaire_rl.play.server.klondike_api import KlondikeServer, mount_klondike
from solitaire_rl.play.server.klondike_session import move_source, move_target
from tests.test_play_klondike_api import DEAL_1, NO_PROGRESS, dead_end, position

Page = Any
SAVE_KEY = "solitaire-rl.klondike.save"
FINISH_AFTER_ONE = position(
    [["KS", "QH", "JS"], ["JH", "KC"], ["KD", "QS", "JD"], ["KH", "QC"], ["QD"], ["JC"]],
    hidden=[0, 1],
    foundations=(10, 10, 10, 10),
)
"""40 cards up; JH lies face down under KC: moving KC to the empty column 7 turns it up."""


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    from solitaire_rl.play.server import create_app
    from solitaire_rl.play.server.cli import serve_in_thread

    server = KlondikeServer(verdicts=KlondikeVerdictService(SearchLimits(time_limit=5.0), workers=1))
    app = mount_klondike(create_app(), server)
    uvicorn_server, thread, base = serve_in_thread(app)
    yield base
    uvicorn_server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture
def open_page(browser: Any, url: str) -> Iterator[Callable[..., Page]]:
    contexts = []

    def make(path: str = "/klondike", context: Any = None, **options: Any) -> Page:
        if context is None:
            context = browser.new_context(**{"viewport": {"width": 1280, "height": 900}, **options})
            context.set_default_timeout(10_000)
            contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.errors = errors
        page.goto(url + path)
        page.wait_for_selector("#columns .card")
        settle(page)
        return page

    yield make
    for context in contexts:
        context.close()


def settle(page: Page) -> None:
    """Wait until every queued request is answered and rendered and the cards have stopped moving."""
    page.evaluate(
        "() => window.klondikeApp.busy.then(() => window.klondikeApp.hinting)"
        ".then(() => window.klondikeApp.busy).then(() => Promise.all("
        "document.getAnimations().map((a) => a.finished.catch(() => null))))"
    )


def state(page: Page) -> dict[str, Any]:
    return page.evaluate("() => window.klondikeApp.state")


def api_game(page: Page, url: str, body: dict[str, Any]) -> str:
    r = page.request.post(
        url + "/api/klondike/games", data=json.dumps(body), headers={"content-type": "application/json"}
    )
    assert r.status == 201, r.text()
    return r.json()["session"]


def open_position(open_page: Callable[..., Page], url: str, body: dict[str, Any], **options: Any) -> Page:
    page = open_page(**options)
    session = api_game(page, url, body)
    page.goto(f"{url}/klondike?session={session}")
    page.wait_for_selector("#columns .card")
    settle(page)
    assert state(page)["session"] == session
    return page


def open_menu(page: Page) -> None:
    """On a phone the deal controls are in the menu: open it (on a desktop they are in the header)."""
    if page.is_visible("#menu-button") and page.get_attribute("#menu-button", "aria-expanded") == "false":
        page.click("#menu-button")


def open_deal(page: Page, deal: str) -> None:
    open_menu(page)
    page.fill("#deal-input", deal)
    page.press("#deal-input", "Enter")
    settle(page)
    if page.is_visible("#overlay") and page.get_attribute("#overlay", "data-kind") == "confirm":
        page.click("#panel-buttons button:text('Replace')")
        settle(page)
    assert state(page)["deal"]["id"] == deal


def selector(place: str) -> str:
    if place == "stock":
        return "#stock"
    if place == "waste":
        return '#waste [data-place="waste"]'
    if place.startswith("f"):
        return f"#f-{place[1]}"
    return f'#columns [data-place="{place}"]'


def target_selector(place: str) -> str:
    return selector(place) if place.startswith("f") else f"#col-{place[1:]}"


def center(page: Page, sel: str) -> tuple[float, float]:
    box = page.locator(sel).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 20)


def drag(page: Page, source: str, target: str) -> None:
    x, y = center(page, selector(source))
    last = page.locator(f"{target_selector(target)} .card").last
    tbox = last.bounding_box() if target.startswith("c") and last.count() else None
    tbox = tbox or page.locator(target_selector(target)).bounding_box()
    tx, ty = tbox["x"] + tbox["width"] / 2, tbox["y"] + min(tbox["height"] - 5, 40)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 12, y + 12, steps=2)
    page.mouse.move(tx, ty, steps=4)
    page.mouse.up()
    settle(page)


def tap_move(page: Page, source: str, target: str) -> None:
    before = len(state(page)["history"])
    page.click(selector(source), position={"x": 20, "y": 10})  # a card's visible top strip
    settle(page)
    if len(state(page)["history"]) == before:  # several targets: the card was selected
        assert state(page)["selected"] == source
        page.click(target_selector(target))
        settle(page)


# ------------------------------------------------------------------ winning
def test_win_a_deal_along_the_solver_line_by_dragging_and_tapping(
    open_page: Callable[..., Page], url: str, artifacts: Any
) -> None:
    game = KlondikeGame(DEAL_1)
    line = solve_klondike(game, time_limit=20).line
    assert line
    # The page plays the line from where its last 14 moves that are not a card going up begin (draws,
    # recycles, waste and run moves, a card back from a foundation); the moves before come from a
    # save, as after a reload. Once only cards going up are left, the finish button ends the game.
    up = (WASTE_FOUNDATION, COLUMN_FOUNDATION)
    others = [i for i, m in enumerate(line) if m.kind not in up]
    first = others[-14]
    start = game.copy()
    for move in line[:first]:
        start.push(move)
    page = open_page()
    page.evaluate("() => { window.klondikeApp.saving = false; }")  # so leaving the page keeps this save
    save = {"format": 1, "writer": "x", "game": "klondike", "deal": DEAL_1, "session": None, "label": DEAL_1,
            "deal_type": "random", "history": [str(m) for m in line[:first]], "redo": [], "seen": [],
            "active_ms": 0, "operations": 5, "hints": 0, "won": False}
    page.evaluate("([key, save]) => localStorage.setItem(key, JSON.stringify(save))", [SAVE_KEY, save])
    page.reload()
    page.wait_for_selector("#overlay[data-kind='paused']")
    page.click("#panel-buttons button:text('Resume')")
    settle(page)
    assert state(page)["history"] == [str(m) for m in line[:first]]
    work = start
    kinds = set()
    for i, move in enumerate(line[first:]):
        if all(m.kind in up for m in line[first + i:]) and state(page)["finish"]["available"]:
            page.evaluate("() => { window.klondikeApp.finishDelay = 0; }")
            page.keyboard.press("f")
            break
        source, target = move_source(move), move_target(move, work)
        if source == "stock":
            page.click("#stock") if i % 2 else page.keyboard.press("Space")
            settle(page)
        elif i % 2:
            drag(page, source, target)
        else:
            tap_move(page, source, target)
        work.push(move)
        kinds.add(move.kind)
        assert state(page)["history"][-1] == str(move), (i, str(move), state(page)["message"])
    assert len(kinds) >= 4, "draws, recycles, waste, run and foundation moves were played"
    page.wait_for_selector("#overlay[data-kind='result']")
    assert state(page)["outcome"] == "win"
    page.wait_for_selector("#overlay[data-kind='result']")
    text = page.inner_text("#panel")
    assert "You won!" in text and "Cards up 52 of 52" in text and "Recycles" in text and "Moves" in text
    assert "klondike-random-v1-1" in page.inner_text("#result-copy")
    buttons = page.locator("#panel-buttons button").all_inner_texts()
    assert buttons == ["New deal", "Same deal again", "View the board", "Analyse this game"]
    page.screenshot(path=str(artifacts / "klondike-won-desktop.png"))
    records = page.evaluate("() => JSON.parse(localStorage.getItem('solitaire-rl.klondike.records')).items")
    assert len(records) == 1 and records[0]["label"] == DEAL_1 and records[0]["draw"] == 3
    page.click("#panel-buttons button:text('Same deal again')")
    settle(page)
    again = state(page)
    assert again["deal"]["id"] == DEAL_1 and again["history"] == [] and again["cards_up"] == 0
    page.click("#records-button")
    assert "1 deal won: draw 3 · random: 1" in page.inner_text("#panel")  # draw-1 wins count apart
    page.keyboard.press("Escape")
    assert page.is_hidden("#overlay")
    assert not page.errors


# ------------------------------------------------------------------ taps, drops and the run panel
def test_one_tap_single_target_and_an_illegal_drop(open_page: Callable[..., Page]) -> None:
    page = open_page()
    open_deal(page, DEAL_1)
    drag(page, "c6", "c1")  # 8C onto 10D: refused, the card returns
    assert state(page)["history"] == []
    assert "one rank higher of the opposite colour" in page.inner_text("#message")
    page.wait_for_selector(".ghost", state="detached")
    assert page.locator("#col-6 .card.dragging").count() == 0
    page.click(selector("c7"))  # AC has exactly one target: one tap sends it up
    settle(page)
    assert state(page)["history"] == ["c7>f"]
    assert page.get_attribute("#f-C", "aria-label") == "clubs foundation: 1 up, top Ace of clubs"
    labels = page.locator("#col-7 .card.back").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert labels == ["face-down card"] * 5, "face-down cards are read as face-down"
    assert page.locator("#col-7 .card:not(.back)").count() == 1, "the card under turned up by itself"
    assert not page.errors


ACE_TWO_WAYS = position([["2H"], ["2D"]], waste=["AC"], filler_end="9S")
"""The Ace of clubs on the waste can go up or onto either red Two: a tap selects it."""


@pytest.mark.parametrize("touching", [False, True])
def test_a_quick_tap_on_an_empty_foundation_after_selecting_plays_there(
    open_page: Callable[..., Page], url: str, touching: bool
) -> None:
    size = {"width": 390, "height": 844} if touching else {"width": 1280, "height": 800}
    page = open_position(open_page, url, {"position": ACE_TWO_WAYS}, has_touch=touching, viewport=size)
    tap = page.tap if touching else page.click
    tap(selector("waste"))
    settle(page)
    assert state(page)["selected"] == "waste" and set(state(page)["selected_targets"]) == {"fC", "c1", "c2"}
    tap("#f-C")  # at once, as a player taps: the empty foundation takes the selected card
    settle(page)
    assert state(page)["history"] == ["waste>f"] and state(page)["selected"] is None
    assert not page.errors


def touch(cdp: Any, kind: str, x: float, y: float) -> None:
    points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


RUN_POSITION = position([["KS", "QH", "JC", "10D"], ["QD"]], filler_end="2S")


def test_run_panel_with_touch_then_tap_the_target(open_page: Callable[..., Page], url: str) -> None:
    page = open_position(
        open_page, url, {"position": RUN_POSITION}, has_touch=True, viewport={"width": 412, "height": 860}
    )
    cdp = page.context.new_cdp_session(page)
    x, y = center(page, selector("c1"))  # 10D, the last card
    touch(cdp, "touchStart", x, y)
    page.wait_for_selector("#run-panel:not([hidden])")
    assert page.inner_text("#run-preview") == "From the 10 of diamonds: 1 card"
    ux, uy = center(page, "#run-up")
    touch(cdp, "touchMove", ux, uy)  # slide onto the up arrow: the start moves up one card
    page.wait_for_timeout(120)
    px, py = center(page, "#run-preview")
    touch(cdp, "touchMove", px, py)
    assert page.inner_text("#run-preview") == "From the Jack of clubs: 2 cards"
    touch(cdp, "touchEnd", px, py)  # releasing selects; nothing moves yet
    settle(page)
    assert page.is_hidden("#run-panel")
    s = state(page)
    assert s["selected"] == "c1:2" and s["history"] == [] and s["selected_targets"] == ["c2"]
    page.tap("#col-2")
    settle(page)
    assert state(page)["history"] == ["c1:2>c2"]
    assert not page.errors


def test_run_panel_with_keys(open_page: Callable[..., Page], url: str) -> None:
    page = open_position(open_page, url, {"position": RUN_POSITION})
    page.click("#stock")  # focus lands on the stock (the stock is empty: nothing to draw)
    settle(page)
    page.keyboard.press("ArrowRight")  # waste
    for _ in range(5):  # foundations, then column 1
        page.keyboard.press("ArrowRight")
    assert page.evaluate("() => document.activeElement.id") == "col-1"
    page.keyboard.press("ArrowUp")
    page.wait_for_selector("#run-panel:not([hidden])")
    page.keyboard.press("Escape")  # closes without change
    assert page.is_hidden("#run-panel") and state(page)["selected"] is None
    page.keyboard.press("ArrowDown")
    page.click("#run-up")
    page.click("#run-preview")  # pressing the preview confirms, as Enter does
    settle(page)
    assert state(page)["selected"] == "c1:2" and page.is_hidden("#run-panel")
    page.keyboard.press("Escape")  # clears the selection
    settle(page)
    assert state(page)["selected"] is None
    page.focus("#col-1")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    assert page.inner_text("#run-preview") == "From the Queen of hearts: 3 cards"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    settle(page)
    assert state(page)["selected"] == "c1:2"
    drag(page, "c1:2", "c2")
    assert state(page)["history"] == ["c1:2>c2"]


# ------------------------------------------------------------------ finish, dead end, no progress
def test_auto_finish_appears_runs_and_stops(open_page: Callable[..., Page], url: str) -> None:
    page = open_position(open_page, url, {"position": FINISH_AFTER_ONE})
    assert "Draw" in page.inner_text("#third") and not state(page)["finish"]["available"]
    drag(page, "c2", "c7")  # KC to the empty column: JH turns up, nothing is hidden any more
    assert state(page)["finish"]["available"]
    assert page.inner_text("#third").startswith("Finish")
    page.evaluate("() => { window.klondikeApp.finishDelay = 350; }")
    page.click("#third")
    page.wait_for_function("() => window.klondikeApp.state.cards_up >= 42")
    assert page.inner_text("#third").startswith("Stop")
    page.click("#third")  # pressing again stops it
    settle(page)
    stopped = state(page)["cards_up"]
    page.wait_for_timeout(700)
    assert state(page)["cards_up"] == stopped < 52, "the finish stopped"
    assert page.inner_text("#third").startswith("Finish")
    page.evaluate("() => { window.klondikeApp.finishDelay = 10; }")
    page.keyboard.press("f")
    page.wait_for_selector("#overlay[data-kind='result']")
    assert state(page)["cards_up"] == 52
    ups = [m for m in state(page)["history"] if m.endswith(">f")]
    assert len(ups) == 12, "one card at a time"


def test_no_legal_move_panel_with_its_four_exits(open_page: Callable[..., Page], url: str) -> None:
    p = dead_end()
    cols = [list(col) for col in p["columns"]]
    for col in cols:  # take the AC out to the waste; it goes up, and then nothing moves
        if "AC" in col:
            col.remove("AC")
    hidden = [len(c) - 1 for c in cols]
    body = {
        "position": {"columns": cols, "hidden": hidden, "stock": [], "waste": ["AC"]},
        "history": ["waste>f"],
    }
    page = open_position(open_page, url, body)
    page.wait_for_selector("#overlay[data-kind='dead-end']")
    assert "No legal move" in page.inner_text("#panel")
    assert page.locator("#panel-buttons button").all_inner_texts() == [
        "New deal",
        "Same deal again",
        "View the board",
        "Undo",
        "Analyse this game",
    ]
    page.click("#panel-buttons button:text('Undo')")
    settle(page)
    assert state(page)["history"] == [] and page.is_hidden("#overlay")
    page.click("#redo")
    settle(page)
    page.wait_for_selector("#overlay[data-kind='dead-end']")
    page.click("#panel-buttons button:text('Same deal again')")  # the same start, anew
    settle(page)
    again = state(page)
    assert again["history"] == [] and again["redo"] == [] and again["waste"]["fan"][0]["name"] == "AC"
    page.dispatch_event(selector("waste"), "click")  # a screen reader's activation: AC to its one target
    settle(page)
    page.wait_for_selector("#overlay[data-kind='dead-end']")
    page.click("#panel-buttons button:text('View the board')")
    assert page.is_hidden("#overlay") and state(page)["outcome"] == "dead_end"
    page.click("#stock")
    settle(page)
    assert "nothing to draw" in page.inner_text("#message")


def test_no_progress_notice_from_the_hint(open_page: Callable[..., Page], url: str) -> None:
    page = open_position(open_page, url, {"position": NO_PROGRESS})
    page.keyboard.press("h")
    page.wait_for_selector("#overlay[data-kind='no-progress']")
    assert "none of them leads anywhere new" in page.inner_text("#panel")
    assert page.locator("#panel-buttons button").all_inner_texts() == [
        "Close",
        "New deal",
        "Same deal again",
        "View the board",
        "Analyse this game",
    ]  # no Undo: at the position's start there is nothing to undo
    page.click("#panel-buttons button:text('Close')")
    assert page.is_hidden("#overlay")
    page.wait_for_function("() => (window.klondikeApp.state.verdict || {}).status === 'not_winnable'")
    assert "Not winnable" in page.inner_text("#verdict")
    drag(page, "fS", "c1")  # a foundation card dragged back to a column
    assert state(page)["history"] == ["fS>c1"]
    assert page.get_attribute(selector("c1"), "aria-label") == "5 of spades, column 1"


# ------------------------------------------------------------------ keyboard, hints, saving, phones
def test_keyboard_only_play_with_hint_preview_and_verdict(open_page: Callable[..., Page]) -> None:
    page = open_page()
    open_deal(page, DEAL_1)
    page.keyboard.press("Space")  # draw 3
    settle(page)
    assert [c["name"] for c in state(page)["waste"]["fan"]] == ["3H", "6D", "QH"]
    page.focus("#stock")
    page.keyboard.press("ArrowLeft")  # wraps round to column 7
    assert page.evaluate("() => document.activeElement.id") == "col-7"
    page.keyboard.press("Enter")  # AC: one target
    settle(page)
    assert state(page)["history"] == ["draw", "c7>f"]
    page.keyboard.press("u")
    settle(page)
    assert state(page)["history"] == ["draw"]
    page.keyboard.press("h")
    page.wait_for_selector(".ghost", timeout=60_000)  # the hint travels (the first hint loads the agent)
    hint = state(page)["hint"]
    assert hint["kind"] == "move"  # the planner's, or the trained agent's if the planner ran out of time
    assert (hint["agent"], hint["hint_source"]) in {("hop", "planner"), ("ppo", "agent"), ("greedy", "agent")}
    assert page.locator(".hinted").count() >= 1 and hint["from_place"]
    settle(page)
    assert page.locator(".ghost").count() == 0
    assert page.inner_text("#message").startswith("Hint (")
    page.wait_for_function("() => (window.klondikeApp.state.verdict || {}).status === 'unknown'")
    assert "cards are hidden" in page.inner_text("#verdict")  # issue 51: never what only the full deal tells
    page.keyboard.press("n")
    page.wait_for_selector("#overlay[data-kind='confirm']")
    page.keyboard.press("Enter")  # the focused first button: Replace
    settle(page)
    assert state(page)["deal"]["id"] != DEAL_1 and state(page)["history"] == []


def test_reload_resumes_paused_and_another_tab_stops_saving(open_page: Callable[..., Page]) -> None:
    page = open_page()
    open_deal(page, DEAL_1)
    for _ in range(2):
        page.click("#stock")
        settle(page)
    page.click("#undo")
    settle(page)
    before = state(page)
    page.reload()
    page.wait_for_selector("#overlay[data-kind='paused']")
    page.click("#panel-buttons button:text('Resume')")
    settle(page)
    after = state(page)
    assert after["history"] == before["history"] == ["draw"] and after["redo"] == ["draw"]
    hide = """(hidden) => { Object.defineProperty(document, "hidden", {value: hidden, configurable: true});
        document.dispatchEvent(new Event("visibilitychange")); return window.klondikeApp.clockFrom; }"""
    assert page.evaluate(hide, True) is None, "the clock stops while the tab is hidden"
    assert page.evaluate(hide, False) is not None
    assert after["operations"] == before["operations"]
    other = page.context.new_page()
    other.goto(page.url)
    other.wait_for_selector("#overlay[data-kind='paused']")
    other.click("#panel-buttons button:text('Resume')")
    other.click("#stock")
    other.evaluate("() => window.klondikeApp.busy")
    page.wait_for_selector("#tab-notice")
    assert "another tab" in page.inner_text("#tab-notice")
    other.evaluate("() => { window.klondikeApp.saving = false; }")
    other.evaluate("() => localStorage.setItem('solitaire-rl.klondike.save', '{bad')")
    other.reload()  # a corrupt save is reported and never overwritten
    other.wait_for_selector("#save-notice")
    assert "corrupt" in other.inner_text("#save-notice")
    other.click("#stock")
    settle(other)
    assert other.evaluate("() => localStorage.getItem('solitaire-rl.klondike.save')") == "{bad"


def test_phone_viewport_with_touch_and_screenshots(open_page: Callable[..., Page], artifacts: Any) -> None:
    page = open_page(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    open_deal(page, DEAL_1)
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.tap(selector("c7"))
    settle(page)
    assert state(page)["history"] == ["c7>f"]
    page.tap("#menu-button")  # on a phone the rules are in the menu
    page.tap("#rules-button")  # the rules page, and back: the game is kept
    assert page.is_visible("#rules") and "How to play Klondike" in page.inner_text("#rules")
    page.tap("#rules-back")
    assert page.is_visible("#game-view") and state(page)["history"] == ["c7>f"]
    page.tap("#stock")
    settle(page)
    cdp = page.context.new_cdp_session(page)  # a touch drag: QH from the waste onto KC
    x, y = center(page, selector("waste"))
    tx, ty = center(page, "#col-3")
    touch(cdp, "touchStart", x, y)
    touch(cdp, "touchMove", x + 10, y + 10)
    touch(cdp, "touchMove", tx, ty + 30)
    touch(cdp, "touchEnd", tx, ty + 30)
    settle(page)
    assert state(page)["history"] == ["c7>f", "draw", "waste>c3"]
    page.screenshot(path=str(artifacts / "klondike-phone.png"), full_page=True)
    page.set_viewport_size({"width": 844, "height": 390})  # rotate: the game stays
    settle(page)
    assert state(page)["history"] == ["c7>f", "draw", "waste>c3"]
    desk = open_page()
    open_deal(desk, DEAL_1)
    desk.click("#stock")
    settle(desk)
    desk.click("#fullscreen")  # entering and leaving full screen keeps the game
    desk.wait_for_function("() => !!document.fullscreenElement")
    desk.click("#fullscreen")
    desk.wait_for_function("() => !document.fullscreenElement")
    settle(desk)
    assert state(desk)["history"] == ["draw"] and desk.get_attribute("#fullscreen", "aria-pressed") == "false"
    desk.screenshot(path=str(artifacts / "klondike-desktop.png"))
    assert not page.errors and not desk.errors


def test_the_page_speaks_the_seeds_japanese_on_request(open_page: Callable[..., Page]) -> None:
    page = open_page()
    open_deal(page, DEAL_1)
    page.click("#lang")
    assert page.inner_text("#undo").startswith("取り消し") and page.inner_text("#status-moves") == "手数 0"
    assert page.get_attribute("html", "lang") == "ja"
    drag(page, "c6", "c1")  # refused: the seed's message in Japanese
    assert page.inner_text("#message") == "置き先の札より 1 つ小さく、色が反対の札しか置けません"
    assert "7 列目" in page.get_attribute("#col-7", "aria-label")
    page.reload()  # the choice is kept (shared with the Pyramid page)
    page.wait_for_selector("#overlay[data-kind='paused']")
    assert page.inner_text("#panel-title") == "一時停止中"
    page.click("#panel-buttons button")
    page.click("#lang")
    assert page.inner_text("#undo").startswith("Undo") and not page.errors


def test_the_pyramid_page_links_to_klondike_and_back(browser: Any, url: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(url + "/")
        page.click("#to-klondike")
        page.wait_for_selector("#columns .card")
        assert page.url.endswith("/klondike")
        page.click("#to-pyramid")
        page.wait_for_url(url + "/")
    finally:
        context.close()
