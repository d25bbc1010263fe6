"""The Klondike rules engine (seed 002): draw 3 by default, draw 1 as an option.

Seven columns of 1..7 cards, only each column's last card face up; 24 cards in the stock; an empty
waste; four foundations, one per suit, built A..K. Tapping the stock deals 3 cards (fewer when
fewer remain) onto the waste, the last one on top; only the waste's top card is playable. An
empty stock is refilled by turning the waste over in the same order (*recycle*), as often as
wanted; recycles are counted. Columns build down by one in alternating colour; any face-up run
moves as a unit and is judged by its first card; a face-down card left at a column's end turns up
by itself; only a King, or a run starting with one, goes to an empty column. Foundations take the
waste's top card or a column's last card; a foundation's top card may go back to a column. The
game is won when all 52 cards are on the foundations.

The API follows python-chess and the Pyramid engine: :meth:`legal_moves` in a fixed order,
:meth:`refusal`, :meth:`is_legal`, :meth:`push` (checks legality), :meth:`pop` (exact undo),
:meth:`redo`, :meth:`outcome` (``None`` while play goes on), :meth:`copy` and a compact :meth:`key`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from solitaire_rl.envs.cards import NUM_CARDS, card_name, parse_card
from solitaire_rl.envs.deals import Deal, check_full_deck, resolve_deal
from solitaire_rl.envs.errors import IllegalMoveError, MalformedInputError
from solitaire_rl.envs.history import RedoHistory
from solitaire_rl.envs.klondike.layout import DEAL_SLOTS, NUM_COLUMNS, NUM_TABLEAU, deal_table
from solitaire_rl.envs.klondike.messages import Refusal
from solitaire_rl.envs.klondike.moves import (
    COLUMN_COLUMN,
    COLUMN_FOUNDATION,
    DRAW,
    DRAW_MOVE,
    FOUNDATION_COLUMN,
    MAX_RUN,
    RECYCLE,
    RECYCLE_MOVE,
    WASTE_COLUMN,
    WASTE_FOUNDATION,
    Move,
)
from solitaire_rl.envs.klondike.render import render_text
from solitaire_rl.envs.klondike.rules import PARENTS, fits, targets_for
from solitaire_rl.envs.klondike.solvitaire import looks_like_solvitaire, parse_solvitaire

WIN = "win"
DEAD_END = "dead_end"
NO_PROGRESS = "no_progress"
DRAW_COUNTS = (1, 3)
"""The two variants: draw 3 (seed 002, the default) and draw 1."""

_ALL_UP = 13 * 4
# Every move value made once, so move generation allocates nothing.
_WASTE_F = Move(WASTE_FOUNDATION)
_WASTE_C = tuple(Move(WASTE_COLUMN, -1, t) for t in range(NUM_COLUMNS))
_COL_F = tuple(Move(COLUMN_FOUNDATION, s) for s in range(NUM_COLUMNS))
_COL_C = tuple(
    tuple(tuple(Move(COLUMN_COLUMN, s, t, n) for n in range(MAX_RUN + 1)) for t in range(NUM_COLUMNS))
    for s in range(NUM_COLUMNS)
)
_F_COL = tuple(tuple(Move(FOUNDATION_COLUMN, f, t) for t in range(NUM_COLUMNS)) for f in range(4))


def resolve_klondike_deal(spec: object) -> Deal:
    """Any accepted deal description -> a :class:`Deal`: everything
    :func:`solitaire_rl.envs.deals.resolve_deal`
    reads, plus a Solvitaire JSON deal (a dict, or text starting with ``{``)."""
    if looks_like_solvitaire(spec):
        return Deal(parse_solvitaire(spec))  # type: ignore[arg-type]
    return resolve_deal(spec, "klondike")


class KlondikeGame(RedoHistory[Move]):
    """A Klondike position with its move history and the player's knowledge.

    Position: ``columns`` (7 lists, bottom to end), ``hidden`` (face-down cards at the bottom of
    each column), ``stock`` and ``waste`` (lists, top card last), ``foundations`` (top rank per
    suit, 0 when empty). Play records, restored by undo: ``best`` (the highest rank each foundation
    has held in this line of play) and ``recycles``. Knowledge, kept through undo as in the
    Pyramid seeds: ``seen``, a bitmask over the 52 cards of every card that has been face up
    (stock cards shown on the waste, face-down cards turned up).
    """

    def __init__(self, deal: object = "klondike-random-v1-0", *, draw_count: int = 3) -> None:
        self.deal: Deal | None = resolve_klondike_deal(deal)
        columns, stock = deal_table(self.deal.cards)
        self._setup(draw_count, columns, list(range(NUM_COLUMNS)), stock, [], [0, 0, 0, 0])
        self.best = [0, 0, 0, 0]
        self.recycles = 0
        for col in columns:
            self.seen |= 1 << col[-1]

    def _setup(self, draw_count: int, columns: list[list[int]], hidden: list[int], stock: list[int],
               waste: list[int], foundations: list[int]) -> None:
        if draw_count not in DRAW_COUNTS:
            raise MalformedInputError(f"draw_count must be 1 or 3, not {draw_count!r}")
        self.draw_count = draw_count
        self.columns, self.hidden = columns, hidden
        self.stock, self.waste, self.foundations = stock, waste, foundations
        self.seen = 0
        self._history: list[tuple[Move, int]] = []
        self._redo: list[Move] = []
        self._moves: list[Move] | None = None
        self._progress_memo: object = None
        """Memo of :mod:`solitaire_rl.envs.klondike.progress` (its to manage)."""
        self._finish_memo: dict[bytes, list[Move] | None] = {}
        """Memo of :mod:`solitaire_rl.envs.klondike.finish`: position key -> finishing line."""

    @classmethod
    def from_position(
        cls,
        columns: Sequence[Sequence[int | str]],
        hidden: Sequence[int],
        stock: Sequence[int | str] | None = (),
        waste: Sequence[int | str] = (),
        foundations: Sequence[int] = (0, 0, 0, 0),
        *,
        draw_count: int = 3,
        best: Sequence[int] | None = None,
        recycles: int = 0,
        seen: Iterable[int | str] = (),
    ) -> KlondikeGame:
        """A hand-built position (tests, puzzles, analysis); cards as ints or names.

        ``columns`` bottom to end with ``hidden[c]`` face-down cards at the bottom of column ``c``;
        ``stock`` and ``waste`` top card last (``stock=None``: every card placed nowhere else, in
        card order with the lowest on top); ``foundations`` top rank per suit (C, D, H, S).
        ``seen`` lists stock cards the player has already seen (face-up, waste and foundation cards
        count as seen anyway); ``best`` defaults to ``foundations``. The 52 cards must all be there.
        """
        def cards_of(items: Iterable[int | str]) -> list[int]:
            return [parse_card(c) if isinstance(c, str) else int(c) for c in items]

        cols = [cards_of(col) for col in columns]
        waste_cards = cards_of(waste)
        fnd = [int(f) for f in foundations]
        if stock is None:
            placed = {c for col in cols for c in col} | set(waste_cards)
            placed |= {(r - 1) * 4 + s for s in range(len(fnd)) for r in range(1, fnd[s] + 1)}
            stock = [c for c in reversed(range(NUM_CARDS)) if c not in placed]
        game = object.__new__(cls)
        game.deal = None
        game._setup(draw_count, cols, [int(h) for h in hidden], cards_of(stock), waste_cards, fnd)
        game.best = [int(b) for b in best] if best is not None else list(game.foundations)
        game.recycles = int(recycles)
        game._validate()
        game.seen = sum(1 << c for c in set(cards_of(seen)))
        for c, col in enumerate(game.columns):
            for card in col[game.hidden[c]:]:
                game.seen |= 1 << card
        for card in game.waste + game.foundation_cards():
            game.seen |= 1 << card
        return game

    def _validate(self) -> None:
        if len(self.columns) != NUM_COLUMNS or len(self.hidden) != NUM_COLUMNS:
            raise MalformedInputError("a Klondike position has 7 columns and 7 face-down counts")
        if len(self.foundations) != 4 or len(self.best) != 4:
            raise MalformedInputError("a Klondike position has 4 foundations (C, D, H, S)")
        for s in range(4):
            if not 0 <= self.foundations[s] <= self.best[s] <= 13:
                raise MalformedInputError(f"foundation {s}: need 0 <= top rank <= best <= 13")
        if self.recycles < 0:
            raise MalformedInputError("recycles cannot be negative")
        cards = [c for col in self.columns for c in col] + self.stock + self.waste + self.foundation_cards()
        check_full_deck(cards)
        face_up = {card for c, col in enumerate(self.columns) for card in col[self.hidden[c]:]}
        for card in cards:
            if self.foundations[card & 3] < (card >> 2) + 1 <= self.best[card & 3] and card not in face_up:
                raise MalformedInputError(
                    f"{card_name(card)} has been on its foundation (best {self.best[card & 3]}), so it can "
                    f"only be face up in a column now"
                )
        for c, col in enumerate(self.columns):
            h = self.hidden[c]
            if not 0 <= h <= max(len(col) - 1, 0):
                raise MalformedInputError(f"column {c + 1}: its last card must be face up")
            for upper, lower in zip(col[h:], col[h + 1:], strict=False):
                if not fits(lower, upper):
                    raise MalformedInputError(
                        f"column {c + 1}: face-up {card_name(lower)} cannot lie on {card_name(upper)}"
                    )

    # ----------------------------------------------------------------- queries
    @property
    def moves_played(self) -> int:
        return len(self._history)

    @property
    def history(self) -> list[Move]:
        """The moves played so far, oldest first."""
        return [m for m, _ in self._history]


    @property
    def cards_up(self) -> int:
        """Cards on the foundations (of 52)."""
        return sum(self.foundations)

    def is_won(self) -> bool:
        return sum(self.foundations) == _ALL_UP

    def foundation_cards(self) -> list[int]:
        """Every card on the foundations, suit by suit, Ace first."""
        return [(r - 1) * 4 + s for s in range(4) for r in range(1, self.foundations[s] + 1)]

    def face_up(self, col: int) -> list[int]:
        """Column ``col``'s face-up cards, from the run's first card to the column's end."""
        return self.columns[col][self.hidden[col]:]

    def face_down_count(self) -> int:
        return sum(self.hidden)

    def stock_order(self) -> list[int]:
        """Stock and waste cards in draw order: waste bottom..top, then stock top..bottom."""
        return self.waste + self.stock[::-1]

    def unseen_stock(self) -> list[int]:
        """Stock cards the player has never seen, top first."""
        seen = self.seen
        return [c for c in reversed(self.stock) if not (seen >> c) & 1]

    def revealed(self) -> list[int]:
        """Cards dealt face down (for a deal) that have since been turned up, in card order."""
        if self.deal is None:
            return []
        down = [self.deal.cards[i] for i, (col, depth) in enumerate(DEAL_SLOTS[:NUM_TABLEAU]) if depth < col]
        return sorted(c for c in down if (self.seen >> c) & 1)

    def column_ends(self) -> tuple[dict[int, int], list[int]]:
        """Each non-empty column's last card mapped to its column, and the empty columns."""
        end_col: dict[int, int] = {}
        empty: list[int] = []
        for t, col in enumerate(self.columns):
            if col:
                end_col[col[-1]] = t
            else:
                empty.append(t)
        return end_col, empty

    def legal_moves(self) -> list[Move]:
        """Every legal move, in this fixed order (the native solver mirrors it):

        1. ``draw`` if the stock has cards, else ``recycle`` if the waste has cards;
        2. waste to foundation; 3. waste to columns 1..7;
        4. columns 1..7 to foundation;
        5. run moves: source column 1..7, then target column 1..7 (for a source and a target at most
           one run fits: the target decides the run's first card);
        6. foundations C, D, H, S to columns 1..7.

        The returned list is shared until the position changes: do not modify it.
        """
        if self._moves is not None:
            return self._moves
        moves: list[Move] = []
        self._moves = moves
        fnd = self.foundations
        if fnd[0] + fnd[1] + fnd[2] + fnd[3] == _ALL_UP:
            return moves
        cols, hidden, waste = self.columns, self.hidden, self.waste
        if self.stock:
            moves.append(DRAW_MOVE)
        elif waste:
            moves.append(RECYCLE_MOVE)
        end_col, empty = self.column_ends()
        if waste:
            w = waste[-1]
            if fnd[w & 3] == w >> 2:
                moves.append(_WASTE_F)
            for t in targets_for(w, end_col, empty):
                moves.append(_WASTE_C[t])
        for e, s in end_col.items():  # in column order
            if fnd[e & 3] == e >> 2:
                moves.append(_COL_F[s])
        # Run moves: a run fits on an end card one rank above the run's first card in the other
        # colour (rules.PARENTS): look up each face-up card's two parents among the end cards.
        parents, get = PARENTS, end_col.get
        runs: list[Move] = []
        for s in range(NUM_COLUMNS):
            col = cols[s]
            h = hidden[s]
            size = len(col)
            if size <= h:
                continue
            moves_s = _COL_C[s]
            if empty and col[h] >> 2 == 12:
                for t in empty:
                    runs.append(moves_s[t][size - h])
            for i in range(h, size):  # each face-up card may lead a run
                for p in parents[col[i]]:
                    target = get(p)
                    if target is not None and target != s:
                        runs.append(moves_s[target][size - i])
        if runs:
            runs.sort()
            moves += runs
        for f in range(4):
            r = fnd[f]
            if r:
                c = (r - 1) * 4 + f
                for t in targets_for(c, end_col, empty):
                    moves.append(_F_COL[f][t])
        return moves

    def refusal(self, move: Move) -> Refusal | None:
        """Why ``move`` is illegal now (a :class:`Refusal`), or ``None`` if it is legal."""
        fnd = self.foundations
        if sum(fnd) == _ALL_UP:
            return Refusal.GAME_WON
        kind = move.kind
        if kind == DRAW:
            return None if self.stock else Refusal.STOCK_EMPTY if self.waste else Refusal.NOTHING_TO_DRAW
        if kind == RECYCLE:
            if self.stock:
                return Refusal.STOCK_NOT_EMPTY
            return None if self.waste else Refusal.NOTHING_TO_DRAW
        if kind in (WASTE_FOUNDATION, WASTE_COLUMN):
            if not self.waste:
                return Refusal.WASTE_EMPTY
            card = self.waste[-1]
            if kind == WASTE_FOUNDATION:
                return None if fnd[card & 3] == card >> 2 else Refusal.FOUNDATION_ORDER
            return self._column_refusal(card, move.dst)
        if kind == COLUMN_FOUNDATION:
            col = self.columns[move.src]
            if not col:
                return Refusal.NO_CARD
            card = col[-1]
            return None if fnd[card & 3] == card >> 2 else Refusal.FOUNDATION_ORDER
        if kind == COLUMN_COLUMN:
            if move.src == move.dst:
                return Refusal.SAME_COLUMN
            col = self.columns[move.src]
            if move.count > len(col):
                return Refusal.NO_CARD
            if move.count > len(col) - self.hidden[move.src]:
                return Refusal.FACE_DOWN
            return self._column_refusal(col[-move.count], move.dst)
        r = fnd[move.src]
        if not r:
            return Refusal.NO_CARD
        return self._column_refusal((r - 1) * 4 + move.src, move.dst)

    def _column_refusal(self, card: int, dst: int) -> Refusal | None:
        target = self.columns[dst]
        if not target:
            return None if card >> 2 == 12 else Refusal.KING_ONLY
        return None if fits(card, target[-1]) else Refusal.BUILD_DOWN

    def is_legal(self, move: Move) -> bool:
        return self.refusal(move) is None

    def stock_move(self) -> Move:
        """What tapping the stock does now: ``draw``, or ``recycle`` once the stock is empty."""
        return DRAW_MOVE if self.stock or not self.waste else RECYCLE_MOVE

    def is_progress(self, move: Move) -> bool:
        """Whether legal ``move`` makes progress (see :mod:`solitaire_rl.envs.klondike.progress`): it shows an
        unseen stock card, turns up a face-down card, puts a card on a foundation that has never
        held it in this line of play, or wins the game (puts the last card up)."""
        kind = move.kind
        if kind == DRAW:
            seen = self.seen
            return any(not (seen >> c) & 1 for c in self.stock[-self.draw_count:])
        if kind == WASTE_FOUNDATION:
            card = self.waste[-1]
            return (card >> 2) + 1 > self.best[card & 3] or sum(self.foundations) == _ALL_UP - 1
        if kind == COLUMN_FOUNDATION:
            col = self.columns[move.src]
            card = col[-1]
            h = self.hidden[move.src]
            return ((card >> 2) + 1 > self.best[card & 3] or (h > 0 and len(col) - 1 == h)
                    or sum(self.foundations) == _ALL_UP - 1)
        if kind == COLUMN_COLUMN:
            h = self.hidden[move.src]
            return h > 0 and len(self.columns[move.src]) - move.count == h
        return False

    def outcome(self) -> str | None:
        """``"win"``; ``"dead_end"`` (no legal move); ``"no_progress"`` (moves remain but none can
        ever make progress, see :mod:`solitaire_rl.envs.klondike.progress`); ``None`` while play goes on."""
        if self.is_won():
            return WIN
        if not self.legal_moves():
            return DEAD_END
        return None if self.progress_possible() else NO_PROGRESS

    def is_terminal(self) -> bool:
        return self.outcome() is not None

    def progress_possible(self) -> bool:
        """Whether some sequence of legal moves makes progress (exact; see
        :mod:`solitaire_rl.envs.klondike.progress`)."""
        from solitaire_rl.envs.klondike.progress import progress_possible  # the analyses build on this module

        return progress_possible(self)

    def auto_finish_ready(self) -> bool:
        """Seed 002's condition for the finish button: no face-down card, no unseen stock card."""
        if any(self.hidden) or self.is_won():
            return False
        seen = self.seen
        return all((seen >> c) & 1 for c in self.stock)

    def can_auto_finish(self) -> bool:
        """Whether the finish button shows: :meth:`auto_finish_ready` and the finish really wins."""
        from solitaire_rl.envs.klondike.finish import finish_line

        return self.auto_finish_ready() and finish_line(self) is not None

    def auto_finish_move(self) -> Move | None:
        """The finish's next move (to a foundation, or a draw/recycle), or ``None`` if not offered."""
        from solitaire_rl.envs.klondike.finish import finish_line

        line = finish_line(self) if self.auto_finish_ready() else None
        return line[0] if line else None

    def auto_finish_step(self) -> Move:
        """Play the finish's next move (one card at a time, as the seed's button does)."""
        move = self.auto_finish_move()
        if move is None:
            raise IllegalMoveError("The finish is not available in this position.")
        self.push(move)
        return move

    # ----------------------------------------------------------------- changes
    def push(self, move: Move) -> None:
        """Play ``move`` if legal; otherwise raise :class:`IllegalMoveError` and change nothing."""
        if not isinstance(move, Move):
            raise MalformedInputError(f"push takes a Move (see legal_moves()), not {type(move).__name__}")
        reason = self.refusal(move)
        if reason is not None:
            raise IllegalMoveError(reason.en, move)
        self._history.append((move, self._apply(move)))
        self._after_push(move)

    def _apply(self, move: Move) -> int:
        """Play a move known to be legal; return what :meth:`_unapply` needs to undo it exactly.

        The undo note is ``prev_best << 8 | card << 1 | turned_up`` for foundation moves,
        ``turned_up`` for run moves, the number of cards dealt for a draw, else 0.
        """
        self._moves = None
        kind = move.kind
        if kind == DRAW:
            stock, waste = self.stock, self.waste
            n = min(self.draw_count, len(stock))
            seen = self.seen
            for _ in range(n):
                card = stock.pop()
                waste.append(card)
                seen |= 1 << card
            self.seen = seen
            return n
        if kind == RECYCLE:
            self.stock = self.waste[::-1]
            self.waste = []
            self.recycles += 1
            return 0
        if kind == WASTE_COLUMN:
            self.columns[move.dst].append(self.waste.pop())
            return 0
        if kind == FOUNDATION_COLUMN:
            f = move.src
            self.columns[move.dst].append((self.foundations[f] - 1) * 4 + f)
            self.foundations[f] -= 1
            return 0
        if kind == COLUMN_COLUMN:
            col = self.columns[move.src]
            n = move.count
            self.columns[move.dst].extend(col[-n:])
            del col[-n:]
            return self._turn_up(move.src)
        card = self.waste.pop() if kind == WASTE_FOUNDATION else self.columns[move.src].pop()
        s = card & 3
        top = self.foundations[s] = self.foundations[s] + 1
        prev = self.best[s]
        if top > prev:
            self.best[s] = top
        turned = self._turn_up(move.src) if kind == COLUMN_FOUNDATION else 0
        return prev << 8 | card << 1 | turned

    def _turn_up(self, c: int) -> int:
        """Turn up column ``c``'s last card if it is face down; 1 if it did."""
        h = self.hidden[c]
        if h and len(self.columns[c]) == h:
            self.hidden[c] = h - 1
            self.seen |= 1 << self.columns[c][-1]
            return 1
        return 0

    def _unapply(self, move: Move, note: int) -> None:
        """Exact inverse of :meth:`_apply` (the ``seen`` knowledge is kept)."""
        self._moves = None
        kind = move.kind
        if kind == DRAW:
            stock, waste = self.stock, self.waste
            for _ in range(note):
                stock.append(waste.pop())
        elif kind == RECYCLE:
            self.waste = self.stock[::-1]
            self.stock = []
            self.recycles -= 1
        elif kind == WASTE_COLUMN:
            self.waste.append(self.columns[move.dst].pop())
        elif kind == FOUNDATION_COLUMN:
            self.columns[move.dst].pop()
            self.foundations[move.src] += 1
        elif kind == COLUMN_COLUMN:
            self.hidden[move.src] += note
            dst = self.columns[move.dst]
            n = move.count
            self.columns[move.src].extend(dst[-n:])
            del dst[-n:]
        else:
            card = (note >> 1) & 63
            s = card & 3
            self.foundations[s] -= 1
            self.best[s] = note >> 8
            if kind == WASTE_FOUNDATION:
                self.waste.append(card)
            else:
                self.hidden[move.src] += note & 1
                self.columns[move.src].append(card)

    def pop(self) -> Move:
        """Undo the last move exactly (recycle count and foundation records too); ``seen`` is kept."""
        if not self._history:
            raise IllegalMoveError("There is no move to undo.")
        move, note = self._history.pop()
        self._unapply(move, note)
        self._redo.append(move)
        return move



    def copy(self) -> KlondikeGame:
        """An independent copy, history included."""
        other = self._copy_position()
        other._history, other._redo = list(self._history), list(self._redo)
        return other

    def _copy_position(self) -> KlondikeGame:
        """An independent copy of the position and records, without history (for searches)."""
        other = object.__new__(KlondikeGame)
        other.__dict__.update(self.__dict__)
        other.columns = [list(col) for col in self.columns]
        other.hidden, other.stock, other.waste = list(self.hidden), list(self.stock), list(self.waste)
        other.foundations, other.best = list(self.foundations), list(self.best)
        other._history, other._redo, other._moves = [], [], None
        other._progress_memo, other._finish_memo = None, {}
        return other

    def replay(self, moves: Sequence[Move | str]) -> None:
        """Push a sequence of moves (values or text forms)."""
        for m in moves:
            self.push(Move.parse(m) if isinstance(m, str) else m)

    # --------------------------------------------------------------- equality
    def key(self) -> bytes:
        """The position as compact bytes: foundations (4), then per column its face-down count,
        length and cards, then the stock's length and cards (bottom..top), then the waste
        (bottom..top). History, recycles and the records are not part of it."""
        out = list(self.foundations)
        for c, col in enumerate(self.columns):
            out.append(self.hidden[c])
            out.append(len(col))
            out.extend(col)
        out.append(len(self.stock))
        out.extend(self.stock)
        out.extend(self.waste)
        return bytes(out)

    def __iter__(self) -> Iterator[Move]:
        return iter(self.legal_moves())

    def __str__(self) -> str:
        return render_text(self)

    def __repr__(self) -> str:
        label = self.deal.label if self.deal is not None else "position"
        return f"KlondikeGame({label!r}, draw_count={self.draw_count}) after {self.moves_played} moves"


__all__ = ["DEAD_END", "DRAW_COUNTS", "NO_PROGRESS", "WIN", "KlondikeGame", "resolve_klondike_deal"]
