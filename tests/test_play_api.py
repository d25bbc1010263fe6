"""The play server's API: every endpoint, the seeds' tap rules, and every error path."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from solitaire_rl.agents.solver import SearchLimits
from solitaire_rl.envs.deals import encode_deal_code, resolve_deal
from solitaire_rl.envs.pyramid import Move, PyramidGame
from solitaire_rl.envs.pyramid.env import player_view
from solitaire_rl.envs.pyramid.observation import observe
from solitaire_rl.play.server import PyramidServer, create_app
from solitaire_rl.play.server.cli import main as cli_main
from solitaire_rl.play.server.pyramid_advice import PyramidHintAdvisor, PyramidVerdictService
from solitaire_rl.play.server.pyramid_wording import describe_move
from solitaire_rl.play.server.session import SessionStore
from tests.conftest import (
    DRAW_ONLY_PYRAMID,
    DRAW_ONLY_STOCK,
    STOCK_PAIRS_PYRAMID,
    STOCK_PAIRS_STOCK,
    WIN_LINE,
    WIN_PYRAMID,
    build_pyramid_deal,
)
from tests.play_api_helpers import LOCAL, GameApi, save_tiny_ppo, server_fixture

DEAL_1 = "pyramid-random-v1-1"  # bottom row QC 5D 8S 9S AD AC 3D, stock top 10S; winnable in 000
SLOW_001 = "pyramid-random-v1-74675"  # variant 001: proved lost after ~450,000 states (about 0.3 s)

server = server_fixture(lambda: PyramidServer(sessions=SessionStore(capacity=8), hints=PyramidHintAdvisor(),
                                              verdicts=PyramidVerdictService(SearchLimits(time_limit=20.0))))


@pytest.fixture
def client(server: PyramidServer) -> Iterator[TestClient]:
    with TestClient(create_app(server), base_url=LOCAL) as c:
        yield c


API = GameApi("/api/games")
new_game, act = API.new_game, API.act


def board(state: dict[str, Any]) -> tuple[Any, ...]:
    keys = ("pyramid", "stock", "waste", "pass", "history", "redo", "selected", "operations", "moves")
    return tuple(str(state[k]) for k in keys)


def read(client: TestClient, state: dict[str, Any]) -> dict[str, Any]:
    return client.get(f"/api/games/{state['session']}").json()


# ---------------------------------------------------------------- creating games
def test_a_new_game_is_variant_000_random_with_the_whole_state(client: TestClient) -> None:
    s = new_game(client)
    assert s["variant"] == "000" and s["deal"]["type"] == "random"
    assert s["deal"]["id"].startswith("pyramid-random-v1-") and len(s["deal"]["code"]) == 104
    counts = (s["cards_left"], s["pass"], s["passes"], s["recycles_left"], s["stock"]["count"])
    assert counts == (28, 1, 3, 2, 24)
    assert [p["place"] for p in s["pyramid"] if p["state"] == "available"] == list(range(21, 28))
    assert s["stock"]["top"] is not None  # 000: the stock top is face up
    assert s["recycle_refusal"]["code"] == "STOCK_NOT_EMPTY"
    assert s["recycle_refusal"]["ja"] == "山札をめくり終えると再利用できます"
    assert s["outcome"] is None and s["moves"] == 0 and s["operations"] == 0


def test_a_deal_by_id_or_by_code_gives_the_same_cards(client: TestClient) -> None:
    by_id = new_game(client, deal=DEAL_1)
    by_code = new_game(client, deal=by_id["deal"]["code"])
    assert by_id["deal"]["label"] == DEAL_1 and by_code["deal"]["label"] == by_id["deal"]["code"]
    assert by_code["deal"]["type"] == "code"
    assert [p["card"] for p in by_id["pyramid"]] == [p["card"] for p in by_code["pyramid"]]


def test_variant_001_has_random_and_winnable_deals_and_a_face_down_stock(client: TestClient) -> None:
    s = new_game(client, variant="001", deal_type="winnable")
    assert s["deal"]["id"].startswith("pyramid-winnable-v1-") and s["deal"]["type"] == "winnable"
    assert s["stock"]["top"] is None
    assert new_game(client, variant="001", deal_type="random")["deal"]["type"] == "random"


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"variant": "000", "deal_type": "winnable"}, 400, "MALFORMED"),
    ({"deal": "bogus"}, 400, "MALFORMED"),
    ({"deal": "klondike-random-v1-3"}, 400, "MALFORMED"),
    ({"variant": "002"}, 422, "INVALID_REQUEST"),
    ({"deal_type": "easy"}, 422, "INVALID_REQUEST"),
    ({"colour": "red"}, 422, "INVALID_REQUEST"),
    ({"deal": ""}, 422, "INVALID_REQUEST"),
    ({"deal": DEAL_1, "history": ["r7c1+r7c3"]}, 400, "MALFORMED"),
    ({"deal": DEAL_1, "history": ["fly"]}, 400, "MALFORMED"),
    ({"deal": DEAL_1, "seen": [52]}, 422, "INVALID_REQUEST"),
    ({"deal": DEAL_1, "operations": -1}, 422, "INVALID_REQUEST"),
])
def test_a_bad_new_game_is_refused_with_a_specific_status_and_message(
    client: TestClient, server: PyramidServer, body: dict[str, Any], status: int, code: str
) -> None:
    r = client.post("/api/games", json=body)
    assert r.status_code == status
    data = r.json()
    assert data["error"] == code and data["message"] and data["message_ja"]
    assert len(server.sessions) == 0  # nothing was stored


def test_a_saved_game_is_restored_with_redo_seen_cards_and_counts(client: TestClient) -> None:
    s = new_game(client, deal=DEAL_1)
    for move in ("draw", "draw", "r7c2+r7c3"):
        s = act(client, s, type="move", move=move)
    s = act(client, s, type="undo")
    s = act(client, s, type="undo")
    restored = new_game(client, deal=DEAL_1, history=s["history"], redo=s["redo"], seen=s["seen"],
                        operations=s["operations"], hints=4)
    assert restored["history"] == ["draw"] and restored["redo"] == ["draw", "r7c2+r7c3"]
    assert restored["seen"] == s["seen"] and restored["operations"] == 5 and restored["hints"] == 4
    assert board(restored)[:6] == board(s)[:6]


# ---------------------------------------------------------------- taps (seeds 000 and 001)
def test_tap_selects_shows_the_needed_rank_and_partners_then_deselects(client: TestClient) -> None:
    s = new_game(client, deal=DEAL_1)
    s = act(client, s, type="tap", place="r7c2")  # 5D needs an 8: r7c3 is 8S
    assert s["selected"] == 22 and s["needed_rank"] == 8
    assert s["pyramid"][22]["partners"] == [23]
    assert s["message"]["code"] == "SELECTED" and "needs an 8" in s["message"]["en"]
    assert s["message"]["en"] == "Selected the 5 of diamonds (row 7, position 2): it needs an 8."
    assert s["message"]["ja"] == "ダイヤの 5（7 段目の 2 枚目）を選択中：相手の数字は 8 です"
    s = act(client, s, type="tap", place=22)
    assert s["selected"] is None and s["message"] is None and s["moves"] == 0
    s = act(client, s, type="tap", place="r7c1")  # QC needs an Ace
    assert s["message"]["ja"].endswith("相手の数字は A です")
    assert s["usable"][0]["label_ja"] == "7 段目の 1 枚目"
    queen = s["pyramid"][21]["card"]
    assert queen["spoken"] == "Queen of clubs" and queen["spoken_ja"] == "クラブの Q"


def test_tap_partner_removes_the_pair_and_a_king_goes_with_one_tap(client: TestClient) -> None:
    deal = build_pyramid_deal(WIN_PYRAMID)
    s = new_game(client, deal=deal)
    s = act(client, s, type="tap", place="r7c7")  # a King: one tap
    assert s["history"] == ["r7c7"] and s["cards_left"] == 27
    s = act(client, s, type="tap", place="r7c1")
    s = act(client, s, type="tap", place="r7c2")
    assert s["history"] == ["r7c7", "r7c1+r7c2"] and s["selected"] is None and s["cards_left"] == 25


def test_000_refuses_a_second_card_not_making_13_and_changes_nothing(client: TestClient) -> None:
    s = act(client, new_game(client, deal=DEAL_1), type="tap", place="r7c1")
    r = client.post(f"/api/games/{s['session']}/actions", json={"type": "tap", "place": "r7c2"})
    assert r.status_code == 409
    assert r.json() == {"error": "NOT_THIRTEEN", "message": "These two cards do not add up to 13.",
                        "message_ja": "この 2 枚は合計 13 になりません"}
    assert board(read(client, s)) == board(s)


def test_001_moves_the_selection_to_a_second_card_not_making_13(client: TestClient) -> None:
    s = act(client, new_game(client, variant="001", deal=DEAL_1), type="tap", place="r7c1")
    s = act(client, s, type="tap", place="r7c2")
    assert s["selected"] == 22 and s["moves"] == 0 and s["needed_rank"] == 8


def test_a_covered_card_says_why_and_names_the_cards_on_it(client: TestClient) -> None:
    s = new_game(client, deal=DEAL_1)
    r = client.post(f"/api/games/{s['session']}/actions", json={"type": "tap", "place": "r6c1"})
    assert r.status_code == 409 and r.json()["error"] == "COVERED"
    assert r.json()["message"].startswith("This card is still covered.")
    assert r.json()["message"] == ("This card is still covered. The Queen of clubs (row 7, position 1) "
                                   "and the 5 of diamonds (row 7, position 2) are on top of it: "
                                   "remove both first.")
    assert r.json()["message_ja"] == (  # the seed's message, then why
        "このカードはまだ重なっています。クラブの Q（7 段目の 1 枚目）とダイヤの 5（7 段目の 2 枚目）が上に"
        "重なっています。2 枚とも取り除くと選べます")
    assert s["pyramid"][15]["covered_reason"] == ("The Queen of clubs (row 7, position 1) and the 5 of "
                                                  "diamonds (row 7, position 2) are on top of it: "
                                                  "remove both first.")
    assert s["pyramid"][15]["covered_reason_ja"].startswith("クラブの Q（7 段目の 1 枚目）とダイヤの 5（")
    assert board(read(client, s)) == board(s)


@pytest.mark.parametrize(("variant", "place", "code"), [
    ("000", "waste", "NO_CARD"), ("001", "stock", "STOCK_TOP_UNUSABLE"),
])
def test_tapping_no_usable_card_is_refused(client: TestClient, variant: str, place: str, code: str) -> None:
    s = new_game(client, variant=variant, deal=DEAL_1)
    r = client.post(f"/api/games/{s['session']}/actions", json={"type": "tap", "place": place})
    assert r.status_code == 409 and r.json()["error"] == code


@pytest.mark.parametrize(("action", "status", "code"), [
    ({"type": "tap", "place": "r8c1"}, 400, "MALFORMED"),
    ({"type": "tap"}, 400, "MALFORMED"),
    ({"type": "tap", "place": 30}, 422, "INVALID_REQUEST"),
    ({"type": "move"}, 400, "MALFORMED"),
    ({"type": "move", "move": "r7c1+r7c2+r7c3"}, 400, "MALFORMED"),
    ({"type": "move", "move": "r7c1+r7c4"}, 409, "NOT_THIRTEEN"),
    ({"type": "move", "move": "r6c1+r7c1"}, 409, "COVERED"),
    ({"type": "fly"}, 422, "INVALID_REQUEST"),
    ({"type": "draw", "extra": 1}, 422, "INVALID_REQUEST"),
    ({"type": "undo"}, 409, "NOTHING_TO_UNDO"),
    ({"type": "redo"}, 409, "NOTHING_TO_REDO"),
])
def test_every_bad_action_is_refused_and_changes_nothing(
    client: TestClient, action: dict[str, Any], status: int, code: str
) -> None:
    s = act(client, new_game(client, deal=DEAL_1), type="tap", place="r7c2")
    r = client.post(f"/api/games/{s['session']}/actions", json=action)
    assert r.status_code == status, r.text
    assert r.json()["error"] == code and r.json()["message"]
    assert board(read(client, s)) == board(s)


def test_a_win_then_any_tap_is_refused(client: TestClient) -> None:
    s = new_game(client, deal=build_pyramid_deal(WIN_PYRAMID))
    for move in WIN_LINE:
        s = act(client, s, type="move", move=move)
    assert s["outcome"] == "win" and s["removed"] == 28 and s["moves"] == len(WIN_LINE)
    assert act(client, s, 409, type="tap", place="stock")["error"] == "GAME_WON"


# ---------------------------------------------------------------- draw, recycle, undo, redo
def test_draw_and_recycle_refusals_and_the_grey_recycle_reason(client: TestClient) -> None:
    s = new_game(client, deal=build_pyramid_deal(STOCK_PAIRS_PYRAMID, STOCK_PAIRS_STOCK))
    assert act(client, s, 409, type="recycle")["error"] == "STOCK_NOT_EMPTY"
    for _ in range(12):  # draw, then pair the stock top with the waste top: empties both in pass 1
        s = act(client, s, type="draw")
        s = act(client, s, type="move", move="stock+waste")
    assert s["stock"]["count"] == 0 and s["waste"]["count"] == 0
    assert s["recycle_refusal"]["code"] == "WASTE_EMPTY" and s["draw_refusal"]["code"] == "NOTHING_TO_DRAW"
    body = act(client, s, 409, type="draw")
    assert body == {"error": "NOTHING_TO_DRAW", "message": "There is no card to draw.",
                    "message_ja": "めくれるカードがありません"}
    assert act(client, s, 409, type="recycle")["message_ja"] == "捨て札に再利用できるカードがありません"


def test_undo_and_redo_cross_recycles_with_the_pass_count_and_counts_never_go_down(
    client: TestClient,
) -> None:
    s = new_game(client, deal=build_pyramid_deal(DRAW_ONLY_PYRAMID, DRAW_ONLY_STOCK))
    for _ in range(2):
        for _ in range(24):
            s = act(client, s, type="draw")
        s = act(client, s, type="recycle")
    for _ in range(24):
        s = act(client, s, type="draw")
    assert s["pass"] == 3 and s["recycle_refusal"]["code"] == "NO_RECYCLES_LEFT"
    assert s["outcome"] == "dead_end"
    ops = s["operations"]
    for _ in range(25):
        s = act(client, s, type="undo")
    assert s["pass"] == 2 and s["stock"]["count"] == 0 and s["waste"]["count"] == 24
    assert s["operations"] == ops + 25
    s = act(client, s, type="redo")
    assert s["pass"] == 3 and s["stock"]["count"] == 24 and s["operations"] == ops + 26
    assert s["all_stock_seen"] and len(s["redo"]) == 24


def test_restart_and_clear(client: TestClient) -> None:
    s = new_game(client, deal=DEAL_1)
    s = act(client, s, type="draw")
    s = act(client, s, type="tap", place="r7c2")
    s = act(client, s, type="clear")
    assert s["selected"] is None and s["message"] is None
    s = act(client, s, type="restart")
    assert s["moves"] == 0 and s["stock"]["count"] == 24 and s["operations"] == 2
    assert len(s["seen"]) == 28 + 2  # what was seen stays seen


# ---------------------------------------------------------------- hints
def test_hint_names_the_agent_and_counts_and_falls_back_to_greedy(client: TestClient, tmp_path: Any) -> None:
    s = new_game(client, deal=DEAL_1)
    r = client.post(f"/api/games/{s['session']}/hint?source=agent")
    assert r.status_code == 200
    h = r.json()["hint"]
    assert h["agent"] in ("ppo", "greedy") and h["hint_source"] == "agent" and r.json()["hints"] == 1
    game = PyramidGame(DEAL_1)
    assert game.is_legal(Move.parse(h["move"]))
    if h["agent"] == "greedy":
        assert "ppo unavailable" in h["fallback_reason"]
    missing = PyramidHintAdvisor(options={"pyramid-000": {"checkpoint": tmp_path / "none.zip"}})
    player, reason = missing.player("000")
    assert player.name == "greedy" and "none.zip" in reason


def test_the_default_hint_is_the_planners_and_says_why_in_words(client: TestClient) -> None:
    s = new_game(client, deal=DEAL_1, variant="001")
    r = client.post(f"/api/games/{s['session']}/hint")
    assert r.status_code == 200
    h = r.json()["hint"]
    game = PyramidGame(DEAL_1, stock_top_playable=False)
    assert game.is_legal(Move.parse(h["move"]))
    assert (h["agent"], h["hint_source"]) == ("pimc", "planner") or h["fallback_reason"]  # or out of time
    if h["agent"] == "pimc":
        assert h["reason"].startswith("wins in ") and "sampled stocks" in h["reason"]
        assert h["reason_ja"].startswith("見えていない札の並びを")
    bad = client.post(f"/api/games/{s['session']}/hint?source=oracle")
    assert bad.status_code == 422
    assert client.get(f"/api/games/{s['session']}").json()["hints"] == 1, "a refused request changes nothing"


def test_hint_suggests_drawing_when_the_pyramid_has_no_pair(client: TestClient) -> None:
    s = new_game(client, deal=build_pyramid_deal(DRAW_ONLY_PYRAMID, DRAW_ONLY_STOCK))
    h = client.post(f"/api/games/{s['session']}/hint").json()["hint"]
    assert (h["kind"], h["move_kind"], h["places"]) == ("move", "draw", [])
    assert h["en"] == "Draw a card from the stock."
    assert h["ja"] == "山札を 1 枚めくるのがおすすめです"


def test_hints_see_only_what_the_player_has_seen() -> None:
    """Two deals differing only in stock cards never face up get the same observation and hint."""
    deal = resolve_deal(DEAL_1, "pyramid").cards
    swapped = list(deal)
    swapped[40], swapped[45] = swapped[45], swapped[40]  # stock cards 13 and 18 from the top: unseen
    games = [PyramidGame(list(deal)), PyramidGame(encode_deal_code(swapped))]
    for g in games:
        g.replay(["draw", "draw", "draw"])
    assert (observe(games[0]) == observe(games[1])).all()
    advisor = PyramidHintAdvisor(planner_time=60.0)  # the state budget alone: the same answer every time
    for source in ("planner", "agent", "network", "guided"):
        assert advisor.hint(games[0], source)["move"] == advisor.hint(games[1], source)["move"]
    _, mask, info = player_view(games[0])
    assert mask.sum() == len(games[0].legal_moves()) and info["cards_left"] == 28


# ---------------------------------------------------------------- verdicts
def verdict(client: TestClient, state: dict[str, Any]) -> dict[str, Any]:
    r = client.post(f"/api/games/{state['session']}/verdict")
    assert r.status_code == 202
    return client.get(f"/api/games/{state['session']}/verdict?wait=10").json()["verdict"]


def test_verdict_winnable_gives_a_legal_first_step(client: TestClient) -> None:
    s = new_game(client, variant="001", deal="pyramid-winnable-v1-3")
    v = verdict(client, s)
    assert v["status"] == "winnable" and v["en"] == (  # 001: the whole deal's answer, said as such (issue 51)
        "A line that clears the pyramid exists (knowing every card, the unseen stock's order too).")
    first = Move.parse(v["first_step"])  # seed 001's "path to clear": the first removal or stock action
    game = PyramidGame(resolve_deal("pyramid-winnable-v1-3", "pyramid"), stock_top_playable=False)
    assert v["first_step_en"] == f"Path to clear, first step: {describe_move(game, first)[0]}."
    assert v["first_step_ja"] == f"全消しの道：最初の一手は{describe_move(game, first)[1]}"
    assert v["first_step_en"].startswith(("Path to clear, first step: remove the ",
                                          "Path to clear, first step: draw"))
    s = act(client, s, type="move", move=v["first_step"])
    assert s["history"] == [v["first_step"]]


def test_verdict_000_is_withheld_until_every_stock_card_was_seen_then_states_the_loss(
    client: TestClient,
) -> None:
    s = new_game(client, deal=build_pyramid_deal(DRAW_ONLY_PYRAMID, DRAW_ONLY_STOCK))
    v = verdict(client, s)
    assert v["status"] == "unseen_stock" and "not winnable" not in v["en"].lower()
    for _ in range(22):
        s = act(client, s, type="draw")
    assert verdict(client, s)["status"] == "unseen_stock"  # 23 of 24 seen: still withheld
    s = act(client, s, type="draw")
    s = act(client, s, type="undo")  # the 24th was seen; undo keeps it seen
    v = verdict(client, s)
    assert v["status"] == "not_winnable" and v["en"] == (
        "Not winnable from here: no line clears the pyramid (you have seen every card).")


def test_verdict_that_runs_out_of_budget_is_unverified_never_a_loss() -> None:
    server = PyramidServer(verdicts=PyramidVerdictService(SearchLimits(max_states=1000)))
    with TestClient(create_app(server), base_url=LOCAL) as client:
        s = new_game(client, variant="001", deal=SLOW_001)
        v = verdict(client, s)
        assert v["status"] == "unverified" and v["reason"] == "states" and "not a loss" in v["en"]
    server.verdicts.shutdown()


def test_the_server_answers_during_a_verdict_and_a_move_discards_it(
    client: TestClient, server: PyramidServer
) -> None:
    s = new_game(client, variant="001", deal=SLOW_001)
    start = time.perf_counter()
    assert client.post(f"/api/games/{s['session']}/verdict").json()["verdict"]["status"] == "checking"
    job = server.verdicts._jobs[s["session"]]
    tapped = act(client, s, type="tap", place="r7c1")  # no change of position: the search goes on
    latency = time.perf_counter() - start
    assert not job.future.done(), f"the search ended within {latency:.3f} s"
    assert tapped["selected"] == 21 and tapped["verdict"]["status"] == "checking"
    moved = act(client, s, type="draw")  # the position changes: cancelled and discarded
    assert moved["verdict"] is None
    assert client.get(f"/api/games/{s['session']}/verdict").json() == {"verdict": None}
    assert job.future.result(timeout=20).reason in ("cancelled", None)


# ---------------------------------------------------------------- sessions, limits, files
@pytest.mark.parametrize(("method", "path"), [
    ("GET", "/api/games/nope"), ("POST", "/api/games/nope/actions"), ("POST", "/api/games/nope/hint"),
    ("POST", "/api/games/nope/verdict"), ("GET", "/api/games/nope/verdict"),
])
def test_unknown_games_are_404(client: TestClient, method: str, path: str) -> None:
    r = client.request(method, path, json={"type": "draw"} if path.endswith("actions") else None)
    assert r.status_code == 404 and r.json()["error"] == "UNKNOWN_GAME"


def test_sessions_are_bounded_and_the_least_recent_is_evicted(client: TestClient,
                                                               server: PyramidServer) -> None:
    first = new_game(client)
    second = new_game(client)
    for _ in range(7):
        new_game(client)
        read(client, first)  # first stays recent
    assert len(server.sessions) == 8
    assert client.get(f"/api/games/{second['session']}").status_code == 404
    assert client.get(f"/api/games/{first['session']}").status_code == 200


def test_a_body_over_the_limit_is_413_and_bad_json_422(client: TestClient) -> None:
    s = new_game(client)
    r = client.post(f"/api/games/{s['session']}/actions", content=b"{" + b" " * 20000 + b"}",
                    headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["error"] == "TOO_LARGE"
    r = client.post("/api/games", json={"history": ["draw"] * 3000})
    assert r.status_code == 413
    r = client.post(f"/api/games/{s['session']}/actions", content=b"{not json",
                    headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["error"] == "INVALID_REQUEST"
    r = client.get(f"/api/games/{s['session']}/verdict?wait=99")
    assert r.status_code == 422


def test_the_page_and_its_files_are_served(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and "<title>Pyramid" in r.text
    for name in ("pyramid.js", "pyramid_i18n.js", "common.js", "pyramid.css", "common.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert client.get("/static/nothing.js").status_code == 404


def test_both_pages_load_the_shared_script_first(client: TestClient) -> None:
    for path, script in (("/", "pyramid.js"), ("/klondike", "klondike.js")):
        page = client.get(path).text
        assert '<script src="/static/common.js" defer></script>' in page
        assert page.index("/static/common.js") < page.index(f"/static/{script}")


def test_cli_refuses_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        cli_main(["--port", "70000", "--no-browser"])
    assert exc.value.code == 2 and "--port must be 0..65535" in capsys.readouterr().err



@pytest.fixture(scope="module")
def tiny_ppo_checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """An untrained MaskablePPO policy for pyramid-000 with its metadata: the ppo hint path, for real."""
    return save_tiny_ppo(tmp_path_factory, "pyramid-000", "pyramid-flat", "tiny", wrap=False)


def test_the_ppo_agent_answers_hints_when_its_checkpoint_loads(tiny_ppo_checkpoint: Any) -> None:
    advisor = PyramidHintAdvisor(options={"pyramid-000": {"checkpoint": tiny_ppo_checkpoint}})
    deal = resolve_deal(DEAL_1, "pyramid").cards
    swapped = list(deal)
    swapped[40], swapped[45] = swapped[45], swapped[40]  # unseen stock cards
    hints = []
    for cards in (list(deal), encode_deal_code(swapped)):
        game = PyramidGame(cards)
        game.replay(["draw", "draw"])
        hint = advisor.hint(game, "agent")
        assert hint["agent"] == "ppo" and hint["fallback_reason"] is None
        assert game.is_legal(Move.parse(hint["move"]))
        hints.append(hint["move"])
    assert hints[0] == hints[1]


def test_python_m_play_serves_the_page_on_127_0_0_1_and_prints_the_url() -> None:
    import subprocess
    import sys

    import httpx

    proc = subprocess.Popen([sys.executable, "-m", "solitaire_rl.play", "--port", "0", "--no-browser"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("Pyramid and Klondike are being served at http://127.0.0.1:")
        url = line.split()[7]
        deadline = time.monotonic() + 60
        while True:
            try:
                r = httpx.get(url, timeout=5)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.2)
        assert r.status_code == 200 and "<title>Pyramid" in r.text
        assert httpx.post(url + "api/games", json={"deal": DEAL_1}).status_code == 201
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_selecting_a_card_drops_the_hint_for_the_position_before(client: TestClient) -> None:
    s = new_game(client, deal=DEAL_1)
    s = client.post(f"/api/games/{s['session']}/hint").json()
    assert s["hint"] is not None
    s = act(client, s, type="tap", place="r7c1")  # the player looks at another card: the hint goes
    assert s["selected"] == 21 and s["hint"] is None
