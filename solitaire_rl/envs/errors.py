"""Error kinds shared by every game: malformed input versus a move that is not legal now."""

from __future__ import annotations


class SolitaireError(ValueError):
    """Base class of every error this project raises on bad input."""


class MalformedInputError(SolitaireError):
    """Input that cannot be read at all: a bad card name, deal ID, deal code or save."""


class IllegalMoveError(SolitaireError):
    """A well-formed move that the rules refuse in the current position.

    ``reason`` is the short player-facing message (from the seeds); the state is unchanged.
    """

    def __init__(self, reason: str, move: object = None) -> None:
        super().__init__(reason if move is None else f"{reason} (move: {move})")
        self.reason = reason
        self.move = move
