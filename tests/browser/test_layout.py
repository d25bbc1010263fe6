"""Both pages as a player meets them, at a desktop's 1280x800 and a phone's 390x844 (touch): the
table, stock, waste and main actions on the first view, inside the screen and not covered (checked
by geometry: bounding boxes and ``document.elementFromPoint``); a message that moves nothing; no
engine code in any text a player reads; axe-core with no serious or critical violation in the
states a player reaches (a fresh deal, a selection, a hint shown, each panel open). The screenshots
of the fresh deals (``tests/artifacts/layout-*.png``) are the pictures in the docs (``docs/*.png``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.play_api_helpers import engine_codes

Page = Any
SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True,
              "device_scale_factor": 2},
}
PAGES = {
    "pyramid": {"path": "/", "app": "pyramidApp", "deal": "pyramid-random-v1-1", "picture": "play",
                "select": "#card-r7c2",
                "must_see": ["#stock", "#waste", "#draw", "#recycle", "#undo", "#hint", "#path", "#new-deal",
                             "#message", "#copy-deal"]},
    "klondike": {"path": "/klondike", "app": "klondikeApp", "deal": "klondike-random-v1-1",
                 "picture": "klondike", "select": '#columns [data-place="c4"]',
                 "must_see": ["#stock", "#f-C", "#f-S", "#undo", "#hint", "#third", "#redo", "#new-deal",
                              "#message", "#copy-deal"]},
}
AXE = Axe()

# The visible places that must be usable: every card a player can tap (their top strip, which the
# next row or card leaves uncovered) and each named control.
TABLE_POINTS = """(sel) => {
  const points = [];
  const add = (el, name, strip) => {
    const r = el.getBoundingClientRect();
    const y = strip ? r.top + Math.min(6, r.height / 2) : r.top + r.height / 2;
    points.push({name, left: r.left, top: r.top, right: r.right, bottom: r.bottom, x: r.left + r.width / 2, y,
                 hit: (() => { const h = document.elementFromPoint(r.left + r.width / 2, y);
                               return !!h && (h === el || el.contains(h)); })()});
  };
  for (const s of sel) {
    const el = document.querySelector(s);
    if (el) add(el, s, false); else points.push({name: s, missing: true});
  }
  const cards = "#pyramid .card.available, #columns .column > .card:last-child, #waste [data-place]";
  for (const el of document.querySelectorAll(cards)) {
    add(el, el.getAttribute("aria-label"), true);
  }
  return {points, width: innerWidth, height: innerHeight, scrolled: scrollY,
          pageScrolls: document.documentElement.scrollHeight > innerHeight + 1};
}"""

PLAYER_TEXTS = """() => {
  const texts = [document.body.innerText];
  for (const el of document.querySelectorAll("[aria-label]")) texts.push(el.getAttribute("aria-label"));
  return texts;
}"""


def check_layout(page: Page, must_see: list[str], state: str) -> None:
    """Every must-see control and tappable card lies inside the viewport and is not covered."""
    found = page.evaluate(TABLE_POINTS, must_see)
    assert not found["pageScrolls"] and found["scrolled"] == 0, f"{state}: the page scrolls"
    for p in found["points"]:
        assert not p.get("missing"), f"{state}: {p['name']} is missing"
        inside = p["left"] >= 0 and p["top"] >= 0 and p["right"] <= found["width"] + 0.5 and \
            p["bottom"] <= found["height"] + 0.5
        assert inside, f"{state}: {p['name']} is outside the {found['width']}x{found['height']} screen: {p}"
        assert p["hit"], f"{state}: {p['name']} is covered at ({p['x']:.0f}, {p['y']:.0f})"


def check_words(page: Page, state: str) -> None:
    """No engine code (r7c1, c5:5>c2, waste>f, fS, 10C) in a text or a label a player meets."""
    for text in page.evaluate(PLAYER_TEXTS):
        assert engine_codes(text) == [], f"{state}: engine code {engine_codes(text)} in {text[:300]!r}"


def check_axe(page: Page, state: str) -> None:
    """axe-core: no serious or critical violation."""
    results = AXE.run(page)
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:4])
           for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    assert bad == [], f"{state}: {bad}"


def check_all(page: Page, must_see: list[str], state: str, layout: bool = True) -> None:
    if layout:
        check_layout(page, must_see, state)
    check_words(page, state)
    check_axe(page, state)


def settle(page: Page, app: str) -> None:
    page.evaluate(f"() => window.{app}.busy.then(() => window.{app}.hinting).then(() => window.{app}.busy)"
                  ".then(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => 0))))")


def press(page: Page, selector: str, touch: bool) -> None:
    page.tap(selector) if touch else page.click(selector)


@pytest.fixture
def open_at(browser: Any, base_url: str) -> Iterator[Callable[..., Page]]:
    contexts = []

    def make(which: str, size: str) -> Page:
        context = browser.new_context(**SIZES[size])
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.goto(base_url + PAGES[which]["path"])
        page.wait_for_selector("#table .card")
        settle(page, PAGES[which]["app"])
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("which", list(PAGES))
def test_a_players_view_fits_reads_in_words_and_passes_axe(
    open_at: Callable[..., Page], which: str, size: str, artifacts: Path
) -> None:
    spec, touch = PAGES[which], size == "phone"
    app = spec["app"]
    page = open_at(which, size)
    menu_on_phone = page.is_visible("#menu-button")
    assert menu_on_phone == touch  # the rare controls are in a menu on a phone, in the header on a desktop
    if touch:
        press(page, "#menu-button", touch)
        check_all(page, [], f"{which} {size}: the menu open", layout=False)
    page.fill("#deal-input", spec["deal"])
    page.press("#deal-input", "Enter")
    settle(page, app)
    page.wait_for_function(f"() => (window.{app}.state.verdict || {{}}).status in {{winnable: 1, unknown: 1, "
                           "unverified: 1, unseen_stock: 1, not_winnable: 1}")
    assert page.evaluate(f"() => window.{app}.state.deal.label") == spec["deal"]
    assert not page.is_visible("#menu") or not touch  # a new deal closes the menu
    check_all(page, spec["must_see"], f"{which} {size}: a fresh deal")
    page.screenshot(path=str(artifacts / f"layout-{spec['picture']}-{size}.png"))  # docs/{picture}-{size}.png

    before = page.locator("#stock").bounding_box()
    press(page, spec["select"], touch)  # a selection: its message comes, the table stays still
    settle(page, app)
    assert page.evaluate(f"() => window.{app}.state.selected") is not None
    assert page.inner_text("#message").startswith("Selected the ")
    assert page.locator("#stock").bounding_box() == before
    check_all(page, spec["must_see"], f"{which} {size}: a selection")

    press(page, "#hint", touch)  # a hint: "Checking…" where its text will be, then the hint in words
    settle(page, app)
    assert page.evaluate(f"() => window.{app}.state.hint") is not None
    opening = {"pyramid": "Hint: ", "klondike": "Hint (planner): "}[which]  # Klondike: the planner by choice
    assert page.inner_text("#message").startswith(opening)
    assert page.locator("#stock").bounding_box() == before
    check_all(page, spec["must_see"], f"{which} {size}: a hint shown")

    if touch:
        press(page, "#menu-button", touch)
    press(page, "#records-button", touch)  # the records panel
    page.wait_for_selector("#overlay[data-kind='records']")
    check_all(page, [], f"{which} {size}: the records panel", layout=False)
    page.keyboard.press("Escape")
    if touch:
        press(page, "#menu-button", touch)
    press(page, "#rules-button", touch)  # the rules page
    assert page.is_visible("#rules")
    check_all(page, [], f"{which} {size}: the rules", layout=False)
    press(page, "#rules-back", touch)
    if touch:
        press(page, "#menu-button", touch)
    press(page, "#lang", touch)  # the same checks in the seeds' Japanese
    settle(page, app)
    assert page.evaluate("document.documentElement.lang") == "ja"
    press(page, spec["select"], touch)
    settle(page, app)
    check_all(page, spec["must_see"], f"{which} {size}: Japanese, a selection")
    assert not page.errors



def test_the_checks_see_a_covered_card_an_engine_code_and_a_contrast_fault(
    open_at: Callable[..., Page],
) -> None:
    """The three checks are not vacuous: each fails on a page that has the fault."""
    page = open_at("pyramid", "desktop")
    page.evaluate("""() => {
      const m = document.getElementById("message");
      m.textContent = "Move c5:5>c2";
      m.style.color = "#1b5e38";  // the felt's colour on the felt
      const cover = document.createElement("div");
      cover.style = "position: fixed; inset: 0 0 auto 0; height: 100vh; z-index: 5";
      document.body.append(cover);
    }""")
    with pytest.raises(AssertionError, match="covered"):
        check_layout(page, PAGES["pyramid"]["must_see"], "faulty")
    with pytest.raises(AssertionError, match="engine code"):
        check_words(page, "faulty")
    with pytest.raises(AssertionError, match="color-contrast"):
        check_axe(page, "faulty")
