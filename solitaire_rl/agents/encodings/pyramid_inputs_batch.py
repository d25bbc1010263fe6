"""``pyramid-actions`` and ``pyramid-actions-relaxed`` for a whole batch at once, in native code.

The native encoder (``native/src/pyramid/policy_inputs.cpp``) is a second implementation of
:func:`solitaire_rl.agents.encodings.pyramid_actions.pyramid_actions` (the reference), held to it value for
value by
``tests/test_native_policy_inputs_pyramid.py``; its ``relaxed_lost`` asks the solver's native
pruning as :func:`solitaire_rl.agents.solver.pyramid_relaxed_lost` does. The native vector envs of
:mod:`solitaire_rl.training.native_vec_env` encode their rows with it, one call per step.
"""

from __future__ import annotations

import numpy as np

from solitaire_rl.agents.encodings.native_inputs import encode_rows
from solitaire_rl.agents.encodings.pyramid_actions import (
    PYRAMID_ACTIONS_RELAXED_SIZE,
    PYRAMID_ACTIONS_SIZE,
    SLOTS,
)
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.native_batch import require_native_core
from solitaire_rl.envs.pyramid.actions import NUM_ACTIONS
from solitaire_rl.envs.pyramid.observation import OBSERVATION_SIZE

_ERRORS = {
    "bad_observation": ("is not a Pyramid observation (a value that is not a rank or a flag, or cards that "
                        "cannot be)"),
    "too_many_actions": f"has more than {SLOTS} legal actions",
    "bad_mask": "marks an action legal that its observation cannot play",
}
"""What a row the native encoder refused is, by the name of its ``solitaire_native.InputError``."""


def _encode(observations: np.ndarray, masks: np.ndarray | None, relaxed: bool) -> np.ndarray:
    if masks is None:
        raise MalformedInputError("the pyramid-actions encodings need the action masks")
    width = PYRAMID_ACTIONS_RELAXED_SIZE if relaxed else PYRAMID_ACTIONS_SIZE
    require_native_core()
    from solitaire_native import pyramid_policy_inputs

    return encode_rows(pyramid_policy_inputs, observations, np.float32, OBSERVATION_SIZE, masks,
                       NUM_ACTIONS, width, _ERRORS, relaxed)


def pyramid_actions_batch(observations: np.ndarray, masks: np.ndarray | None) -> np.ndarray:
    """The ``pyramid-actions`` rows of stacked Pyramid observations and their action masks."""
    return _encode(observations, masks, relaxed=False)


def pyramid_actions_relaxed_batch(observations: np.ndarray, masks: np.ndarray | None) -> np.ndarray:
    """The ``pyramid-actions-relaxed`` rows of stacked Pyramid observations and their action masks."""
    return _encode(observations, masks, relaxed=True)


__all__ = ["pyramid_actions_batch", "pyramid_actions_relaxed_batch"]
