"""Positions along a game for the encoding tests: games (copies), observations and masks."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from agents.variants import find_variant

Pick = Callable[[np.random.Generator, np.ndarray], int]
"""Chooses the next action from the generator and the legal actions."""


def uniform(rng: np.random.Generator, legal: np.ndarray) -> int:
    """Any legal action, uniformly."""
    return int(rng.choice(legal))


def game_positions(variant_key: str, seed: int, steps: int,
                   pick: Pick = uniform) -> list[tuple[object, np.ndarray, np.ndarray]]:
    """Games (copies), observations and masks along ``steps`` moves chosen by ``pick`` (a new deal
    after each finished one)."""
    env = find_variant(variant_key).make_env()
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
