"""Warm start for PPO: fit the policy to a teacher's moves before reinforcement learning.

MaskablePPO from random weights spends most of a two-hour budget rediscovering what a documented
heuristic already knows. With ``imitation_episodes`` set, training first plays that many deals of
the ``train`` split with a teacher that reads only what a player knows: the ``greedy`` heuristic
(:class:`solitaire_rl.agents.greedy.GreedyPlayer`) or, for Pyramid, the ``pimc`` player
(:class:`solitaire_rl.agents.planner.pimc.PimcPlayer`: sampled stocks, each solved exactly). It then fits, by
minibatch gradient descent on the same network:

* the policy to the teacher's moves: the cross-entropy of the masked action distribution;
* the value head to the discounted return each step led to, under the reward the PPO phase
  trains with (shaped or not), so that PPO's first advantages are not noise.

With ``dagger_rounds`` (DAgger, Ross, Gordon and Bagnell 2011) the fitted network then plays
``dagger_episodes`` more deals itself while the teacher names its move at every position the
network reaches; those labels join the pool and the network is refitted, so it learns to recover
from its own mistakes, not only to follow the teacher's games. PPO then starts from that network.
Nothing here changes the environment or what the agent sees.

The ``hindsight`` teacher (Pyramid) reads the true deal: it marks every legal move by whether the
deal is still winnable after it (the exact solver; a search that runs out of its small budget
counts half) and names the best-marked move, among equals the one greedy prefers. So it names
greedy's move unless that move loses where another wins. The network never sees the hidden
cards; the true deal is one draw from all the deals consistent with what the player has seen, so
the fitted network learns how often, given what it sees, greedy's move loses where another wins:
what the ``pimc`` player estimates with a few samples at every move, learned here from one sample
per position over many more positions, at a fraction of the cost. Since its own moves would peek,
a player (greedy, then the network) moves while it labels. Most positions show no difference
(every move wins, or none does); only ``hindsight_keep`` of those are kept, weighted up to stand
for the rest, so that many more deals fit in memory.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO

from solitaire_rl.agents.base import Choice, Player, game_of, legal_actions
from solitaire_rl.agents.encodings import Encoding
from solitaire_rl.agents.greedy import GreedyPlayer
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.spec import GameSpec
from solitaire_rl.training.config import check_teacher
from solitaire_rl.training.splits import TRAIN, DealSplitWrapper


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
    weights: np.ndarray | None = None
    """Each step's weight in the fit (``None``: all 1); a kept sample of the positions stands for
    the ones left out."""
    positions: int = 0
    """Positions met, kept or not."""

    def __len__(self) -> int:
        return int(self.actions.shape[0])

    def __add__(self, other: Demonstrations) -> Demonstrations:
        return Demonstrations(
            np.concatenate([self.observations, other.observations]),
            np.concatenate([self.masks, other.masks]),
            np.concatenate([self.actions, other.actions]),
            np.concatenate([self.returns, other.returns]),
            self.episodes + other.episodes, self.wins + other.wins,
            np.concatenate([self.step_weights(), other.step_weights()]),
            self.positions + other.positions,
        )

    def step_weights(self) -> np.ndarray:
        return np.ones(len(self), np.float32) if self.weights is None else self.weights


class HindsightTeacher(Player):
    """Training only: labels each legal Pyramid move by whether the true deal stays winnable after it.

    It reads the hidden cards (through the environment it is reset with), so it is never a
    benchmark player; its move, where one is needed, is the best-labelled one, ties to greedy.
    """

    name = "hindsight"

    def __init__(self, variant: GameSpec, max_states: int | None = None) -> None:
        check_teacher("hindsight", variant)
        from solitaire_rl.agents.planner.pimc import DEFAULT_MAX_STATES
        from solitaire_rl.agents.solver import SearchLimits

        self._greedy = GreedyPlayer(variant)
        self._limits = SearchLimits(max_states=max_states or DEFAULT_MAX_STATES, time_limit=None)
        self._env: gymnasium.Env | None = None

    def reset(self, env: gymnasium.Env) -> None:
        self._env = env

    def values(self, mask: np.ndarray) -> np.ndarray:
        """The labels of the legal moves, in action order."""
        from solitaire_rl.agents.planner.pimc import afterstate_values

        if self._env is None:
            raise MalformedInputError("reset(env) first: the hindsight teacher reads the true deal")
        return afterstate_values(game_of(self._env), legal_actions(mask), self._limits)

    def choose(self, observation: np.ndarray, mask: np.ndarray, info: dict[str, Any]) -> Choice:
        return self.choose_labelled(observation, mask, info, self.values(mask))

    def choose_labelled(self, observation: np.ndarray, mask: np.ndarray, info: dict[str, Any],
                        values: np.ndarray) -> Choice:
        """The best-marked legal move; among equals, the one greedy prefers."""
        legal = legal_actions(mask)
        best = legal[values == values.max()]
        if len(best) == 1:
            return Choice(int(best[0]), "wins in hindsight")
        tied = np.zeros_like(mask)
        tied[best] = True
        return self._greedy.choose(observation, tied, info)


def make_teacher(variant: GameSpec, name: str, seed: int, pimc_samples: int = 8) -> Player:
    """The ``greedy``, ``pimc`` or ``hindsight`` teacher for ``variant``."""
    check_teacher(name, variant)
    if name == "greedy":
        return GreedyPlayer(variant)
    if name == "hindsight":
        return HindsightTeacher(variant)
    from solitaire_rl.agents.planner.pimc import PimcPlayer

    return PimcPlayer(variant, samples=pimc_samples, seed=seed)


Actor = Callable[[np.ndarray, np.ndarray], int] | Player
"""Who moves while the teacher labels: a player, or (encoded observation, mask) -> action."""


def collect_demonstrations(variant: GameSpec, encoding: Encoding, episodes: int, seed: int,
                           gamma: float, reward_shaping: bool, teacher: Player | None = None,
                           actor: Actor | None = None) -> Demonstrations:
    """Play ``episodes`` training deals (drawn by ``seed``) and record the teacher's move at each step.

    The teacher (default: greedy) also plays the moves, unless ``actor`` is given (DAgger): then
    the actor plays and the teacher only labels the positions the actor reaches.
    """
    env = DealSplitWrapper(variant.make_env(reward_shaping=reward_shaping), variant.game, TRAIN)
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
                move = label if actor is None else play(actor, obs, encoded, mask, info)
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
                          np.asarray(returns, np.float32), episodes, int(wins), positions=len(actions))


def collect_hindsight(variant: GameSpec, encoding: Encoding, episodes: int, seed: int,
                      teacher: HindsightTeacher, actor: Actor, keep: float) -> Demonstrations:
    """``actor`` plays ``episodes`` training deals (drawn by ``seed``) while ``teacher`` marks the moves.

    A position where every move is marked alike is kept with probability ``keep`` and weight
    ``1 / keep``. A game stops being recorded once its position is lost (every move marked 0, the
    whole deal when it cannot be won): nothing after that tells one move from another. The value
    target of a kept position is whether it is winnable (its best mark): the value under perfect
    play, a start for PPO's critic.
    """
    env = DealSplitWrapper(variant.make_env(), variant.game, TRAIN)
    sampler = np.random.default_rng(seed)
    observations: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    actions: list[int] = []
    returns: list[float] = []
    weights: list[float] = []
    wins = positions = 0
    obs, info = env.reset(seed=seed)
    try:
        for _ in range(episodes):
            teacher.reset(env)
            if isinstance(actor, Player):
                actor.reset(env)
            while True:
                mask = np.asarray(info["action_mask"], dtype=np.bool_)
                if not mask.any():
                    break
                positions += 1
                values = teacher.values(mask)
                if values.max() == 0.0:  # lost: every move loses from here on
                    break
                weight = 1.0
                if values.min() == values.max():
                    weight = 1.0 / keep if sampler.random() < keep else 0.0
                encoded = None
                if weight > 0 or not isinstance(actor, Player):
                    encoded = np.asarray(encoding.encode(obs, mask), dtype=np.float32)
                if weight > 0 and encoded is not None:
                    observations.append(encoded)
                    masks.append(mask)
                    actions.append(teacher.choose_labelled(obs, mask, info, values).action)
                    returns.append(float(values.max()))
                    weights.append(weight)
                obs, _, terminated, truncated, info = env.step(play(actor, obs, encoded, mask, info))
                if terminated or truncated:
                    wins += info.get("outcome") == "win"
                    break
            obs, info = env.reset()
    finally:
        env.close()
    if not actions:
        raise MalformedInputError(f"no position to learn from in {episodes} deals: play more deals")
    return Demonstrations(np.stack(observations), np.stack(masks), np.asarray(actions, np.int64),
                          np.asarray(returns, np.float32), episodes, int(wins),
                          np.asarray(weights, np.float32), positions)


def play(actor: Actor, obs: np.ndarray, encoded: np.ndarray | None, mask: np.ndarray,
         info: dict[str, Any]) -> int:
    """The actor's move: a player reads the observation, a network the encoded one."""
    if isinstance(actor, Player):
        return actor.act(obs, mask, info)
    assert encoded is not None
    return actor(encoded, mask)


def policy_actor(model: MaskablePPO) -> Actor:
    """The model's most probable legal action, as an :data:`Actor`."""

    def act(encoded: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(encoded, action_masks=mask, deterministic=True)
        return int(action)

    return act


def fit_to_demonstrations(model: MaskablePPO, demos: Demonstrations, epochs: int, batch_size: int,
                          learning_rate: float, seed: int) -> dict[str, float]:
    """Fit ``model``'s policy (cross-entropy, each step weighted) and value (squared error) to
    ``demos``; return the last epoch's mean losses and the policy's agreement with the teacher."""
    policy = model.policy
    optimizer = torch.optim.Adam(policy.parameters(), lr=learning_rate)
    generator = np.random.default_rng(seed)
    obs = torch.as_tensor(demos.observations)
    masks = demos.masks
    actions = torch.as_tensor(demos.actions)
    returns = torch.as_tensor(demos.returns)
    weights = torch.as_tensor(demos.step_weights())
    stats: dict[str, float] = {}
    policy.set_training_mode(True)
    for _ in range(epochs):
        order = generator.permutation(len(demos))
        totals = {"policy_loss": 0.0, "value_loss": 0.0, "agreement": 0.0}
        for start in range(0, len(order), batch_size):
            index = order[start:start + batch_size]
            batch_obs = obs[index]
            values, log_prob, _ = policy.evaluate_actions(  # sb3-contrib takes numpy masks too
                batch_obs, actions[index], action_masks=masks[index]  # type: ignore[arg-type]
            )
            w = weights[index]
            policy_loss = -(log_prob * w).sum() / w.sum()
            value_loss = torch.nn.functional.mse_loss(values.flatten(), returns[index])
            loss = policy_loss + model.vf_coef * value_loss
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), model.max_grad_norm)
            optimizer.step()
            with torch.no_grad():
                categorical = policy.get_distribution(batch_obs, action_masks=masks[index]).distribution
                assert isinstance(categorical, torch.distributions.Categorical)  # a Discrete action space's
                chosen = categorical.probs
                agree = ((chosen.argmax(dim=1) == actions[index]).float() * w).sum().item()
            totals["policy_loss"] += policy_loss.item() * len(index)
            totals["value_loss"] += value_loss.item() * len(index)
            totals["agreement"] += agree
        stats = {"policy_loss": totals["policy_loss"] / len(demos),
                 "value_loss": totals["value_loss"] / len(demos),
                 "agreement": totals["agreement"] / float(weights.sum())}  # weighted like the loss
    policy.set_training_mode(False)
    return stats


__all__ = [
    "Actor", "Demonstrations", "HindsightTeacher", "collect_demonstrations", "collect_hindsight",
    "fit_to_demonstrations", "make_teacher", "policy_actor",
]
