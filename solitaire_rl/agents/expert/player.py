"""The ``expert`` player: the expert-iteration network alone, no search inside it.

It plays the legal move the network's policy rates highest. In Klondike, where moves can undo
each other, a move that leads back to a position this game has already shown comes after every
move that does not (the same memory the planners keep,
:func:`solitaire_rl.agents.planner.knowledge.visible_after`),
so the network alone does not go round in circles. It also says how likely the network thinks
a win is from the position (:meth:`ExpertPlayer.win_chance`), the value head's estimate under
hidden cards. It reads the observation and the mask only.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from solitaire_rl.agents.base import Choice, Player, legal_actions
from solitaire_rl.agents.expert.checkpoint import default_expert_checkpoint, expert_encoding, load_network
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.spec import GameSpec, find_game


class ExpertNetwork:
    """A loaded expert network: policy and value for one position or a batch."""

    def __init__(self, variant: GameSpec, checkpoint: str | Path | None = None) -> None:
        import torch

        self.variant = variant
        self.path = Path(checkpoint) if checkpoint is not None else default_expert_checkpoint(variant)
        self.net, self.metadata = load_network(self.path, variant)
        self.encoding = expert_encoding(variant)
        self.num_actions = variant.num_actions
        self._torch = torch

    def evaluate(self, observations: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per row: the policy's probabilities over every action (masked ones 0) and the chance of
        a win from the position."""
        torch = self._torch
        masks = np.asarray(masks, np.bool_)
        encoded = self.encoding.encode_batch(np.asarray(observations), masks)
        with torch.inference_mode():
            logits, value, _ = self.net(torch.as_tensor(encoded, dtype=torch.float32), torch.as_tensor(masks))
            probs = torch.softmax(logits, dim=1)
        return probs.numpy().astype(np.float64), torch.sigmoid(value).numpy().astype(np.float64)

    def policy(self, observation: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, float]:
        probs, value = self.evaluate(np.asarray(observation)[None], np.asarray(mask)[None])
        return probs[0], float(value[0])


def check_network_variant(network: ExpertNetwork | None, variant: GameSpec) -> None:
    """Refuse a loaded network made for another variant than the player's."""
    if network is not None and network.variant.key != variant.key:
        raise MalformedInputError(f"the expert network was loaded for {network.variant.key}, "
                                  f"not {variant.key}")


class ExpertPlayer(Player):
    """Plays the expert network's most probable legal move (see the module docstring)."""

    name = "expert"

    def __init__(self, variant: GameSpec | str, checkpoint: str | Path | None = None,
                 network: ExpertNetwork | None = None) -> None:
        import torch

        self.variant = find_game(variant) if isinstance(variant, str) else variant
        torch.set_num_threads(1)  # one small position at a time: one thread is fastest
        self.network = network or ExpertNetwork(self.variant, checkpoint)
        self.visits: Counter[bytes] = Counter()
        self.last_win_chance: float | None = None

    def reset(self, env: gymnasium.Env) -> None:
        self.visits.clear()
        self.last_win_chance = None

    def win_chance(self, observation: np.ndarray, mask: np.ndarray) -> float:
        """The network's estimate that the game is won from here (hidden cards unknown)."""
        return self.network.policy(observation, mask)[1]

    def choose(self, observation: np.ndarray, mask: np.ndarray, info: dict[str, Any]) -> Choice:
        legal = legal_actions(mask)
        probs, value = self.network.policy(observation, mask)
        self.last_win_chance = value
        scores = probs[legal]
        if self.variant.positions_repeat:  # a position seen before is no progress
            scores = self._klondike_order(observation, legal, scores)
        best = int(np.argmax(scores))
        action = int(legal[best])
        return Choice(action, f"the expert network's first choice (policy weight {probs[action]:.0%}); "
                              f"it rates the game at about {value:.0%} to win")

    def _klondike_order(self, observation: np.ndarray, legal: np.ndarray, scores: np.ndarray) -> np.ndarray:
        """``scores`` lowered by one for each time a move's outcome has been seen in this game."""
        from solitaire_rl.agents.planner.knowledge import klondike_knowledge, visible_after, visible_key
        from solitaire_rl.envs.klondike.actions import move_of

        self.visits[visible_key(observation)] += 1
        if legal.size == 1:
            return scores
        game = klondike_knowledge(observation, int(self.variant.env_kwargs.get("draw_count", 3))).game
        seen = np.zeros(legal.size)
        for k, action in enumerate(legal):
            after = visible_after(game, move_of(game, int(action)))
            seen[k] = 0 if after is None else self.visits[after]
        return scores - seen


__all__ = ["ExpertNetwork", "ExpertPlayer", "check_network_variant"]
