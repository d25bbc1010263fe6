"""What the native batched environments of both games share: the core's loader, the autoreset
codes, the per-game deal streams (:class:`DealStreams`), the batch step (:class:`NativeBatch`)
and the Gymnasium vector env around it (:class:`NativeVectorEnv`).

Each game has its own ``np.random.Generator``, from which the deal number of each episode is
drawn in Python (uniformly from the env's split, :mod:`solitaire_rl.envs.splits`, or by a
:data:`DealSampler`). ``reset(seed=S)`` seeds sub-env ``i`` with the 64-bit seed the ``i``-th child
of ``numpy.random.SeedSequence(S).spawn(num_envs)`` generates (:func:`spawn_seeds`), so two seeds
share no stream; a list of seeds gives each sub-env its own. A sub-env given seed ``s`` deals what
the single env's ``reset(seed=s)`` deals (both seeded as Gymnasium seeds an env). The next number is drawn in
advance (:attr:`DealStreams.pending`) so that a game ending inside the native step can be dealt at
once, its k-th random deal still being its generator's k-th draw.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv

from solitaire_rl.envs.contract import check_reset_options, require_reset
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.splits import DealRange
from solitaire_rl.envs.wrappers import TRUNCATED

T = TypeVar("T")

NONE_CODE = "none"
"""The name of every native code enum's 0: a step's refusal or outcome column holds 0 where there is none."""
AUTORESET_CODES = {AutoresetMode.NEXT_STEP: 0, AutoresetMode.SAME_STEP: 1, AutoresetMode.DISABLED: 2}
"""The native cores' codes for Gymnasium's autoreset modes."""

DealSampler = Callable[[int, np.random.Generator], int]
"""``sampler(i, rng)``: the deal number sub-env ``i`` deals next, drawn from its generator ``rng``
(it must lie in the env's split)."""
StreamSeed = int | None
"""What seeds one game's deal stream: an int (as Gymnasium seeds the single env) or ``None``
(fresh entropy)."""


def spawn_seeds(seed: int, n: int) -> list[int]:
    """The seeds of ``n`` independent deal streams from one seed: the 64-bit number each child of
    ``numpy.random.SeedSequence(seed).spawn(n)`` generates. Vector envs seed sub-env ``i`` with the
    ``i``-th (``seed + i`` would make runs with seeds 1 and 2 share all streams but one)."""
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise MalformedInputError(f"a seed is a non-negative integer, not {seed!r}")
    children = np.random.SeedSequence(int(seed)).spawn(n)
    return [int(child.generate_state(1, np.uint64)[0]) for child in children]


def require_native_core() -> None:
    """Import the extension module ``solitaire_native``, or raise an ``ImportError`` that says how to
    build it. Callers then import what they use from it by name, typed by its stub
    (``typings/solitaire_native.pyi``, nanobind's stubgen of the module)."""
    try:
        import solitaire_native  # noqa: F401
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise ImportError(
            "the native core 'solitaire_native' is not built: run `pip install -e .` from the repository root"
        ) from exc


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

    def _init_deal_streams(self, n: int, deal_sampler: DealSampler | None, split: DealRange) -> None:
        self.deal_sampler = deal_sampler
        self.split = split
        """The deals the games play (:mod:`solitaire_rl.envs.splits`)."""
        self.pending = np.zeros(n, np.int64)
        """Each game's next deal number, valid where :attr:`_pending_valid` says so."""
        self._pending_valid = np.zeros(n, np.bool_)
        self._rngs: list[np.random.Generator | None] = [None] * n
        self.last_outcome = np.zeros(n, np.uint8)
        """The native outcome code of each game's episode once it terminated (0 until then): what a
        refused step after the end reports again."""

    def seed(self, index: int, seed: StreamSeed) -> None:
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
        assert rng is not None
        if self.deal_sampler is None:
            return self.split.draw(rng)
        number = int(self.deal_sampler(index, rng))
        if number not in self.split:
            raise MalformedInputError(
                f"the deal sampler gave {number}, not a deal number of the {self.split.name} split "
                f"({self.split.first}..{self.split.last})")
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
    if named[0] != NONE_CODE:  # the arrays' 0 ("nothing to say") is read as such below
        raise RuntimeError(f"native code 0 is {named[0]!r}, not {NONE_CODE!r}")
    missing = sorted(set(named.values()) - set(table))
    if missing:
        raise RuntimeError(f"the native module names codes this Python does not know: {missing}")
    return tuple(table[named[code]] for code in range(len(named)))


class NativeBatch(DealStreams):
    """The stepping both games' batches share; a subclass sets the class attributes, makes ``core``
    and the arrays (:meth:`_init_arrays`: ``obs``, ``mask``, ``refusal``, ``outcome``, ``was_reset``,
    ..., and the native counters by their native names)."""

    num_actions: int
    deal_prefix: str
    """The random deals' ID without the number (``pyramid-random-v1-``)."""
    refusal_texts: tuple[str | None, ...]
    """The single env's message of each native refusal code."""
    outcome_names: tuple[str | None, ...]
    """The outcome of each native outcome code."""
    win_outcome: str
    """The engine's name of a won game's outcome."""
    counters: ClassVar[dict[str, str]]
    """``info`` key -> the batch's array (an attribute) of that per-game counter (``{"pass":
    "pass_number"}``): what the vector envs' infos hold besides the mask and the deal."""

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
    final_obs: np.ndarray
    """Same-step autoreset: the last observation of each game that ended at the last step."""
    final_mask: np.ndarray
    """Same-step autoreset: its last mask."""
    refusal: np.ndarray
    outcome: np.ndarray
    deal_number: np.ndarray
    deal_label: np.ndarray

    def _init_arrays(self, buffers_type: Any, n: int, obs_size: int, obs_dtype: Any) -> None:
        """Allocate the arrays one native call writes, each an attribute named as the native
        buffers name it (``obs``, ``mask``, ..., and every name of ``buffers_type.counter_names``, an
        ``int32`` column each), and hand them to the core by name as :attr:`buffers`."""
        self.obs = np.zeros((n, obs_size), obs_dtype)
        self.mask = np.zeros((n, self.num_actions), np.int8)
        self.reward = np.zeros(n, np.float64)
        self.terminated = np.zeros(n, np.bool_)
        self.truncated = np.zeros(n, np.bool_)
        self.refusal = np.zeros(n, np.uint8)
        self.outcome = np.zeros(n, np.uint8)
        self.was_reset = np.zeros(n, np.bool_)
        self.final_obs = np.zeros((n, obs_size), obs_dtype)
        self.final_mask = np.zeros((n, self.num_actions), np.int8)
        counters = {name: np.zeros(n, np.int32) for name in buffers_type.counter_names}
        for name, column in counters.items():
            setattr(self, name, column)
        self.buffers = buffers_type(
            obs=self.obs, mask=self.mask, reward=self.reward, terminated=self.terminated,
            truncated=self.truncated, refusal=self.refusal, outcome=self.outcome, was_reset=self.was_reset,
            final_obs=self.final_obs, final_mask=self.final_mask, counters=counters)

    def reset(self, indices: Sequence[int], seeds: Sequence[StreamSeed] | None,
              deals: Sequence[object | None] | None) -> None:
        """Reset games ``indices`` with ``seeds`` and ``deals`` (each game's own rules of dealing)."""
        raise NotImplementedError

    def get_state(self, index: int) -> dict[str, Any]:
        """Game ``index``'s whole state as plain values (its position, its step count, whether it
        ended, the deal it plays): :meth:`set_state` puts any game of a batch of the same settings
        back in it, and the same actions then give the same steps. The deal stream is not part of
        it (a later random deal still comes from the game's own generator)."""
        require_reset(self.started, "get_state()")
        index = self._index(index)
        return {**self.core.get_state(index), "deal_number": int(self.deal_number[index]),
                "deal_label": self.deal_label[index], "outcome_code": int(self.last_outcome[index])}

    def set_state(self, index: int, state: dict[str, Any]) -> None:
        """Put game ``index`` in ``state`` (from :meth:`get_state`) and write its row of every array.
        A malformed state is :class:`MalformedInputError` and changes nothing."""
        index = self._index(index)
        if not isinstance(state, dict):
            raise MalformedInputError(f"a state is the dict get_state() gives, not {type(state).__name__}")
        fields = {k: v for k, v in state.items() if k not in ("deal_number", "deal_label", "outcome_code")}
        code = state.get("outcome_code", 0)
        if not isinstance(code, int) or not 0 <= code < len(self.outcome_names):
            raise MalformedInputError(f"not a state of this batch: outcome_code {code!r}")
        try:
            self.core.set_state(index, **fields, buffers=self.buffers)
        except (TypeError, ValueError) as exc:
            raise MalformedInputError(f"not a state of this batch: {exc}") from None
        self.deal_number[index] = int(state.get("deal_number", -1))
        self.deal_label[index] = str(state.get("deal_label", ""))
        self.last_outcome[index] = code
        self.started = True

    def _index(self, index: object) -> int:
        n = len(self.pending)
        if isinstance(index, bool) or not isinstance(index, int | np.integer) or not 0 <= index < n:
            raise MalformedInputError(f"{index!r} is not a sub-env: they are 0..{self.num_envs - 1}")
        return int(index)

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
        self._note_outcomes()
        if self.was_reset.any():  # those games took their pending deal
            for i in np.flatnonzero(self.was_reset).tolist():
                number = int(self.pending[i])
                self.deal_number[i] = number
                self.deal_label[i] = f"{self.deal_prefix}{number}"
                self._draw_pending(i)

    @property
    def win_code(self) -> int:
        """The native outcome code of a won game (the engine's ``WIN``), read by name."""
        return self.outcome_names.index(self.win_outcome)

    def refusal_messages(self) -> tuple[np.ndarray, np.ndarray] | None:
        """``(messages, has_message)`` of the last step's illegal actions, or ``None`` if there were none."""
        return _named(self.refusal, self.refusal_texts)

    def outcomes(self) -> tuple[np.ndarray, np.ndarray] | None:
        """``(outcomes, ended)`` of the games whose episode ended at the last step, or ``None``: a
        terminated game's outcome (again on each refused step after it, autoreset disabled), and
        ``"truncated"`` for a game that only hit the step limit."""
        codes = np.where(self.outcome != 0, self.outcome, np.where(self.terminated, self.last_outcome, 0))
        named = _named(codes, self.outcome_names)
        only_truncated = self.truncated & ~self.terminated
        if not only_truncated.any():
            return named
        n = len(self.outcome)
        out, has = named if named is not None else (np.empty(n, object), np.zeros(n, np.bool_))
        out[only_truncated] = TRUNCATED
        return out, has | only_truncated

    def _note_outcomes(self) -> None:
        """Keep each game's outcome code until it is dealt again (see :attr:`last_outcome`)."""
        ended = self.outcome != 0
        if ended.any():
            self.last_outcome[ended] = self.outcome[ended]
        if self.was_reset.any():  # dealt again (same step: its outcome is in this step's own array)
            self.last_outcome[self.was_reset] = 0


RENDER_MODES = ["rgb_array", "ansi"]
"""What the vector envs render: one picture of their sub-envs' tables in a grid, or their texts."""
DEFAULT_RENDER_ENVS = 16
"""Sub-envs a vector env draws by default (the first ones): a grid of 4 x 4 tables."""


def tile_frames(frames: Sequence[np.ndarray], columns: int | None = None) -> np.ndarray:
    """One picture of equal-sized ``frames`` in a grid, row by row (``columns`` default: the smallest
    square that holds them); empty cells are black."""
    if not frames:
        raise MalformedInputError("no frames to tile")
    n = len(frames)
    cols = columns or math.ceil(math.sqrt(n))
    rows = math.ceil(n / cols)
    height, width, depth = frames[0].shape
    grid = np.zeros((rows * height, cols * width, depth), frames[0].dtype)
    for k, frame in enumerate(frames):
        r, c = divmod(k, cols)
        grid[r * height:(r + 1) * height, c * width:(c + 1) * width] = frame
    return grid


class NativeVectorEnv(VectorEnv):
    """What both games' Gymnasium vector envs over a :class:`NativeBatch` share: choosing the
    sub-envs and seeds a reset touches, the step with its info, the masks, each sub-env's state
    (:meth:`get_state`, :meth:`set_state`) and rendering. A subclass sets ``batch``, ``copy``,
    ``_all`` (every sub-env, read-only), ``render_mode``, ``render_envs`` and ``obs_dtype``; the
    info's counters are the batch's (:attr:`NativeBatch.counters`)."""

    batch: NativeBatch
    copy: bool
    _all: np.ndarray
    render_envs: int = DEFAULT_RENDER_ENVS
    """How many sub-envs (the first ones) :meth:`render` draws."""
    obs_dtype: Any = None
    """The observations' dtype when it is not the native arrays' (a copy in that dtype), else ``None``."""

    def _init_render(self, render_mode: str | None, render_envs: int) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise MalformedInputError(f"render_mode must be None, 'rgb_array' or 'ansi', not {render_mode!r}")
        if isinstance(render_envs, bool) or not isinstance(render_envs, int) or render_envs < 1:
            raise MalformedInputError(f"render_envs must be a positive integer, not {render_envs!r}")
        self.render_mode = render_mode
        self.render_envs = render_envs

    def get_state(self, index: int) -> dict[str, Any]:
        """Sub-env ``index``'s whole state (:meth:`NativeBatch.get_state`): ``set_state(index,
        get_state(index))`` later, and the same actions give the same steps again."""
        return self.batch.get_state(index)

    def set_state(self, index: int, state: dict[str, Any]) -> None:
        """Put sub-env ``index`` (any sub-env of a vector env with the same settings) in ``state``;
        the next step continues from it. Its observation and mask are in :meth:`action_masks` and
        the next step's results."""
        self.batch.set_state(index, state)

    def render(self) -> Any:
        """``rgb_array``: one ``uint8`` picture, the tables of the first :attr:`render_envs` sub-envs in
        a grid (row by row; the single env's card art); ``ansi``: their texts, each under its index."""
        if self.render_mode is None:
            return None
        require_reset(self.batch.started, "render()")
        shown = range(min(self.num_envs, self.render_envs))
        games = [self.batch.game(i) for i in shown]  # type: ignore[attr-defined]
        if self.render_mode == "ansi":
            labels = self.batch.deal_label
            return "\n\n".join(f"[{i}] {labels[i]}\n{g}" for i, g in zip(shown, games, strict=True))
        return tile_frames([self._frame(g) for g in games])

    def _frame(self, game: Any) -> np.ndarray:
        raise NotImplementedError

    def _reset_targets(self, seed: int | Sequence[int | None] | None,
                       options: dict[str, Any]) -> tuple[list[int], list[StreamSeed] | None]:
        """The sub-envs a reset touches (all, or ``options["reset_mask"]``'s) and their seeds
        (``seed``: an int ``S``, sub-env ``i`` getting ``spawn_seeds(S, num_envs)[i]``; one seed or
        ``None`` per sub-env; or ``None``)."""
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
        if isinstance(seed, int | np.integer) and not isinstance(seed, bool):
            streams = spawn_seeds(int(seed), n)
            return indices, [streams[i] for i in indices]
        seed_list = list(seed)  # type: ignore[arg-type]
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
            return (self._obs(), batch.reward.copy(), batch.terminated.copy(), batch.truncated.copy(), info)
        return self._obs(), batch.reward, batch.terminated, batch.truncated, info

    def action_masks(self) -> np.ndarray:
        """Legal actions of every sub-env now, ``np.bool_`` (``num_envs x`` the game's actions)."""
        return self.batch.mask.astype(np.bool_)

    def close_extras(self, **kwargs: Any) -> None:
        return None

    def _obs(self) -> np.ndarray:
        if self.obs_dtype is not None:
            return self.batch.obs.astype(self.obs_dtype)
        return self.batch.obs.copy() if self.copy else self.batch.obs

    def _info(self) -> dict[str, Any]:
        b, every = self.batch, self._all
        info = {"action_mask": b.mask.copy() if self.copy else b.mask, "_action_mask": every,
                "deal_id": b.deal_label.copy(), "_deal_id": every,
                "deal_number": b.deal_number.copy(), "_deal_number": every}
        for key, name in b.counters.items():
            info[key], info[f"_{key}"] = getattr(b, name).copy(), every
        return info


__all__ = ["AUTORESET_CODES", "DEFAULT_RENDER_ENVS", "RENDER_MODES", "DealSampler", "DealStreams",
           "NativeBatch", "NativeVectorEnv", "StreamSeed", "check_reset_options", "require_native_core",
           "spawn_seeds", "tile_frames"]
