"""Seed 002's auto-finish: send the remaining cards up to the foundations one move at a time.

The finish button appears once no column card is face down and no stock card is unseen
(:meth:`KlondikeGame.auto_finish_ready`), and only if the finish really wins from there: this
module simulates it. The finish plays only foundation moves and draws/recycles; it never moves a
card onto a column. Columns are then face-up ordered runs whose last card is their lowest, so a
column card that fits its foundation is always played at once (first column first: doing so never
blocks anything). The one real choice is between playing a fitting waste card and drawing on,
since that shifts which stock cards come up together; :func:`finish_line` searches both, waste
card first, over positions it has not met before, and returns the first winning line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solitaire_rl.envs.klondike.moves import COLUMN_FOUNDATION, DRAW, RECYCLE, WASTE_FOUNDATION, Move

if TYPE_CHECKING:
    from solitaire_rl.envs.klondike.game import KlondikeGame

def _choices(game: KlondikeGame) -> list[Move]:
    moves = game.legal_moves()
    for move in moves:
        if move.kind == COLUMN_FOUNDATION:
            return [move]
    waste_up = [m for m in moves if m.kind == WASTE_FOUNDATION]
    return waste_up + [m for m in moves if m.kind in (DRAW, RECYCLE)]


def finish_line(game: KlondikeGame) -> list[Move] | None:
    """The finish's winning line from this position, or ``None`` if the finish cannot win.

    Memoised per position on the game; call it only when :meth:`auto_finish_ready` holds (it
    relies on every card being known).
    """
    memo = game._finish_memo
    key = game.key()
    if key in memo:
        return memo[key]
    line = _search(game._copy_position())
    if line is None:
        memo[key] = None
        return None
    work = game._copy_position()
    for i in range(len(line) + 1):  # every position along the line has the rest as its finish
        memo[work.key()] = line[i:]
        if i < len(line):
            work._apply(line[i])
    return line


def _search(work: KlondikeGame) -> list[Move] | None:
    """Depth-first search of ``work`` (a scratch copy, left wherever the search ends)."""
    visited = {work.key()}
    line: list[tuple[Move, int]] = []
    stack = [iter(_choices(work))]
    while stack:
        if work.is_won():
            return [m for m, _ in line]
        for move in stack[-1]:
            note = work._apply(move)
            key = work.key()
            if key in visited:
                work._unapply(move, note)
                continue
            visited.add(key)
            line.append((move, note))
            stack.append(iter(_choices(work)))
            break
        else:
            stack.pop()
            if line:
                move, note = line.pop()
                work._unapply(move, note)
    return None


__all__ = ["finish_line"]
