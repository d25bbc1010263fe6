"""Issue 51 (defect 6): no engine words on the main screen, in either language on either page.

Everything a player may read at the page's default settings comes from the server's hints (with their
reasons), verdicts, chances and the analysis, or from the pages' own words. Here a whole deal is followed
hint by hint on each page (Klondike, Pyramid 000 and 001), every text the page would show on the way is
kept (:func:`solitaire_rl.play.server.follow_hints.shown_texts`) and scanned for :data:`ENGINE_WORDS`;
so is every fixed text those answers are made of (the verdict, chance and hint tables, the reasons of the
planners that answer by default, the analysis's words) and the pages' words that show at default
settings. The engine's own words stay in the fields the Advanced panel and the API read (``reason``,
``agent``, ``fallback_reason``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from solitaire_rl.agents.planner.hop import ENDGAME_REASON
from solitaire_rl.play.server import analysis_words, create_app, hints, klondike_advice, pyramid_advice
from solitaire_rl.play.server import pyramid_chance as pyramid_chance_words
from solitaire_rl.play.server.follow_hints import follow_game, shown_texts
from solitaire_rl.play.server.klondike_advice import KlondikeHintAdvisor
from solitaire_rl.play.server.klondike_api import KlondikeServer, mount_klondike
from solitaire_rl.play.server.pyramid_advice import PyramidHintAdvisor
from solitaire_rl.play.server.pyramid_api import PyramidServer
from solitaire_rl.play.server.wording import reason_en, reason_ja
from tests.test_play_follow_daily_hints import ServerApi

ENGINE_WORDS = re.compile(
    r"planner|solver|commitment|\bworlds?\b|\bsampled?\b|\bsamples\b|verdict|greedy|tie-break|"
    r"\bagent\b|network|ソルバー|プランナー|コミットメント|エージェント|ネットワーク|サンプル", re.IGNORECASE)
"""The engine's words, which a player at the page's default settings never reads (issue 51)."""
STATIC = Path(__file__).resolve().parents[1] / "solitaire_rl" / "play" / "static"
CHANCE_EVERY = 6
"""The chance is asked at every 6th position of a followed deal (and wherever the verdict decides)."""


def engine_words(texts: set[str]) -> dict[str, list[str]]:
    """The texts that hold an engine word, with the words found."""
    return {t: ENGINE_WORDS.findall(t) for t in sorted(texts) if ENGINE_WORDS.search(t)}


def test_the_scan_finds_the_words_it_replaced() -> None:
    """The words the page used to show are found, so a scan that finds none means something."""
    old = {"no commitment wins in the worlds it tried: a move that can still make progress",
           "コミットメント・プランナーの手です", "すべての札が見えています：ソルバーの勝ち筋です",
           "You have been in this position several times already: the planner sees no way forward",
           "Some stock cards have not been seen yet: no verdict; hints advise from what you see.",
           "every card is known: the solver's move", "no sample finished in time: the greedy choice"}
    assert set(engine_words(old)) == old


@pytest.fixture(scope="module")
def api() -> Iterator[ServerApi]:
    """Both pages' servers, the hints at the page's default sources on a budget in worlds and states (the
    same on every machine)."""
    app = create_app(PyramidServer(hints=PyramidHintAdvisor(planner_threads=1)), work_slots=2)
    advisor = KlondikeHintAdvisor(planner_threads=1, planner_time=None,
                                  commitment_options={"time_limit": None, "max_worlds": 30})
    mount_klondike(app, KlondikeServer(hints=advisor))
    yield ServerApi(app)


@pytest.mark.parametrize(("game", "variant", "deal", "end"), [
    ("klondike", None, "klondike-random-v1-5", "win"),  # the endgame's words, a certain chance
    ("klondike", None, "klondike-random-v1-3", "no_progress"),  # no guess won, no progress, never winnable
    ("pyramid", "000", "pyramid-random-v1-5", "win"),  # the stock unseen, then every card seen
    ("pyramid", "001", "pyramid-random-v1-5", "dead_end"),  # the whole deal's verdict, a proved loss
])
def test_a_followed_deal_shows_no_engine_word(api: ServerApi, game: str, variant: str | None, deal: str,
                                              end: str) -> None:
    followed = follow_game(api, game, deal, variant=variant, chance_every=CHANCE_EVERY, analyse_won=True)
    assert followed.end == end and followed.moves > 20, (followed.end, followed.moves)
    texts = followed.texts
    # the scan read every kind of line, in both languages
    assert any(t.startswith(("Chance of winning", "Chance of clearing")) for t in texts)
    assert any("見込み" in t for t in texts) and any("手順" in t or "全消し" in t for t in texts)
    assert any(t.startswith(("Not decided", "Not winnable", "Some stock", "Knowing every card",
                             "You have seen", "Every card")) for t in texts), "a verdict was read"
    assert any("How the game was won" in t or "could no longer" in t or "cannot be won" in t for t in texts)
    assert engine_words(texts) == {}


def chance_texts() -> set[str]:
    """Every form of both games' sampled chance: some won, none won, all won, some unsettled."""
    out: set[str] = set()
    for words in (klondike_advice.sampled_chance, pyramid_chance_words.sampled_chance):
        for won, unknown in ((19, 0), (14, 4), (0, 0), (0, 1), (31, 1), (32, 0)):
            out |= shown_texts(words((won + 0.5 * unknown) / 32, won, unknown, 32))
    return out


PLANNER_REASONS = (
    "wins in 0 of 32 sampled deals", "wins in 0 of 24 sampled stocks (2 more undecided)",
    "wins in 19 of 32 sampled deals", "wins in 19 of 32 sampled deals (3 more undecided)",
    "wins in 20 of 24 sampled stocks", "the only legal move", "safe to put up: no card can need it any more",
    ENDGAME_REASON, "every card is known: the solver's move",
    "every card is known and no line clears the pyramid",
    "no sample finished in time: the greedy choice",
    "no sample finished in time: the tie-break player's move",
)
"""The reasons of the planners that answer at the page's defaults (``pimc``, ``hop``: the Klondike
commitment bot's stand-in), in their own words (hop's way out of a loop is worded from its kind:
``WAY_OUT_WORDS``)."""


def fixed_texts() -> set[str]:
    """Every fixed text the hints, verdicts, chances and the analysis are made of."""
    pairs: list[tuple[str, str]] = [
        *klondike_advice.VERDICT_TEXT.values(), *klondike_advice.CHANCE_TEXT.values(),
        *klondike_advice.COMMITMENT_REASONS.values(), klondike_advice.COMMITMENT_MOVE,
        klondike_advice.LOOPING_TEXT, klondike_advice.WAY_OUT_WORDS, klondike_advice.LOST_HINT,
        *pyramid_advice.VERDICT_TEXT.values(), *pyramid_advice.WHOLE_DEAL_TEXT.values(),
        pyramid_advice.LOST_HINT, *pyramid_chance_words.CHANCE_TEXT.values(), hints.LOST_REASON,
    ]
    out = {text for pair in pairs for text in pair}
    words: list[dict[str, Any]] = [
        *analysis_words.VERDICT_WORDS.values(), *analysis_words.TITLE_WORDS.values(),
        analysis_words.NEVER_WINNABLE_WORDS, analysis_words.WON_WORDS, analysis_words.HINT_MOVE_FIRST]
    out |= {text for w in words for text in w.values()}
    for reason in PLANNER_REASONS:
        out.add(reason_en(reason))
        out.add(reason_ja(reason) or "")
    return out | chance_texts()


def test_no_fixed_text_of_a_hint_verdict_chance_or_analysis_holds_an_engine_word() -> None:
    texts = fixed_texts()
    assert len(texts) > 60
    assert engine_words(texts) == {}


def test_every_default_planner_reason_has_a_players_words_in_both_languages() -> None:
    """A reason the page shows is never the planner's English as it came (``reason_ja`` ``None`` would show
    an empty reason in Japanese)."""
    for reason in PLANNER_REASONS:
        assert reason_ja(reason), reason
        assert not ENGINE_WORDS.search(reason_en(reason)), reason


def js_string(source: str, key: str) -> str:
    """The string literal of ``key: "..."`` in a page's words (the first, the English one, unless the
    source is cut to the Japanese)."""
    found = re.search(rf'\b{key}: "([^"]*)"', source)
    assert found, key
    return found[1]


def test_the_pages_own_words_at_default_settings_hold_no_engine_word() -> None:
    """The words a page shows at its defaults that used to name the engine: the quick answer's note (the
    default source out of time), the deal type's title, the settings' line switch, the chance beside a proved
    loss, the analysis while it works, and the rules' paragraph on what each line knows."""
    common = (STATIC / "common.js").read_text(encoding="utf-8")
    klondike = (STATIC / "klondike.js").read_text(encoding="utf-8")
    player = (STATIC / "player.js").read_text(encoding="utf-8")
    analysis = (STATIC / "analysis.js").read_text(encoding="utf-8")
    pyramid = (STATIC / "pyramid.js").read_text(encoding="utf-8")
    texts = set()
    for source, keys in ((common, ("quickAnswer",)), (klondike, ("dealTypeTitle",)),
                         (player, ("showVerdict",)), (analysis, ("analysing",))):
        ja = source[source.index("ja: {"):]
        texts |= {js_string(source, key) for key in keys} | {js_string(ja, key) for key in keys}
    lost = pyramid[pyramid.index("function chanceLost()"):]
    texts |= set(re.findall(r'"([^"]+)"', lost[:lost.index("\n}\n")]))
    for page in ("klondike.html", "pyramid.html"):
        html = (STATIC / page).read_text(encoding="utf-8")
        for policy in ("policy", "policy-ja"):
            found = re.search(rf'<p id="{policy}">(.*?)</p>', html, re.S)
            assert found, (page, policy)
            texts.add(re.sub(r"<[^>]+>", "", found[1]))
    assert len(texts) >= 14, texts  # 4 keys and 2 policies in 2 languages, the chance beside a loss
    assert engine_words(texts) == {}
