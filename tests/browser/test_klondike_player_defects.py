"""Issue 37's defects on the Klondike page, in a real browser: each as the new player met it.

* after a win, View the board keeps the result within reach (the message says so, Hint shows the
  panel again with Analyse this game), and a second win after Undo (by Redo, Finish or by hand)
  shows "You won!" again, recorded once;
* with every card known, following the hints wins without a position coming back;
* a Japanese browser gets the page in Japanese (a stored choice still wins);
* with the server down the message says so plainly and the verdict is marked not checked; after
  a restart the tap that finds the game gone restores it and is carried out.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from solitaire_rl.agents.planner.revisits import table_key
from solitaire_rl.agents.solver import SearchLimits
from solitaire_rl.envs.klondike import Move
from solitaire_rl.play.server.klondike_advice import KlondikeVerdictService
from solitaire_rl.play.server.klondike_api import KlondikeServer, mount_klondike
from tests.browser.test_klondike_page import selector, settle, state
from tests.test_play_klondike_api import DEAL_1, FINISH, known_endgame

Page = Any
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
WON = {"en": "You won!", "ja": "勝ちました！"}
VIEW = {"en": "View the board", "ja": "盤面を見る"}
ANALYSE = {"en": "Analyse this game", "ja": "この局を振り返る"}


class Restartable:
    """The play app with Klondike mounted, served in a thread on one port, stopped and started again."""

    def __init__(self) -> None:
        self.port = 0
        self.url = ""
        self.start()

    def start(self) -> None:
        from solitaire_rl.play.server import create_app
        from solitaire_rl.play.server.cli import serve_in_thread

        self.server = KlondikeServer(verdicts=KlondikeVerdictService(SearchLimits(time_limit=5.0), workers=1))
        self.uvicorn, self.thread, self.url = serve_in_thread(mount_klondike(create_app(), self.server),
                                                              port=self.port)
        self.port = int(self.url.rsplit(":", 1)[1])

    def stop(self) -> None:
        self.uvicorn.should_exit = True
        self.thread.join(timeout=10)
        self.server.verdicts.shutdown()


@pytest.fixture(scope="module")
def served() -> Iterator[Restartable]:
    s = Restartable()
    yield s
    s.stop()


@pytest.fixture
def page_at(browser: Any, served: Restartable) -> Iterator[Callable[..., Page]]:
    """``page_at(path, lang=None, **context)``: a page in a fresh context; ``lang`` stored as the choice."""
    contexts = []

    def make(path: str = "/klondike", lang: str | None = None, **options: Any) -> Page:
        context = browser.new_context(**{**DESKTOP, **options})
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.errors = errors
        if lang:
            page.goto(served.url + "/static/common.css")
            page.evaluate("(lang) => localStorage.setItem('solitaire-rl.lang', lang)", lang)
        page.goto(served.url + path)
        page.wait_for_selector("#columns .card")
        settle(page)
        return page

    yield make
    for context in contexts:
        context.close()


def new_session(served: Restartable, page: Page, body: dict[str, Any]) -> str:
    r = page.request.post(served.url + "/api/klondike/games", data=json.dumps(body),
                          headers={"content-type": "application/json"})
    assert r.status == 201, r.text()
    return str(r.json()["session"])


def open_session(page_at: Callable[..., Page], served: Restartable, body: dict[str, Any],
                 **options: Any) -> Page:
    page = page_at(**options)
    session = new_session(served, page, body)
    page.goto(f"{served.url}/klondike?session={session}")
    page.wait_for_selector("#columns .card")
    settle(page)
    assert state(page)["session"] == session
    return page


def press(page: Page, sel: str, phone: bool) -> None:
    """A tap on a phone, a click on a desktop; then wait for the page."""
    if phone:
        page.tap(sel)
    else:
        page.click(sel)
    settle(page)


def panel_button(page: Page, label: str) -> str:
    return f"#panel-buttons button:text('{label}')"


def records(page: Page) -> list[dict[str, Any]]:
    return page.evaluate("() => JSON.parse(localStorage.getItem('solitaire-rl.klondike.records')).items")


# ------------------------------------------------------------------ the result after View the board
@pytest.mark.parametrize(("size", "lang"), [("desktop", "en"), ("phone", "ja")])
def test_view_the_board_keeps_the_result_and_every_later_win_shows_it_again(
    page_at: Callable[..., Page], served: Restartable, size: str, lang: str
) -> None:
    phone = size == "phone"
    page = open_session(page_at, served, {"position": FINISH}, lang=lang, **(PHONE if phone else DESKTOP))
    page.evaluate("() => { window.klondikeApp.finishDelay = 0; }")
    press(page, "#third", phone)  # Finish: QH and the four Kings go up
    page.wait_for_selector("#overlay[data-kind='result']")
    assert WON[lang] in page.inner_text("#panel-title")
    press(page, panel_button(page, VIEW[lang]), phone)
    assert page.is_hidden("#overlay")
    assert page.inner_text("#message").startswith(WON[lang]), "the board says the game is won"
    press(page, "#hint", phone)  # Hint after the win: the result again, with the analysis
    page.wait_for_selector("#overlay[data-kind='result']")
    assert ANALYSE[lang] in page.locator("#panel-buttons button").all_inner_texts()
    press(page, panel_button(page, VIEW[lang]), phone)
    assert page.evaluate("() => window.klondikeApp.clockFrom") is None  # stopped at the win

    press(page, "#undo", phone)
    assert state(page)["outcome"] != "win" and page.is_hidden("#overlay")
    assert page.evaluate("() => window.klondikeApp.clockFrom") is not None  # play on: the clock runs
    press(page, "#redo", phone)  # won again by Redo
    page.wait_for_selector("#overlay[data-kind='result']")
    assert WON[lang] in page.inner_text("#panel-title")
    press(page, panel_button(page, VIEW[lang]), phone)

    press(page, "#undo", phone)  # won again by Finish
    press(page, "#third", phone)
    page.wait_for_selector("#overlay[data-kind='result']")
    press(page, panel_button(page, VIEW[lang]), phone)

    press(page, "#undo", phone)  # won again by hand: the King tapped, then its foundation
    undone = state(page)["redo"][0]
    assert undone.endswith(">f")
    press(page, selector(undone.split(">")[0]), phone)
    foundation = next(p for p in state(page)["selected_targets"] if p.startswith("f"))
    press(page, selector(foundation), phone)
    page.wait_for_selector("#overlay[data-kind='result']")
    assert state(page)["outcome"] == "win"
    assert len(records(page)) == 1, "won four times, recorded once"
    assert not page.errors


# ------------------------------------------------------------------ hints with every card known
def test_following_the_hints_with_every_card_known_never_comes_back(
    page_at: Callable[..., Page], served: Restartable
) -> None:
    """Deal 9 once every card is known: the hints (H) shuttled a card between its foundation and a
    column; followed now, they win and no position comes back."""
    deal = "klondike-random-v1-9"
    game = known_endgame(deal)
    page = open_session(page_at, served, {"deal": deal, "history": [str(m) for m in game.history]})
    met = {table_key(game)}
    for _ in range(120):
        page.keyboard.press("h")
        settle(page)
        hint = state(page)["hint"]
        assert hint and hint["kind"] == "move", hint
        assert "every card is known: this move is on a winning line" in page.inner_text("#message")
        page.evaluate("(move) => act({type: 'move', move})", hint["move"])
        settle(page)
        game.push(Move.parse(hint["move"]))
        assert state(page)["history"] == [str(m) for m in game.history]
        assert table_key(game) not in met, f"{hint['move']} goes back to a position met before"
        met.add(table_key(game))
        if game.is_won():
            break
    page.wait_for_selector("#overlay[data-kind='result']")
    assert not page.errors


# ------------------------------------------------------------------ the browser's language
@pytest.mark.parametrize("options", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_japanese_browser_gets_the_page_in_japanese(page_at: Callable[..., Page],
                                                      options: dict[str, Any]) -> None:
    page = page_at(locale="ja-JP", **options)
    assert page.get_attribute("html", "lang") == "ja"
    assert page.inner_text("#status-moves") == "手数 0" and page.inner_text("#lang") == "English"
    chosen = page_at(locale="ja-JP", lang="en", **options)  # a choice made on the page wins
    assert chosen.get_attribute("html", "lang") == "en" and chosen.inner_text("#status-moves") == "Moves 0"
    english = page_at(locale="en-GB", **options)
    assert english.get_attribute("html", "lang") == "en"
    assert not page.errors and not chosen.errors and not english.errors


# ------------------------------------------------------------------ the server down, then restarted
@pytest.mark.parametrize(("size", "lang"), [("desktop", "en"), ("phone", "ja")])
def test_server_down_is_said_plainly_and_the_tap_after_a_restart_is_carried_out(
    page_at: Callable[..., Page], served: Restartable, size: str, lang: str
) -> None:
    phone = size == "phone"
    page = open_session(page_at, served, {"deal": DEAL_1}, lang=lang, **(PHONE if phone else DESKTOP))
    page.wait_for_function("() => (window.klondikeApp.state.verdict || {}).basis === 'hidden'")
    fresh = page.inner_text("#verdict")
    served.stop()
    try:
        press(page, selector("c7"), phone)  # AC up: no answer
        text = page.inner_text("#message")
        assert "Failed to fetch" not in text
        assert ("server cannot be reached" if lang == "en" else "サーバーにつながりません") in text
        assert page.get_attribute("#verdict", "data-status") == "offline"
        assert page.inner_text("#verdict") != fresh
        assert ("not checked" if lang == "en" else "確認できません") in page.inner_text("#verdict")
        assert state(page)["history"] == []
    finally:
        served.start()  # the same port, a new server that knows no game
    press(page, selector("c7"), phone)  # the game is restored from its moves, then the tap is played
    assert state(page)["history"] == ["c7>f"]
    assert ("restored" if lang == "en" else "復元") in page.inner_text("#message")
    page.wait_for_function("() => (window.klondikeApp.state.verdict || {}).basis === 'hidden'")
    assert page.get_attribute("#verdict", "data-status") == "unknown"
    assert not page.errors

