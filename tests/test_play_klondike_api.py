"""The Klondike play API: every endpoint, seed 002's tap rules, hints, verdicts, and every error path."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from solitaire_rl.agents.planner.revisits import fresh_action, line_visits, table_key
from solitaire_rl.agents.solver import SearchLimits
from solitaire_rl.agents.solver.klondike import solve_klondike
from solitaire_rl.envs.cards import card_name, parse_card
from solitaire_rl.envs.klondike import KlondikeGame, Move, to_solvitaire_json
from solitaire_rl.envs.klondike.actions import ACTION_INDEX, NUM_ACTIONS, move_of
from solitaire_rl.envs.klondike.env import player_view
from solitaire_rl.play.server import create_app
from solitaire_rl.play.server.klondike_advice import (
    KlondikeHintAdvisor,
    KlondikeVerdictService,
    all_known,
    klondike_verdict,
    solver_verdict,
    verdict_json,
)
from solitaire_rl.play.server.klondike_api import KlondikeServer, mount_klondike
from solitaire_rl.play.server.klondike_session import KlondikeSession, move_source, parse_place
from solitaire_rl.play.server.klondike_view import waste_fan
from solitaire_rl.play.server.klondike_wording import describe_klondike_move, selected_words
from solitaire_rl.play.server.session import SessionStore
from tests.checkpoint_helpers import chosen_by_sampling, rewrite_metadata
from tests.play_api_helpers import LOCAL, GameApi, engine_codes, save_tiny_ppo, server_fixture

DEAL_1 = "klondike-random-v1-1"  # ends 10D 8H KC 8S 9S 8C AC; first draw 3H 6D QH; winnable


def position(columns: list[list[str]], *, hidden: list[int] | None = None, stock: list[str] = (),
             waste: list[str] = (), foundations: tuple[int, ...] = (0, 0, 0, 0),
             filler_end: str | None = None, seen: list[str] | None = None) -> dict[str, Any]:
    """A hand-built position for the API: cards not placed lie face down in column 7 under ``filler_end``."""
    cols = [list(c) for c in columns] + [[] for _ in range(7 - len(columns))]
    hid = list(hidden or []) + [0] * (7 - len(hidden or []))
    placed = {parse_card(c) for col in cols for c in col} | {parse_card(c) for c in [*stock, *waste]}
    placed |= {(r - 1) * 4 + s for s in range(4) for r in range(1, foundations[s] + 1)}
    if filler_end:
        placed.add(parse_card(filler_end))
    rest = [card_name(c) for c in range(52) if c not in placed]
    if rest:
        cols[6] = rest + cols[6] + ([filler_end] if filler_end else [])
        hid[6] += len(rest)
    return {"columns": cols, "hidden": hid, "stock": list(stock), "waste": list(waste),
            "foundations": list(foundations), "seen": list(stock) if seen is None else seen}


NO_PROGRESS = position([["6H"]], foundations=(0, 0, 0, 5), filler_end="2H")
"""Moves remain (5S down onto 6H and back up) but none can make progress."""
DEAD_END_ENDS = ["5H", "5D", "9H", "9D", "JH", "JD", "3H"]
FINISH = position([["KS", "QH"], ["KC"], ["KD"], ["KH"]], foundations=(12, 12, 11, 12))
"""Every card known and face up (47 up): the finish takes QH, then the four Kings."""


def dead_end() -> dict[str, Any]:
    rest = [card_name(c) for c in range(52) if card_name(c) not in DEAD_END_ENDS]
    columns = [[*rest[i * 6:(i + 1) * 6], e] for i, e in enumerate(DEAD_END_ENDS)]
    columns[6] = [*rest[36:], "3H"]
    return {"columns": columns, "hidden": [len(c) - 1 for c in columns], "stock": [], "waste": []}


server = server_fixture(lambda: KlondikeServer(sessions=SessionStore(capacity=4),
                                               hints=KlondikeHintAdvisor(planner_time=60.0),
                                               verdicts=KlondikeVerdictService(SearchLimits(time_limit=20.0))))


@pytest.fixture
def client(server: KlondikeServer) -> Iterator[TestClient]:
    with TestClient(mount_klondike(create_app(), server), base_url=LOCAL) as c:
        yield c


API = GameApi("/api/klondike/games")
new_game, act = API.new_game, API.act


def refused(client: TestClient, state: dict[str, Any], code: str, status: int = 409, **action: Any) -> None:
    """The action is refused with ``code`` and the game is exactly as it was."""
    before = client.get(f"/api/klondike/games/{state['session']}").json()
    body = act(client, state, status, **action)
    assert body["error"] == code, body
    assert body["message"] and "message_ja" in body
    after = client.get(f"/api/klondike/games/{state['session']}").json()
    del after["verdict"], before["verdict"]
    assert after == before


def ends(state: dict[str, Any]) -> list[str | None]:
    return [col["cards"][-1].get("name") if col["cards"] else None for col in state["columns"]]


# ------------------------------------------------------------------ new games
def test_new_deal_by_id_code_and_solvitaire_json_give_the_same_table(client: TestClient) -> None:
    by_id = new_game(client, deal=DEAL_1)
    assert by_id["deal"]["id"] == DEAL_1 and by_id["deal"]["type"] == "random"
    assert ends(by_id) == ["10D", "8H", "KC", "8S", "9S", "8C", "AC"]
    assert [c["face_down"] for c in by_id["columns"]] == list(range(7))
    assert by_id["stock"] == {"count": 24, "action": "draw", "refusal": None}
    assert by_id["waste"]["fan"] == [] and by_id["foundations"][0]["count"] == 0
    assert by_id["deal"]["code"] is None, "a random deal's code would name the face-down cards"
    by_code = new_game(client, deal=KlondikeGame(DEAL_1).deal.code)
    assert by_code["deal"]["code"] == KlondikeGame(DEAL_1).deal.code, "a typed-in code is the player's own"
    assert by_code["deal"]["type"] == "code" and by_code["columns"] == by_id["columns"]
    game = KlondikeGame(DEAL_1)
    by_json = new_game(client, deal=to_solvitaire_json(game.deal.cards))
    assert by_json["columns"] == by_id["columns"]
    fresh = new_game(client)
    assert fresh["deal"]["id"].startswith("klondike-random-v1-") and fresh["session"] != by_id["session"]


@pytest.mark.parametrize("body", [
    {"deal": "klondike-random-v9-1"}, {"deal": "pyramid-random-v1-1x"}, {"deal": "AB" * 52},
    {"deal": "{\"tableau piles\": []}"}, {"deal": DEAL_1, "history": ["c9>f"]},
    {"deal": DEAL_1, "history": ["c1>f"]}, {"deal": DEAL_1, "position": NO_PROGRESS},
    {"position": {**NO_PROGRESS, "hidden": [0, 0, 0, 0, 0, 0, 0]}},
])
def test_a_bad_deal_position_or_save_is_malformed_and_stores_nothing(
        client: TestClient, server: KlondikeServer, body: dict[str, Any]) -> None:
    r = client.post("/api/klondike/games", json=body)
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "MALFORMED" and r.json()["message"]
    assert len(server.sessions) == 0


@pytest.mark.parametrize("body", [
    {"deal": ""}, {"surprise": 1}, {"history": "draw"}, {"seen": [52]}, {"operations": -1},
    {"position": {"columns": [[]] * 6, "hidden": [0] * 7}},
])
def test_a_body_outside_the_schema_is_422(client: TestClient, body: dict[str, Any]) -> None:
    r = client.post("/api/klondike/games", json=body)
    assert r.status_code == 422 and r.json()["error"] == "INVALID_REQUEST"


def test_a_body_over_the_size_limit_is_413(client: TestClient) -> None:
    r = client.post("/api/klondike/games", content=b"{\"deal\": \"" + b"x" * 20000 + b"\"}",
                    headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"] == "TOO_LARGE"


def test_unknown_game_is_404_on_every_endpoint(client: TestClient) -> None:
    for method, path in [("get", ""), ("post", "/actions"), ("post", "/hint"), ("post", "/verdict"),
                         ("get", "/verdict")]:
        kwargs = {"json": {"type": "stock"}} if path == "/actions" else {}
        r = getattr(client, method)(f"/api/klondike/games/nope{path}", **kwargs)
        assert r.status_code == 404 and r.json()["error"] == "UNKNOWN_GAME", (method, path)


def test_sessions_are_bounded_and_old_ones_evicted(client: TestClient) -> None:
    first = new_game(client, deal=DEAL_1)
    for _ in range(4):
        new_game(client, deal=DEAL_1)
    assert client.get(f"/api/klondike/games/{first['session']}").status_code == 404


def test_the_page_is_served_and_mounting_twice_changes_nothing(client: TestClient) -> None:
    r = client.get("/klondike")
    assert r.status_code == 200 and "klondike.js" in r.text
    assert client.get("/static/klondike.js").status_code == 200
    app = client.app
    routes = len(app.routes)
    mount_klondike(app)
    assert len(app.routes) == routes
    with TestClient(create_app(), base_url=LOCAL) as plain:  # the play app serves Klondike beside Pyramid
        assert plain.get("/klondike").status_code == 200
        assert plain.post("/api/klondike/games", json={"deal": DEAL_1}).status_code == 201


# ------------------------------------------------------------------ stock and waste
def test_draw_three_fans_the_waste_and_recycles_are_counted(client: TestClient) -> None:
    s = new_game(client, deal=DEAL_1)
    s = act(client, s, type="stock")
    assert [c["name"] for c in s["waste"]["fan"]] == ["3H", "6D", "QH"] and s["stock"]["count"] == 21
    assert s["waste"]["targets"] == ["c3"]  # only the top card plays: QH onto KC
    for _ in range(7):
        s = act(client, s, type="stock")
    assert s["stock"]["count"] == 0 and s["stock"]["action"] == "recycle" and s["waste"]["count"] == 24
    s = act(client, s, type="stock")
    assert s["recycles"] == 1 and s["stock"]["count"] == 24 and s["waste"]["fan"] == []
    s = act(client, s, type="undo")
    assert s["recycles"] == 0 and s["waste"]["count"] == 24


def test_the_fan_shrinks_to_the_cards_left_to_draw_and_to_what_was_played() -> None:
    game = KlondikeGame.from_position(*_positional(position([["KS"]], stock=["2H", "9C", "5D", "7C"],
                                                            filler_end="4D")))
    game.push(Move.parse("draw"))
    assert waste_fan(game) == 3
    game.push(Move.parse("draw"))
    assert waste_fan(game) == 1 and len(game.waste) == 4  # the last card alone
    game = KlondikeGame(DEAL_1)
    game.push(Move.parse("draw"))
    game.push(Move.parse("waste>c3"))  # QH onto KC: two of the three left
    assert waste_fan(game) == 2


def _positional(p: dict[str, Any]) -> tuple[Any, ...]:
    return p["columns"], p["hidden"], p["stock"], p["waste"], p["foundations"]


def test_stock_and_waste_both_empty_refuses_with_the_seed_message(client: TestClient) -> None:
    s = new_game(client, position=dead_end())
    assert s["stock"]["refusal"]["code"] == "NOTHING_TO_DRAW"
    refused(client, s, "NOTHING_TO_DRAW", type="stock")
    refused(client, s, "NOTHING_TO_DRAW", type="move", move="recycle")


# ------------------------------------------------------------------ taps, selections and drops
def test_a_card_with_one_target_goes_there_on_one_tap(client: TestClient) -> None:
    s = new_game(client, deal=DEAL_1)
    s = act(client, s, type="tap", place="c7")  # AC: only its foundation
    assert s["history"] == ["c7>f"] and s["foundations"][0]["count"] == 1
    assert s["columns"][6]["face_down"] == 5, "the face-down card turned up by itself"
    assert not s["columns"][6]["cards"][-1]["face_down"]


def test_a_card_with_no_or_several_targets_is_selected_then_tapped_to_a_target(client: TestClient) -> None:
    s = new_game(client, deal=DEAL_1)
    s = act(client, s, type="tap", place="c1")  # 10D: nowhere to go
    assert s["selected"] == "c1" and s["selected_targets"] == [] and s["message"]["kind"] == "info"
    s = act(client, s, type="tap", place="c1")  # tap again: deselected
    assert s["selected"] is None
    s = act(client, s, type="select", place="c5")  # the run panel selects without moving, even one target
    assert s["selected"] == "c5" and s["selected_targets"] == ["c1"] and s["history"] == []
    refused(client, s, "BUILD_DOWN", type="tap", place="c4")  # 9S on 8S: refused, selection kept
    s = act(client, s, type="tap", place="c5")  # tapping the selected column deselects
    assert s["selected"] is None
    s = act(client, s, type="tap", place="c2")  # 8H: one target, so one tap moves it onto 9S
    assert s["history"] == ["c2>c5"]
    s = act(client, s, type="select", place="c5:2")  # 9S+8H
    assert s["selected"] == "c5:2" and s["selected_targets"] == ["c1"]
    s = act(client, s, type="tap", place="c1")
    assert s["history"] == ["c2>c5", "c5:2>c1"] and ends(s)[0] == "8H" and s["columns"][4]["face_down"] == 3


def test_drops_play_legal_moves_and_refuse_illegal_ones_with_the_rule(client: TestClient) -> None:
    s = new_game(client, deal=DEAL_1)
    refused(client, s, "BUILD_DOWN", type="move", source="c6", target="c1")  # 8C on 10D
    refused(client, s, "FOUNDATION_ORDER", type="move", source="c7", target="fD")  # AC on diamonds
    refused(client, s, "FACE_DOWN", type="move", source="c5:3", target="c1")
    refused(client, s, "NO_CARD", type="move", source="c1:2", target="c2")
    refused(client, s, "SAME_COLUMN", type="move", source="c2", target="c2")
    refused(client, s, "WASTE_EMPTY", type="move", source="waste", target="c3")
    refused(client, s, "NO_CARD", type="move", source="fC", target="c3")
    refused(client, s, "NOT_A_TARGET", type="move", source="c2", target="waste")
    s = act(client, s, type="move", source="c7", target="fC")
    assert s["foundations"][0]["count"] == 1
    s = act(client, s, type="move", source="c2", target="c5")
    assert s["history"] == ["c7>f", "c2>c5"] and ends(s)[1] == "8D", "8D turned up by itself"
    refused(client, s, "FOUNDATION_ORDER", type="move", source="c5:2", target="f")  # a run: 9S 8H
    s = new_game(client, position=FINISH)  # columns 5..7 are empty: only a King goes there
    refused(client, s, "KING_ONLY", type="move", source="c1", target="c5")
    s = act(client, s, type="move", source="c1:2", target="c5")
    assert ends(s)[4] == "QH" and s["columns"][0]["cards"] == []


def test_a_foundation_card_can_come_back_to_a_column(client: TestClient) -> None:
    s = new_game(client, position=NO_PROGRESS)
    assert s["foundations"][3]["targets"] == ["c1"]
    s = act(client, s, type="move", source="fS", target="c1")
    assert ends(s)[0] == "5S" and s["foundations"][3]["count"] == 4


@pytest.mark.parametrize("place", ["", "c8", "c0", "c1:14", "f1", "fX", "tableau", "c1:0"])
def test_bad_places_are_malformed(client: TestClient, place: str) -> None:
    s = new_game(client, deal=DEAL_1)
    status = 422 if place == "" else 400
    body = act(client, s, status, type="tap", place=place)
    assert body["error"] == ("INVALID_REQUEST" if status == 422 else "MALFORMED")


@pytest.mark.parametrize("action", [{"type": "tap"}, {"type": "select"}, {"type": "move"},
                                    {"type": "move", "source": "c1"},
                                    {"type": "move", "move": "c1>f", "source": "c1", "target": "f"},
                                    {"type": "move", "move": "c1>>f"}, {"type": "select", "place": "stock"}])
def test_actions_missing_their_parts_are_malformed(client: TestClient, action: dict[str, Any]) -> None:
    s = new_game(client, deal=DEAL_1)
    refused(client, s, "MALFORMED", status=400, **action)


def test_unknown_action_type_is_422(client: TestClient) -> None:
    s = new_game(client, deal=DEAL_1)
    assert act(client, s, 422, type="fly")["error"] == "INVALID_REQUEST"


# ------------------------------------------------------------------ undo, redo, restart
def test_undo_redo_restart_and_their_refusals(client: TestClient) -> None:
    s = new_game(client, deal=DEAL_1)
    refused(client, s, "NOTHING_TO_UNDO", type="undo")
    refused(client, s, "NOTHING_TO_REDO", type="redo")
    for move in ["c7>f", "draw", "waste>c3"]:
        s = act(client, s, type="move", move=move)
    s = act(client, s, type="undo")
    s = act(client, s, type="undo")
    assert s["history"] == ["c7>f"] and s["redo"] == ["draw", "waste>c3"] and s["can_redo"]
    s = act(client, s, type="redo")
    assert s["history"] == ["c7>f", "draw"] and s["operations"] == 6
    seen_before = set(s["seen"])
    s = act(client, s, type="restart")
    assert s["history"] == [] and s["moves"] == 0 and set(s["seen"]) == seen_before, "seen cards stay seen"
    assert s["operations"] == 7


def test_a_saved_game_resumes_with_history_redo_seen_and_counts(client: TestClient) -> None:
    s = new_game(client, deal=DEAL_1)
    for move in ["c7>f", "draw", "draw", "undo"]:
        s = act(client, s, type="undo") if move == "undo" else act(client, s, type="move", move=move)
    saved = {"deal": s["deal"]["id"], "history": s["history"], "redo": s["redo"], "seen": s["seen"],
             "operations": s["operations"], "hints": 3}
    again = new_game(client, **saved)
    for key in ("columns", "waste", "stock", "history", "redo", "seen", "operations"):
        assert again[key] == s[key], key
    assert again["hints"] == 3
    by_position = new_game(client, position=NO_PROGRESS, history=["fS>c1"])
    assert by_position["history"] == ["fS>c1"] and by_position["foundations"][3]["count"] == 4
    assert "start" not in by_position and by_position["deal"]["code"] is None


# ------------------------------------------------------------------ auto-finish
def test_finish_shows_only_under_the_seed_condition_and_plays_one_card_at_a_time(client: TestClient) -> None:
    s = new_game(client, deal=DEAL_1)
    assert not s["finish"]["available"]
    refused(client, s, "NO_FINISH", type="finish")
    s = new_game(client, position=FINISH)
    assert s["finish"]["available"] and s["finish"]["label"] == "Finish"
    ups = []
    while s["outcome"] != "win":
        s = act(client, s, type="finish")
        ups.append(s["cards_up"])
    assert ups == [48, 49, 50, 51, 52], "one card per step"
    assert not s["finish"]["available"]
    refused(client, s, "GAME_WON", type="stock")


def test_finish_waits_for_unseen_stock_cards() -> None:
    p = position([["KS", "QH"], ["KC"], ["KD"]], stock=["KH"], foundations=(12, 12, 11, 12), seen=[])
    game = KlondikeGame.from_position(*_positional(p), seen=p["seen"])
    assert not game.auto_finish_ready()
    seen = KlondikeGame.from_position(*_positional(p), seen=["KH"])
    assert seen.can_auto_finish()


# ------------------------------------------------------------------ outcomes, hints and verdicts
def test_no_legal_move_is_reported_with_its_notice(client: TestClient) -> None:
    s = new_game(client, position=dead_end())
    assert s["outcome"] == "dead_end" and "No legal move" in s["outcome_text"]["en"]
    assert client.post(f"/api/klondike/games/{s['session']}/hint").json()["hint"] is None


def test_the_hint_says_no_progress_when_moves_remain_but_lead_nowhere(client: TestClient) -> None:
    s = new_game(client, position=NO_PROGRESS)
    assert s["outcome"] == "no_progress"
    h = client.post(f"/api/klondike/games/{s['session']}/hint").json()
    assert h["hint"]["kind"] == "no_progress" and h["hint"]["en"].startswith("Moves remain")
    assert h["hints"] == 1


def test_the_hint_names_the_agent_and_a_legal_move_from_the_visible_cards(client: TestClient) -> None:
    s = new_game(client, deal=DEAL_1)
    h = client.post(f"/api/klondike/games/{s['session']}/hint?source=agent").json()
    hint = h["hint"]
    assert hint["agent"] in ("ppo", "greedy") and hint["hint_source"] == "agent"
    assert (hint["agent"] == "ppo") == (hint["fallback_reason"] is None)
    game = KlondikeGame(DEAL_1)
    assert Move.parse(hint["move"]) in game.legal_moves()
    assert hint["from_place"] and hint["to_place"] and h["hints"] == 1
    s2 = act(client, h, type="tap", place="c1")
    assert s2["hint"] is None, "a new action clears the hint"


def test_hints_do_not_depend_on_hidden_cards(server: KlondikeServer) -> None:
    """Two deals that differ only in face-down and unseen cards get the same hint."""
    game = KlondikeGame(DEAL_1)
    cards = list(game.deal.cards)
    down = [i for i in range(28) if i not in (0, 7, 13, 18, 22, 25, 27)]
    rng = random.Random(5)
    for _ in range(3):
        hidden_slots = down + list(range(28, 52))
        values = [cards[i] for i in hidden_slots]
        rng.shuffle(values)
        other = list(cards)
        for i, v in zip(hidden_slots, values, strict=True):
            other[i] = v
        for source in ("planner", "agent", "network", "guided"):
            a = server.hints.hint(KlondikeGame(DEAL_1), source)
            b = server.hints.hint(KlondikeGame(other), source)
            assert a["move"] == b["move"] and a["hint_source"] == source


def wait_verdict(client: TestClient, s: dict[str, Any]) -> dict[str, Any]:
    r = client.post(f"/api/klondike/games/{s['session']}/verdict")
    assert r.status_code == 202
    for _ in range(30):
        v = client.get(f"/api/klondike/games/{s['session']}/verdict?wait=2").json()["verdict"]
        if v["status"] != "checking":
            return v
    raise AssertionError("no verdict")


def test_verdict_says_only_what_the_player_knows_and_is_discarded_when_the_position_changes(
    client: TestClient,
) -> None:
    """Issue 51: a random deal's start (21 cards face down) is not decided, though deal 1 is winnable;
    once every card is known the solver's answer is said."""
    s = new_game(client, deal=DEAL_1)
    assert client.get(f"/api/klondike/games/{s['session']}/verdict").json()["verdict"] is None
    v = wait_verdict(client, s)
    assert v["status"] == "unknown" and v["basis"] == "hidden" and "cards are hidden" in v["en"]
    s = act(client, s, type="stock")
    assert s["verdict"] is None, "a verdict belongs to one position"
    v = wait_verdict(client, new_game(client, position=FINISH))
    assert v["status"] == "winnable" and v["en"] == "A winning line exists from here (every card is known)."


def test_not_winnable_is_said_for_no_legal_move_and_no_progress(client: TestClient) -> None:
    v = wait_verdict(client, new_game(client, position=dead_end()))
    assert v["status"] == "not_winnable" and v["basis"] == "no_legal_move"
    v = wait_verdict(client, new_game(client, position=NO_PROGRESS))
    assert v["status"] == "not_winnable" and v["basis"] == "no_progress"


def test_a_loss_hidden_behind_unseen_cards_is_unknown_never_not_winnable() -> None:
    # progress is possible (an unseen stock card), but the solver proves the game lost
    p = position([["6H"]], stock=["9C"], foundations=(0, 0, 0, 5), filler_end="2H", seen=[])
    game = KlondikeGame.from_position(*_positional(p))
    assert game.progress_possible()
    assert solve_klondike(game, time_limit=10).status == "not_winnable"
    v = klondike_verdict(game, SearchLimits(time_limit=10))
    assert v.status == "unknown" and v.reason == "hidden cards"
    text = verdict_json(v)
    assert "cards are hidden" in text["en"] and "Not winnable" not in text["en"]
    won = klondike_verdict(KlondikeGame(DEAL_1), SearchLimits(time_limit=10))  # winnable, 21 cards face down
    assert verdict_json(won)["en"] == text["en"], "a hidden win and a hidden loss read the same (issue 51)"
    budget = solver_verdict(KlondikeGame("klondike-random-v1-2"), SearchLimits(max_states=10))
    assert budget.status == "unknown" and budget.reason != "hidden cards"
    assert "not a loss" in verdict_json(budget)["en"], "out of budget: worded as unknown, not a loss"


def test_verdict_runs_beside_play(client: TestClient) -> None:
    s = new_game(client, deal="klondike-random-v1-2")
    client.post(f"/api/klondike/games/{s['session']}/verdict")
    s = act(client, s, type="stock")  # answered while (or after) the search runs
    assert s["stock"]["count"] == 21


# ------------------------------------------------------------------ hidden cards never reach the page
def _names_in(state: dict[str, Any]) -> set[int]:
    found: set[int] = set()

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            if "card" in x and isinstance(x["card"], int):
                found.add(x["card"])
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk({k: v for k, v in state.items() if k != "seen"})
    return found


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000), st.lists(st.integers(0, 200), max_size=25))
def test_face_down_and_unseen_cards_never_appear_in_the_state(deal: int, choices: list[int]) -> None:
    server = KlondikeServer(verdicts=KlondikeVerdictService(SearchLimits(time_limit=1.0), workers=1))
    try:
        with TestClient(mount_klondike(create_app(), server), base_url=LOCAL) as client:
            s = new_game(client, deal=f"klondike-random-v1-{deal}")
            game = KlondikeGame(f"klondike-random-v1-{deal}")
            for c in choices:
                moves = game.legal_moves()
                if not moves:
                    break
                move = moves[c % len(moves)]
                game.push(move)
                s = act(client, s, type="move", move=str(move))
            hidden = {card for col, h in zip(game.columns, game.hidden, strict=True) for card in col[:h]}
            hidden |= set(game.stock)
            shown = _names_in(s)
            assert not shown & hidden
            assert s["deal"]["code"] is None and game.deal.code not in json.dumps(s)
            assert set(s["seen"]) == {c for c in range(52) if (game.seen >> c) & 1}
            assert not ({c for c in range(52) if not (game.seen >> c) & 1} & set(s["seen"]))
    finally:
        server.verdicts.shutdown()


def test_parse_place_round_trips() -> None:
    for text in ["stock", "waste", "fC", "fS", "f", "c1", "c7", "c3:4"]:
        assert str(parse_place(text)).lower() == text.lower()


@pytest.fixture(scope="module")
def tiny_klondike_checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """An untrained MaskablePPO policy for klondike-draw3 with its metadata: the ppo hint path, for real."""
    return save_tiny_ppo(tmp_path_factory, "klondike-draw3", "klondike-compact", "tiny-klondike", wrap=True)


def test_the_ppo_agent_answers_klondike_hints_from_its_checkpoint(tiny_klondike_checkpoint: Any) -> None:
    advisor = KlondikeHintAdvisor(options={"checkpoint": tiny_klondike_checkpoint})
    game = KlondikeGame(DEAL_1)
    game.replay(["draw"])
    hint = advisor.hint(game, "agent")
    assert hint["agent"] == "ppo" and hint["fallback_reason"] is None
    assert game.is_legal(Move.parse(hint["move"]))


def test_a_ppo_hint_is_the_most_probable_move_even_from_a_sampling_checkpoint(
        tiny_klondike_checkpoint: Any, tmp_path: Any) -> None:
    """The shipped Klondike agent samples its moves when it plays; its hint is the policy's most
    probable move (here none goes back to a position met before), the same every time it is asked."""
    sampled = rewrite_metadata(tiny_klondike_checkpoint, tmp_path / "sampled.zip", chosen_by_sampling)
    advisor = KlondikeHintAdvisor(options={"checkpoint": sampled})
    player, _ = advisor.player()
    game = KlondikeGame(DEAL_1)
    game.replay(["draw"])
    obs, mask, _ = player_view(game)
    probs = player.action_probabilities(obs, mask)  # type: ignore[attr-defined]
    hints = {advisor.hint(game, "agent")["move"] for _ in range(20)}
    assert hints == {str(move_of(game, int(np.argmax(probs))))}


def after(game: KlondikeGame, action: int) -> KlondikeGame:
    other = game.copy()
    other.push(move_of(other, action))
    return other


def test_a_hint_never_goes_back_to_a_position_met_before_while_another_move_is_new() -> None:
    columns = [["6H", "5S"], ["JC"], [], [], [], [], []]  # the other 21 cards in the stock
    game = KlondikeGame.from_position(columns, [0] * 7, None, foundations=(10, 10, 5, 4))
    start = table_key(game)
    game.replay(["c1>f"])  # 5S up; the only way back is fS>c1
    legal = [ACTION_INDEX[m] for m in game.legal_moves()]
    back = ACTION_INDEX[Move.parse("fS>c1")]
    assert back in legal and table_key(after(game, back)) == start
    assert line_visits(game) == {start: 1, table_key(game): 1}
    probs = np.zeros(NUM_ACTIONS)
    probs[legal] = np.linspace(0.1, 0.2, len(legal))
    probs[back] = 0.9  # the policy's first choice goes back
    new = [a for a in legal if a != back]
    assert fresh_action(game, np.array(legal), probs) == max(new, key=lambda a: probs[a])
    game.replay(["fS>c1"])  # back at the start: 5S up again is now met too
    assert line_visits(game)[start] == 2


def test_a_position_the_observation_cannot_show_gets_a_clear_refusal_not_a_crash(client: TestClient) -> None:
    p = position([["6H", "5S"], ["JC"]], foundations=(0, 0, 0, 4), filler_end="KD")  # 44 face down under KD
    s = new_game(client, position=p)
    r = client.post(f"/api/klondike/games/{s['session']}/hint")
    assert r.status_code == 400 and r.json()["error"] == "MALFORMED"
    assert "column 7 holds 45 cards" in r.json()["message"]
    assert client.get(f"/api/klondike/games/{s['session']}").json()["hints"] == 0


def test_following_the_shipped_hints_goes_where_the_game_has_been_least(server: KlondikeServer) -> None:
    """The play page's hint (the shipped policy) along 120 followed moves of three deals: every hint
    is legal and leads to a visible position met no more often than any other legal move's; and
    the rule is at work (the policy's first choice, going back, is passed over)."""
    passed_over = 0
    for deal in (DEAL_1, "klondike-random-v1-2", "klondike-random-v1-3"):
        game = KlondikeGame(deal)
        visits = Counter([table_key(game)])
        for _ in range(120):
            hint = server.hints.hint(game, "agent")
            if hint is None or hint["kind"] != "move":
                break
            move = Move.parse(hint["move"])
            assert hint["agent"] == "ppo" and move in game.legal_moves()
            met = {m: visits[table_key(after(game, ACTION_INDEX[m]))] for m in game.legal_moves()}
            assert met[move] == min(met.values())
            passed_over += "its first choice goes back to a position met before" in hint["reason"]
            game.push(move)
            visits[table_key(game)] += 1
    assert passed_over > 0


def known_endgame(deal: str) -> KlondikeGame:
    """``deal`` played along the solver's line to the first position where every card is known."""
    game = KlondikeGame(deal)
    result = solve_klondike(game, time_limit=10.0)
    assert result.line is not None
    for move in result.line:
        if all_known(game):
            break
        game.push(move)
    assert all_known(game) and not game.is_won()
    return game


@pytest.mark.parametrize("source", ["planner", "commitment"])
@pytest.mark.parametrize("deal", ["klondike-random-v1-9", "klondike-random-v1-17"])
def test_with_every_card_known_the_hints_win_without_ever_coming_back(server: KlondikeServer, deal: str,
                                                                      source: str) -> None:
    """Issue 37: re-solving at every hint shuttled a card between its foundation and a column on
    these deals (12 and 11 positions met twice). Followed now, the hints of the planner and of the
    commitment bot win and no visible position of the game comes up twice (the endgame line is the
    bots' own: tests/test_klondike_endgame.py)."""
    game = known_endgame(deal)
    met = {table_key(game)}
    for _ in range(200):
        hint = server.hints.hint(game, source)
        assert hint is not None and hint["kind"] == "move"
        assert hint["reason"] == "every card is known: the solver's winning line" and hint["reason_ja"]
        game.push(Move.parse(hint["move"]))
        assert table_key(game) not in met, f"back to a position already met after {hint['move']}"
        met.add(table_key(game))
        if game.is_won():
            break
    assert game.is_won()


class WholeDealVerdicts(KlondikeVerdictService):
    """Searches the whole deal even while cards are hidden (the page's verdicts no longer do): a long
    search to cancel."""

    def search(self, game: KlondikeGame, token: Any) -> Any:
        return solver_verdict(game, self.limits, token)


def test_a_verdict_for_an_old_position_is_cancelled() -> None:
    service = WholeDealVerdicts(SearchLimits(time_limit=60.0), workers=1)
    try:
        session = KlondikeSession(KlondikeGame("klondike-random-v1-1002"))  # about 5 s of search
        job = service.request(session)
        assert service.request(session) is job, "one search per position"
        assert service.current(session)["status"] == "checking"
        service.discard(session.session_id)  # the player moved on
        verdict = job.future.result(timeout=20)
        assert verdict.status == "unknown" and verdict.reason == "cancelled"
        assert service.current(session) is None
    finally:
        service.shutdown()


PROVED_LOST_DEAL = "klondike-random-v1-1274"
_PROVED_LOST_TEXT = (
    "c5>f draw draw c4>f draw c7>c3 c4>c6 fC>c7 c7>f draw c7>c1 draw waste>c3 c3>f c1>f c3>f c7>f c4>c3 "
    "c6:2>c7 c6>c2 c6>c5 draw draw waste>f draw c1>c6 recycle draw c4>c1 waste>c5 c1>c4 draw waste>f "
    "waste>f c4>c1 c1>c4 c4>c1 waste>c5 c1>c4 draw draw c4>c1 draw waste>f c7>f draw draw waste>f "
    "waste>c4 c6>f fC>c7 fC>c5 c6>c5 c5:6>c6 fS>c6 c7>c5 c5>c7 c6>f draw fS>c6 recycle c7>c5 c6>f draw "
    "waste>f draw draw fS>c6 fS>c3 c3>f draw draw c6>f recycle c5>c7 c7>c5 c5>c7 c7>c5 c5>c7 c7>c5 fS>c6 "
    "c6>f c5>c7 c7>c5 draw waste>f c3>f c6>f c3>f c3>c1 fD>c6 c6>f fD>c6 draw c1>c3 draw draw waste>c4 "
    "c3>c1 c2:2>c4 c1>c3 c6:4>c2 c5>c7 c7>c5 c2:4>c6 c3>c1 c6:4>c2 c1>c3 c3>c1 c2>f c2>f c1>c3 c3>c1 "
    "fC>c2 fH>c2 c1>c3 c2>f c2:3>c6 c6>f c5>f fC>c5 c6:2>c2 fC>c2 draw waste>f c5>c7 c2:3>c6 fH>c7 "
    "recycle draw c6>f draw c7:2>c5 fS>c5 c3>c1 fC>c6 c6:3>c2 fD>c2 draw c1>c3 c5>f c5>f fH>c5 c5:2>c7 "
    "fS>c7 c2>f c7>f fC>c7 c7>f fH>c2 c3>c1 c1>c3 fS>c7 fH>c7 c7>f c7:3>c5 draw c2>f c5:3>c7 c7>f c7>f "
    "c3>c1 recycle c1>c3 draw fD>c2 c2:4>c6 c6:4>c2 fH>c7 c7:2>c5 c2>f fC>c5 c2:3>c6 c5>f fD>c6 draw c6>f "
    "fS>c5 c6:3>c2 c2:3>c6 fH>c6 c5>f c6:4>c2 fC>c5 c5:3>c7 c7>f fC>c7 c7:3>c5 c2>f fD>c2 c5:3>c7 fD>c7 "
    "fC>c2 draw c3>c1 c7:4>c5 c5:4>c7 draw c7>f c2>f c7>f c7>f recycle fH>c7 draw fS>c7 c2:4>c6 draw "
    "c7:3>c5 fD>c5 draw c5:4>c7 fS>c6 c7:4>c5 c6:5>c2 draw c5>f c1>c3 c5:3>c7 c3>c1 c2:5>c6 c6:5>c2 c1>c3 "
    "c2>f c3>c1 c7:3>c5 c5:3>c7 c7>f c2>f fH>c2 c2:4>c6 c6:4>c2 c2>f c7>f c7>c5 recycle c2>f c2>f c7>f "
    "c5:2>c7 c5>c4 c7:3>c4 c1>c3 c2>c6 c5>c2 c3>c1 c3>c5 c1>c5 c1>c3 draw c4:8>c1 c1:3>c7 draw c3>c4 "
    "c5>c4 c4:2>c3 c7>f c3:2>c4 c2>f c2>f c5>c3 c1:5>c5 draw c7:2>c5 c7>f c7>f c6:4>c7 "
)
PROVED_LOST_LINE = _PROVED_LOST_TEXT.split()
"""Random play on deal 1274 to a position where every card is known, progress is still possible,
and the solver proves the game lost (found by a seeded random search)."""


def test_not_winnable_from_the_solver_once_every_card_is_known(client: TestClient) -> None:
    s = new_game(client, deal=PROVED_LOST_DEAL, history=PROVED_LOST_LINE)
    game = KlondikeGame(PROVED_LOST_DEAL)
    game.replay(PROVED_LOST_LINE)
    assert s["face_down"] == 0 and not game.unseen_stock() and game.progress_possible()
    v = wait_verdict(client, s)
    assert v["status"] == "not_winnable" and v["basis"] == "proved" and "every card is known" in v["en"]


# ---------------------------------------------------------------- words, not engine codes (issue 29)
def test_moves_and_selections_are_told_in_words_naming_cards_and_places() -> None:
    game = KlondikeGame(DEAL_1)  # column ends 10D 8H KC 8S 9S 8C AC
    assert describe_klondike_move(game, Move.column_to_foundation(6)) == (
        "Move the Ace of clubs from column 7 to the clubs foundation.",
        "7 列目からクラブの A をクラブの組札へ")
    assert describe_klondike_move(game, Move.column_to_column(3, 4)) == (
        "Move the 8 of spades from column 4 onto the 9 of spades in column 5.",
        "4 列目からスペードの 8 を 5 列目のスペードの 9 の上へ")
    assert describe_klondike_move(game, game.stock_move())[0] == "Draw 3 cards from the stock."
    en, ja = selected_words(game, "c4", [])
    assert en == "Selected the 8 of spades in column 4: it cannot move anywhere now."
    assert "スペードの 8" in ja


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 10_000), st.integers(0, 2**32 - 1))
def test_no_hint_or_selection_text_holds_an_engine_code(deal: int, seed: int) -> None:
    """Along random play, every move's sentence and every selection's message names cards and places
    in words."""
    game = KlondikeGame(f"klondike-random-v1-{deal}")
    rng = random.Random(seed)
    session = KlondikeSession(game)
    for _ in range(40):
        moves = game.legal_moves()
        if not moves:
            break
        for move in moves:
            for text in describe_klondike_move(game, move):
                assert engine_codes(text) == [], (text, str(move))
        for source in {move_source(m) for m in moves if move_source(m) != "stock"}:
            session.select(parse_place(source))
            for text in (session.notice.en, session.notice.ja):
                assert engine_codes(text) == [], (text, source)
        session.clear()
        game.push(rng.choice(moves))
