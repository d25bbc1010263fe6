"""A hint's reason as a player reads it (issue 37): a planner move that wins no sample is said plainly
to be no winning advice; the trained agent's and the network's probability is named as the preference
it is, never as a chance of winning; Japanese move sentences are spaced as the seeds write them. The
agents' own reason stays in the hint's ``reason``; the page reads ``reason_en`` / ``reason_ja``."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from solitaire_rl.envs.klondike import KlondikeGame, Move
from solitaire_rl.play.server.app import create_app
from solitaire_rl.play.server.hints import reason_fields
from solitaire_rl.play.server.klondike_wording import describe_klondike_move, selected_words
from solitaire_rl.play.server.wording import reason_en, reason_ja, tidy_ja
from tests.play_api_helpers import LOCAL

JA = "ぁ-んァ-ヶ一-龥"
GLITCH = re.compile(f"[{JA}] [{JA}]|[{JA}][0-9A-Za-z]|[0-9A-Za-z][{JA}]")
"""A space between two Japanese characters, or none between Japanese and a Latin letter or digit."""


@pytest.mark.parametrize(("reason", "en", "ja"), [
    ("wins in 0 of 32 sampled deals",
     "a rule-of-thumb move (the cards you have not seen will decide; it does not mean the deal is lost)",
     "経験則で選んだ手です（まだ見ていない札しだいです。勝てないという判定ではありません）"),
    ("wins in 0 of 24 sampled stocks (3 more undecided)",
     "a rule-of-thumb move (the cards you have not seen will decide; it does not mean the deal is lost)",
     "経験則で選んだ手です（まだ見ていない札しだいです。勝てないという判定ではありません）"),
    ("the trained policy's pick (100% likely)",
     "the trained agent's pick (preference 100%, not a win chance)",
     "学習済みエージェントの手（推す度合い 100%、勝てる見込みではありません）"),
    ("the network's pick (80% likely; win chance 40%)",
     "the network's pick (preference 80%; its win estimate 40%)",
     "ネットワークの手（推す度合い 80%、ネットワークの見積もる勝てる見込み 40%）"),
    ("wins in 26 of 32 sampled deals", "wins in 26 of 32 guesses at the cards you have not seen",
     "見えていない札の並びを 32 通り試して 26 通りで勝てる手です"),
    ("wins in 21 of 24 sampled stocks (2 more undecided)",
     "wins in 21 of 24 guesses at the cards you have not seen (2 more could not be worked out in time)",
     "見えていない札の並びを 24 通り試して 21 通りで勝てる手です"
     "（ほかに時間内に読み切れなかったものが 2 通り）"),
    # issue 51: the planners' endgame and their out-of-time move, without "solver", "sample" or "greedy"
    ("every card is known: the solver's winning line", "every card is known: this move is on a winning line",
     "すべての札が見えています：勝ち筋の一手です"),
    ("every card is known: the solver's move", "every card is known: this move is on a winning line",
     "すべての札が見えています：勝ち筋の一手です"),
    ("no sample finished in time: the greedy choice", "nothing was worked out in time: a rule-of-thumb move",
     "時間内に読み切れなかったので、簡単な目安で選んだ手です"),
])
def test_reasons_say_what_they_are(reason: str, en: str, ja: str) -> None:
    assert (reason_en(reason), reason_ja(reason)) == (en, ja)
    assert "sampled" not in en and "undecided" not in en  # issue 51: no engine words on the main screen
    assert "solver" not in en and "sample" not in en and "greedy" not in en
    assert "0 of" not in en and "won" not in en  # issue 51: no guess at unseen cards reads as a loss
    assert "likely" not in reason_en(reason) and "確率" not in reason_ja(reason)


def test_a_reason_we_do_not_know_is_left_as_it_is() -> None:
    assert reason_en("something new") == "something new" and reason_ja("something new") is None
    shown = reason_fields("wins in 0 of 32 sampled deals")  # a move hint's reason fields
    assert shown["reason"] == "wins in 0 of 32 sampled deals"
    assert shown["reason_en"].startswith("a rule-of-thumb move") and shown["reason_ja"]


def test_japanese_moves_are_spaced_as_the_seeds_write() -> None:
    assert tidy_ja("5 列目からダイヤの Q から 4 枚 を2 列目") == "5 列目からダイヤの Q から 4 枚を 2 列目"
    game = KlondikeGame("klondike-random-v1-1")
    for move in game.legal_moves():
        ja = describe_klondike_move(game, move)[1]
        assert not GLITCH.search(ja), ja
        assert ja.endswith(("へ", "ましょう")), ja
    for place in ("c1", "c4", "waste"):
        assert not GLITCH.search(selected_words(game, place, [Move.column_to_column(3, 4)])[1])


def test_the_state_carries_the_players_words_for_the_agents_hint() -> None:
    client = TestClient(create_app(), base_url=LOCAL)
    game = client.post("/api/games", json={"variant": "000", "deal": "pyramid-random-v1-7"}).json()
    s = client.post(f"/api/games/{game['session']}/hint", params={"source": "agent"}).json()
    hint = s["hint"]
    assert hint["agent"] == "ppo", hint  # solitaire_rl/agents/checkpoints/pyramid-000.zip
    assert hint["reason"].endswith("likely)")  # the agent's own words stay in the API's field
    assert hint["reason_en"].startswith("the trained agent's pick (preference ")
    assert hint["reason_ja"].startswith("学習済みエージェントの手（推す度合い ")
