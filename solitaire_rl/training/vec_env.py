"""Environments for training and evaluation, and the vector env that runs them across the cores."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv

from solitaire_rl.agents.encodings import Encoding
from solitaire_rl.envs.native_batch import spawn_seeds
from solitaire_rl.envs.spec import GameSpec
from solitaire_rl.training.splits import DealRange, DealSplitWrapper

ACTION_MASKS = "action_masks"


def make_env_fn(variant: GameSpec, encoding: Encoding, split: DealRange, reward_shaping: bool,
                cycle: list[int] | None = None) -> Callable[[], gymnasium.Env]:
    """A picklable factory of one env dealing only ``split`` deals (``cycle``: a fixed list in turn)."""

    def make() -> gymnasium.Env:
        env = variant.make_env(reward_shaping=reward_shaping, split=split.name)
        env = DealSplitWrapper(env, variant.game, split, cycle)
        return Monitor(encoding.wrap(env))

    return make


class _MasksFromInfo:
    """Answers ``env_method("action_masks")`` from the masks in ``info``.

    MaskablePPO asks every env for its mask before every step. Both environments put the same mask
    in ``info["action_mask"]`` (after an automatic reset: in the reset's info), so the vec env
    keeps the latest one of each env and answers from it: for ``SubprocVecEnv`` that saves one
    round trip to each worker per step, for ``DummyVecEnv`` a walk through the wrappers.
    """

    _masks: np.ndarray | None = None

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Env ``i``'s seed is ``spawn_seeds(seed, n)[i]`` (from ``SeedSequence(seed).spawn(n)``), not
        stable-baselines3's ``seed + i``: runs with seeds 1 and 2 share no deal stream."""
        if seed is None:  # as stable-baselines3 picks one
            seed = int(np.random.randint(0, np.iinfo(np.uint32).max, dtype=np.uint32))
        seeds: list[int | None] = list(spawn_seeds(seed, self.num_envs))  # type: ignore[attr-defined]
        self._seeds = seeds
        return list(seeds)

    def reset(self) -> Any:
        obs = super().reset()  # type: ignore[misc]
        self._keep_masks([True] * self.num_envs, self.reset_infos, self.reset_infos)  # type: ignore[attr-defined]
        return obs

    def _keep_masks(self, dones: Any, infos: list[dict[str, Any]], reset_infos: list[dict[str, Any]]) -> None:
        self._masks = np.stack([
            np.asarray((reset_info if done else info)["action_mask"], np.bool_)
            for done, info, reset_info in zip(dones, infos, reset_infos, strict=True)
        ])

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        if method_name == ACTION_MASKS and not method_args and not method_kwargs and self._masks is not None:
            return [self._masks[i] for i in self._get_indices(indices)]  # type: ignore[attr-defined]
        return super().env_method(  # type: ignore[misc]
            method_name, *method_args, indices=indices, **method_kwargs)


class MaskCachingSubprocVecEnv(_MasksFromInfo, SubprocVecEnv):
    """``SubprocVecEnv`` that answers MaskablePPO's mask requests from ``info`` (:class:`_MasksFromInfo`)."""

    def step_wait(self) -> Any:
        obs, rewards, dones, infos = super().step_wait()
        self._keep_masks(dones, infos, self.reset_infos)
        return obs, rewards, dones, infos


class InProcessVecEnv(_MasksFromInfo, DummyVecEnv):
    """``DummyVecEnv`` without its per-step deep copy of the infos, answering mask requests from them.

    ``DummyVecEnv`` deep-copies every env's ``info`` every step, in case an env hands out the same
    dict again. Both environments build a new ``info`` (and a new mask array) at every step and
    reset, so the dicts themselves are returned, and a later step never changes one handed out.
    """

    def step_wait(self) -> Any:
        for i, env in enumerate(self.envs):
            obs, self.buf_rews[i], terminated, truncated, info = env.step(self.actions[i])
            self.buf_dones[i] = terminated or truncated
            info["TimeLimit.truncated"] = truncated and not terminated  # as DummyVecEnv
            if self.buf_dones[i]:
                info["terminal_observation"] = obs
                obs, self.reset_infos[i] = env.reset()
            self.buf_infos[i] = info
            self._save_obs(i, obs)
        infos = list(self.buf_infos)
        self._keep_masks(self.buf_dones, infos, self.reset_infos)
        return self._obs_from_buf(), np.copy(self.buf_rews), np.copy(self.buf_dones), infos


def make_vec_env(env_fns: Sequence[Callable[[], gymnasium.Env]], kind: str = "subproc") -> VecEnv:
    """``subproc``: one worker process per env (:class:`MaskCachingSubprocVecEnv`); ``dummy``: in-process
    (:class:`InProcessVecEnv`)."""
    if kind == "subproc":
        return MaskCachingSubprocVecEnv(list(env_fns))
    return InProcessVecEnv(list(env_fns))


__all__ = ["InProcessVecEnv", "MaskCachingSubprocVecEnv", "make_env_fn", "make_vec_env"]
