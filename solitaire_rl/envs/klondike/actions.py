"""The environment's discrete actions and their moves: the one place that maps one to the other.

=============  =====  ===============================================================
indices        count  action
=============  =====  ===============================================================
0              1      tap the stock: ``draw``, or ``recycle`` once the stock is empty
1              1      ``waste>f``: the waste's top card to its foundation
2..8           7      ``waste>c1`` .. ``waste>c7``
9..15          7      ``c1>f`` .. ``c7>f``: a column's last card to its foundation
16..561        546    run moves ``c{s}:{n}>c{t}``: index ``16 + (s*6 + t') * 13 + (n - 1)`` for
                      source column ``s`` (0..6), target ``t`` counted among the other six
                      columns (``t' = t`` if ``t < s`` else ``t - 1``), run length ``n`` 1..13
562..589       28     ``fC>c1`` .. ``fS>c7``: index ``562 + suit * 7 + t``
=============  =====  ===============================================================

590 actions in all. :data:`ACTION_NAMES` gives each its readable name (the move's text form;
``draw/recycle`` for action 0).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solitaire_rl.envs.contract import check_action
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike.layout import NUM_COLUMNS
from solitaire_rl.envs.klondike.moves import DRAW_MOVE, MAX_RUN, RECYCLE_MOVE, Move

if TYPE_CHECKING:
    from solitaire_rl.envs.klondike.game import KlondikeGame

STOCK_ACTION = 0

ACTION_MOVES: tuple[Move, ...] = (
    DRAW_MOVE,
    Move.waste_to_foundation(),
    *(Move.waste_to_column(t) for t in range(NUM_COLUMNS)),
    *(Move.column_to_foundation(s) for s in range(NUM_COLUMNS)),
    *(
        Move.column_to_column(s, t, n)
        for s in range(NUM_COLUMNS)
        for t in range(NUM_COLUMNS)
        if t != s
        for n in range(1, MAX_RUN + 1)
    ),
    *(Move.foundation_to_column(f, t) for f in range(4) for t in range(NUM_COLUMNS)),
)
"""The move of each action (action 0 stands for tapping the stock: see :func:`move_of`)."""

NUM_ACTIONS = len(ACTION_MOVES)

ACTION_INDEX: dict[Move, int] = {move: i for i, move in enumerate(ACTION_MOVES)}
ACTION_INDEX[RECYCLE_MOVE] = STOCK_ACTION
"""Action index of every move (``draw`` and ``recycle`` are both action 0)."""

ACTION_NAMES: tuple[str, ...] = ("draw/recycle", *(str(m) for m in ACTION_MOVES[1:]))


STOCK_NAMES = frozenset({"draw/recycle", "draw", "recycle"})
"""What :func:`parse_action` reads as action 0 (tapping the stock)."""


def action_name(action: int) -> str:
    """The readable name of an action index (:data:`ACTION_NAMES`): ``"draw/recycle"``, ``"waste>c4"``,
    ``"c2:3>c5"``, ``"fH>c4"``; :class:`MalformedInputError` for anything but 0..589."""
    return ACTION_NAMES[check_action(action, NUM_ACTIONS)]


def parse_action(text: str) -> int:
    """The action index of a move's text: what :func:`action_name` writes, or any spelling
    :meth:`Move.parse` reads (``"draw"`` and ``"recycle"`` are both action 0; any case, spaces
    ignored). :class:`MalformedInputError` for anything else, naming the forms."""
    if not isinstance(text, str):
        raise MalformedInputError(f"an action's name is text, not {type(text).__name__}")
    if "".join(text.split()).lower() in STOCK_NAMES:
        return STOCK_ACTION
    try:
        return ACTION_INDEX[Move.parse(text)]
    except (MalformedInputError, KeyError):
        raise MalformedInputError(
            f"{text!r} is not a Klondike action: use draw/recycle, waste>f, waste>c4, c2>f, c2:3>c5 "
            "(3 cards from column 2 to column 5) or fH>c4") from None


def move_of(game: KlondikeGame, action: int) -> Move:
    """The move that ``action`` plays in ``game``'s position."""
    return game.stock_move() if action == STOCK_ACTION else ACTION_MOVES[action]


def legal_actions_in(game: KlondikeGame) -> list[int]:
    """Indices of the legal actions in ``game``, in the engine's legal-move order (from a mask:
    :func:`solitaire_rl.agents.base.legal_actions`)."""
    index = ACTION_INDEX
    return [index[m] for m in game.legal_moves()]


__all__ = ["ACTION_INDEX", "ACTION_MOVES", "ACTION_NAMES", "NUM_ACTIONS", "STOCK_ACTION", "STOCK_NAMES",
           "action_name", "legal_actions_in", "move_of", "parse_action"]
