"""Any encoding as a Gymnasium wrapper: ``EncodedObservations(env, "klondike-compact")``.

The wrapper replaces each observation by the encoding's vector of it, read with the action mask
of the same step (``info["action_mask"]``, which both games' environments give), and its
``observation_space`` by the encoding's ``Box``. It records its constructor arguments
(:class:`gymnasium.utils.RecordConstructorArgs`), so ``env.spec`` names it and
``gymnasium.make(env.spec)`` rebuilds the wrapped environment, and
``gymnasium.utils.env_checker.check_env`` passes on it. An identity encoding (``pyramid-flat``,
``klondike-cards``) passes observations through, so ``EncodedObservations(env, DEFAULT_ENCODING[game])``
works for both games.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium.utils import RecordConstructorArgs

from solitaire_rl.agents.encodings import Encoding, find_encoding
from solitaire_rl.envs.errors import MalformedInputError


def _game_of(env: gymnasium.Env) -> str:
    """``"pyramid"`` or ``"klondike"``: which game's environment ``env`` wraps."""
    from solitaire_rl.envs.klondike.env import KlondikeEnv
    from solitaire_rl.envs.pyramid.env import PyramidEnv

    inner = env.unwrapped
    if isinstance(inner, PyramidEnv):
        return "pyramid"
    if isinstance(inner, KlondikeEnv):
        return "klondike"
    raise MalformedInputError(f"not a solitaire-rl environment: {type(inner).__name__}")


class EncodedObservations(gymnasium.Wrapper, RecordConstructorArgs):
    """``env`` with its observations encoded by the encoding called ``encoding``."""

    def __init__(self, env: gymnasium.Env, encoding: str | Encoding) -> None:
        name = encoding.name if isinstance(encoding, Encoding) else encoding
        found = find_encoding(name, _game_of(env))
        RecordConstructorArgs.__init__(self, encoding=name)
        gymnasium.Wrapper.__init__(self, env)
        self.encoding = found
        self.observation_space = found.input_space(env.observation_space)

    def reset(self, **kwargs: Any) -> tuple[np.ndarray, dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        return self.encoding.encode(obs, info["action_mask"]), info

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        return self.encoding.encode(obs, info["action_mask"]), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal moves now (the name sb3-contrib's ``MaskablePPO`` asks for)."""
        inner: Any = self.env.unwrapped  # a PyramidEnv or KlondikeEnv (checked in __init__)
        masks: np.ndarray = inner.action_masks()
        return masks
