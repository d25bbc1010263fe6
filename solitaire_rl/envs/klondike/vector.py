"""Klondike stepped natively, N games at a time: a Gymnasium ``VectorEnv`` over the C++ batch.

``gymnasium.make_vec("Solitaire/Klondike-v0", num_envs=N, vectorization_mode="vector_entry_point")``
(``draw_count``, ``reward_shaping`` as in the single env; ``max_episode_steps``, the registration's
1000 unless given) returns a :class:`KlondikeVectorEnv`. The rules, observation, mask, rewards and
episode ends (win, dead end, the exact no-progress check of :mod:`solitaire_rl.envs.klondike.progress`,
truncation
after ``max_episode_steps``) are those of ``gymnasium.make("Solitaire/Klondike-v0")`` (the reference;
``tests/test_native_vec_klondike.py`` holds the native copy to it step by step); the games live in
``native/src/klondike/env*.cpp`` and ``batch.cpp``, and one call steps them all with the GIL
released, writing into NumPy arrays allocated once here.

Dealing: a ``np.random.Generator`` per sub-env draws the deal number ``N`` of
``klondike-random-v1-N`` from the env's split (``split="train"`` by default:
:mod:`solitaire_rl.envs.splits`) in Python, once per episode, and the C++ core shuffles the cards
from that ID exactly as :mod:`solitaire_rl.envs.rng` does. ``reset(seed=S)`` seeds sub-env ``i``
with ``spawn_seeds(S, num_envs)[i]``, drawn from ``numpy.random.SeedSequence(S).spawn(num_envs)``
(:func:`solitaire_rl.envs.native_batch.spawn_seeds`: two seeds share no deal stream);
``reset(seed=[s0, s1, ...])`` seeds sub-env ``i`` with ``s_i``. A sub-env seeded with ``s`` deals
what ``KlondikeEnv.reset(seed=s)`` of the same split deals. A deal given by ``options={"deal": ...}`` is
resolved by :func:`solitaire_rl.envs.klondike.game.resolve_klondike_deal` and its 52 cards handed
over; ``options={"game": KlondikeGame}`` starts from a copy of that position, as the single env
does (both checked against the split as the single env checks them).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from solitaire_rl.envs.contract import (
    check_action,
    check_max_episode_steps,
    check_reset_options,
    renamed_keyword,
)
from solitaire_rl.envs.deals import DEAL_NUMBERS
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike.actions import ACTION_NAMES, NUM_ACTIONS, parse_action
from solitaire_rl.envs.klondike.env import DEFAULT_MAX_STEPS
from solitaire_rl.envs.klondike.game import (
    DEAD_END,
    DRAW_COUNTS,
    NO_PROGRESS,
    WIN,
    KlondikeGame,
    resolve_klondike_deal,
)
from solitaire_rl.envs.klondike.messages import Refusal
from solitaire_rl.envs.klondike.observer import (
    BOX,
    MULTIDISCRETE,
    OBS_DTYPE,
    OBS_SIZE,
    check_playable,
    observation_space,
)
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
from solitaire_rl.envs.splits import (
    DEFAULT_SPLIT,
    DealRange,
    check_deal_in_split,
    deal_range,
    refuse_position,
)

NOT_LEGAL_NOW = "not legal now"
"""The single env's text for a masked-out action the rules find no reason to refuse (never met)."""
REFUSAL_TEXTS: dict[str, str | None] = {
    "none": None, "not_legal_now": NOT_LEGAL_NOW, **{r.name.lower(): r.en for r in Refusal}}
"""The single env's message of each native refusal (``solitaire_native.KlondikeRefusal``), by name."""
OUTCOME_NAMES: dict[str, str | None] = {"none": None, WIN: WIN, NO_PROGRESS: NO_PROGRESS, DEAD_END: DEAD_END}
"""The outcome of each native outcome (``solitaire_native.KlondikeOutcome``), by name."""
RESET_OPTIONS = frozenset({"deal", "deals", "game", "reset_mask"})


def random_deal_number(_index: int, rng: np.random.Generator) -> int:
    """The ``split="any"`` draw: ``klondike-random-v1-N`` with ``N`` below :data:`DEAL_NUMBERS` (the
    same as the default sampler of a ``split="any"`` batch)."""
    return int(rng.integers(DEAL_NUMBERS))


class KlondikeBatch(NativeBatch):
    """The native games of one vector env and the arrays they write (no Gymnasium API).

    Shared by :class:`KlondikeVectorEnv`, :class:`NativeKlondikeEnv` and the stable-baselines3
    adapter (``solitaire_rl/training/native_vec_env.py``). ``autoreset`` is how a step treats a game that
    ended (:data:`solitaire_rl.envs.native_batch.AUTORESET_CODES`); :attr:`pending` holds each game's next
    deal number, drawn in advance from its generator so that a game ending inside the native step
    can be dealt at once.
    """

    num_actions = NUM_ACTIONS
    win_outcome = WIN
    counters: ClassVar[dict[str, str]] = {"cards_cleared": "cards_cleared", "cards_up": "cards_up",
                                          "recycles": "recycles"}
    """``info`` key -> the array (an attribute) of that per-game counter."""
    cards_up: np.ndarray
    """Each game's cards on the foundations (a native counter, ``KlondikeBuffers.counter_names``)."""
    recycles: np.ndarray
    """Times each game's waste was turned over (a native counter)."""
    deal_prefix = "klondike-random-v1-"

    def __init__(self, num_envs: int, *, draw_count: int = 3, reward_shaping: bool = False,
                 max_episode_steps: int | None = DEFAULT_MAX_STEPS,
                 autoreset: AutoresetMode = AutoresetMode.NEXT_STEP, num_threads: int = 1,
                 deal_sampler: DealSampler | None = None, split: str | DealRange = DEFAULT_SPLIT,
                 shaped_reward: bool | None = None, max_steps: int | None = None) -> None:
        reward_shaping = renamed_keyword(reward_shaping, shaped_reward, new="reward_shaping",
                                         old="shaped_reward", default=False)
        max_episode_steps = renamed_keyword(max_episode_steps, max_steps, new="max_episode_steps",
                                            old="max_steps", default=DEFAULT_MAX_STEPS)
        if not isinstance(num_envs, int | np.integer) or num_envs < 1:
            raise MalformedInputError(f"num_envs must be a positive integer, not {num_envs!r}")
        if draw_count not in DRAW_COUNTS:
            raise MalformedInputError(f"draw_count must be 1 or 3, not {draw_count!r}")
        steps = check_max_episode_steps(max_episode_steps)
        if autoreset not in AUTORESET_CODES:
            raise MalformedInputError(
                f"autoreset_mode must be one of {list(AUTORESET_CODES)}, not {autoreset!r}")
        if not isinstance(num_threads, int) or not 1 <= num_threads <= 256:
            raise MalformedInputError(f"num_threads must be an integer 1..256, not {num_threads!r}")
        n = self.num_envs = int(num_envs)
        self.draw_count = int(draw_count)
        self.autoreset = autoreset
        self._autoreset_code = AUTORESET_CODES[autoreset]
        require_native_core()
        from solitaire_native import KlondikeBatch, KlondikeBuffers, KlondikeOutcome, KlondikeRefusal

        self.refusal_texts = codes_by_name(KlondikeRefusal, REFUSAL_TEXTS)
        self.outcome_names = codes_by_name(KlondikeOutcome, OUTCOME_NAMES)
        self.core = KlondikeBatch(n, self.draw_count, bool(reward_shaping), steps or 0, num_threads)
        self._init_arrays(KlondikeBuffers, n, OBS_SIZE, OBS_DTYPE)
        self.deal_number = np.full(n, -1, np.int64)
        """The deal number each game is playing (-1: a deal given by its cards or a position)."""
        self.deal_label = np.empty(n, object)
        """``info["deal_id"]`` of each game: the deal ID, the deal code of a given deal, or ``""``."""
        self._init_deal_streams(n, deal_sampler, deal_range(split))
        self._actions = np.zeros(n, np.int64)
        self.started = False

    @property
    def cards_cleared(self) -> np.ndarray:
        """Cards on the foundations of each game (``info["cards_cleared"]``, the same as ``cards_up``)."""
        return self.cards_up

    def game(self, index: int) -> KlondikeGame:
        """Game ``index``'s position as a Python :class:`KlondikeGame` (no history): what rendering draws."""
        state = self.get_state(index)
        seen = [c for c in range(52) if (state["seen"] >> c) & 1]
        return KlondikeGame.from_position(
            state["columns"], state["hidden"], state["stock"], state["waste"], state["foundations"],
            draw_count=state["draw_count"], best=state["best"], recycles=state["recycles"], seen=seen)

    # ------------------------------------------------------------- dealing
    def reset(self, indices: Sequence[int], seeds: Sequence[int | None] | None,
              deals: Sequence[object | None] | None) -> None:
        """Reset games ``indices``: ``seeds[k]`` (``None``: keep its generator), ``deals[k]`` (``None``:
        the next random deal of its generator; a :class:`KlondikeGame`: a copy of its position).
        Every deal is read before any game changes."""
        resolved: list[object | None] = []
        for d in deals or [None] * len(indices):
            if d is None:
                resolved.append(None)
            elif isinstance(d, KlondikeGame):  # played with its own draw count, as the single env does
                refuse_position(self.split)
                resolved.append(check_playable(d.copy()))
            else:
                resolved.append(check_deal_in_split(resolve_klondike_deal(d), "klondike", self.split))
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
                self.deal_label[i] = f"klondike-random-v1-{number}"
            elif isinstance(deal, KlondikeGame):
                self.core.reset_state(i, deal.columns, deal.hidden, deal.stock, deal.waste, deal.foundations,
                                      deal.best, deal.seen, deal.recycles, deal.draw_count, self.buffers)
                self.deal_number[i] = -1
                self.deal_label[i] = deal.deal.label if deal.deal is not None else ""
            else:
                self.core.reset_cards(i, np.asarray(deal.cards, np.uint8), self.buffers)  # type: ignore[attr-defined]
                deal_id = deal.deal_id  # type: ignore[attr-defined]
                random = deal_id is not None and deal_id.kind == "random"
                self.deal_number[i] = deal_id.number if random else -1
                self.deal_label[i] = deal.label  # type: ignore[attr-defined]
            self.last_outcome[i] = 0
            if not self._pending_valid[i]:
                self._draw_pending(i)
        if random_indices:
            self.core.reset_random(np.asarray(random_indices, np.int64), np.asarray(numbers, np.int64),
                                   self.buffers)
        self.started = True


def _check_options(options: dict[str, Any] | None) -> dict[str, Any]:
    return check_reset_options(options, RESET_OPTIONS)


class KlondikeVectorEnv(NativeVectorEnv):
    """``num_envs`` Klondike games stepped natively (see the module docstring).

    Spaces: ``single_observation_space`` and ``single_action_space`` are the single env's
    (``MultiDiscrete`` of 190 values, or with ``obs_type="box"`` a ``Box`` of 190 ``uint8``;
    ``Discrete(590)``); ``observation_space`` and ``action_space`` are their batches.

    Autoreset: Gymnasium 1.x's ``NEXT_STEP`` (the default, ``metadata["autoreset_mode"]``): the
    step after a sub-env's episode ended (terminated or truncated) resets it (its action is
    ignored) and returns the reset observation and info, reward 0, not terminated, not truncated.
    ``autoreset_mode=DISABLED`` leaves ended sub-envs alone: a terminated one keeps saying
    ``terminated=True`` (a won game refuses every action), a truncated one ``truncated=True``, as
    the single env does when stepped again; ``reset(options={"reset_mask": m})`` then resets the
    masked ones.

    Info (every key with its ``_key`` mask, as Gymnasium's vector envs merge infos):
    ``action_mask`` (int8, ``num_envs x 590``), ``deal_id``, ``deal_number`` (-1 for a deal given by
    its cards or a position), ``cards_cleared`` (cards on the foundations; also as ``cards_up``),
    ``recycles``; ``illegal_action`` (the single env's
    refusal message) only for sub-envs whose action was illegal, which are unchanged; ``outcome``
    only for sub-envs whose episode ended: ``"win"``, ``"no_progress"``, ``"dead_end"`` if it
    terminated, ``"truncated"`` if it only hit ``max_episode_steps``.
    :meth:`action_masks` gives the masks as ``np.bool_``.

    Reset options: ``deal`` (one deal for every sub-env), ``deals`` (one per sub-env, ``None``
    entries draw a random deal, :class:`KlondikeGame` entries start from that position), ``game``
    (one :class:`KlondikeGame` position for every sub-env), ``reset_mask`` (autoreset DISABLED).

    Arguments: ``num_envs``; ``draw_count``, ``reward_shaping`` (as the single env);
    ``max_episode_steps`` (the registration's 1000; ``None``: never truncate; ``shaped_reward`` and
    ``max_steps`` are deprecated spellings that warn); ``num_threads`` (native threads per step,
    default 1); ``copy`` (default ``True``: return fresh arrays; ``False``: the internal ones,
    overwritten by the next step);
    ``deal_sampler`` (who picks the deal numbers, :data:`solitaire_rl.envs.native_batch.DealSampler`);
    ``autoreset_mode``; ``split`` (``"train"`` by default, ``"eval"``, ``"benchmark"``, ``"any"``:
    :mod:`solitaire_rl.envs.splits`); ``obs_type`` (``"multidiscrete"`` or ``"box"``, as the single
    env); ``render_mode`` (``"rgb_array"``: the first ``render_envs`` sub-envs' tables in a grid,
    default 16; ``"ansi"``: their texts).

    State: :meth:`get_state` and :meth:`set_state` save and restore one sub-env (its position, step
    count and end), e.g. to try several actions from one position.

    The native games cannot be pickled: pickling raises ``TypeError`` with the way to make one in
    another process instead.
    """


    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": RENDER_MODES,  # noqa: RUF012
                "render_fps": 4}

    def __init__(self, num_envs: int = 1, *, draw_count: int = 3, reward_shaping: bool = False,
                 max_episode_steps: int | None = DEFAULT_MAX_STEPS, num_threads: int = 1, copy: bool = True,
                 deal_sampler: DealSampler | None = None,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
                 render_mode: str | None = None, split: str | DealRange = DEFAULT_SPLIT,
                 obs_type: str = MULTIDISCRETE, render_envs: int = DEFAULT_RENDER_ENVS,
                 shaped_reward: bool | None = None, max_steps: int | None = None) -> None:
        reward_shaping = renamed_keyword(reward_shaping, shaped_reward, new="reward_shaping",
                                         old="shaped_reward", default=False)
        max_episode_steps = renamed_keyword(max_episode_steps, max_steps, new="max_episode_steps",
                                            old="max_steps", default=DEFAULT_MAX_STEPS)
        self._init_render(render_mode, render_envs)
        single_space = observation_space(obs_type)
        mode = AutoresetMode(autoreset_mode)
        if mode == AutoresetMode.SAME_STEP:
            raise MalformedInputError(
                "autoreset_mode SAME_STEP is not offered: use NEXT_STEP or DISABLED "
                "(stable-baselines3's same-step resets: solitaire_rl.training.native_vec_env)")
        self.batch = KlondikeBatch(num_envs, draw_count=draw_count, reward_shaping=reward_shaping,
                                   max_episode_steps=max_episode_steps, autoreset=mode,
                                   num_threads=num_threads, deal_sampler=deal_sampler, split=split)
        self.num_envs = self.batch.num_envs
        self.metadata = {**self.metadata, "autoreset_mode": mode}
        self.obs_type = obs_type
        self.obs_dtype = single_space.dtype if obs_type == BOX else None
        self.copy = bool(copy)
        self.draw_count = int(draw_count)
        self.reward_shaping = bool(reward_shaping)
        self.max_episode_steps = max_episode_steps
        self.single_observation_space = single_space
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._all = np.ones(self.num_envs, np.bool_)
        self._all.flags.writeable = False

    def __getstate__(self) -> dict[str, Any]:
        raise TypeError(
            "a KlondikeVectorEnv holds native games and cannot be pickled: create it where it is used, "
            "with gymnasium.make_vec('Solitaire/Klondike-v0', num_envs=N, "
            "vectorization_mode='vector_entry_point')")

    # ------------------------------------------------------------------ API
    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Reset every sub-env (or, with autoreset DISABLED, those in ``options["reset_mask"]``).

        ``seed``: an int ``S`` (sub-env ``i`` gets ``spawn_seeds(S, num_envs)[i]``), a list of one
        seed (or ``None``) per sub-env, or ``None``. Options: see the class docstring.
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
            if not isinstance(options["game"], KlondikeGame):
                raise MalformedInputError("'game' takes a KlondikeGame position")
            deals = [options["game"]] * len(indices)
        else:
            deals = None if options.get("deal") is None else [options["deal"]] * len(indices)
        self.batch.reset(indices, seeds, deals)
        return self._obs(), self._info()

    def action_name(self, action: int) -> str:
        return ACTION_NAMES[check_action(action, NUM_ACTIONS)]

    def parse_action(self, text: str) -> int:
        """The action index of a move's text (what :meth:`action_name` writes, or the move's own
        spelling); :class:`~solitaire_rl.envs.errors.MalformedInputError` for anything else."""
        return parse_action(text)

    @property
    def shaped_reward(self) -> bool:
        """Deprecated name of :attr:`reward_shaping`."""
        return self.reward_shaping

    @property
    def max_steps(self) -> int | None:
        """Deprecated name of :attr:`max_episode_steps`."""
        return self.max_episode_steps

    def sub_env_view(self) -> NativeKlondikeEnv:
        """A single-env view (its own one-game batch with this env's settings), for ``check_env``."""
        return NativeKlondikeEnv(draw_count=self.draw_count, reward_shaping=self.reward_shaping,
                                 max_episode_steps=self.max_episode_steps, split=self.batch.split,
                                 obs_type=self.obs_type)

    def _frame(self, game: Any) -> np.ndarray:
        from solitaire_rl.envs.klondike.picture import klondike_frame

        return klondike_frame(game)


class NativeKlondikeEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One native Klondike game behind the single env's API (a one-game batch, autoreset disabled).

    The same contract as :class:`solitaire_rl.envs.klondike.env.KlondikeEnv` wrapped in its ``TimeLimit``
    (``max_episode_steps``, 1000 by default; without rendering); it exists so that Gymnasium's
    ``check_env`` can run on the native core as a single env.
    """

    metadata = {"render_modes": [], "render_fps": 4}  # noqa: RUF012

    def __init__(self, draw_count: int = 3, reward_shaping: bool = False,
                 max_episode_steps: int | None = DEFAULT_MAX_STEPS, *, split: str | DealRange = DEFAULT_SPLIT,
                 obs_type: str = MULTIDISCRETE, shaped_reward: bool | None = None,
                 max_steps: int | None = None) -> None:
        reward_shaping = renamed_keyword(reward_shaping, shaped_reward, new="reward_shaping",
                                         old="shaped_reward", default=False)
        max_episode_steps = renamed_keyword(max_episode_steps, max_steps, new="max_episode_steps",
                                            old="max_steps", default=DEFAULT_MAX_STEPS)
        self.observation_space = observation_space(obs_type)
        self.batch = KlondikeBatch(1, draw_count=draw_count, reward_shaping=reward_shaping,
                                   max_episode_steps=max_episode_steps, autoreset=AutoresetMode.DISABLED,
                                   split=split)
        self._dtype = self.observation_space.dtype
        self.draw_count = int(draw_count)
        self.reward_shaping = bool(reward_shaping)
        self.max_episode_steps = max_episode_steps
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._action = np.zeros(1, np.int64)

    def __getstate__(self) -> dict[str, Any]:
        raise TypeError(
            "a NativeKlondikeEnv holds a native game and cannot be pickled: create it where it is used")

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
            if not isinstance(position, KlondikeGame):
                raise MalformedInputError("'game' takes a KlondikeGame position")
            refuse_position(self.batch.split)
            deal = check_playable(position.copy())
        else:
            deal = None if spec is None else resolve_klondike_deal(spec)
        super().reset(seed=seed)
        self.batch.set_rng(0, self.np_random)
        self.batch.reset([0], None, [deal])
        return self.batch.obs[0].astype(self._dtype), self._info()

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
        return (b.obs[0].astype(self._dtype), float(b.reward[0]), bool(b.terminated[0]), bool(b.truncated[0]),
                info)

    def action_masks(self) -> np.ndarray:
        return self.batch.mask[0].astype(np.bool_)

    def action_name(self, action: int) -> str:
        return ACTION_NAMES[check_action(action, NUM_ACTIONS)]

    def parse_action(self, text: str) -> int:
        """The action index of a move's text (what :meth:`action_name` writes, or the move's own
        spelling); :class:`~solitaire_rl.envs.errors.MalformedInputError` for anything else."""
        return parse_action(text)

    def _info(self) -> dict[str, Any]:
        b = self.batch
        return {"deal_id": b.deal_label[0], "action_mask": b.mask[0].copy(),
                **{key: int(getattr(b, name)[0]) for key, name in b.counters.items()}}


__all__ = [
    "NOT_LEGAL_NOW", "OUTCOME_NAMES", "REFUSAL_TEXTS", "KlondikeBatch", "KlondikeVectorEnv",
    "NativeKlondikeEnv", "random_deal_number",
]
