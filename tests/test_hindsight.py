"""The ``hindsight`` teacher (every move marked by the exact solver on the true deal) and its data."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch
from stable_baselines3.common.vec_env import DummyVecEnv

from solitaire_rl.agents.base import legal_actions, legal_mask
from solitaire_rl.agents.encodings import find_encoding
from solitaire_rl.agents.greedy import GreedyPlayer
from solitaire_rl.agents.solver import solve_pyramid
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.pyramid.actions import ACTION_MOVES
from solitaire_rl.envs.spec import find_game
from solitaire_rl.training.config import Args
from solitaire_rl.training.imitation import (
    HindsightTeacher,
    collect_hindsight,
    fit_to_demonstrations,
    make_teacher,
)
from solitaire_rl.training.splits import TRAIN
from solitaire_rl.training.train import main, new_model, seed_everything
from solitaire_rl.training.vec_env import make_env_fn

PYRAMID = find_game("pyramid-000")
FLAT = find_encoding("pyramid-flat", "pyramid")


def test_marks_are_the_solvers_verdicts_after_each_move_and_the_choice_wins_where_a_move_does() -> None:
    env = PYRAMID.make_env()
    teacher, greedy = HindsightTeacher(PYRAMID), GreedyPlayer(PYRAMID)
    seen_a_difference = False
    for number in range(1, 40):
        obs, info = env.reset(options={"deal": PYRAMID.deal_id(number)})
        teacher.reset(env)
        mask = legal_mask(info)
        values = teacher.values(mask)
        game = env.unwrapped.game
        for action, value in zip(legal_actions(mask), values, strict=True):
            after = game.copy()
            after.push(ACTION_MOVES[int(action)])
            assert value == (1.0 if solve_pyramid(after).status == "winnable" else 0.0)
        choice = teacher.choose(obs, mask, info).action
        assert values[list(legal_actions(mask)).index(choice)] == values.max()
        if values.min() == values.max():  # all alike: greedy's move
            assert choice == greedy.act(obs, mask, info)
        else:
            seen_a_difference = True
    assert seen_a_difference


def test_collection_keeps_differing_positions_a_weighted_sample_of_the_rest_and_stops_when_lost() -> None:
    teacher = HindsightTeacher(PYRAMID)
    played: list[int] = []

    class Recorder(GreedyPlayer):
        def choose(self, observation, mask, info):  # type: ignore[no-untyped-def]
            choice = super().choose(observation, mask, info)
            played.append(choice.action)
            return choice

    demos = collect_hindsight(PYRAMID, FLAT, 30, seed=2, teacher=teacher, actor=Recorder(PYRAMID), keep=0.25)
    assert demos.episodes == 30 and 0 < len(demos) <= demos.positions
    # Every move was the actor's; a game stops being recorded at most one position after its last move.
    assert len(played) <= demos.positions <= len(played) + 30 - demos.wins
    assert set(np.unique(demos.weights)) <= {1.0, 4.0}
    assert (demos.weights == 1.0).any() and (demos.weights == 4.0).any()
    assert (demos.returns > 0).all()  # nothing recorded once the position is lost
    assert demos.masks[np.arange(len(demos)), demos.actions].all()


def test_weights_count_in_the_fit() -> None:
    seed_everything(0, 1)
    args = Args(game="pyramid", net_arch=(32, 32), n_envs=1, n_steps=64, batch_size=64)
    demos = collect_hindsight(PYRAMID, FLAT, 20, seed=4, teacher=HindsightTeacher(PYRAMID),
                              actor=GreedyPlayer(PYRAMID), keep=0.5)
    losses = []
    for scale in (1.0, 0.0):  # weight 0 on every sampled position: only the differing ones are fitted
        model = new_model(args, DummyVecEnv([make_env_fn(PYRAMID, FLAT, TRAIN, False)]), FLAT)
        demos.weights = np.where(demos.weights == 1.0, 1.0, 2.0 * scale).astype(np.float32)
        fit_to_demonstrations(model, demos, epochs=10, batch_size=64, learning_rate=3e-3, seed=0)
        differing = demos.weights == 1.0
        with torch.no_grad():
            dist = model.policy.get_distribution(torch.as_tensor(demos.observations[differing]),
                                                 action_masks=demos.masks[differing])
            losses.append(-dist.log_prob(torch.as_tensor(demos.actions[differing])).mean().item())
    assert losses[1] < losses[0]  # fitted to the differing positions alone, it fits them better


def test_a_hindsight_warm_start_runs_and_records_what_it_kept(tmp_path: Path) -> None:
    args = Args(game="pyramid-001", total_timesteps=128, n_envs=1, n_steps=128, batch_size=64, n_epochs=1,
                net_arch=(16, 16), eval_freq=0, checkpoint_freq=0, runs_dir=tmp_path, progress_bar=False,
                tensorboard=False, vec_env="dummy", imitation_episodes=6, imitation_epochs=1,
                imitation_teacher="hindsight", hindsight_keep=0.5, dagger_rounds=1, dagger_episodes=3)
    result = main(args)
    record = json.loads((result.run_dir / "imitation.json").read_text())
    assert record["teacher"] == "hindsight" and record["positions"] >= record["steps"] > 0
    assert record["dagger"][0]["episodes"] == 3


def test_hindsight_is_for_pyramid_only_and_its_share_is_checked() -> None:
    with pytest.raises(MalformedInputError, match="Pyramid"):
        HindsightTeacher(find_game("klondike"))
    with pytest.raises(MalformedInputError, match="Pyramid only"):
        Args(game="klondike", imitation_teacher="hindsight").validate()
    for keep in (0.0, 1.5):
        with pytest.raises(MalformedInputError, match="hindsight_keep"):
            Args(game="pyramid", hindsight_keep=keep).validate()
    assert isinstance(make_teacher(PYRAMID, "hindsight", seed=0), HindsightTeacher)
    with pytest.raises(MalformedInputError, match="reset"):
        _, info = PYRAMID.make_env().reset(seed=0)
        HindsightTeacher(PYRAMID).values(legal_mask(info))
