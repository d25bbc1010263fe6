"""The ``greedy`` player: one documented heuristic per game, from the seeds' tips.

Both heuristics read only the observation and the mask, so they see exactly what a person at the
table sees (never an unseen stock card or a face-down card). The rules of each are in
:mod:`solitaire_rl.agents.greedy.pyramid` and :mod:`solitaire_rl.agents.greedy.klondike`.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from solitaire_rl.agents.base import Choice, Player
from solitaire_rl.envs.spec import GameSpec


class GreedyPlayer(Player):
    """Scores every legal action by the game's heuristic and plays the best (lowest index on ties)."""

    name = "greedy"

    def __init__(self, variant: GameSpec) -> None:
        from solitaire_rl.agents.games import agent_side

        self.variant = variant
        self._heuristic = agent_side(variant).heuristic()

    def reset(self, env: gymnasium.Env) -> None:
        self._heuristic.reset()

    def choose(self, observation: np.ndarray, mask: np.ndarray, info: dict[str, Any]) -> Choice:
        return self._heuristic.choose(observation, mask)


__all__ = ["GreedyPlayer"]
