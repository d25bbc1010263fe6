"""Redo and restart over an engine's undo history: one implementation for every game."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from solitaire_rl.envs.errors import IllegalMoveError

M = TypeVar("M")


class RedoHistory(Generic[M]):
    """Mixin for an engine with ``push`` (checks legality), ``pop`` (exact undo that appends the
    undone move to ``_redo``) and a ``_history`` list: adds redo, restart and the redo bookkeeping.
    """

    _history: list[Any]
    _redo: list[M]

    def push(self, move: M) -> None:  # pragma: no cover - provided by the engine
        raise NotImplementedError

    def pop(self) -> M:  # pragma: no cover - provided by the engine
        raise NotImplementedError

    @property
    def redo_moves(self) -> list[M]:
        """Moves undone that :meth:`redo` would replay, next first."""
        return list(reversed(self._redo))

    def _after_push(self, move: M) -> None:
        """Keep the redo stack after ``move`` was pushed: replaying the next redo move keeps the
        rest; any other move drops it."""
        if self._redo and self._redo[-1] == move:
            self._redo.pop()
        else:
            self._redo.clear()

    def redo(self) -> M:
        """Replay the most recently undone move."""
        if not self._redo:
            raise IllegalMoveError("There is no move to redo.")
        move = self._redo[-1]
        self.push(move)
        return move

    def restart(self) -> None:
        """Back to the first position (what the player has seen is kept)."""
        while self._history:
            self.pop()
        self._redo.clear()
