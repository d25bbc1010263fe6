"""An expert network that samples its moves from its policy, for the benchmark's outside players.

``expert-net`` plays the policy's most probable legal move. A network fitted to a planner's moves
can do better sampling, as the shipped Klondike ``ppo`` does: a most-probable choice repeats the
same mistake in a loop where a sampled one gets out. :class:`SampledExpertPlayer` draws each move
from the policy over the legal moves, from a generator the benchmark reseeds per deal. It reads
the observation and the mask only.

The benchmark builds it as an outside player, the checkpoint named by :data:`CHECKPOINT_VARIABLE`::

    SOLITAIRE_RL_SAMPLED_EXPERT=/tmp/bc.zip python -m solitaire_rl.training.benchmark klondike \\
        --deals 100001-101000 --agents bc=solitaire_rl.agents.expert.sampled:make --no-analyse
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from solitaire_rl.agents.base import Choice, legal_actions
from solitaire_rl.agents.expert.player import ExpertPlayer
from solitaire_rl.agents.seeding import Seed, new_generator
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.spec import GameSpec

CHECKPOINT_VARIABLE = "SOLITAIRE_RL_SAMPLED_EXPERT"
"""The environment variable :func:`make` reads the checkpoint's path from."""


class SampledExpertPlayer(ExpertPlayer):
    """Draws each move from the expert network's policy over the legal moves."""

    name = "expert-sampled"

    def __init__(self, variant: GameSpec | str, checkpoint: str | Path | None = None, seed: Seed = 0) -> None:
        super().__init__(variant, checkpoint)
        self.rng = new_generator(seed)

    def reseed(self, seed: Seed) -> None:
        self.rng = new_generator(seed)

    def choose(self, observation: np.ndarray, mask: np.ndarray, info: dict[str, Any]) -> Choice:
        legal = legal_actions(mask)
        probs, value = self.network.policy(observation, mask)
        self.last_win_chance = value
        weights = probs[legal] / probs[legal].sum()
        action = int(legal[self.rng.choice(legal.size, p=weights)])
        return Choice(action, f"drawn from the expert network's policy (weight {probs[action]:.0%}); "
                              f"it rates the game at about {value:.0%} to win")


def make(variant: GameSpec) -> SampledExpertPlayer:
    """The player of the checkpoint that :data:`CHECKPOINT_VARIABLE` names."""
    path = os.environ.get(CHECKPOINT_VARIABLE)
    if not path:
        raise MalformedInputError(f"set {CHECKPOINT_VARIABLE} to the expert-network checkpoint to play")
    return SampledExpertPlayer(variant, path)


__all__ = ["CHECKPOINT_VARIABLE", "SampledExpertPlayer", "make"]
