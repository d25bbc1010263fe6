"""The chance of clearing the pyramid from here (issue 37): ``POST /api/games/{id}/chance`` answers the
``pimc`` planner's estimate for the position as the player sees it (samples of the stock order the
player has not seen, each solved exactly: an upper bound, worded "at most about"), through the work
limiter as a hint, and changes nothing in the game; shuffling the unseen stock cards leaves it alone."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from solitaire_rl.agents.planner.pimc import unseen_places
from solitaire_rl.agents.solver import SearchLimits
from solitaire_rl.envs.deals import encode_deal_code, resolve_deal
from solitaire_rl.envs.pyramid import PyramidGame
from solitaire_rl.play.server import PyramidServer, create_app
from solitaire_rl.play.server.pyramid_advice import PyramidHintAdvisor, PyramidVerdictService
from solitaire_rl.play.server.pyramid_chance import CHANCE_TEXT, pyramid_chance, sampled_chance
from solitaire_rl.play.server.schemas import ChanceAnswer
from tests.conftest import DRAW_ONLY_PYRAMID, DRAW_ONLY_STOCK, WIN_LINE, WIN_PYRAMID, build_pyramid_deal
from tests.play_api_helpers import LOCAL, GameApi, busy_chance_is_refused, server_fixture

MIDDLING = "pyramid-random-v1-28"
"""In variant 001 from its start: about 80%, neither certain nor hopeless."""
API = GameApi("/api/games")

server = server_fixture(lambda: PyramidServer(hints=PyramidHintAdvisor(planner_time=30.0, planner_threads=1),
                                              verdicts=PyramidVerdictService(SearchLimits(time_limit=2.0))))


@pytest.fixture
def client(server: PyramidServer) -> Iterator[TestClient]:
    with TestClient(create_app(server, work_slots=2, work_queue_wait=0.1), base_url=LOCAL) as c:
        yield c


def test_the_chance_is_the_best_moves_share_of_its_samples_and_changes_nothing(client: TestClient) -> None:
    state = API.new_game(client, variant="001", deal=MIDDLING)
    url = f"{API.games}/{state['session']}"
    before = client.get(url).json()
    answer = API.chance(client, state)
    assert answer.basis == "sampled" and answer.samples == 32
    assert answer.won + answer.unknown <= answer.samples
    assert answer.share == pytest.approx((answer.won + 0.5 * answer.unknown) / answer.samples)
    assert 0.0 < answer.share < 1.0
    percent = 5 * round(answer.share * 20)
    assert answer.en.startswith(
        f"Chance of clearing the pyramid from here, by the cards you have seen: at most about {percent}% ")
    assert f"of 32 guesses at the order of the stock cards you have not seen, {answer.won} can" in answer.en
    assert "sample" not in answer.en and "counted half" not in answer.en and "undecided" not in answer.en
    assert f"多くて約 {percent}%" in answer.ja and "32 通り想像すると" in answer.ja
    assert f"{answer.won} 通りで全消しできます" in answer.ja
    assert client.get(url).json() == before, "asking the chance changes nothing in the game"
    assert API.chance(client, state) == answer, "the same position, the same estimate"


def shuffled_unseen(game: PyramidGame, rng: random.Random) -> PyramidGame:
    """The same game, its stock cards never seen face up shuffled among their places."""
    cards = list(game.deal.cards)
    hidden = [i for i in range(28, 52) if not (game.seen >> cards[i]) & 1]
    moved = [cards[i] for i in hidden]
    while [cards[i] for i in hidden] == moved:
        rng.shuffle(moved)
    for i, card in zip(hidden, moved, strict=True):
        cards[i] = card
    other = PyramidGame(encode_deal_code(cards), stock_top_playable=game.stock_top_playable)
    other.replay([str(m) for m in game.history])
    return other


@pytest.mark.parametrize(("variant", "draws"), [("001", 0), ("001", 3), ("000", 2)])
def test_shuffling_the_unseen_stock_cards_does_not_change_the_answer(variant: str, draws: int) -> None:
    game = PyramidGame(resolve_deal(MIDDLING, "pyramid"), stock_top_playable=variant == "000")
    game.replay(["draw"] * draws)
    first = pyramid_chance(game, time_limit=None)
    assert first["basis"] == "sampled" and unseen_places(game)
    rng = random.Random(11)
    for _ in range(3):
        other = shuffled_unseen(game, rng)
        assert other.stock_order() != game.stock_order(), "the shuffle moved an unseen card"
        assert pyramid_chance(other, time_limit=None) == first


def test_every_stock_card_seen_gives_the_solvers_certain_answer() -> None:
    won = PyramidGame(build_pyramid_deal(WIN_PYRAMID))
    won.replay(["draw"] * 24)  # every stock card face up once: nothing is sampled
    answer = ChanceAnswer.model_validate(pyramid_chance(won, time_limit=None))
    assert (answer.share, answer.basis) == (1.0, "certain") and "certain" in answer.en and "確実" in answer.ja
    lost = PyramidGame(build_pyramid_deal(DRAW_ONLY_PYRAMID, DRAW_ONLY_STOCK))
    lost.replay(["draw"] * 24)
    answer = ChanceAnswer.model_validate(pyramid_chance(lost, time_limit=None))
    assert (answer.share, answer.basis) == (0.0, "certain") and "no line clears it" in answer.en


def test_a_finished_game_needs_no_sampling(client: TestClient) -> None:
    state = API.new_game(client, deal=build_pyramid_deal(WIN_PYRAMID))
    for move in WIN_LINE:
        state = API.act(client, state, type="move", move=move)
    assert state["outcome"] == "win"
    answer = API.chance(client, state)
    assert (answer.share, answer.samples, answer.basis) == (1.0, 0, "over") and answer.ja
    stuck = PyramidGame(build_pyramid_deal(DRAW_ONLY_PYRAMID, DRAW_ONLY_STOCK))
    stuck.replay((["draw"] * 24 + ["recycle"]) * 2 + ["draw"] * 24)
    assert stuck.outcome() == "dead_end"
    answer = ChanceAnswer.model_validate(pyramid_chance(stuck, time_limit=None))
    assert (answer.share, answer.basis) == (0.0, "over") and "no move is left" in answer.en


def test_a_busy_server_answers_503_as_for_a_hint_and_changes_nothing(client: TestClient) -> None:
    state = API.new_game(client, variant="001", deal=MIDDLING)
    busy_chance_is_refused(client, f"{API.games}/{state['session']}")
    assert API.chance(client, state).samples == 32  # room again: the estimate comes


def test_an_unknown_game_is_404_and_a_get_is_405(client: TestClient) -> None:
    r = client.post(f"{API.games}/no-such-game/chance")
    assert r.status_code == 404 and r.json()["error"] == "UNKNOWN_GAME" and r.json()["message_ja"]
    state = API.new_game(client)
    r = client.get(f"{API.games}/{state['session']}/chance")
    assert r.status_code == 405 and r.json()["error"] == "METHOD_NOT_ALLOWED"


PROVED_LOST_001 = "pyramid-random-v1-6"
"""In variant 001 the solver proves this deal lost from its start."""


def test_a_proved_loss_in_001_is_a_chance_of_none_as_the_verdict_says() -> None:
    """Issue 51: "at most about 95%" stood above "Not winnable from here"; the chance (and so the drop
    warning, which reads it) follows the verdict's proof."""
    from solitaire_rl.agents.solver import NOT_WINNABLE, play_verdict
    from solitaire_rl.play.server.pyramid_advice import verdict_json

    game = PyramidGame(PROVED_LOST_001, stock_top_playable=False)
    verdict = verdict_json(play_verdict(game.copy(), limits=SearchLimits(time_limit=10.0)), game)
    assert verdict["status"] == NOT_WINNABLE
    answer = ChanceAnswer(**pyramid_chance(game, time_limit=10.0))
    assert answer.share == 0.0 and answer.basis == "certain"
    assert (answer.en, answer.ja) == CHANCE_TEXT["proved_loss"], "none, and what the proof knew"
    assert "the unseen stock's order too" in answer.en and "まだ見ていない山札の並びも含め、" in answer.ja
    shown = ChanceAnswer(**pyramid_chance(PyramidGame(MIDDLING, stock_top_playable=False), time_limit=10.0))
    assert 0 < shown.share < 1 and shown.basis == "sampled", "a deal not proved lost is still estimated"


def test_after_a_proved_loss_the_hint_says_so_before_its_move() -> None:
    """Issue 51: hints went on saying "Draw a card" through passes after the loss was proved; before the
    proof the seeds allow (000: every stock card seen) nothing of the kind is said."""
    from solitaire_rl.play.server.pyramid_advice import LOST_HINT

    advisor = PyramidHintAdvisor(planner_time=5.0, planner_threads=1)
    lost = advisor.hint(PyramidGame(PROVED_LOST_001, stock_top_playable=False))
    assert lost is not None and lost["en"].startswith(LOST_HINT[0]) and lost["ja"].startswith(LOST_HINT[1])
    unseen = advisor.hint(PyramidGame(PROVED_LOST_001))  # 000 at its start: 23 stock cards unseen
    assert unseen is not None and LOST_HINT[0] not in unseen["en"]


def test_guesses_not_worked_out_in_time_are_said_in_a_players_words() -> None:
    """Issue 51: the chance line says what it rests on (the cards seen, guesses at the unseen stock's
    order) without the engine's "sampled ... counted half"."""
    answer = sampled_chance(0.75, 22, 4, 32)
    assert answer["en"] == (
        "Chance of clearing the pyramid from here, by the cards you have seen: at most about 75% (of 32 "
        "guesses at the order of the stock cards you have not seen, 22 can be cleared; 4 more could not be "
        "worked out in time and count as even chances)")
    assert answer["ja"] == (
        "ここから全消しできる見込み（見たカードから）：多くて約 75%（まだ見ていない山札の並びを 32 通り"
        "想像すると、22 通りで全消しできます。時間内に読み切れなかった 4 通りは五分五分と数えました）")


@pytest.mark.parametrize(("won", "unknown"), [(0, 0), (0, 1)])
def test_no_guess_cleared_is_very_low_and_no_proof(won: int, unknown: int) -> None:
    """Issue 51: not "at most about 0%", which reads as a proof that the pyramid cannot be cleared."""
    answer = sampled_chance((won + 0.5 * unknown) / 32, won, unknown, 32)
    assert answer["en"].startswith(
        "Chance of clearing the pyramid from here, by the cards you have seen: very low (none of 32 guesses "
        "at the order of the stock cards you have not seen can be cleared")
    assert answer["en"].endswith("; this does not prove it cannot be cleared)")
    assert answer["ja"].startswith("ここから全消しできる見込み（見たカードから）：ごくわずか（"
                                   "まだ見ていない山札の並びを 32 通り想像しても、"
                                   "全消しできる並びはありません")
    assert answer["ja"].endswith("。全消しできないと決まったわけではありません）")
    for text in (answer["en"], answer["ja"]):
        assert "0%" not in text and "at most" not in text and "多くて" not in text, text


@pytest.mark.parametrize(("won", "unknown"), [(32, 0), (31, 1)])
def test_every_guess_cleared_is_high_but_not_certain(won: int, unknown: int) -> None:
    """Issue 51: an estimate that rounds to 100% is not "at most about 100%" (read as certain)."""
    answer = sampled_chance((won + 0.5 * unknown) / 32, won, unknown, 32)
    assert answer["en"].startswith("Chance of clearing the pyramid from here, by the cards you have seen: "
                                   f"high, but not certain (of 32 guesses at the order of the stock cards "
                                   f"you have not seen, {won} can be cleared")
    assert answer["ja"].startswith("ここから全消しできる見込み（見たカードから）："
                                   "高いものの、確実ではありません")
    for text in (answer["en"], answer["ja"]):
        assert "100%" not in text and "at most" not in text and "多くて" not in text, text
