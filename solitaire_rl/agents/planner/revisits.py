"""The positions a Klondike game's line of play has met, as the player sees them, and a policy's
move that does not go back to them.

A policy's most probable move alone can move a card back and forth, or tap through the stock, for
ever (the ``ppo`` and expert-network hints did: following the ``ppo`` hints on eval deals
100,001..100,100, 73 of 100 games were still going after 1,000 moves; ``docs/play.md``).
:func:`fresh_action` plays, among the legal moves, one leading to the position met least often.
Positions are compared by :func:`table_key`: the table as the player sees it, never a hidden card.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from solitaire_rl.envs.klondike import KlondikeGame
from solitaire_rl.envs.klondike.actions import move_of
from solitaire_rl.envs.klondike.observer import VIEWS, observe


def table_key(game: KlondikeGame) -> bytes:
    """The table as the player sees it: the columns, waste, stock and foundations of the
    observation (not the foundation records or the recycle count, so a pass through the stock
    that changes nothing comes back to the same key). Unlike
    :func:`solitaire_rl.agents.planner.knowledge.visible_key`, columns are not sorted: a King moved to
    another empty column is another table here."""
    return observe(game)[: VIEWS["best"].start].astype(np.uint8).tobytes()


def line_visits(game: KlondikeGame) -> Counter[bytes]:
    """How often each table (:func:`table_key`) occurs in ``game``'s line of play, the current one
    included."""
    walk = game.copy()
    visits = Counter([table_key(walk)])
    while walk.moves_played:
        walk.pop()
        visits[table_key(walk)] += 1
    return visits


def fresh_action(game: KlondikeGame, legal: np.ndarray, probs: np.ndarray) -> int:
    """The legal action leading to the table met least often in ``game``'s line of play; of those,
    the most probable by ``probs`` (then the lowest index)."""
    visits = line_visits(game)

    def key(action: int) -> tuple[int, float, int]:
        after = game.copy()
        after.push(move_of(after, action))
        return visits[table_key(after)], -float(probs[action]), action

    return min((int(a) for a in legal), key=key)


__all__ = ["fresh_action", "line_visits", "table_key"]
