"""The ``pimc`` player (sampled stocks, each solved exactly) and DAgger labelling with it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from solitaire_rl.agents.base import legal_mask, play_episode
from solitaire_rl.agents.encodings import find_encoding
from solitaire_rl.agents.greedy import GreedyPlayer
from solitaire_rl.agents.planner.pimc import PimcPlayer, determinized, unseen_places
from solitaire_rl.agents.registry import make_player, unavailable_reason
from solitaire_rl.agents.solver import solve_pyramid
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.pyramid.actions import move_to_action
from solitaire_rl.envs.spec import find_game
from solitaire_rl.training.imitation import collect_demonstrations

FLAT = find_encoding("pyramid-flat", "pyramid")


def walk(env, seed: int, steps: int):  # type: ignore[no-untyped-def]
    """A position ``steps`` random moves into a deal."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    for _ in range(steps):
        mask = legal_mask(info)
        if not mask.any():
            break
        obs, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            obs, info = env.reset(seed=seed + 1)
    return obs, info


@settings(max_examples=12, deadline=None)
@given(variant=st.sampled_from(["pyramid-000", "pyramid-001"]), seed=st.integers(0, 10_000),
       steps=st.integers(0, 30))
@example(variant="pyramid-001", seed=1156, steps=17)  # the order of the unseen cards once steered the samples
def test_the_choice_does_not_depend_on_unseen_cards(variant: str, seed: int, steps: int) -> None:
    env = find_game(variant).make_env()
    obs, info = walk(env, seed, steps)
    mask = legal_mask(info)
    if not mask.any():
        return
    game = env.unwrapped.game
    hidden = unseen_places(game)
    order = game.stock_order()
    shuffled = list(order)
    cards = [order[i] for i in hidden][::-1]  # the unseen cards in another order
    for i, card in zip(hidden, cards, strict=True):
        shuffled[i] = card
    other = determinized(game, shuffled)
    assert other.seen == game.seen and sorted(other.stock_order()) == sorted(order)
    choices = []
    for g in (game, other):
        env.unwrapped.game = g
        player = PimcPlayer(find_game(variant), samples=3, seed=7)
        player.reset(env)
        choices.append(player.choose(obs, mask, info).action)
    assert choices[0] == choices[1]


def test_with_nothing_hidden_it_plays_a_winning_move_of_a_winnable_position() -> None:
    variant = find_game("pyramid-000")
    env = variant.make_env()
    player = PimcPlayer(variant, samples=4, seed=0)
    checked = 0
    for number in range(1, 200):
        obs, info = env.reset(options={"deal": variant.deal_id(number)})
        game = env.unwrapped.game
        game.seen = (1 << 52) - 1  # as if every card had been seen: pimc is then the exact solver
        if solve_pyramid(game).status != "winnable":
            continue
        player.reset(env)
        action = player.choose(obs, legal_mask(info), info).action
        after = game.copy()
        after.push(next(m for m in game.legal_moves() if move_to_action(m) == action))
        assert solve_pyramid(after).status == "winnable"
        checked += 1
        if checked == 5:
            break
    assert checked == 5


def test_it_plays_whole_games_with_legal_moves_and_beats_random_play() -> None:
    variant = find_game("pyramid-001")
    env = variant.make_env()
    pimc, random_ = make_player("pimc", variant, seed=1, samples=4), make_player("random", variant, seed=1)
    wins = {"pimc": 0, "random": 0}
    for number in range(1, 31):
        for name, player in (("pimc", pimc), ("random", random_)):
            wins[name] += play_episode(env, player, variant.deal_id(number), variant.cards_cleared).won
    assert wins["pimc"] > wins["random"] + 5


def test_pimc_is_for_pyramid_only() -> None:
    with pytest.raises(MalformedInputError, match="plays Pyramid"):
        PimcPlayer(find_game("klondike"))
    assert unavailable_reason("pimc", "klondike") == "the pimc player plays Pyramid only"
    assert unavailable_reason("pimc", "pyramid-001") is None
    with pytest.raises(MalformedInputError, match="reset"):
        variant = find_game("pyramid")
        obs, info = variant.make_env().reset(seed=0)
        PimcPlayer(variant).choose(obs, legal_mask(info), info)


def test_dagger_labels_the_actors_positions_with_the_teachers_moves() -> None:
    variant = find_game("pyramid-000")
    teacher = GreedyPlayer(variant)
    played: list[int] = []

    def first_legal(encoded: np.ndarray, mask: np.ndarray) -> int:  # an actor unlike the teacher
        played.append(int(np.flatnonzero(mask)[0]))
        return played[-1]

    demos = collect_demonstrations(variant, FLAT, 4, seed=3, gamma=0.99, reward_shaping=False,
                                   teacher=teacher, actor=first_legal)
    assert len(demos) == len(played) > 0
    relabel = [GreedyPlayer(variant).act(obs, mask, {}) for obs, mask in zip(demos.observations, demos.masks,
                                                                             strict=True)]
    assert demos.actions.tolist() == relabel  # the teacher's move at each position the actor reached
    assert demos.actions.tolist() != played
    pooled = demos + demos
    assert len(pooled) == 2 * len(demos) and pooled.episodes == 8
