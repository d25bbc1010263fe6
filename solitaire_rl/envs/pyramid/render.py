"""Plain-text rendering of a Pyramid position."""

from __future__ import annotations

from typing import TYPE_CHECKING

from solitaire_rl.envs.cards import card_name
from solitaire_rl.envs.pyramid.layout import NUM_ROWS

if TYPE_CHECKING:
    from solitaire_rl.envs.pyramid.game import PyramidGame


def render_text(game: PyramidGame) -> str:
    """The pyramid as 7 centred rows (``..`` removed, ``[..]`` available), then stock and waste.

    In variant 001 the stock's top card is face down and shown as ``##``.
    """
    lines = []
    pos = 0
    for row in range(1, NUM_ROWS + 1):
        cells = []
        for _ in range(row):
            card = game.card_at(pos)
            if card is None:
                cells.append("  .. ")
            elif game.is_available(pos):
                cells.append(f"[{card_name(card):>3}]")
            else:
                cells.append(f" {card_name(card):>3} ")
            pos += 1
        lines.append(" " * 3 * (NUM_ROWS - row) + " ".join(cells))
    top = game.stock[-1] if game.stock else None
    stock_top = "--" if top is None else (card_name(top) if game.stock_top_playable else "##")
    waste_top = card_name(game.waste[-1]) if game.waste else "--"
    lines.append(
        f"stock {stock_top} ({len(game.stock)} left)   waste {waste_top} ({len(game.waste)})   "
        f"pass {game.pass_number}/3   pyramid {game.cards_left}/28 left   variant {game.variant}"
    )
    return "\n".join(lines)
