"""The chance of winning from here (issue 37): ``POST /api/klondike/games/{id}/chance`` answers the
planner's estimate for the position as the player sees it, with its sample count, through the
server's work limiter, and changes nothing in the game."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from solitaire_rl.agents.solver import SearchLimits
from solitaire_rl.envs.klondike import KlondikeGame
from solitaire_rl.play.server import create_app
from solitaire_rl.play.server.klondike_advice import (
    KlondikeHintAdvisor,
    KlondikeVerdictService,
    klondike_chance,
)
from solitaire_rl.play.server.klondike_api import KlondikeServer, mount_klondike
from solitaire_rl.play.server.schemas import ChanceAnswer
from tests.play_api_helpers import LOCAL, GameApi, busy_chance_is_refused, server_fixture

DEAL = "klondike-random-v1-1"
API = GameApi("/api/klondike/games")
WON = {"columns": [[] for _ in range(7)], "hidden": [0] * 7, "stock": [], "waste": [],
       "foundations": [13, 13, 13, 13]}
"""A position with every card on its foundation: the game is won."""

server = server_fixture(lambda: KlondikeServer(
    hints=KlondikeHintAdvisor(planner_time=30.0, planner_threads=1),
    verdicts=KlondikeVerdictService(SearchLimits(time_limit=2.0))))


@pytest.fixture
def client(server: KlondikeServer) -> Iterator[TestClient]:
    app = create_app(work_slots=2, work_queue_wait=0.1)
    with TestClient(mount_klondike(app, server), base_url=LOCAL) as c:
        yield c


def test_the_chance_is_the_best_moves_share_of_its_samples_and_changes_nothing(client: TestClient) -> None:
    state = API.new_game(client, deal=DEAL)
    url = f"{API.games}/{state['session']}"
    before = client.get(url).json()
    answer = API.chance(client, state)
    assert answer.basis == "sampled"
    assert 1 <= answer.samples <= 32 and answer.won + answer.unknown <= answer.samples
    assert answer.share == pytest.approx((answer.won + 0.5 * answer.unknown) / answer.samples)
    percent = 5 * round(answer.share * 20)
    assert f"at most about {percent}%" in answer.en
    assert f"of {answer.samples} guesses at where the hidden cards lie, {answer.won} can be won" in answer.en
    assert "sample" not in answer.en and "counted half" not in answer.en and "undecided" not in answer.en
    assert f"約 {percent}%" in answer.ja and f"{answer.samples} 通り" in answer.ja
    assert client.get(url).json() == before, "asking the chance changes nothing in the game"
    assert API.chance(client, state) == answer, "the same position, the same estimate"


def test_a_won_game_is_certain_without_sampling(client: TestClient) -> None:
    state = API.new_game(client, position=WON)
    answer = API.chance(client, state)
    assert (answer.share, answer.samples, answer.basis) == (1.0, 0, "over")
    assert answer.en and answer.ja


def test_every_card_known_gives_the_solvers_certain_answer() -> None:
    game = KlondikeGame.from_position([["KS"], ["QS"], [], [], [], [], []], [0] * 7, stock=[], waste=[],
                                      foundations=[13, 13, 13, 11])
    answer = ChanceAnswer.model_validate(klondike_chance(game, time_limit=None, threads=1))
    assert (answer.share, answer.basis) == (1.0, "certain") and "certain" in answer.en and "確実" in answer.ja


def shuffled_hidden(game: KlondikeGame, rng: random.Random) -> KlondikeGame:
    """``game`` with its face-down cards and unseen stock cards shuffled among their places."""
    other = game.copy()
    places = [("c", c, i) for c in range(7) for i in range(other.hidden[c])]
    unseen = set(other.unseen_stock())
    places += [("s", 0, i) for i, card in enumerate(other.stock) if card in unseen]

    def get(p: tuple[str, int, int]) -> int:
        return other.columns[p[1]][p[2]] if p[0] == "c" else other.stock[p[2]]

    cards = [get(p) for p in places]
    rng.shuffle(cards)
    for (kind, c, i), card in zip(places, cards, strict=True):
        if kind == "c":
            other.columns[c][i] = card
        else:
            other.stock[i] = card
    return other


def test_shuffling_the_hidden_cards_does_not_change_the_answer() -> None:
    game = KlondikeGame(DEAL)
    draw = next(m for m in game.legal_moves() if str(m) == "draw")
    game.push(draw)  # a stock draw: some stock cards seen, others not
    rng = random.Random(7)
    first = klondike_chance(game, time_limit=None, threads=1)
    assert first["basis"] == "sampled"
    for _ in range(2):
        other = shuffled_hidden(game, rng)
        assert other.key() != game.key(), "the shuffle moved a hidden card"
        assert klondike_chance(other, time_limit=None, threads=1) == first


def test_a_busy_server_answers_503_as_for_a_hint_and_changes_nothing(client: TestClient) -> None:
    state = API.new_game(client, deal=DEAL)
    busy_chance_is_refused(client, f"{API.games}/{state['session']}")
    assert API.chance(client, state).samples >= 1  # room again: the estimate comes


def test_an_unknown_game_is_404(client: TestClient) -> None:
    r = client.post(f"{API.games}/no-such-game/chance")
    assert r.status_code == 404 and r.json()["error"] == "UNKNOWN_GAME"


def test_guesses_not_worked_out_in_time_are_said_in_a_players_words() -> None:
    """Issue 51: the chance line says what it rests on (the cards seen, guesses at the hidden ones) without
    the engine's "sampled ... counted half"."""
    from solitaire_rl.play.server.klondike_advice import sampled_chance

    answer = sampled_chance(0.5, 14, 4, 32)
    assert answer["en"] == (
        "Chance of winning from here, by the cards you have seen: at most about 50% (of 32 guesses at where "
        "the hidden cards lie, 14 can be won; 4 more could not be worked out in time and count as even "
        "chances)")
    assert answer["ja"] == (
        "ここから勝てる見込み（見えている札から）：多くて約 50%（見えない札の並びを 32 通り想像すると、"
        "14 通りで勝てます。時間内に読み切れなかった 4 通りは五分五分と数えました）")


@pytest.mark.parametrize(("won", "unknown"), [(0, 0), (0, 1)])
def test_no_guess_won_is_very_low_and_no_proof_of_a_loss(won: int, unknown: int) -> None:
    """Issue 51: "at most about 0%" read as a proof of loss; no guess won (or one unsettled, 2%) is "very
    low", says that none of the guesses can be won and that this proves nothing."""
    from solitaire_rl.play.server.klondike_advice import sampled_chance

    answer = sampled_chance((won + 0.5 * unknown) / 32, won, unknown, 32)
    assert answer["en"].startswith(
        "Chance of winning from here, by the cards you have seen: very low (none of 32 guesses at where the "
        "hidden cards lie can be won")
    assert answer["en"].endswith("; this does not prove the game lost)")
    assert answer["ja"].startswith(
        "ここから勝てる見込み（見えている札から）：ごくわずか（見えない札の並びを 32 通り想像しても、"
        "勝てる並びはありません")
    assert answer["ja"].endswith("。負けと決まったわけではありません）")
    for text in (answer["en"], answer["ja"]):
        assert "0%" not in text and "at most" not in text and "多くて" not in text, text
    assert ("could not be worked out in time" in answer["en"]) == bool(unknown)


@pytest.mark.parametrize(("won", "unknown"), [(32, 0), (31, 1)])
def test_every_guess_won_is_high_but_not_certain(won: int, unknown: int) -> None:
    """Issue 51: an estimate that rounds to 100% is not said "at most about 100%" (read as certain): it is
    "high, but not certain", with the guesses it rests on."""
    from solitaire_rl.play.server.klondike_advice import sampled_chance

    answer = sampled_chance((won + 0.5 * unknown) / 32, won, unknown, 32)
    assert answer["en"].startswith(
        f"Chance of winning from here, by the cards you have seen: high, but not certain (of 32 guesses at "
        f"where the hidden cards lie, {won} can be won")
    assert answer["ja"].startswith(
        f"ここから勝てる見込み（見えている札から）：高いものの、確実ではありません（見えない札の並びを "
        f"32 通り想像すると、{won} 通りで勝てます")
    for text in (answer["en"], answer["ja"]):
        assert "100%" not in text and "at most" not in text and "多くて" not in text, text
