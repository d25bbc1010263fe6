"""The planners keep their own state (issue 38): ``reseed``, the immutable planned line, the named
tie-break key."""

from __future__ import annotations

import numpy as np
import pytest

from solitaire_rl.agents.base import legal_mask
from solitaire_rl.agents.planner.hop import HopPlayer, PlannedLine
from solitaire_rl.agents.planner.ranking import Candidate, LoopRankKey, PriorFirstRankKey, RankKey, rank_key
from solitaire_rl.agents.random_agent import RandomPlayer
from solitaire_rl.agents.registry import make_player
from solitaire_rl.agents.seeding import Reseedable, reseed
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike import Move
from solitaire_rl.envs.klondike.actions import ACTION_INDEX
from solitaire_rl.envs.spec import find_game
from tests.test_planner_pinned_moves import KLONDIKE_SMALL, PIMC_SMALL, moves_of

KLONDIKE = find_game("klondike")


@pytest.mark.parametrize(("agent", "variant_key", "options"), [
    ("hop", "klondike", KLONDIKE_SMALL), ("pimc", "pyramid-000", PIMC_SMALL)])
def test_a_reseeded_player_plays_as_a_new_one_with_that_seed(agent: str, variant_key: str,
                                                             options: dict) -> None:
    variant = find_game(variant_key)
    fresh = moves_of(make_player(agent, variant, seed=[4, 9], **options), variant_key, 9, 12)
    used = make_player(agent, variant, seed=1, **options)
    moves_of(used, variant_key, 3, 5)  # it has drawn from its generator
    reseed(used, [4, 9])
    assert moves_of(used, variant_key, 9, 12) == fresh


def test_a_bad_seed_is_refused_and_changes_nothing() -> None:
    player, twin = RandomPlayer(seed=3), RandomPlayer(seed=3)
    for bad in (-1, 1.5, "seven", [1, -2]):
        with pytest.raises(MalformedInputError, match="seed"):
            player.reseed(bad)  # type: ignore[arg-type]
    mask = np.ones(40, bool)
    assert [player.act(None, mask, {}) for _ in range(20)] == [twin.act(None, mask, {}) for _ in range(20)]


def test_only_players_with_their_own_generator_are_reseeded() -> None:
    greedy = make_player("greedy", KLONDIKE)
    assert not isinstance(greedy, Reseedable)
    with pytest.raises(MalformedInputError, match="no random numbers"):
        reseed(greedy, 1)
    for name in ("random", "hop", "ismcts"):
        assert isinstance(make_player(name, KLONDIKE), Reseedable)
    assert isinstance(make_player("pimc", find_game("pyramid")), Reseedable)


def test_the_planned_line_is_an_immutable_value_checked_when_built() -> None:
    line = PlannedLine((Move(0), Move(1)), b"here")
    with pytest.raises(AttributeError):
        line.at = b"there"  # type: ignore[misc]
    for moves, at in (((), b"here"), ((0, 1), b"here"), ((Move(0),), "here")):
        with pytest.raises(MalformedInputError, match="planned line"):
            PlannedLine(moves, at)  # type: ignore[arg-type]
    player = HopPlayer(KLONDIKE, seed=0, **KLONDIKE_SMALL)
    assert player.planned_line is None
    with pytest.raises(MalformedInputError, match="PlannedLine"):
        player.resume([Move(0)])  # type: ignore[arg-type]
    assert player.planned_line is None
    player.resume(line)
    assert player.planned_line == line


def test_a_resumed_line_is_followed_where_it_was_made_for() -> None:
    """A new player given the line of the one before plays its next move (a tie-break of its own),
    and keeps its rest."""
    env = KLONDIKE.make_env()
    obs, info = env.reset(options={"deal": KLONDIKE.deal_id(3)})
    first = HopPlayer(KLONDIKE, seed=0, **KLONDIKE_SMALL)
    first.reset(env)
    for _ in range(40):
        action = first.act(obs, legal_mask(info), info)
        obs, _, _, _, info = env.step(action)
        line = first.planned_line
        if line is not None and len(line.moves) > 1:
            break
    assert line is not None and len(line.moves) > 1
    second = HopPlayer(KLONDIKE, seed=5, **KLONDIKE_SMALL)
    second.reset(env)
    second.resume(line)
    choice = second.plan(obs, legal_mask(info))
    assert second.decision(obs, legal_mask(info)).here == line.at
    assert choice.action == ACTION_INDEX[line.moves[0]]
    follow = second.planned_line
    assert follow is None or follow.moves == line.moves[1:]


def test_the_tie_break_key_names_its_parts_in_order() -> None:
    def candidate(**facts: object) -> Candidate:
        base = {"action": 5, "near": True, "value": 0.5, "votes": 3, "samples": 8, "seen_before": 0,
                "progress": False, "prior": 0.1}
        return Candidate(**{**base, **facts})  # type: ignore[arg-type]

    key = rank_key(candidate(), here=0)
    assert isinstance(key, RankKey) and key.majority is False and key.lower_action == -5
    assert RankKey._fields[:4] == ("near", "planned", "tree_near", "majority")
    assert rank_key(candidate(votes=5), 0) > rank_key(candidate(votes=4, prior=9.0), 0)  # a majority first
    assert rank_key(candidate(seen_before=1), 0) < rank_key(candidate(), 0)  # fewer visits first
    early = rank_key(candidate(), 0, prior_early=True)
    assert isinstance(early, PriorFirstRankKey)
    assert rank_key(candidate(prior=0.9, votes=0), 0, True) > rank_key(candidate(prior=0.1, votes=8), 0, True)
    loop = rank_key(candidate(progress=True, near=False), here=3)
    assert isinstance(loop, LoopRankKey) and loop.progress
    assert loop > rank_key(candidate(), here=3)  # going round in circles: progress before value
