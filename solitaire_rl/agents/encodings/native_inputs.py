"""What both games' native batch encoders share (:mod:`solitaire_rl.agents.encodings.klondike_inputs_batch`,
:mod:`solitaire_rl.agents.encodings.pyramid_inputs_batch`): the input checks, the output array and the refusal
of a row
the native code could not encode (``native/src/common/input_error.hpp``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from solitaire_rl.envs.errors import MalformedInputError


def encode_rows(native: Callable[..., Any], observations: np.ndarray, obs_dtype: type, obs_size: int,
                masks: np.ndarray | None, num_actions: int, width: int, errors: Mapping[str, str],
                *options: object) -> np.ndarray:
    """``native(obs, mask, *options, out)`` over stacked observations (and masks: ``None`` for an
    encoding that reads none); ``errors`` words each refusal after "row N", by the name of its
    ``solitaire_native.InputError`` (``native/src/common/input_error.hpp``)."""
    obs: np.ndarray = np.ascontiguousarray(observations, dtype=obs_dtype)
    if obs.ndim != 2 or obs.shape[1] != obs_size:
        raise MalformedInputError(f"observations must be rows of {obs_size} values, not {obs.shape}")
    mask = None
    if masks is not None:
        mask = np.ascontiguousarray(masks).astype(np.int8, copy=False)
        if mask.shape != (obs.shape[0], num_actions):
            raise MalformedInputError(f"masks must be {obs.shape[0]} rows of {num_actions}, not {mask.shape}")
    out = np.empty((obs.shape[0], width), np.float32)
    failed = native(obs, mask, *options, out)
    if failed is not None:
        row, error = failed
        raise MalformedInputError(f"row {row} {errors[error.name]}")
    return out


__all__ = ["encode_rows"]
