"""Deal numbers out of range and the variant of a winnable deal (issue 37): a random or winnable deal
ID whose number is outside its documented range is a 422 in English and Japanese and stores nothing
(a 23-digit number was accepted and shown as a "code"); ``pyramid-winnable-v1-N`` opens in variant
001, where the menu offers winnable deals, even when 000 is asked for."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from solitaire_rl.agents.solver.klondike_winnable import MAX_NUMBER
from solitaire_rl.play.server import PyramidServer, create_app
from solitaire_rl.play.server.deal_numbers import RANDOM_MAX
from tests.play_api_helpers import LOCAL

HUGE = "9" * 23


@pytest.fixture
def server() -> Iterator[PyramidServer]:
    server = PyramidServer()
    yield server
    server.verdicts.shutdown()


@pytest.fixture
def client(server: PyramidServer) -> Iterator[TestClient]:
    with TestClient(create_app(server), base_url=LOCAL) as c:
        yield c


def stored(client: TestClient, server: PyramidServer) -> tuple[int, int]:
    return len(server.sessions), len(client.app.state.klondike.sessions)


@pytest.mark.parametrize(("path", "deal", "last"), [
    ("/api/games", f"pyramid-random-v1-{HUGE}", RANDOM_MAX),
    ("/api/games", f"pyramid-random-v1-{RANDOM_MAX + 1}", RANDOM_MAX),
    ("/api/games", f"pyramid-winnable-v1-{HUGE}", RANDOM_MAX),
    ("/api/klondike/games", f"klondike-random-v1-{HUGE}", RANDOM_MAX),
    ("/api/klondike/games", f"klondike-random-v1-{'7' * 3900}", RANDOM_MAX),
    ("/api/klondike/games", f"klondike-winnable-v1-{MAX_NUMBER + 1}", MAX_NUMBER),
])
def test_a_deal_number_out_of_range_is_a_422_and_nothing_is_stored(
    client: TestClient, server: PyramidServer, path: str, deal: str, last: int,
) -> None:
    before = stored(client, server)
    r = client.post(path, json={"deal": deal})
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["error"] == "DEAL_OUT_OF_RANGE"
    assert "out of range" in body["message"] and f"0..{last}" in body["message"]
    assert "範囲外" in body["message_ja"] and f"0 から {last} まで" in body["message_ja"]
    assert len(body["message"]) < 200, "a long number is shortened in the message"
    assert stored(client, server) == before


@pytest.mark.parametrize(("path", "deal"), [
    ("/api/games", f"pyramid-random-v1-{RANDOM_MAX}"), ("/api/games", "pyramid-random-v1-0"),
    ("/api/klondike/games", f"klondike-random-v1-{RANDOM_MAX}"),
])
def test_the_ends_of_the_range_open(client: TestClient, path: str, deal: str) -> None:
    r = client.post(path, json={"deal": deal})
    assert r.status_code == 201, r.text
    assert r.json()["deal"]["label"] == deal and r.json()["deal"]["type"] == "random"


@pytest.mark.parametrize("asked", ["000", "001", None])
def test_a_winnable_pyramid_deal_opens_in_variant_001(client: TestClient, asked: str | None) -> None:
    body = {"deal": "pyramid-winnable-v1-7"} | ({"variant": asked} if asked else {})
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    state = r.json()
    assert state["variant"] == "001" and state["deal"]["type"] == "winnable"
    assert state["stock"]["top"] is None, "in 001 the stock top is not playable"


def test_random_and_daily_deals_keep_the_variant_asked_for(client: TestClient) -> None:
    for deal in ("pyramid-random-v1-7", "pyramid-daily-v1-20261203"):
        for variant in ("000", "001"):
            r = client.post("/api/games", json={"deal": deal, "variant": variant})
            assert r.status_code == 201 and r.json()["variant"] == variant, r.text


def test_an_unknown_or_unreadable_deal_is_still_a_400(client: TestClient) -> None:
    for deal in ("pyramid-random-v9-1", "pyramid-daily-v1-99999999", "not a deal"):
        r = client.post("/api/games", json={"deal": deal})
        assert r.status_code == 400 and r.json()["error"] == "MALFORMED", r.text


def test_a_daily_deal_still_to_come_is_out_of_range_and_stores_nothing() -> None:
    """Issue 51: tomorrow's daily deal could be typed in (and counted towards today's streak)."""
    from datetime import UTC, datetime, timedelta

    from solitaire_rl.envs.deals import DealId
    from solitaire_rl.play.server.deal_numbers import DealOutOfRange, check_daily_date, check_deal_number

    now = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
    check_daily_date(DealId.parse("klondike-daily-v1-20261206"), now)  # already the 6th at UTC+14
    with pytest.raises(DealOutOfRange, match="not out yet"):
        check_daily_date(DealId.parse("klondike-daily-v1-20261207"), now)
    later = (datetime.now(UTC) + timedelta(days=2)).strftime("%Y%m%d")
    with pytest.raises(DealOutOfRange):
        check_deal_number(f"pyramid-daily-v1-{later}")
    check_deal_number((datetime.now(UTC) - timedelta(days=1)).strftime("klondike-daily-v1-%Y%m%d"))
