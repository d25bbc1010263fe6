"""The *stock known* setting: Klondike planners that see the stock's order, face-down cards still hidden."""

from __future__ import annotations

import numpy as np
import pytest

from solitaire_rl.agents.planner.knowledge import klondike_knowledge
from solitaire_rl.agents.registry import make_player
from solitaire_rl.envs.deals import DealId, encode_deal_code
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike.layout import DEAL_SLOTS
from solitaire_rl.envs.klondike.observer import observe
from solitaire_rl.envs.spec import find_game
from solitaire_rl.training.benchmark import Args, main

KLONDIKE = find_game("klondike")
SMALL = {"max_states": 4_000, "states_per_solve": 500, "max_samples": 4}


def test_the_stock_order_fills_the_stock_and_nothing_else() -> None:
    env = KLONDIKE.make_env()
    obs, _ = env.reset(options={"deal": KLONDIKE.deal_id(100_007)})
    game = env.unwrapped.game
    hidden = klondike_knowledge(obs)
    known = klondike_knowledge(obs, stock_order=list(game.stock))
    assert known.position.stock == tuple(game.stock)  # the true stock, bottom to top
    assert all(column >= 0 for column, _ in known.unknown)  # only face-down places stay unknown
    assert len(known.unknown) == sum(game.hidden) < len(hidden.unknown)
    assert known.game.seen == hidden.game.seen  # what the player has been shown is unchanged
    assert (observe(known.game) == obs).all()
    face_down = {card for col, h in zip(game.columns, game.hidden, strict=True) for card in col[:h]}
    assert {known.game.columns[c][i] for c, i in known.unknown}.isdisjoint(game.stock)
    assert len(face_down) == len(known.unknown)
    with pytest.raises(MalformedInputError, match="does not fit"):
        klondike_knowledge(obs, stock_order=list(game.stock)[1:])


def test_a_stock_known_planner_still_never_reads_a_face_down_card() -> None:
    cards = list(DealId.parse("klondike-random-v1-8").cards())
    down = [i for i, (col, depth) in enumerate(DEAL_SLOTS) if depth < col]
    other = list(cards)
    other[down[0]], other[down[-1]] = other[down[-1]], other[down[0]]

    envs = [KLONDIKE.make_env(), KLONDIKE.make_env()]
    steps = [env.reset(options={"deal": encode_deal_code(deal)}) for env, deal in zip(envs, (cards, other),
                                                                                       strict=True)]
    players = [make_player("ismcts", KLONDIKE, seed=3, stock_known=True, tree_iterations=10, **SMALL)
               for _ in envs]
    for player, env in zip(players, envs, strict=True):
        player.reset(env)
    compared = 0
    while np.array_equal(steps[0][0], steps[1][0]) and compared < 12:
        a, b = (p.choose(obs, np.asarray(info["action_mask"], bool), info)
                for p, (obs, info) in zip(players, steps, strict=True))
        assert a == b
        compared += 1
        steps = []
        for env, choice in zip(envs, (a, b), strict=True):
            obs, _, done, _, info = env.step(choice.action)
            steps.append((obs, info))
        if done:
            break
    assert compared >= 1


def test_a_stock_known_planner_needs_the_game_it_plays() -> None:
    player = make_player("hop", KLONDIKE, seed=1, stock_known=True, **SMALL)
    obs, info = KLONDIKE.make_env().reset(options={"deal": KLONDIKE.deal_id(100_008)})
    with pytest.raises(MalformedInputError, match="reset"):
        player.choose(obs, np.asarray(info["action_mask"], bool), info)


def test_benchmark_rows_state_the_stock_known_setting() -> None:
    rows, summaries, _ = main(Args(game="klondike", deals="100001-100002", agents="greedy,hop", workers=1,
                                   stock_known=True, planner_option=("max_states=20000",), analyse=False))
    assert {(r.agent, r.setting) for r in rows} == {("greedy", "hidden cards"), ("hop", "stock known")}
    assert [s.setting for s in summaries] == ["hidden cards", "stock known"]
    with pytest.raises(MalformedInputError, match="Klondike setting"):
        main(Args(game="pyramid", deals="1-2", agents="greedy", workers=1, stock_known=True))
