"""Warm start for PPO: fit the policy to a teacher's moves before reinforcement learning.

MaskablePPO from random weights spends most of a two-hour budget rediscovering what a documented
heuristic already knows. With ``imitation_episodes`` set, training first plays that many deals of
the ``train`` split with a teacher that reads only what a player knows: the ``greedy`` heuristic
(:class:`agents.greedy.GreedyPlayer`) or, for Pyramid, the ``pimc`` player
(:class:`agents.pimc.PimcPlayer`: sampled stocks, each solved exactly). It then fits, by
minibatch gradient descent on the same network:

* the policy to the teacher's moves: the cross-entropy of the masked action distribution;
* the value head to the discounted return each step led to, under the reward the PPO phase
  trains with (shaped or not), so that PPO's first advantages are not noise.

With ``dagger_rounds`` (DAgger, Ross, Gordon and Bagnell 2011) the fitted network then plays
``dagger_episodes`` more deals itself while the teacher names its move at every position the
network reaches; those labels join the pool and the network is refitted, so it learns to recover
from its own mistakes, not only to follow the teacher's games. PPO then starts from that network.
Nothing here changes the environment or what the agent sees.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch
from sb3_contrib import MaskablePPO

from agents.base import Player
from agents.encodings import Encoding
from agents.greedy import GreedyPlayer
from agents.variants import Variant
from training.splits import TRAIN, DealSplitWrapper


@dataclass
class Demonstrations:
    """Steps of play: encoded observations, masks, the teacher's actions and discounted returns."""

    observations: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    returns: np.ndarray
    episodes: int
    wins: int
    """Games won by whoever played (the teacher, or the network in a DAgger round)."""

    def __len__(self) -> int:
        return int(self.actions.shape[0])

    def __add__(self, other: Demonstrations) -> Demonstrations:
        return Demonstrations(
            np.concatenate([self.observations, other.observations]),
            np.concatenate([self.masks, other.masks]),
            np.concatenate([self.actions, other.actions]),
            np.concatenate([self.returns, other.returns]),
            self.episodes + other.episodes, self.wins + other.wins,
        )


def make_teacher(variant: Variant, name: str, seed: int, pimc_samples: int = 8) -> Player:
    """The ``greedy`` or ``pimc`` teacher for ``variant``."""
    if name == "greedy":
        return GreedyPlayer(variant)
    from agents.pimc import PimcPlayer

    return PimcPlayer(variant, samples=pimc_samples, seed=seed)


Actor = Callable[[np.ndarray, np.ndarray], int]
"""Who moves while the teacher labels: (encoded observation, mask) -> action."""


def collect_demonstrations(variant: Variant, encoding: Encoding, episodes: int, seed: int,
                           gamma: float, shaped_reward: bool, teacher: Player | None = None,
                           actor: Actor | None = None) -> Demonstrations:
    """Play ``episodes`` training deals (drawn by ``seed``) and record the teacher's move at each step.

    The teacher (default: greedy) also plays the moves, unless ``actor`` is given (DAgger): then
    the actor plays and the teacher only labels the positions the actor reaches.
    """
    env = DealSplitWrapper(variant.make_env(shaped_reward=shaped_reward), variant.game, TRAIN)
    teacher = teacher or GreedyPlayer(variant)
    observations: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    actions: list[int] = []
    returns: list[float] = []
    wins = 0
    obs, info = env.reset(seed=seed)
    try:
        for _ in range(episodes):
            teacher.reset(env)
            rewards: list[float] = []
            while True:
                mask = np.asarray(info["action_mask"], dtype=np.bool_)
                if not mask.any():
                    break
                label = teacher.act(obs, mask, info)
                encoded = np.asarray(encoding.encode(obs, mask), dtype=np.float32)
                observations.append(encoded)
                masks.append(mask)
                actions.append(label)
                move = label if actor is None else actor(encoded, mask)
                obs, reward, terminated, truncated, info = env.step(move)
                rewards.append(float(reward))
                if terminated or truncated:
                    wins += info.get("outcome") == "win"
                    break
            running, episode_returns = 0.0, []
            for reward in reversed(rewards):
                running = reward + gamma * running
                episode_returns.append(running)
            returns.extend(reversed(episode_returns))
            obs, info = env.reset()
    finally:
        env.close()
    return Demonstrations(np.stack(observations), np.stack(masks), np.asarray(actions, np.int64),
                          np.asarray(returns, np.float32), episodes, int(wins))


def policy_actor(model: MaskablePPO) -> Actor:
    """The model's most probable legal action, as an :data:`Actor`."""

    def act(encoded: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(encoded, action_masks=mask, deterministic=True)
        return int(action)

    return act


def fit_to_demonstrations(model: MaskablePPO, demos: Demonstrations, epochs: int, batch_size: int,
                          learning_rate: float, seed: int) -> dict[str, float]:
    """Fit ``model``'s policy (cross-entropy) and value (squared error) to ``demos``; return the last
    epoch's mean losses and the policy's agreement with the greedy moves."""
    policy = model.policy
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    generator = np.random.default_rng(seed)
    obs = torch.as_tensor(demos.observations)
    masks = demos.masks
    actions = torch.as_tensor(demos.actions)
    returns = torch.as_tensor(demos.returns)
    stats: dict[str, float] = {}
    policy.set_training_mode(True)
    for _ in range(epochs):
        order = generator.permutation(len(demos))
        totals = {"policy_loss": 0.0, "value_loss": 0.0, "agreement": 0.0}
        for start in range(0, len(order), batch_size):
            index = order[start:start + batch_size]
            batch_obs = obs[index]
            values, log_prob, _ = policy.evaluate_actions(
                batch_obs, actions[index], action_masks=masks[index]
            )
            policy_loss = -log_prob.mean()
            value_loss = torch.nn.functional.mse_loss(values.flatten(), returns[index])
            loss = policy_loss + model.vf_coef * value_loss
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), model.max_grad_norm)
            optimizer.step()
            with torch.no_grad():
                chosen = policy.get_distribution(batch_obs, action_masks=masks[index]).distribution.probs
                agree = (chosen.argmax(dim=1) == actions[index]).float().sum().item()
            totals["policy_loss"] += policy_loss.item() * len(index)
            totals["value_loss"] += value_loss.item() * len(index)
            totals["agreement"] += agree
        stats = {key: value / len(demos) for key, value in totals.items()}
    policy.set_training_mode(False)
    return stats


__all__ = [
    "Actor", "Demonstrations", "collect_demonstrations", "fit_to_demonstrations", "make_teacher",
    "policy_actor",
]
