"""The analysis endpoints (/api/analysis): a session's finished game or a replay, in words, with the
positions as pictures; every bad request refused with its reason."""

from __future__ import annotations

import io
import json

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from solitaire_rl.agents.analysis import analyse_game
from solitaire_rl.play.server.app import create_app
from tests.play_api_helpers import LOCAL, engine_codes, random_pyramid_game

DEAL = "pyramid-random-v1-5"


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(), base_url=LOCAL)


def random_moves() -> list[str]:
    return random_pyramid_game(DEAL)


def test_a_finished_session_is_analysed_in_words_with_pictures(client: TestClient) -> None:
    moves = random_moves()
    session = client.post("/api/games", json={"variant": "001", "deal": DEAL}).json()["session"]
    r = client.post("/api/analysis", json={"game": "pyramid", "session": session})
    assert r.status_code == 409 and r.json()["error"] == "GAME_NOT_OVER" and r.json()["message_ja"]
    for move in moves:
        r = client.post(f"/api/games/{session}/actions", json={"type": "move", "move": move})
        assert r.status_code == 200
    r = client.post("/api/analysis", json={"game": "pyramid", "session": session})
    assert r.status_code == 201
    data = r.json()
    report = analyse_game("pyramid-001", DEAL, moves)
    assert [m["verdict"] for m in data["moves"]] == list(report.verdicts[1:])
    assert data["start_verdict"] == report.verdicts[0] and data["frames"] == len(moves) + 1
    assert data["losing"]["index"] == report.first_losing_move
    assert [m["index"] for m in data["moves"] if m["losing"]] == [report.first_losing_move]
    words = {k: v for k, v in data.items() if k not in ("id", "deal", "variant", "moves")}
    words["moves"] = [(m["text"], m["verdict_text"]) for m in data["moves"]]
    text = json.dumps(words, ensure_ascii=False)
    assert engine_codes(text) == []
    for lang in ("en", "ja"):
        losing = data["losing"]
        assert data["summary"][lang] and losing["alternative"][lang] and losing["judgement_text"][lang]
    board = client.get(f"/api/analysis/{data['id']}/frames/0.png")
    assert board.status_code == 200 and board.headers["content-type"] == "image/png"
    assert Image.open(io.BytesIO(board.content)).size == (640, 384)
    k = report.first_losing_move
    plain = client.get(f"/api/analysis/{data['id']}/frames/{k}.png").content
    framed = client.get(f"/api/analysis/{data['id']}/frames/{k}.png?show=alternative").content
    assert plain != framed
    assert client.get(f"/api/analysis/{data['id']}/frames/{k + 1}.png?show=alternative").status_code == 400
    assert client.get(f"/api/analysis/{data['id']}/frames/{len(moves) + 1}.png").status_code == 400
    assert client.get("/api/analysis/nothing/frames/0.png").status_code == 404
    assert client.get("/analysis").status_code == 200


def test_a_replay_of_a_benchmark_row_and_bad_requests(client: TestClient) -> None:
    moves = random_moves()
    r = client.post("/api/analysis", json={"game": "pyramid", "variant": "001", "deal": DEAL, "moves": moves,
                                           "agent": "random"})
    assert r.status_code == 201 and r.json()["agent"] == "random"
    r = client.post("/api/analysis", json={"game": "klondike", "deal": "klondike-random-v1-1",
                                           "moves": ["draw", "c1>c7"]})
    assert r.status_code == 400 and "move 2" in r.json()["message"]
    bad = [
        {"game": "pyramid", "deal": DEAL},  # no moves
        {"game": "pyramid", "session": "x", "deal": DEAL, "moves": []},  # both
        {"game": "pyramid", "deal": "pyramid-random-v9-1", "moves": []},  # no such deal
    ]
    for body in bad:
        assert client.post("/api/analysis", json=body).status_code == 400, body
    assert client.post("/api/analysis", json={"game": "spider", "deal": DEAL, "moves": []}).status_code == 422
    assert client.post("/api/analysis", json={"game": "pyramid", "session": "nope"}).status_code == 404


def test_the_waste_fan_shows_each_cards_corner_whole(client: TestClient) -> None:
    """Issue 51 (defect 8): the analysis viewer's waste fan clipped a 10's corner. In the frame of a waste
    Q, 10, A (klondike-random-v1-199 after 8 draws) the 10's corner, rank and suit, is drawn as on a card
    alone: the next card starts past it."""
    from solitaire_rl.envs.card_art import draw_face, new_table
    from solitaire_rl.envs.cards import card_name
    from solitaire_rl.envs.klondike import KlondikeGame, Move
    from solitaire_rl.envs.klondike.picture import CARD_H, CARD_W, FAN, LEFT, PITCH, TOP

    game = KlondikeGame("klondike-random-v1-199")
    moves = ["draw"] * 8
    for move in moves:
        game.push(Move.parse(move))
    assert [card_name(c) for c in game.waste[-3:]] == ["QD", "10D", "AD"]
    data = client.post("/api/analysis", json={"game": "klondike", "deal": "klondike-random-v1-199",
                                              "moves": moves}).json()
    png = client.get(f"/api/analysis/{data['id']}/frames/8.png").content
    frame = Image.open(io.BytesIO(png)).convert("RGB")
    alone = new_table(CARD_W + 10, CARD_H + 10)
    draw_face(alone, (0, 0, CARD_W, CARD_H), game.waste[-2])
    band = CARD_W // 3  # the corner's height
    corner = (6, 0, FAN, band)  # past the rounded corner, up to where the next card begins
    x = LEFT + PITCH + FAN  # the 10's left edge in the fan
    shown = frame.crop((x + 6, TOP, x + FAN, TOP + band))
    assert list(shown.getdata()) == list(alone.crop(corner).getdata())
    red = [i % CARD_W for i, p in enumerate(alone.crop((0, 0, CARD_W, band)).getdata())
           if p[0] > 150 and p[1] < 80]
    assert red and max(red) < FAN - 1, "the corner's rank and suit end before the next card"
