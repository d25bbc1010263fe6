"""Statistics and the daily deal on both pages (issue 37), at 1280x800 and 390x844 (touch), in English
and Japanese: a daily deal won (restored one move from the win), a new deal left after a move (a
loss), a restarted deal (another loss), a game in progress kept through a reload (counted once);
the figures, streaks, chart and its text alternative, the JSON export, unreadable stored statistics
reported and replaced without an exception, the daily deal the same for a fixed date and its result
kept; the panel inside the screen, nothing covered, axe-core with no serious violation."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from solitaire_rl.agents.solver import solve_klondike, solve_pyramid
from solitaire_rl.envs.deals import resolve_deal
from solitaire_rl.envs.klondike import KlondikeGame, Move
from solitaire_rl.envs.pyramid import PyramidGame
from solitaire_rl.play.server.klondike_session import move_source, move_target
from tests.browser.test_layout import SIZES, check_axe

Page = Any
DATE = "2026-12-03"
NOW = datetime(2026, 12, 3, 21, 30, tzinfo=timezone(timedelta(hours=9)))  # the page's local date: 2026-12-03
PAGES = {
    "pyramid": {"path": "/", "app": "pyramidApp", "variant": "stock and waste", "variant_ja": "山札と捨て札"},
    "klondike": {"path": "/klondike", "app": "klondikeApp", "variant": "draw 3", "variant_ja": "3 枚めくり"},
}


def daily_id(which: str) -> str:
    return f"{which}-daily-v1-{DATE.replace('-', '')}"


def daily_save(which: str) -> tuple[dict[str, Any], str, int]:
    """A save of the day's daily deal one move from the win, its last move and the line's length."""
    deal = daily_id(which)
    if which == "pyramid":
        line = [str(m) for m in solve_pyramid(deal, variant="000", time_limit=20).line or ()]
        game = PyramidGame(deal, stock_top_playable=True)
        game.replay(line[:-1])
        seen = [c for c in range(52) if game.seen >> c & 1]
        extra = {"variant": "000", "deal": game.deal.code}
    else:
        line = [str(m) for m in solve_klondike(KlondikeGame(deal), time_limit=20).line or ()]
        seen, extra = [], {"game": "klondike", "deal": deal, "session": None}
    assert line, "the daily deal is winnable"
    save = {"format": 1, "writer": "test", "saved_at": 0, "label": deal, "deal_type": "daily",
            "history": line[:-1], "redo": [], "seen": seen, "active_ms": 61_000, "operations": len(line) - 1,
            "hints": 0, "won": False, **extra}
    return save, line[-1], len(line)


@pytest.fixture
def open_at(browser: Any, base_url: str) -> Iterator[Callable[..., Page]]:
    contexts = []

    def make(which: str, size: str, storage: dict[str, str]) -> Page:
        context = browser.new_context(**SIZES[size], timezone_id="Asia/Tokyo", accept_downloads=True)
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.clock.set_fixed_time(NOW)
        page.goto(base_url + "/static/common.css")  # same origin, without the game
        page.evaluate("(kv) => Object.entries(kv).forEach(([k, v]) => localStorage.setItem(k, v))", storage)
        page.goto(base_url + PAGES[which]["path"])
        page.wait_for_selector("#table .card")
        settle(page, which)
        return page

    yield make
    for context in contexts:
        context.close()


def settle(page: Page, which: str) -> None:
    app = PAGES[which]["app"]
    page.evaluate(f"() => window.{app}.busy.then(() => window.{app}.hinting).then(() => window.{app}.busy)"
                  ".then(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => 0))))")


def state(page: Page, which: str) -> dict[str, Any]:
    return page.evaluate(f"() => window.{PAGES[which]['app']}.state")


def press(page: Page, selector: str, touch: bool) -> None:
    page.tap(selector) if touch else page.click(selector)


def in_menu(page: Page, selector: str, touch: bool) -> None:
    """A control of the menu: on a phone the menu opens first (on a desktop it is the header)."""
    if touch:
        press(page, "#menu-button", touch)
    press(page, selector, touch)


def panel_button(page: Page, index: int, touch: bool) -> None:
    press(page, f"#panel-buttons button >> nth={index}", touch)


def activate(page: Page, selector: str, touch: bool) -> None:
    """A new control by touch on a phone, by the keyboard on a desktop (focus, then Enter)."""
    if touch:
        press(page, selector, touch)
    else:
        page.focus(selector)
        page.keyboard.press("Enter")


def open_stats(page: Page, touch: bool) -> None:
    if touch:
        press(page, "#menu-button", touch)
    activate(page, "#records-button", touch)
    page.wait_for_selector("#overlay[data-kind='records']")
    if touch:
        panel_button(page, 0, touch)
    else:
        assert page.evaluate("document.activeElement.textContent") in ("Statistics", "統計")
        page.keyboard.press("Enter")  # the Records panel's first button, focused: Statistics
    page.wait_for_selector("#overlay[data-kind='stats']")


def a_move(page: Page, which: str, touch: bool) -> None:
    before = state(page, which)["moves"]
    press(page, "#draw" if which == "pyramid" else "#stock", touch)
    settle(page, which)
    assert state(page, which)["moves"] == before + 1


def last_move(page: Page, which: str, move: str, touch: bool) -> None:
    if which == "pyramid":
        for place in move.split("+"):
            press(page, {"stock": "#stock", "waste": "#waste"}.get(place, f"#card-{place}"), touch)
            settle(page, which)
        return
    s = state(page, which)
    game = KlondikeGame(s["deal"]["id"])
    game.replay([Move.parse(m) for m in s["history"]])
    source, target = move_source(Move.parse(move)), move_target(Move.parse(move), game)
    source_sel = '#waste [data-place="waste"]' if source == "waste" else f'#columns [data-place="{source}"]'
    page.click(source_sel, position={"x": 20, "y": 10})
    settle(page, which)
    if state(page, which)["outcome"] != "win":  # several targets: the card was selected
        page.click(f"#f-{target[1]}" if target.startswith("f") else f"#col-{target[1:]}")
        settle(page, which)


def rows(page: Page) -> dict[str, list[str]]:
    """The statistics table: its rows' cells by group (``000 daily``, ``all``)."""
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('.stats-table tbody tr')]
        .map((tr) => [tr.dataset.group, [...tr.children].map((c) => c.textContent)]))""")


GEOMETRY = """() => {  // the panel on the screen; its table, chart and buttons in it, on screen, uncovered
  const inside = (r) => r.left >= 0 && r.top >= 0 && r.right <= innerWidth + 0.5 &&
    r.bottom <= innerHeight + 0.5;
  const out = [];
  const panel = document.getElementById("panel");
  const box = panel.getBoundingClientRect();
  if (!inside(box)) out.push(["panel", box.toJSON()]);
  if (panel.scrollWidth > panel.clientWidth + 1) out.push(["panel scrolls sideways", panel.scrollWidth]);
  const parts = "#stats-chart, .stats-table, #stats-export, #panel-buttons button";
  for (const el of document.querySelectorAll(parts)) {
    el.scrollIntoView({block: "nearest"});
    const r = el.getBoundingClientRect(), name = el.id || el.className || el.textContent;
    const within = inside(r) && r.right <= box.right + 0.5 && r.left >= box.left - 0.5;
    if (!within) out.push(["outside", name, r.toJSON()]);
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 8));
    if (!hit || !el.contains(hit)) out.push(["covered", name, hit && hit.outerHTML.slice(0, 80)]);
  }
  return out;
}"""


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("which", list(PAGES))
def test_statistics_count_each_game_once_and_the_daily_deal_keeps_its_result(
    open_at: Callable[..., Page], base_url: str, which: str, size: str, artifacts: Path
) -> None:
    touch, spec, deal = size == "phone", PAGES[which], daily_id(which)
    save, final, line_length = daily_save(which)
    page = open_at(which, size, {f"solitaire-rl.{which}.stats": "{not json",
                                 f"solitaire-rl.{which}.save": json.dumps(save)})
    page.wait_for_selector("#overlay[data-kind='paused']")
    panel_button(page, 0, touch)  # Resume
    open_stats(page, touch)  # unreadable statistics: said plainly, started afresh, no exception
    text = page.inner_text("#panel")
    assert "Your stored statistics could not be read (it is not readable (corrupt))" in text, text
    assert "No game finished yet." in text and "The game in progress counts once it ends." in text
    page.keyboard.press("Escape")
    assert page.is_hidden("#overlay")

    last_move(page, which, final, touch)  # the daily deal won
    page.wait_for_selector("#overlay[data-kind='result']")
    panel_button(page, 0, touch)  # New deal / Another deal
    settle(page, which)
    assert state(page, which)["deal"]["type"] == "random"
    a_move(page, which, touch)
    press(page, "#new-deal", touch)  # a new deal after a move: a loss
    page.wait_for_selector("#overlay[data-kind='confirm']")
    panel_button(page, 0, touch)  # Replace
    settle(page, which)
    a_move(page, which, touch)
    in_menu(page, "#restart", touch)  # a restarted deal: a loss, and a new game
    if which == "pyramid":
        page.wait_for_selector("#overlay[data-kind='confirm']")
        panel_button(page, 0, touch)
    settle(page, which)
    assert state(page, which)["moves"] == 0
    a_move(page, which, touch)  # the game in progress
    page.reload()  # the same game again, not counted twice
    page.wait_for_selector("#overlay[data-kind='paused']")
    panel_button(page, 0, touch)
    settle(page, which)

    open_stats(page, touch)
    v = spec["variant"]  # Pyramid's variant in the Records' words, not its seed's number (issue 51)
    group = "draw3" if which == "klondike" else "000"
    table = rows(page)
    assert set(table) == {f"{group} random", f"{group} daily", "all"}, table
    assert table[f"{group} daily"][:4] == [f"{v} · daily", "1", "1 (100%)", "1 (1)"]
    assert table[f"{group} daily"][5] == str(line_length) and table[f"{group} daily"][4].startswith("1:0")
    assert table[f"{group} random"] == [f"{v} · random", "2", "0 (0%)", "0 (0)", "–", "–"]
    assert table["all"][:4] == ["All games", "3", "1 (33%)", "0 (1)"]
    chart = page.locator("#stats-chart")
    assert chart.get_attribute("role") == "img"
    assert page.eval_on_selector_all("#stats-chart rect", "(rs) => rs.map((r) => r.dataset.result)") == \
        ["won", "lost", "lost"]
    alt = chart.get_attribute("aria-label")
    assert alt == "Chart of the last 3 finished games, oldest first: won, lost, lost. 1 won (33%).", alt
    daily_line = page.inner_text(".stats-daily li")
    assert daily_line.startswith(f"{v}, {DATE}: won in 1:0") and f", {line_length} moves" in daily_line
    assert daily_line.endswith("Daily streak: 1 day (best 1)")
    assert "could not be read" not in page.inner_text("#panel")  # after the reload: replaced, nothing to say
    assert page.evaluate("() => document.activeElement.closest('#panel') !== null")  # the keyboard is there
    assert page.evaluate(GEOMETRY) == []
    check_axe(page, f"{which} {size}: the statistics")
    page.screenshot(path=str(artifacts / f"stats-{which}-{size}.png"))

    with page.expect_download() as download:  # Export JSON: the statistics and the records
        activate(page, "#stats-export", touch)
    assert download.value.suggested_filename == f"solitaire-rl-{which}-statistics-{DATE}.json"
    exported = json.loads(Path(download.value.path()).read_text())
    assert exported["all"]["games"] == 3 and exported["all"]["wins"] == 1 and exported["in_progress"] == 1
    assert exported["all"]["best_streak"] == 1 and exported["all"]["current_streak"] == 0
    groups = {(g["type"], g["games"], g["wins"]) for g in exported["groups"]}
    assert groups == {("random", 2, 0), ("daily", 1, 1)}
    assert [g["result"] for g in exported["games"]] == ["won", "lost", "lost", "playing"]
    assert exported["daily"][group]["days"][DATE]["result"] == "won"
    assert exported["daily"][group]["streak"] == {"now": 1, "best": 1}
    assert [r["label"] for r in exported["records"]] == [deal]

    page.keyboard.press("Escape")  # the same view in Japanese
    in_menu(page, "#lang", touch)
    settle(page, which)
    open_stats(page, touch)
    assert page.inner_text("#panel-title") == "統計"
    table = rows(page)
    assert table[f"{group} daily"][:4] == [f"{spec['variant_ja']} · 今日の配り", "1", "1（100%）", "1（1）"]
    assert table["all"][:4] == ["すべての局", "3", "1（33%）", "0（1）"]
    alt_ja = "最近終わった 3 局の図（古い順）：勝ち、負け、負け。勝ち 1 局（33%）。"
    assert chart.get_attribute("aria-label") == alt_ja
    assert "今日の配りの連勝：1 日（最高 1 日）" in page.inner_text(".stats-daily li")
    assert page.evaluate(GEOMETRY) == []
    check_axe(page, f"{which} {size}: the statistics in Japanese")
    page.screenshot(path=str(artifacts / f"stats-{which}-{size}-ja.png"))

    panel_button(page, 1, touch)  # the statistics' Daily deal: the game in progress is replaced (it asks)
    page.wait_for_selector("#overlay[data-kind='confirm']")
    panel_button(page, 0, touch)
    settle(page, which)
    s = state(page, which)
    assert s["deal"]["id"] == deal and s["deal"]["type"] == "daily" and s["moves"] == 0
    assert DATE in page.inner_text("#message")
    api = page.request.get(f"{base_url}/api/daily?date={DATE}").json()
    same = next(d for d in api["deals"] if d["game"] == which)
    assert same["deal"] == deal
    if which == "pyramid":  # the same cards as the winnable deal the date chose
        assert s["deal"]["code"] == resolve_deal(same["winnable_deal"], "pyramid").code
    else:
        ends = [c["card"] for col in s["columns"] for c in col["cards"] if not c.get("face_down")]
        assert ends == [col[-1] for col in KlondikeGame(same["winnable_deal"]).columns]
    if touch:
        press(page, "#menu-button", touch)
    if which == "pyramid":
        activate(page, "#daily-button", touch)  # pressed again: this is the daily deal, play on
    else:  # Klondike offers it in its deal-type menu, which shows the game in play: "daily"
        assert page.input_value("#deal-type") == "daily"
        page.select_option("#deal-type", "daily")  # chosen again: this is the daily deal, play on
    settle(page, which)
    assert "今日の配り" in page.inner_text("#message") and state(page, which)["session"] == s["session"]
    stored = json.loads(page.evaluate(f"() => localStorage.getItem('solitaire-rl.{which}.stats')"))
    assert stored["daily"][group][DATE]["result"] == "won"  # the day's result is kept
    assert [g["result"] for g in stored["games"]] == ["won", "lost", "lost", "lost"]  # left for the daily
    assert not page.errors


# ---------------------------------------------------------------- never twice: random play, reloads, restores
OPS = ("move", "move", "move", "undo", "win", "dead", "restart", "new", "recover", "reload")

RUN_SEQUENCES = """(sequences) => sequences.map((ops) => {
  localStorage.removeItem(statsKey());
  stats.cur = null;
  let n = 0, prev = null;
  const fresh = (k) => ({session: `s${k}`, deal: {label: `d${k}`, id: `d${k}`, type: "random"},
                         variant: "000", history: [], redo: [], moves: 0, outcome: null});
  let s = fresh(0);
  const note = (next) => { statsNote(prev, next); prev = next; s = next; };
  note(s);
  for (const op of ops) {
    let t = JSON.parse(JSON.stringify(s));
    t.outcome = null;
    if (op === "move") { t.history.push(`m${t.history.length}`); t.redo = []; }
    else if (op === "undo") { if (!t.history.length) continue; t.redo.unshift(t.history.pop()); }
    else if (op === "win" || op === "dead") {
      if (!t.history.length) continue;
      t.history.push(op); t.redo = []; t.outcome = op === "win" ? "win" : "dead_end";
    } else if (op === "restart") { if (!t.history.length) continue; t.history = []; t.redo = []; }
    else if (op === "new") t = fresh(++n);
    else if (op === "recover") { t.session = `r${++n}`; prev = null; }  // the server forgot it: re-created
    else if (op === "reload") { stats.cur = null; prev = null; }  // the page reloaded, the save restored
    t.moves = t.history.length;
    note(t);
  }
  const data = JSON.parse(localStorage.getItem(statsKey()) || "null");
  return {games: data ? data.games.map((g) => [g.label, g.result]) : [],
          finished: data ? summarize(data).all.games : 0};
})"""


def model(ops: list[str]) -> list[list[str]]:
    """The games a player would count: one per game with a move, won / lost / in progress."""
    games: list[list[str]] = []
    label, counted, history = "d0", False, 0
    n = 0

    def leave() -> None:
        if counted and games[-1][1] == "playing":
            games[-1][1] = "lost"

    for op in ops:
        if op == "move":
            history += 1
            if not counted:
                counted = True
                games.append([label, "playing"])
        elif op == "undo" and history:
            history -= 1
        elif op in ("win", "dead") and history:
            history += 1
            if op == "win":
                games[-1][1] = "won"
            elif games[-1][1] != "won":
                games[-1][1] = "lost"
        elif op == "restart" and history:
            leave()
            counted, history = False, 0
        elif op == "new":
            leave()
            n += 1
            label, counted, history = f"d{n}", False, 0
        elif op == "recover":
            n += 1
    return games


def test_statistics_never_count_a_game_twice(open_at: Callable[..., Page]) -> None:
    import random

    rng = random.Random(37)
    sequences = [[rng.choice(OPS) for _ in range(rng.randint(1, 30))] for _ in range(400)]
    page = open_at("pyramid", "desktop", {})
    results = page.evaluate(RUN_SEQUENCES, sequences)
    for ops, got in zip(sequences, results, strict=True):
        expected = model(ops)
        assert got["games"] == expected, ops
        assert got["finished"] == sum(result != "playing" for _, result in expected), ops
    groups = ["000 random", "000 daily", "001 winnable"]
    games = [[rng.choice(groups), rng.random() < 0.6, rng.randint(20, 900), rng.randint(10, 200)]
             for _ in range(2600)]
    folded = page.evaluate(FOLD, games)
    assert folded["kept"] == 1000 and folded["same"], folded
    assert not page.errors


FOLD = """(games) => {  // finished games: the same figures kept one by one or folded beyond 1,000
  const entry = ([group, won, seconds, moves], i) => ({id: `g${i}`, variant: group.split(" ")[0],
    type: group.split(" ")[1], label: `d${i}`, result: won ? "won" : "lost", time_ms: seconds * 1000, moves,
    clock0: 0, daily: null});
  const all = {...emptyStats(), games: games.map(entry)};
  const whole = summarize(all);
  const bounded = {...emptyStats(), games: []};
  for (const g of all.games) { bounded.games.push(g); foldOld(bounded); }
  const part = summarize(bounded);
  const figures = (x) => JSON.stringify(x.rows.map((r) => [r.key, r.games, r.wins, r.best_time_ms,
                                                             r.fewest_moves, r.best_streak, r.tail_streak]));
  const same = figures(whole) === figures(part) && whole.all.games === part.all.games &&
    whole.all.wins === part.all.wins;
  return {kept: bounded.games.length, same, whole: figures(whole), part: figures(part)};
}"""
