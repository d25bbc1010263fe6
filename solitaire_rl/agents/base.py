"""The one interface every player implements, and a loop that plays an episode with it.

A :class:`Player` is given what the environment hands a player at each step (observation, the
legal-action mask and ``info``) and answers with a :class:`Choice`: an action index and, where it
can, a few words saying why (what a hint shows). :meth:`Player.reset` is called once per episode
with the environment just reset; only a player that declares ``sees_hidden_cards`` (the exact
solver, an upper bound) may read more than a person at the table sees through it.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, ClassVar, cast

import gymnasium
import numpy as np

from solitaire_rl.envs.errors import IllegalMoveError

TRUNCATED = "truncated"
"""The outcome of an episode cut off by the step limit."""


@dataclass(frozen=True)
class Choice:
    """An action index and a few words on why (empty when the player cannot say)."""

    action: int
    reason: str = ""


class Player(ABC):
    """Chooses actions from the environment's observation, mask and info."""

    name: ClassVar[str] = "player"
    sees_hidden_cards: ClassVar[bool] = False
    """True only for players that read the deal itself (face-down and unseen cards)."""

    def reset(self, env: gymnasium.Env) -> None:  # noqa: B027  (optional hook)
        """A new episode starts in ``env`` (already reset). Players that need no setup ignore it."""

    @abstractmethod
    def choose(self, observation: np.ndarray, mask: np.ndarray, info: dict[str, Any]) -> Choice:
        """The action to play: ``mask[action]`` must be true."""

    def act(self, observation: np.ndarray, mask: np.ndarray, info: dict[str, Any]) -> int:
        """Only the action index of :meth:`choose`."""
        return self.choose(observation, mask, info).action


@dataclass(frozen=True)
class EpisodeResult:
    """One played deal: the row a benchmark keeps."""

    deal_id: str
    outcome: str
    """``"win"``, ``"dead_end"``, ``"no_progress"`` (Klondike) or ``"truncated"``."""
    won: bool
    cards_cleared: int
    steps: int
    seconds: float

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def game_of(env: gymnasium.Env) -> Any:
    """The rules engine's game behind ``env`` (``env.unwrapped.game``, which Gymnasium's types do
    not know): for the players that read the game itself (the solver, the planners, teachers)."""
    return cast(Any, env.unwrapped).game


def legal_mask(info: dict[str, Any]) -> np.ndarray:
    """The legal-action mask of a step's ``info`` as ``np.bool_``."""
    return np.asarray(info["action_mask"], dtype=np.bool_)


def legal_actions(mask: np.ndarray) -> np.ndarray:
    """Indices of the legal actions; :class:`IllegalMoveError` if there is none."""
    legal = np.flatnonzero(mask)
    if legal.size == 0:
        raise IllegalMoveError("There is no legal move to choose from.")
    return legal


def play_episode(
    env: gymnasium.Env,
    player: Player,
    deal: object,
    cards_cleared: Callable[[dict[str, Any]], int],
    max_steps: int | None = None,
) -> EpisodeResult:
    """Play ``deal`` to its end with ``player`` and time it.

    ``cards_cleared(info)`` reads progress from an ``info``
    (:meth:`solitaire_rl.envs.spec.GameSpec.cards_cleared`).
    A player that picks a masked action raises :class:`IllegalMoveError`: players play legal moves only.
    """
    start = time.perf_counter()
    obs, info = env.reset(options={"deal": deal})
    player.reset(env)
    steps, outcome = 0, None
    while outcome is None:
        mask = legal_mask(info)
        if not mask.any():  # dealt into a dead end
            outcome = info.get("outcome", "dead_end")
            break
        action = player.act(obs, mask, info)
        if not mask[action]:
            raise IllegalMoveError(f"player {player.name!r} chose masked action {action}", action)
        obs, _, terminated, truncated, info = env.step(action)
        steps += 1
        if "illegal_action" in info:
            raise IllegalMoveError(f"player {player.name!r}: {info['illegal_action']}", action)
        if terminated:
            outcome = info.get("outcome", "win")
        elif truncated or (max_steps is not None and steps >= max_steps):
            outcome = TRUNCATED
    return EpisodeResult(
        deal_id=str(info["deal_id"]),
        outcome=str(outcome),
        won=outcome == "win",
        cards_cleared=int(cards_cleared(info)),
        steps=steps,
        seconds=time.perf_counter() - start,
    )


__all__ = ["TRUNCATED", "Choice", "EpisodeResult", "Player", "legal_actions", "legal_mask", "play_episode"]
