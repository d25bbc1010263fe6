"""The ``random`` player: uniform over the legal actions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from solitaire_rl.agents.base import Choice, Player, legal_actions
from solitaire_rl.agents.seeding import Seed, new_generator


class RandomPlayer(Player):
    """Picks one legal action uniformly at random, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | Sequence[int] | None = None) -> None:
        self._rng = np.random.default_rng(seed)

    def reseed(self, seed: Seed) -> None:
        """Draw from ``numpy.random.default_rng(seed)`` from now on."""
        self._rng = new_generator(seed)

    def choose(self, observation: np.ndarray, mask: np.ndarray, info: dict[str, Any]) -> Choice:
        legal = legal_actions(mask)
        return Choice(int(legal[self._rng.integers(legal.size)]), "a legal move at random")


__all__ = ["RandomPlayer"]
