"""The Pyramid rules engine: one class for both variants of the seeds.

* Variant **000** (``stock_top_playable=True``, the default): the stock's top card is face up and
  usable, as is the waste's top card; they may pair with each other.
* Variant **001** (``stock_top_playable=False``): the stock is face down; only the waste's top
  card is usable besides the pyramid.

In both, 28 pyramid cards and 24 stock cards; pairs summing to 13 are removed, a King alone;
drawing moves the stock's top card to the waste; once the stock is empty, *recycle* turns the
waste over as it lies into a new stock, for 3 passes in all (2 recycles). The game is won when
the 28 pyramid cards are gone, whatever stock and waste hold, and over when no move is legal.

The API follows python-chess: :meth:`legal_moves` in a fixed order, :meth:`is_legal`,
:meth:`refusal`, :meth:`push` (checks legality), :meth:`pop` (exact undo), :meth:`redo`,
:meth:`outcome` (``None`` while play goes on) and :meth:`copy`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache

from solitaire_rl.envs.cards import rank
from solitaire_rl.envs.deals import Deal, resolve_deal
from solitaire_rl.envs.errors import IllegalMoveError, MalformedInputError
from solitaire_rl.envs.history import RedoHistory
from solitaire_rl.envs.pyramid.layout import ALL_REMOVED, COVER_MASK, NUM_PYRAMID
from solitaire_rl.envs.pyramid.messages import Refusal
from solitaire_rl.envs.pyramid.moves import (
    DRAW,
    DRAW_MOVE,
    KING_MOVES,
    PAIR_MOVES,
    RECYCLE,
    RECYCLE_MOVE,
    REMOVE,
    STOCK,
    WASTE,
    Move,
)
from solitaire_rl.envs.pyramid.render import render_text

MAX_PASSES = 3
"""Passes through the stock in one deal: the first plus two recycles."""

WIN = "win"
DEAD_END = "dead_end"

_Snapshot = tuple[int, tuple[int, ...], tuple[int, ...], int]
_RANK = tuple(rank(c) for c in range(52))


def _is_available(removed: int, pos: int) -> bool:
    """Whether position ``pos`` is still on the table with both covering cards removed."""
    return not (removed >> pos) & 1 and (removed & COVER_MASK[pos]) == COVER_MASK[pos]


@cache
def _available(removed: int) -> tuple[int, ...]:
    """The available positions for a removed bitmask, in position order.

    Cached: play only reaches removed sets closed under covering, 1,430 of them (Catalan C8).
    """
    return tuple(p for p in range(NUM_PYRAMID) if _is_available(removed, p))


class PyramidGame(RedoHistory[Move]):
    """A Pyramid position with its move history.

    State: ``removed`` (bitmask of removed pyramid positions), ``stock`` and ``waste`` (lists
    of cards, top card last), ``pass_number`` (1..3), ``seen`` (bitmask over the 52 cards of
    every card that has been face up; it survives undo, as seed 000 asks) and the undo/redo
    stacks.
    """

    def __init__(self, deal: object = "pyramid-random-v1-0", *, stock_top_playable: bool = True) -> None:
        self.deal: Deal = resolve_deal(deal, "pyramid")
        self.stock_top_playable = stock_top_playable
        cards = self.deal.cards
        self.pyramid: tuple[int, ...] = cards[:NUM_PYRAMID]
        self.removed = 0
        self.stock: list[int] = list(reversed(cards[NUM_PYRAMID:]))
        self.waste: list[int] = []
        self.pass_number = 1
        self.seen = 0
        for c in self.pyramid:
            self.seen |= 1 << c
        self.discarded: list[int] = []
        """Cards removed so far, in the order they went."""
        self._history: list[tuple[Move, _Snapshot]] = []
        self._redo: list[Move] = []
        self._note_seen()

    # ----------------------------------------------------------------- queries
    @property
    def variant(self) -> str:
        """``"000"`` (stock top usable) or ``"001"`` (waste top only)."""
        return "000" if self.stock_top_playable else "001"

    @property
    def cards_left(self) -> int:
        """Pyramid cards still on the table (of 28)."""
        return NUM_PYRAMID - self.removed.bit_count()

    @property
    def moves_played(self) -> int:
        return len(self._history)

    @property
    def history(self) -> list[Move]:
        """The moves played so far, oldest first."""
        return [m for m, _ in self._history]


    def is_won(self) -> bool:
        return self.removed == ALL_REMOVED

    def is_available(self, pos: int) -> bool:
        """Whether pyramid position ``pos`` holds a card with both covering cards removed."""
        return _is_available(self.removed, pos)

    def available_positions(self) -> list[int]:
        """Pyramid positions whose card is available, in position order."""
        return list(_available(self.removed))

    def card_at(self, place: int) -> int | None:
        """The card at a place (pyramid position, ``STOCK`` or ``WASTE`` top), or ``None``."""
        if place == STOCK:
            return self.stock[-1] if self.stock else None
        if place == WASTE:
            return self.waste[-1] if self.waste else None
        return None if (self.removed >> place) & 1 else self.pyramid[place]

    def _usable(self) -> list[tuple[int, int]]:
        """``(place, card)`` of every usable card: available pyramid cards, stock top (000), waste top."""
        pyramid = self.pyramid
        usable = [(p, pyramid[p]) for p in _available(self.removed)]
        if self.stock_top_playable and self.stock:
            usable.append((STOCK, self.stock[-1]))
        if self.waste:
            usable.append((WASTE, self.waste[-1]))
        return usable

    def usable_places(self) -> list[int]:
        """Places whose card may be used now, pyramid positions first, in a fixed order."""
        return [p for p, _ in self._usable()]

    def legal_moves(self) -> list[Move]:
        """Every legal move in a fixed order: Kings, pairs (by place), draw, recycle."""
        if self.removed == ALL_REMOVED:
            return []
        kings: list[Move] = []
        pairs: list[Move] = []
        earlier: dict[int, list[int]] = {}  # rank -> usable places met so far
        for p, card in self._usable():
            r = _RANK[card]
            if r == 13:
                kings.append(KING_MOVES[p])
            else:
                for q in earlier.get(13 - r, ()):
                    pairs.append(PAIR_MOVES[q][p])
                earlier.setdefault(r, []).append(p)
        pairs.sort()
        moves = kings + pairs
        if self.stock:
            moves.append(DRAW_MOVE)
        elif self.waste and self.pass_number < MAX_PASSES:
            moves.append(RECYCLE_MOVE)
        return moves

    def refusal(self, move: Move) -> Refusal | None:
        """Why ``move`` is illegal now (a :class:`Refusal`), or ``None`` if it is legal."""
        if self.removed == ALL_REMOVED:
            return Refusal.GAME_WON
        if move.kind == DRAW:
            return None if self.stock else Refusal.NOTHING_TO_DRAW
        if move.kind == RECYCLE:
            if self.stock:
                return Refusal.STOCK_NOT_EMPTY
            if self.pass_number >= MAX_PASSES:
                return Refusal.NO_RECYCLES_LEFT
            return None if self.waste else Refusal.WASTE_EMPTY
        places = move.places()
        if len(places) == 2 and places[0] == places[1]:
            return Refusal.SAME_CARD
        for p in places:
            if self.card_at(p) is None:
                return Refusal.NO_CARD
            if p == STOCK and not self.stock_top_playable:
                return Refusal.STOCK_TOP_UNUSABLE
            if p < NUM_PYRAMID and not self.is_available(p):
                return Refusal.COVERED
        total = sum(rank(card) for card in map(self.card_at, places) if card is not None)
        if total == 13:
            return None
        return Refusal.NEEDS_PARTNER if len(places) == 1 else Refusal.NOT_THIRTEEN

    def is_legal(self, move: Move) -> bool:
        return self.refusal(move) is None

    def outcome(self) -> str | None:
        """``"win"``, ``"dead_end"`` (no legal move, not won), or ``None`` while play goes on."""
        if self.removed == ALL_REMOVED:
            return WIN
        return None if self.legal_moves() else DEAD_END

    def is_terminal(self) -> bool:
        return self.outcome() is not None

    def all_stock_seen(self) -> bool:
        """Whether every stock card has been face up at some time (seed 000's verdict rule)."""
        return all((self.seen >> c) & 1 for c in self.deal.cards[NUM_PYRAMID:])

    def stock_order(self) -> list[int]:
        """Remaining stock-and-waste cards in draw order: waste bottom..top, then stock top..bottom.

        Within a deal this order never changes except by removals: it is the deal's stock order.
        """
        return self.waste + self.stock[::-1]

    def remaining_cards(self) -> list[int]:
        """Cards still in play: pyramid (by position), then waste and stock in draw order."""
        pyramid = [c for p, c in enumerate(self.pyramid) if not (self.removed >> p) & 1]
        return pyramid + self.stock_order()

    # ----------------------------------------------------------------- changes
    def push(self, move: Move) -> None:
        """Play ``move`` if legal; otherwise raise :class:`IllegalMoveError` and change nothing."""
        if not isinstance(move, Move):
            raise MalformedInputError(f"push takes a Move (see legal_moves()), not {type(move).__name__}")
        reason = self.refusal(move)
        if reason is not None:
            raise IllegalMoveError(reason.en, move)
        self._apply(move)
        self._after_push(move)

    def _apply(self, move: Move) -> None:
        """Play a move already known to be legal."""
        self._history.append((move, (self.removed, tuple(self.stock), tuple(self.waste), self.pass_number)))
        if move.kind == REMOVE:
            for p in (move.a, move.b):
                if p == STOCK:
                    self.discarded.append(self.stock.pop())
                elif p == WASTE:
                    self.discarded.append(self.waste.pop())
                elif p >= 0:
                    self.removed |= 1 << p
                    self.discarded.append(self.pyramid[p])
        elif move.kind == DRAW:
            self.waste.append(self.stock.pop())
        else:
            self.stock = self.waste[::-1]
            self.waste = []
            self.pass_number += 1
        self._note_seen()

    def _note_seen(self) -> None:
        if self.stock_top_playable and self.stock:
            self.seen |= 1 << self.stock[-1]
        if self.waste:
            self.seen |= 1 << self.waste[-1]

    def pop(self) -> Move:
        """Undo the last move exactly (the pass count too); the seen record is kept."""
        if not self._history:
            raise IllegalMoveError("There is no move to undo.")
        move, (removed, stock, waste, pass_number) = self._history.pop()
        self.removed, self.pass_number = removed, pass_number
        self.stock, self.waste = list(stock), list(waste)
        if move.kind == REMOVE:
            del self.discarded[-len(move.places()):]
        self._redo.append(move)
        return move



    def copy(self) -> PyramidGame:
        """An independent copy, history included."""
        other = object.__new__(PyramidGame)
        other.__dict__.update(self.__dict__)
        other.stock, other.waste, other.discarded = list(self.stock), list(self.waste), list(self.discarded)
        other._history, other._redo = list(self._history), list(self._redo)
        return other

    def replay(self, moves: Sequence[Move | str]) -> None:
        """Push a sequence of moves (values or text forms)."""
        for m in moves:
            self.push(Move.parse(m) if isinstance(m, str) else m)

    # --------------------------------------------------------------- equality
    def key(self) -> tuple[object, ...]:
        """Everything that defines the position (not the history or the seen record)."""
        return (self.deal.cards, self.stock_top_playable, self.removed, tuple(self.stock),
                tuple(self.waste), self.pass_number)

    def __iter__(self) -> Iterator[Move]:
        return iter(self.legal_moves())

    def __str__(self) -> str:
        return render_text(self)

    def __repr__(self) -> str:
        return (f"PyramidGame({self.deal.label!r}, stock_top_playable={self.stock_top_playable})"
                f" after {self.moves_played} moves")


__all__ = ["DEAD_END", "MAX_PASSES", "WIN", "PyramidGame"]
