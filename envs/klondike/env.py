"""Gymnasium environment for Klondike draw 3: a thin adapter over :class:`KlondikeGame`."""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from envs.errors import MalformedInputError
from envs.human_window import HumanWindow
from envs.klondike.actions import ACTION_INDEX, ACTION_NAMES, NUM_ACTIONS, move_of
from envs.klondike.game import KlondikeGame
from envs.klondike.layout import MAX_COLUMN, NUM_STOCK
from envs.klondike.observer import OBS_DTYPE, OBS_NVEC, observe

DEAL_NUMBERS = 2**31
"""``reset(seed=...)`` deals ``klondike-random-v1-N`` with ``N`` drawn from ``range(DEAL_NUMBERS)``."""
DEFAULT_MAX_STEPS = 1000
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
    The rules engine is :class:`envs.klondike.game.KlondikeGame`.

    ## Action Space
    ``Discrete(590)``, laid out in :mod:`envs.klondike.actions`: 0 taps the stock (draw, or recycle
    once the stock is empty); 1 waste to foundation; 2..8 waste to a column; 9..15 a column's last
    card to its foundation; 16..561 run moves (source column, run length 1..13 counted from the
    column's end, target column); 562..589 a foundation's top card back to a column.
    ``action_masks()`` (``np.bool_``) and ``info["action_mask"]`` (``np.int8``) mark the legal
    ones; :data:`ACTION_NAMES` (also ``env.action_names``) names them (``c2:3>c5``, ``fH>c4``, ...).

    ## Observation Space
    ``MultiDiscrete`` of 190 small integers (``np.int64``) computed by
    :func:`envs.klondike.observer.observe`: the 7 columns (19 slots each, face-down cards hidden),
    the whole waste from its top, the stock in draw order with never-seen cards hidden, the four
    foundations, each foundation's record, and the recycle count (capped at 31).

    ## Starting State
    ``reset(seed=...)`` draws a deal number ``N`` from ``self.np_random`` and deals
    ``klondike-random-v1-N``. ``reset(options={"deal": spec})`` deals ``spec`` instead: a deal ID,
    a 104-character deal code, 52 card names (list or comma-joined), or a Solvitaire JSON deal
    (dict or text). A malformed deal raises :class:`envs.errors.MalformedInputError` and leaves
    the environment as it was. ``reset(options={"game": game})`` continues from a copy of a
    :class:`KlondikeGame` position instead (tests, curricula).

    ## Rewards
    +1 when the last card reaches the foundations, 0 otherwise (illegal actions included). With
    ``shaped_reward=True``, also +0.02 (:data:`FOUNDATION_BONUS`) for each card reaching a foundation
    for the first time in the episode and +0.02 (:data:`TURN_UP_BONUS`) for each face-down card
    turned up. Both are paid once per card, so moving cards down and up again earns nothing.

    ## Episode End
    Terminated on a win, and when no progress is possible any more
    (:mod:`envs.klondike.progress`: no sequence of legal moves can turn up a face-down card, show
    an unseen stock card or put a card on a foundation for the first time), which includes having
    no legal move at all. Truncated after ``max_steps`` steps (default 1000), illegal ones included.
    This environment truncates by itself: register it without ``max_episode_steps``.

    ## Information
    ``info["deal_id"]`` (deal ID, or deal code for a typed-in deal), ``info["action_mask"]``,
    ``info["cards_up"]``, ``info["recycles"]``; ``info["illegal_action"]`` (the refusal's English
    reason) after an illegal action, which changes nothing; ``info["outcome"]`` (``"win"``,
    ``"no_progress"`` or ``"dead_end"``) when the episode terminates.

    ## Arguments
    ``gymnasium.make("Solitaire/Klondike-v0", draw_count=3, shaped_reward=False, max_steps=1000,
    render_mode=None)``; ``draw_count=1`` plays draw 1; ``render_mode="ansi"`` makes ``render()``
    return the table as text, ``"rgb_array"`` as a ``(560, 560, 3)`` ``uint8`` picture in the play
    page's card art (:mod:`envs.klondike.picture`; needs Pillow), and ``"human"`` shows that
    picture in a pygame window.

    ## Version History
    * v0: initial version.
    """

    metadata = {"render_modes": ["ansi", "rgb_array", "human"], "render_fps": 4}  # noqa: RUF012 (Gymnasium's convention)
    action_names = ACTION_NAMES

    def __init__(self, render_mode: str | None = None, draw_count: int = 3, shaped_reward: bool = False,
                 max_steps: int = DEFAULT_MAX_STEPS) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise MalformedInputError(
                f"render_mode must be None, 'ansi', 'rgb_array' or 'human', not {render_mode!r}"
            )
        if max_steps < 1:
            raise MalformedInputError(f"max_steps must be positive, not {max_steps!r}")
        self.render_mode = render_mode
        self._window: HumanWindow | None = None
        self.draw_count = draw_count
        self.shaped_reward = shaped_reward
        self.max_steps = max_steps
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = spaces.MultiDiscrete(OBS_NVEC, dtype=OBS_DTYPE)
        self.game = KlondikeGame(draw_count=draw_count)
        self._label = ""
        self._steps = 0
        self._obs = observe(self.game)
        self._mask = self._compute_mask()

    # ---------------------------------------------------------------- helpers
    def _compute_mask(self) -> np.ndarray:
        mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        index = ACTION_INDEX
        mask[[index[m] for m in self.game.legal_moves()]] = True
        return mask

    def _info(self) -> dict[str, Any]:
        game = self.game
        return {
            "deal_id": self._label,
            "action_mask": self._mask.astype(np.int8),
            "cards_up": game.cards_up,
            "recycles": game.recycles,
        }

    def action_masks(self) -> np.ndarray:
        """Legal actions as ``np.bool_`` (what sb3-contrib's MaskablePPO asks for)."""
        return self._mask

    # -------------------------------------------------------------- Gymnasium
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        options = options or {}
        if isinstance(options.get("game"), KlondikeGame):
            game = options["game"].copy()
            if any(len(col) > MAX_COLUMN for col in game.columns) or len(game.stock_order()) > NUM_STOCK:
                raise MalformedInputError(
                    "the observation holds columns of up to 19 cards and 24 stock and waste cards"
                )
        else:
            spec = options.get("deal")
            if spec is None:
                spec = f"klondike-random-v1-{int(self.np_random.integers(DEAL_NUMBERS))}"
            game = KlondikeGame(spec, draw_count=self.draw_count)
        self.game = game
        self._label = game.deal.label if game.deal is not None else ""
        self._steps = 0
        self._obs = observe(self.game)
        self._mask = self._compute_mask()
        if self.render_mode == "human":
            self.render()
        return self._obs, self._info()

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        action = int(action)
        if not 0 <= action < NUM_ACTIONS:
            raise MalformedInputError(f"action {action} is outside 0..{NUM_ACTIONS - 1}")
        game = self.game
        self._steps += 1
        truncated = self._steps >= self.max_steps
        if not self._mask[action]:
            info = self._info()
            refusal = game.refusal(move_of(game, action))
            info["illegal_action"] = refusal.en if refusal is not None else "not legal now"
            return self._obs.copy(), 0.0, False, truncated, info
        if self.shaped_reward:
            records = sum(game.best) * FOUNDATION_BONUS - sum(game.hidden) * TURN_UP_BONUS
        game.push(move_of(game, action))
        self._obs = observe(game)
        self._mask = self._compute_mask()
        won = game.is_won()
        terminated = won or not game.progress_possible()
        reward = 1.0 if won else 0.0
        if self.shaped_reward:
            reward += sum(game.best) * FOUNDATION_BONUS - sum(game.hidden) * TURN_UP_BONUS - records
        info = self._info()
        if terminated:
            info["outcome"] = game.outcome()
        if self.render_mode == "human":
            self.render()
        return self._obs, reward, terminated, truncated and not terminated, info

    def render(self) -> str | np.ndarray | None:
        if self.render_mode == "ansi":
            return str(self.game)
        if self.render_mode is None:
            return None
        from envs.klondike.picture import klondike_frame

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


__all__ = ["DEAL_NUMBERS", "DEFAULT_MAX_STEPS", "FOUNDATION_BONUS", "TURN_UP_BONUS", "KlondikeEnv"]
