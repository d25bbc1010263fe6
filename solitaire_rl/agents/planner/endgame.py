"""The Klondike endgame once every card is known: the solver's winning line with no way back.

The exact solver's line wins, but it may pass through a table twice (a card brought down from its
foundation and sent back up), and lines found afresh from one position to the next may undo each
other: re-solving at every hint shuttled a queen between its foundation and a column on deals 9
and 17 (issue 37). :func:`endgame_line` cuts out every stretch of the line that comes back to a
table it passed (:func:`without_loops`), and when what is left still leads back to a position the
game has met, tries the other first moves (a solve each, within what is left of the budget) for a
line that does not. Planners call it with the positions they have met
(:attr:`solitaire_rl.agents.planner.commitment.CommitmentBot.visits`,
:attr:`solitaire_rl.agents.planner.hop.HopPlayer.visits`) and follow the line to the end.

Stretches are cut where the table repeats exactly (:func:`~solitaire_rl.agents.planner.revisits.table_key`,
so the moves after the cut stay the same moves); positions met are compared as the planners compare
them (:func:`~solitaire_rl.agents.planner.knowledge.visible_key`: columns with nothing face down are
interchangeable). Only what the player sees is read: the game must have every card known.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Sequence
from typing import Any

from solitaire_rl.agents.planner.knowledge import visible_key
from solitaire_rl.agents.planner.revisits import table_key
from solitaire_rl.agents.solver.klondike import solve_klondike
from solitaire_rl.agents.solver.result import WINNABLE
from solitaire_rl.envs.errors import SolitaireError
from solitaire_rl.envs.klondike import KlondikeGame, Move
from solitaire_rl.envs.klondike.observer import observe

ENDGAME_STATES = 500_000
"""States the solves of one endgame line may search in all, by default."""


def seen_key(game: KlondikeGame) -> bytes:
    """What the player sees of ``game``'s position, as the planners count positions met."""
    return visible_key(observe(game))


def pushed(game: KlondikeGame, move: Move) -> KlondikeGame:
    """A copy of ``game`` after ``move``."""
    after = game.copy()
    after.push(move)
    return after


def without_loops(game: KlondikeGame, line: Sequence[Move], met: Collection[bytes]
                  ) -> tuple[tuple[Move, ...], bool]:
    """``line`` (which wins from ``game``) with every stretch that comes back to a table it passed
    cut out, and whether what is left passes through a position of ``met`` (:func:`seen_key`\\ s:
    the positions the game has met) after its first move; the line as given when the cut one does
    not replay to a win."""
    walk = game.copy()
    tables = [table_key(walk)]
    kept: list[Move] = []
    for move in line:
        walk.push(move)
        table = table_key(walk)
        if table in tables:  # back where the line has been: the stretch in between undoes itself
            del kept[tables.index(table):]
            del tables[tables.index(table) + 1:]
        else:
            kept.append(move)
            tables.append(table)
    check = game.copy()
    keys = []
    try:
        for move in kept:
            check.push(move)
            keys.append(seen_key(check))
    except SolitaireError:
        kept = []
    if not kept or not check.is_won():
        kept, keys = list(line), []
        check = game.copy()
        for move in kept:
            check.push(move)
            keys.append(seen_key(check))
    return tuple(kept), any(key in met for key in keys)


def endgame_line(game: KlondikeGame, met: Collection[bytes], *, max_states: int = ENDGAME_STATES,
                 time_limit: float | None = None, cancel: Any = None) -> tuple[Move, ...] | None:
    """A winning line from ``game`` (every card known), loops cut out (:func:`without_loops`), that
    never leads to a position of ``met`` (:func:`seen_key`\\ s of the positions the game has met)
    when the solver finds one; ``None`` when the solver finds no win.

    When the solver's line leads back, the other first moves are tried in the engine's order, each
    a solve of its own, all within ``max_states`` states (the same answer on every machine) and
    ``time_limit`` seconds in all (``None``: no time limit); the first line found that does not
    lead back is taken, else the solver's own. ``cancel``: a
    :class:`~solitaire_rl.agents.solver.klondike.CancelToken` that stops the solves."""
    started = time.perf_counter()
    result = solve_klondike(game, time_limit=time_limit, max_states=max_states, cancel=cancel)
    if result.status != WINNABLE or not result.line:
        return None
    line, returns = without_loops(game, result.line, met)
    if not returns:
        return line
    states_left = max_states - result.states
    met = set(met)
    for move in game.legal_moves():
        seconds_left = None if time_limit is None else time_limit - (time.perf_counter() - started)
        if states_left <= 0 or (seconds_left is not None and seconds_left <= 0):
            break
        after = pushed(game, move)
        here = seen_key(after)
        if here in met:
            continue
        found = solve_klondike(after, time_limit=seconds_left, max_states=states_left, cancel=cancel)
        states_left -= found.states
        if found.status == WINNABLE and found.line is not None:
            rest, back = without_loops(after, found.line, met | {here})
            if not back:
                return (move, *rest)
    return line


__all__ = ["ENDGAME_STATES", "endgame_line", "pushed", "seen_key", "without_loops"]
