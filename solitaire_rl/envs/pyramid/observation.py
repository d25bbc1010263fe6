"""What a player at the Pyramid table knows, as one flat ``float32`` vector: computed only here.

A stock card's rank is written only once the engine's ``seen`` record holds it (the stock top is
face up in variant 000, face down in 001; ``seen`` survives undo), so an unseen card is absent by
construction. Suits play no part in Pyramid and are left out.

Layout (:data:`OBSERVATION_SIZE` = 883 values, each in ``[0, 1]``), with named views from
:func:`split_observation`:

* ``pyramid``, 28 rows x 15 (positions apex down, rows left to right): rank one-hot (13, A..K;
  pyramid cards are face up from the start and a removed card keeps its rank), ``on_table``,
  ``available`` (on the table and both covering cards gone).
* ``stock``, 24 rows x 19, one per stock card in the deal's stock order (slot 0 is the deal's
  first stock card, the first drawn): rank one-hot (13, all zero until the card has been face
  up), ``seen``, ``in_stock``, ``in_waste``, ``gone``, ``stock_top``, ``waste_top``. Removals only
  delete from the stock and waste, and a recycle turns the waste over as it lies, so the waste
  (bottom..top) followed by the stock (top..bottom) is always the deal's stock order: these slots
  give the exact stock and waste, as far as a person who remembers what they saw knows them.
* ``globals``, 7: pass 1/2/3 one-hot, stock count / 24, waste count / 24, pyramid cards left / 28,
  ``stock_top_usable`` (1 in variant 000).

:class:`PyramidObserver` keeps one vector and, after each move, rewrites only the rows the move
touched, from the same precomputed row tables and state rules that build it in full;
:func:`observe` builds it from scratch (tests check the two agree at every step).
"""

from __future__ import annotations

import numpy as np

from solitaire_rl.envs.cards import NUM_CARDS, RANK_NAMES, rank
from solitaire_rl.envs.pyramid.game import MAX_PASSES, PyramidGame
from solitaire_rl.envs.pyramid.layout import COVERED_BY, NUM_PYRAMID, NUM_STOCK
from solitaire_rl.envs.pyramid.moves import DRAW, RECYCLE, Move

NUM_RANKS = 13
RANK_FEATURES = tuple(f"rank_{name}" for name in RANK_NAMES)
"""One-hot rank columns ``rank_A`` .. ``rank_K``, first in every pyramid and stock row."""
PYRAMID_FEATURES = (*RANK_FEATURES, "on_table", "available")
STOCK_FEATURES = (*RANK_FEATURES, "seen", "in_stock", "in_waste", "gone", "stock_top", "waste_top")
GLOBAL_FEATURES = (
    "pass_1", "pass_2", "pass_3", "stock_count", "waste_count", "pyramid_left", "stock_top_usable",
)
PYRAMID_SIZE = NUM_PYRAMID * len(PYRAMID_FEATURES)
STOCK_SIZE = NUM_STOCK * len(STOCK_FEATURES)
OBSERVATION_SIZE = PYRAMID_SIZE + STOCK_SIZE + len(GLOBAL_FEATURES)

# Pyramid position states and stock slot states, as indices into the row tables below.
GONE, COVERED, AVAILABLE = 0, 1, 2
IN_STOCK, STOCK_TOP, IN_WASTE, WASTE_TOP, SLOT_GONE = 0, 1, 2, 3, 4

_RANK = tuple(rank(c) for c in range(NUM_CARDS))
_PARENTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(q for q in range(NUM_PYRAMID) if p in COVERED_BY[q]) for p in range(NUM_PYRAMID)
)
"""The positions each position covers (whose availability may change when it goes)."""


def _row_table(width: int, flags: dict[int, tuple[int, ...]], seen_flag: int | None = None) -> np.ndarray:
    """``table[rank, state]``: the finished row of a card of ``rank`` (0: not known) in ``state``."""
    table = np.zeros((NUM_RANKS + 1, len(flags), width), np.float32)
    for state, state_flags in flags.items():
        table[:, state, list(state_flags)] = 1.0
    for r in range(1, NUM_RANKS + 1):
        table[r, :, r - 1] = 1.0
        if seen_flag is not None:
            table[r, :, seen_flag] = 1.0
    return table


_ON_TABLE, _AVAIL = NUM_RANKS, NUM_RANKS + 1
_PYRAMID_TABLE = _row_table(len(PYRAMID_FEATURES), {
    GONE: (), COVERED: (_ON_TABLE,), AVAILABLE: (_ON_TABLE, _AVAIL),
})
_SEEN, _S_STOCK, _S_WASTE, _S_GONE, _S_STOCK_TOP, _S_WASTE_TOP = range(NUM_RANKS, NUM_RANKS + 6)
_STOCK_TABLE = _row_table(len(STOCK_FEATURES), {
    IN_STOCK: (_S_STOCK,), STOCK_TOP: (_S_STOCK, _S_STOCK_TOP), IN_WASTE: (_S_WASTE,),
    WASTE_TOP: (_S_WASTE, _S_WASTE_TOP), SLOT_GONE: (_S_GONE,),
}, seen_flag=_SEEN)
# The same rows as nested lists, for one-row writes (list indexing is cheaper than numpy's).
_PYRAMID_ROWS = [list(rows) for rows in _PYRAMID_TABLE]
_STOCK_ROWS = [list(rows) for rows in _STOCK_TABLE]


def _position_state(game: PyramidGame, pos: int) -> int:
    return GONE if (game.removed >> pos) & 1 else AVAILABLE if game.is_available(pos) else COVERED


def _slot_state(game: PyramidGame, card: int) -> int:
    stock, waste = game.stock, game.waste
    if stock and stock[-1] == card:
        return STOCK_TOP
    if waste and waste[-1] == card:
        return WASTE_TOP
    if card in waste:
        return IN_WASTE
    return IN_STOCK if card in stock else SLOT_GONE


def _known_rank(game: PyramidGame, card: int) -> int:
    """The card's rank once it has been face up, else 0."""
    return _RANK[card] if (game.seen >> card) & 1 else 0


def split_observation(vector: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Named views (no copies) of an observation: ``pyramid`` (28, 15), ``stock`` (24, 19), ``globals``."""
    pyramid = vector[:PYRAMID_SIZE].reshape(NUM_PYRAMID, len(PYRAMID_FEATURES))
    stock = vector[PYRAMID_SIZE : PYRAMID_SIZE + STOCK_SIZE].reshape(NUM_STOCK, len(STOCK_FEATURES))
    return pyramid, stock, vector[PYRAMID_SIZE + STOCK_SIZE :]


class PyramidObserver:
    """Holds the observation vector of one game and keeps it current move by move.

    Call :meth:`reset` for a new game (or after undo), then :meth:`update` after each move pushed.
    The vector is reused: copy it before handing it out.
    """

    _VIEWS = ("pyramid", "stock", "globals", "_pyramid_rows", "_stock_rows")

    def __init__(self) -> None:
        self.vector = np.zeros(OBSERVATION_SIZE, np.float32)
        self._stock_cards: tuple[int, ...] = ()
        self._slot_of_card: dict[int, int] = {}
        self._tops: tuple[int | None, int | None] = (None, None)
        self._bind_views()

    def _bind_views(self) -> None:
        """Row views into :attr:`vector`, written in place (rebuilt after unpickling or copying)."""
        self.pyramid, self.stock, self.globals = split_observation(self.vector)
        self._pyramid_rows = list(self.pyramid)
        self._stock_rows = list(self.stock)

    def __getstate__(self) -> dict[str, object]:
        return {k: v for k, v in self.__dict__.items() if k not in self._VIEWS}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)
        self._bind_views()

    def reset(self, game: PyramidGame) -> np.ndarray:
        """Write the whole observation of ``game``."""
        self._stock_cards = game.deal.cards[NUM_PYRAMID:]
        self._slot_of_card = {card: slot for slot, card in enumerate(self._stock_cards)}
        ranks = [_RANK[card] for card in game.pyramid]
        states = [_position_state(game, pos) for pos in range(NUM_PYRAMID)]
        self.pyramid[:] = _PYRAMID_TABLE[ranks, states]
        self._write_stock(game)
        self._write_globals(game)
        return self.vector

    def update(self, game: PyramidGame, move: Move) -> np.ndarray:
        """Rewrite what ``move`` (just pushed on ``game``) can have changed."""
        kind = move.kind
        if kind == RECYCLE:
            self._write_stock(game)
            self._write_globals(game)
            return self.vector
        if kind != DRAW:
            for p in (move.a, move.b):
                if 0 <= p < NUM_PYRAMID:
                    self._write_position(game, p)
                    for q in _PARENTS[p]:
                        self._write_position(game, q)
        if kind == DRAW or max(move.a, move.b) >= NUM_PYRAMID:  # the stock or the waste changed
            tops = self._current_tops(game)
            for card in {*self._tops, *tops}:
                if card is not None:
                    self._write_slot(game, card)
            self._tops = tops
        self._write_counts(game)
        return self.vector

    @staticmethod
    def _current_tops(game: PyramidGame) -> tuple[int | None, int | None]:
        return (game.stock[-1] if game.stock else None, game.waste[-1] if game.waste else None)

    def _write_position(self, game: PyramidGame, pos: int) -> None:
        self._pyramid_rows[pos][:] = _PYRAMID_ROWS[_RANK[game.pyramid[pos]]][_position_state(game, pos)]

    def _write_slot(self, game: PyramidGame, card: int) -> None:
        row = _STOCK_ROWS[_known_rank(game, card)][_slot_state(game, card)]
        self._stock_rows[self._slot_of_card[card]][:] = row

    def _write_stock(self, game: PyramidGame) -> None:
        """Every stock slot, the tops and the counts."""
        cards = self._stock_cards
        ranks = [_known_rank(game, card) for card in cards]
        self.stock[:] = _STOCK_TABLE[ranks, [_slot_state(game, card) for card in cards]]
        self._tops = self._current_tops(game)
        self._write_counts(game)

    def _write_globals(self, game: PyramidGame) -> None:
        """The pass and the variant: they change only at a reset or a recycle."""
        g = self.globals
        g[:MAX_PASSES] = 0.0
        g[game.pass_number - 1] = 1.0
        g[6] = 1.0 if game.stock_top_playable else 0.0

    def _write_counts(self, game: PyramidGame) -> None:
        g = self.globals
        g[3] = len(game.stock) / NUM_STOCK
        g[4] = len(game.waste) / NUM_STOCK
        g[5] = game.cards_left / NUM_PYRAMID


def observe(game: PyramidGame) -> np.ndarray:
    """A fresh observation of ``game`` built from scratch (the reference for the incremental one)."""
    return PyramidObserver().reset(game).copy()


__all__ = [
    "GLOBAL_FEATURES", "OBSERVATION_SIZE", "PYRAMID_FEATURES", "RANK_FEATURES", "STOCK_FEATURES",
    "PyramidObserver", "observe", "split_observation",
]
