"""Observation encodings: how an environment's observation is fed to a policy network.

A checkpoint records the encoding it was trained with (name, version, size and a digest of the
environment's observation layout), and the ``ppo`` player refuses one whose record does not match
the code it runs with (:mod:`solitaire_rl.agents.ppo`). Bump an encoding's ``version`` when its output
changes;
the digest catches a change of the environment's own layout.

* ``pyramid-flat`` v1: the Pyramid environment's 883 floats as they are.
* ``klondike-cards`` v1: the Klondike environment's 190 small integers as they are (a
  ``MultiDiscrete`` space, which stable-baselines3 one-hot encodes into 9,918 inputs: a first
  layer of 128 then holds 1.3 million weights, too many for a checkpoint under 10 MB).
* ``klondike-compact`` v1 (Klondike's default, :mod:`solitaire_rl.agents.encodings.klondike_compact`): the
same
  information as 709 floats in [0, 1] (:func:`klondike_compact`): for each of the 52 cards where
  it is (column 1..7 face up, waste top, waste, seen in the stock, foundation, or not known: face
  down or unseen) and how deep (cards above it in its column, or its place in the waste or in the
  stock's draw order); then per column its face-down and face-up counts and whether it is empty;
  stock, waste and unseen counts; the foundations and their records; the recycle count.
* ``pyramid-actions`` v1: the Pyramid observation followed by one feature row per legal action
  (:mod:`solitaire_rl.agents.encodings.pyramid_actions`); it reads the action mask too, and goes with the
  policy of
  :mod:`solitaire_rl.agents.action_scoring_policy`, which scores every legal action with one shared network.
* ``klondike-actions`` v1: ``klondike-compact`` followed by one feature row per legal action
  (:mod:`solitaire_rl.agents.encodings.klondike_actions`), for the action-scoring policy like
  ``pyramid-actions``.
* ``pyramid-actions-relaxed`` v1: ``pyramid-actions`` with one more feature per action, whether
  the move leaves a pyramid that the solver's order-free pruning proves impossible to clear
  (:mod:`solitaire_rl.agents.encodings.pyramid_actions`).
* Both Klondike encodings and both ``pyramid-actions`` ones also run in native code over a whole
  batch (``Encoding.batch``: :mod:`solitaire_rl.agents.encodings.klondike_inputs_batch`,
  :mod:`solitaire_rl.agents.encodings.pyramid_inputs_batch`),
  as the native vector envs use them.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from types import MappingProxyType
from typing import TYPE_CHECKING

import gymnasium
import numpy as np

if TYPE_CHECKING:  # sb3-contrib (and torch) load only when a policy is built
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

from solitaire_rl.agents.encodings import klondike_actions as ka
from solitaire_rl.agents.encodings.klondike_compact import KLONDIKE_COMPACT_SIZE, klondike_compact
from solitaire_rl.envs.errors import MalformedInputError


def _pyramid_layout() -> str:
    from solitaire_rl.envs.pyramid import observation as o

    return (f"size={o.OBSERVATION_SIZE};pyramid={','.join(o.PYRAMID_FEATURES)};"
            f"stock={','.join(o.STOCK_FEATURES)};globals={','.join(o.GLOBAL_FEATURES)}")


def _klondike_layout() -> str:
    from solitaire_rl.envs.klondike import observer as o

    views = ";".join(f"{name}={s.start}:{s.stop}" for name, s in o.VIEWS.items())
    return f"size={o.OBS_SIZE};dtype={np.dtype(o.OBS_DTYPE).name};nvec={o.OBS_NVEC.tolist()};{views}"


def _pyramid_actions_slots(relaxed: bool) -> tuple[int, tuple[str, ...]]:
    """Slot width and feature names of ``pyramid-actions`` (``relaxed``: ``pyramid-actions-relaxed``)."""
    from solitaire_rl.agents.encodings import pyramid_actions as a

    return (a.RELAXED_SLOT_WIDTH, a.RELAXED_FEATURES) if relaxed else (a.SLOT_WIDTH, a.ACTION_FEATURES)


def _pyramid_actions_layout(relaxed: bool = False) -> str:
    from solitaire_rl.agents.encodings.pyramid_actions import SLOTS

    width, features = _pyramid_actions_slots(relaxed)
    return f"{_pyramid_layout()};slots={SLOTS}x{width};features={','.join(features)}"


def _pyramid_actions(observation: np.ndarray, mask: np.ndarray | None, relaxed: bool = False) -> np.ndarray:
    from solitaire_rl.agents.encodings.pyramid_actions import pyramid_actions

    return pyramid_actions(observation, mask, relaxed=relaxed)


def _pyramid_actions_policy_kwargs(relaxed: bool = False) -> dict[str, object]:
    from solitaire_rl.agents.encodings.pyramid_actions import SLOTS
    from solitaire_rl.envs.pyramid.observation import OBSERVATION_SIZE

    return {"flat_size": OBSERVATION_SIZE, "slots": SLOTS, "slot_width": _pyramid_actions_slots(relaxed)[0]}


def _pyramid_actions_size(relaxed: bool = False) -> int:
    from solitaire_rl.agents.encodings import pyramid_actions as a

    return a.PYRAMID_ACTIONS_RELAXED_SIZE if relaxed else a.PYRAMID_ACTIONS_SIZE


def _klondike_actions_layout() -> str:
    return (f"{_klondike_layout()};compact={KLONDIKE_COMPACT_SIZE};slots={ka.SLOTS}x{ka.SLOT_WIDTH};"
            f"features={','.join(ka.ACTION_FEATURES)}")


def _klondike_actions_policy_kwargs() -> dict[str, object]:
    return {"flat_size": KLONDIKE_COMPACT_SIZE, "slots": ka.SLOTS, "slot_width": ka.SLOT_WIDTH}


def _native_batch(name: str, module: str = "solitaire_rl.agents.encodings.klondike_inputs_batch",
                  ) -> Callable[[np.ndarray, np.ndarray | None], np.ndarray]:
    """The batch encoder ``name`` of ``module`` (:mod:`solitaire_rl.agents.encodings.klondike_inputs_batch`,
    :mod:`solitaire_rl.agents.encodings.pyramid_inputs_batch`), loaded (with the native core) when first
    called."""

    def encode(observations: np.ndarray, masks: np.ndarray | None) -> np.ndarray:
        batch: Callable[[np.ndarray, np.ndarray | None], np.ndarray] = getattr(
            importlib.import_module(module), name)
        return batch(observations, masks)

    encode.__name__ = name
    return encode


@dataclass(frozen=True)
class Encoding:
    """One way to turn an environment's observation into a policy's input."""

    name: str
    version: int
    game: str
    layout: Callable[[], str]
    """Text describing the environment's observation layout the encoding reads."""
    transform: Callable[[np.ndarray, np.ndarray | None], np.ndarray] | None = None
    """The function from an environment observation and its action mask to the policy's input;
    ``None``: identity."""
    size: int = 0
    """Length of ``transform``'s output (a ``Box(0, 1)`` vector)."""
    policy: str = "MlpPolicy"
    """The stable-baselines3 policy to train with this encoding: a name, or ``module:Class``."""
    policy_kwargs: Callable[[], dict[str, object]] | None = None
    """Keyword arguments that policy needs beyond the training settings (its input layout)."""
    batch: Callable[[np.ndarray, np.ndarray | None], np.ndarray] | None = None
    """``transform`` over stacked observations and masks in one call (a native path, held to
    ``transform`` by a differential test); ``None``: row by row."""

    def digest(self) -> str:
        """A short hash of the encoding's name, version and the environment layout it reads."""
        text = f"{self.name}/v{self.version}/{self.layout()}"
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def input_space(self, env_space: gymnasium.Space) -> gymnasium.Space:
        """The policy's observation space for an environment observation space."""
        if self.transform is None:
            return env_space
        return gymnasium.spaces.Box(0.0, 1.0, (self.size,), np.float32)

    def encode(self, observation: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
        """The policy input for one environment observation (and its action mask)."""
        return observation if self.transform is None else self.transform(observation, mask)

    def encode_batch(self, observations: np.ndarray, masks: np.ndarray | None) -> np.ndarray:
        """The policy inputs of stacked observations (and their masks), one row each."""
        if self.transform is None:
            return observations
        if self.batch is not None:
            return self.batch(observations, masks)
        if masks is None:
            return np.stack([self.transform(o, None) for o in observations])
        return np.stack([self.transform(o, m) for o, m in zip(observations, masks, strict=True)])

    def wrap(self, env: gymnasium.Env) -> gymnasium.Env:
        """``env`` with observations encoded (unchanged for an identity encoding)."""
        if self.transform is None:
            return env
        return EncodedObservations(env, self.name)

    def policy_class(self) -> str | type[MaskableActorCriticPolicy]:
        """The policy to give ``MaskablePPO``: a registered name or the class ``policy`` names."""
        if ":" not in self.policy:
            return self.policy
        module, name = self.policy.split(":")
        policy: type[MaskableActorCriticPolicy] = getattr(importlib.import_module(module), name)
        return policy


    def record(self, env_space: gymnasium.Space) -> dict[str, object]:
        """What a checkpoint stores about its encoding."""
        return {"name": self.name, "version": self.version, "digest": self.digest(),
                "size": int(np.prod(self.input_space(env_space).shape or ()))}


_PYRAMID_BATCH = "solitaire_rl.agents.encodings.pyramid_inputs_batch"

ENCODINGS: Mapping[str, Encoding] = MappingProxyType({
    e.name: e
    for e in (
        Encoding("pyramid-flat", 1, "pyramid", _pyramid_layout),
        Encoding("klondike-cards", 1, "klondike", _klondike_layout),
        Encoding("klondike-compact", 1, "klondike", _klondike_layout, klondike_compact,
                 KLONDIKE_COMPACT_SIZE, batch=_native_batch("klondike_compact_batch")),
        Encoding("klondike-actions", 1, "klondike", _klondike_actions_layout, ka.klondike_actions,
                 ka.KLONDIKE_ACTIONS_SIZE, "solitaire_rl.agents.action_scoring_policy:ActionScoringPolicy",
                 _klondike_actions_policy_kwargs, batch=_native_batch("klondike_actions_batch")),
        Encoding("pyramid-actions", 1, "pyramid", _pyramid_actions_layout, _pyramid_actions,
                 _pyramid_actions_size(), "solitaire_rl.agents.action_scoring_policy:ActionScoringPolicy",
                 _pyramid_actions_policy_kwargs,
                 batch=_native_batch("pyramid_actions_batch", _PYRAMID_BATCH)),
        Encoding("pyramid-actions-relaxed", 1, "pyramid", partial(_pyramid_actions_layout, relaxed=True),
                 partial(_pyramid_actions, relaxed=True), _pyramid_actions_size(relaxed=True),
                 "solitaire_rl.agents.action_scoring_policy:ActionScoringPolicy",
                 partial(_pyramid_actions_policy_kwargs, relaxed=True),
                 batch=_native_batch("pyramid_actions_relaxed_batch", _PYRAMID_BATCH)),
    )
})
DEFAULT_ENCODING: Mapping[str, str] = MappingProxyType(
    {"pyramid": "pyramid-flat", "klondike": "klondike-compact"}
)


def find_encoding(name: str, game: str) -> Encoding:
    """The encoding called ``name`` for ``game``; :class:`MalformedInputError` if there is none."""
    encoding = ENCODINGS.get(name)
    if encoding is None or encoding.game != game:
        known = ", ".join(e.name for e in ENCODINGS.values() if e.game == game)
        raise MalformedInputError(f"unknown observation encoding {name!r} for {game}: known: {known}")
    return encoding


from solitaire_rl.agents.encodings.wrapper import EncodedObservations  # noqa: E402  (it reads the table above)

__all__ = ["DEFAULT_ENCODING", "ENCODINGS", "EncodedObservations", "Encoding", "find_encoding"]
