"""``klondike-compact`` and ``klondike-actions`` for a whole batch at once, in native code.

The native encoder (``native/src/klondike/policy_inputs.cpp``) is a second implementation of
:func:`solitaire_rl.agents.encodings.klondike_compact.klondike_compact` and
:func:`solitaire_rl.agents.encodings.klondike_actions.klondike_actions`
(the reference), held to them value for value by ``tests/test_native_policy_inputs.py``. The
native vector envs of :mod:`solitaire_rl.training.native_vec_env` encode their rows with it, one call per
step.
"""

from __future__ import annotations

import numpy as np

from solitaire_rl.agents.encodings.klondike_actions import KLONDIKE_ACTIONS_SIZE, SLOTS
from solitaire_rl.agents.encodings.klondike_compact import KLONDIKE_COMPACT_SIZE
from solitaire_rl.agents.encodings.native_inputs import encode_rows
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike.actions import NUM_ACTIONS
from solitaire_rl.envs.klondike.observer import OBS_SIZE
from solitaire_rl.envs.native_batch import require_native_core

_ERRORS = {
    "bad_observation": "is not a Klondike observation (a value out of its range or out of order)",
    "too_many_actions": f"has more than {SLOTS} legal actions",
    "bad_mask": "marks an action legal that its observation cannot play",
}
"""What a row the native encoder refused is, by the name of its ``solitaire_native.InputError``."""


def _encode(observations: np.ndarray, masks: np.ndarray | None, width: int) -> np.ndarray:
    require_native_core()
    from solitaire_native import klondike_policy_inputs

    return encode_rows(klondike_policy_inputs, observations, np.int64, OBS_SIZE, masks,
                       NUM_ACTIONS, width, _ERRORS)


def klondike_compact_batch(observations: np.ndarray, masks: np.ndarray | None = None) -> np.ndarray:
    """The ``klondike-compact`` rows of stacked Klondike observations (the masks are not read)."""
    return _encode(observations, None, KLONDIKE_COMPACT_SIZE)


def klondike_actions_batch(observations: np.ndarray, masks: np.ndarray | None) -> np.ndarray:
    """The ``klondike-actions`` rows of stacked Klondike observations and their action masks."""
    if masks is None:
        raise MalformedInputError("the klondike-actions encoding needs the action masks")
    return _encode(observations, masks, KLONDIKE_ACTIONS_SIZE)


__all__ = ["klondike_actions_batch", "klondike_compact_batch"]
