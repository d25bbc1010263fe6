"""Warm start for PPO: fit the policy to the ``greedy`` player's moves before reinforcement learning.

MaskablePPO from random weights spends most of a two-hour budget rediscovering what the documented
heuristic already knows. With ``imitation_episodes`` set, training first plays that many deals of
the ``train`` split with :class:`agents.greedy.GreedyPlayer` (which reads only the observation, so
it sees what the policy will see), then fits, by minibatch gradient descent on the same network:

* the policy to the greedy moves: the cross-entropy of the masked action distribution;
* the value head to the discounted return each step led to, under the reward the PPO phase
  trains with (shaped or not), so that PPO's first advantages are not noise.

PPO then starts from that network. Nothing here changes the environment or what the agent sees.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from sb3_contrib import MaskablePPO

from agents.encodings import Encoding
from agents.greedy import GreedyPlayer
from agents.variants import Variant
from training.splits import TRAIN, DealSplitWrapper


@dataclass
class Demonstrations:
    """Steps of greedy play: encoded observations, masks, chosen actions and discounted returns."""

    observations: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    returns: np.ndarray
    episodes: int
    wins: int

    def __len__(self) -> int:
        return int(self.actions.shape[0])


def collect_demonstrations(variant: Variant, encoding: Encoding, episodes: int, seed: int,
                           gamma: float, shaped_reward: bool) -> Demonstrations:
    """Play ``episodes`` training deals (drawn by ``seed``) with the greedy player and record them."""
    env = DealSplitWrapper(variant.make_env(shaped_reward=shaped_reward), variant.game, TRAIN)
    player = GreedyPlayer(variant)
    observations: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    actions: list[int] = []
    returns: list[float] = []
    wins = 0
    obs, info = env.reset(seed=seed)
    try:
        for _ in range(episodes):
            player.reset(env)
            rewards: list[float] = []
            while True:
                mask = np.asarray(info["action_mask"], dtype=np.bool_)
                if not mask.any():
                    break
                action = player.act(obs, mask, info)
                observations.append(np.asarray(encoding.encode(obs), dtype=np.float32))
                masks.append(mask)
                actions.append(action)
                obs, reward, terminated, truncated, info = env.step(action)
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


__all__ = ["Demonstrations", "collect_demonstrations", "fit_to_demonstrations"]
