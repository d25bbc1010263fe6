"""One Klondike bot for the page and the benchmark (issue 49): on the same deal and seed, the hints
the page gives from its default source (``commitment``) are the moves the benchmark's
``world-bandit`` plays, one by one, while any card is unknown (then both follow an exact solver's
winning line, which may be another of the winning lines)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

from solitaire_rl.agents.registry import make_player
from solitaire_rl.agents.seeding import reseed
from solitaire_rl.agents.solver import SearchLimits
from solitaire_rl.envs.klondike import KlondikeGame
from solitaire_rl.envs.klondike.actions import move_of
from solitaire_rl.envs.klondike.env import player_view
from solitaire_rl.envs.spec import klondike_spec
from solitaire_rl.play.server import create_app
from solitaire_rl.play.server.klondike_advice import KlondikeHintAdvisor, KlondikeVerdictService, all_known
from solitaire_rl.play.server.klondike_api import KlondikeServer, mount_klondike
from solitaire_rl.play.server.session import SessionStore
from tests.play_api_helpers import LOCAL, GameApi

API = GameApi("/api/klondike/games")
DEAL = 100_005
"""An eval deal that world-bandit wins with its default options (about 40 decisions)."""


@pytest.fixture
def client() -> Iterator[TestClient]:
    server = KlondikeServer(sessions=SessionStore(capacity=4),
                            hints=KlondikeHintAdvisor(planner_time=120.0),  # no decision runs out of time
                            verdicts=KlondikeVerdictService(SearchLimits(time_limit=1.0)))
    with TestClient(mount_klondike(create_app(), server), base_url=LOCAL) as c:
        yield c
    server.verdicts.shutdown()


def benchmark_moves(deal: int, seed: int = 0, draw_count: int = 3) -> list[str]:
    """The moves world-bandit plays on ``deal`` as the benchmark plays it (reseeded with
    ``[seed, deal]``), up to the first position where every card is known."""
    variant = klondike_spec(draw_count)
    bot = make_player("world-bandit", variant)
    reseed(bot, [seed, deal])
    bot.reset(None)  # type: ignore[arg-type]
    game = KlondikeGame(variant.deal_id(deal), draw_count=draw_count)
    moves: list[str] = []
    while game.outcome() is None and not all_known(game):
        obs, mask, _ = player_view(game)
        choice = bot.choose(obs, mask, {})
        move = move_of(game, choice.action)
        game.push(move)
        moves.append(str(move))
    return moves


def test_the_pages_hints_are_the_benchmark_bots_moves(client: TestClient) -> None:
    expected = benchmark_moves(DEAL)
    assert len(expected) > 30
    state: dict[str, Any] = API.new_game(client, deal=klondike_spec(3).deal_id(DEAL))
    for number, move in enumerate(expected):
        r = client.post(f"/api/klondike/games/{state['session']}/hint", params={"source": "commitment"})
        assert r.status_code == 200, r.text
        hint = r.json()["hint"]
        assert hint["hint_source"] == "commitment", hint
        assert hint["move"] == move, (number, hint, move)
        state = API.act(client, state, type="move", move=move)



def test_draw_1_hints_come_from_the_same_bot(client: TestClient) -> None:
    """A draw-1 game asks the commitment planner too (hop answers only when it fails): its hints are
    the benchmark's draw-1 moves, and following them wins a deal that bot wins."""
    deal = 100_001
    expected = benchmark_moves(deal, draw_count=1)
    state: dict[str, Any] = API.new_game(client, deal=klondike_spec(1).deal_id(deal), draw_count=1)
    for number in range(400):
        if state["outcome"] is not None:
            break
        r = client.post(f"/api/klondike/games/{state['session']}/hint", params={"source": "commitment"})
        assert r.status_code == 200, r.text
        hint = r.json()["hint"]
        assert hint["hint_source"] == "commitment" and hint["agent"] == "world-bandit", hint
        if number < len(expected):
            assert hint["move"] == expected[number], (number, hint, expected[number])
        state = API.act(client, state, type="move", move=hint["move"])
    assert state["outcome"] == "win" and state["draw_count"] == 1


def test_every_kind_of_decision_is_worded_in_both_languages() -> None:
    """The hint's words come from the bot's typed decision, in English and Japanese, for every kind
    (nothing parsed back from English)."""
    import re
    from typing import get_args

    from solitaire_rl.agents.planner.commitment import CandidateReport, Decision, DecisionKind
    from solitaire_rl.envs.klondike import DRAW_MOVE
    from solitaire_rl.envs.klondike.actions import ACTION_INDEX
    from solitaire_rl.play.server.klondike_advice import commitment_words

    japanese = re.compile("[\u3040-\u30ff\u4e00-\u9fff]")
    seen = set()
    for kind in get_args(DecisionKind):
        candidates = (CandidateReport((DRAW_MOVE,), False, 7, 2, 3),) if kind == "planned" else ()
        decision = Decision(DRAW_MOVE, ACTION_INDEX[DRAW_MOVE], kind, (DRAW_MOVE,), candidates,
                            0 if candidates else None, 12, 600)
        en, ja = commitment_words(decision)
        assert en and japanese.search(ja) and not japanese.search(en), (kind, en, ja)
        assert "planner's move" not in en, kind  # every kind has its own words
        seen.add(en)
        if kind == "planned":
            assert "7 of 12" in en and "12 通り" in ja and "7 通り" in ja
    assert len(seen) >= len(get_args(DecisionKind)) - 1  # forced and only-move may share words
