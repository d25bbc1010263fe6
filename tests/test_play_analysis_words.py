"""The analysis in words for every outcome (issue 37): the title asks "Where was the win lost?" only
of a game that lost its win; a won game is titled as won; in a deal never winnable every lost position
reads "cannot be won", never "can no longer be won" (not at move 1, not later)."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from solitaire_rl.agents.solver import solve_pyramid
from solitaire_rl.envs.pyramid import PyramidGame
from solitaire_rl.play.server.app import create_app
from tests.play_api_helpers import LOCAL

WON_DEAL, NEVER_DEAL, LOST_DEAL = "pyramid-random-v1-1", "pyramid-random-v1-6", "pyramid-random-v1-5"


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(), base_url=LOCAL)


def random_game(deal: str, seed: int) -> list[str]:
    game = PyramidGame(deal, stock_top_playable=False)
    rng, moves = random.Random(seed), []
    while game.legal_moves():
        move = rng.choice(game.legal_moves())
        game.push(move)
        moves.append(str(move))
    return moves


def analysed(client: TestClient, deal: str, moves: list[str]) -> dict:
    session = client.post("/api/games", json={"variant": "001", "deal": deal}).json()["session"]
    for move in moves:
        assert (
            client.post(f"/api/games/{session}/actions", json={"type": "move", "move": move}).status_code
            == 200
        )
    r = client.post("/api/analysis", json={"game": "pyramid", "session": session})
    assert r.status_code == 201, r.text
    return r.json()


def texts(data: dict, lang: str) -> list[str]:
    return [data["start_text"][lang], *(m["verdict_text"][lang] for m in data["moves"])]


def test_a_won_game_is_titled_as_won(client: TestClient) -> None:
    line = solve_pyramid(WON_DEAL, variant="001", time_limit=5).line
    data = analysed(client, WON_DEAL, [str(m) for m in line])
    assert data["outcome"] == "won"
    assert data["title"] == {"en": "How the game was won", "ja": "勝った局の振り返り"}
    assert "lost" not in data["title"]["en"] and "逃" not in data["title"]["ja"]
    assert set(texts(data, "en")[:-1]) == {"can still be won"}
    # issue 51, defect 8: the last frame says the game has been won
    assert texts(data, "en")[-1] == "has been won" and texts(data, "ja")[-1] == "勝ちました"


def test_a_deal_never_winnable_cannot_be_won_from_its_first_move(client: TestClient) -> None:
    data = analysed(client, NEVER_DEAL, random_game(NEVER_DEAL, 1))
    assert data["outcome"] == "never_winnable" and data["start_verdict"] == "not_winnable"
    assert data["title"] == {"en": "A deal that cannot be won", "ja": "どう打っても勝てない配り"}
    assert set(texts(data, "en")) == {"cannot be won: no line wins this deal"}
    assert set(texts(data, "ja")) == {"勝てない（この配りはどう打っても勝てません）"}
    assert data["losing"] is None


def test_a_game_that_lost_its_win_says_where(client: TestClient) -> None:
    data = analysed(client, LOST_DEAL, random_game(LOST_DEAL, 5))
    assert data["outcome"] == "lost_at_move"
    assert data["title"] == {"en": "Where was the win lost?", "ja": "どこで勝ちを逃したか"}
    k = data["losing"]["index"]
    assert texts(data, "en")[k + 1] == "can no longer be won" and texts(data, "en")[k] == "can still be won"
