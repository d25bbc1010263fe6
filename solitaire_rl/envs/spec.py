"""One :class:`GameSpec` per game variant, registered by name: what differs between the games.

A variant's *key* names it: ``pyramid-000`` (seed 000: the stock's top card is usable),
``pyramid-001`` (seed 001: only the waste's top card), ``klondike-draw3`` (seed 002) and
``klondike-draw1`` (the play page's draw-1 games). A game's name alone means its first variant
(``pyramid`` -> ``pyramid-000``, ``klondike`` -> ``klondike-draw3``): :func:`find_game`.

A spec answers every question whose answer depends on the game, so that code above this module is
written once against it (OpenSpiel's registered games are the model):

* making a game: :meth:`GameSpec.new_game` (a deal ID, a deal code, card names, or a position to copy),
  :meth:`GameSpec.owns`, and :func:`spec_of` (the spec of a game object);
* the environment: :attr:`~GameSpec.env_id`, :attr:`~GameSpec.env_kwargs`, :meth:`~GameSpec.make_env`,
  :attr:`~GameSpec.num_actions`, :meth:`~GameSpec.observation_space`, and the native batch
  (:meth:`~GameSpec.make_batch`);
* what the player sees: :meth:`~GameSpec.observe`, :meth:`~GameSpec.legal_mask`,
  :meth:`~GameSpec.unknown_count`, :meth:`~GameSpec.picture`;
* moves and actions in text: :meth:`~GameSpec.parse_move`, :meth:`~GameSpec.move_text`,
  :meth:`~GameSpec.action_of`, :meth:`~GameSpec.move_of`;
* deals: :meth:`~GameSpec.parse_deal`, :meth:`~GameSpec.deal_id`;
* progress: :attr:`~GameSpec.max_cleared`, :meth:`~GameSpec.cards_cleared`, :meth:`~GameSpec.cleared_in`;
* the rules' shape, as fields a rule-specific branch reads instead of a name: :attr:`~GameSpec.max_passes`,
  :attr:`~GameSpec.hides_tableau`, :attr:`~GameSpec.positions_repeat`, :attr:`~GameSpec.suit_symmetries`;
* vocabularies: the :attr:`~GameSpec.outcomes` a game ends with, and the keys of what a verdict
  (:attr:`~GameSpec.verdicts`) and a chance estimate (:attr:`~GameSpec.chances`) may say (their words in
  each language are made at the edge, :mod:`solitaire_rl.play`).

What belongs to the agents (the solver, the planners' sampling loops, the greedy heuristic) is
registered onto a spec by :mod:`solitaire_rl.agents.games`, which this layer does not import.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from solitaire_rl.envs.deals import Deal, DealId, resolve_deal
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike.game import DEAD_END as KLONDIKE_DEAD_END
from solitaire_rl.envs.klondike.game import NO_PROGRESS, KlondikeGame, resolve_klondike_deal
from solitaire_rl.envs.klondike.game import WIN as KLONDIKE_WIN
from solitaire_rl.envs.klondike.moves import Move as KlondikeMove
from solitaire_rl.envs.pyramid.game import DEAD_END, MAX_PASSES, WIN, PyramidGame
from solitaire_rl.envs.pyramid.layout import NUM_PYRAMID
from solitaire_rl.envs.pyramid.moves import Move as PyramidMove

if TYPE_CHECKING:
    import gymnasium

    from solitaire_rl.envs.native_batch import NativeBatch

Game = PyramidGame | KlondikeGame
"""A rules engine of any registered game."""
Move = PyramidMove | KlondikeMove
_REGISTERED: Any = object()
"""``make_batch``'s default step limit: the one registered for the environment."""

# The vocabularies' shared words (a verdict, a chance estimate).
CHECKING = "checking"
"""A verdict still being searched for."""
WINNABLE = "winnable"
NOT_WINNABLE = "not_winnable"
CERTAIN_WIN = "certain_win"
"""A chance estimate that needs no sampling: every card is known and a winning line exists."""
CERTAIN_LOSS = "certain_loss"
"""Every card is known and no winning line exists."""
NO_ESTIMATE = "none"
"""No sample finished in time."""


@dataclass(frozen=True, eq=False, kw_only=True)
class GameSpec:
    """One game variant: everything that differs between the games (see the module docstring).

    Specs compare and hash by :attr:`key`, so they key dictionaries (the agents' table of each
    game's solver and planners does). Subclasses (:class:`PyramidSpec`, :class:`KlondikeSpec`)
    implement the methods; a new variant of an existing game is a new instance, registered in
    :data:`GAME_SPECS`.
    """

    game: str
    """The game: ``"pyramid"`` or ``"klondike"`` (deal IDs, encodings and checkpoints start with it)."""
    name: str
    """The variant within the game: ``"000"``, ``"001"``, ``"draw3"``, ``"draw1"``."""
    title: str
    """The game's name in a sentence: ``"Pyramid"``, ``"Klondike"``."""
    env_id: str
    """The Gymnasium ID of its environment (``Solitaire/Pyramid-v0``)."""
    env_kwargs: Mapping[str, Any] = field(default_factory=dict)
    """The environment's keyword arguments that make it this variant."""
    max_cleared: int
    """Cards to clear for a win: the 28 pyramid cards, or the 52 cards going up in Klondike."""
    num_actions: int
    """Size of the environment's ``Discrete`` action space."""
    obs_dtype: type
    """The dtype of its observations (the native batch's arrays hold this type)."""
    trained: bool = True
    """Whether agents are trained, shipped and benchmarked on it (``find_game(..., trained=True)``)."""
    max_passes: int | None
    """Passes through the stock a game allows (``None``: unlimited)."""
    hides_tableau: bool
    """Whether cards on the table start face down (not only the stock is hidden)."""
    positions_repeat: bool
    """Whether a line of play can come back to a position it left (Klondike: cards go back and forth
    between columns and foundations; a Pyramid move always removes a card or moves the stock on)."""
    suit_symmetries: tuple[tuple[int, ...], ...] = ()
    """Suit renamings that change no rule, for data augmentation (empty: none used)."""
    outcomes: tuple[str, ...]
    """How a game can end: ``win`` first, then the losses the engine detects."""
    verdicts: tuple[str, ...]
    """The keys of what the play page's verdict may say about a position (its texts: ``play``)."""
    chances: tuple[str, ...]
    """The keys of a chance estimate's answers other than a sampled share (its texts: ``play``)."""

    kind: ClassVar[type]
    """The rules engine's class (:class:`PyramidGame`, :class:`KlondikeGame`)."""
    move_type: ClassVar[type]
    """The engine's move class."""

    # ------------------------------------------------------------ identity
    @property
    def key(self) -> str:
        """``pyramid-000``, ``klondike-draw3``, ...: the registry's key."""
        return f"{self.game}-{self.name}"

    @property
    def has_stock_passes(self) -> bool:
        """Whether the stock can be gone through a limited number of times (Pyramid: 3 passes)."""
        return self.max_passes is not None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GameSpec) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"find_game({self.key!r})"

    # ------------------------------------------------------------ games
    def new_game(self, deal: object) -> Game:
        """The first position of ``deal`` (a deal ID, a deal code, 52 card names, a :class:`Deal`), or a
        copy of a game of this variant (a position); anything else is :class:`MalformedInputError`."""
        if isinstance(deal, PyramidGame | KlondikeGame):
            return self.check_game(deal).copy()
        return self._deal(deal)

    def _deal(self, deal: object) -> Game:
        raise NotImplementedError

    def owns(self, game: object) -> bool:
        """Whether ``game`` is a game of this variant."""
        raise NotImplementedError

    def check_game(self, game: object) -> Game:
        """``game`` if it is one of this variant's, else :class:`MalformedInputError`."""
        if not self.owns(game):
            raise MalformedInputError(f"expected a {self.key} game, not {_describe(game)}")
        return game  # type: ignore[return-value]

    # ------------------------------------------------------------ environments
    def make_env(self, reward_shaping: bool = False, **kwargs: Any) -> gymnasium.Env:
        """``gymnasium.make`` this variant's environment (with its registered time limit), wrapped in
        :class:`~solitaire_rl.envs.wrappers.TruncationOutcome` (``info["outcome"]`` on every final
        step). It plays any deal (``split="any"``: the benchmark, the play server and the planners
        name their deals) unless given ``split=``."""
        import gymnasium

        from solitaire_rl.envs.registration import register_envs
        from solitaire_rl.envs.wrappers import TruncationOutcome

        register_envs()
        options = {"split": "any", **self.env_kwargs, "reward_shaping": reward_shaping, **kwargs}
        return TruncationOutcome(gymnasium.make(self.env_id, **options))

    @property
    def max_episode_steps(self) -> int | None:
        """The registered step limit of its environment."""
        from solitaire_rl.envs.registration import MAX_EPISODE_STEPS

        return MAX_EPISODE_STEPS[self.env_id]

    def make_batch(self, num_envs: int, *, reward_shaping: bool = False,
                   max_episode_steps: int | None = _REGISTERED,
                   autoreset: AutoresetMode = AutoresetMode.NEXT_STEP, **options: Any) -> NativeBatch:
        """The native batch of ``num_envs`` games of this variant: no shaped reward, the registered
        step limit and Gymnasium's next-step autoreset unless told otherwise (``None`` steps: never
        truncate); ``options`` are the batch's own (``split``, ``num_threads``, ``deal_sampler``)."""
        steps = self.max_episode_steps if max_episode_steps is _REGISTERED else max_episode_steps
        return self._batch(num_envs, reward_shaping=reward_shaping, max_episode_steps=steps,
                           autoreset=autoreset, **options)

    def _batch(self, num_envs: int, **options: Any) -> NativeBatch:
        raise NotImplementedError

    def observation_space(self) -> spaces.Space:
        """The single environment's observation space (its default observation type)."""
        raise NotImplementedError

    # ------------------------------------------------------------ what the player sees
    def observe(self, game: Game) -> np.ndarray:
        """The environment's observation of ``game``: what a player at the table sees."""
        raise NotImplementedError

    def legal_mask(self, game: Game) -> np.ndarray:
        """The environment's action mask of ``game`` (``np.int8``, 1 for each legal action)."""
        mask = np.zeros(self.num_actions, np.int8)
        for move in self.check_game(game).legal_moves():
            mask[self.action_of(move)] = 1
        return mask

    def unknown_count(self, game: Game) -> int:
        """Cards whose place the player could not know in this position."""
        raise NotImplementedError

    def picture(self, game: Game, move: Move | None = None) -> Any:
        """The position as a Pillow image (the envs' card art), the places ``move`` uses framed."""
        raise NotImplementedError

    def rename_suits(self, observations: np.ndarray, per_action: Sequence[np.ndarray],
                     sigma: tuple[int, ...]) -> tuple[np.ndarray, list[np.ndarray]]:
        """Observations (rows) and per-action arrays (masks, targets) of the games whose suits are renamed by
        ``sigma``, one of :attr:`suit_symmetries` (data augmentation)."""
        raise MalformedInputError(f"{self.title} uses no suit symmetries")

    # ------------------------------------------------------------ moves
    def parse_move(self, text: object) -> Move:
        """A move from its text (``r7c2+r7c3``, ``draw``, ``c2:3>c5``), or a move of this game as it is."""
        if isinstance(text, self.move_type):
            return text  # type: ignore[return-value]
        if not isinstance(text, str):
            raise MalformedInputError(f"a {self.title} move is text such as {self.move_example!r}, not "
                                      f"{_describe(text)}")
        return self.move_type.parse(text)  # type: ignore[attr-defined]

    move_example: ClassVar[str] = ""

    def move_text(self, move: Move) -> str:
        """The text of a move, which :meth:`parse_move` reads back."""
        if not isinstance(move, self.move_type):
            raise MalformedInputError(f"not a {self.title} move: {_describe(move)}")
        return str(move)

    def action_of(self, move: Move) -> int:
        """The environment's action index of ``move``."""
        raise NotImplementedError

    def move_of(self, game: Game, action: int) -> Move:
        """The move that action ``action`` plays in ``game``'s position."""
        raise NotImplementedError

    # ------------------------------------------------------------ deals
    def parse_deal(self, deal: object) -> Deal:
        """Any accepted description of one of this game's deals -> a :class:`Deal` (cards in deal order)."""
        return resolve_deal(deal, self.game)

    def deal_id(self, number: int, kind: str = "random", version: int = 1) -> str:
        """The deal ID of ``number``, e.g. ``pyramid-random-v1-42``."""
        if isinstance(number, bool) or not isinstance(number, int | np.integer) or number < 0:
            raise MalformedInputError(f"a deal number is a whole number, 0 or more, not {number!r}")
        return str(DealId(self.game, kind, version, int(number)))

    # ------------------------------------------------------------ progress
    def cards_cleared(self, info: Mapping[str, Any]) -> int:
        """Progress from a step's ``info``: both envs' ``info["cards_cleared"]`` (an info with only the
        game's older key, ``cards_left`` or ``cards_up``, is read too)."""
        if "cards_cleared" in info:
            return int(info["cards_cleared"])
        return self._cleared_from_old_info(info)

    def _cleared_from_old_info(self, info: Mapping[str, Any]) -> int:
        raise MalformedInputError("the step's info has no 'cards_cleared'")

    def cleared_in(self, game: Game) -> int:
        """Progress in a position: pyramid cards removed, or Klondike cards on the foundations."""
        raise NotImplementedError


@dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class PyramidSpec(GameSpec):
    """A Pyramid variant: 000 (the stock's top card usable) or 001 (the waste's top only)."""

    stock_top_playable: bool

    kind: ClassVar[type] = PyramidGame
    move_type: ClassVar[type] = PyramidMove
    move_example: ClassVar[str] = "r7c2+r7c3"

    def _deal(self, deal: object) -> PyramidGame:
        return PyramidGame(deal, stock_top_playable=self.stock_top_playable)

    def owns(self, game: object) -> bool:
        return isinstance(game, PyramidGame) and game.stock_top_playable == self.stock_top_playable

    def _game(self, game: object) -> PyramidGame:
        self.check_game(game)
        assert isinstance(game, PyramidGame)
        return game

    def _batch(self, num_envs: int, **options: Any) -> NativeBatch:
        from solitaire_rl.envs.pyramid.vector import PyramidBatch

        return PyramidBatch(num_envs, stock_top_playable=self.stock_top_playable, **options)

    def observation_space(self) -> spaces.Space:
        from solitaire_rl.envs.pyramid.observation import OBSERVATION_SIZE

        return spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32)

    def observe(self, game: Game) -> np.ndarray:
        from solitaire_rl.envs.pyramid.observation import observe

        return observe(self._game(game))

    def unknown_count(self, game: Game) -> int:
        pyramid = self._game(game)
        return sum(1 for card in pyramid.stock_order() if not (pyramid.seen >> card) & 1)

    def picture(self, game: Game, move: Move | None = None) -> Any:
        from solitaire_rl.envs.pyramid.picture import pyramid_picture

        places = () if move is None else self.parse_move(move).places()  # type: ignore[union-attr]
        return pyramid_picture(self._game(game), places)

    def action_of(self, move: Move) -> int:
        from solitaire_rl.envs.pyramid.actions import move_to_action

        return move_to_action(move)  # type: ignore[arg-type]

    def move_of(self, game: Game, action: int) -> Move:
        from solitaire_rl.envs.pyramid.actions import action_to_move

        return action_to_move(action)

    def cleared_in(self, game: Game) -> int:
        return NUM_PYRAMID - self._game(game).cards_left

    def _cleared_from_old_info(self, info: Mapping[str, Any]) -> int:
        if "cards_left" not in info:
            return super()._cleared_from_old_info(info)
        return self.max_cleared - int(info["cards_left"])


@dataclass(frozen=True, eq=False, repr=False, kw_only=True)
class KlondikeSpec(GameSpec):
    """A Klondike variant: draw 3 (seed 002) or draw 1."""

    draw_count: int

    kind: ClassVar[type] = KlondikeGame
    move_type: ClassVar[type] = KlondikeMove
    move_example: ClassVar[str] = "c2:3>c5"

    def _deal(self, deal: object) -> KlondikeGame:
        return KlondikeGame(deal, draw_count=self.draw_count)

    def owns(self, game: object) -> bool:
        return isinstance(game, KlondikeGame) and game.draw_count == self.draw_count

    def _game(self, game: object) -> KlondikeGame:
        self.check_game(game)
        assert isinstance(game, KlondikeGame)
        return game

    def _batch(self, num_envs: int, **options: Any) -> NativeBatch:
        from solitaire_rl.envs.klondike.vector import KlondikeBatch

        return KlondikeBatch(num_envs, draw_count=self.draw_count, **options)

    def observation_space(self) -> spaces.Space:
        from solitaire_rl.envs.klondike.observer import observation_space

        return observation_space()

    def observe(self, game: Game) -> np.ndarray:
        from solitaire_rl.envs.klondike.observer import observe

        return observe(self._game(game))

    def unknown_count(self, game: Game) -> int:
        klondike = self._game(game)
        return klondike.face_down_count() + len(klondike.unseen_stock())

    def picture(self, game: Game, move: Move | None = None) -> Any:
        from solitaire_rl.envs.klondike.picture import klondike_picture, move_places

        klondike = self._game(game)
        places = () if move is None else move_places(klondike, self.parse_move(move))  # type: ignore[arg-type]
        return klondike_picture(klondike, places)

    def rename_suits(self, observations: np.ndarray, per_action: Sequence[np.ndarray],
                     sigma: tuple[int, ...]) -> tuple[np.ndarray, list[np.ndarray]]:
        from solitaire_rl.envs.klondike.symmetry import permute_actions, permute_observations

        if sigma not in self.suit_symmetries:
            raise MalformedInputError(f"{sigma!r} is not one of Klondike's suit symmetries")
        return permute_observations(observations, sigma), [permute_actions(a, sigma) for a in per_action]

    def action_of(self, move: Move) -> int:
        from solitaire_rl.envs.klondike.actions import ACTION_INDEX

        try:
            return ACTION_INDEX[move]  # type: ignore[index]
        except KeyError:
            raise MalformedInputError(f"{move!r} is not a Klondike move") from None

    def move_of(self, game: Game, action: int) -> Move:
        from solitaire_rl.envs.klondike.actions import NUM_ACTIONS, move_of

        top = NUM_ACTIONS - 1
        if isinstance(action, bool) or not isinstance(action, int | np.integer) or not 0 <= action < top + 1:
            raise MalformedInputError(f"{action!r} is not an action: actions are integers 0..{top}")
        return move_of(self._game(game), int(action))

    def parse_deal(self, deal: object) -> Deal:
        return resolve_klondike_deal(deal)

    def cleared_in(self, game: Game) -> int:
        return self._game(game).cards_up

    def _cleared_from_old_info(self, info: Mapping[str, Any]) -> int:
        if "cards_up" not in info:
            return super()._cleared_from_old_info(info)
        return int(info["cards_up"])


def _describe(value: object) -> str:
    return f"{type(value).__name__} {value!r}"[:80]


_PYRAMID_OUTCOMES = (WIN, DEAD_END)
_PYRAMID_VERDICTS = (CHECKING, WINNABLE, NOT_WINNABLE, "unverified", "unseen_stock")
_PYRAMID_CHANCES = (*_PYRAMID_OUTCOMES, CERTAIN_WIN, CERTAIN_LOSS, "proved_loss", NO_ESTIMATE)
_KLONDIKE_OUTCOMES = (KLONDIKE_WIN, KLONDIKE_DEAD_END, NO_PROGRESS)
_KLONDIKE_VERDICTS = (CHECKING, WINNABLE, "winnable_deal", "no_legal_move", NO_PROGRESS, "proved", "hidden",
                      "unknown")
_KLONDIKE_CHANCES = (*_KLONDIKE_OUTCOMES, CERTAIN_WIN, CERTAIN_LOSS, NO_ESTIMATE)


def _pyramid(name: str, stock_top_playable: bool) -> PyramidSpec:
    from solitaire_rl.envs.pyramid.actions import NUM_ACTIONS

    return PyramidSpec(
        game="pyramid", name=name, title="Pyramid", env_id="Solitaire/Pyramid-v0",
        env_kwargs=MappingProxyType({"stock_top_playable": stock_top_playable}), max_cleared=NUM_PYRAMID,
        num_actions=NUM_ACTIONS, obs_dtype=np.float32, max_passes=MAX_PASSES, hides_tableau=False,
        positions_repeat=False, outcomes=_PYRAMID_OUTCOMES, verdicts=_PYRAMID_VERDICTS,
        chances=_PYRAMID_CHANCES, stock_top_playable=stock_top_playable)


def _klondike(draw_count: int, trained: bool) -> KlondikeSpec:
    from solitaire_rl.envs.klondike.actions import NUM_ACTIONS
    from solitaire_rl.envs.klondike.observer import OBS_DTYPE
    from solitaire_rl.envs.klondike.symmetry import SUIT_SYMMETRIES

    return KlondikeSpec(
        game="klondike", name=f"draw{draw_count}", title="Klondike", env_id="Solitaire/Klondike-v0",
        env_kwargs=MappingProxyType({"draw_count": draw_count}), max_cleared=52, num_actions=NUM_ACTIONS,
        obs_dtype=OBS_DTYPE, trained=trained, max_passes=None, hides_tableau=True, positions_repeat=True,
        suit_symmetries=SUIT_SYMMETRIES, outcomes=_KLONDIKE_OUTCOMES, verdicts=_KLONDIKE_VERDICTS,
        chances=_KLONDIKE_CHANCES, draw_count=draw_count)


PYRAMID_000 = _pyramid("000", stock_top_playable=True)
PYRAMID_001 = _pyramid("001", stock_top_playable=False)
KLONDIKE_DRAW3 = _klondike(3, trained=True)
KLONDIKE_DRAW1 = _klondike(1, trained=False)
"""Klondike draw 1, as the play page offers it: the engine, the solver and the planners (``hop``,
``ismcts``) play it; no agent is trained for it (``trained=False``: the benchmark, training and
checkpoints name only the trained variants)."""

GAME_SPECS: Mapping[str, GameSpec] = MappingProxyType(
    {spec.key: spec for spec in (PYRAMID_000, PYRAMID_001, KLONDIKE_DRAW3, KLONDIKE_DRAW1)})
"""Every registered variant by key, each game's default variant first."""
TRAINED_SPECS: Mapping[str, GameSpec] = MappingProxyType(
    {key: spec for key, spec in GAME_SPECS.items() if spec.trained})
"""The variants agents are trained, shipped and benchmarked on."""


def game_names() -> tuple[str, ...]:
    """The games (``pyramid``, ``klondike``), in registry order."""
    return tuple(dict.fromkeys(spec.game for spec in GAME_SPECS.values()))


def find_game(game: str, variant: str | None = None, *, trained: bool = False) -> GameSpec:
    """The variant named by ``game`` (``pyramid``, ``pyramid-001``, ``klondike-draw1``, any case) and
    optionally ``variant`` (``001``, ``draw3``); a game's name alone is its first variant.
    ``trained=True`` accepts only the variants agents are trained on (:data:`TRAINED_SPECS`)."""
    if not isinstance(game, str) or (variant is not None and not isinstance(variant, str)):
        raise MalformedInputError(f"a game is named by text such as 'pyramid-001', not {game!r}")
    text = game.strip().lower()
    if variant is not None:
        text = f"{text}-{variant.strip().lower()}"
    specs = TRAINED_SPECS if trained else GAME_SPECS
    if text in specs:
        return specs[text]
    for spec in specs.values():  # a game alone: its first (default) variant
        if spec.game == text:
            return spec
    raise MalformedInputError(
        f"unknown game or variant {text!r}: choose one of {', '.join(specs)} (or {', '.join(game_names())})")


def klondike_spec(draw_count: int) -> KlondikeSpec:
    """The Klondike variant that draws ``draw_count`` cards: :data:`KLONDIKE_DRAW3` or
    :data:`KLONDIKE_DRAW1`."""
    drawn = None if isinstance(draw_count, bool) else draw_count
    for spec in GAME_SPECS.values():
        if isinstance(spec, KlondikeSpec) and spec.draw_count == drawn:
            return spec
    raise MalformedInputError(f"draw_count must be 1 or 3, not {draw_count!r}")


def spec_of(game: object) -> GameSpec:
    """The variant a game object plays."""
    for spec in GAME_SPECS.values():
        if spec.owns(game):
            return spec
    raise MalformedInputError(f"expected a PyramidGame or a KlondikeGame, not {type(game).__name__}")


def specs_of(game: str) -> Iterator[GameSpec]:
    """Every registered variant of ``game`` (``pyramid``: 000 and 001)."""
    return (spec for spec in GAME_SPECS.values() if spec.game == game)


__all__ = [
    "GAME_SPECS", "KLONDIKE_DRAW1", "KLONDIKE_DRAW3", "PYRAMID_000", "PYRAMID_001", "TRAINED_SPECS", "Game",
    "GameSpec", "KlondikeSpec", "Move", "PyramidSpec", "find_game", "game_names", "klondike_spec", "spec_of",
    "specs_of",
]
