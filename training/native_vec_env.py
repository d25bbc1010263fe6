"""A stable-baselines3 ``VecEnv`` over the native Pyramid batch, for MaskablePPO (no Python env objects).

:class:`NativePyramidVecEnv` steps ``num_envs`` Pyramid games in one native call
(:class:`envs.pyramid.vector.PyramidBatch`, same-step autoreset as stable-baselines3 expects: a
game that ends is dealt again at once, its last observation in ``info["terminal_observation"]``).
It stands where ``InProcessVecEnv([make_env_fn(variant, pyramid-flat, split, shaped)] * N)`` stands
in :mod:`training.vec_env`, and gives what that stack gives:

* deals from a split as :class:`training.splits.DealSplitWrapper` draws them (env ``i`` seeded
  with ``seed + i`` deals the same numbers; without a split, the single env's random deals);
* ``info["episode"]`` (``r``, ``l``, ``t``) and ``info["is_success"]`` at each episode's end, as
  ``Monitor`` and ``DealSplitWrapper`` write them; ``info["TimeLimit.truncated"]``;
* ``env_method("action_masks")``: the masks of every game, ``np.bool_`` rows, answered from the
  batch's array (sb3-contrib's ``get_action_masks`` stacks them).

Only the ``pyramid-flat`` encoding (the observation as it is) has a native path; the shipped
agents' ``pyramid-actions-relaxed`` and every Klondike setting train on the Python envs.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import partial
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env import VecEnv

from envs.errors import MalformedInputError
from envs.pyramid.actions import NUM_ACTIONS
from envs.pyramid.observation import OBSERVATION_SIZE
from envs.pyramid.vector import PyramidBatch
from training.splits import DealRange

ACTION_MASKS = "action_masks"
NATIVE_ENCODINGS = frozenset({"pyramid-flat"})
"""Observation encodings the native batch can feed as they are."""


class SplitSampler:
    """Deal numbers of one split, drawn as ``DealSplitWrapper`` draws them (uniform, both ends in)."""

    def __init__(self, split: DealRange) -> None:
        self.split = split

    def __call__(self, index: int, rng: np.random.Generator) -> int:
        return int(rng.integers(self.split.first, self.split.last, endpoint=True))


class NativePyramidVecEnv(VecEnv):
    """``num_envs`` native Pyramid games as a stable-baselines3 ``VecEnv`` (module docstring)."""

    def __init__(self, num_envs: int, *, stock_top_playable: bool = True, shaped_reward: bool = False,
                 split: DealRange | None = None, max_episode_steps: int | None = 500,
                 num_threads: int = 1) -> None:
        kwargs = {} if split is None else {"deal_sampler": SplitSampler(split)}
        self.batch = PyramidBatch(num_envs, stock_top_playable=stock_top_playable,
                                  reward_shaping=shaped_reward,
                                  max_episode_steps=max_episode_steps, autoreset=AutoresetMode.SAME_STEP,
                                  num_threads=num_threads, **kwargs)
        self.render_mode = None
        self.stock_top_playable = bool(stock_top_playable)
        super().__init__(num_envs, spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32),
                         spaces.Discrete(NUM_ACTIONS))
        self._actions: np.ndarray | None = None
        self._returns = np.zeros(num_envs, np.float64)
        self._lengths = np.zeros(num_envs, np.int64)
        self._starts = np.zeros(num_envs, np.float64)
        self._t0 = time.time()

    def __getstate__(self) -> dict[str, Any]:
        raise TypeError(
            "a NativePyramidVecEnv holds native games and cannot be pickled: make it where it is used")

    # ------------------------------------------------------------ VecEnv API
    def reset(self) -> np.ndarray:
        seeds = list(self._seeds)
        if any(self._options):
            raise MalformedInputError("the native VecEnv takes no reset options")
        self.batch.reset(list(range(self.num_envs)), seeds, None)
        self._reset_seeds()
        self._reset_options()
        self._returns[:] = 0.0
        self._lengths[:] = 0
        self._starts[:] = time.time()
        self.reset_infos = [self._reset_info(i) for i in range(self.num_envs)]
        return self.batch.obs.copy()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        b = self.batch
        b.step(np.asarray(self._actions).reshape(self.num_envs))
        self._returns += b.reward
        self._lengths += 1
        dones = b.terminated | b.truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            now = time.time()
            for i in np.flatnonzero(dones).tolist():
                info = infos[i]
                info["terminal_observation"] = b.final_obs[i].copy()
                info["TimeLimit.truncated"] = bool(b.truncated[i] and not b.terminated[i])
                info["is_success"] = bool(b.outcome[i] == 1)
                info["episode"] = {"r": round(float(self._returns[i]), 6), "l": int(self._lengths[i]),
                                   "t": round(now - self._t0, 6)}
                self._returns[i] = 0.0
                self._lengths[i] = 0
                self._starts[i] = now
                self.reset_infos[i] = self._reset_info(i)
        return b.obs.copy(), b.reward.astype(np.float32), dones, infos

    def action_masks(self) -> np.ndarray:
        """The masks of every game now (``num_envs x 467``, ``np.bool_``)."""
        return self.batch.mask.view(np.bool_).copy()

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None,
                   **method_kwargs: Any) -> Any:
        """Only ``action_masks`` (no arguments): the rows of :meth:`action_masks` for ``indices``."""
        if method_name != ACTION_MASKS or method_args or method_kwargs:
            raise AttributeError(
                f"the native VecEnv answers env_method('{ACTION_MASKS}') only, not {method_name!r}")
        masks = self.action_masks()
        return masks if indices is None else masks[self._get_indices(indices)]  # rows, as np.stack wants

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        if attr_name not in ("render_mode", "stock_top_playable", ACTION_MASKS):
            raise AttributeError(f"the native VecEnv has no per-env attribute {attr_name!r}")
        chosen = self._get_indices(indices)
        if attr_name == ACTION_MASKS:  # each game's method, as a Python env's bound action_masks
            return [partial(self._mask_of, i) for i in chosen]
        return [getattr(self, attr_name)] * len(chosen)

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(f"the native VecEnv's sub-envs have no settable attributes ({attr_name!r})")

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False] * len(self._get_indices(indices))

    def close(self) -> None:
        return None

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None] * self.num_envs

    # ------------------------------------------------------------ helpers
    def _get_indices(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def _mask_of(self, i: int) -> np.ndarray:
        return self.batch.mask[i].astype(np.bool_)

    def _reset_info(self, i: int) -> dict[str, Any]:
        b = self.batch
        return {"deal_number": int(b.deal_number[i]), "pass": int(b.pass_number[i]),
                "cards_left": int(b.cards_left[i])}


__all__ = ["NATIVE_ENCODINGS", "NativePyramidVecEnv", "SplitSampler"]
