"""Issue 51, what a player's walk through both pages found, each fixed and pinned here (Chromium, 1280x800
and a 390x844 phone with touch, English and Japanese):

* a Klondike position with no way to progress left says so in the message line at once, with Hint
  (H) for the choices; before, only the verdict line said it (following the hints through
  klondike-daily-v1-20261205 ended so at move 256, with an empty message line);
* Pyramid's statistics name a variant in the Records' words ("stock and waste"), not by its seed's
  number ("000, 2026-12-06: not played yet" was the daily line);
* the number cards carry their traditional pip layout (2 to 10 pips, inside the card, clear of one
  another and of the corners; large print: one large suit instead; a card covered in a Klondike column
  shows its corner only), on both pages;
* a few card backs to choose from (Settings: Card back), kept across reloads;
* the status line's clock sits on the same baseline as its Japanese neighbours (it stood 3 px higher);
* the rules name no hint engine but in one sentence for researchers, which points to Advanced (they
  listed the commitment planner, the trained agent and the rest as the player's choice "in the menu").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from solitaire_rl.envs.cards import card_name
from tests.browser.conftest import settle as settle_page
from tests.browser.test_klondike_page import open_page, open_position, settle, state, url
from tests.test_play_klondike_api import position

__all__ = ["open_page", "url"]  # the fixtures, used by name

Page = Any
SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True},
}
LAST_PROGRESS = position([["6H"], ["5S"]], foundations=(0, 0, 0, 4), filler_end="2H")
"""5S up to its foundation is the last move that makes progress: then only 5S down onto 6H and back."""


@pytest.mark.parametrize(("size", "lang"), [("desktop", "en"), ("phone", "ja")])
def test_a_move_that_leaves_no_progress_says_so_at_once(
    open_page: Callable[..., Page], url: str, size: str, lang: str
) -> None:
    page = open_position(open_page, url, {"position": LAST_PROGRESS}, **SIZES[size])
    if lang == "ja":
        page.evaluate("() => localStorage.setItem('solitaire-rl.lang', 'ja')")
        page.reload()
        page.wait_for_selector("#columns .card")
        settle(page)
        assert page.inner_text("#undo").startswith("取り消し")
    press = page.tap if size == "phone" else page.click
    assert state(page)["outcome"] is None and page.inner_text("#message") == ""
    page.evaluate("() => act({type: 'move', source: 'c2', target: 'fS'})")
    settle(page)
    assert state(page)["outcome"] == "no_progress"
    note = {"en": "No progress possible: moves remain, but none leads anywhere new. Hint (H) shows the "
                  "choices: Undo, Restart or New deal.",
            "ja": "前に進む手がありません。手は残っていますが、どれも新しい展開につながりません。"
                  "ヒント（H）で選べます：取り消し・最初から・新しい配り。"}[lang]
    assert page.inner_text("#message") == note and page.is_hidden("#overlay")  # said; moves remain, no panel
    box = page.evaluate("() => { const r = document.getElementById('message').getBoundingClientRect();"
                        " return r.bottom <= innerHeight && r.right <= innerWidth && r.left >= 0; }")
    assert box
    press("#hint")  # the choices, as the note says
    page.wait_for_selector("#overlay[data-kind='no-progress']")
    title, why = {"en": ("No progress possible", "none of them leads anywhere new"),
                  "ja": ("前に進む手がありません", "どれを選んでも前に進みません")}[lang]
    assert page.inner_text("#panel-title") == title and why in page.inner_text("#panel-body")
    undo = {"en": "Undo", "ja": "取り消し"}[lang]
    assert undo in page.locator("#panel-buttons button").all_inner_texts()
    press(f"#panel-buttons button:text('{undo}')")
    settle(page)
    assert state(page)["outcome"] is None and state(page)["history"] == []
    assert page.is_hidden("#overlay") and page.inner_text("#message") != note
    assert page.errors == []


@pytest.mark.parametrize(("size", "lang"), [("desktop", "en"), ("phone", "ja")])
def test_pyramids_statistics_name_the_variant_in_words(
    new_page: Callable[..., Page], size: str, lang: str
) -> None:
    page = new_page(storage={"solitaire-rl.lang": lang}, **SIZES[size])
    words = {"en": {"000": "stock and waste", "001": "waste only"},
             "ja": {"000": "山札と捨て札", "001": "捨て札だけ"}}[lang]
    for variant in ("000", "001"):
        page.evaluate("(v) => queue(() => startGame({variant: v}))", variant)
        settle_page(page)
        page.evaluate("() => showStats()")
        page.wait_for_selector("#overlay[data-kind='stats']")
        text = page.inner_text("#panel")
        daily = page.inner_text(".stats-daily li")
        assert daily.startswith(words[variant]), daily
        assert not re.search(r"\b00[01]\b", text), text
        page.keyboard.press("Escape")
    assert page.errors == []


PIPS = """() => [...document.querySelectorAll('#table .card:not(.back)')].flatMap((c) => {
  const pips = [...c.querySelectorAll('.pips span')];
  const rank = c.querySelector('.corner .rank');
  if (!rank) return [];
  const box = c.getBoundingClientRect();
  const rs = pips.map((p) => p.getBoundingClientRect()).filter((r) => r.width > 0);  // the pips shown
  const corners = [...c.querySelectorAll('.corner .rank, .corner .suit')]
    .map((e) => e.getBoundingClientRect());
  const share = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) *
    Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top)) / (a.width * a.height);
  let clash = 0;
  rs.forEach((a, i) => {
    for (const b of [...rs.slice(i + 1), ...corners]) clash = Math.max(clash, share(a, b));
  });
  const single = c.querySelector('.pip');
  const covered = !!c.closest('.column') && !!c.nextElementSibling;  // a column's strip: its corner only
  const down = c.querySelectorAll('.pips span.down').length;
  return [{rank: rank.textContent, pips: pips.length, clash, down, covered,
           inside: rs.every((r) => r.left >= box.left && r.right <= box.right && r.top >= box.top &&
                                   r.bottom <= box.bottom),
           shown: rs.length,
           single: single && getComputedStyle(single).display !== 'none'}];
})"""
NUMBER = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10}
DOWN = {2: 1, 3: 1, 4: 2, 5: 2, 6: 2, 7: 2, 8: 3, 9: 4, 10: 5}
"""Pips below the middle, printed upside down."""


ALL_NUMBERS = position([["2H"], ["3C"], ["4D"], ["5S"], ["6H"], ["7C"], ["TH", "9S", "8D"]],
                       foundations=(0, 1, 1, 1))
"""Every number card's rank face up in the columns (10, 9 and 8 built down in column 7)."""


@pytest.mark.parametrize("size", ["desktop", "laptop", "phone"])
@pytest.mark.parametrize("which", ["pyramid", "klondike"])
def test_number_cards_show_their_pips_as_printed(
    new_page: Callable[..., Page], open_page: Callable[..., Page], url: str, which: str, size: str
) -> None:
    sizes = {**SIZES, "laptop": {"viewport": {"width": 1024, "height": 768}}}
    if which == "klondike":
        page = open_position(open_page, url, {"position": ALL_NUMBERS}, **sizes[size])
    else:
        page = new_page(**sizes[size])
        page.evaluate("() => queue(() => startGame({variant: '001', deal: 'pyramid-random-v1-1'}))")
        settle_page(page)
    cards = page.evaluate(PIPS)
    ranks = {c["rank"] for c in cards if c["rank"] in NUMBER}
    assert ranks == set(NUMBER) if which == "klondike" else len(ranks) >= 5, (ranks, cards)
    for c in cards:
        n = NUMBER.get(c["rank"], 0)
        assert c["pips"] == n and c["shown"] == (0 if c["covered"] else n) and c["down"] == DOWN.get(n, 0), c
        assert c["inside"] and c["clash"] <= 0.1, c
        assert not c["single"] or not n, c  # a number card: its pips, not one large suit
    page.evaluate("() => setSetting('largePrint', true)")
    for c in page.evaluate(PIPS):
        assert c["shown"] == 0 and c["single"], c  # large print: one large suit behind bigger corners
    assert page.errors == []


@pytest.mark.parametrize(("size", "lang"), [("desktop", "en"), ("phone", "ja")])
def test_a_chosen_card_back_is_kept_across_reloads(
    new_page: Callable[..., Page], size: str, lang: str
) -> None:
    page = new_page(path="/klondike", ready="#columns .card", storage={"solitaire-rl.lang": lang},
                    **SIZES[size])
    stock = "() => getComputedStyle(document.getElementById('stock')).backgroundImage"
    blue = page.evaluate(stock)
    assert page.get_attribute("html", "data-back") == "blue" and "gradient" in blue
    if size == "phone":
        page.tap("#menu-button")
    (page.tap if size == "phone" else page.click)("#settings-button")
    page.wait_for_selector('#overlay[data-kind="settings"]')
    label = page.locator("label", has=page.locator("#set-back")).inner_text()
    assert label.startswith({"en": "Card back", "ja": "札の裏の色"}[lang]), label
    options = page.locator("#set-back option").all_inner_texts()
    assert options == {"en": ["blue", "red", "green", "purple"], "ja": ["青", "赤", "緑", "紫"]}[lang]
    page.select_option("#set-back", "red")
    red = page.evaluate(stock)
    assert red != blue and "gradient" in red
    page.keyboard.press("Escape")
    page.reload()
    page.wait_for_selector("#columns .card")
    settle(page)
    assert page.get_attribute("html", "data-back") == "red" and page.evaluate(stock) == red
    face_down = page.evaluate(
        "() => getComputedStyle(document.querySelector('#columns .card.back')).backgroundImage")
    assert face_down == red  # the tableau's face-down cards too
    page.evaluate("() => setSetting('dark', true)")  # dark mode dims the chosen back, keeps its pattern
    dark = page.evaluate(stock)
    assert dark != red and "repeating-linear-gradient" in dark and "rgb(138, 31, 44)" in dark, dark
    assert page.errors == []


BASELINES = """() => [...document.querySelectorAll('.status > span')].filter((s) => s.offsetWidth)
  .map((s) => {
  const mark = document.createElement('span');  // an empty inline-block's bottom is its line's baseline
  mark.style.cssText = 'display: inline-block; width: 0; height: 0';
  s.append(mark);
  const baseline = mark.getBoundingClientRect().bottom, top = s.getBoundingClientRect().top;
  mark.remove();
  return {id: s.id, top, baseline};
})"""


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", ["laptop", "phone"])
@pytest.mark.parametrize("path", ["/", "/klondike"])
def test_the_status_line_reads_on_one_baseline(new_page: Callable[..., Page], path: str, size: str,
                                               lang: str) -> None:
    sizes = {**SIZES, "laptop": {"viewport": {"width": 1024, "height": 768}}}
    ready = "#pyramid .card" if path == "/" else "#columns .card"
    page = new_page(path=path, ready=ready, storage={"solitaire-rl.lang": lang}, **sizes[size])
    items = page.evaluate(BASELINES)
    assert len(items) >= 5, items
    rows: dict[float, list[dict[str, Any]]] = {}
    for item in items:  # the flex lines: items whose baselines lie within half a line of each other
        line = next((b for b in rows if abs(b - item["baseline"]) < 6), item["baseline"])
        rows.setdefault(line, []).append(item)
    for row in rows.values():
        lowest, highest = max(i["baseline"] for i in row), min(i["baseline"] for i in row)
        assert lowest - highest <= 0.5, row
    assert page.errors == []


ENGINES = re.compile(r"planner|agent|network|commitment|"
                     r"プランナー|エージェント|ネットワーク|コミットメント", re.I)


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("path", ["/", "/klondike"])
def test_the_rules_keep_the_engines_to_a_sentence_for_researchers(
    new_page: Callable[..., Page], path: str, lang: str
) -> None:
    ready = "#pyramid .card" if path == "/" else "#columns .card"
    page = new_page(path=path, ready=ready, storage={"solitaire-rl.lang": lang}, **SIZES["phone"])
    page.tap("#rules-link")
    assert page.is_visible("#rules")
    text = page.inner_text("#rules")
    sentences = re.split(r"(?<=[.。])\s*", text)
    named = [s for s in sentences if ENGINES.search(s)]
    assert len(named) == 1, named
    assert ("Advanced" in named[0] and "researchers" in named[0]) if lang == "en" else \
        ("詳細" in named[0] and "研究用" in named[0]), named
    assert page.errors == []


def auto_after() -> dict[str, Any]:
    """The 5 of hearts onto the 6 of spades turns up the Ace of spades, which auto-play sends up at once;
    the other cards lie face down as in a deal (5 or 6 under each column's last card) or in the unseen
    stock, so the game goes on."""
    ends = ["5H", "6S", "KD", "KC", "QD", "9C", "2H"]
    rest = [card_name(c) for c in range(52) if card_name(c) not in [*ends, "AS"]]
    columns = [["AS", "5H"], [*rest[:5], "6S"]]
    columns += [[*rest[5 + 6 * i:11 + 6 * i], ends[2 + i]] for i in range(5)]
    return {"columns": columns, "hidden": [1, 5, 6, 6, 6, 6, 6], "stock": rest[35:], "waste": [],
            "foundations": [0, 0, 0, 0], "seen": []}


AUTO_AFTER = auto_after()
SLOW_MOVES = """() => { const plain = window.fetch;  // a move's answer takes 0.3 s, as on a busy server
  window.fetch = async (...args) => { const r = await plain(...args);
    if (String(args[0]).endsWith('/actions')) await new Promise((done) => setTimeout(done, 300));
    return r; }; }"""


@pytest.mark.parametrize(("size", "lang"), [("desktop", "en"), ("phone", "ja")])
def test_a_hint_asked_while_auto_play_runs_answers_where_it_ends(
    open_page: Callable[..., Page], url: str, size: str, lang: str
) -> None:
    """Following the hints with auto-play on (a player's default), a Hint tapped just after a move said
    nothing when auto-play then sent a card up: the hint, asked for the position before, was dropped. It
    now answers for the position where the move and the auto-play end."""
    page = open_position(open_page, url, {"position": AUTO_AFTER}, **SIZES[size])
    page.evaluate("(l) => { localStorage.setItem('solitaire-rl.settings', JSON.stringify({autoPlay: true}));"
                  " localStorage.setItem('solitaire-rl.hint-source', 'commitment');"  # a player's defaults
                  " localStorage.setItem('solitaire-rl.lang', l); }", lang)
    page.reload()
    page.wait_for_selector("#columns .card")
    settle(page)
    page.evaluate(SLOW_MOVES)
    page.evaluate("() => { act({type: 'move', source: 'c1', target: 'c2'}); }")
    (page.tap if size == "phone" else page.click)("#hint")  # while the move is on its way
    assert page.evaluate("() => window.klondikeApp.state.history.length") == 0, "tapped before the move came"
    settle(page)
    s = state(page)
    assert s["history"] == ["c1>c2", "c1>f"] and s["outcome"] is None  # the move, then the Ace up
    assert s["hint"] is not None and s["hint"]["kind"] == "move", s["hint"]
    assert page.inner_text("#message").startswith({"en": "Hint: ", "ja": "ヒント："}[lang])
    assert page.errors == []


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_move_after_the_hint_is_asked_still_drops_it(
    open_page: Callable[..., Page], url: str, size: str
) -> None:
    """What the player does after tapping Hint (here: a draw while the hint waits for the move before it)
    drops the hint, as before: it would be for a position the player has left."""
    page = open_position(open_page, url, {"position": AUTO_AFTER}, **SIZES[size])
    page.evaluate(SLOW_MOVES)
    page.evaluate("() => { act({type: 'move', source: 'c1', target: 'c2'}); hint(); tapStock(); }")
    settle(page)
    s = state(page)
    assert s["history"] == ["c1>c2", "draw"] and s["hint"] is None  # auto-play off here (the tests' default)
    assert page.inner_text("#message") not in ("Thinking…", "") or not page.evaluate(
        "() => window.klondikeApp.hintPending")
    assert not page.evaluate("() => window.klondikeApp.hintPending")
    assert page.errors == []


VERDICT_FITS = ("() => { const v = document.getElementById('verdict');"
                " return v.scrollHeight <= v.clientHeight + 1; }")


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(("path", "start", "status"), [
    ("/", {"variant": "001", "deal": "pyramid-random-v1-28"}, "winnable"),
    ("/", {"variant": "001", "deal": "pyramid-random-v1-6"}, "not_winnable"),
    ("/klondike", {"deal": "klondike-winnable-v1-7"}, "winnable"),
])
def test_a_verdict_that_says_what_it_knows_is_whole_on_a_phone(
    new_page: Callable[..., Page], lang: str, path: str, start: dict[str, str], status: str
) -> None:
    """The verdict line shows two lines on a phone; Pyramid 001's, saying it knows the whole deal, was cut
    before its answer ("Knowing every card, the unseen stock's order included, a line that clears the
    pyramid exists from…"). Each says its answer first, and it fits."""
    app = "klondikeApp" if path == "/klondike" else "pyramidApp"
    page = new_page(path=path, ready="#columns .card" if app == "klondikeApp" else "#pyramid .card",
                    storage={"solitaire-rl.lang": lang}, **SIZES["phone"])
    page.evaluate("(body) => queue(() => startGame(body))", start)
    settle_page(page, app)
    page.wait_for_function(f"(s) => (window.{app}.state.verdict || {{}}).status === s", arg=status,
                           timeout=30_000)
    verdict = page.evaluate(f"() => window.{app}.state.verdict")
    shown = page.inner_text("#verdict")
    assert verdict[lang] in shown and page.evaluate(VERDICT_FITS), shown
    answer = {("winnable", "en"): ("A line that clears the pyramid exists", "Can it be won? A winning line"),
              ("winnable", "ja"): ("全消しの道があります", "勝てるか：勝つ手順があります"),
              ("not_winnable", "en"): ("Not winnable from here",), ("not_winnable", "ja"): ("この状態から",)}
    assert shown.startswith(answer[status, lang]), shown
    assert page.errors == []
