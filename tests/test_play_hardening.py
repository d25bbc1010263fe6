"""The play server serves this machine's own pages only (solitaire_rl/play/server/limits.py): a request
addressed to another host (DNS rebinding) or a write from another site's page is refused and
changes nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from solitaire_rl.play.server import PyramidServer, create_app
from solitaire_rl.play.server.limits import host_name
from tests.play_api_helpers import LOCAL


@pytest.fixture
def client() -> Iterator[TestClient]:
    server = PyramidServer()
    with TestClient(create_app(server), base_url=LOCAL) as c:
        yield c
    server.verdicts.shutdown()


@pytest.mark.parametrize("host", ["127.0.0.1:8765", "localhost", "LOCALHOST:1", "[::1]:8765"])
def test_this_machines_names_are_served(client: TestClient, host: str) -> None:
    assert client.get("/api/klondike/games/nosuch", headers={"host": host}).status_code == 404
    assert client.post("/api/games", json={}, headers={"host": host}).status_code == 201


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8765", "127.0.0.1.evil.example", "", "::1"])
def test_another_host_is_refused_before_the_app_sees_it(client: TestClient, host: str) -> None:
    before = len(client.app.state.server.sessions)  # type: ignore[attr-defined]
    for answer in (client.get("/", headers={"host": host}),
                   client.post("/api/games", json={}, headers={"host": host})):
        assert answer.status_code == 421
        assert answer.json()["error"] == "MISDIRECTED" and answer.json()["message_ja"]
    assert len(client.app.state.server.sessions) == before  # type: ignore[attr-defined]


@pytest.mark.parametrize("headers", [{"origin": "https://evil.example"}, {"origin": "null"},
                                     {"origin": "http://localhost.evil.example:8765"},
                                     {"sec-fetch-site": "cross-site"}])
def test_another_sites_page_cannot_change_a_game(client: TestClient, headers: dict[str, str]) -> None:
    game = client.post("/api/games", json={}).json()
    session, state = game["session"], client.get(f"/api/games/{game['session']}").json()
    answer = client.post(f"/api/games/{session}/actions", json={"type": "draw"}, headers=headers)
    assert answer.status_code == 403 and answer.json()["error"] == "CROSS_ORIGIN"
    assert client.post("/api/games", json={}, headers=headers).status_code == 403
    assert client.get(f"/api/games/{session}").json() == state, "nothing changed"
    assert client.get(f"/api/games/{session}", headers=headers).status_code == 200  # reading is harmless


def test_the_servers_own_page_may_change_a_game(client: TestClient) -> None:
    game = client.post("/api/games", json={}, headers={"origin": "http://127.0.0.1:8765",
                                                       "sec-fetch-site": "same-origin"})
    assert game.status_code == 201


@pytest.mark.parametrize(("value", "name"), [("127.0.0.1:80", "127.0.0.1"), ("LocalHost", "localhost"),
                                             ("[::1]:9", "[::1]"), ("[::1]", "[::1]"), ("a:b:c", "a:b:c")])
def test_host_names_lose_their_port(value: str, name: str) -> None:
    assert host_name(value) == name
