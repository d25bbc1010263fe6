"""What the native batched environments of both games share: the core's loader, the autoreset
codes, and the per-game deal streams (:class:`DealStreams`).

Sub-env ``i`` seeded with ``S`` deals what the single env's ``reset(seed=S + i)`` deals: each game
has its own ``np.random.Generator``, seeded as Gymnasium seeds the single env, from which a
:data:`DealSampler` draws the deal number of each episode, in Python. The next number is drawn in
advance (:attr:`DealStreams.pending`) so that a game ending inside the native step can be dealt at
once, its k-th random deal still being its generator's k-th draw.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium.error import ResetNeeded
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode

from envs.errors import MalformedInputError

AUTORESET_CODES = {AutoresetMode.NEXT_STEP: 0, AutoresetMode.SAME_STEP: 1, AutoresetMode.DISABLED: 2}
"""The native cores' codes for Gymnasium's autoreset modes."""

DealSampler = Callable[[int, np.random.Generator], int]
"""``sampler(i, rng)``: the deal number sub-env ``i`` deals next, drawn from its generator ``rng``."""


def native_core() -> Any:
    """The extension module ``solitaire_native``, or an ``ImportError`` that says how to build it."""
    try:
        import solitaire_native
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise ImportError(
            "the native core 'solitaire_native' is not built: run `pip install -e .` from the repository root"
        ) from exc
    return solitaire_native


class DealStreams:
    """One generator per game and the next deal number each will deal (drawn in advance or now)."""

    def _init_deal_streams(self, n: int, deal_sampler: DealSampler) -> None:
        self.deal_sampler = deal_sampler
        self.pending = np.zeros(n, np.int64)
        """Each game's next deal number, valid where :attr:`_pending_valid` says so."""
        self._pending_valid = np.zeros(n, np.bool_)
        self._rngs: list[np.random.Generator | None] = [None] * n

    def seed(self, index: int, seed: int | None) -> None:
        """Give game ``index`` a generator seeded as Gymnasium seeds the single env."""
        self._rngs[index], _ = seeding.np_random(seed)
        self._pending_valid[index] = False

    def set_rng(self, index: int, rng: np.random.Generator) -> None:
        """Give game ``index`` this generator (the single-env view hands over its ``np_random``)."""
        if self._rngs[index] is not rng:
            self._rngs[index] = rng
            self._pending_valid[index] = False

    def _next_number(self, index: int) -> int:
        """The next deal number of game ``index``: its generator's next draw (made in advance or now)."""
        if self._pending_valid[index]:
            self._pending_valid[index] = False
            return int(self.pending[index])
        return self._draw(index)

    def _draw(self, index: int) -> int:
        rng = self._rngs[index]
        if rng is None:
            self.seed(index, None)
            rng = self._rngs[index]
        number = int(self.deal_sampler(index, rng))  # type: ignore[arg-type]
        if number < 0:
            raise MalformedInputError(f"a deal number is not negative, got {number}")
        return number

    def _draw_pending(self, index: int) -> None:
        self.pending[index] = self._draw(index)
        self._pending_valid[index] = True


class NativeBatch(DealStreams):
    """The stepping both games' batches share; a subclass sets the class attributes and makes
    the arrays (``obs``, ``mask``, ``refusal``, ``outcome``, ``was_reset``, ...) and ``core``."""

    num_actions: int
    deal_prefix: str
    """The random deals' ID without the number (``pyramid-random-v1-``)."""
    refusal_texts: tuple[str | None, ...]
    """The single env's message of each native refusal code."""
    outcome_names: tuple[str | None, ...]
    """The outcome of each native outcome code."""

    num_envs: int
    core: Any
    buffers: Any
    started: bool
    _actions: np.ndarray
    _autoreset_code: int
    was_reset: np.ndarray
    refusal: np.ndarray
    outcome: np.ndarray
    deal_number: np.ndarray
    deal_label: np.ndarray

    def step(self, actions: Any) -> None:
        """One step of every game (results in the arrays); a bad action array changes nothing."""
        if not self.started:
            raise ResetNeeded("call reset() before step()")
        top = self.num_actions - 1
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or not np.issubdtype(acts.dtype, np.integer):
            raise MalformedInputError(
                f"actions must be {self.num_envs} integers 0..{top}, got shape {acts.shape} of {acts.dtype}")
        low, high = int(acts.min()), int(acts.max())
        if low < 0 or high > top:
            bad = low if low < 0 else high
            raise MalformedInputError(f"{bad!r} is not an action: actions are integers 0..{top}")
        np.copyto(self._actions, acts, casting="unsafe")
        self.core.step(self._actions, self.pending, self._autoreset_code, self.buffers)
        if self.was_reset.any():  # those games took their pending deal
            for i in np.flatnonzero(self.was_reset).tolist():
                number = int(self.pending[i])
                self.deal_number[i] = number
                self.deal_label[i] = f"{self.deal_prefix}{number}"
                self._draw_pending(i)

    def refusal_messages(self) -> tuple[np.ndarray, np.ndarray] | None:
        """``(messages, has_message)`` of the last step's illegal actions, or ``None`` if there were none."""
        if not self.refusal.any():
            return None
        has = self.refusal != 0
        messages = np.empty(self.num_envs, object)
        for i in np.flatnonzero(has).tolist():
            messages[i] = self.refusal_texts[self.refusal[i]]
        return messages, has

    def outcomes(self) -> tuple[np.ndarray, np.ndarray] | None:
        """``(outcomes, ended)`` of the games that terminated at the last step, or ``None``."""
        if not self.outcome.any():
            return None
        ended = self.outcome != 0
        out = np.empty(self.num_envs, object)
        for i in np.flatnonzero(ended).tolist():
            out[i] = self.outcome_names[self.outcome[i]]
        return out, ended


__all__ = ["AUTORESET_CODES", "DealSampler", "DealStreams", "NativeBatch", "native_core"]
