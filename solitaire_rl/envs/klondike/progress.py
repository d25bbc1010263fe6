"""The exact "no progress possible" check, computed only from what the player knows.

**Definition.** A legal move *makes progress* when it

1. turns up a face-down column card (it moves a column's whole face-up part, or its last card to a
   foundation, off a face-down card);
2. shows on the waste a stock card the player has never seen (one not in ``game.seen``); or
3. puts a card on a foundation that has never held it in this line of play: its rank is above
   ``game.best[suit]``, the highest rank that foundation has reached. (A card moved from a
   foundation back to a column and up again is not progress; neither is recycling the waste.)
4. wins the game: it puts the last card up (even one its foundation has held before: a line that
   brought a King down and wins by putting it back up ends in a win, not a dead end).

*Progress is possible* from a position when some sequence of legal moves, none of them making
progress, is followed by one that does. Otherwise every line of play only shuffles known cards
between columns, foundations (below their records) and the stock cycle: the game can never
change in substance, and the seed's notice "moves remain, but none leads anywhere" applies.

The answer uses only what the player knows: the search stops at the first move that would turn
up a face-down card or show an unseen stock card, so it never looks at a hidden card. Each kind
of progress can happen only finitely often (21 face-down cards, 24 stock cards, 52 foundation
records), so an episode that ends when progress is impossible cannot be stretched forever by
making "progress".

**Method.** In order, stopping at the first answer:

1. cheap exits: the game is won (no); a stock card was never seen (yes: drawing on shows it);
   no legal move (no); a legal move makes progress (yes); the last move can be played backwards
   and the position before it was judged able to progress (yes: go back, then on from there);
2. the memo (below);
3. a relaxation (:func:`_relaxed_rounds`) that lets every achievement stand (a card once at a
   column's end stays available, a foundation once built stays built, ...): it over-approximates
   what play can do, so when even it cannot reach progress, nothing can (no);
4. a quick depth-first probe using only stock and waste moves (yes if it finds progress);
5. a best-first search over the positions reachable without progress, ordered by the
   relaxation's rounds and pruning positions the relaxation proves hopeless (the answer). Once it
   has queued :data:`SEARCH_BEFORE_PROBE` states without an answer, it stops for a depth-first
   probe over every move entering at most :data:`PROBE_STATES` states (yes if that finds
   progress), then starts again: a long line of cards brought down from the foundations, which
   the best-first order reaches late, is found at once that way (one such position took 6 s
   without the probe and 13 ms with it).

Two reductions keep the searches small and exact:

* *the stock cycle as one state*: with every stock card known, drawing and recycling are never
  progress, and the waste lengths met again by drawing on and recycling (0, 3, 6, ... and the
  whole stock, in draw 3) lie on one cycle. Such positions are searched as one state whose moves
  are the column and foundation moves plus the top-card moves of every waste length on the cycle.
  Other waste lengths (after a waste card was played) are states of their own that draw into it;
* *safe raises*: a column card lying on a face-up card that may go up to its foundation without
  progress is sent up at once (except right after a card came down from a foundation, so that
  it can be built on). The card can come straight back down onto the same card, so both positions
  reach the same positions; moves that need it down are reached by bringing it down again.

States are keyed by :func:`state_key`, which merges positions that must share an answer: columns
in another order, other face-down cards under the same face-up cards, and *twins* (the two cards
of one rank and colour) exchanged while neither can reach its foundation without progress.

Results are memoised per game for as long as the foundation records (and the draw count) stay the
same: after a successful search every explored state with a known way to the goal is *good*;
after an exhausted search every state met is *bad*, as is every state the relaxation rules out.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

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
from solitaire_rl.envs.klondike.rules import PARENTS, targets_for

_ALL_UP = 52
"""Cards on the foundations in a won game."""

if TYPE_CHECKING:
    from solitaire_rl.envs.klondike.game import KlondikeGame


class _Memo:
    """Search keys known to reach progress, or known not to, for one ``best`` record, and the
    last answer given (history length, last history entry, answer)."""

    __slots__ = ("bad", "context", "good", "last")

    def __init__(self, context: tuple[int, ...]) -> None:
        self.context = context
        self.good: set[bytes] = set()
        self.bad: set[bytes] = set()
        self.last: tuple[int, object, bool] | None = None


_WASTE_F = Move(WASTE_FOUNDATION)
_WASTE_C = tuple(Move(WASTE_COLUMN, -1, t) for t in range(7))
_COL_F = tuple(Move(COLUMN_FOUNDATION, c) for c in range(7))
_F_COL = tuple(tuple(Move(FOUNDATION_COLUMN, f, t) for t in range(7)) for f in range(4))
_COL_C = tuple(
    tuple(tuple(Move(COLUMN_COLUMN, s, t, n) for n in range(14)) for t in range(7)) for s in range(7)
)
ON_CYCLE = 255
"""Waste-length marker in a search key for a position on the stock cycle."""
_TALON_KINDS = frozenset((DRAW, RECYCLE, WASTE_FOUNDATION, WASTE_COLUMN))
_MAY_PROGRESS = frozenset((WASTE_FOUNDATION, COLUMN_FOUNDATION, COLUMN_COLUMN))


def _on_cycle(waste_len: int, talon_len: int, draw_count: int) -> bool:
    """Whether drawing on and recycling comes back to this waste length."""
    return waste_len == talon_len or waste_len % draw_count == 0


def search_key(game: KlondikeGame) -> bytes:
    """:meth:`KlondikeGame.key` in another layout, with the waste length replaced by
    :data:`ON_CYCLE` when it lies on the stock cycle: foundations, each column's face-down count,
    length and cards, then the waste length (or the marker) and the talon in draw order."""
    out = list(game.foundations)
    hidden = game.hidden
    for c, col in enumerate(game.columns):
        out.append(hidden[c])
        out.append(len(col))
        out += col
    waste, stock = game.waste, game.stock
    w = len(waste)
    out.append(ON_CYCLE if _on_cycle(w, w + len(stock), game.draw_count) else w)
    out += waste
    out += stock[::-1]
    return bytes(out)


def state_key(game: KlondikeGame) -> bytes:
    """The search's memo key: what decides whether progress is possible from a position, and no more.

    Like :func:`search_key` (foundations, columns, then the waste length or :data:`ON_CYCLE` and the
    talon in draw order), with three positions merged into one key wherever they must have the
    same answer:

    * a column is written as its face-up cards followed by a byte, 64 or 65, that says whether
      face-down cards lie under them (not how many, nor which: the search stops before any is
      turned up);
    * the columns are sorted: the rules treat every column alike;
    * *twins*, the two cards of one rank and colour (the black fives 5C and 5S, say), are written
      alike when neither can ever reach its foundation without progress: when the rank is at
      least two above both suits' records (:func:`twin_table`). A foundation never passes its
      record without progress, so such cards only ever move between columns and the talon, where
      the rules see only rank and colour: exchanging them maps every line of play onto another.
    """
    table = _twin_table(*game.best)
    hidden = game.hidden
    chunks = [bytes(col[h:]).translate(table) + _FACE_DOWN_BELOW if (h := hidden[c])
              else bytes(col).translate(table) + _ALL_FACE_UP for c, col in enumerate(game.columns)]
    chunks.sort()
    waste, stock = game.waste, game.stock
    w = len(waste)
    marker = ON_CYCLE if _on_cycle(w, w + len(stock), game.draw_count) else w
    talon = (bytes(waste) + bytes(stock[::-1])).translate(table)
    return b"".join((bytes(game.foundations), *chunks, bytes((marker,)), talon))


_ALL_FACE_UP = bytes((64,))
_FACE_DOWN_BELOW = bytes((65,))
_TWIN_TABLES: dict[tuple[int, int, int, int], bytes] = {}


def twin_table(best: Sequence[int]) -> bytes:
    """A :meth:`bytes.translate` table that writes each card as itself, except that of two twins
    (same rank and colour: clubs and spades, diamonds and hearts) whose rank is at least two above
    both suits' foundation records ``best``, the spade or heart is written as its club or diamond."""
    return _twin_table(*best)


def _twin_table(clubs: int, diamonds: int, hearts: int, spades: int) -> bytes:
    key = (clubs, diamonds, hearts, spades)
    table = _TWIN_TABLES.get(key)
    if table is None:
        codes = list(range(256))
        for rank in range(1, 14):
            base = (rank - 1) * 4
            if rank >= max(clubs, spades) + 2:
                codes[base + 3] = base  # spade -> club
            if rank >= max(diamonds, hearts) + 2:
                codes[base + 2] = base + 1  # heart -> diamond
        table = _TWIN_TABLES[key] = bytes(codes)
    return table


def _cut(game: KlondikeGame, waste_len: int) -> None:
    """Move the stock/waste boundary so the waste holds ``waste_len`` cards (draw order kept)."""
    if len(game.waste) != waste_len:
        talon = game.waste + game.stock[::-1]
        game.waste = talon[:waste_len]
        game.stock = talon[waste_len:][::-1]
        game._moves = None


def _normalize(game: KlondikeGame) -> None:
    """Put a position on the stock cycle at the cycle's start (empty waste)."""
    w = len(game.waste)
    if w and _on_cycle(w, w + len(game.stock), game.draw_count):
        _cut(game, 0)


def _safe_raise(game: KlondikeGame) -> int:
    """A column whose last card may go up to its foundation without progress and back down again
    (it lies on a face-up card and its foundation has held it before), or -1."""
    fnd, best, hidden = game.foundations, game.best, game.hidden
    if fnd == best:
        return -1  # every card a foundation has held is on it
    for c, col in enumerate(game.columns):
        if len(col) > hidden[c] + 1:
            card = col[-1]
            r = card >> 2
            s = card & 3
            if fnd[s] == r < best[s]:
                return c
    return -1


def _raise_all(game: KlondikeGame) -> list[tuple[Move, int]]:
    """Play every safe raise (see :func:`_safe_raise`), repeatedly; return them for undoing."""
    raised = []
    c = _safe_raise(game)
    while c >= 0:
        move = _COL_F[c]
        raised.append((move, game._apply(move)))
        c = _safe_raise(game)
    return raised


def _relaxed_rounds(game: KlondikeGame) -> int | None:
    """A quick necessary condition for progress: ``None`` proves that no progress is possible;
    otherwise the number of rounds the relaxation below needed (a guide for the search).

    It over-approximates what play can achieve by never undoing an achievement (a relaxation):
    which cards can become a column's last card (``end``), which face-up cards can leave their
    place (``moved``), how far each foundation can be built, whether a column can be emptied, and
    which stock cards can reach the waste's top. A fact is added when some move could produce it
    given facts already possible, until nothing changes. Every real line of play only produces
    possible facts, so if no fact means progress (a face-down card's cover moved, a foundation
    above its record, a stock card onto a foundation), no line of play makes progress.
    """
    fnd, best, hidden, columns = game.foundations, game.best, game.hidden, game.columns
    p1, p2 = _PARENT1, _PARENT2
    end = [False] * 53  # index 52: "no parent" (a King), never an end
    moved = [False] * 52
    under: dict[int, int] = {}  # face-up card -> the card it lies on (-1: on face-down cards)
    column_cards: list[int] = []
    empty_col = False
    for c, col in enumerate(columns):
        h = hidden[c]
        if not col:
            empty_col = True
            continue
        below = -1 if h else -2  # -2: a column's bottom card
        for i in range(h, len(col)):
            card = col[i]
            column_cards.append(card)
            under[card] = below
            below = card
        end[col[-1]] = True
    talon = game.waste + game.stock[::-1]
    n = len(talon)
    # Stock card j can reach the waste's top when the waste ends on it: when it is the last card,
    # when the card after it leaves (``played[j + 1]``), or when a draw (from the cycle's start or
    # from the present waste length) ends on it, possibly after cards before it left (a shift of
    # ``need[j]`` cards at least).
    need = _shift_needed(len(game.waste), n, game.draw_count)
    played = [False] * (n + 1)  # stock cards that can go from the waste's top to a column
    reach = list(fnd)  # how far each foundation can be built
    on_top = [False] * 52
    rounds = 0
    changed = True
    while changed:
        changed = False
        rounds += 1
        before = 0  # cards before j that can be played away
        for j in range(n):
            if played[j]:
                before += 1
                continue
            if played[j + 1] or before >= need[j]:
                card = talon[j]
                on_top[card] = True
                if reach[card & 3] >= card >> 2:
                    return rounds  # a stock card onto its foundation
                if end[p1[card]] or end[p2[card]] or (card >> 2 == 12 and empty_col):
                    played[j] = end[card] = changed = True
                    before += 1
        for card in column_cards:
            if moved[card]:
                continue
            below = under[card]
            a, b = p1[card], p2[card]
            if (
                (end[a] and a != below)
                or (end[b] and b != below)
                or (card >> 2 == 12 and empty_col and below != -2)
                or (end[card] and reach[card & 3] >= card >> 2)
            ):
                if below == -1:
                    return rounds  # a face-down card turned up
                moved[card] = changed = True
                if below >= 0:
                    end[below] = True
                else:
                    empty_col = True
        for s in range(4):
            r = reach[s]
            while r < 13:
                card = r * 4 + s
                if not (end[card] or on_top[card]):
                    break
                if r + 1 > best[s]:
                    return rounds  # a foundation above its record
                r += 1
                changed = True
            reach[s] = r
            if r == 13 and min(reach) == 13:
                return rounds  # every card up: a win
            for card in range(s, r * 4, 4):  # cards that can come down from the foundation
                if not end[card] and (end[p1[card]] or end[p2[card]] or (card >> 2 == 12 and empty_col)):
                    end[card] = changed = True
    return None


_PARENT1 = tuple(PARENTS[c][0] if PARENTS[c] else 52 for c in range(52))
_PARENT2 = tuple(PARENTS[c][1] if PARENTS[c] else 52 for c in range(52))
_SHIFTS: dict[tuple[int, int, int], list[int]] = {}


def _shift_needed(w: int, n: int, step: int) -> list[int]:
    """For a talon of ``n`` cards with ``w`` on the waste: for each card, how many cards before it
    must leave first for a draw (from the cycle's start or from the waste as it is) to end on it."""
    key = (w, n, step)
    need = _SHIFTS.get(key)
    if need is None:
        need = [0 if j == n - 1 else next(
            m for m in range(step) if (j + 1 - m) % step == 0 or (j >= w - 1 and (j - w + 1 - m) % step == 0)
        ) for j in range(n)]
        _SHIFTS[key] = need
    return need


def _back_to_good(game: KlondikeGame, memo: _Memo) -> bool:
    """Whether the position before the last move was judged able to progress (under the present
    records) and the last move can be played backwards: then this position can progress too.
    This answers most steps of an episode without a search."""
    last, history = memo.last, game._history
    if last is None or not last[2] or last[0] != len(history) - 1:
        return False
    if (history[-2] if len(history) > 1 else None) is not last[1]:
        return False  # the answer was for another line of play
    move, note = history[-1]
    kind = move.kind
    if kind == COLUMN_COLUMN and not note & 1:
        back = _COL_C[move.dst][move.src][move.count]
    elif kind == FOUNDATION_COLUMN:
        back = _COL_F[move.dst]
    elif kind == COLUMN_FOUNDATION and not note & 1:
        back = _F_COL[(note >> 1) & 3][move.src]
    else:
        return False  # no way back, or a card was turned up (going back would not hide it)
    return game.refusal(back) is None


def progress_possible(game: KlondikeGame) -> bool:
    """Whether some sequence of legal moves makes progress (see the module docstring)."""
    context = (*game.best, game.draw_count)
    memo = game._progress_memo
    if not isinstance(memo, _Memo) or memo.context != context:
        memo = game._progress_memo = _Memo(context)
    answer = _answer(game, memo)
    history = game._history
    memo.last = (len(history), history[-1] if history else None, answer)
    return answer


def _answer(game: KlondikeGame, memo: _Memo) -> bool:
    if game.is_won():
        return False
    seen = game.seen
    for card in game.stock:
        if not (seen >> card) & 1:
            return True
    moves = game.legal_moves()
    if not moves:
        return False
    if _progress_move(game, moves) or _back_to_good(game, memo):
        return True
    work = game
    if _safe_raise(game) >= 0:
        work = game._copy_position()
        _raise_all(work)
    key = state_key(work)
    if key in memo.good:
        return True
    if key in memo.bad:
        return False
    if _relaxed_rounds(work) is None:
        memo.bad.add(key)
        return False
    if work is game:
        work = game._copy_position()
    _normalize(work)
    if _probe(work._copy_position(), key, memo):
        return True
    if PROBE_STATES > 0:  # a long search: try depth first over every move, then search on
        answer = _search(work, key, memo, limit=SEARCH_BEFORE_PROBE)
        if answer is not None:
            return answer
        if _probe(work._copy_position(), key, memo, _all_edges, PROBE_STATES):
            return True
    return bool(_search(work, key, memo))


def _progress_move(game: KlondikeGame, moves: list[Move]) -> bool:
    """Whether one of ``moves`` makes progress (draws cannot: every stock card has been seen)."""
    is_progress = game.is_progress
    return any(move.kind in _MAY_PROGRESS and is_progress(move) for move in moves)


Edge = tuple[int, Move]
"""A search move: play ``move`` after cutting the waste to that many cards (``-1``: as it is)."""


def _edges(work: KlondikeGame) -> list[Edge] | None:
    """The moves out of a search state, or ``None`` if one of them makes progress."""
    edges: list[Edge] = []
    moves = work.legal_moves()
    waste = work.waste
    w = len(waste)
    n = w + len(work.stock)
    cycle = _on_cycle(w, n, work.draw_count)
    for move in moves:
        if cycle and move.kind in _TALON_KINDS:
            continue  # the waste lengths of the cycle are handled below
        if work.is_progress(move):
            return None
        edges.append((-1, move))  # off the cycle: the waste's own top card, and drawing on
    if cycle and n:  # the state stands for every waste length on the cycle (work is cut to 0)
        talon = work.stock[::-1]
        fnd, best = work.foundations, work.best
        end_col, empty = work.column_ends()
        step = work.draw_count
        for cut in (*range(step, n, step), n):
            card = talon[cut - 1]
            if fnd[card & 3] == card >> 2:
                if (card >> 2) + 1 > best[card & 3] or sum(fnd) == _ALL_UP - 1:
                    return None  # progress: a record, or the last card up
                edges.append((cut, _WASTE_F))
            for t in targets_for(card, end_col, empty):
                edges.append((cut, _WASTE_C[t]))
    return edges


_Step = tuple[Move, int, int, int, list[tuple[Move, int]]]
"""How a search step was played: move, waste length before, undo note, waste length after the
move (before normalising), and the safe raises that followed."""


def _play(work: KlondikeGame, cut: int, move: Move) -> _Step:
    before = len(work.waste)
    if cut >= 0:
        _cut(work, cut)
    note = work._apply(move)
    after = len(work.waste)
    _normalize(work)
    raised = _raise_all(work) if move.kind != FOUNDATION_COLUMN else []
    return move, before, note, after, raised


def _undo(work: KlondikeGame, step: _Step) -> None:
    move, before, note, after, raised = step
    for m, n in reversed(raised):
        work._unapply(m, n)
    _cut(work, after)
    work._unapply(move, note)
    _cut(work, before)


PROBE_STATES = 1_000
"""States the depth-first probe over every move may enter (0: no such probe)."""
SEARCH_BEFORE_PROBE = 2_000
"""States the best-first search enters before it stops for that probe (then it starts again)."""


def _probe(work: KlondikeGame, root: bytes, memo: _Memo,
           choose: Callable[[list[Edge] | None], list[Edge]] | None = None, cap: int | None = None) -> bool:
    """A quick, incomplete depth-first search: by default with only stock and waste moves
    (progress often comes from playing waste cards to shift which cards come up together), or
    with the edges ``choose`` keeps, entering at most ``cap`` states. Finding progress this way
    spares the full search (a long line of cards brought down from the foundations, which the
    best-first order reaches late, is often found at once); ``False`` proves nothing."""
    choose = choose or _talon_edges
    good = memo.good
    path = [root]
    seen = {root}
    played: list[_Step] = []
    edges = _edges(work)
    if edges is None:
        good.add(root)
        return True
    stack = [iter(choose(edges))]
    while stack:
        for cut, move in stack[-1]:
            step = _play(work, cut, move)
            key = state_key(work)
            if key in good:
                good.update(path)
                return True
            if key in seen:
                _undo(work, step)
                continue
            out = _edges(work)
            if out is None:
                path.append(key)
                good.update(path)
                return True
            if cap is not None and len(seen) >= cap:
                return False
            seen.add(key)
            path.append(key)
            played.append(step)
            stack.append(iter(choose(out)))
            break
        else:
            stack.pop()
            if played:
                _undo(work, played.pop())
                path.pop()
    return False


def _talon_edges(edges: list[Edge] | None) -> list[Edge]:
    return [e for e in edges if e[1].kind in _TALON_KINDS] if edges else []


def _all_edges(edges: list[Edge] | None) -> list[Edge]:
    return edges or []


def _search(work: KlondikeGame, root: bytes, memo: _Memo, limit: int | None = None) -> bool | None:
    """Best-first search from ``work`` (a scratch copy, normalised, raised) for progress; ``None``
    (the memo untouched, ``work`` as it was) once more than ``limit`` states were queued.

    States are expanded in order of their parent's relaxation rounds (:func:`_relaxed_rounds`,
    fewest first), then of depth; a state the relaxation proves hopeless is not expanded. On
    success every explored state with a known way to the goal is memoised as good (moves are often
    reversible, so this covers most neighbours of the path); on failure every state met is bad.
    """
    good, bad = memo.good, memo.bad
    explored: dict[bytes, list[bytes]] = {}  # expanded state -> the keys of its successors
    heap: list[tuple[int, int, int, bytes, KlondikeGame]] = [(0, 0, 0, root, work)]
    queued = {root}
    count = 0
    goal: bytes | None = None
    while heap and goal is None:
        _, depth, _, key, state = heapq.heappop(heap)
        rounds = _relaxed_rounds(state) if depth else 0
        if rounds is None:
            bad.add(key)
            continue
        edges = _edges(state)
        if edges is None:
            goal = key
            break
        successors = explored[key] = []
        for cut, move in edges:
            step = _play(state, cut, move)
            child_key = state_key(state)
            successors.append(child_key)
            if child_key in good:
                goal = child_key
                break
            if child_key not in queued and child_key not in bad:
                queued.add(child_key)
                count += 1
                if limit is not None and count > limit:
                    _undo(state, step)
                    return None
                heapq.heappush(heap, (rounds, depth + 1, count, child_key, state._copy_position()))
            _undo(state, step)
    if goal is None:
        bad.update(queued)
        return False
    into: dict[bytes, list[bytes]] = {}
    for key, successors in explored.items():
        for child_key in successors:
            into.setdefault(child_key, []).append(key)
    todo = [goal]
    good.add(goal)
    while todo:
        for key in into.get(todo.pop(), ()):
            if key not in good:
                good.add(key)
                todo.append(key)
    return True


__all__ = ["ON_CYCLE", "progress_possible", "search_key", "state_key", "twin_table"]
