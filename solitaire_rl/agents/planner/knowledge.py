"""What a Klondike player knows, read from the environment's observation alone.

The observation (:mod:`solitaire_rl.envs.klondike.observer`) shows every face-up card, the whole waste, the
foundations and the stock cards already seen in their places; face-down cards and never-seen
stock cards are absent from it. :func:`klondike_knowledge` turns it into a solver position whose
unknown places hold the unknown cards in a fixed order (card order, never their true places) and
lists those places, and into a stand-in :class:`~solitaire_rl.envs.klondike.KlondikeGame` for the questions
that need only known cards (which move a tap means, whether a move makes progress, what the
player sees after it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from solitaire_rl.agents.greedy.klondike import KlondikeView
from solitaire_rl.agents.solver.klondike import KlondikePosition
from solitaire_rl.envs.cards import NUM_CARDS
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike import KlondikeGame, Move
from solitaire_rl.envs.klondike.layout import MAX_COLUMN, NUM_COLUMNS
from solitaire_rl.envs.klondike.observer import FACE_DOWN, UNSEEN, VIEWS, observe

VISIBLE = slice(0, VIEWS["best"].start)
"""The part of the observation a player sees on the table: columns, waste, stock, foundations."""
COLUMNS = VIEWS["columns"]


@dataclass(frozen=True)
class KlondikeKnowledge:
    """A position as the player knows it."""

    position: KlondikePosition
    """The known cards where they are; the unknown cards, in card order, on the unknown places."""
    unknown: tuple[tuple[int, int], ...]
    """The unknown places: ``(column, index)`` of a face-down card (from the column's bottom), or
    ``(-1, index)`` of a never-seen stock card (from the stock's bottom)."""
    game: KlondikeGame
    """A game in that position whose ``seen`` record holds exactly the cards the player has been
    shown (with a stock order given, its stock holds the true cards, still unseen)."""

    @property
    def all_known(self) -> bool:
        return not self.unknown


def klondike_knowledge(observation: np.ndarray, draw_count: int = 3,
                       stock_order: Sequence[int] | None = None) -> KlondikeKnowledge:
    """The player's knowledge of the position shown by ``observation``. ``stock_order``: the
    stock's cards from its bottom to its top, for the *stock known* setting (a benchmark option
    for comparison with programs that see the stock; face-down cards stay unknown)."""
    view = KlondikeView(observation)
    foundation_cards = [(r - 1) * 4 + s for s in range(4) for r in range(1, view.foundations[s] + 1)]
    stock = view.stock[::-1]  # bottom -> top
    shown = set(foundation_cards) | set(view.waste) | {c for c in stock if c != UNSEEN}
    for up in view.face_up:
        shown.update(up)
    if stock_order is not None:
        if len(stock_order) != len(stock) or any(c not in (UNSEEN, o) for c, o in zip(stock, stock_order,
                                                                                      strict=True)):
            raise MalformedInputError("the stock order given does not fit the stock the observation shows")
        stock = [int(c) for c in stock_order]
    known = shown | {c for c in stock if c != UNSEEN}
    hidden_cards = iter(sorted(set(range(NUM_CARDS)) - known))
    unknown: list[tuple[int, int]] = []
    face_down: list[tuple[int, ...]] = []
    for c, count in enumerate(view.face_down):
        face_down.append(tuple(next(hidden_cards) for _ in range(count)))
        unknown += [(c, i) for i in range(count)]
    stock_cards = []
    for i, card in enumerate(stock):
        if card == UNSEEN:
            card = next(hidden_cards)
            unknown.append((-1, i))
        stock_cards.append(card)
    waste = view.waste[::-1]
    position = KlondikePosition(
        face_down=tuple(face_down), face_up=tuple(tuple(up) for up in view.face_up),
        stock=tuple(stock_cards), waste=tuple(waste), foundations=tuple(view.foundations),
    )
    game = KlondikeGame.from_position(
        [list(down) + list(up) for down, up in zip(face_down, view.face_up, strict=True)],
        list(view.face_down), stock_cards, waste, list(view.foundations), draw_count=draw_count,
        best=list(view.best), recycles=view.recycles, seen=sorted(shown),
    )
    return KlondikeKnowledge(position, tuple(unknown), game)


def visible_after(game: KlondikeGame, move: Move) -> bytes | None:
    """What the player sees after ``move``, or ``None`` when the move shows a card not known before."""
    after = game.copy()
    after.push(move)
    if after.seen != game.seen:
        return None
    return visible_key(observe(after))


def visible_key(observation: np.ndarray) -> bytes:
    """What the player sees in ``observation`` (the table, not the records), as bytes; columns
    with no face-down card are interchangeable, so they are sorted (moving a King's run from
    one empty column to another changes nothing)."""
    table = np.asarray(observation)[VISIBLE].astype(np.uint8)
    columns = table[COLUMNS].reshape(NUM_COLUMNS, MAX_COLUMN)
    open_ = [bytes(col) for col in columns if col[0] != FACE_DOWN]
    kept = [bytes(col) if col[0] == FACE_DOWN else b"" for col in columns]
    return b"".join(kept) + b"|" + b"".join(sorted(open_)) + b"|" + table[COLUMNS.stop:].tobytes()


__all__ = ["VISIBLE", "KlondikeKnowledge", "klondike_knowledge", "visible_after", "visible_key"]
