"""The game variants agents play and train on, and how to make each one's environment.

A *variant key* names one: ``pyramid-000`` (stock top usable, seed 000), ``pyramid-001`` (waste top
only, seed 001) and ``klondike-draw3`` (seed 002). On command lines a game name alone means its
first variant (``pyramid`` -> ``pyramid-000``, ``klondike`` -> ``klondike-draw3``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import gymnasium

from solitaire_rl.envs.errors import MalformedInputError


@dataclass(frozen=True)
class Variant:
    """One game variant: its environment ID and keyword arguments, and how to read its progress."""

    game: str
    """``"pyramid"`` or ``"klondike"``."""
    name: str
    """``"000"``, ``"001"`` or ``"draw3"``."""
    env_id: str
    env_kwargs: Mapping[str, Any] = field(default_factory=dict)
    max_cleared: int = 28
    """Cards to clear for a win: the 28 pyramid cards, or the 52 cards going up in Klondike."""

    @property
    def key(self) -> str:
        return f"{self.game}-{self.name}"

    @property
    def num_actions(self) -> int:
        """Size of the environment's ``Discrete`` action space."""
        if self.game == "pyramid":
            from solitaire_rl.envs.pyramid.actions import NUM_ACTIONS
        else:
            from solitaire_rl.envs.klondike.actions import NUM_ACTIONS
        return NUM_ACTIONS

    def make_env(self, reward_shaping: bool = False, **kwargs: Any) -> gymnasium.Env:
        """``gymnasium.make`` this variant's environment (with its registered time limit), wrapped in
        :class:`~solitaire_rl.envs.wrappers.TruncationOutcome` (``info["outcome"]`` on every final
        step). It plays any deal (``split="any"``: the benchmark, the play server and the planners
        name their deals) unless given ``split=``."""
        import solitaire_rl  # noqa: F401  (registers the environments)
        from solitaire_rl.envs.wrappers import TruncationOutcome

        options = {"split": "any", **self.env_kwargs, "reward_shaping": reward_shaping, **kwargs}
        return TruncationOutcome(gymnasium.make(self.env_id, **options))

    def cards_cleared(self, info: Mapping[str, Any]) -> int:
        """Progress from a step's ``info``: pyramid cards removed, or Klondike cards on foundations
        (both envs' ``info["cards_cleared"]``; an info with only the older keys is read too)."""
        if "cards_cleared" in info:
            return int(info["cards_cleared"])
        if self.game == "pyramid":
            return self.max_cleared - int(info["cards_left"])
        return int(info["cards_up"])

    def deal_id(self, number: int) -> str:
        """The random deal of this number, e.g. ``pyramid-random-v1-42``."""
        return f"{self.game}-random-v1-{number}"


VARIANTS: Mapping[str, Variant] = MappingProxyType({
    v.key: v
    for v in (
        Variant("pyramid", "000", "Solitaire/Pyramid-v0", MappingProxyType({"stock_top_playable": True})),
        Variant("pyramid", "001", "Solitaire/Pyramid-v0", MappingProxyType({"stock_top_playable": False})),
        Variant("klondike", "draw3", "Solitaire/Klondike-v0", MappingProxyType({"draw_count": 3}),
                max_cleared=52),
    )
})
"""Every variant by key, the default variant of each game first."""

KLONDIKE_DRAW1 = Variant("klondike", "draw1", "Solitaire/Klondike-v0", MappingProxyType({"draw_count": 1}),
                         max_cleared=52)
"""Klondike draw 1, as the play page offers it: the engine, the solver and the planners (``hop``,
``ismcts``) play it; no agent is trained for it, so it is not in :data:`VARIANTS` (the benchmark,
training and checkpoints name only those)."""


def klondike_variant(draw_count: int) -> Variant:
    """The Klondike variant that draws ``draw_count`` cards: ``klondike-draw3`` or :data:`KLONDIKE_DRAW1`."""
    if draw_count == 3:
        return VARIANTS["klondike-draw3"]
    if draw_count == 1:
        return KLONDIKE_DRAW1
    raise MalformedInputError(f"draw_count must be 1 or 3, not {draw_count!r}")


def find_variant(game: str, variant: str | None = None) -> Variant:
    """The variant named by ``game`` (``pyramid``, ``pyramid-001``, ...) and optionally ``variant``."""
    text = game.strip().lower()
    if variant is not None:
        text = f"{text}-{variant.strip().lower()}"
    if text in VARIANTS:
        return VARIANTS[text]
    if text == KLONDIKE_DRAW1.key:  # the planners' and the solver's benchmark rows of draw 1
        return KLONDIKE_DRAW1
    for v in VARIANTS.values():  # a game alone: its first (default) variant
        if v.game == text:
            return v
    raise MalformedInputError(
        f"unknown game or variant {text!r}: choose one of {', '.join(VARIANTS)}, {KLONDIKE_DRAW1.key} "
        "(or pyramid, klondike)"
    )


__all__ = ["KLONDIKE_DRAW1", "VARIANTS", "Variant", "find_variant", "klondike_variant"]
