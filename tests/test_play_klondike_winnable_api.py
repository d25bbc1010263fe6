"""The Klondike play API's winnable deals (issue 37): the deal type, named IDs, the verdict proved
from the start, and bad input refused with nothing changed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from solitaire_rl.agents.solver import SearchLimits
from solitaire_rl.agents.solver.klondike_winnable import MAX_NUMBER, winnable_cards, winnable_deal
from solitaire_rl.envs.deals import encode_deal_code
from solitaire_rl.envs.klondike import WIN, KlondikeGame
from solitaire_rl.play.server import create_app
from solitaire_rl.play.server.klondike_advice import KlondikeHintAdvisor, KlondikeVerdictService
from solitaire_rl.play.server.klondike_api import KlondikeServer, mount_klondike
from solitaire_rl.play.server.session import SessionStore
from tests.play_api_helpers import LOCAL, GameApi, server_fixture

server = server_fixture(lambda: KlondikeServer(sessions=SessionStore(capacity=4),
                                               hints=KlondikeHintAdvisor(planner_time=5.0),
                                               verdicts=KlondikeVerdictService(SearchLimits(time_limit=20.0))))
API = GameApi("/api/klondike/games")
new_game, act = API.new_game, API.act


@pytest.fixture
def client(server: KlondikeServer) -> Iterator[TestClient]:
    with TestClient(mount_klondike(create_app(), server), base_url=LOCAL) as c:
        yield c


def proved(verdict: dict[str, Any] | None) -> bool:
    return (verdict is not None and verdict["status"] == "winnable" and verdict["basis"] == "winnable_deal"
            and verdict["en"].startswith("A winning line exists") and verdict["ja"].startswith("勝つ手順"))


def test_new_winnable_deal_comes_with_its_verdict(client: TestClient) -> None:
    s = new_game(client, deal_type="winnable")
    assert s["deal"]["type"] == "winnable" and s["deal"]["id"].startswith("klondike-winnable-v1-")
    assert s["deal"]["label"] == s["deal"]["id"] and s["deal"]["code"] is None  # a code names every card
    assert proved(s["verdict"]), s["verdict"]  # without asking, without waiting
    r = client.post(f"/api/klondike/games/{s['session']}/verdict")
    assert r.status_code == 202 and proved(r.json()["verdict"])
    number = int(s["deal"]["id"].rsplit("-", 1)[1])
    game = KlondikeGame(s["deal"]["id"])
    assert game.deal is not None and game.deal.cards == winnable_cards(number)


def test_random_is_still_the_default(client: TestClient) -> None:
    s = new_game(client)
    assert s["deal"]["type"] == "random" and s["deal"]["id"].startswith("klondike-random-v1-")
    assert s["verdict"] is None
    assert new_game(client, deal_type="random")["deal"]["type"] == "random"


def test_named_winnable_deal_and_its_line_wins_through_the_api(client: TestClient) -> None:
    s = new_game(client, deal="klondike-winnable-v1-7")
    assert s["deal"]["id"] == "klondike-winnable-v1-7" and s["deal"]["type"] == "winnable"
    assert proved(s["verdict"])
    _, cards, line = winnable_deal(7)
    assert KlondikeGame("klondike-winnable-v1-7").deal.cards == cards  # type: ignore[union-attr]
    for move in line:
        s = act(client, s, type="move", move=str(move))
    assert s["outcome"] == WIN


def test_verdict_after_a_move_is_searched_and_back_at_the_start_proved_again(client: TestClient) -> None:
    s = new_game(client, deal="KLONDIKE-WINNABLE-V1-3 ")  # any case, spaces around
    assert s["deal"]["id"] == "klondike-winnable-v1-3"
    s = act(client, s, type="stock")
    assert s["verdict"] is None  # a new position: its verdict is asked for again
    s = act(client, s, type="undo")
    r = client.post(f"/api/klondike/games/{s['session']}/verdict")
    assert proved(r.json()["verdict"])
    s = act(client, s, type="stock")
    r = client.post(f"/api/klondike/games/{s['session']}/verdict")
    assert r.json()["verdict"]["basis"] != "winnable_deal"
    s = act(client, s, type="restart")
    assert proved(client.post(f"/api/klondike/games/{s['session']}/verdict").json()["verdict"])


def test_save_of_a_winnable_deal_resumes(client: TestClient) -> None:
    s = new_game(client, deal="klondike-winnable-v1-5")
    s = act(client, s, type="stock")
    again = new_game(client, deal=s["deal"]["id"], history=s["history"], seen=s["seen"])
    assert again["history"] == s["history"] and again["deal"]["type"] == "winnable"
    assert again["verdict"] is None  # not the start: no proof to show without a search


def test_a_typed_in_code_of_a_winnable_deal_is_a_code(client: TestClient) -> None:
    s = new_game(client, deal=encode_deal_code(winnable_cards(4)))
    assert s["deal"]["type"] == "code" and s["deal"]["id"] is None and s["verdict"] is None


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"deal_type": "daily"}, 422, "deal_type"),
    ({"deal_type": ""}, 422, "deal_type"),
    ({"deal_type": 1}, 422, "deal_type"),
    ({"deal": f"klondike-winnable-v1-{MAX_NUMBER + 1}"}, 422, "0..999999999999"),
    ({"deal": "klondike-winnable-v1-" + "9" * 23}, 422, "out of range"),
    ({"deal": "klondike-winnable-v2-1"}, 400, "unknown deal ID"),
    ({"deal": "klondike-winnable-v1--1"}, 400, "must be a whole number, 0 or more"),
    ({"deal": "pyramid-winnable-v1-1"}, 400, "not klondike"),
])
def test_bad_input_is_refused_and_nothing_stored(client: TestClient, server: KlondikeServer,
                                                 body: dict[str, Any], status: int, words: str) -> None:
    before = len(server.sessions._sessions)
    r = client.post("/api/klondike/games", json=body)
    assert r.status_code == status, r.text
    error = r.json()
    assert words in error["message"] and error["message_ja"]
    assert len(server.sessions._sessions) == before
