"""Positions along a game for the encoding and player tests: games (copies), observations and masks;
two deals played side by side."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from solitaire_rl.agents.base import Player
from solitaire_rl.envs.deals import encode_deal_code
from solitaire_rl.envs.spec import find_game

Pick = Callable[[np.random.Generator, np.ndarray], int]
"""Chooses the next action from the generator and the legal actions."""


def uniform(rng: np.random.Generator, legal: np.ndarray) -> int:
    """Any legal action, uniformly."""
    return int(rng.choice(legal))


def game_positions(variant_key: str, seed: int, steps: int,
                   pick: Pick = uniform) -> list[tuple[object, np.ndarray, np.ndarray]]:
    """Games (copies), observations and masks along ``steps`` moves chosen by ``pick`` (a new deal
    after each finished one)."""
    env = find_game(variant_key).make_env()
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    out = []
    for _ in range(steps):
        mask = np.asarray(info["action_mask"], np.bool_)
        out.append((env.unwrapped.game.copy(), obs.copy(), mask))
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            break
        obs, _, terminated, truncated, info = env.step(pick(rng, legal))
        if terminated or truncated:
            obs, info = env.reset()
    return out


def choices_while_observations_agree(variant_key: str, cards_a: list[int], cards_b: list[int],
                                     make_player: Callable[[], Player], limit: int = 1000) -> int:
    """Play two deals side by side, a new player on each, while their observations agree (at most
    ``limit`` steps); assert that both players choose the same at every step. Returns the steps
    compared: a player that reads only the observation cannot tell the deals apart."""
    variant = find_game(variant_key)
    env_a, env_b = variant.make_env(), variant.make_env()
    obs_a, info_a = env_a.reset(options={"deal": encode_deal_code(cards_a)})
    obs_b, info_b = env_b.reset(options={"deal": encode_deal_code(cards_b)})
    player_a, player_b = make_player(), make_player()
    compared = 0
    while np.array_equal(obs_a, obs_b) and compared < limit:
        a = player_a.choose(obs_a, np.asarray(info_a["action_mask"], bool), info_a)
        b = player_b.choose(obs_b, np.asarray(info_b["action_mask"], bool), info_b)
        assert a == b
        compared += 1
        obs_a, _, done_a, _, info_a = env_a.step(a.action)
        obs_b, _, done_b, _, info_b = env_b.step(b.action)
        if done_a or done_b:
            break
    return compared
