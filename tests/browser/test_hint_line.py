"""Issue 51 (defect 6): the hint line on the main screen speaks to a player, on both pages, in English
and Japanese, at 1280x800 and 390x844 (touch).

* At the page's own source (Klondike: the commitment planner; Pyramid: the planner) the line reads
  "Hint: <move> — <why>" and names no engine.
* When that source ran out of time and another answered, the line ends saying so in a player's words.
* The move's words run on into their reason: "Draw 3 cards from the stock — a free look ...", with no
  full stop before the dash.
* A source chosen under Advanced is named ("Hint (trained agent): ..."), and so is the planner on
  Klondike, where it is not the page's own; on Pyramid the planner is the page's own and is not named.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.conftest import HINT_SOURCE_KEY, settle

Page = Any
SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
}
PAGES = {"pyramid": ("/", "#pyramid .card", "pyramidApp"),
         "klondike": ("/klondike", "#columns .card", "klondikeApp")}
PLAIN = {"en": "Hint: ", "ja": "ヒント："}
JOIN = {"en": " — ", "ja": "。"}
QUICK = {"en": " (there was no time to think it through; a quicker answer)",  # issue 51: no "planner"
         "ja": "（考える時間が足りず、手早く答える相手のヒントです）"}
ENGINE = re.compile(r"planner|commitment|agent|network|search|simple player|"
                    r"プランナー|エージェント|ネットワーク|探索|簡単なプレイヤー", re.IGNORECASE)
"""The sources' names as the page words them (the Advanced panel's "Hints from")."""


def open_game(new_page: Callable[..., Page], which: str, size: str, lang: str, source: str = "") -> Page:
    """``which`` page with ``lang`` and the hint source ``source`` kept ("": the page's own)."""
    path, ready, _ = PAGES[which]
    return new_page(path=path, ready=ready, storage={"solitaire-rl.lang": lang, HINT_SOURCE_KEY: source},
                    **SIZES[size])


def ask_hint(page: Page, which: str, size: str) -> dict[str, Any]:
    """Press Hint as the player would; the hint the state then carries."""
    (page.tap if size == "phone" else page.click)("#hint")
    app = PAGES[which][2]
    settle(page, app)
    hint = page.evaluate(f"() => window.{app}.state.hint")
    assert hint is not None and hint["kind"] == "move", hint
    return hint


def words(hint: dict[str, Any], lang: str) -> str:
    """The move and its reason as the line shows them after its opening."""
    reason = hint["reason_ja"] if lang == "ja" else hint["reason_en"]
    said = hint["ja"] if lang == "ja" else hint["en"]
    return said.removesuffix(".") + JOIN[lang] + reason if reason else said


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("which", list(PAGES))
def test_a_hint_from_the_pages_own_source_names_no_engine(
    new_page: Callable[..., Page], which: str, size: str, lang: str
) -> None:
    page = open_game(new_page, which, size, lang)
    own = page.evaluate("() => defaultHintSource()")
    assert own == {"pyramid": "planner", "klondike": "commitment"}[which]
    hint = ask_hint(page, which, size)
    assert hint["requested"] == own
    line = page.inner_text("#message")
    quick = QUICK[lang] if hint["fallbacks"] else ""
    assert line == PLAIN[lang] + words(hint, lang) + quick, line
    assert not ENGINE.search(line.removesuffix(quick)), line
    assert page.errors == []


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("which", list(PAGES))
def test_a_quicker_answer_at_the_pages_own_source_says_so_in_a_players_words(
    new_page: Callable[..., Page], which: str, lang: str
) -> None:
    """The server's hint is made to say its source ran out of time (the trained agent answered)."""
    page = open_game(new_page, which, "desktop", lang)

    def late(route: Any) -> None:
        response = route.fetch()
        body = response.json()
        body["hint"].update(hint_source="agent", agent="ppo", fallbacks=["planner_late"],
                            fallback_reason="the planner ran out of time")
        route.fulfill(response=response, body=json.dumps(body))

    page.route("**/hint?*", late)
    hint = ask_hint(page, which, "desktop")
    line = page.inner_text("#message")
    assert line == PLAIN[lang] + words(hint, lang) + QUICK[lang], line
    assert page.errors == []


@pytest.mark.parametrize(("size", "lang"), [("desktop", "en"), ("phone", "ja")])
@pytest.mark.parametrize("which", list(PAGES))
def test_a_source_chosen_under_advanced_is_named(
    new_page: Callable[..., Page], which: str, size: str, lang: str
) -> None:
    page = open_game(new_page, which, size, lang)
    if size == "phone":
        page.tap("#menu-button")
    if not page.is_visible("#hint-source"):
        (page.tap if size == "phone" else page.click)("#advanced-summary")
    page.select_option("#hint-source", "agent")
    if size == "phone":
        page.tap("#menu-button")
    hint = ask_hint(page, which, size)
    assert hint["requested"] == "agent"
    who = {("ppo", "en"): "trained agent", ("greedy", "en"): "simple player",
           ("ppo", "ja"): "学習済みエージェント", ("greedy", "ja"): "簡単なプレイヤー"}[hint["agent"], lang]
    opening = {"en": f"Hint ({who}", "ja": f"ヒント（{who}"}[lang]
    line = page.inner_text("#message")
    assert line.startswith(opening) and line.endswith(words(hint, lang)), line
    assert page.errors == []


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_planner_is_named_on_klondike_only_where_it_is_not_the_pages_own(
    new_page: Callable[..., Page], lang: str
) -> None:
    named = {"en": "Hint (planner", "ja": "ヒント（プランナー"}[lang]
    page = open_game(new_page, "klondike", "desktop", lang, source="planner")
    hint = ask_hint(page, "klondike", "desktop")
    line = page.inner_text("#message")
    assert hint["requested"] == "planner" and line.startswith(named), line
    page = open_game(new_page, "pyramid", "desktop", lang, source="planner")
    hint = ask_hint(page, "pyramid", "desktop")
    line = page.inner_text("#message")
    assert hint["requested"] == "planner" and line.startswith(PLAIN[lang]), line
