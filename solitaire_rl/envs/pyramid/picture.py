"""A Pyramid position drawn as a picture (``render_mode="rgb_array"``), in the play page's card art.

The pyramid's 7 rows overlap as on the page; a covered card is dimmed, a removed one leaves the
felt. The stock is on the left: its top card face up in variant 000, a back with the count of
cards in 001; the waste's top card below it. A status line gives the cards left, the pass and the
stock count. Only what the player sees is drawn: the stock below its top card stays a back.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

from solitaire_rl.envs.card_art import (
    Box,
    draw_back,
    draw_empty,
    draw_face,
    draw_frame,
    draw_status,
    new_table,
)
from solitaire_rl.envs.pyramid.layout import NUM_PYRAMID, ROW_COL
from solitaire_rl.envs.pyramid.moves import STOCK, WASTE

if TYPE_CHECKING:
    from solitaire_rl.envs.pyramid.game import PyramidGame

WIDTH, HEIGHT = 640, 384
"""Frame size in pixels (even, as video encoders want)."""
CARD_W, CARD_H = 56, 78
GAP = 6
ROW_STEP = 40
LEFT = 176
TOP = 16


def place_box(place: int) -> Box:
    """Where a place (pyramid position, :data:`STOCK` or :data:`WASTE`) is drawn."""
    if place == STOCK:
        return (24, TOP, CARD_W, CARD_H)
    if place == WASTE:
        return (24, TOP + CARD_H + 28, CARD_W, CARD_H)
    row, col = ROW_COL[place]
    pitch = CARD_W + GAP
    x = LEFT + (7 - row) * pitch // 2 + (col - 1) * pitch
    return (x, TOP + (row - 1) * ROW_STEP, CARD_W, CARD_H)


def pyramid_picture(game: PyramidGame, highlight: Iterable[int] = (), *, status: bool = True) -> Any:
    """The position as a Pillow image; the places in ``highlight`` framed in the hint colour;
    ``status=False`` leaves out the lines of words (a page writes them in its own language)."""
    image = new_table(WIDTH, HEIGHT)
    for pos in range(NUM_PYRAMID):
        card = game.card_at(pos)
        if card is not None:
            draw_face(image, place_box(pos), card, covered=not game.is_available(pos))
    if game.stock:
        if game.stock_top_playable:
            draw_face(image, place_box(STOCK), game.stock[-1])
        else:
            draw_back(image, place_box(STOCK), len(game.stock))
    else:
        draw_empty(image, place_box(STOCK), "")
    if game.waste:
        draw_face(image, place_box(WASTE), game.waste[-1])
    else:
        draw_empty(image, place_box(WASTE), "")
    if status:
        draw_status(image, (24, TOP + CARD_H + 6), f"{len(game.stock)} left")
        draw_status(image, (24, TOP + 2 * CARD_H + 34), f"{len(game.waste)} on waste")
        draw_status(image, (LEFT, HEIGHT - 26),
                    f"{game.cards_left}/28 left   pass {game.pass_number}/3   variant {game.variant}")
    for place in highlight:
        draw_frame(image, place_box(place))
    return image


def pyramid_frame(game: PyramidGame, highlight: Iterable[int] = ()) -> np.ndarray:
    """The picture as an ``(HEIGHT, WIDTH, 3)`` ``uint8`` array (Gymnasium's ``rgb_array``)."""
    return np.asarray(pyramid_picture(game, highlight), dtype=np.uint8)


__all__ = ["HEIGHT", "WIDTH", "place_box", "pyramid_frame", "pyramid_picture"]
