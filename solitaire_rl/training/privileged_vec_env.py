"""A ``VecEnv`` whose observations carry the privileged vector after the player's own input.

:class:`PrivilegedVecEnv` wraps a :class:`solitaire_rl.training.native_vec_env.NativeVecEnv`: each
row it hands MaskablePPO is the encoded observation (what the policy reads) followed by the
game's privileged vector (:mod:`solitaire_rl.training.privileged`: the hidden cards, read from the
native game's state, which only the critic reads). A game that ends is dealt again in the same
step, so its last position is gone when the step returns: the wrapper keeps every game's state
before each step and replays the ended games' last action on a one-game scratch batch to write
the privileged part of ``info["terminal_observation"]`` (what a truncated episode's value is
bootstrapped from) exactly.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env import VecEnvWrapper

from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.training.native_vec_env import NativeVecEnv
from solitaire_rl.training.privileged import PrivilegedView, privileged_view


def privileged_space(observation_space: spaces.Space, view: PrivilegedView) -> spaces.Box:
    """The space of an encoded observation (a flat ``Box``) followed by ``view``'s vector."""
    shape = observation_space.shape
    if not isinstance(observation_space, spaces.Box) or shape is None or len(shape) != 1:
        raise MalformedInputError(
            f"a privileged critic needs a flat Box observation (an encoding such as klondike-actions), "
            f"not {observation_space}")
    low = np.concatenate([observation_space.low, np.zeros(view.size, np.float32)]).astype(np.float32)
    high = np.concatenate([observation_space.high, np.ones(view.size, np.float32)]).astype(np.float32)
    return spaces.Box(low, high, dtype=np.float32)


class PrivilegedVecEnv(VecEnvWrapper):
    """``venv``'s observations, each followed by its game's privileged vector."""

    venv: NativeVecEnv

    def __init__(self, venv: NativeVecEnv) -> None:
        if not isinstance(venv, NativeVecEnv):
            raise MalformedInputError(
                f"a privileged critic reads the native games' states: wrap a NativeVecEnv, not "
                f"{type(venv).__name__}")
        self.view = privileged_view(venv.variant.game)
        self.observation_size = int(np.prod(venv.observation_space.shape or ()))
        super().__init__(venv, observation_space=privileged_space(venv.observation_space, self.view))
        # The position after a move depends on neither the reward nor the step limit.
        self._scratch = venv.variant.make_batch(1, max_episode_steps=None, autoreset=AutoresetMode.DISABLED,
                                                split=venv.batch.split)
        self._before: list[dict[str, Any]] = []
        self._now: list[dict[str, Any]] = []
        self._actions = np.zeros(self.num_envs, np.int64)

    def _states(self) -> list[dict[str, Any]]:
        batch = self.venv.batch
        return [batch.get_state(i) for i in range(self.num_envs)]

    def _with_privileged(self, observations: np.ndarray, states: list[dict[str, Any]]) -> np.ndarray:
        encoded = observations.astype(np.float32, copy=False)
        return np.concatenate([encoded, self.view.vectors(states)], axis=1)

    def privileged(self) -> np.ndarray:
        """Every game's privileged vector now (``num_envs x size``)."""
        return self.view.vectors(self._states())

    def reset(self) -> np.ndarray:
        observations = self.venv.reset()
        self._now = self._states()
        return self._with_privileged(np.asarray(observations), self._now)

    def step_async(self, actions: np.ndarray) -> None:
        self._before = self._now  # the states the last step or reset left (read once a step)
        self._actions[:] = np.asarray(actions).reshape(self.num_envs)
        self.venv.step_async(actions)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        observations, rewards, dones, infos = self.venv.step_wait()
        self._now = self._states()
        out = self._with_privileged(np.asarray(observations), self._now)
        for i in np.flatnonzero(dones).tolist():
            final = infos[i].get("terminal_observation")
            if final is not None:
                infos[i]["terminal_observation"] = np.concatenate(
                    [np.asarray(final, np.float32), self.view.vector(self._final_state(i))])
        return out, rewards, dones, infos

    def _final_state(self, i: int) -> dict[str, Any]:
        """Game ``i``'s position after the last step, before it was dealt again."""
        scratch = self._scratch
        scratch.set_state(0, self._before[i])
        scratch.step(self._actions[i:i + 1])
        return scratch.get_state(0)


__all__ = ["PrivilegedVecEnv", "privileged_space"]
