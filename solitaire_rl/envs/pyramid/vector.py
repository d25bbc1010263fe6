"""Pyramid stepped natively, N games at a time: a Gymnasium ``VectorEnv`` over the C++ batch.

``gymnasium.make_vec("Solitaire/Pyramid-v0", num_envs=N, vectorization_mode="vector_entry_point")``
(``stock_top_playable=False`` for seed 001, ``reward_shaping=True`` as in the single env) returns a
:class:`PyramidVectorEnv`. The rules, observation, mask, rewards and episode ends are those of
:class:`solitaire_rl.envs.pyramid.env.PyramidEnv` (the reference; ``tests/test_native_vec_pyramid.py`` holds
the
native copy to it step by step); the games live in ``native/src/pyramid/env.cpp`` and one call
steps them all with the GIL released, writing into NumPy arrays allocated once here.

Dealing: a ``np.random.Generator`` per sub-env draws the deal number ``N`` of
``pyramid-random-v1-N`` from the env's split (``split="train"`` by default:
:mod:`solitaire_rl.envs.splits`) in Python, once per episode, and the C++ core shuffles the cards
from that ID exactly as :mod:`solitaire_rl.envs.rng` does (the same text, FNV-1a, SplitMix64,
Fisher-Yates; a test compares the two). ``reset(seed=S)`` seeds sub-env ``i`` with
``spawn_seeds(S, num_envs)[i]``, drawn from ``numpy.random.SeedSequence(S).spawn(num_envs)``
(:func:`solitaire_rl.envs.native_batch.spawn_seeds`: two seeds share no deal stream);
``reset(seed=[s0, s1, ...])`` seeds sub-env ``i`` with ``s_i``; a sub-env seeded with ``s`` deals
what ``PyramidEnv.reset(seed=s)`` of the same split deals. A
deal given by ``options={"deal": ...}`` is resolved by :func:`solitaire_rl.envs.deals.resolve_deal`,
checked against the split as the single env checks it, and its 52 cards handed over as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from solitaire_rl.envs.cards import rank
from solitaire_rl.envs.contract import check_action, check_max_episode_steps, check_reset_options
from solitaire_rl.envs.deals import DEAL_NUMBERS, Deal, resolve_deal
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.native_batch import (
    AUTORESET_CODES,
    DEFAULT_RENDER_ENVS,
    RENDER_MODES,
    DealSampler,
    NativeBatch,
    NativeVectorEnv,
    codes_by_name,
    require_native_core,
)
from solitaire_rl.envs.pyramid.actions import NUM_ACTIONS, action_name, parse_action
from solitaire_rl.envs.pyramid.env import check_position
from solitaire_rl.envs.pyramid.game import DEAD_END, WIN, PyramidGame
from solitaire_rl.envs.pyramid.layout import NUM_PYRAMID
from solitaire_rl.envs.pyramid.messages import Refusal
from solitaire_rl.envs.pyramid.observation import OBSERVATION_SIZE
from solitaire_rl.envs.splits import DEFAULT_SPLIT, DealRange, check_deal_in_split, deal_range

REFUSAL_TEXTS: dict[str, str | None] = {"none": None, **{r.name.lower(): r.en for r in Refusal}}
"""The single env's message of each native refusal (``solitaire_native.PyramidRefusal``), by name."""
OUTCOME_NAMES: dict[str, str | None] = {"none": None, WIN: WIN, DEAD_END: DEAD_END}
"""The outcome of each native outcome (``solitaire_native.PyramidOutcome``), by name."""
RESET_OPTIONS = frozenset({"deal", "deals", "game", "reset_mask"})



def random_deal_number(_index: int, rng: np.random.Generator) -> int:
    """The ``split="any"`` draw: ``pyramid-random-v1-N`` with ``N`` below :data:`DEAL_NUMBERS` (the same
    as the default sampler of a ``split="any"`` batch)."""
    return int(rng.integers(DEAL_NUMBERS))


class PyramidBatch(NativeBatch):
    """The native games of one vector env and the arrays they write (no Gymnasium API).

    Shared by :class:`PyramidVectorEnv`, :class:`NativePyramidEnv` and the stable-baselines3
    adapter (``solitaire_rl/training/native_vec_env.py``). ``autoreset`` is how a step treats a game that
    ended (:data:`AUTORESET_CODES`); :attr:`pending` holds each game's next deal number, drawn in
    advance from its generator so that a game ending inside the native step can be dealt at once.
    """

    num_actions = NUM_ACTIONS
    win_outcome = WIN
    counters: ClassVar[dict[str, str]] = {"pass": "pass_number", "recycles": "recycles",
                                          "cards_cleared": "cards_cleared", "cards_left": "cards_left"}
    """``info`` key -> the array (an attribute) of that per-game counter."""
    pass_number: np.ndarray
    """Each game's pass 1..3 (a native counter, ``PyramidBuffers.counter_names``)."""
    cards_left: np.ndarray
    """Each game's pyramid cards left (a native counter)."""
    deal_prefix = "pyramid-random-v1-"

    def __init__(self, num_envs: int, *, stock_top_playable: bool, reward_shaping: bool,
                 max_episode_steps: int | None, autoreset: AutoresetMode, num_threads: int = 1,
                 deal_sampler: DealSampler | None = None, split: str | DealRange = DEFAULT_SPLIT) -> None:
        if not isinstance(num_envs, int | np.integer) or num_envs < 1:
            raise MalformedInputError(f"num_envs must be a positive integer, not {num_envs!r}")
        steps = check_max_episode_steps(max_episode_steps)
        if autoreset not in AUTORESET_CODES:
            raise MalformedInputError(
                f"autoreset_mode must be one of {list(AUTORESET_CODES)}, not {autoreset!r}")
        if not isinstance(num_threads, int) or not 1 <= num_threads <= 256:
            raise MalformedInputError(f"num_threads must be an integer 1..256, not {num_threads!r}")
        n = self.num_envs = int(num_envs)
        self.stock_top_playable = bool(stock_top_playable)
        self.autoreset = autoreset
        self._autoreset_code = AUTORESET_CODES[autoreset]
        require_native_core()
        from solitaire_native import PyramidBatch, PyramidBuffers, PyramidOutcome, PyramidRefusal

        self.refusal_texts = codes_by_name(PyramidRefusal, REFUSAL_TEXTS)
        self.outcome_names = codes_by_name(PyramidOutcome, OUTCOME_NAMES)
        self.core = PyramidBatch(n, self.stock_top_playable, bool(reward_shaping), steps or 0, num_threads)
        self._init_arrays(PyramidBuffers, n, OBSERVATION_SIZE, np.float32)
        self.deal_number = np.full(n, -1, np.int64)
        """The deal number each game is playing (-1: a deal given by its cards)."""
        self.deal_label = np.empty(n, object)
        """``info["deal_id"]`` of each game: the deal ID, or the deal code of a given deal."""
        self._init_deal_streams(n, deal_sampler, deal_range(split))
        self._actions = np.zeros(n, np.int64)
        self.started = False

    def game(self, index: int) -> PyramidGame:
        """Game ``index``'s position as a Python :class:`PyramidGame` (no history): what rendering draws.

        The native game keeps ranks only; the cards come from the deal it plays (``deal_label``), and
        its stock slots (the deal's stock order) give the stock, the waste and what was seen.
        """
        state = self.get_state(index)
        game = PyramidGame(state["deal_label"], stock_top_playable=self.stock_top_playable)
        slots = game.deal.cards[NUM_PYRAMID:]
        present, cursor = state["present"], state["cursor"]
        game.removed = state["removed"]
        game.stock = [slots[s] for s in reversed(range(cursor, len(slots))) if (present >> s) & 1]
        game.waste = [slots[s] for s in range(cursor) if (present >> s) & 1]
        game.pass_number = state["pass_number"]
        game.seen = sum(1 << c for c in game.pyramid)
        game.seen |= sum(1 << slots[s] for s in range(len(slots)) if (state["seen"] >> s) & 1)
        return game

    @property
    def cards_cleared(self) -> np.ndarray:
        """Pyramid cards removed in each game (``info["cards_cleared"]``: ``28 - cards_left``)."""
        return NUM_PYRAMID - self.cards_left

    @property
    def recycles(self) -> np.ndarray:
        """Times each game's waste was turned over (``info["recycles"]``: ``pass - 1``)."""
        return self.pass_number - 1

    # ------------------------------------------------------------- dealing
    def reset(self, indices: Sequence[int], seeds: Sequence[int | None] | None,
              deals: Sequence[object | None] | None) -> None:
        """Reset games ``indices``: ``seeds[k]`` (``None``: keep its generator), ``deals[k]`` (``None``:
        the next random deal of its generator). Every deal is read before any game changes.

        A game's k-th random deal since its seeding is its generator's k-th draw, as in the single
        env, whether it was dealt here or by an autoreset inside the native step.
        """
        split = self.split
        resolved: list[Deal | PyramidGame | None] = []
        for d in deals or [None] * len(indices):
            if d is None:
                resolved.append(None)
            elif isinstance(d, PyramidGame):
                resolved.append(check_position(d, self.stock_top_playable, split))
            else:
                resolved.append(check_deal_in_split(resolve_deal(d, "pyramid"), "pyramid", split))
        for k, i in enumerate(indices):
            if seeds is not None and seeds[k] is not None:
                self.seed(i, seeds[k])
        random_indices, numbers = [], []
        for i, deal in zip(indices, resolved, strict=True):
            if deal is None:
                number = self._next_number(i)
                random_indices.append(i)
                numbers.append(number)
                self.deal_number[i] = number
                self.deal_label[i] = f"pyramid-random-v1-{number}"
            elif isinstance(deal, PyramidGame):
                self.core.set_state(i, **native_state(deal), elapsed=0, needs_reset=False,
                                    buffers=self.buffers)
                self.deal_number[i] = -1
                self.deal_label[i] = deal.deal.label
            else:
                self.core.reset_cards(i, np.asarray(deal.cards, np.uint8), self.buffers)
                random = deal.deal_id is not None and deal.deal_id.kind == "random"
                self.deal_number[i] = deal.deal_id.number if random else -1  # type: ignore[union-attr]
                self.deal_label[i] = deal.label
            self.last_outcome[i] = 0
            if not self._pending_valid[i]:
                self._draw_pending(i)
        if random_indices:
            self.core.reset_random(np.asarray(random_indices, np.int64), np.asarray(numbers, np.int64),
                                   self.buffers)
        self.started = True


def native_state(game: PyramidGame) -> dict[str, Any]:
    """The native game state of a :class:`PyramidGame` position (``PyramidBatch.set_state``'s game
    fields; :meth:`PyramidBatch.game` is the way back). The stock and the waste always hold the
    deal's stock order (waste bottom..top, then stock top..bottom), so a slot's place follows from
    the lists, and any cursor between the waste's slots and the stock's reads the same."""
    cards = game.deal.cards
    slots = cards[NUM_PYRAMID:]
    slot_of = {card: s for s, card in enumerate(slots)}
    waste = [slot_of[c] for c in game.waste]
    stock = [slot_of[c] for c in game.stock]
    return {
        "pyramid_ranks": [rank(c) for c in cards[:NUM_PYRAMID]],
        "stock_ranks": [rank(c) for c in slots],
        "removed": game.removed,
        "present": sum(1 << s for s in waste + stock),
        "seen": sum(1 << s for s, c in enumerate(slots) if (game.seen >> c) & 1),
        "cursor": max(waste) + 1 if waste else min(stock, default=len(slots)),
        "pass_number": game.pass_number,
    }


def _check_options(options: dict[str, Any] | None) -> dict[str, Any]:
    return check_reset_options(options, RESET_OPTIONS)


class PyramidVectorEnv(NativeVectorEnv):
    """``num_envs`` Pyramid games stepped natively (see the module docstring).

    Spaces: ``single_observation_space`` and ``single_action_space`` are the single env's
    (``Box(0, 1, (883,), float32)``, ``Discrete(467)``); ``observation_space`` and
    ``action_space`` are their batches.

    Autoreset: Gymnasium 1.x's ``NEXT_STEP`` (the default, ``metadata["autoreset_mode"]``): the
    step after a sub-env's episode ended resets it (its action is ignored) and returns the reset
    observation and info, reward 0, not terminated, not truncated. ``autoreset_mode=DISABLED``
    leaves ended sub-envs alone; ``reset(options={"reset_mask": m})`` then resets the masked ones.

    Info (every key with its ``_key`` mask, as Gymnasium's vector envs merge infos):
    ``action_mask`` (int8, ``num_envs x 467``), ``deal_id``, ``deal_number`` (-1 for a deal given by
    its cards), ``pass``, ``recycles`` (``pass - 1``), ``cards_cleared`` (pyramid cards removed),
    ``cards_left``; ``illegal_action`` (the single env's refusal message) only
    for sub-envs whose action was illegal, which are unchanged; ``outcome`` only for sub-envs whose
    episode ended (``"win"`` / ``"dead_end"`` if it terminated, ``"truncated"`` if it only hit
    ``max_episode_steps``). :meth:`action_masks` gives the masks as ``np.bool_``.

    Arguments: ``num_envs``; ``stock_top_playable``, ``reward_shaping`` (as the single env);
    ``max_episode_steps`` (the registration's 500; ``None``: never truncate); ``num_threads``
    (native threads per step, default 1); ``copy`` (default ``True``: return fresh arrays; ``False``:
    the internal ones, overwritten by the next step); ``deal_sampler`` (who picks the deal numbers,
    :data:`DealSampler`); ``autoreset_mode``; ``split`` (``"train"`` by default, ``"eval"``,
    ``"benchmark"``, ``"any"``: :mod:`solitaire_rl.envs.splits`); ``render_mode`` (``"rgb_array"``:
    the first ``render_envs`` sub-envs' tables in a grid, default 16; ``"ansi"``: their texts).

    State: :meth:`get_state` and :meth:`set_state` save and restore one sub-env (its position and
    step count), e.g. to try several actions from one position.

    The native games cannot be pickled: pickling raises ``TypeError`` with the way to make one in
    another process instead.
    """


    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": RENDER_MODES,  # noqa: RUF012
                "render_fps": 4}

    def __init__(self, num_envs: int = 1, *, stock_top_playable: bool = True, reward_shaping: bool = False,
                 max_episode_steps: int | None = 500, num_threads: int = 1, copy: bool = True,
                 deal_sampler: DealSampler | None = None,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
                 render_mode: str | None = None, split: str | DealRange = DEFAULT_SPLIT,
                 render_envs: int = DEFAULT_RENDER_ENVS) -> None:
        self._init_render(render_mode, render_envs)
        mode = AutoresetMode(autoreset_mode)
        if mode == AutoresetMode.SAME_STEP:
            raise MalformedInputError(
                "autoreset_mode SAME_STEP is not offered: use NEXT_STEP or DISABLED "
                "(stable-baselines3's same-step resets: solitaire_rl.training.native_vec_env)")
        self.batch = PyramidBatch(num_envs, stock_top_playable=stock_top_playable,
                                  reward_shaping=reward_shaping, max_episode_steps=max_episode_steps,
                                  autoreset=mode, num_threads=num_threads, deal_sampler=deal_sampler,
                                  split=split)
        self.num_envs = self.batch.num_envs
        self.metadata = {**self.metadata, "autoreset_mode": mode}
        self.copy = bool(copy)
        self.stock_top_playable = bool(stock_top_playable)
        self.reward_shaping = bool(reward_shaping)
        self.max_episode_steps = max_episode_steps
        self.single_observation_space = spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._all = np.ones(self.num_envs, np.bool_)
        self._all.flags.writeable = False

    def __getstate__(self) -> dict[str, Any]:
        raise TypeError(
            "a PyramidVectorEnv holds native games and cannot be pickled: create it where it is used, "
            "with gymnasium.make_vec('Solitaire/Pyramid-v0', num_envs=N, "
            "vectorization_mode='vector_entry_point')")

    # ------------------------------------------------------------------ API
    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Reset every sub-env (or, with autoreset DISABLED, those in ``options["reset_mask"]``).

        ``seed``: an int ``S`` (sub-env ``i`` gets ``spawn_seeds(S, num_envs)[i]``), a list of one
        seed (or ``None``) per sub-env, or ``None``. ``options["deal"]``: one deal for every
        sub-env; ``options["deals"]``: one per sub-env (``None`` entries draw a random deal,
        :class:`PyramidGame` entries start from that position); ``options["game"]``: one
        :class:`PyramidGame` position for every sub-env (``split="any"`` only, as the single env).
        """
        options = _check_options(options)
        n = self.num_envs
        indices, seeds = self._reset_targets(seed, options)
        given = [key for key in ("deal", "deals", "game") if options.get(key) is not None]
        if len(given) > 1:
            raise MalformedInputError(f"give one of 'deal', 'deals' and 'game', not {given}")
        if options.get("deals") is not None:
            per_env = list(options["deals"])
            if len(per_env) != n:
                raise MalformedInputError(
                    f"'deals' needs one deal (or None) per sub-env ({n}), not {len(per_env)}")
            deals: list[object | None] | None = [per_env[i] for i in indices]
        elif options.get("game") is not None:
            deals = [options["game"]] * len(indices)
        else:
            deals = None if options.get("deal") is None else [options["deal"]] * len(indices)
        self.batch.reset(indices, seeds, deals)
        return self._obs(), self._info()

    def action_name(self, action: int) -> str:
        return action_name(check_action(action, NUM_ACTIONS))

    def parse_action(self, text: str) -> int:
        """The action index of a move's text (what :meth:`action_name` writes, or the move's own
        spelling); :class:`~solitaire_rl.envs.errors.MalformedInputError` for anything else."""
        return parse_action(text)

    def sub_env_view(self) -> NativePyramidEnv:
        """A single-env view (its own one-game batch with this env's settings), for ``check_env``."""
        return NativePyramidEnv(stock_top_playable=self.stock_top_playable,
                                reward_shaping=self.reward_shaping,
                                max_episode_steps=self.max_episode_steps, split=self.batch.split)

    def _frame(self, game: Any) -> np.ndarray:
        from solitaire_rl.envs.pyramid.picture import pyramid_frame

        return pyramid_frame(game)


class NativePyramidEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One native Pyramid game behind the single env's API (a one-game batch, autoreset disabled).

    The same contract as :class:`solitaire_rl.envs.pyramid.env.PyramidEnv` wrapped in its ``TimeLimit``
    (``max_episode_steps``, 500 by default); it exists so that Gymnasium's ``check_env`` can run
    on the native core as a single env.
    """

    metadata = {"render_modes": [], "render_fps": 4}  # noqa: RUF012

    def __init__(self, stock_top_playable: bool = True, reward_shaping: bool = False,
                 max_episode_steps: int | None = 500, *, split: str | DealRange = DEFAULT_SPLIT) -> None:
        self.batch = PyramidBatch(1, stock_top_playable=stock_top_playable, reward_shaping=reward_shaping,
                                  max_episode_steps=max_episode_steps, autoreset=AutoresetMode.DISABLED,
                                  split=split)
        self.stock_top_playable = bool(stock_top_playable)
        self.reward_shaping = bool(reward_shaping)
        self.max_episode_steps = max_episode_steps
        self.observation_space = spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._action = np.zeros(1, np.int64)

    def __getstate__(self) -> dict[str, Any]:
        raise TypeError(
            "a NativePyramidEnv holds a native game and cannot be pickled: create it where it is used")

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        options = _check_options(options)
        if options.get("reset_mask") is not None:
            raise MalformedInputError("reset_mask is a vector env option")
        if options.get("deals") is not None:
            raise MalformedInputError("'deals' is a vector env option: give one 'deal'")
        position, spec = options.get("game"), options.get("deal")
        if position is not None and spec is not None:
            raise MalformedInputError("give 'deal' or 'game', not both")
        deal: object | None  # read before anything changes, the seed included
        if position is not None:
            deal = check_position(position, self.stock_top_playable, self.batch.split)
        else:
            deal = None if spec is None else check_deal_in_split(
                resolve_deal(spec, "pyramid"), "pyramid", self.batch.split)
        super().reset(seed=seed)
        self.batch.set_rng(0, self.np_random)
        self.batch.reset([0], None, [deal])
        return self.batch.obs[0].copy(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        self._action[0] = check_action(action, NUM_ACTIONS)
        b = self.batch
        b.step(self._action)
        info = self._info()
        if b.refusal[0]:
            info["illegal_action"] = b.refusal_texts[b.refusal[0]]
        outcomes = b.outcomes()
        if outcomes is not None and outcomes[1][0]:
            info["outcome"] = outcomes[0][0]
        return (b.obs[0].copy(), float(b.reward[0]), bool(b.terminated[0]), bool(b.truncated[0]), info)

    def action_masks(self) -> np.ndarray:
        return self.batch.mask[0].astype(np.bool_)

    def action_name(self, action: int) -> str:
        return action_name(check_action(action, NUM_ACTIONS))

    def parse_action(self, text: str) -> int:
        """The action index of a move's text (what :meth:`action_name` writes, or the move's own
        spelling); :class:`~solitaire_rl.envs.errors.MalformedInputError` for anything else."""
        return parse_action(text)

    def _info(self) -> dict[str, Any]:
        b = self.batch
        return {"action_mask": b.mask[0].copy(), "deal_id": b.deal_label[0],
                **{key: int(getattr(b, name)[0]) for key, name in b.counters.items()}}


__all__ = [
    "OUTCOME_NAMES", "REFUSAL_TEXTS", "NativePyramidEnv", "PyramidBatch", "PyramidVectorEnv", "native_state",
    "random_deal_number",
]
