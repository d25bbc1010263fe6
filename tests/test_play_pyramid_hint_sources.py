"""The Pyramid hint sources: planner, agent, the expert network (one per variant) and ``guided-pimc``.

Each answers a legal move and names itself; a variant whose network checkpoint is missing falls
back and says so; an unknown source is refused with 422 and nothing changes.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("torch")
from fastapi.testclient import TestClient

from solitaire_rl.envs.pyramid import Move, PyramidGame
from solitaire_rl.play.server import PyramidServer, create_app
from solitaire_rl.play.server.advice import GUIDED_LATE, HINT_SOURCES
from solitaire_rl.play.server.pyramid_advice import PyramidHintAdvisor
from tests.play_api_helpers import LOCAL, GameApi, server_fixture

DEAL_1 = "pyramid-random-v1-1"
ANSWERS = {"planner": ("pimc", "planner"), "agent": ("ppo", "agent"), "network": ("expert-net", "network"),
           "guided": ("guided-pimc", "guided")}
FALLBACKS = {"network": ("ppo", "agent"), "guided": ("pimc", "planner")}
"""Who answers when a variant's network checkpoint is missing."""
MISSING = "/nonexistent/expert-pyramid-001.zip"

server = server_fixture(lambda: PyramidServer(hints=PyramidHintAdvisor(planner_time=30.0)))
without_001 = server_fixture(lambda: PyramidServer(hints=PyramidHintAdvisor(
    planner_time=30.0, expert_checkpoints={"pyramid-001": MISSING})))
API = GameApi("/api/games")


@pytest.fixture
def client(server: PyramidServer) -> Iterator[TestClient]:
    with TestClient(create_app(server), base_url=LOCAL) as c:
        yield c


@pytest.mark.parametrize(("variant", "missing_network"), [("000", False), ("001", False), ("001", True)])
@pytest.mark.parametrize("source", [s for s in HINT_SOURCES if s != "commitment"])  # Klondike's: its own test
def test_each_source_answers_a_legal_move_and_names_who_did(
        request: pytest.FixtureRequest, source: str, variant: str, missing_network: bool) -> None:
    played = request.getfixturevalue("without_001" if missing_network else "server")
    with TestClient(create_app(played), base_url=LOCAL) as client:
        s = API.new_game(client, deal=DEAL_1, variant=variant)
        r = client.post(f"/api/games/{s['session']}/hint", params={"source": source})
    assert r.status_code == 200, r.text
    hint = r.json()["hint"]
    missing = missing_network and source in FALLBACKS
    assert (hint["agent"], hint["hint_source"]) == (FALLBACKS[source] if missing else ANSWERS[source])
    assert hint["requested"] == source
    if missing:
        assert hint["fallback_reason"].startswith("the expert network is unavailable: no expert checkpoint")
    else:
        assert hint["fallback_reason"] is None
    game = PyramidGame(DEAL_1, stock_top_playable=variant == "000")
    assert Move.parse(hint["move"]) in game.legal_moves() and hint["reason_ja"]
    assert r.json()["hints"] == 1


@pytest.mark.parametrize("source", ["oracle", "", "Guided"])
def test_an_unknown_source_is_refused_and_nothing_changes(client: TestClient, source: str) -> None:
    s = API.new_game(client, deal=DEAL_1, variant="000")
    before = client.get(f"/api/games/{s['session']}").json()
    r = client.post(f"/api/games/{s['session']}/hint", params={"source": source})
    assert r.status_code == 422 and r.json()["error"] == "INVALID_REQUEST", r.text
    assert client.get(f"/api/games/{s['session']}").json() == before


def test_a_guided_search_without_an_answer_in_time_gives_the_networks_move(
        monkeypatch: pytest.MonkeyPatch) -> None:
    advisor = PyramidHintAdvisor()
    monkeypatch.setattr(advisor, "planner_choice", lambda *args: None)  # no sample finished in time
    game = PyramidGame(DEAL_1)
    hint = advisor.hint(game, "guided")
    assert (hint["agent"], hint["hint_source"]) == ("expert-net", "network")
    assert hint["fallback_reason"] == GUIDED_LATE
    assert Move.parse(hint["move"]) in game.legal_moves()
