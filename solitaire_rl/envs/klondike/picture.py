"""A Klondike position drawn as a picture (``render_mode="rgb_array"``), in the play page's card art.

Top row: the stock (a back with its count, or an empty place), the waste fanned (its last three
cards, the top one playable), the four foundations (C, D, H, S). Below, the seven columns: face-down
cards as backs, face-up cards fanned so each one's corner shows; a tall column is packed closer
so it fits. A status line gives the cards up and the recycles. Only what the player sees is
drawn: face-down and stock cards stay backs.
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
from solitaire_rl.envs.cards import SUITS, make_card
from solitaire_rl.envs.klondike.layout import NUM_COLUMNS
from solitaire_rl.envs.klondike.moves import (
    COLUMN_COLUMN,
    COLUMN_FOUNDATION,
    DRAW,
    FOUNDATION_COLUMN,
    RECYCLE,
    WASTE_COLUMN,
    WASTE_FOUNDATION,
    Move,
)

if TYPE_CHECKING:
    from solitaire_rl.envs.klondike.game import KlondikeGame

WIDTH, HEIGHT = 560, 560
"""Frame size in pixels (even, as video encoders want)."""
CARD_W, CARD_H = 66, 92
PITCH = 76
LEFT, TOP = 20, 14
COLUMNS_TOP = TOP + CARD_H + 18
STATUS_Y = HEIGHT - 24
DOWN_STEP, UP_STEP = 10, 24
FAN = 40
"""Step of the waste's fanned cards."""
SUIT_LABELS = ("♣", "♦", "♥", "♠")


def _steps(game: KlondikeGame, c: int) -> tuple[int, int]:
    """Vertical steps of face-down and face-up cards in column ``c``, packed to fit the frame."""
    down, up = game.hidden[c], len(game.columns[c]) - game.hidden[c]
    room = STATUS_Y - 8 - COLUMNS_TOP - CARD_H
    need = down * DOWN_STEP + max(up - 1, 0) * UP_STEP
    if need <= room:
        return DOWN_STEP, UP_STEP
    up_step = max(12, (room - down * DOWN_STEP) // max(up - 1, 1))
    return DOWN_STEP, up_step


def place_box(game: KlondikeGame, place: str) -> Box:
    """Where a place of the page's naming is drawn: ``stock``, ``waste`` (its top card), ``fC`` ..
    ``fS``, ``c3`` (column 3's last card, or the empty column), ``c3:4`` (the run of its last 4 cards)."""
    if place == "stock":
        return (LEFT, TOP, CARD_W, CARD_H)
    if place == "waste":
        shown = min(len(game.waste), 3)
        return (LEFT + PITCH + max(shown - 1, 0) * FAN, TOP, CARD_W, CARD_H)
    if place.startswith("f"):
        return (LEFT + (3 + SUITS.index(place[1].upper())) * PITCH, TOP, CARD_W, CARD_H)
    col, _, count_text = place[1:].partition(":")
    c = int(col) - 1
    count = int(count_text or 1)
    down_step, up_step = _steps(game, c)
    n = len(game.columns[c])
    index = max(n - count, 0)
    down = min(index, game.hidden[c])
    y = COLUMNS_TOP + down * down_step + max(index - game.hidden[c], 0) * up_step
    run = min(count, n) - 1 if n else 0
    return (LEFT + c * PITCH, y, CARD_W, CARD_H + run * up_step)


def move_places(game: KlondikeGame, move: Move) -> tuple[str, ...]:
    """The places a move takes a card from and puts it on, in :func:`place_box`'s names."""
    kind = move.kind
    if kind in (DRAW, RECYCLE):
        return ("stock",)
    if kind == WASTE_FOUNDATION:
        return ("waste", f"f{SUITS[game.waste[-1] % 4]}")
    if kind == WASTE_COLUMN:
        return ("waste", f"c{move.dst + 1}")
    if kind == COLUMN_FOUNDATION:
        return (f"c{move.src + 1}", f"f{SUITS[game.columns[move.src][-1] % 4]}")
    if kind == COLUMN_COLUMN:
        return (f"c{move.src + 1}:{move.count}", f"c{move.dst + 1}")
    if kind == FOUNDATION_COLUMN:
        return (f"f{SUITS[move.src]}", f"c{move.dst + 1}")
    raise ValueError(f"unknown move kind {kind}")


def klondike_picture(game: KlondikeGame, highlight: Iterable[str] = (), *, status: bool = True) -> Any:
    """The position as a Pillow image; the places in ``highlight`` framed in the hint colour;
    ``status=False`` leaves out the line of words (a page writes it in its own language)."""
    image = new_table(WIDTH, HEIGHT)
    stock = place_box(game, "stock")
    if game.stock:
        draw_back(image, stock, len(game.stock))
    else:
        draw_empty(image, stock, "↻" if game.waste else "")
    shown = game.waste[-3:]
    if not shown:
        draw_empty(image, (LEFT + PITCH, TOP, CARD_W, CARD_H))
    for k, card in enumerate(shown):
        draw_face(image, (LEFT + PITCH + k * FAN, TOP, CARD_W, CARD_H), card)
    for s in range(4):
        box = place_box(game, f"f{SUITS[s]}")
        top = game.foundations[s]
        if top:
            draw_face(image, box, make_card(top, s))
        else:
            draw_empty(image, box, SUIT_LABELS[s])
    for c in range(NUM_COLUMNS):
        cards = game.columns[c]
        if not cards:
            draw_empty(image, (LEFT + c * PITCH, COLUMNS_TOP, CARD_W, CARD_H), "K")
            continue
        down_step, up_step = _steps(game, c)
        y = COLUMNS_TOP
        for i, card in enumerate(cards):
            box = (LEFT + c * PITCH, y, CARD_W, CARD_H)
            if i < game.hidden[c]:
                draw_back(image, box)
                y += down_step
            else:
                draw_face(image, box, card)
                y += up_step
    if status:
        draw_status(image, (LEFT, STATUS_Y), f"{game.cards_up}/52 up   recycles {game.recycles}")
    for place in highlight:
        draw_frame(image, place_box(game, place))
    return image


def klondike_frame(game: KlondikeGame, highlight: Iterable[str] = ()) -> np.ndarray:
    """The picture as an ``(HEIGHT, WIDTH, 3)`` ``uint8`` array (Gymnasium's ``rgb_array``)."""
    return np.asarray(klondike_picture(game, highlight), dtype=np.uint8)


__all__ = ["HEIGHT", "WIDTH", "klondike_frame", "klondike_picture", "move_places", "place_box"]
