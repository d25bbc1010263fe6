"""What the native batched environments of both games share: the core's loader, the autoreset
codes, the per-game deal streams (:class:`DealStreams`), the batch step (:class:`NativeBatch`)
and the Gymnasium vector env around it (:class:`NativeVectorEnv`).

Sub-env ``i`` seeded with ``S`` deals what the single env's ``reset(seed=S + i)`` deals: each game
has its own ``np.random.Generator``, seeded as Gymnasium seeds the single env, from which a
:data:`DealSampler` draws the deal number of each episode, in Python. The next number is drawn in
advance (:attr:`DealStreams.pending`) so that a game ending inside the native step can be dealt at
once, its k-th random deal still being its generator's k-th draw.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv

from solitaire_rl.envs.contract import check_reset_options, require_reset
from solitaire_rl.envs.errors import MalformedInputError

T = TypeVar("T")

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


def _named(codes: np.ndarray, names: Sequence[Any]) -> tuple[np.ndarray, np.ndarray] | None:
    """``(names[code] where code != 0, code != 0)`` of a batch's code column, or ``None`` if all are 0."""
    if not codes.any():
        return None
    has = codes != 0
    out = np.empty(len(codes), object)
    for i in np.flatnonzero(has).tolist():
        out[i] = names[codes[i]]
    return out, has


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


def codes_by_name(members: Iterable[Any], table: Mapping[str, T]) -> tuple[T, ...]:
    """``table``'s entry for each member of a native enum (its codes 0..n-1, named as the Python
    engine names them), in code order: a code the native side writes reads by name, never by a
    position kept in step by hand. A native name without an entry is a :class:`RuntimeError`."""
    named = {int(m.value): m.name for m in members}
    if sorted(named) != list(range(len(named))):
        raise RuntimeError(f"native codes are not 0..{len(named) - 1}: {sorted(named)}")
    missing = sorted(set(named.values()) - set(table))
    if missing:
        raise RuntimeError(f"the native module names codes this Python does not know: {missing}")
    return tuple(table[named[code]] for code in range(len(named)))


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
    obs: np.ndarray
    mask: np.ndarray
    reward: np.ndarray
    terminated: np.ndarray
    truncated: np.ndarray
    _actions: np.ndarray
    _autoreset_code: int
    was_reset: np.ndarray
    refusal: np.ndarray
    outcome: np.ndarray
    deal_number: np.ndarray
    deal_label: np.ndarray

    def reset(self, indices: Sequence[int], seeds: Sequence[int | None] | None,
              deals: Sequence[object | None] | None) -> None:
        """Reset games ``indices`` with ``seeds`` and ``deals`` (each game's own rules of dealing)."""
        raise NotImplementedError

    def step(self, actions: Any) -> None:
        """One step of every game (results in the arrays); a bad action array changes nothing."""
        require_reset(self.started)
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
        return _named(self.refusal, self.refusal_texts)

    def outcomes(self) -> tuple[np.ndarray, np.ndarray] | None:
        """``(outcomes, ended)`` of the games that terminated at the last step, or ``None``."""
        return _named(self.outcome, self.outcome_names)


class NativeVectorEnv(VectorEnv):
    """What both games' Gymnasium vector envs over a :class:`NativeBatch` share: choosing the
    sub-envs and seeds a reset touches, the step with its info, the masks. A subclass sets
    ``batch``, ``copy``, ``_all`` (every sub-env, read-only) and :attr:`counters`."""

    counters: dict[str, str]
    """``info`` key -> the batch's array of that per-game counter (``{"pass": "pass_number"}``)."""
    batch: NativeBatch
    copy: bool
    _all: np.ndarray

    def _reset_targets(self, seed: int | Sequence[int | None] | None,
                       options: dict[str, Any]) -> tuple[list[int], list[int | None] | None]:
        """The sub-envs a reset touches (all, or ``options["reset_mask"]``'s) and their seeds
        (``seed``: an int ``S``, sub-env ``i`` getting ``S + i``; one seed or ``None`` per sub-env;
        or ``None``)."""
        n = self.num_envs
        indices = list(range(n))
        if options.get("reset_mask") is not None:
            if self.metadata["autoreset_mode"] != AutoresetMode.DISABLED:
                raise MalformedInputError("reset_mask needs autoreset_mode DISABLED")
            reset_mask = np.asarray(options["reset_mask"])
            if reset_mask.shape != (n,) or reset_mask.dtype != np.bool_:
                raise MalformedInputError(f"reset_mask must be {n} booleans")
            indices = np.flatnonzero(reset_mask).tolist()
        if seed is None:
            return indices, None
        if isinstance(seed, int | np.integer):
            return indices, [int(seed) + i for i in indices]
        seed_list = list(seed)
        if len(seed_list) != n:
            raise MalformedInputError(f"give one seed per sub-env ({n}), not {len(seed_list)}")
        return indices, [seed_list[i] for i in indices]

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        batch = self.batch
        batch.step(actions)
        info = self._info()
        refusals = batch.refusal_messages()
        if refusals is not None:
            info["illegal_action"], info["_illegal_action"] = refusals
        outcomes = batch.outcomes()
        if outcomes is not None:
            info["outcome"], info["_outcome"] = outcomes
        if self.copy:
            return (batch.obs.copy(), batch.reward.copy(), batch.terminated.copy(), batch.truncated.copy(),
                    info)
        return batch.obs, batch.reward, batch.terminated, batch.truncated, info

    def action_masks(self) -> np.ndarray:
        """Legal actions of every sub-env now, ``np.bool_`` (``num_envs x`` the game's actions)."""
        return self.batch.mask.astype(np.bool_)

    def close_extras(self, **kwargs: Any) -> None:
        return None

    def _obs(self) -> np.ndarray:
        return self.batch.obs.copy() if self.copy else self.batch.obs

    def _info(self) -> dict[str, Any]:
        b, every = self.batch, self._all
        info = {"action_mask": b.mask.copy() if self.copy else b.mask, "_action_mask": every,
                "deal_id": b.deal_label.copy(), "_deal_id": every,
                "deal_number": b.deal_number.copy(), "_deal_number": every}
        for key, name in self.counters.items():
            info[key], info[f"_{key}"] = getattr(b, name).copy(), every
        return info


__all__ = ["AUTORESET_CODES", "DealSampler", "DealStreams", "NativeBatch", "NativeVectorEnv",
           "check_reset_options", "native_core"]
