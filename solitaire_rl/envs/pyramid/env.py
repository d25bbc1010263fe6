"""Gymnasium environment for Pyramid solitaire: a thin adapter over :class:`PyramidGame`."""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from solitaire_rl.envs.contract import check_action, check_reset_options, require_reset
from solitaire_rl.envs.deals import Deal, DealId, resolve_deal
from solitaire_rl.envs.errors import IllegalMoveError, MalformedInputError
from solitaire_rl.envs.human_window import HumanWindow
from solitaire_rl.envs.pyramid.actions import (
    NUM_ACTIONS,
    action_name,
    action_to_move,
    fill_action_mask,
    parse_action,
)
from solitaire_rl.envs.pyramid.game import PyramidGame
from solitaire_rl.envs.pyramid.layout import NUM_PYRAMID
from solitaire_rl.envs.pyramid.observation import OBSERVATION_SIZE, PyramidObserver, observe
from solitaire_rl.envs.splits import (
    DEFAULT_SPLIT,
    DealRange,
    check_deal_in_split,
    deal_range,
    refuse_position,
)

WIN_REWARD = 1.0
SHAPING_PER_CARD = 0.02
"""Shaped reward per pyramid card removed, when ``reward_shaping=True`` (28 cards: 0.56)."""
RESET_OPTIONS = frozenset({"deal", "game"})


class PyramidEnv(gymnasium.Env[np.ndarray, np.int64]):
    """Pyramid solitaire (seed 000, or seed 001 with ``stock_top_playable=False``).

    ## Description
    28 cards face up in a 7-row pyramid, 24 in a stock. Remove pairs of usable cards that sum to
    13 (A=1, J=11, Q=12) and Kings alone; usable cards are pyramid cards with both covering cards
    gone, the waste top, and in variant 000 the stock top. Draw moves the stock top to the waste;
    once the stock is empty, recycle turns the waste over into a new stock: 3 passes in all. The
    game is won when the 28 pyramid cards are gone, whatever stock and waste still hold. The rules
    are :class:`solitaire_rl.envs.pyramid.game.PyramidGame`'s; this class only translates.

    ## Action Space
    ``Discrete(467)`` (:mod:`solitaire_rl.envs.pyramid.actions`). Places are the pyramid positions 0..27 (apex
    down, rows left to right), 28 = stock top, 29 = waste top. Actions 0..29 remove the King at a
    place; 30..464 remove a pair of places, each unordered pair once in lexicographic order;
    465 draws; 466 recycles. ``action_masks()`` (``np.bool_``, sb3-contrib's convention) and
    ``info["action_mask"]`` (``np.int8``) mark the legal ones; ``action_name(i)`` names one
    (``"r7c1+r7c2"``, ``"r7c3 (King)"``, ``"stock+waste"``, ``"draw"``).

    ## Observation Space
    ``Box(0, 1, (883,), float32)``: what a person at the table knows and nothing more
    (:mod:`solitaire_rl.envs.pyramid.observation`, views by ``split_observation``):

    * 28 x 15 pyramid: rank one-hot, ``on_table``, ``available``;
    * 24 x 19 stock slots in the deal's stock order: rank one-hot (zero until the card has been
      face up: the stock top is face up in variant 000 and face down in 001; once seen, a card
      stays known, undo included), ``seen``, ``in_stock``, ``in_waste``, ``gone``, ``stock_top``,
      ``waste_top``. Waste bottom..top then stock top..bottom is always the deal's stock order,
      so these slots give the stock and waste exactly, as far as they have been seen;
    * 7 globals: pass one-hot (3), stock count / 24, waste count / 24, pyramid cards left / 28,
      ``stock_top_usable``.

    A policy without memory therefore knows everything a player who remembers knows.

    ## Starting State
    ``reset(seed=s)`` draws a deal number ``N`` of the env's split from ``self.np_random`` and deals
    ``pyramid-random-v1-N``: **train deals only** (1,000,000 .. 2,147,483,647) unless the env was
    made with another ``split=`` (:mod:`solitaire_rl.envs.splits`). ``reset(options={"deal": d})``
    deals ``d``: a deal ID, a 104-char deal code, or 52 card names (a list or one comma-separated
    string); an env of a split takes only deal IDs of that split, ``split="any"`` takes them all.
    ``reset(options={"game": game})`` continues from a copy of a :class:`PyramidGame` position of
    the env's variant instead (``split="any"`` only). A bad or refused deal raises
    :class:`solitaire_rl.envs.errors.MalformedInputError` and changes nothing.

    ## Rewards
    ``+1`` on the move that clears the pyramid, ``0`` otherwise. With ``reward_shaping=True``,
    also ``+0.02`` per pyramid card removed (stock and waste cards earn nothing). An illegal
    action earns 0.

    ## Episode End
    Terminated on a win or a dead end (no legal action: no pair, no King, nothing to draw and no
    recycle left). Without illegal actions an episode lasts at most 126 steps (52 removals, 72
    draws, 2 recycles). Truncation is Gymnasium's ``TimeLimit`` from the registration's
    ``max_episode_steps`` (500 for ``Solitaire/Pyramid-v0``; ``gymnasium.make(...,
    max_episode_steps=N)`` overrides it): only repeated illegal actions can run an episode that
    long. The raw class never truncates.

    ## Information
    ``action_mask`` (int8, every step), ``deal_id`` (the deal ID, or the deal code of a typed-in
    deal), ``pass`` (1..3), ``recycles`` (``pass - 1``), ``cards_cleared`` (pyramid cards removed,
    0..28), ``cards_left`` (pyramid cards left, ``28 - cards_cleared``), ``illegal_action`` (the
    refusal message, only when the action was illegal: the state is then unchanged) and ``outcome``
    on every final step: ``"win"`` or ``"dead_end"`` when terminated (also on a refused step after
    it), ``"truncated"`` when only the time limit ended it (written by
    :class:`solitaire_rl.envs.wrappers.TruncationOutcome` outside Gymnasium's ``TimeLimit``, as the
    project's ``GameSpec.make_env`` and the training envs wrap it). A step
    after the episode terminated is refused that way and says ``terminated=True`` again. The keys,
    errors and end-of-episode behaviour are the same in both games (:mod:`solitaire_rl.envs.contract`,
    docs/environments.md).

    ## Arguments
    ``render_mode``: ``None``, ``"ansi"`` (text table; variant 001 shows the stock top as ``##``),
    ``"rgb_array"`` (the table as a ``(384, 640, 3)`` ``uint8`` picture in the play page's card art,
    :mod:`solitaire_rl.envs.pyramid.picture`; needs Pillow) or ``"human"`` (that picture in a pygame window).
    ``stock_top_playable``: ``True`` for seed 000 (default), ``False`` for seed 001.
    ``reward_shaping``: add the per-card shaped reward above (default ``False``).
    ``split``: ``"train"`` (default), ``"eval"``, ``"benchmark"`` or ``"any"``: the deals it plays (above).

    ## Version History
    * v0: first version.
    """

    metadata = {"render_modes": ["ansi", "rgb_array", "human"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        render_mode: str | None = None,
        stock_top_playable: bool = True,
        reward_shaping: bool = False,
        *,
        split: str = DEFAULT_SPLIT,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise MalformedInputError(
                f"render_mode must be None, 'ansi', 'rgb_array' or 'human', not {render_mode!r}"
            )
        self.split = deal_range(split)
        """The deals this env plays (:mod:`solitaire_rl.envs.splits`)."""
        self.render_mode = render_mode
        self._window: HumanWindow | None = None
        self.stock_top_playable = bool(stock_top_playable)
        self.reward_shaping = bool(reward_shaping)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32)
        self.game: PyramidGame | None = None
        self._observer = PyramidObserver()
        self._mask = np.zeros(NUM_ACTIONS, np.int8)
        self._deal_label = ""
        self._terminated = False

    # ------------------------------------------------------------------ API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        options = check_reset_options(options, RESET_OPTIONS)
        position = options.get("game")
        if position is not None:  # read before anything changes, the seed included
            if options.get("deal") is not None:
                raise MalformedInputError("give 'deal' or 'game', not both")
            game = check_position(position, self.stock_top_playable, self.split)
        else:
            deal = self._deal_from_options(options)
        super().reset(seed=seed)
        if position is None:
            if deal is None:
                number = self.split.draw(self.np_random)
                deal = resolve_deal(DealId("pyramid", "random", 1, number), "pyramid")
            game = PyramidGame(deal, stock_top_playable=self.stock_top_playable)
        self.game = game
        self._deal_label = game.deal.label
        obs = self._observer.reset(self.game).copy()
        self._terminated = not fill_action_mask(self.game.legal_moves(), self._mask).any()
        if self.render_mode == "human":
            self.render()
        return obs, self._info()

    def step(self, action: int | np.integer) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        game = self.game
        require_reset(game is not None)
        assert game is not None
        move = action_to_move(check_action(action, NUM_ACTIONS))
        left_before = game.cards_left
        try:
            game.push(move)
        except IllegalMoveError as exc:
            info = self._info()
            info["illegal_action"] = exc.reason
            if self._terminated:
                info["outcome"] = game.outcome()
            return self._observer.vector.copy(), 0.0, self._terminated, False, info
        obs = self._observer.update(game, move).copy()
        legal = game.legal_moves()
        fill_action_mask(legal, self._mask)
        reward = SHAPING_PER_CARD * (left_before - game.cards_left) if self.reward_shaping else 0.0
        info = self._info()
        self._terminated = terminated = not legal
        if terminated:
            if game.is_won():
                reward += WIN_REWARD
            info["outcome"] = game.outcome()
        if self.render_mode == "human":
            self.render()
        return obs, reward, terminated, False, info

    def action_masks(self) -> np.ndarray:
        """Legal actions now, as ``np.bool_`` (sb3-contrib's ``MaskablePPO`` calls this)."""
        return self._mask.astype(np.bool_)

    def action_name(self, action: int) -> str:
        """A readable name for an action index, e.g. ``"r7c1+r7c2"``, ``"r7c3 (King)"``, ``"draw"``."""
        return action_name(check_action(action, NUM_ACTIONS))

    def parse_action(self, text: str) -> int:
        """The action index of a move's text (what :meth:`action_name` writes, or the move's own
        spelling); :class:`~solitaire_rl.envs.errors.MalformedInputError` for anything else."""
        return parse_action(text)

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            return None
        require_reset(self.game is not None, "render()")
        assert self.game is not None
        if self.render_mode == "ansi":
            return str(self.game)
        from solitaire_rl.envs.pyramid.picture import pyramid_frame

        frame = pyramid_frame(self.game)
        if self.render_mode == "rgb_array":
            return frame
        if self._window is None:
            self._window = HumanWindow("Pyramid", self.metadata["render_fps"])
        self._window.show(frame)
        return None

    def close(self) -> None:
        if self._window is not None:
            self._window.close()
            self._window = None

    # -------------------------------------------------------------- helpers
    def _deal_from_options(self, options: dict[str, Any] | None) -> Deal | None:
        """The deal named by ``options["deal"]``, or ``None``; raises before anything changes."""
        spec = check_reset_options(options, RESET_OPTIONS).get("deal")
        if spec is None:
            return None
        return check_deal_in_split(resolve_deal(spec, "pyramid"), "pyramid", self.split)

    def _info(self) -> dict[str, Any]:
        game = self.game
        require_reset(game is not None)
        assert game is not None
        return game_info(game, self._deal_label, self._mask)


def check_position(position: object, stock_top_playable: bool, split: DealRange) -> PyramidGame:
    """A copy of ``position`` for an env of this variant and split to continue from (the
    ``options={"game": ...}`` of both envs), or :class:`MalformedInputError`: not a
    :class:`PyramidGame`, another variant, or an env of a split (a position names no deal number)."""
    if not isinstance(position, PyramidGame):
        raise MalformedInputError(f"'game' takes a PyramidGame position, not {type(position).__name__}")
    if position.stock_top_playable != stock_top_playable:
        raise MalformedInputError(
            f"the position is of variant {position.variant}; this env plays "
            f"{'000' if stock_top_playable else '001'}")
    refuse_position(split)
    return position.copy()


def game_info(game: PyramidGame, deal_label: str, mask: np.ndarray) -> dict[str, Any]:
    """The ``info`` the env hands over at ``game`` (``mask``: its legal actions, ``np.int8``)."""
    return {
        "action_mask": mask.astype(np.int8),
        "deal_id": deal_label,
        "pass": game.pass_number,
        "recycles": game.pass_number - 1,
        "cards_left": game.cards_left,
        "cards_cleared": NUM_PYRAMID - game.cards_left,
    }


def player_view(game: PyramidGame) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
    """What ``Solitaire/Pyramid-v0`` hands a player at ``game``: observation, mask (``np.bool_``)
    and info; the play server's advisors ask their players with it."""
    mask = fill_action_mask(game.legal_moves(), np.zeros(NUM_ACTIONS, np.int8))
    return observe(game), mask.astype(np.bool_), game_info(game, game.deal.label, mask)
