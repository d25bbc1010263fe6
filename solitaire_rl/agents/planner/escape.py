"""The shortest way out of a loop: known-card moves that make no progress, then one that does.

When play keeps coming back to one position, the hint must not give up while the engine's exact
check (:mod:`solitaire_rl.envs.klondike.progress`) says progress is still possible: there is a line of moves
that make no progress (draws through a known stock, cards shuffled between columns and down from
the foundations) ending in one that does (it turns up a card, shows an unseen stock card, or puts
a card above its foundation's record). :func:`way_to_progress` finds the shortest such line,
breadth-first over the positions as the player sees them. It expands only moves that make no
progress, and those never show a card, so the search reads nothing the player does not know
(give it the stand-in game of :func:`solitaire_rl.agents.planner.knowledge.klondike_knowledge`). Each way out
ends in progress, which can happen only finitely often, so hints that take it cannot cycle.
"""

from __future__ import annotations

import time
from collections import deque

from solitaire_rl.agents.planner.knowledge import visible_key
from solitaire_rl.envs.klondike import KlondikeGame, Move
from solitaire_rl.envs.klondike.observer import observe

MAX_POSITIONS = 20_000
"""Positions the search may enter before it gives up (``None``)."""


def way_to_progress(game: KlondikeGame, max_positions: int = MAX_POSITIONS,
                    time_limit: float | None = None) -> list[Move] | None:
    """The shortest line from ``game`` of moves making no progress, then one that does; ``None``
    when the game is over, when no such line exists, or when none was found within
    ``max_positions`` positions or ``time_limit`` seconds. Ties go to the engine's move order."""
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    if game.outcome() is not None:
        return None
    start = game.copy()
    seen = {visible_key(observe(start))}
    queue: deque[tuple[KlondikeGame, list[Move]]] = deque([(start, [])])
    while queue:
        here, line = queue.popleft()
        if deadline is not None and time.perf_counter() > deadline:
            return None
        moves = here.legal_moves()
        for move in moves:
            if here.is_progress(move):
                return [*line, move]
        for move in moves:
            after = here.copy()
            after.push(move)
            key = visible_key(observe(after))
            if key in seen:
                continue
            if len(seen) >= max_positions:
                return None
            seen.add(key)
            queue.append((after, [*line, move]))
    return None


__all__ = ["MAX_POSITIONS", "way_to_progress"]
