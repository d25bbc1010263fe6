"""Issue 51 (defect 4): the server remembers the hints it showed, so the state says which moves were the
hint's (``hinted``), a save keeps them, and the analysis says "this was the hint's move" instead of
blaming the player for it."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from solitaire_rl.agents.analysis import analyse_game
from solitaire_rl.envs.pyramid import PyramidGame
from solitaire_rl.play.server.app import create_app
from solitaire_rl.play.server.session import line_digests
from tests.play_api_helpers import LOCAL, random_pyramid_game

DEAL = "pyramid-random-v1-5"


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(), base_url=LOCAL)


def losing_game() -> tuple[list[str], int]:
    """Random moves of variant 001 on :data:`DEAL` to its end, and the index of the move that lost it."""
    moves = random_pyramid_game(DEAL)
    report = analyse_game("pyramid-001", DEAL, moves)
    assert report.first_losing_move is not None
    return moves, report.first_losing_move


def play(client: TestClient, session: str, moves: list[str]) -> dict:
    state: dict = {}
    for move in moves:
        r = client.post(f"/api/games/{session}/actions", json={"type": "move", "move": move})
        assert r.status_code == 200, r.text
        state = r.json()
    return state


def test_line_digests_tell_lines_apart_and_find_the_same_line_again() -> None:
    a, b = line_digests(["draw", "r7c1+r7c2"]), line_digests(["draw", "r7c2+r7c3"])
    assert a[0] == b[0] == b"" and a[1] == b[1] and a[2] != b[2]
    assert line_digests(["draw", "r7c1+r7c2"]) == a
    assert line_digests(["r7c1+r7c2", "draw"])[2] != a[2]  # the same moves in another order: another line


def test_a_hint_followed_is_the_hints_move_through_undo_redo_restart_and_a_save(client: TestClient) -> None:
    state = client.post("/api/games", json={"variant": "001", "deal": DEAL}).json()
    session = state["session"]
    assert state["hinted"] == []
    hint = client.post(f"/api/games/{session}/hint").json()["hint"]
    assert hint["kind"] == "move"
    state = play(client, session, [hint["move"]])
    assert state["hinted"] == [0]
    start = PyramidGame(DEAL, stock_top_playable=False)
    other = next(m for m in start.legal_moves() if str(m) != hint["move"])
    state = client.post(f"/api/games/{session}/actions", json={"type": "undo"}).json()
    assert state["hinted"] == [0], "the undone move stays the hint's, ready for redo"
    state = play(client, session, [str(other)])
    assert state["hinted"] == [], "another move from the same position is the player's own"
    client.post(f"/api/games/{session}/actions", json={"type": "restart"})
    state = play(client, session, [hint["move"]])
    assert state["hinted"] == [0], "the same move from the same position, reached again"
    saved = {"variant": "001", "deal": DEAL, "history": state["history"], "hinted": state["hinted"]}
    restored = client.post("/api/games", json=saved).json()
    assert restored["hinted"] == [0] and restored["session"] != session


def test_a_pair_hint_taken_card_by_card_counts_as_the_hints_move(client: TestClient) -> None:
    """The hint names ``r7c1+r7c2``; tapping r7c2 and then r7c1 plays the same move."""
    state = client.post("/api/games", json={"variant": "001", "deal": DEAL}).json()
    session = state["session"]
    game = PyramidGame(DEAL, stock_top_playable=False)
    pair = next(m for m in game.legal_moves() if len(m.places()) == 2)
    first, second = pair.places()
    client.app.state.server.session(session).note_hint({"kind": "move", "move": f"{pair}"})  # type: ignore[attr-defined]
    for place in (second, first):
        state = client.post(f"/api/games/{session}/actions", json={"type": "tap", "place": place}).json()
    assert state["history"] == [str(pair)] and state["hinted"] == [0]


def test_a_save_naming_a_move_it_does_not_hold_is_refused_and_nothing_is_stored(client: TestClient) -> None:
    before = len(client.app.state.server.sessions)  # type: ignore[attr-defined]
    for hinted in ([1], [0, 5], [-1]):
        body = {"variant": "001", "deal": DEAL, "history": ["draw"], "hinted": hinted}
        r = client.post("/api/games", json=body)
        assert r.status_code in (400, 422), r.text
        assert r.json()["error"] in ("MALFORMED", "INVALID_REQUEST") and r.json()["message_ja"]
    r = client.post("/api/klondike/games", json={"deal": "klondike-random-v1-1", "hinted": [0]})
    assert r.status_code == 400 and "hinted move 0" in r.json()["message"]
    assert len(client.app.state.server.sessions) == before  # type: ignore[attr-defined]


@pytest.mark.parametrize("how", ["shown", "saved"])
def test_the_analysis_says_the_losing_move_was_the_hints_and_never_blames_the_player(
        client: TestClient, how: str) -> None:
    """The losing move was the hint's (a hint shown there, or a save that says so): the judgement says
    "this was the hint's move" in both languages, never "You could have seen it"; the other moves are the
    player's own."""
    moves, k = losing_game()
    if how == "saved":
        state = client.post("/api/games", json={"variant": "001", "deal": DEAL, "history": moves,
                                                "hinted": [k]}).json()
    else:
        state = client.post("/api/games", json={"variant": "001", "deal": DEAL}).json()
        play(client, state["session"], moves[:k])
        client.app.state.server.session(state["session"]).note_hint(  # type: ignore[attr-defined]
            {"kind": "move", "move": moves[k]})
        state = play(client, state["session"], moves[k:])
    assert state["hinted"] == [k]
    data = client.post("/api/analysis", json={"game": "pyramid", "session": state["session"]}).json()
    assert [m["index"] for m in data["moves"] if m["hint"]] == [k]
    losing = data["losing"]
    assert losing["index"] == k and losing["hint"] is True
    assert losing["judgement_text"]["en"].startswith("This was the hint's move")
    assert losing["judgement_text"]["ja"].startswith("これはヒントの手です")
    assert "You could have seen it" not in losing["judgement_text"]["en"]
    assert "判断できた負けの一手" not in losing["judgement_text"]["ja"]
    own = client.post("/api/analysis", json={"game": "pyramid", "variant": "001", "deal": DEAL,
                                             "moves": moves}).json()
    assert own["losing"]["hint"] is False and not any(m["hint"] for m in own["moves"])
    assert not own["losing"]["judgement_text"]["en"].startswith("This was the hint's move")


def test_the_winning_move_is_followed_by_won_not_can_still_be_won(client: TestClient) -> None:
    """Defect 8: after the move that wins, the analysis says the game has been won."""
    from solitaire_rl.agents.solver import solve_pyramid

    deal = "pyramid-winnable-v1-1"  # proved winnable in variant 001
    line = [str(m) for m in solve_pyramid(PyramidGame(deal, stock_top_playable=False)).line or ()]
    assert line
    state = client.post("/api/games", json={"variant": "001", "deal": deal, "history": line}).json()
    assert state["outcome"] == "win"
    data = client.post("/api/analysis", json={"game": "pyramid", "session": state["session"]}).json()
    assert data["moves"][-1]["verdict_text"] == {"en": "has been won", "ja": "勝ちました"}
    assert all(m["verdict_text"]["en"] == "can still be won" for m in data["moves"][:-1])
