"""The planners' moves on a few short games, pinned: a refactoring must not change what they play.

The sequences were computed with the code before the planners' state became their own (issue 38:
``reseed``, the plan value, the options structs of the native loops); the same seeds and budgets
must give the same moves.
"""

from __future__ import annotations

from typing import Any

import pytest

from solitaire_rl.agents.base import Player, legal_mask
from solitaire_rl.agents.registry import make_player
from solitaire_rl.agents.seeding import reseed
from solitaire_rl.envs.klondike import KlondikeGame, Move
from solitaire_rl.envs.klondike.actions import ACTION_INDEX
from solitaire_rl.envs.spec import find_game
from solitaire_rl.play.server.klondike_advice import KlondikeHintAdvisor

KLONDIKE_SMALL = {"max_states": 20_000, "states_per_solve": 1_000, "max_samples": 8}
PIMC_SMALL = {"samples": 6, "max_states": 4_000, "decision_states": 40_000}


def moves_of(player: Player, variant_key: str, deal: int, decisions: int) -> list[int]:
    """The first ``decisions`` actions ``player`` plays on deal number ``deal``."""
    variant = find_game(variant_key)
    env = variant.make_env()
    obs, info = env.reset(options={"deal": variant.deal_id(deal)})
    player.reset(env)
    played: list[int] = []
    while len(played) < decisions and legal_mask(info).any():
        played.append(player.act(obs, legal_mask(info), info))
        obs, _, terminated, truncated, info = env.step(played[-1])
        if terminated or truncated:
            break
    return played


FRESH = [  # (agent, variant, deal, options, moves): a new player seeded with the deal number
    ("hop", "klondike", 3, KLONDIKE_SMALL,
     [0, 0, 536, 0, 289, 12, 0, 94, 185, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 12, 0, 0,
      0, 1, 0, 0, 0, 0, 0, 2, 2]),
    ("hop", "klondike", 8, KLONDIKE_SMALL,
     [15, 0, 0, 0, 2, 0, 0, 250, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0,
      0, 0, 0, 1, 0, 0, 0]),
    ("ismcts", "klondike", 3, {**KLONDIKE_SMALL, "tree_iterations": 30},
     [0, 315, 12, 537, 0, 0, 586, 94, 12, 0, 185, 8, 82, 354, 0, 211, 6, 0, 539, 2, 0, 0, 586, 12, 0, 0,
      0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 12, 359]),
    ("ismcts", "klondike", 8, {**KLONDIKE_SMALL, "tree_iterations": 30},
     [15, 0, 0, 0, 0, 2, 0, 0, 250, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 133, 211, 5, 237,
      0, 0, 0, 1, 0, 1, 277, 569, 0]),
    ("pimc", "pyramid-000", 2, PIMC_SMALL,
     [27, 433, 20, 465, 448, 465, 465, 453, 465, 465, 464, 442, 465, 465, 457, 397, 409, 318, 465, 343,
      239, 273, 174, 465, 465, 385, 28, 465, 465, 310, 28, 214, 466, 210, 138, 465, 465, 465, 465, 465,
      163, 465, 465, 466, 465, 112, 465, 85, 464, 57]),
    ("pimc", "pyramid-000", 5, PIMC_SMALL,
     [21, 27, 439, 465, 465, 465, 465, 372, 460, 464, 465, 465, 465, 465, 465, 453, 427, 465, 465, 28,
      465, 465, 28, 465, 448, 376, 347, 464, 311, 293, 200, 465, 466, 465, 465, 465, 465, 343, 327, 213,
      465, 253, 164, 465, 465, 187, 466, 465, 138, 86, 465, 465, 112, 58]),
    ("pimc", "pyramid-001", 2, PIMC_SMALL,
     [27, 433, 20, 465, 465, 449, 465, 465, 465, 454, 465, 465, 465, 465, 443, 386, 465, 465, 465, 458,
      409, 465, 398, 318, 465, 296, 465, 344, 213, 465, 465, 465, 465, 465, 29, 465, 465, 465, 465, 29,
      254, 174, 466, 465, 465, 465, 465, 465, 465, 465, 465, 293, 465, 465, 164, 465, 465, 465, 466, 465,
      211, 465, 139, 465, 465, 113, 465, 465, 465, 86, 465, 465, 465, 58]),
]


@pytest.mark.parametrize(("agent", "variant_key", "deal", "options", "expected"), FRESH,
                         ids=[f"{a}-{v}-{d}" for a, v, d, _, _ in FRESH])
def test_a_fresh_planner_plays_the_pinned_moves(agent: str, variant_key: str, deal: int,
                                                options: dict[str, Any], expected: list[int]) -> None:
    player = make_player(agent, find_game(variant_key), seed=deal, **options)
    assert moves_of(player, variant_key, deal, len(expected)) == expected


RESEEDED = [  # one player over two deals, reseeded with [0, deal] before each (as the benchmark does)
    ("ismcts", "klondike", {**KLONDIKE_SMALL, "tree_iterations": 30}, {
        8: [15, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        3: [315, 12, 586, 12, 537, 94, 0, 185, 354, 0, 0, 0, 0, 586, 4, 12, 510, 586, 12, 0, 0, 0, 586, 0,
            12],
    }),
    ("pimc", "pyramid-001", PIMC_SMALL, {
        5: [21, 27, 439, 465, 465, 465, 465, 465, 465, 461, 373, 465, 465, 465, 465, 465, 465, 465, 454, 465,
            428, 465, 465, 465, 29],
        2: [430, 27, 465, 465, 465, 465, 465, 454, 465, 465, 465, 465, 443, 370, 20, 386, 465, 465, 465, 458,
            409, 465, 398, 318, 296],
    }),
]


@pytest.mark.parametrize(("agent", "variant_key", "options", "expected"), RESEEDED,
                         ids=[a for a, _, _, _ in RESEEDED])
def test_a_reseeded_planner_plays_the_pinned_moves(agent: str, variant_key: str, options: dict[str, Any],
                                                   expected: dict[int, list[int]]) -> None:
    player = make_player(agent, find_game(variant_key), **options)
    for deal, moves in expected.items():
        reseed(player, [0, deal])
        assert moves_of(player, variant_key, deal, len(moves)) == moves


HINTS = {  # (search, deal): the hint advisor's planner moves, followed from the deal
    ("hop", 3): [0, 0, 536, 0, 0, 289, 12, 94, 185, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
                 12, 0],
    ("hop", 8): [15, 0, 0, 0, 2, 250, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 3, 0, 0],
    ("tree", 3): [0, 94, 536, 289, 12, 0, 185, 0, 0, 0, 586, 6, 12, 355, 0, 0, 212, 586, 536, 12, 356, 0, 213,
                  0, 0, 0, 0, 0, 0, 0],
    ("tree", 8): [15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0],
}


@pytest.mark.parametrize(("search", "deal"), list(HINTS), ids=[f"{s}-{d}" for s, d in HINTS])
def test_the_hint_planner_plays_the_pinned_moves(search: str, deal: int) -> None:
    """The planner kept for the game keeps the followed line between requests; a generous time and a
    state budget make its hints reproducible."""
    advisor = KlondikeHintAdvisor(planner_time=60.0, planner_states=20_000, planner_threads=1,
                                  planner_search=search)
    game = KlondikeGame(f"klondike-random-v1-{deal}")
    played = []
    for _ in HINTS[search, deal]:
        hint = advisor.hint(game, "planner")
        assert hint is not None and (hint["kind"], hint["hint_source"]) == ("move", "planner"), hint
        move = Move.parse(hint["move"])
        played.append(ACTION_INDEX[move])
        game.push(move)
    assert played == HINTS[search, deal]
