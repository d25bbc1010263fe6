"""Klondike draw 1 on the play API (issue 37): a game takes its draw (1 or 3, default 3), the state
reports it, a draw turns one card, hints come from the planner (and say so when another source was
asked: the trained agent and the expert network play draw 3 only), verdicts are the solver's for
draw 1, a bad draw is a 422 that changes nothing, and a save replays in the draw it was played in.
The planners (``hop``, ``ismcts``) and the solver take the draw too, checked on a position that
draw 1 wins and draw 3 cannot."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from solitaire_rl.agents.planner.hop import HopPlayer, hop_values
from solitaire_rl.agents.registry import make_player
from solitaire_rl.agents.solver import SearchLimits, solve_klondike
from solitaire_rl.agents.solver.klondike_winnable import winnable_deal
from solitaire_rl.agents.solver.result import NOT_WINNABLE, WINNABLE
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike import WIN, KlondikeGame, Move
from solitaire_rl.envs.klondike.env import player_view
from solitaire_rl.envs.klondike.moves import DRAW
from solitaire_rl.envs.spec import KLONDIKE_DRAW1, find_game, klondike_spec
from solitaire_rl.play.server import create_app
from solitaire_rl.play.server.klondike_advice import (
    DRAW1_PLANNER_LATE,
    DRAW3_ONLY,
    KlondikeHintAdvisor,
    KlondikeVerdictService,
    klondike_verdict,
)
from solitaire_rl.play.server.klondike_api import KlondikeServer, mount_klondike
from solitaire_rl.play.server.session import SessionStore
from tests.play_api_helpers import LOCAL, GameApi, server_fixture

DEAL = "klondike-random-v1-5"
server = server_fixture(lambda: KlondikeServer(sessions=SessionStore(capacity=16),
                                               hints=KlondikeHintAdvisor(planner_time=5.0),
                                               verdicts=KlondikeVerdictService(SearchLimits(time_limit=10.0))))
API = GameApi("/api/klondike/games")
new_game, act = API.new_game, API.act

# Draw 1 wins this position and draw 3 cannot: the stock's three clubs come up 2, 3, 4 one by one
# in draw 1, while draw 3 shows only the 4 of clubs; every other suit is up and no column is empty,
# so no card can come down to hold one. The Queen and King of clubs lie face down (unknown).
STRAIT = {"columns": [["KC", "5C"], ["QC", "6C"], ["7C"], ["8C"], ["9C"], ["10C"], ["JC"]],
          "hidden": [1, 1, 0, 0, 0, 0, 0], "stock": ["4C", "3C", "2C"], "foundations": [1, 13, 13, 13],
          "seen": ["4C", "3C", "2C"]}


# The same strait with every card known (the page's verdict waits for that, issue 51): the seven
# columns hold King down to 7 of clubs, the stock 2 to 6 of clubs; draw 3 shows only the 4 and the 6.
KNOWN_STRAIT = {"columns": [["KC"], ["QC"], ["JC"], ["10C"], ["9C"], ["8C"], ["7C"]],
                "hidden": [0] * 7, "stock": ["6C", "5C", "4C", "3C", "2C"], "foundations": [1, 13, 13, 13],
                "seen": ["6C", "5C", "4C", "3C", "2C"]}


def strait(draw_count: int, known: bool = False) -> KlondikeGame:
    p = KNOWN_STRAIT if known else STRAIT
    return KlondikeGame.from_position(p["columns"], p["hidden"], p["stock"], [], p["foundations"],
                                      draw_count=draw_count, seen=p["seen"])


@pytest.fixture
def client(server: KlondikeServer) -> Iterator[TestClient]:
    with TestClient(mount_klondike(create_app(), server), base_url=LOCAL) as c:
        yield c


def hint(client: TestClient, state: dict[str, Any], source: str = "planner") -> dict[str, Any]:
    r = client.post(f"/api/klondike/games/{state['session']}/hint", params={"source": source})
    assert r.status_code == 200, r.text
    return r.json()


def verdict(client: TestClient, state: dict[str, Any]) -> dict[str, Any]:
    assert client.post(f"/api/klondike/games/{state['session']}/verdict").status_code == 202
    r = client.get(f"/api/klondike/games/{state['session']}/verdict", params={"wait": 10})
    return r.json()["verdict"]


# ---------------------------------------------------------------- create, view, draw, move
def test_a_game_takes_its_draw_and_the_view_reports_it(client: TestClient) -> None:
    assert new_game(client, deal=DEAL)["draw_count"] == 3  # the default stays seed 002's draw 3
    assert new_game(client)["draw_count"] == 3
    s = new_game(client, deal=DEAL, draw_count=1)
    assert s["draw_count"] == 1 and s["deal"]["id"] == DEAL
    assert client.get(f"/api/klondike/games/{s['session']}").json()["draw_count"] == 1
    assert new_game(client, draw_count=1)["draw_count"] == 1  # a new random deal
    assert new_game(client, deal=DEAL, draw_count=3)["draw_count"] == 3


def test_a_draw_turns_one_card_and_the_fan_shows_it(client: TestClient) -> None:
    s = new_game(client, deal=DEAL, draw_count=1)
    assert (s["stock"]["count"], s["waste"]["count"]) == (24, 0)
    for n in range(1, 25):
        s = act(client, s, type="stock")
        assert (s["stock"]["count"], s["waste"]["count"]) == (24 - n, n)
        assert len(s["waste"]["fan"]) == 1  # only the card just drawn shows (draw 3 fans up to 3)
        assert s["history"][-1] == "draw"
    assert s["stock"]["action"] == "recycle"
    s = act(client, s, type="stock")
    assert (s["stock"]["count"], s["waste"]["count"], s["recycles"]) == (24, 0, 1)
    three = act(client, new_game(client, deal=DEAL), type="stock")
    assert (three["stock"]["count"], three["waste"]["count"], len(three["waste"]["fan"])) == (21, 3, 3)


def test_moves_tap_and_undo_play_as_in_draw_3(client: TestClient) -> None:
    s = new_game(client, deal=DEAL, draw_count=1)
    game = KlondikeGame(DEAL, draw_count=1)
    while not any(m.kind != DRAW for m in game.legal_moves()):
        game.push(game.stock_move())
        s = act(client, s, type="stock")
    move = next(m for m in game.legal_moves() if m.kind != DRAW)
    s = act(client, s, type="move", move=str(move))
    game.push(move)
    assert s["history"] == [str(m) for m in game.history] and s["draw_count"] == 1
    assert s["cards_up"] == game.cards_up and s["waste"]["count"] == len(game.waste)
    s = act(client, s, type="undo")
    assert s["history"] == [str(m) for m in game.history[:-1]] and s["redo"] == [str(move)]


# ---------------------------------------------------------------- hints
def test_the_planner_hints_in_draw_1(client: TestClient) -> None:
    s = new_game(client, deal=DEAL, draw_count=1)
    h = hint(client, s)["hint"]
    assert (h["agent"], h["hint_source"], h["requested"]) == ("hop", "planner", "planner")
    assert h["fallback_reason"] is None and h["fallbacks"] == []
    assert Move.parse(h["move"]) in KlondikeGame(DEAL, draw_count=1).legal_moves()
    assert h["en"] and h["ja"]


@pytest.mark.parametrize("source", ["agent", "network", "guided"])
def test_draw_3_only_sources_fall_back_to_the_planner_and_say_so(client: TestClient, source: str) -> None:
    s = new_game(client, deal=DEAL, draw_count=1)
    answered = hint(client, s, source)
    h = answered["hint"]
    assert (h["agent"], h["hint_source"], h["requested"]) == ("hop", "planner", source)
    assert h["fallback_reason"] == DRAW3_ONLY[source] and "draw 3 only" in h["fallback_reason"]
    assert h["fallbacks"] == ["draw3_only"]
    assert Move.parse(h["move"]) in KlondikeGame(DEAL, draw_count=1).legal_moves()
    assert answered["hints"] == 1 and answered["draw_count"] == 1


def test_draw_3_sources_still_answer_in_draw_3(client: TestClient) -> None:
    h = hint(client, new_game(client, deal=DEAL), "agent")["hint"]
    assert h["hint_source"] == "agent" and h["fallbacks"] == []


def test_a_planner_out_of_time_in_draw_1_hands_over_to_the_simple_player() -> None:
    advisor = KlondikeHintAdvisor(planner_time=1e-9, planner_states=1)
    game = KlondikeGame("klondike-random-v1-2", draw_count=1)  # no card safe to put up: the planner searches
    h = advisor.hint(game, "agent")
    assert h is not None and (h["agent"], h["hint_source"]) == ("greedy", "agent")
    assert h["fallback_reason"] == f"{DRAW3_ONLY['agent']}; {DRAW1_PLANNER_LATE}"
    assert h["fallbacks"] == ["draw3_only", "planner_late"]
    assert Move.parse(h["move"]) in game.legal_moves()


def test_the_draw_1_hint_counts_the_draw_it_describes(client: TestClient) -> None:
    s = new_game(client, position=STRAIT, draw_count=1)
    h = hint(client, s)["hint"]
    assert h["move"] == "draw" and h["en"] == "Draw 1 card from the stock." and "1 枚" in h["ja"]
    assert hint(client, new_game(client, position=STRAIT))["hint"]["kind"] == "no_progress"  # draw 3: stuck


def test_following_planner_hints_wins_the_position_only_draw_1_wins(client: TestClient) -> None:
    s = new_game(client, position=STRAIT, draw_count=1)
    for _ in range(60):
        if s["outcome"] == WIN:
            break
        h = hint(client, s)["hint"]
        assert h["kind"] == "move" and h["hint_source"] == "planner", h
        s = act(client, s, type="move", move=h["move"])
    assert s["outcome"] == WIN and s["draw_count"] == 1


# ---------------------------------------------------------------- verdicts
def test_the_verdict_is_the_solvers_for_draw_1(client: TestClient) -> None:
    one = verdict(client, new_game(client, position=KNOWN_STRAIT, draw_count=1))
    assert one["status"] == WINNABLE and one["en"] == "A winning line exists from here (every card is known)."
    three = verdict(client, new_game(client, position=KNOWN_STRAIT))
    assert three["status"] == NOT_WINNABLE and three["basis"] == "no_progress"
    # With the Queen and King face down, draw 1 waits for them; draw 3's dead end is seen all the same.
    hidden = verdict(client, new_game(client, position=STRAIT, draw_count=1))
    assert hidden["status"] == "unknown" and hidden["basis"] == "hidden"
    assert verdict(client, new_game(client, position=STRAIT))["basis"] == "no_progress"


def test_a_winnable_deal_in_draw_1_is_proved_from_the_start(client: TestClient) -> None:
    s = new_game(client, deal_type="winnable", draw_count=1)
    assert s["draw_count"] == 1 and s["deal"]["id"].startswith("klondike-winnable-v1-")
    assert s["verdict"]["basis"] == "winnable_deal" and s["verdict"]["status"] == WINNABLE
    named = new_game(client, deal="klondike-winnable-v1-7", draw_count=1)
    assert named["verdict"]["basis"] == "winnable_deal"


@pytest.mark.parametrize("number", [1, 2, 7, 30])
def test_a_draw_3_winning_line_wins_in_draw_1_with_each_draw_taken_one_card_at_a_time(number: int) -> None:
    deal_id = f"klondike-winnable-v1-{number}"
    _, cards, line = winnable_deal(number)
    game = KlondikeGame(deal_id, draw_count=1)
    assert game.deal is not None and game.deal.cards == cards
    for move in line:
        if move.kind == DRAW:
            for _ in range(min(3, len(game.stock))):
                game.push(Move.parse("draw"))
        else:
            game.push(move)
    assert game.is_won()
    assert solve_klondike(KlondikeGame(deal_id, draw_count=1), time_limit=10).status == WINNABLE


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("bad", [2, 0, 4, -1, "1", "3", True, 1.5, None, [1]])
def test_a_bad_draw_is_a_422_and_nothing_is_stored(client: TestClient, server: KlondikeServer,
                                                   bad: Any) -> None:
    before = len(server.sessions)
    r = client.post("/api/klondike/games", json={"deal": DEAL, "draw_count": bad})
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["error"] == "INVALID_REQUEST" and "draw_count" in body["message"] and body["message_ja"]
    assert len(server.sessions) == before


# ---------------------------------------------------------------- saves
def test_a_draw_1_save_restored_stays_draw_1(client: TestClient) -> None:
    s = new_game(client, deal=DEAL, draw_count=1)
    for _ in range(5):
        s = act(client, s, type="stock")
    s = act(client, s, type="undo")
    save = {"deal": s["deal"]["id"], "history": s["history"], "redo": s["redo"], "seen": s["seen"],
            "operations": s["operations"], "hints": s["hints"], "draw_count": s["draw_count"]}
    back = new_game(client, **save)
    assert back["draw_count"] == 1
    for key in ("history", "redo", "seen", "waste", "stock", "columns", "operations"):
        assert back[key] == s[key], key
    assert act(client, back, type="stock")["waste"]["count"] == 5  # and it goes on drawing one
    as_draw_3 = new_game(client, **{**save, "draw_count": 3})  # the same moves in draw 3 are another game
    assert as_draw_3["waste"]["count"] == 12 and as_draw_3["waste"] != s["waste"]


def test_restart_and_replay_keep_draw_1(client: TestClient) -> None:
    s = new_game(client, deal=DEAL, draw_count=1)
    s = act(client, s, type="stock")
    s = act(client, s, type="restart")
    assert s["draw_count"] == 1 and s["moves"] == 0
    s = act(client, s, type="stock")
    assert s["waste"]["count"] == 1


# ---------------------------------------------------------------- the planners and the solver take the draw
def test_the_variant_of_each_draw() -> None:
    assert klondike_spec(3) is find_game("klondike") and klondike_spec(1) is KLONDIKE_DRAW1
    assert KLONDIKE_DRAW1.env_kwargs["draw_count"] == 1 and KLONDIKE_DRAW1.key == "klondike-draw1"
    with pytest.raises(MalformedInputError):
        klondike_spec(2)


@pytest.mark.parametrize("name", ["hop", "ismcts"])
def test_the_planners_sample_in_the_draw_they_play(name: str) -> None:
    wins = {}
    for draw in (1, 3):
        game = strait(draw)
        obs, mask, _ = player_view(game)
        planner = make_player(name, klondike_spec(draw), seed=1, time_limit=5.0)
        assert isinstance(planner, HopPlayer)
        knowledge = planner.knowledge(obs)
        assert knowledge.game.draw_count == draw and len(knowledge.unknown) == 2  # the Queen and King
        values = hop_values(knowledge, np.flatnonzero(mask), seed=1, states_per_solve=20_000, max_samples=8,
                            max_states=200_000, time_limit=5.0, threads=1)
        wins[draw] = (int(values.won.sum()), values.samples)
    assert wins[1] == (8, 8) and wins[3] == (0, 8)


def test_the_solver_and_the_verdict_take_the_games_draw() -> None:
    assert solve_klondike(strait(1), time_limit=5).status == WINNABLE
    assert solve_klondike(strait(3), time_limit=5).status == NOT_WINNABLE
    assert solve_klondike(strait(1, known=True), time_limit=5).status == WINNABLE
    assert solve_klondike(strait(3, known=True), time_limit=5).status == NOT_WINNABLE
    assert klondike_verdict(strait(1, known=True), SearchLimits(time_limit=5.0)).status == WINNABLE
    assert klondike_verdict(strait(3, known=True), SearchLimits(time_limit=5.0)).status == NOT_WINNABLE


def test_a_won_draw_1_game_opens_in_the_analysis_as_draw_1(client: TestClient) -> None:
    _, _, line = winnable_deal(7)
    s = new_game(client, deal="klondike-winnable-v1-7", draw_count=1)
    for move in line:
        for _ in range(min(3, s["stock"]["count"]) if move.kind == DRAW else 1):
            s = act(client, s, type="move", move=str(move))
    assert s["outcome"] == WIN
    r = client.post("/api/analysis", json={"game": "klondike", "session": s["session"]})
    assert r.status_code == 201, r.text
    report = r.json()
    assert report["variant"] == "klondike-draw1" and report["outcome"] == "won"
    assert report["frames"] == len(s["history"]) + 1
    assert client.get(f"/api/analysis/{report['id']}/frames/{report['frames'] - 1}.png").status_code == 200


def test_a_planner_out_of_time_in_draw_3_says_so_and_the_agent_answers() -> None:
    """A regression: the hint said nothing of the planner's time, and the page called the trained agent
    that answered unavailable. Now the codes say what happened: the planner was late (and, with no
    checkpoint, the agent was unavailable too)."""
    advisor = KlondikeHintAdvisor(planner_time=1e-9, planner_states=1)
    game = KlondikeGame("klondike-random-v1-2")  # no card safe to put up: the planner searches
    h = advisor.hint(game, "planner")
    assert h is not None and h["requested"] == "planner" and h["hint_source"] == "agent"
    expected = ["planner_late"] if h["agent"] == "ppo" else ["planner_late", "agent_unavailable"]
    assert h["fallbacks"] == expected and "the planner found nothing within its time" in h["fallback_reason"]
