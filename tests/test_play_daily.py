"""Daily deals (issue 37): ``{game}-daily-v1-YYYYMMDD`` is the same deal for everyone on a date and
always winnable, in every variant; ``GET /api/daily`` names them; bad dates and bad IDs are refused
with nothing stored."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from solitaire_rl.agents.solver import solve_klondike, solve_pyramid
from solitaire_rl.agents.solver.daily import (
    DAILY_RANGE,
    daily_cards,
    daily_id,
    daily_number,
    day_of_number,
    parse_day,
)
from solitaire_rl.agents.solver.klondike_winnable import winnable_cards as klondike_winnable_cards
from solitaire_rl.agents.solver.winnable import winnable_cards as pyramid_winnable_cards
from solitaire_rl.envs.deals import DealId, encode_deal_code, resolve_deal
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike import WIN, KlondikeGame
from solitaire_rl.envs.pyramid import PyramidGame
from solitaire_rl.play.server import create_app
from tests.play_api_helpers import LOCAL

DAY = date(2026, 12, 3)
DATES = st.dates(min_value=date(2000, 1, 1), max_value=date(2199, 12, 31))


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(), base_url=LOCAL) as c:
        yield c


# ---------------------------------------------------------------- the rule: date -> deal
def test_the_id_names_the_date_and_the_number_is_a_pure_function_of_game_and_date() -> None:
    assert str(daily_id("pyramid", DAY)) == "pyramid-daily-v1-20261203"
    assert str(daily_id("klondike", DAY)) == "klondike-daily-v1-20261203"
    assert day_of_number(20261203) == DAY
    # pinned: a change to the rule needs a new generator version (old IDs keep their deals)
    assert daily_number("pyramid", DAY) == 867387710 and daily_number("klondike", DAY) == 584290757
    assert daily_cards("pyramid", DAY) == pyramid_winnable_cards(867387710)
    assert daily_cards("klondike", DAY) == klondike_winnable_cards(584290757)


@settings(max_examples=200, deadline=None)
@given(DATES)
def test_every_date_has_one_deal_per_game_the_same_every_time(day: date) -> None:
    for game in ("pyramid", "klondike"):
        number = daily_number(game, day)
        assert 0 <= number < DAILY_RANGE and number == daily_number(game, day)
        deal_id = daily_id(game, day)
        assert DealId.parse(str(deal_id)) == deal_id and day_of_number(deal_id.number) == day
    assert daily_number("pyramid", day) != daily_number("pyramid", day + timedelta(days=1))


@settings(max_examples=12, deadline=None)
@given(DATES)
def test_a_daily_deal_is_winnable_in_every_variant(day: date) -> None:
    pyramid = resolve_deal(str(daily_id("pyramid", day)), "pyramid")
    assert pyramid.cards == pyramid_winnable_cards(daily_number("pyramid", day))
    for variant in ("000", "001"):
        result = solve_pyramid(PyramidGame(list(pyramid.cards), stock_top_playable=variant == "000"),
                               time_limit=None, max_states=50_000_000)
        assert result.status == "winnable", (day, variant)
        game = PyramidGame(list(pyramid.cards), stock_top_playable=variant == "000")
        game.replay(result.line)
        assert game.is_won()
    for draw in (3, 1):
        game = KlondikeGame(str(daily_id("klondike", day)), draw_count=draw)
        result = solve_klondike(game.copy(), time_limit=None, max_states=2_000_000)
        assert result.status == "winnable" and result.line, (day, draw)
        for move in result.line:
            game.push(move)
        assert game.outcome() == WIN


@pytest.mark.parametrize("text", ["2026-02-30", "2026-13-01", "0999-12-31", "2026-1-03", "20261203", "",
                                  "2026-12-03T00:00", "２０２６-１２-０３", " 2026-12-03"])
def test_a_date_that_is_not_a_calendar_date_is_refused(text: str) -> None:
    with pytest.raises(MalformedInputError):
        parse_day(text)


@pytest.mark.parametrize("deal", ["pyramid-daily-v1-20261332", "pyramid-daily-v1-1",
                                  "pyramid-daily-v2-20261203", "pyramid-daily-v1-99999999"])
def test_a_daily_id_off_the_calendar_is_malformed(deal: str) -> None:
    with pytest.raises(MalformedInputError):
        resolve_deal(deal, "pyramid")


# ---------------------------------------------------------------- the API
def test_get_daily_names_both_games_deals_of_the_date(client: TestClient) -> None:
    r = client.get("/api/daily", params={"date": "2026-12-03"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body == client.get("/api/daily?date=2026-12-03").json()  # the same for every caller
    assert body["date"] == "2026-12-03"
    pyramid, klondike = body["deals"]
    assert pyramid == {"game": "pyramid", "deal": "pyramid-daily-v1-20261203", "number": 867387710,
                       "winnable_deal": "pyramid-winnable-v1-867387710", "variants": ["000", "001"]}
    assert klondike == {"game": "klondike", "deal": "klondike-daily-v1-20261203", "number": 584290757,
                        "winnable_deal": "klondike-winnable-v1-584290757", "variants": ["draw3", "draw1"]}
    other = client.get("/api/daily", params={"date": "2026-12-04"}).json()
    assert other["deals"][0]["deal"] == "pyramid-daily-v1-20261204"
    assert other["deals"][0]["number"] != 867387710


@pytest.mark.parametrize("query", ["date=2026-02-30", "date=2026-12-3", "date=tomorrow", "date=0999-01-01",
                                   "date=2026-12-03x", "", "date="])
def test_a_bad_date_is_a_422_in_the_error_body(client: TestClient, query: str) -> None:
    r = client.get(f"/api/daily?{query}")
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["error"] == "INVALID_REQUEST" and "date" in body["message"] and body["message_ja"]


def test_the_schema_declares_the_daily_model(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    op = spec["paths"]["/api/daily"]["get"]
    answer = op["responses"]["200"]["content"]["application/json"]["schema"]
    assert answer == {"$ref": "#/components/schemas/DailyDeals"}
    required = spec["components"]["schemas"]["DailyDeal"]["required"]
    assert set(required) == {"game", "deal", "winnable_deal", "number", "variants"}
    assert op["parameters"][0]["name"] == "date" and op["parameters"][0]["required"]


@pytest.mark.parametrize("variant", ["000", "001"])
def test_the_pyramid_daily_deal_opens_in_both_variants(client: TestClient, variant: str) -> None:
    r = client.post("/api/games", json={"variant": variant, "deal": "pyramid-daily-v1-20261203"})
    assert r.status_code == 201, r.text
    s = r.json()
    assert s["variant"] == variant and s["deal"]["type"] == "daily"
    assert s["deal"]["label"] == s["deal"]["id"] == "pyramid-daily-v1-20261203"
    assert s["deal"]["code"] == encode_deal_code(pyramid_winnable_cards(867387710))


@pytest.mark.parametrize("draw", [3, 1])
def test_the_klondike_daily_deal_opens_in_both_draws(client: TestClient, draw: int) -> None:
    r = client.post("/api/klondike/games", json={"deal": "klondike-daily-v1-20261203", "draw_count": draw})
    assert r.status_code == 201, r.text
    s = r.json()
    assert s["deal"]["type"] == "daily" and s["deal"]["label"] == "klondike-daily-v1-20261203"
    assert s["draw_count"] == draw
    same = KlondikeGame("klondike-winnable-v1-584290757", draw_count=draw)
    ends = [c["card"] for col in s["columns"] for c in col["cards"] if not c.get("face_down")]
    assert ends == [col[-1] for col in same.columns]
    verdict = s["verdict"]  # one of the winnable deals: proved from its first position, no search
    assert verdict is not None and (verdict["status"], verdict["basis"]) == ("winnable", "winnable_deal")


@pytest.mark.parametrize(("path", "deal"), [("/api/games", "pyramid-daily-v1-20260230"),
                                            ("/api/klondike/games", "klondike-daily-v1-123")])
def test_a_daily_id_off_the_calendar_is_a_400_and_stores_nothing(client: TestClient, path: str,
                                                                  deal: str) -> None:
    state = client.app.state  # type: ignore[attr-defined]
    server = state.server if path == "/api/games" else state.klondike
    before = len(server.sessions)
    r = client.post(path, json={"deal": deal})
    assert r.status_code == 400 and r.json()["error"] == "MALFORMED", r.text
    assert len(server.sessions) == before
