"""Environments for training and evaluation, and the vector env that runs them across the cores."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnv

from agents.encodings import Encoding
from agents.variants import Variant
from training.splits import DealRange, DealSplitWrapper

ACTION_MASKS = "action_masks"


def make_env_fn(variant: Variant, encoding: Encoding, split: DealRange, shaped_reward: bool,
                cycle: list[int] | None = None) -> Callable[[], gymnasium.Env]:
    """A picklable factory of one env dealing only ``split`` deals (``cycle``: a fixed list in turn)."""

    def make() -> gymnasium.Env:
        env = variant.make_env(shaped_reward=shaped_reward)
        env = DealSplitWrapper(env, variant.game, split, cycle)
        return Monitor(encoding.wrap(env))

    return make


class MaskCachingSubprocVecEnv(SubprocVecEnv):
    """``SubprocVecEnv`` that answers ``env_method("action_masks")`` from the masks in ``info``.

    MaskablePPO asks every env for its mask before every step, which costs ``SubprocVecEnv`` one
    more round trip to each worker per step. Both environments put the same mask in
    ``info["action_mask"]`` (after an automatic reset: in the reset's info), so this class keeps
    the latest one of each env and answers from it.
    """

    def __init__(self, env_fns: list[Callable[[], gymnasium.Env]], start_method: str | None = None) -> None:
        super().__init__(env_fns, start_method)
        self._masks: np.ndarray | None = None

    def reset(self) -> Any:
        obs = super().reset()
        self._masks = np.stack([np.asarray(info["action_mask"], np.bool_) for info in self.reset_infos])
        return obs

    def step_wait(self) -> Any:
        obs, rewards, dones, infos = super().step_wait()
        self._masks = np.stack([
            np.asarray((reset_info if done else info)["action_mask"], np.bool_)
            for done, info, reset_info in zip(dones, infos, self.reset_infos, strict=True)
        ])
        return obs, rewards, dones, infos

    def env_method(
        self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any
    ) -> list[Any]:
        if method_name == ACTION_MASKS and not method_args and not method_kwargs and self._masks is not None:
            return [self._masks[i] for i in self._get_indices(indices)]
        return super().env_method(method_name, *method_args, indices=indices, **method_kwargs)


def make_vec_env(env_fns: Sequence[Callable[[], gymnasium.Env]], kind: str = "subproc") -> VecEnv:
    """``subproc``: one worker process per env (:class:`MaskCachingSubprocVecEnv`); ``dummy``: in-process."""
    if kind == "subproc":
        return MaskCachingSubprocVecEnv(list(env_fns))
    return DummyVecEnv(list(env_fns))


__all__ = ["MaskCachingSubprocVecEnv", "make_env_fn", "make_vec_env"]
