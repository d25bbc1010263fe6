"""The ``pyramid-actions`` encoding and the action-scoring policy that goes with it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from solitaire_rl.agents.action_scoring_policy import ActionScorer
from solitaire_rl.agents.base import play_episode
from solitaire_rl.agents.encodings import find_encoding
from solitaire_rl.agents.encodings.pyramid_actions import (
    ACTION_FEATURES,
    PYRAMID_ACTIONS_SIZE,
    RELAXED_FEATURES,
    RELAXED_SLOT_WIDTH,
    SLOT_WIDTH,
    SLOTS,
)
from solitaire_rl.agents.greedy.pyramid import PyramidView, action_terms, choose_pyramid, partners_short
from solitaire_rl.agents.ppo import PpoPlayer, read_metadata
from solitaire_rl.agents.solver import PyramidPosition, pyramid_prune_rule, pyramid_relaxed_lost
from solitaire_rl.envs.cards import rank
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.pyramid import PyramidGame
from solitaire_rl.envs.pyramid.actions import ACTION_MOVES as PYRAMID_ACTION_MOVES
from solitaire_rl.envs.pyramid.actions import NUM_ACTIONS
from solitaire_rl.envs.pyramid.layout import ALL_REMOVED
from solitaire_rl.envs.pyramid.moves import DRAW, RECYCLE, STOCK, WASTE
from solitaire_rl.envs.pyramid.observation import OBSERVATION_SIZE
from solitaire_rl.envs.spec import find_game
from solitaire_rl.training.config import Args
from solitaire_rl.training.train import main
from tests.position_helpers import game_positions

ACTIONS = find_encoding("pyramid-actions", "pyramid")
GREEDY_CHOICE = 1 + ACTION_FEATURES.index("greedy_choice")


def slots_of(vector: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The action index and the features of each used slot."""
    rows = vector[OBSERVATION_SIZE:].reshape(SLOTS, SLOT_WIDTH)
    index = np.rint(rows[:, 0] * NUM_ACTIONS).astype(int) - 1
    return index[index >= 0], rows[index >= 0]


def random_positions(variant_key: str, seed: int, steps: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Observations and masks along a random game."""
    return [(obs, mask) for _, obs, mask in game_positions(variant_key, seed, steps)]


@settings(max_examples=8, deadline=None)
@given(variant=st.sampled_from(["pyramid-000", "pyramid-001"]), seed=st.integers(0, 2**31 - 1))
def test_slots_list_exactly_the_legal_actions_and_mark_greedys_pick(variant: str, seed: int) -> None:
    for obs, mask in random_positions(variant, seed, 50):
        vector = ACTIONS.encode(obs, mask)
        assert vector.shape == (PYRAMID_ACTIONS_SIZE,) and vector.dtype == np.float32
        assert np.array_equal(vector[:OBSERVATION_SIZE], obs)
        assert float(vector.min()) >= 0.0 and float(vector.max()) <= 1.0
        index, rows = slots_of(vector)
        assert index.tolist() == np.flatnonzero(mask).tolist()  # every legal action once, in order
        unused = vector[OBSERVATION_SIZE:].reshape(SLOTS, SLOT_WIDTH)[len(index):]
        assert not unused.any()
        if index.size:
            assert rows[:, GREEDY_CHOICE].sum() == 1
            assert index[rows[:, GREEDY_CHOICE] == 1][0] == choose_pyramid(obs, mask).action


def test_the_encoding_needs_the_mask_and_the_wrapper_supplies_it() -> None:
    env = find_game("pyramid-000").make_env()
    obs, info = env.reset(seed=4)
    with pytest.raises(MalformedInputError, match="needs the action mask"):
        ACTIONS.encode(obs)
    wrapped = ACTIONS.wrap(find_game("pyramid-000").make_env())
    encoded, info2 = wrapped.reset(seed=4)
    assert wrapped.observation_space.shape == (PYRAMID_ACTIONS_SIZE,)
    assert np.array_equal(encoded, ACTIONS.encode(obs, info["action_mask"]))
    action = int(np.flatnonzero(info2["action_mask"])[0])
    encoded, *_, info3 = wrapped.step(action)
    assert np.array_equal(slots_of(encoded)[0], np.flatnonzero(info3["action_mask"]))


def scorer() -> ActionScorer:
    torch.manual_seed(0)
    return ActionScorer(OBSERVATION_SIZE, SLOTS, SLOT_WIDTH, NUM_ACTIONS, context=8, hidden=8,
                        value_hidden=8, activation=torch.nn.ReLU)


def test_an_action_scores_the_same_in_any_slot() -> None:
    net = scorer()
    (obs, mask), = random_positions("pyramid-000", 11, 1)
    vector = ACTIONS.encode(obs, mask)
    rows = vector[OBSERVATION_SIZE:].reshape(SLOTS, SLOT_WIDTH)
    used = int((rows[:, 0] > 0).sum())
    assert used >= 2
    shuffled = vector.copy()
    shuffled_rows = shuffled[OBSERVATION_SIZE:].reshape(SLOTS, SLOT_WIDTH)
    shuffled_rows[:] = 0
    shuffled_rows[SLOTS - used:] = rows[:used][::-1]  # other slots, other order
    with torch.no_grad():
        logits = net.forward_actor(torch.as_tensor(np.stack([vector, shuffled])))
    legal = np.flatnonzero(mask)
    assert torch.allclose(logits[0], logits[1], atol=1e-6)
    assert torch.count_nonzero(logits[0][~torch.as_tensor(mask)]) == 0
    assert torch.count_nonzero(logits[0][legal]) == legal.size


def test_gradients_reach_only_the_used_slots_scores() -> None:
    net = scorer()
    (obs, mask), = random_positions("pyramid-001", 3, 1)
    x = torch.as_tensor(ACTIONS.encode(obs, mask))[None].requires_grad_(True)
    logits = net.forward_actor(x)
    logits[0, int(np.flatnonzero(mask)[0])].backward()
    grad = x.grad[0, OBSERVATION_SIZE:].reshape(SLOTS, SLOT_WIDTH)
    assert grad[0, 1:].abs().sum() > 0  # the first slot's features
    assert grad[1:, 1:].abs().sum() == 0  # no other slot's


def tiny_args(tmp_path: Path, **overrides: object) -> Args:
    values: dict[str, object] = dict(
        game="pyramid-000", encoding="pyramid-actions", net_arch=(16, 16, 16), total_timesteps=1024,
        n_envs=2, n_steps=256, batch_size=256, n_epochs=1, vec_env="dummy", eval_freq=0,
        checkpoint_freq=0, runs_dir=tmp_path / "runs", progress_bar=False, tensorboard=False, seed=2,
    )
    values.update(overrides)
    return Args(**values)  # type: ignore[arg-type]


def test_a_tiny_warm_started_run_of_the_action_scoring_policy_loads_and_plays(tmp_path: Path) -> None:
    variant = find_game("pyramid-001")
    result = main(tiny_args(tmp_path, game="pyramid-001", imitation_episodes=30, imitation_epochs=3))
    metadata = read_metadata(result.final_checkpoint)
    assert metadata["encoding"]["name"] == "pyramid-actions"
    assert metadata["encoding"]["size"] == PYRAMID_ACTIONS_SIZE
    player = PpoPlayer(variant, result.final_checkpoint)
    assert type(player.model.policy).__name__ == "ActionScoringPolicy"
    env = variant.make_env()
    for n in (1, 2):
        outcome = play_episode(env, player, variant.deal_id(n), variant.cards_cleared)
        assert outcome.steps > 0
    (obs, mask), = random_positions("pyramid-001", 8, 1)
    probs = player.action_probabilities(obs, mask)
    assert probs[~mask].sum() == 0 and probs[mask].sum() == pytest.approx(1.0)


def test_a_bad_net_arch_for_the_action_scoring_policy_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"net_arch is \[context, hidden, value_hidden\]"):
        main(tiny_args(tmp_path, net_arch=(16, 16)))


@settings(max_examples=6, deadline=None)
@given(variant=st.sampled_from(["pyramid-000", "pyramid-001"]), seed=st.integers(0, 2**31 - 1))
def test_relaxed_lost_is_the_solvers_pruning_of_the_position_after_each_move(variant: str, seed: int) -> None:
    relaxed = find_encoding("pyramid-actions-relaxed", "pyramid")
    lost_feature = 1 + RELAXED_FEATURES.index("relaxed_lost")
    for game, obs, mask in game_positions(variant, seed, 60):
        vector = relaxed.encode(obs, mask)
        rows = vector[OBSERVATION_SIZE:].reshape(SLOTS, RELAXED_SLOT_WIDTH)
        plain = ACTIONS.encode(obs, mask)[OBSERVATION_SIZE:].reshape(SLOTS, SLOT_WIDTH)
        assert np.array_equal(vector[:OBSERVATION_SIZE], obs)
        assert np.array_equal(rows[:, :SLOT_WIDTH], plain)  # the pyramid-actions slots, one feature more
        for i, action in enumerate(np.flatnonzero(mask)):
            after = game.copy()
            after.push(PYRAMID_ACTION_MOVES[action])
            truth = not after.is_won() and pyramid_prune_rule(PyramidPosition.from_game(after)) is not None
            assert rows[i, lost_feature] == float(truth)


def test_relaxed_lost_ignores_the_stock_order_and_refuses_bad_input() -> None:
    game = PyramidGame("pyramid-random-v1-7")
    ranks = [rank(c) for c in game.pyramid]
    bag = [0] * 14
    for card in game.stock_order():
        bag[rank(card)] += 1
    truth = pyramid_prune_rule(PyramidPosition.from_game(game)) is not None
    assert pyramid_relaxed_lost(ranks, game.removed, bag) == truth
    for order in (sorted(game.stock_order()), list(reversed(game.stock_order()))):
        position = PyramidPosition(pyramid=tuple(game.pyramid), stock=tuple(order))
        assert (pyramid_prune_rule(position) is not None) == truth
    apex_only = ALL_REMOVED & ~1  # only the apex left, a 7: it needs a 6 from the stock or waste
    apex_seven = [7, *ranks[1:]]
    assert pyramid_relaxed_lost(apex_seven, apex_only, [0] * 14)
    assert not pyramid_relaxed_lost(apex_seven, apex_only, [0] * 6 + [1] + [0] * 7)
    for bad in ((ranks[:27], 0, bag), (ranks, -1, bag), (ranks, 0, bag[:13]), (ranks, 0, [5] * 14),
                ([0, *ranks[1:]], 0, bag)):
        with pytest.raises(MalformedInputError):
            pyramid_relaxed_lost(*bad)


def cards_left_of_rank(game: PyramidGame) -> tuple[int, ...]:
    """Cards of each rank (index 1..13) still in play, read from the game itself."""
    left = [0] * 14
    for card in game.remaining_cards():
        left[rank(card)] += 1
    return tuple(left)


@settings(max_examples=6, deadline=None)
@given(variant=st.sampled_from(["pyramid-000", "pyramid-001"]), seed=st.integers(0, 2**31 - 1))
def test_the_view_decodes_what_the_game_shows_and_greedys_terms_count_every_rank_pair(
        variant: str, seed: int) -> None:
    for game, obs, mask in game_positions(variant, seed, 120):
        view = PyramidView.decode(obs)
        assert view.ranks == tuple(rank(c) for c in game.pyramid)
        assert view.removed == game.removed
        assert view.left_of_rank == cards_left_of_rank(game)
        tops = {p: rank(game.card_at(p)) for p in game.usable_places() if p in (STOCK, WASTE)}
        assert view.top_ranks == tops
        short_now = partners_short(view.ranks, view.removed, view.left_of_rank)
        for action in np.flatnonzero(mask):
            move = PYRAMID_ACTION_MOVES[int(action)]
            if move.kind in (DRAW, RECYCLE):
                continue
            terms = action_terms(view, int(action))
            after = game.copy()
            after.push(move)
            left_after = cards_left_of_rank(after)
            assert terms.left_after == left_after
            # Only the rank pairs the move touches are recounted; all of them must agree.
            assert terms.short == partners_short(view.ranks, after.removed, left_after) - short_now
