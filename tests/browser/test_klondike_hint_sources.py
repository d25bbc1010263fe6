"""The "Hints from" choice of the expert network and the network-guided search, in a real browser
at 1280x800 and 390x844, in English and Japanese, on the Klondike page (and the Pyramid page's
variant 000): the option reads in the page's language, the hint names who answered and fits its
message box, the table stays in view, and the choice is kept (shared by both pages). Without a
network the hint says so. Screenshots: ``/tmp/hintsrc-{size}-{lang}-{source}.png`` (Klondike),
``/tmp/hintsrc-pyramid-{size}-{lang}-{source}.png`` and ``...-nonet.png``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_klondike_page import open_menu, settle, state
from tests.browser.test_klondike_winnable_page import MUST_SEE, SIZES, close_menu
from tests.browser.test_layout import PAGES, check_layout, check_words

Page = Any
OPTION = {("network", "en"): "the expert network", ("guided", "en"): "the network-guided search",
          ("network", "ja"): "エキスパートネットワーク", ("guided", "ja"): "ネットワークが導く探索"}
NAMED = {("network", "en"): "Hint (expert network", ("guided", "en"): "Hint (network-guided search",
         ("network", "ja"): "ヒント（エキスパートネットワーク",
         ("guided", "ja"): "ヒント（ネットワークが導く探索"}
"""How the hint line starts for who answered (the guided search out of time: the network, saying so)."""
LATE = {"en": ", the guided search ran out of time): ", "ja": "、探索は時間切れ）："}
FITS = """(sel) => { const el = document.querySelector(sel), r = el.getBoundingClientRect();
  return {fits: el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth + 1,
          inside: r.left >= 0 && r.top >= 0 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5,
          text: el.innerText, scroll: [el.scrollWidth, el.scrollHeight],
          client: [el.clientWidth, el.clientHeight]}; }"""


@pytest.fixture
def page_at(browser: Any, base_url: str) -> Iterator[Callable[..., Page]]:
    """``page_at(size, lang)``: the Klondike page on a fixed deal, ``lang`` stored as the choice
    (``base``: another server's URL)."""
    contexts = []

    def make(size: str, lang: str, base: str = base_url) -> Page:
        base_url = base
        context = browser.new_context(**SIZES[size])
        context.set_default_timeout(60_000)  # the first network hint loads torch and the checkpoint
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.goto(base_url + "/static/common.css")
        page.evaluate("(lang) => localStorage.setItem('solitaire-rl.lang', lang)", lang)
        page.goto(base_url + "/klondike")
        page.wait_for_selector("#columns .card")
        settle(page)
        open_menu(page)
        page.fill("#deal-input", "klondike-random-v1-100001")
        page.press("#deal-input", "Enter")
        settle(page)
        if page.is_visible("#overlay") and page.get_attribute("#overlay", "data-kind") == "confirm":
            page.click("#panel-buttons button >> nth=0")
            settle(page)
        close_menu(page)
        assert state(page)["deal"]["id"] == "klondike-random-v1-100001"
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture(scope="module")
def no_network_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A play server whose expert-network checkpoint is missing."""
    from solitaire_rl.agents.solver import SearchLimits
    from solitaire_rl.play.server import create_app
    from solitaire_rl.play.server.cli import serve_in_thread
    from solitaire_rl.play.server.klondike_advice import KlondikeHintAdvisor, KlondikeVerdictService
    from solitaire_rl.play.server.klondike_api import KlondikeServer, mount_klondike

    missing: Path = tmp_path_factory.mktemp("nonet") / "missing.zip"
    server = KlondikeServer(hints=KlondikeHintAdvisor(expert_checkpoint=missing),
                            verdicts=KlondikeVerdictService(SearchLimits(time_limit=2.0), workers=1))
    uvicorn_server, thread, base = serve_in_thread(mount_klondike(create_app(), server))
    yield base
    uvicorn_server.should_exit = True
    thread.join(timeout=10)


def choose_source(page: Page, source: str) -> None:
    open_menu(page)
    page.select_option("#hint-source", source)
    close_menu(page)


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", list(SIZES))
def test_each_new_source_answers_names_itself_and_fits(page_at: Callable[..., Page], size: str,
                                                       lang: str) -> None:
    page = page_at(size, lang)
    for source in ("network", "guided"):
        open_menu(page)
        option = page.locator(f'#hint-source option[value="{source}"]')
        assert option.inner_text() == OPTION[source, lang]
        close_menu(page)
        choose_source(page, source)
        assert page.evaluate("() => window.klondikeApp.hintSource") == source
        page.click("#hint")
        settle(page)
        hint = state(page)["hint"]
        assert hint["kind"] == "move" and hint["requested"] == source, hint
        text = page.inner_text("#message")
        if hint["hint_source"] == source:
            assert text.startswith(NAMED[source, lang] + ("): " if lang == "en" else "）：")), text
        else:  # the guided search ran out of its second: the network's move, saying so
            assert (source, hint["hint_source"]) == ("guided", "network"), hint
            assert text.startswith(NAMED["network", lang] + LATE[lang]), text
        box = page.evaluate(FITS, "#message")
        assert box["fits"] and box["inside"], f"{size}-{lang}-{source}: {box}"
        check_layout(page, MUST_SEE, f"{size}-{lang}-{source}")
        if size == "desktop":  # the header keeps its two rows: the longer options push nothing down
            header = page.evaluate("() => document.querySelector('header').getBoundingClientRect().height")
            assert header < 100, f"{size}-{lang}-{source}: the header is {header}px high"
        check_words(page, f"{size}-{lang}-{source}")
        page.screenshot(path=f"/tmp/hintsrc-{size}-{lang}-{source}.png")
    assert not page.errors


def test_the_choice_is_kept_and_shared_with_the_pyramid_page(page_at: Callable[..., Page],
                                                             base_url: str) -> None:
    page = page_at("desktop", "en")
    choose_source(page, "guided")
    page.reload()
    page.wait_for_selector("#columns .card")
    settle(page)
    assert page.evaluate("() => window.klondikeApp.hintSource") == "guided"
    assert page.input_value("#hint-source") == "guided"
    page.goto(base_url + "/")
    page.wait_for_selector("#pyramid .card")
    assert page.evaluate("() => window.pyramidApp.hintSource") == "guided"
    assert page.input_value("#hint-source") == "guided" and not page.errors


PYRAMID_NAMED = {("guided", "en"): "Hint (network-guided search): ",
                 ("guided", "ja"): "ヒント（ネットワークが導く探索）：",
                 ("network", "en"): "Hint (expert network): ",
                 ("network", "ja"): "ヒント（エキスパートネットワーク）："}


def pyramid_settle(page: Page) -> None:
    page.evaluate("() => window.pyramidApp.busy.then(() => window.pyramidApp.hinting)"
                  ".then(() => window.pyramidApp.busy).then(() => true)")


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_pyramid_page_offers_the_new_sources_too(browser: Any, base_url: str, size: str,
                                                     lang: str) -> None:
    context = browser.new_context(**SIZES[size])
    context.set_default_timeout(60_000)
    try:
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.goto(base_url + "/static/common.css")
        page.evaluate("(lang) => localStorage.setItem('solitaire-rl.lang', lang)", lang)
        page.goto(base_url + "/")
        page.wait_for_selector("#pyramid .card")
        pyramid_settle(page)
        for source in ("network", "guided"):
            open_menu(page)
            assert page.locator(f'#hint-source option[value="{source}"]').inner_text() == OPTION[source, lang]
            page.select_option("#hint-source", source)
            close_menu(page)
            page.click("#hint")
            pyramid_settle(page)
            hint = page.evaluate("() => window.pyramidApp.state.hint")
            assert hint["requested"] == source, hint
            text = page.inner_text("#message")
            if hint["hint_source"] == source:
                assert text.startswith(PYRAMID_NAMED[source, lang]), text
            else:  # out of time: the network answers, saying so
                assert text.startswith(NAMED["network", lang] + LATE[lang]), text
            box = page.evaluate(FITS, "#message")
            assert box["fits"] and box["inside"], f"pyramid-{size}-{lang}-{source}: {box}"
            check_layout(page, PAGES["pyramid"]["must_see"], f"pyramid-{size}-{lang}-{source}")
            check_words(page, f"pyramid-{size}-{lang}-{source}")
            page.screenshot(path=f"/tmp/hintsrc-pyramid-{size}-{lang}-{source}.png")
        assert not page.errors
    finally:
        context.close()


DOWN = {("network", "en"): "Hint (trained agent, no expert network): ",
        ("network", "ja"): "ヒント（学習済みエージェント、ネットワークは使えません）：",
        ("guided", "en"): "Hint (planner, no expert network): ",
        ("guided", "ja"): "ヒント（プランナー、ネットワークは使えません）："}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_without_the_network_the_hint_says_so_and_fits_on_a_phone(page_at: Callable[..., Page],
                                                                  no_network_url: str, lang: str) -> None:
    page = page_at("phone", lang, no_network_url)
    for source in ("network", "guided"):
        choose_source(page, source)
        page.click("#hint")
        settle(page)
        hint = state(page)["hint"]
        assert hint["requested"] == source and hint["fallback_reason"], hint
        if hint["hint_source"] == "agent" and source == "guided":  # the planner too ran out of time
            continue
        text = page.inner_text("#message")
        assert text.startswith(DOWN[source, lang]), text
        box = page.evaluate(FITS, "#message")
        assert box["fits"] and box["inside"], f"phone-{lang}-{source} without the network: {box}"
        page.screenshot(path=f"/tmp/hintsrc-phone-{lang}-{source}-nonet.png")
    assert not page.errors


FALLBACK_NOTES = {
    "en": {"network_unavailable": ", no expert network",
           "guided_late": ", the guided search ran out of time",
           "planner_late": ", the planner ran out of time",
           "agent_unavailable": ", the trained agent is unavailable"},
    "ja": {"network_unavailable": "、ネットワークは使えません", "guided_late": "、探索は時間切れ",
           "planner_late": "、プランナーは時間切れ",
           "agent_unavailable": "、学習済みエージェントは使えません"},
}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_page_words_each_fallback_code_in_order(page_at: Callable[..., Page], lang: str) -> None:
    """The page words the server's fallback codes, in the order the sources fell through. A regression:
    a draw-3 planner out of time (the trained agent answering) was worded as the agent being unavailable."""
    page = page_at(next(iter(SIZES)), lang)

    def note(fallbacks: list[str], requested: str = "planner") -> str:
        return page.evaluate("([f, r]) => fallbackNote({fallbacks: f, requested: r, fallback_reason: 'why'})",
                             [fallbacks, requested])

    words = FALLBACK_NOTES[lang]
    assert note([]) == ""
    assert note(["planner_late"]) == words["planner_late"]
    for code, text in words.items():
        assert note([code]) == text
    assert note(["network_unavailable", "planner_late", "agent_unavailable"], "guided") == (
        words["network_unavailable"] + words["planner_late"] + words["agent_unavailable"])
    draw1 = note(["draw3_only", "planner_late"], "agent")
    assert draw1.endswith(words["planner_late"]) and ("draw 3" in draw1 or "3 枚" in draw1)
    assert page.errors == []
