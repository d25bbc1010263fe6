"""Wrappers for both games' single environments: the outcome of a truncated episode, and the
observation with its action mask in one ``Dict`` (PettingZoo's and RLlib's convention).

Both record their constructor arguments, so ``check_env``, pickling and ``env.spec`` keep working.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import RecordConstructorArgs

TRUNCATED = "truncated"
"""``info["outcome"]`` of a step that ended the episode only by the time limit."""
OBSERVATION = "observation"
ACTION_MASK = "action_mask"


class TruncationOutcome(gymnasium.Wrapper, RecordConstructorArgs):
    """Writes ``info["outcome"] = "truncated"`` on a step that truncated without terminating, so that
    every final step says how the episode ended. The registration puts it outside Gymnasium's
    ``TimeLimit`` (``additional_wrappers``), so ``gymnasium.make`` applies it whatever the limit."""

    def __init__(self, env: gymnasium.Env) -> None:
        RecordConstructorArgs.__init__(self)
        gymnasium.Wrapper.__init__(self, env)

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        if truncated and not terminated and "outcome" not in info:
            info["outcome"] = TRUNCATED
        return obs, reward, terminated, truncated, info


class ActionMaskObservation(gymnasium.ObservationWrapper, RecordConstructorArgs):
    """The observation as ``{"observation": obs, "action_mask": mask}``, the mask ``np.int8`` (1 where
    the action is legal), taken from the env's ``info["action_mask"]`` (both games write it at
    every reset and step).

    ``observation_space`` is ``Dict(observation=<the env's>, action_mask=Box(0, 1, (n,), int8))``;
    ``action_masks()`` still answers as ``np.bool_`` for sb3-contrib. Wrap the env whole, e.g.
    ``ActionMaskObservation(gymnasium.make("Solitaire/Klondike-v0"))``.
    """

    def __init__(self, env: gymnasium.Env) -> None:
        RecordConstructorArgs.__init__(self)
        gymnasium.ObservationWrapper.__init__(self, env)
        if not isinstance(env.action_space, spaces.Discrete):
            raise TypeError(f"ActionMaskObservation needs a Discrete action space, not {env.action_space}")
        n = int(env.action_space.n)
        self.observation_space = spaces.Dict({
            OBSERVATION: env.observation_space,
            ACTION_MASK: spaces.Box(0, 1, (n,), np.int8),
        })
        self._mask = np.zeros(n, np.int8)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict]:
        obs, info = self.env.reset(seed=seed, options=options)
        self._mask = np.asarray(info[ACTION_MASK], np.int8)
        return self.observation(obs), info

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._mask = np.asarray(info[ACTION_MASK], np.int8)
        return self.observation(obs), reward, terminated, truncated, info

    def observation(self, observation: Any) -> dict[str, Any]:
        return {OBSERVATION: observation, ACTION_MASK: self._mask.copy()}

    def action_masks(self) -> np.ndarray:
        """Legal actions now, ``np.bool_`` (sb3-contrib's convention)."""
        return self._mask.astype(np.bool_)


__all__ = ["ACTION_MASK", "OBSERVATION", "TRUNCATED", "ActionMaskObservation", "TruncationOutcome"]
