"""Pyramid solitaire: rules engine (both seed variants), moves, rendering and environment."""

from solitaire_rl.envs.pyramid.game import DEAD_END, MAX_PASSES, WIN, PyramidGame
from solitaire_rl.envs.pyramid.layout import NUM_PYRAMID, NUM_STOCK, position
from solitaire_rl.envs.pyramid.messages import Refusal
from solitaire_rl.envs.pyramid.moves import (
    DRAW_MOVE,
    RECYCLE_MOVE,
    STOCK,
    WASTE,
    Move,
    parse_place,
    place_name,
)

__all__ = [
    "DEAD_END", "DRAW_MOVE", "MAX_PASSES", "NUM_PYRAMID", "NUM_STOCK", "RECYCLE_MOVE", "STOCK",
    "WASTE", "WIN", "Move", "PyramidGame", "Refusal", "parse_place", "place_name", "position",
]
