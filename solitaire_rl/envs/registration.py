"""Gymnasium registration of the project's environments."""

from __future__ import annotations

import gymnasium

ENV_IDS = {
    "Solitaire/Pyramid-v0": "solitaire_rl.envs.pyramid.env:PyramidEnv",
    "Solitaire/Klondike-v0": "solitaire_rl.envs.klondike.env:KlondikeEnv",
}
VECTOR_ENTRY_POINTS = {
    "Solitaire/Pyramid-v0": "solitaire_rl.envs.pyramid.vector:PyramidVectorEnv",
    "Solitaire/Klondike-v0": "solitaire_rl.envs.klondike.vector:KlondikeVectorEnv",
}
"""Native batched environments (``gymnasium.make_vec(..., vectorization_mode="vector_entry_point")``;
without a mode, ``make_vec`` picks them too): docs/native-vec.md."""
MAX_EPISODE_STEPS: dict[str, int | None] = {
    "Solitaire/Pyramid-v0": 500,
    "Solitaire/Klondike-v0": 1000,
}
"""Truncation limits applied by Gymnasium's ``TimeLimit`` (``gymnasium.make``) and handed to the native
vector envs as ``max_episode_steps`` (``gymnasium.make_vec``); each env's docstring explains its figure.
Either call takes ``max_episode_steps=N`` to change it."""


def register_envs() -> None:
    """Register every environment once (safe to call again)."""
    for env_id, entry_point in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id, entry_point=entry_point, max_episode_steps=MAX_EPISODE_STEPS[env_id],
                vector_entry_point=VECTOR_ENTRY_POINTS.get(env_id),
            )
