"""Gymnasium environment for Klondike draw 3: a thin adapter over :class:`KlondikeGame`."""

from __future__ import annotations

import warnings
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from solitaire_rl.envs.contract import check_action, check_reset_options, renamed_keyword, require_reset
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.human_window import HumanWindow
from solitaire_rl.envs.klondike.actions import ACTION_INDEX, ACTION_NAMES, NUM_ACTIONS, move_of, parse_action
from solitaire_rl.envs.klondike.game import DRAW_COUNTS, KlondikeGame
from solitaire_rl.envs.klondike.observer import (
    BOX,
    MULTIDISCRETE,
    OBS_DTYPE,
    OBS_SIZE,
    check_playable,
    observation_space,
    observe,
)
from solitaire_rl.envs.splits import DEFAULT_SPLIT, check_deal_in_split, deal_range, refuse_position
from solitaire_rl.envs.wrappers import TRUNCATED

DEFAULT_MAX_STEPS = 1000
"""The registration's ``max_episode_steps`` (Gymnasium's ``TimeLimit``) and the native batch's default."""
RESET_OPTIONS = frozenset({"deal", "game"})
FOUNDATION_BONUS = 0.02
"""Shaped reward for each card that reaches a foundation for the first time."""
TURN_UP_BONUS = 0.02
"""Shaped reward for each face-down card turned up."""


class KlondikeEnv(gymnasium.Env[np.ndarray, np.int64]):
    """Klondike solitaire, draw 3 (seed 002), with the player's view only.

    ## Description
    Seven columns of 1..7 cards (only the last face up), a 24-card stock, a waste and four
    foundations built by suit from Ace to King. Tapping the stock deals 3 cards to the waste (only
    its top card is playable); an empty stock is refilled from the waste, unlimited times. Columns
    build down in alternating colour; face-up runs move as a unit; only Kings go to empty columns.
    The rules engine is :class:`solitaire_rl.envs.klondike.game.KlondikeGame`.

    ## Action Space
    ``Discrete(590)``, laid out in :mod:`solitaire_rl.envs.klondike.actions`: 0 taps the stock (draw, or
    recycle
    once the stock is empty); 1 waste to foundation; 2..8 waste to a column; 9..15 a column's last
    card to its foundation; 16..561 run moves (source column, run length 1..13 counted from the
    column's end, target column); 562..589 a foundation's top card back to a column.
    ``action_masks()`` (``np.bool_``) and ``info["action_mask"]`` (``np.int8``) mark the legal
    ones; ``action_name(i)`` (also :data:`ACTION_NAMES` and ``env.action_names``) names them
    (``c2:3>c5``, ``fH>c4``, ...).

    ## Observation Space
    ``MultiDiscrete`` of 190 small integers (``np.int64``; with ``obs_type="box"`` the same values
    as a ``Box`` of ``np.uint8``, an eighth of the bytes) computed by
    :func:`solitaire_rl.envs.klondike.observer.observe`: the 7 columns (19 slots each, face-down cards
    hidden),
    the whole waste from its top, the stock in draw order with never-seen cards hidden, the four
    foundations, each foundation's record, and the recycle count (capped at 31).

    ## Starting State
    ``reset(seed=...)`` draws a deal number ``N`` of the env's split from ``self.np_random`` and
    deals ``klondike-random-v1-N``: **train deals only** (1,000,000 .. 2,147,483,647) unless the env
    was made with another ``split=`` (:mod:`solitaire_rl.envs.splits`). ``reset(options={"deal":
    spec})`` deals ``spec`` instead: a deal ID, a 104-character deal code, 52 card names (list or
    comma-joined), or a Solvitaire JSON deal (dict or text); an env of a split takes only deal IDs
    of that split, ``split="any"`` takes them all. ``reset(options={"game": game})`` continues
    from a copy of a :class:`KlondikeGame` position instead (tests, curricula; ``split="any"``
    only). A malformed or refused deal raises :class:`solitaire_rl.envs.errors.MalformedInputError`
    and leaves the environment as it was.

    ## Rewards
    +1 when the last card reaches the foundations, 0 otherwise (illegal actions included). With
    ``reward_shaping=True``, also +0.02 (:data:`FOUNDATION_BONUS`) for each card reaching a foundation
    for the first time in the episode and +0.02 (:data:`TURN_UP_BONUS`) for each face-down card
    turned up. Both are paid once per card, so moving cards down and up again earns nothing.

    ## Episode End
    Terminated on a win, and when no progress is possible any more
    (:mod:`solitaire_rl.envs.klondike.progress`: no sequence of legal moves can turn up a face-down card, show
    an unseen stock card or put a card on a foundation for the first time), which includes having
    no legal move at all. Once terminated, every further step is refused (nothing changes) and says
    ``terminated=True`` again, until ``reset()``. Truncation is Gymnasium's ``TimeLimit`` from the
    registration's ``max_episode_steps`` (1000 for ``Solitaire/Klondike-v0``, illegal steps included;
    ``gymnasium.make(..., max_episode_steps=N)`` overrides it); the raw class never truncates,
    unless given the deprecated ``max_steps=N``.

    ## Information
    ``info["deal_id"]`` (deal ID, or deal code for a typed-in deal), ``info["action_mask"]``,
    ``info["cards_cleared"]`` (cards on the foundations, 0..52; also under its old name
    ``info["cards_up"]``), ``info["recycles"]``; ``info["illegal_action"]`` (the refusal's English
    reason) after an illegal action, which changes nothing; ``info["outcome"]`` on every final
    step: ``"win"``, ``"no_progress"`` or ``"dead_end"`` when the episode terminates (also on a refused
    step after it), ``"truncated"`` when it only hit the time limit (written by
    :class:`solitaire_rl.envs.wrappers.TruncationOutcome` outside Gymnasium's ``TimeLimit``, as the
    project's ``GameSpec.make_env`` and the training envs wrap it; the raw class writes it for the
    deprecated ``max_steps``).

    ## Arguments
    ``gymnasium.make("Solitaire/Klondike-v0", draw_count=3, reward_shaping=False, max_episode_steps=1000,
    render_mode=None)``; ``draw_count=1`` plays draw 1; ``shaped_reward=`` and ``max_steps=`` are the
    deprecated spellings of ``reward_shaping=`` and ``max_episode_steps=`` (they warn);
    ``render_mode="ansi"`` makes ``render()`` return the table as text, ``"rgb_array"`` as a
    ``(560, 560, 3)`` ``uint8`` picture in the play page's card art
    (:mod:`solitaire_rl.envs.klondike.picture`;
    needs Pillow), and ``"human"`` shows that picture in a pygame window.

    ## Version History
    * v0: initial version.
    """

    metadata = {"render_modes": ["ansi", "rgb_array", "human"], "render_fps": 4}  # noqa: RUF012 (Gymnasium's convention)
    action_names = ACTION_NAMES

    def __init__(self, render_mode: str | None = None, draw_count: int = 3, reward_shaping: bool = False,
                 *, split: str = DEFAULT_SPLIT, obs_type: str = MULTIDISCRETE,
                 shaped_reward: bool | None = None, max_steps: int | None = None) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise MalformedInputError(
                f"render_mode must be None, 'ansi', 'rgb_array' or 'human', not {render_mode!r}"
            )
        reward_shaping = renamed_keyword(reward_shaping, shaped_reward, new="reward_shaping",
                                         old="shaped_reward", default=False)
        if max_steps is not None:
            warnings.warn("the keyword max_steps= is deprecated: use max_episode_steps= (gymnasium.make's "
                          "time limit)", DeprecationWarning, stacklevel=2)
            if isinstance(max_steps, bool) or not isinstance(max_steps, int | np.integer) or max_steps < 1:
                raise MalformedInputError(f"max_steps must be positive, not {max_steps!r}")
        if draw_count not in DRAW_COUNTS:
            raise MalformedInputError(f"draw_count must be 1 or 3, not {draw_count!r}")
        self.split = deal_range(split)
        """The deals this env plays (:mod:`solitaire_rl.envs.splits`)."""
        self.render_mode = render_mode
        self._window: HumanWindow | None = None
        self.draw_count = draw_count
        self.reward_shaping = bool(reward_shaping)
        self.max_steps = None if max_steps is None else int(max_steps)
        """The deprecated self-truncation (``None``: the raw class never truncates)."""
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = observation_space(obs_type)
        self.obs_type = obs_type
        self.game: KlondikeGame | None = None
        self._label = ""
        self._steps = 0
        self._terminated = False
        self._dtype: type = np.uint8 if obs_type == BOX else OBS_DTYPE
        self._obs = np.zeros(OBS_SIZE, self._dtype)
        self._mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)

    @property
    def shaped_reward(self) -> bool:
        """Deprecated name of :attr:`reward_shaping`."""
        return self.reward_shaping

    # ---------------------------------------------------------------- helpers
    def _compute_mask(self, game: KlondikeGame | None = None) -> np.ndarray:
        """The legal actions of ``game`` (default: the env's own, e.g. after a test undid a move)."""
        game = self.game if game is None else game
        assert game is not None
        return action_mask(game)

    def _info(self, game: KlondikeGame) -> dict[str, Any]:
        return game_info(game, self._label, self._mask)

    def action_masks(self) -> np.ndarray:
        """Legal actions as ``np.bool_`` (what sb3-contrib's MaskablePPO asks for)."""
        return self._mask

    def action_name(self, action: int) -> str:
        """A readable name for an action index, e.g. ``"draw"``, ``"c2:3>c5"``, ``"fH>c4"``."""
        return ACTION_NAMES[check_action(action, NUM_ACTIONS)]

    def parse_action(self, text: str) -> int:
        """The action index of a move's text (what :meth:`action_name` writes, or the move's own
        spelling); :class:`~solitaire_rl.envs.errors.MalformedInputError` for anything else."""
        return parse_action(text)

    # -------------------------------------------------------------- Gymnasium
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        options = check_reset_options(options, RESET_OPTIONS)
        position, spec = options.get("game"), options.get("deal")
        if position is not None and spec is not None:
            raise MalformedInputError("give 'deal' or 'game', not both")
        game: KlondikeGame | None = None
        if position is not None:  # every option is read before anything changes, the seed included
            if not isinstance(position, KlondikeGame):
                raise MalformedInputError(
                    f"'game' takes a KlondikeGame position, not {type(position).__name__}")
            refuse_position(self.split)
            game = check_playable(position.copy())
        elif spec is not None:
            game = KlondikeGame(spec, draw_count=self.draw_count)
            assert game.deal is not None
            check_deal_in_split(game.deal, "klondike", self.split)
        super().reset(seed=seed)
        if game is None:
            number = self.split.draw(self.np_random)
            game = KlondikeGame(f"klondike-random-v1-{number}", draw_count=self.draw_count)
        self.game = game
        self._label = game.deal.label if game.deal is not None else ""
        self._steps = 0
        self._terminated = game.is_won()
        self._obs = observe(game, self._dtype)
        self._mask = self._compute_mask(game)
        if self.render_mode == "human":
            self.render()
        return self._obs, self._info(game)

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        game = self.game
        require_reset(game is not None)
        assert game is not None
        action = check_action(action, NUM_ACTIONS)
        self._steps += 1
        truncated = self.max_steps is not None and self._steps >= self.max_steps
        if not self._mask[action]:  # refused (after a win every action is): nothing changes
            info = self._info(game)
            refusal = game.refusal(move_of(game, action))
            info["illegal_action"] = refusal.en if refusal is not None else "not legal now"
            if self._terminated:
                info["outcome"] = game.outcome()
            elif truncated:
                info["outcome"] = TRUNCATED
            return self._obs.copy(), 0.0, self._terminated, truncated, info
        if self.reward_shaping:
            records = sum(game.best) * FOUNDATION_BONUS - sum(game.hidden) * TURN_UP_BONUS
        game.push(move_of(game, action))
        self._obs = observe(game, self._dtype)
        self._mask = self._compute_mask(game)
        won = game.is_won()
        terminated = self._terminated = self._terminated or won or not game.progress_possible()
        reward = 1.0 if won else 0.0
        if self.reward_shaping:
            reward += sum(game.best) * FOUNDATION_BONUS - sum(game.hidden) * TURN_UP_BONUS - records
        info = self._info(game)
        if terminated:
            info["outcome"] = game.outcome()
        elif truncated:
            info["outcome"] = TRUNCATED
        if self.render_mode == "human":
            self.render()
        return self._obs, reward, terminated, truncated, info

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            return None
        require_reset(self.game is not None, "render()")
        assert self.game is not None
        if self.render_mode == "ansi":
            return str(self.game)
        from solitaire_rl.envs.klondike.picture import klondike_frame

        frame = klondike_frame(self.game)
        if self.render_mode == "rgb_array":
            return frame
        if self._window is None:
            self._window = HumanWindow("Klondike", self.metadata["render_fps"])
        self._window.show(frame)
        return None

    def close(self) -> None:
        if self._window is not None:
            self._window.close()
            self._window = None


def action_mask(game: KlondikeGame) -> np.ndarray:
    """The legal actions of ``game`` as ``np.bool_``."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    mask[[ACTION_INDEX[m] for m in game.legal_moves()]] = True
    return mask


def game_info(game: KlondikeGame, deal_label: str, mask: np.ndarray) -> dict[str, Any]:
    """The ``info`` the env hands over at ``game`` (``mask``: its legal actions)."""
    return {
        "deal_id": deal_label,
        "action_mask": mask.astype(np.int8),
        "cards_cleared": game.cards_up,
        "cards_up": game.cards_up,
        "recycles": game.recycles,
    }


def player_view(game: KlondikeGame) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
    """What ``Solitaire/Klondike-v0`` hands a player at ``game``: observation, mask (``np.bool_``)
    and info; the play server's advisors ask their players with it."""
    mask = action_mask(game)
    label = game.deal.label if game.deal is not None else "position"
    return observe(game), mask, game_info(game, label, mask)


__all__ = [
    "DEFAULT_MAX_STEPS",
    "FOUNDATION_BONUS",
    "RESET_OPTIONS",
    "TURN_UP_BONUS",
    "KlondikeEnv",
    "action_mask",
    "game_info",
    "player_view",
]
