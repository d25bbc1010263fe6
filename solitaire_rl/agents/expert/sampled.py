"""The ``expert-sampled`` player: an expert network that samples its moves from its policy.

``expert-net`` plays the policy's most probable legal move. A network fitted to a planner's moves
can do better sampling, as the shipped Klondike ``ppo`` does: a most-probable choice repeats the
same mistake in a loop where a sampled one gets out. :class:`SampledExpertPlayer` draws each move
from the policy over the legal moves, from a generator the benchmark reseeds per deal. It reads
the observation and the mask only.

The benchmark plays it with a checkpoint of its own, as ``expert-net``::

    python -m solitaire_rl.training.benchmark klondike --deals 100001-101000 --agents expert-sampled \\
        --expert-checkpoint /tmp/bc.zip --no-analyse
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from solitaire_rl.agents.base import Choice, legal_actions
from solitaire_rl.agents.expert.player import ExpertPlayer
from solitaire_rl.agents.seeding import Seed, new_generator
from solitaire_rl.envs.spec import GameSpec


class SampledExpertPlayer(ExpertPlayer):
    """Draws each move from the expert network's policy over the legal moves."""

    name = "expert-sampled"

    def __init__(self, variant: GameSpec | str, checkpoint: str | Path | None = None,
                 seed: Seed | None = None) -> None:
        super().__init__(variant, checkpoint)
        self.rng = new_generator(0 if seed is None else seed)

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


__all__ = ["SampledExpertPlayer"]
