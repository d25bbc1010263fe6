"""Klondike solitaire, draw 3 (seed 002): rules engine, deals, analyses, observer and environment.

Modules: :mod:`~solitaire_rl.envs.klondike.layout` (the table and the **deal order**: the 28 tableau cards row
by row as a person deals them, one card on each of columns 1..7, then on 2..7, ..., each pass's
first card face up; then the 24 stock cards from the top), :mod:`~solitaire_rl.envs.klondike.solvitaire`
(Solvitaire/lonelybot JSON deals), :mod:`~solitaire_rl.envs.klondike.rules` (the building rule),
:mod:`~solitaire_rl.envs.klondike.moves`, :mod:`~solitaire_rl.envs.klondike.messages`,
:mod:`~solitaire_rl.envs.klondike.game` (the
engine), :mod:`~solitaire_rl.envs.klondike.progress` (the exact "no progress possible" check),
:mod:`~solitaire_rl.envs.klondike.finish` (auto-finish), :mod:`~solitaire_rl.envs.klondike.render`,
:mod:`~solitaire_rl.envs.klondike.observer`, :mod:`~solitaire_rl.envs.klondike.actions` and
:mod:`~solitaire_rl.envs.klondike.env`
(``Solitaire/Klondike-v0``).
"""

from solitaire_rl.envs.klondike.game import DEAD_END, NO_PROGRESS, WIN, KlondikeGame, resolve_klondike_deal
from solitaire_rl.envs.klondike.layout import NUM_COLUMNS, NUM_STOCK, NUM_TABLEAU, deal_order, deal_table
from solitaire_rl.envs.klondike.messages import Announcement, Refusal
from solitaire_rl.envs.klondike.moves import DRAW_MOVE, RECYCLE_MOVE, Move
from solitaire_rl.envs.klondike.solvitaire import parse_solvitaire, to_solvitaire, to_solvitaire_json

__all__ = [
    "DEAD_END",
    "DRAW_MOVE",
    "NO_PROGRESS",
    "NUM_COLUMNS",
    "NUM_STOCK",
    "NUM_TABLEAU",
    "RECYCLE_MOVE",
    "WIN",
    "Announcement",
    "KlondikeGame",
    "Move",
    "Refusal",
    "deal_order",
    "deal_table",
    "parse_solvitaire",
    "resolve_klondike_deal",
    "to_solvitaire",
    "to_solvitaire_json",
]
