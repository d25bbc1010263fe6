"""The warm start: greedy demonstrations and fitting the PPO network to them."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch
from stable_baselines3.common.vec_env import DummyVecEnv

from solitaire_rl.agents.encodings import find_encoding
from solitaire_rl.agents.greedy import GreedyPlayer
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.spec import find_game
from solitaire_rl.training.config import Args
from solitaire_rl.training.imitation import collect_demonstrations, fit_to_demonstrations
from solitaire_rl.training.splits import TRAIN
from solitaire_rl.training.train import main, new_model, seed_everything
from solitaire_rl.training.vec_env import make_env_fn

PYRAMID = find_game("pyramid-000")
FLAT = find_encoding("pyramid-flat", "pyramid")


def agreement(model, demos) -> float:  # type: ignore[no-untyped-def]
    """Share of demonstration steps where the policy's most likely action is the greedy one."""
    with torch.no_grad():
        dist = model.policy.get_distribution(torch.as_tensor(demos.observations), action_masks=demos.masks)
        chosen = dist.distribution.probs.argmax(dim=1).numpy()
    return float((chosen == demos.actions).mean())


def test_demonstrations_are_the_greedy_players_legal_moves_with_discounted_returns() -> None:
    demos = collect_demonstrations(PYRAMID, FLAT, 6, seed=5, gamma=0.9, reward_shaping=False)
    assert demos.episodes == 6 and len(demos) == demos.masks.shape[0] == demos.observations.shape[0]
    assert demos.masks[np.arange(len(demos)), demos.actions].all()  # every recorded move was legal
    # Unshaped reward: 1 for a win at the last step only, so a return is 0 or a power of gamma.
    positive = demos.returns[demos.returns > 0]
    assert np.allclose(np.log(positive) / np.log(0.9), np.round(np.log(positive) / np.log(0.9)), atol=1e-4)
    assert (demos.returns == 1.0).sum() == demos.wins
    # The first step's action is what a fresh greedy player picks on the same deal.
    env = make_env_fn(PYRAMID, FLAT, TRAIN, False)()
    obs, info = env.reset(seed=5)
    first = GreedyPlayer(PYRAMID).act(obs, np.asarray(info["action_mask"], bool), info)
    assert demos.actions[0] == first and np.array_equal(demos.observations[0], obs)


def test_fitting_makes_the_policy_play_like_greedy() -> None:
    seed_everything(0, 1)
    args = Args(game="pyramid", net_arch=(64, 64), n_envs=1, n_steps=64, batch_size=64)
    model = new_model(args, DummyVecEnv([make_env_fn(PYRAMID, FLAT, TRAIN, True)]), FLAT)
    demos = collect_demonstrations(PYRAMID, FLAT, 30, seed=1, gamma=args.gamma, reward_shaping=True)
    before = agreement(model, demos)
    stats = fit_to_demonstrations(model, demos, epochs=15, batch_size=128, learning_rate=3e-3, seed=0)
    after = agreement(model, demos)
    assert after > 0.9 > before
    assert stats["agreement"] > 0.85 and stats["policy_loss"] < 0.5


def test_a_warm_started_run_records_its_demonstrations(tmp_path: Path) -> None:
    args = Args(game="pyramid", total_timesteps=256, n_envs=1, n_steps=256, batch_size=128, n_epochs=1,
                net_arch=(16, 16), eval_freq=0, checkpoint_freq=0, runs_dir=tmp_path, progress_bar=False,
                tensorboard=False, vec_env="dummy", imitation_episodes=3, imitation_epochs=1)
    result = main(args)
    record = json.loads((result.run_dir / "imitation.json").read_text())
    assert record["episodes"] == 3 and record["steps"] > 3 and 0 <= record["teacher_wins"] <= 3


@pytest.mark.parametrize("field,value", [("imitation_episodes", -1), ("imitation_epochs", 0),
                                         ("imitation_learning_rate", 0.0)])
def test_bad_warm_start_settings_are_refused(field: str, value: float) -> None:
    with pytest.raises(MalformedInputError):
        Args(game="pyramid", **{field: value}).validate()  # type: ignore[arg-type]
