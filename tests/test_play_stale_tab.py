"""A stale second tab (issue 37): every game state carries a ``revision``, bumped by each move, undo,
redo, restart and restore; an action that names an older revision is refused with 409
``STALE_GAME`` in English and Japanese and changes nothing, while the current revision (or none, an
old client) is carried out."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from solitaire_rl.play.server import create_app
from tests.play_api_helpers import LOCAL, GameApi

PYRAMID = GameApi("/api/games")
KLONDIKE = GameApi("/api/klondike/games")
GAMES = {
    "pyramid": (PYRAMID, {"variant": "000", "deal": "pyramid-random-v1-1"}, {"type": "draw"}),
    "klondike": (KLONDIKE, {"deal": "klondike-random-v1-1"}, {"type": "stock"}),
}
"""Each game: its API, a deal, and an action that is always a move at the deal's start (a draw)."""


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(), base_url=LOCAL) as c:
        yield c


def read(client: TestClient, api: GameApi, state: dict[str, Any]) -> dict[str, Any]:
    r = client.get(f"{api.games}/{state['session']}")
    assert r.status_code == 200, r.text
    return r.json()


def without_verdict(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "verdict"}


@pytest.mark.parametrize("game", GAMES)
def test_every_change_bumps_the_revision_and_a_stale_one_is_refused(client: TestClient, game: str) -> None:
    api, deal, draw = GAMES[game]
    tab_a = api.new_game(client, **deal)
    assert tab_a["revision"] == 0
    tab_b = read(client, api, tab_a)  # a second tab on the same game
    moved = api.act(client, tab_a, **draw, revision=tab_a["revision"])  # tab A plays on
    assert moved["revision"] == 1 and moved["moves"] == 1
    before = read(client, api, tab_a)

    stale = api.act(client, tab_b, 409, **draw, revision=tab_b["revision"])  # tab B still shows revision 0
    assert stale["error"] == "STALE_GAME"
    assert "another tab" in stale["message"] and "latest position" in stale["message"]
    assert "別のタブ" in stale["message_ja"]
    assert without_verdict(read(client, api, tab_a)) == without_verdict(before), "nothing changed"
    for kind in ("undo", "restart", "clear"):  # every intent is checked, not only moves
        assert api.act(client, tab_b, 409, type=kind, revision=0)["error"] == "STALE_GAME"
    assert without_verdict(read(client, api, tab_a)) == without_verdict(before)

    fresh = api.act(client, tab_b, **draw, revision=before["revision"])  # tab B reloaded: accepted
    assert fresh["moves"] == 2 and fresh["revision"] == 2
    undone = api.act(client, tab_b, type="undo", revision=2)
    redone = api.act(client, tab_b, type="redo", revision=undone["revision"])
    restarted = api.act(client, tab_b, type="restart", revision=redone["revision"])
    assert [undone["revision"], redone["revision"], restarted["revision"]] == [3, 4, 5]
    assert restarted["moves"] == 0


@pytest.mark.parametrize("game", GAMES)
def test_a_client_that_sends_no_revision_keeps_working(client: TestClient, game: str) -> None:
    api, deal, draw = GAMES[game]
    state = api.new_game(client, **deal)
    api.act(client, state, **draw)
    assert api.act(client, state, **draw)["moves"] == 2
    assert read(client, api, state)["revision"] == 2


@pytest.mark.parametrize("game", GAMES)
def test_a_refused_move_or_a_selection_leaves_the_revision_alone(client: TestClient, game: str) -> None:
    api, deal, _ = GAMES[game]
    state = api.new_game(client, **deal)
    refused = api.act(client, state, 409, type="undo", revision=0)
    assert refused["error"] == "NOTHING_TO_UNDO"
    assert read(client, api, state)["revision"] == 0
    tap = {"type": "tap", "place": "r7c1"} if game == "pyramid" else {"type": "select", "place": "c7"}
    selected = api.act(client, state, **tap, revision=0)  # selecting changes no card: the game is the same
    assert selected["selected"] is not None and selected["revision"] == 0


@pytest.mark.parametrize("game", GAMES)
def test_a_restored_save_starts_at_a_new_revision(client: TestClient, game: str) -> None:
    api, deal, draw = GAMES[game]
    played = api.act(client, api.new_game(client, **deal), **draw)
    restored = api.new_game(client, **deal, history=played["history"], seen=played["seen"])
    assert restored["history"] == played["history"] and restored["revision"] == 1


@pytest.mark.parametrize("revision", [-1, 10**9 + 1, "1", 1.5, True])
def test_a_revision_that_is_not_a_count_is_a_422(client: TestClient, revision: object) -> None:
    state = PYRAMID.new_game(client, **GAMES["pyramid"][1])
    body = PYRAMID.act(client, state, 422, type="draw", revision=revision)
    assert body["error"] == "INVALID_REQUEST"
    assert read(client, PYRAMID, state)["moves"] == 0
