"""The analysis viewer in Chromium at a desktop's 1280x800 and a phone's 390x844 (touch): a finished
game move by move with the solver's verdicts (the same as the analysis computed here), the losing move
marked, its winning alternative framed on the board, keys and buttons, both languages, no engine code,
axe-core with no serious finding; the dead-end panel's "Analyse this game"; an agent's game opened
from a benchmark JSON file."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from solitaire_rl.agents.analysis import analyse_game
from solitaire_rl.training.benchmark import Args, main
from tests.browser.test_layout import SIZES, check_axe, check_words
from tests.browser.test_pyramid_page import resume, saved_game, with_save
from tests.play_api_helpers import random_pyramid_game

Page = Any
DEAL = "pyramid-random-v1-5"
MUST_SEE = ["#board", "#first", "#prev", "#next", "#last", "#to-losing", "#alternative", "#summary",
            '#moves [aria-current="step"]']
GEOMETRY = """(sel) => {
  const out = [];
  for (const s of sel) {
    const el = document.querySelector(s);
    if (!el) { out.push({name: s, missing: true}); continue; }
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(8, r.height / 2));
    out.push({name: s, left: r.left, top: r.top, right: r.right, bottom: r.bottom,
              hit: !!hit && (hit === el || el.contains(hit))});
  }
  return {out, width: innerWidth, height: innerHeight,
          scrolls: document.documentElement.scrollHeight > innerHeight + 1};
}"""


def random_game() -> list[str]:
    """A random game of variant 001 to its dead end (its losing move is the analysis's to find)."""
    return random_pyramid_game(DEAL)


@pytest.fixture(scope="module")
def expected() -> Any:
    moves = random_game()
    return moves, analyse_game("pyramid-001", DEAL, moves)


@pytest.fixture
def open_context(browser: Any) -> Iterator[Callable[..., Any]]:
    contexts = []

    def make(size: str) -> Any:
        context = browser.new_context(**SIZES[size])
        context.set_default_timeout(20_000)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


def new_page(context: Any) -> Page:
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def finished_session(page: Page, base_url: str, moves: list[str]) -> str:
    def post(path: str, body: dict[str, Any]) -> dict[str, Any]:
        r = page.request.post(base_url + path, data=json.dumps(body),
                              headers={"content-type": "application/json"})
        assert r.ok, r.text()
        return r.json()

    session = post("/api/games", {"variant": "001", "deal": DEAL})["session"]
    for move in moves:
        post(f"/api/games/{session}/actions", {"type": "move", "move": move})
    return session


def shown(page: Page) -> None:
    page.wait_for_selector("#analysis:not([hidden])")
    page.evaluate("() => window.analysisApp.busy")
    page.wait_for_function("() => { const i = document.getElementById('board'); "
                           "return i.complete && i.naturalWidth > 0; }")


def pos(page: Page) -> int:
    return page.evaluate("() => window.analysisApp.pos")


def check_layout(page: Page, state: str) -> None:
    found = page.evaluate(GEOMETRY, MUST_SEE)
    assert not found["scrolls"], f"{state}: the page scrolls"
    for p in found["out"]:
        assert not p.get("missing"), f"{state}: {p['name']} is missing"
        inside = p["left"] >= 0 and p["top"] >= 0 and p["right"] <= found["width"] + 0.5 and \
            p["bottom"] <= found["height"] + 0.5
        assert inside, f"{state}: {p['name']} is outside the screen: {p}"
        assert p["hit"], f"{state}: {p['name']} is covered"


def press(page: Page, selector: str, touch: bool) -> None:
    page.tap(selector) if touch else page.click(selector)
    page.wait_for_function("() => document.getElementById('board').complete")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_viewer_steps_through_a_finished_game_in_both_languages(
    open_context: Callable[..., Any], base_url: str, expected: Any, size: str, artifacts: Path
) -> None:
    moves, report = expected
    touch = size == "phone"
    page = new_page(open_context(size))
    session = finished_session(page, base_url, moves)
    page.goto(f"{base_url}/analysis?game=pyramid&session={session}")
    shown(page)
    k = report.first_losing_move
    assert report.outcome == "lost_at_move" and pos(page) == k + 1  # it opens on the losing move
    # every verdict on the page is the analysis's, which agrees with the solver (tests/test_analysis.py)
    listed = page.eval_on_selector_all("#moves button", "(bs) => bs.map((b) => b.dataset.verdict)")
    assert listed == list(report.verdicts)
    losing = page.locator("#moves button.losing")
    assert losing.count() == 1 and losing.get_attribute("aria-current") == "step"
    assert page.inner_text("#summary") == f"After move {k + 1} the game could no longer be won."
    judgement = report.losing_move.hindsight.judgement
    words = "only in hindsight" if judgement == "hindsight" else "could have seen"
    assert words in page.inner_text("#judgement")
    check_layout(page, f"{size}: the losing move")
    check_words(page, f"{size}: the losing move")
    check_axe(page, f"{size}: the losing move")
    page.screenshot(path=str(artifacts / f"analysis-{size}.png"))

    press(page, "#prev", touch)
    assert pos(page) == k
    press(page, "#first", touch)
    assert pos(page) == 0 and page.get_attribute("#prev", "aria-disabled") == "true"
    assert page.get_attribute("#board", "src").endswith("/frames/0.png")
    press(page, "#last", touch)
    assert pos(page) == len(moves) and page.get_attribute("#next", "aria-disabled") == "true"
    if not touch:  # the keys
        page.keyboard.press("Home")
        assert pos(page) == 0
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        assert pos(page) == 2
        page.keyboard.press("ArrowLeft")
        assert pos(page) == 1
        page.keyboard.press("End")
        assert pos(page) == len(moves)
        page.keyboard.press("l")
        assert pos(page) == k + 1
    press(page, "#alternative", touch)  # the winning alternative, framed on the position before the loss
    page.wait_for_function("() => document.getElementById('board').complete")
    assert pos(page) == k and page.get_attribute("#alternative", "aria-pressed") == "true"
    assert "show=alternative" in page.get_attribute("#board", "src")
    assert page.inner_text("#caption").startswith(f"Instead of move {k + 1}, a winning move was: ")
    check_layout(page, f"{size}: the alternative")
    check_words(page, f"{size}: the alternative")
    page.screenshot(path=str(artifacts / f"analysis-{size}-alternative.png"))

    press(page, "#lang", touch)  # the seeds' Japanese
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert page.inner_text("#summary") == f"{k + 1} 手目のあと、もう勝てなくなりました。"
    assert page.inner_text("#caption").startswith(f"{k + 1} 手目の代わりに勝てた手：")
    assert "まだ勝てる" in page.inner_text("#moves")
    check_layout(page, f"{size}: Japanese")
    check_words(page, f"{size}: Japanese")
    check_axe(page, f"{size}: Japanese")
    page.screenshot(path=str(artifacts / f"analysis-{size}-ja.png"))
    assert not page.errors


def test_a_game_in_play_is_not_analysed_and_the_dead_end_panel_opens_the_viewer(
    open_context: Callable[..., Any], browser: Any, base_url: str, expected: Any
) -> None:
    moves, report = expected
    page = new_page(open_context("desktop"))
    r = page.request.post(base_url + "/api/games", data=json.dumps({"variant": "001", "deal": DEAL}),
                          headers={"content-type": "application/json"})
    in_play = page.request.post(base_url + "/api/analysis",
                                data=json.dumps({"game": "pyramid", "session": r.json()["session"]}),
                                headers={"content-type": "application/json"})
    assert in_play.status == 409 and in_play.json()["error"] == "GAME_NOT_OVER"

    def new(**options: Any) -> Page:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.set_default_timeout(20_000)
        game = context.new_page()
        game.goto(base_url + "/static/common.css")
        game.evaluate("(items) => { for (const [k, v] of Object.entries(items)) "
                      "localStorage.setItem(k, v); }", options["storage"])
        game.goto(base_url + "/")
        game.wait_for_selector("#pyramid .card")
        return game

    game = with_save(new, saved_game(DEAL, moves, variant="001", label=DEAL))
    game.evaluate("() => window.pyramidApp.busy")
    resume(game)
    assert game.get_attribute("#overlay", "data-kind") == "dead-end"
    game.click("#panel-buttons button:text('Analyse this game')")
    game.wait_for_url("**/analysis?game=pyramid&session=*")
    shown(game)
    assert pos(game) == report.first_losing_move + 1
    game.click("#back")  # back to the game: the save restores it, paused
    game.wait_for_selector("#overlay[data-kind='paused']")
    game.context.close()


def test_an_agents_game_from_a_benchmark_file(open_context: Callable[..., Any], base_url: str,
                                              tmp_path: Path, artifacts: Path) -> None:
    out = tmp_path / "bench.json"
    rows, _, _ = main(Args(game="klondike", deals="4", agents="random,greedy", workers=1, json=str(out)))
    row = next(r for r in rows if r.agent == "random")
    assert row.analysis == "lost_at_move"
    for size in SIZES:
        page = new_page(open_context(size))
        page.goto(base_url + "/analysis")
        page.wait_for_selector("#chooser:not([hidden])")
        page.set_input_files("#file", str(out))
        page.wait_for_function("() => !document.getElementById('rows').disabled")
        labels = page.eval_on_selector_all("#rows option", "(os) => os.map((o) => o.textContent)")
        assert len(labels) == len(rows) and "random on klondike-random-v1-4" in labels[0]
        page.select_option("#rows", index=[r.agent for r in rows].index("random"))
        page.click("#watch")
        shown(page)
        assert page.inner_text("#summary").startswith("The random agent's game. After move "
                                                      f"{row.first_losing_move + 1} the game")
        assert pos(page) == row.first_losing_move + 1
        assert page.evaluate("() => document.getElementById('board').naturalWidth") == 560
        check_layout(page, f"{size}: an agent's game")
        check_words(page, f"{size}: an agent's game")
        check_axe(page, f"{size}: an agent's game")
        page.screenshot(path=str(artifacts / f"analysis-klondike-{size}.png"))
        page.click("#other")
        assert page.is_visible("#chooser")
        assert not page.errors
