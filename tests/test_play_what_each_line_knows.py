"""Issue 51 (defect 3): one honest policy for the verdict and the chance, stated on the page.

Each line says what it knows, so that the two never read as disagreeing: the verdict knows every card
(in Pyramid 001 the whole deal, the unseen stock's order too, as seed 001 has it; in Klondike a
winnable deal was checked, every card known, when it was dealt; otherwise only once every card has been
seen), the chance knows the cards the player has seen. "Chance ...: at most about 80%" under "A winning
line exists" (Pyramid 001's pyramid-random-v1-28) read as a contradiction. A chance is still none wherever
a loss is proved (``test_play_pyramid_chance.py``), and the rules state the policy in both languages.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from solitaire_rl.agents.solver import NOT_WINNABLE, UNSEEN_STOCK, WINNABLE, SearchLimits, play_verdict
from solitaire_rl.envs.klondike import KlondikeGame
from solitaire_rl.envs.pyramid import PyramidGame
from solitaire_rl.play.server.klondike_advice import (
    VERDICT_TEXT as KLONDIKE_VERDICT_TEXT,
)
from solitaire_rl.play.server.klondike_advice import (
    klondike_chance,
    klondike_verdict,
    proved_at_start,
)
from solitaire_rl.play.server.klondike_advice import (
    verdict_json as klondike_verdict_json,
)
from solitaire_rl.play.server.pyramid_advice import VERDICT_TEXT, WHOLE_DEAL_TEXT, verdict_json
from solitaire_rl.play.server.pyramid_chance import pyramid_chance

STATIC = Path(__file__).resolve().parents[1] / "solitaire_rl" / "play" / "static"
LIMITS = SearchLimits(time_limit=10.0)
SEEN = ("by the cards you have seen", "（見たカードから）", "（見えている札から）")


def pyramid_lines(game: PyramidGame) -> tuple[dict[str, Any], dict[str, Any]]:
    """The verdict and the chance the Pyramid page shows for ``game``."""
    return (verdict_json(play_verdict(game.copy(), limits=LIMITS), game),
            pyramid_chance(game, time_limit=None, threads=1))


def test_pyramid_001_says_its_verdict_knows_the_whole_deal_and_its_chance_what_was_seen() -> None:
    """The issue's example: a winning line (the whole deal) beside an estimate of about 80% (guesses)."""
    verdict, chance = pyramid_lines(PyramidGame("pyramid-random-v1-28", stock_top_playable=False))
    assert verdict["status"] == WINNABLE and (verdict["en"], verdict["ja"]) == WHOLE_DEAL_TEXT[WINNABLE]
    assert verdict["en"].startswith("A line that clears the pyramid exists (knowing every card, the unseen ")
    assert chance["basis"] == "sampled" and 0 < chance["share"] < 1
    assert chance["en"].startswith("Chance of clearing the pyramid from here, by the cards you have seen: "
                                   "at most about 80% (of 32 guesses at the order of the stock cards you "
                                   "have not seen")
    assert chance["ja"].startswith("ここから全消しできる見込み（見たカードから）：多くて約 80%")


def test_pyramid_001_once_the_whole_stock_is_seen_says_every_card_was_seen() -> None:
    game = PyramidGame("pyramid-random-v1-28", stock_top_playable=False)
    while game.stock:  # 24 draws: every stock card seen
        game.push(next(m for m in game.legal_moves() if str(m) == "draw"))
    assert game.all_stock_seen()
    verdict, chance = pyramid_lines(game)
    assert verdict["status"] in (WINNABLE, NOT_WINNABLE)
    assert (verdict["en"], verdict["ja"]) == VERDICT_TEXT[verdict["status"]]
    assert verdict["en"].endswith("(you have seen every card).")
    assert verdict["ja"].endswith("（山札もすべて見ています）")
    assert chance["basis"] == "certain" and "every stock card has been seen" in chance["en"]


def test_a_proved_loss_in_001_says_what_the_proof_knew_on_both_lines() -> None:
    verdict, chance = pyramid_lines(PyramidGame("pyramid-random-v1-6", stock_top_playable=False))
    assert verdict["status"] == NOT_WINNABLE
    assert (verdict["en"], verdict["ja"]) == WHOLE_DEAL_TEXT[NOT_WINNABLE]
    assert chance["share"] == 0 and "the unseen stock's order too" in chance["en"]
    unseen_too = "まだ見ていない山札の並びも含め、"
    assert unseen_too in verdict["ja"] and unseen_too in chance["ja"]


def test_pyramid_000_says_nothing_while_stock_cards_are_unseen_in_a_players_words() -> None:
    verdict, chance = pyramid_lines(PyramidGame("pyramid-random-v1-28"))
    assert verdict["status"] == UNSEEN_STOCK
    assert verdict["en"] == ("Some stock cards have not been seen yet: whether the pyramid can be cleared is "
                             "said once you have seen them all.")
    assert chance["basis"] == "sampled" and chance["en"].startswith(
        "Chance of clearing the pyramid from here, by the cards you have seen:")


def test_klondike_a_winnable_deals_verdict_says_it_was_checked_knowing_every_card() -> None:
    """At a winnable deal's start the verdict is the deal's (checked, every card known, when dealt) and the
    chance is an estimate from the cards seen: the one knows the whole deal, the other what was seen."""
    game = KlondikeGame("klondike-winnable-v1-7")
    proved = proved_at_start(game)
    assert proved is not None
    verdict = klondike_verdict_json(proved)
    assert verdict["en"] == "A winning line exists: a winnable deal, checked knowing every card when dealt."
    assert "すべての札で確かめてあります" in verdict["ja"]
    chance = klondike_chance(game, time_limit=None, threads=1)
    assert chance["basis"] == "sampled"
    assert chance["en"].startswith("Chance of winning from here, by the cards you have seen: ")
    assert chance["ja"].startswith("ここから勝てる見込み（見えている札から）：")


def test_klondike_a_random_deal_says_nothing_while_cards_are_hidden_and_every_card_once_known() -> None:
    hidden = klondike_verdict_json(klondike_verdict(KlondikeGame("klondike-random-v1-5"), LIMITS))
    assert hidden["basis"] == "hidden" and hidden["en"].startswith("Not decided while cards are hidden")
    known = KlondikeGame.from_position([["KS"], ["QS"], [], [], [], [], []], [0] * 7, stock=[], waste=[],
                                       foundations=[13, 13, 13, 11])
    verdict = klondike_verdict_json(klondike_verdict(known, LIMITS))
    assert verdict["status"] == WINNABLE and (verdict["en"], verdict["ja"]) == KLONDIKE_VERDICT_TEXT[WINNABLE]
    assert verdict["en"].endswith("(every card is known).")


@pytest.mark.parametrize("page", ["klondike.html", "pyramid.html"])
def test_the_rules_state_the_policy_once_in_each_language(page: str) -> None:
    html = (STATIC / page).read_text(encoding="utf-8")
    en = re.findall(r'<p id="policy">(.*?)</p>', html, re.S)
    ja = re.findall(r'<p id="policy-ja">(.*?)</p>', html, re.S)
    assert len(en) == len(ja) == 1
    said = re.sub(r"\s+", " ", en[0])
    assert "What each line knows" in said and "the other only what you have seen" in said
    assert "very low" in said and "high, but not certain" in said and "none wherever a loss is proved" in said
    for words in ("それぞれの行が知っていること", "ごくわずか", "高いものの、確実ではありません",
                  "だけを知っているからです"):
        assert words in ja[0], words
