"""The contract every environment of the project keeps, whichever the game and the implementation.

Both games (Pyramid, Klondike) and both implementations (the Python single env and the native
batched env, with its one-game view) check their input here, so that the same mistake gets the
same error everywhere (docs/environments.md, "One contract"; ``tests/test_env_contract.py``):

* an action is read with :func:`operator.index` (Python and NumPy integers); a ``bool``, a float,
  a string or ``None`` is :class:`solitaire_rl.envs.errors.MalformedInputError`, and so is an integer outside
  ``0..n-1`` (:func:`check_action`);
* reset options are checked before anything changes, the seed included: an unknown key is
  :class:`MalformedInputError` naming the allowed ones (:func:`check_reset_options`);
* ``step()`` before the first ``reset()`` is Gymnasium's :class:`gymnasium.error.ResetNeeded`
  (:func:`require_reset`);
* the old keyword spellings warn with :class:`DeprecationWarning` (:func:`renamed_keyword`).
"""

from __future__ import annotations

import operator
import warnings
from collections.abc import Collection
from typing import Any, TypeVar

import numpy as np
from gymnasium.error import ResetNeeded

from solitaire_rl.envs.errors import MalformedInputError

T = TypeVar("T")

RESET_BEFORE_STEP = "call reset() before step()"


def check_action(action: object, num_actions: int) -> int:
    """``action`` as a plain ``int`` in ``0..num_actions-1``, or :class:`MalformedInputError`.

    Accepts what :func:`operator.index` accepts (``int``, NumPy integers, 0-d integer arrays) but
    not booleans; the message shows an integer as a plain number (``467``, not ``np.int64(467)``).
    """
    top = num_actions - 1
    if isinstance(action, bool | np.bool_):
        raise MalformedInputError(f"{action!r} is not an action: actions are integers 0..{top}, not booleans")
    try:
        index = operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        raise MalformedInputError(
            f"{action!r} is not an action: actions are integers 0..{top}, not {type(action).__name__}"
        ) from None
    if not 0 <= index <= top:
        raise MalformedInputError(f"{index} is not an action: actions are integers 0..{top}")
    return int(index)


def check_reset_options(options: dict[str, Any] | None, allowed: Collection[str]) -> dict[str, Any]:
    """A copy of ``reset``'s ``options``; :class:`MalformedInputError` naming the allowed keys for any
    other key (raised before the env changes or reseeds)."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise MalformedInputError(f"reset options must be a dict, not {type(options).__name__}")
    unknown = set(options) - set(allowed)
    if unknown:
        raise MalformedInputError(
            f"unknown reset option(s) {sorted(unknown)}: the options are {sorted(allowed)}")
    return dict(options)


def require_reset(started: bool, what: str = "step()") -> None:
    """:class:`ResetNeeded` unless the env has been reset once."""
    if not started:
        raise ResetNeeded(f"call reset() before {what}")


def renamed_keyword(new_value: T, old_value: T | None, *, new: str, old: str, default: T) -> T:
    """The value of a keyword that has a deprecated old spelling.

    ``old_value`` is ``None`` when the old spelling was not given; otherwise it warns
    (:class:`DeprecationWarning`) and is used, unless the new spelling was given a different value
    too (:class:`MalformedInputError`).
    """
    if old_value is None:
        return new_value
    warnings.warn(f"the keyword {old}= is deprecated: use {new}=", DeprecationWarning, stacklevel=3)
    if new_value != default and new_value != old_value:
        raise MalformedInputError(f"give {new}= or its deprecated spelling {old}=, not both")
    return old_value


def check_max_episode_steps(steps: object) -> int | None:
    """``max_episode_steps`` of a native batch: ``None`` (never truncate) or a positive integer."""
    if steps is None:
        return None
    if isinstance(steps, bool) or not isinstance(steps, int | np.integer) or steps < 1:
        raise MalformedInputError(
            f"max_episode_steps must be None (never truncate) or a positive integer, not {steps!r}")
    return int(steps)


__all__ = [
    "RESET_BEFORE_STEP", "check_action", "check_max_episode_steps", "check_reset_options", "renamed_keyword",
    "require_reset",
]
