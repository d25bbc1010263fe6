"""The Klondike hint sources: planner, agent, the expert network and the network-guided search.

Each answers a legal move and names itself; an unknown source is refused with 422 and nothing
changes; without a network checkpoint the new sources fall back and say so; no hint depends on a
face-down or unseen stock card; the guided search, like the planner, does not lead back.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("torch")
from fastapi.testclient import TestClient

from solitaire_rl.agents.planner.revisits import table_key
from solitaire_rl.agents.solver import SearchLimits
from solitaire_rl.envs.klondike import KlondikeGame, Move
from solitaire_rl.envs.klondike.actions import ACTION_INDEX
from solitaire_rl.play.server import create_app
from solitaire_rl.play.server.klondike_advice import (
    GUIDED_LATE,
    HINT_SOURCES,
    KlondikeHintAdvisor,
    KlondikeVerdictService,
)
from solitaire_rl.play.server.klondike_api import KlondikeServer, mount_klondike
from tests.play_api_helpers import LOCAL, GameApi, server_fixture

DEAL_1 = "klondike-random-v1-1"
ANSWERS = {"planner": ("hop", "planner"), "agent": ("ppo", "agent"), "network": ("expert-net", "network"),
           "guided": ("guided-ismcts", "guided"), "commitment": ("world-bandit", "commitment")}
"""Who answers each source when everything loads: (agent, hint_source)."""

server = server_fixture(lambda: KlondikeServer(hints=KlondikeHintAdvisor(planner_time=30.0),
                                               verdicts=KlondikeVerdictService(SearchLimits(time_limit=5.0))))
API = GameApi("/api/klondike/games")


@pytest.fixture
def client(server: KlondikeServer) -> Iterator[TestClient]:
    with TestClient(mount_klondike(create_app(), server), base_url=LOCAL) as c:
        yield c


def ask(client: TestClient, state: dict[str, Any], source: str) -> Any:
    return client.post(f"/api/klondike/games/{state['session']}/hint", params={"source": source})


@pytest.mark.parametrize("source", HINT_SOURCES)
def test_each_source_answers_a_legal_move_and_names_itself(client: TestClient, source: str) -> None:
    s = API.new_game(client, deal=DEAL_1)
    r = ask(client, s, source)
    assert r.status_code == 200, r.text
    hint = r.json()["hint"]
    assert (hint["agent"], hint["hint_source"]) == ANSWERS[source]
    assert hint["requested"] == source and hint["fallback_reason"] is None
    assert Move.parse(hint["move"]) in KlondikeGame(DEAL_1).legal_moves()
    assert hint["en"] and hint["ja"] and hint["reason_ja"], hint
    assert r.json()["hints"] == 1


def test_the_network_hint_gives_its_weight_and_win_chance_in_both_languages(client: TestClient) -> None:
    hint = ask(client, API.new_game(client, deal=DEAL_1), "network").json()["hint"]
    assert hint["reason"].startswith("the network's pick (") and "% likely; win chance " in hint["reason"]
    assert hint["reason_ja"].startswith("ネットワークの手（推す度合い ")


@pytest.mark.parametrize("source", ["oracle", "", "Network", "solver"])
def test_an_unknown_source_is_refused_and_nothing_changes(client: TestClient, source: str) -> None:
    s = API.new_game(client, deal=DEAL_1)
    before = client.get(f"/api/klondike/games/{s['session']}").json()
    r = ask(client, s, source)
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["error"] == "INVALID_REQUEST" and "source" in body["message"], body
    assert client.get(f"/api/klondike/games/{s['session']}").json() == before


def test_the_advisor_refuses_an_unknown_source() -> None:
    from solitaire_rl.envs.errors import MalformedInputError

    with pytest.raises(MalformedInputError, match="hints come from one of planner, agent, network, guided"):
        KlondikeHintAdvisor().hint(KlondikeGame(DEAL_1), "oracle")


def test_without_a_network_checkpoint_the_new_sources_fall_back_and_say_so(tmp_path: Path) -> None:
    advisor = KlondikeHintAdvisor(planner_time=30.0, expert_checkpoint=tmp_path / "missing.zip")
    game = KlondikeGame(DEAL_1)
    for source, answer in (("network", ("ppo", "agent")), ("guided", ("hop", "planner"))):
        hint = advisor.hint(game, source)
        assert (hint["agent"], hint["hint_source"], hint["requested"]) == (*answer, source)
        assert hint["fallback_reason"].startswith("the expert network is unavailable: no expert checkpoint")
        assert Move.parse(hint["move"]) in game.legal_moves()


def test_a_guided_search_without_an_answer_in_time_gives_the_networks_move() -> None:
    advisor = KlondikeHintAdvisor(planner_time=1e-9, planner_states=1)  # no sample finishes in time
    game = KlondikeGame("klondike-random-v1-2")  # no card safe to put up: the search has to sample
    hint = advisor.hint(game, "guided")
    assert (hint["agent"], hint["hint_source"], hint["requested"]) == ("expert-net", "network", "guided")
    assert hint["fallback_reason"] == GUIDED_LATE and Move.parse(hint["move"]) in game.legal_moves()


def shuffled_hidden(deal: str, rng: random.Random) -> KlondikeGame:
    """``deal`` with its face-down and stock cards shuffled among themselves (the face-up ones kept)."""
    cards = list(KlondikeGame(deal).deal.cards)
    slots = [i for i in range(28) if i not in (0, 7, 13, 18, 22, 25, 27)] + list(range(28, 52))
    values = [cards[i] for i in slots]
    rng.shuffle(values)
    for i, v in zip(slots, values, strict=True):
        cards[i] = v
    return KlondikeGame(cards)


@pytest.mark.parametrize("deal", [DEAL_1, "klondike-random-v1-2"])
def test_the_new_sources_do_not_depend_on_hidden_cards(server: KlondikeServer, deal: str) -> None:
    rng = random.Random(11)
    for _ in range(2):
        other = shuffled_hidden(deal, rng)
        assert table_key(other) == table_key(KlondikeGame(deal))
        for source in ("network", "guided"):
            a = server.hints.hint(KlondikeGame(deal), source)
            b = server.hints.hint(other, source)
            assert (a["move"], a["reason"]) == (b["move"], b["reason"]) and a["hint_source"] == source


def after(game: KlondikeGame, move: Move) -> bytes:
    walk = game.copy()
    walk.push(move)
    return table_key(walk)


def test_the_guided_hint_does_not_lead_back_where_the_game_has_been() -> None:
    """5S goes up from column 1; fS>c1 would bring back the start: neither search hints it."""
    columns = [["6H", "5S"], ["JC"], [], [], [], [], []]  # the other 21 cards in the stock, unseen
    game = KlondikeGame.from_position(columns, [0] * 7, None, foundations=(10, 10, 5, 4))
    start = table_key(game)
    game.replay(["c1>f"])
    back = Move.parse("fS>c1")
    assert back in game.legal_moves() and after(game, back) == start
    advisor = KlondikeHintAdvisor(planner_time=10.0, planner_states=50_000)
    for source in ("guided", "planner"):
        hint = advisor.hint(game, source)
        assert hint["hint_source"] == source and Move.parse(hint["move"]) != back, hint


def test_following_network_hints_goes_where_the_game_has_been_least(server: KlondikeServer) -> None:
    game = KlondikeGame(DEAL_1)
    visits = Counter([table_key(game)])
    for _ in range(80):
        hint = server.hints.hint(game, "network")
        if hint is None or hint["kind"] != "move":
            break
        move = Move.parse(hint["move"])
        met = {m: visits[after(game, m)] for m in game.legal_moves()}
        assert hint["agent"] == "expert-net" and met[move] == min(met.values())
        assert ACTION_INDEX[move] >= 0
        game.push(move)
        visits[table_key(game)] += 1


def test_the_commitment_planner_answers_from_a_bot_kept_for_the_game() -> None:
    """Issue 51 (defect 4): ``source="commitment"`` is world-bandit within the planner's time, its bot kept
    for the game (told the moves played since, taken up afresh after an undo); Pyramid asked for it
    answers with its planner and says why."""
    from solitaire_rl.envs.klondike import KlondikeGame, Move
    from solitaire_rl.envs.pyramid import PyramidGame
    from solitaire_rl.play.server.klondike_advice import KlondikeHintAdvisor
    from solitaire_rl.play.server.pyramid_advice import PyramidHintAdvisor

    advisor = KlondikeHintAdvisor(planner_time=1.0, planner_threads=1)
    game = KlondikeGame("klondike-random-v1-100010")
    for _ in range(4):
        hint = advisor.hint(game, "commitment")
        assert hint is not None and hint["kind"] == "move"
        assert (hint["hint_source"], hint["agent"]) == ("commitment", "world-bandit")
        assert hint["requested"] == "commitment"
        assert hint["reason_en"] and hint["reason_ja"]
        game.push(Move.parse(hint["move"]))
    kept = advisor.kept_bot("commitment", game)  # one bot all along: it decided at each of the 4 positions
    assert sum(kept.bot.visits.values()) == 4
    assert (kept.line, kept.expected) == (tuple(game.history[:-1]), game.history[-1])  # it assumed its move
    game.pop()
    game.pop()
    again = advisor.hint(game, "commitment")
    assert again is not None and game.is_legal(Move.parse(again["move"]))
    assert advisor.kept_bot("commitment", game) is kept and kept.line == tuple(game.history)
    # taken up afresh after the undo: the line's two earlier positions met, and this one
    assert sum(kept.bot.visits.values()) == len(game.history) + 1
    pyramid = PyramidHintAdvisor(planner_time=2.0, planner_threads=1).hint(PyramidGame(), "commitment")
    assert pyramid is not None and pyramid["hint_source"] == "planner"
    assert pyramid["fallbacks"] == ["klondike_only"]


def test_the_planner_is_a_bot_kept_for_the_game_that_counts_each_position_once() -> None:
    """``source="planner"``: one ``hop`` player kept for the game; asked again where nothing was
    played, it answers the same and has met the position once; after a move it did not hint it is
    taken up afresh, every position of the game's line met once."""
    from solitaire_rl.agents.planner.knowledge import visible_key
    from solitaire_rl.envs.klondike.observer import observe

    advisor = KlondikeHintAdvisor(planner_time=30.0, planner_states=20_000, planner_threads=1)
    game = KlondikeGame("klondike-random-v1-3")
    first = advisor.hint(game, "planner")
    again = advisor.hint(game, "planner")
    assert first is not None and again is not None and first["move"] == again["move"]
    kept = advisor.kept_bot("planner", game)
    assert dict(kept.bot.visits) == {visible_key(observe(game)): 1}
    other = next(m for m in game.legal_moves() if str(m) != first["move"])
    game.push(other)
    assert advisor.hint(game, "planner") is not None
    assert advisor.kept_bot("planner", game) is kept and sum(kept.bot.visits.values()) == 2
