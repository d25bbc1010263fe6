"""stable-baselines3 ``VecEnv``s over the native batches, for MaskablePPO.

:class:`NativeVecEnv` steps ``num_envs`` games of any variant (its
:class:`~solitaire_rl.envs.spec.GameSpec`'s :meth:`~solitaire_rl.envs.spec.GameSpec.make_batch`) in one
native call, with same-step autoreset as stable-baselines3 expects: a game that ends is dealt again
at once, its last observation in ``info["terminal_observation"]``. It stands where
``InProcessVecEnv([make_env_fn(variant, encoding, split, shaped)] * N)`` stands in
:mod:`solitaire_rl.training.vec_env`, with any encoding of the game; :class:`NativePyramidVecEnv`
(``stock_top_playable=``) and :class:`NativeKlondikeVecEnv` (``draw_count=``) name the variant as the
envs do. Each gives what that stack gives:

* deals from a split as :class:`solitaire_rl.training.splits.DealSplitWrapper` draws them (``seed(S)``
  seeds env ``i`` with ``spawn_seeds(S, n)[i]``, drawn from ``numpy.random.SeedSequence(S).spawn(n)``,
  as the Python training envs are seeded, and deals the same numbers; without a split, train deals);
* ``info["episode"]`` (``r``, ``l``, ``t``) and ``info["is_success"]`` at each episode's end, as
  ``Monitor`` and ``DealSplitWrapper`` write them; ``info["TimeLimit.truncated"]``;
* ``env_method("action_masks")``: the masks of every game, ``np.bool_`` rows, answered from the
  batch's array (sb3-contrib's ``get_action_masks`` stacks them).

Every encoding of both games runs natively: the whole batch's observations and masks (which
``klondike-compact`` ignores, and the shipped agents' ``pyramid-actions-relaxed`` and
``klondike-actions`` read) are encoded in one native call per step, the last observation of a game
that ended with its last mask (:meth:`solitaire_rl.agents.encodings.Encoding.encode_batch`,
:mod:`solitaire_rl.agents.encodings.pyramid_inputs_batch`,
:mod:`solitaire_rl.agents.encodings.klondike_inputs_batch`);
``pyramid-flat`` and
``klondike-cards`` are the observation as it is.
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

from solitaire_rl.agents.encodings import Encoding
from solitaire_rl.envs.contract import renamed_keyword
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike.vector import KlondikeBatch
from solitaire_rl.envs.native_batch import NativeBatch, spawn_seeds
from solitaire_rl.envs.pyramid.vector import PyramidBatch
from solitaire_rl.envs.spec import PYRAMID_000, PYRAMID_001, GameSpec, klondike_spec
from solitaire_rl.training.splits import TRAIN, DealRange

ACTION_MASKS = "action_masks"
NATIVE_GAMES = frozenset({"klondike", "pyramid"})
"""Games whose every encoding can train on a native batch."""


class SplitSampler:
    """Deal numbers of one split, drawn as ``DealSplitWrapper`` draws them (uniform, both ends in);
    a batch made with ``split=`` draws the same without it."""

    def __init__(self, split: DealRange) -> None:
        self.split = split

    def __call__(self, index: int, rng: np.random.Generator) -> int:
        return self.split.draw(rng)


class _NativeVecEnv(VecEnv):
    """The ``VecEnv`` over one native batch (same-step autoreset); subclasses make the batch."""

    batch: NativeBatch
    _attributes: tuple[str, ...] = ("render_mode",)

    def __init__(self, batch: NativeBatch, env_space: spaces.Space,
                 action_space: spaces.Discrete, encoding: Encoding | None) -> None:
        self.batch = batch
        self.render_mode = None
        self.encoding = encoding if encoding is not None and encoding.transform is not None else None
        """The encoding of the observations; ``None`` for the observations as they are."""
        num_envs = batch.num_envs
        space = env_space if self.encoding is None else self.encoding.input_space(env_space)
        super().__init__(num_envs, space, action_space)
        self._actions: np.ndarray | None = None
        self._returns = np.zeros(num_envs, np.float64)
        self._lengths = np.zeros(num_envs, np.int64)
        self._starts = np.zeros(num_envs, np.float64)
        self._t0 = time.time()

    def __getstate__(self) -> dict[str, Any]:
        raise TypeError(
            f"a {type(self).__name__} holds native games and cannot be pickled: make it where it is used")

    # ------------------------------------------------------------ VecEnv API
    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Game ``i``'s seed is ``spawn_seeds(seed, n)[i]`` (from ``SeedSequence(seed).spawn(n)``), not
        stable-baselines3's ``seed + i``: runs with seeds 1 and 2 share no deal stream."""
        if seed is None:  # as stable-baselines3 picks one
            seed = int(np.random.randint(0, np.iinfo(np.uint32).max, dtype=np.uint32))
        self._seeds = list[int | None](spawn_seeds(seed, self.num_envs))
        return list(self._seeds)

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
        return self._observations()

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
                info["terminal_observation"] = self._final_observation(i)
                info["TimeLimit.truncated"] = bool(b.truncated[i] and not b.terminated[i])
                info["is_success"] = bool(b.outcome[i] == b.win_code)
                info["episode"] = {"r": round(float(self._returns[i]), 6), "l": int(self._lengths[i]),
                                   "t": round(now - self._t0, 6)}
                self._returns[i] = 0.0
                self._lengths[i] = 0
                self._starts[i] = now
                self.reset_infos[i] = self._reset_info(i)
        return self._observations(), b.reward.astype(np.float32), dones, infos

    def action_masks(self) -> np.ndarray:
        """The masks of every game now (``num_envs x actions``, ``np.bool_``)."""
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
        if attr_name not in (*self._attributes, ACTION_MASKS):
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
    def _observations(self) -> np.ndarray:
        b = self.batch
        return b.obs.copy() if self.encoding is None else self.encoding.encode_batch(b.obs, b.mask)

    def _final_observation(self, i: int) -> np.ndarray:
        b = self.batch
        if self.encoding is None:
            return b.final_obs[i].copy()
        return self.encoding.encode_batch(b.final_obs[i:i + 1], b.final_mask[i:i + 1])[0]

    def _get_indices(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def _mask_of(self, i: int) -> np.ndarray:
        return self.batch.mask[i].astype(np.bool_)

    def _reset_info(self, i: int) -> dict[str, Any]:
        raise NotImplementedError


def _check_game(encoding: Encoding | None, variant: GameSpec) -> None:
    if encoding is not None and encoding.game != variant.game:
        raise MalformedInputError(f"the {encoding.name} encoding is not a {variant.title} encoding")


class NativeVecEnv(_NativeVecEnv):
    """``num_envs`` native games of ``variant`` as a stable-baselines3 ``VecEnv``, their observations
    encoded by ``encoding`` a batch at a time (``None`` or an identity encoding: as they are)."""

    def __init__(self, variant: GameSpec, num_envs: int, *, encoding: Encoding | None = None,
                 reward_shaping: bool = False, split: DealRange | None = None,
                 max_episode_steps: int | None = None, num_threads: int = 1) -> None:
        _check_game(encoding, variant)
        self.variant = variant
        steps = variant.max_episode_steps if max_episode_steps is None else max_episode_steps
        batch = variant.make_batch(num_envs, reward_shaping=reward_shaping, max_episode_steps=steps,
                                   autoreset=AutoresetMode.SAME_STEP, num_threads=num_threads,
                                   split=TRAIN if split is None else split)
        super().__init__(batch, variant.observation_space(), spaces.Discrete(variant.num_actions), encoding)

    def _reset_info(self, i: int) -> dict[str, Any]:
        b = self.batch
        return {"deal_number": int(b.deal_number[i]),
                **{key: int(getattr(b, name)[i]) for key, name in b.counters.items()}}


class NativePyramidVecEnv(NativeVecEnv):
    """:class:`NativeVecEnv` of Pyramid, its variant named by ``stock_top_playable``."""

    batch: PyramidBatch
    _attributes = ("render_mode", "stock_top_playable")

    def __init__(self, num_envs: int, *, encoding: Encoding | None = None, stock_top_playable: bool = True,
                 reward_shaping: bool = False, split: DealRange | None = None,
                 max_episode_steps: int | None = 500, num_threads: int = 1,
                 shaped_reward: bool | None = None) -> None:
        reward_shaping = renamed_keyword(reward_shaping, shaped_reward, new="reward_shaping",
                                         old="shaped_reward", default=False)
        self.stock_top_playable = bool(stock_top_playable)
        variant = PYRAMID_000 if self.stock_top_playable else PYRAMID_001
        super().__init__(variant, num_envs, encoding=encoding, reward_shaping=reward_shaping, split=split,
                         max_episode_steps=max_episode_steps, num_threads=num_threads)


class NativeKlondikeVecEnv(NativeVecEnv):
    """:class:`NativeVecEnv` of Klondike, its variant named by ``draw_count``."""

    batch: KlondikeBatch

    def __init__(self, num_envs: int, *, encoding: Encoding | None = None, draw_count: int = 3,
                 reward_shaping: bool = False, split: DealRange | None = None,
                 max_episode_steps: int | None = 1000, num_threads: int = 1,
                 shaped_reward: bool | None = None, max_steps: int | None = None) -> None:
        reward_shaping = renamed_keyword(reward_shaping, shaped_reward, new="reward_shaping",
                                         old="shaped_reward", default=False)
        max_episode_steps = renamed_keyword(max_episode_steps, max_steps, new="max_episode_steps",
                                            old="max_steps", default=1000)
        super().__init__(klondike_spec(draw_count), num_envs, encoding=encoding,
                         reward_shaping=reward_shaping, split=split, max_episode_steps=max_episode_steps,
                         num_threads=num_threads)


__all__ = ["NATIVE_GAMES", "NativeKlondikeVecEnv", "NativePyramidVecEnv", "NativeVecEnv", "SplitSampler"]
