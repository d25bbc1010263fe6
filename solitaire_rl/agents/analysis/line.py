"""The exact solver's verdict on the true deal after every move of a game, with few searches.

Winnability is monotone along a game: a position reached from a lost one is lost, and a position
from which a winnable one was reached is winnable. So the positions of a game that is not won split
into a winnable prefix and a lost suffix, and one boundary decides them all. The search for it is a
bisection over the positions (``log2`` of the moves in searches), and a winning line found on the
way is followed for free as long as the game played its moves. A search that runs out of its
budget leaves its position undecided; the bisection then tries the other positions between the
nearest decided ones, so ``unknown`` remains only where no budgeted search decided anything.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from solitaire_rl.agents.games import agent_side
from solitaire_rl.agents.solver.limits import SearchLimits
from solitaire_rl.agents.solver.result import NOT_WINNABLE, UNKNOWN, WINNABLE
from solitaire_rl.envs.spec import Game, GameSpec


@dataclass(frozen=True)
class LineVerdicts:
    """The verdict of every position of a game: index 0 is the deal, index ``i`` after move ``i``."""

    statuses: tuple[str, ...]
    lines: dict[int, tuple[Any, ...]]
    """A winning line from each position where the search found one (the losing move's position,
    when there is one, among them)."""
    searches: int
    states: int
    seconds: float

    @property
    def last_winnable(self) -> int:
        """The last position known winnable, or -1."""
        return max((i for i, s in enumerate(self.statuses) if s == WINNABLE), default=-1)


def positions_of(start: Game, moves: Sequence[Any]) -> list[Game]:
    """The positions before the first move and after each move (copies; ``start`` is unchanged)."""
    game = start.copy()
    out = [game.copy()]
    for move in moves:
        game.push(move)
        out.append(game.copy())
    return out


def line_verdicts(variant: GameSpec, positions: Sequence[Game], moves: Sequence[Any], limits: SearchLimits,
                  *, time_budget: float | None = None) -> LineVerdicts:
    """Every position's verdict (``positions[i + 1]`` is ``positions[i]`` after ``moves[i]``).

    ``limits`` bounds each search; ``time_budget`` (seconds) bounds all of them together: past it
    the positions still open stay ``unknown``.
    """
    solve = agent_side(variant).solve
    n = len(moves)
    start = time.perf_counter()
    lines: dict[int, tuple[Any, ...]] = {}
    lo, hi = -1, n + 1  # positions <= lo are winnable, >= hi lost
    tried: set[int] = set()
    searches = states = 0

    def found_win(i: int, line: tuple[Any, ...]) -> None:
        nonlocal lo
        lines[i] = line
        while i < n and line and line[0] == moves[i]:
            i, line = i + 1, line[1:]
            lines[i] = line
        lo = max(lo, i)

    if positions[n].is_won():
        found_win(n, ())
    while True:
        open_ = [i for i in range(lo + 1, hi) if i not in tried]
        if not open_ or (time_budget is not None and time.perf_counter() - start > time_budget):
            break
        middle = (lo + hi) / 2
        i = min(open_, key=lambda j: (abs(j - middle), j))
        result = solve(positions[i], limits)
        searches += 1
        states += result.states
        if result.status == WINNABLE:
            found_win(i, tuple(result.line or ()))
        elif result.status == NOT_WINNABLE:
            hi = i
        else:
            tried.add(i)
    statuses = tuple(WINNABLE if i <= lo else NOT_WINNABLE if i >= hi else UNKNOWN for i in range(n + 1))
    return LineVerdicts(statuses, lines, searches, states, time.perf_counter() - start)


__all__ = ["LineVerdicts", "line_verdicts", "positions_of"]
