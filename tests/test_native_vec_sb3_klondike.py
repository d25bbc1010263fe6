"""The stable-baselines3 adapter over the native Klondike batch (solitaire_rl/training/native_vec_env.py).

It must stand where the Python training envs stand: the same deals, encoded observations,
rewards, episode ends and infos as ``InProcessVecEnv`` over ``make_env_fn`` (the reference), for
the shipped agent's ``klondike-actions`` encoding (which reads the mask) and the identity
``klondike-cards``, so that ``solitaire_rl.training.train --vec-env native`` trains the very network
``--vec-env dummy`` trains.
"""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
from gymnasium.wrappers import TimeLimit
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

from solitaire_rl.agents.base import play_episode
from solitaire_rl.agents.encodings import find_encoding
from solitaire_rl.agents.ppo import PpoPlayer, read_metadata
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.spec import find_game
from solitaire_rl.training.config import Args
from solitaire_rl.training.native_vec_env import NativeKlondikeVecEnv
from solitaire_rl.training.splits import TRAIN
from solitaire_rl.training.train import main
from solitaire_rl.training.vec_env import make_env_fn, make_vec_env

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from vec_env_steps import main as benchmark_main
from vec_env_steps import sample_masked

SPEC = find_game("klondike-draw3")


@pytest.mark.parametrize("encoding_name", ["klondike-actions", "klondike-cards"])
def test_the_adapter_steps_as_the_python_training_envs(encoding_name: str) -> None:
    encoding = find_encoding(encoding_name, "klondike")
    n = 6
    native = NativeKlondikeVecEnv(n, encoding=encoding, reward_shaping=True, split=TRAIN,
                                  max_episode_steps=150)
    python = make_vec_env([make_env_fn(SPEC, encoding, TRAIN, True) for _ in range(n)], "dummy")
    for env in python.envs:  # the same step limit: TimeLimit's, inside the wrappers
        while not isinstance(env, TimeLimit):
            env = env.env
        env._max_episode_steps = 150
    assert native.observation_space == python.observation_space
    native.seed(21)
    python.seed(21)
    obs, ref_obs = native.reset(), python.reset()
    assert np.array_equal(obs, ref_obs)
    assert [i["deal_number"] for i in native.reset_infos] == [i["deal_number"] for i in python.reset_infos]
    assert is_masking_supported(native)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(700):
        masks = get_action_masks(native)
        assert np.array_equal(masks, get_action_masks(python))
        actions = sample_masked(rng, masks.astype(np.int8))
        native.step_async(actions)
        python.step_async(actions)
        obs, rewards, dones, infos = native.step_wait()
        ref_obs, ref_rewards, ref_dones, ref_infos = python.step_wait()
        assert np.array_equal(obs, ref_obs) and np.array_equal(rewards, ref_rewards)
        assert rewards.dtype == ref_rewards.dtype and np.array_equal(dones, ref_dones)
        for info, ref in zip(infos, ref_infos, strict=True):
            if "episode" in ref:
                ended += 1
                assert info["episode"]["r"] == ref["episode"]["r"]
                assert info["episode"]["l"] == ref["episode"]["l"]
                assert np.array_equal(info["terminal_observation"], ref["terminal_observation"])
                for key in ("is_success", "TimeLimit.truncated"):
                    assert info[key] == ref[key], key
            else:
                assert "episode" not in info and "terminal_observation" not in info
        assert [i["deal_number"] for i in native.reset_infos] == [
            i["deal_number"] for i in python.reset_infos]
    assert ended > 10
    python.close()


def test_the_adapter_refuses_what_it_cannot_do() -> None:
    env = NativeKlondikeVecEnv(2)
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(env)
    with pytest.raises(AttributeError, match="action_masks"):
        env.env_method("render")
    with pytest.raises(AttributeError, match="no per-env attribute"):
        env.get_attr("game")
    with pytest.raises(MalformedInputError, match="not a Klondike encoding"):
        NativeKlondikeVecEnv(2, encoding=find_encoding("pyramid-flat", "pyramid"))
    env.reset()
    methods = env.get_attr("action_masks")
    assert np.array_equal(np.stack([m() for m in methods]), env.action_masks())
    assert env.env_method("action_masks", indices=[1]).shape == (1, 590)


def test_native_training_trains_the_same_network_and_the_checkpoint_plays(tmp_path: Path) -> None:
    def run(vec_env: str) -> Path:
        args = Args(game="klondike", encoding="klondike-actions", total_timesteps=2048, n_envs=4, n_steps=256,
                    batch_size=512, n_epochs=1, net_arch=(16, 16, 16), eval_freq=0, eval_deals=2,
                    checkpoint_freq=0, runs_dir=tmp_path / vec_env, progress_bar=False, tensorboard=False,
                    seed=5, vec_env=vec_env)  # type: ignore[arg-type]
        assert Args(game="klondike", vec_env="native").validate() is None
        result = main(args)
        assert result.timesteps == 2048
        return result.final_checkpoint

    native, dummy = run("native"), run("dummy")
    assert read_metadata(native)["encoding"] == read_metadata(dummy)["encoding"]
    players = [PpoPlayer(SPEC, path) for path in (native, dummy)]
    pairs = zip(players[0].model.policy.parameters(), players[1].model.policy.parameters(), strict=True)
    assert all(torch.equal(a, b) for a, b in pairs)  # the same data, so the same updates
    env = SPEC.make_env(max_episode_steps=60)
    games = [play_episode(env, players[0], SPEC.deal_id(n), SPEC.cards_cleared) for n in (1, 2)]
    assert all(game.steps > 0 for game in games)


def test_the_klondike_benchmark_runs_on_a_tiny_budget(capsys: pytest.CaptureFixture[str]) -> None:
    benchmark_main(["--game", "klondike", "--num-envs", "16", "--batch-steps", "5", "--python-steps", "50",
                    "--repeats", "1"])
    out = capsys.readouterr().out
    assert "python (gymnasium.make)" in out and "native x16" in out
