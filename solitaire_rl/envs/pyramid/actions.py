"""Action indices <-> Pyramid moves: the one place that defines the environment's ``Discrete(467)``.

The 30 *places* are the pyramid positions 0..27, the stock top (:data:`STOCK`) and the waste top
(:data:`WASTE`). Actions, in index order:

* ``0 .. 29``: remove the King at place ``i`` alone (``KING_ACTIONS``);
* ``30 .. 464``: remove the pair of places ``a < b``, every unordered pair once, in lexicographic
  order (``(0, 1), (0, 2), ..., (28, 29)``);
* ``465``: draw; ``466``: recycle.

Some actions can never be legal (a pair of a card and a card covering it; the stock top in
variant 001); they stay in the space so both variants share it, and the mask rules them out.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

import numpy as np

from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.pyramid.moves import DRAW_MOVE, NUM_PLACES, RECYCLE_MOVE, REMOVE, Move

KING_ACTIONS = NUM_PLACES
"""Number of King actions, one per place; action ``i < 30`` removes the King at place ``i``."""
PAIR_ACTIONS = NUM_PLACES * (NUM_PLACES - 1) // 2
"""Number of pair actions (435), one per unordered pair of places."""
DRAW_ACTION = KING_ACTIONS + PAIR_ACTIONS
RECYCLE_ACTION = DRAW_ACTION + 1
NUM_ACTIONS = RECYCLE_ACTION + 1
"""467 actions in all."""

ACTION_MOVES: tuple[Move, ...] = (
    tuple(Move(REMOVE, p, -1) for p in range(NUM_PLACES))
    + tuple(Move(REMOVE, a, b) for a, b in combinations(range(NUM_PLACES), 2))
    + (DRAW_MOVE, RECYCLE_MOVE)
)
"""``ACTION_MOVES[i]`` is the move of action ``i``."""

ACTION_OF_MOVE: dict[Move, int] = {move: i for i, move in enumerate(ACTION_MOVES)}
"""The inverse of :data:`ACTION_MOVES`."""


def action_to_move(action: int | np.integer) -> Move:
    """The move of an action index; :class:`MalformedInputError` if it is not one of the 467."""
    try:
        if 0 <= action < NUM_ACTIONS:
            return ACTION_MOVES[action]
    except TypeError:
        pass
    raise MalformedInputError(f"{action!r} is not an action: actions are integers 0..{NUM_ACTIONS - 1}")


def move_to_action(move: Move) -> int:
    """The action index of a move (any well-formed :class:`Move`)."""
    try:
        return ACTION_OF_MOVE[move]
    except KeyError:
        raise MalformedInputError(f"{move!r} is not a Pyramid move") from None


KING_SUFFIX = " (King)"


def action_name(action: int) -> str:
    """A readable name: ``"r7c1+r7c2"``, ``"r7c3 (King)"``, ``"stock+waste"``, ``"draw"``, ``"recycle"``."""
    move = action_to_move(action)
    return f"{move}{KING_SUFFIX}" if move.kind == REMOVE and move.b == -1 else str(move)


def parse_action(text: str) -> int:
    """The action index of a move's text: what :func:`action_name` writes (``"r7c3 (King)"``) or the
    move's own form (``"r7c3"``, ``"r7c2+r7c1"``, ``"waste+stock"``, ``"draw"``; any case, either
    order of a pair). :class:`MalformedInputError` for anything else, naming the forms."""
    if not isinstance(text, str):
        raise MalformedInputError(f"an action's name is text, not {type(text).__name__}")
    name = text.strip()
    if name.lower().endswith(KING_SUFFIX.lower()):
        name = name[: -len(KING_SUFFIX)]
    try:
        return ACTION_OF_MOVE[Move.parse(name)]
    except (MalformedInputError, KeyError):
        raise MalformedInputError(
            f"{text!r} is not a Pyramid action: use draw, recycle, a place such as r7c3 (a King), "
            "or two places such as r7c1+r7c2 or r6c1+waste") from None


def fill_action_mask(moves: Iterable[Move], out: np.ndarray) -> np.ndarray:
    """Write the mask of ``moves`` into ``out`` (length 467): 1 where the action is in ``moves``."""
    out.fill(0)
    for move in moves:
        out[ACTION_OF_MOVE[move]] = 1
    return out


__all__ = [
    "ACTION_MOVES", "ACTION_OF_MOVE", "DRAW_ACTION", "KING_ACTIONS", "NUM_ACTIONS", "PAIR_ACTIONS",
    "RECYCLE_ACTION", "action_name", "action_to_move", "fill_action_mask", "move_to_action", "parse_action",
]
