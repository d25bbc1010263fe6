"""An auxiliary value loss for a privileged critic: fit world-count labels between PPO updates.

With ``--world-labels FOLDER`` (shards of ``python -m solitaire_rl.training.world_labels``), every
labelled position (``world-bandit``'s self-play at commitments) is loaded once as the critic reads
it (:func:`load_world_scores`): the run's encoding of its observation and mask, and the privileged
vector of the full position, rebuilt from the row's deal and the moves before it. Its target is
its world score: the share of K sampled worlds in which a capped exact search wins
(``label_won / K``).

The critic's value head predicts the (shaped, discounted) return of PPO, not a win probability,
so the labels go to a head of their own on the critic's last hidden layer
(:attr:`~solitaire_rl.agents.privileged_policy.PrivilegedActionScorer.world_head`, a logit): the
critic's body learns from both. :class:`WorldScoreFit` takes ``steps`` minibatches of labelled
positions after each rollout, before PPO's update: the cross-entropy of the head's probability
against the world score, times ``coef``, one step of the policy's own Adam each. The actor is not
touched (its parameters get no gradient from this loss).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from stable_baselines3.common.callbacks import BaseCallback

from solitaire_rl.agents.encodings import Encoding
from solitaire_rl.agents.privileged_policy import PrivilegedActionScorer
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike import KlondikeGame
from solitaire_rl.envs.klondike.actions import NUM_ACTIONS, move_of
from solitaire_rl.envs.spec import GameSpec, find_game
from solitaire_rl.training.privileged import PrivilegedView


@dataclass
class WorldScores:
    """Labelled positions as the privileged critic reads them, and their world scores."""

    inputs: np.ndarray
    """Encoded observation followed by the privileged vector, one row each (``float32``)."""
    targets: np.ndarray
    """World scores in [0, 1]."""
    cpu_hours: float
    """CPU hours the labels cost (the bot's self-play and the labels), from the run's manifest."""

    def __len__(self) -> int:
        return len(self.targets)


def load_world_scores(folder: Path, variant: GameSpec, encoding: Encoding,
                      view: PrivilegedView) -> WorldScores:
    """Every labelled position of a world-label run folder, for a ``variant`` critic reading
    ``encoding`` and ``view`` (refused: another variant's labels, a row whose replayed deal does
    not show the row's observation)."""
    from solitaire_rl.training.world_labels import describe, load

    labels = load(folder)
    if find_game(labels.config.variant).key != variant.key:
        raise MalformedInputError(f"{folder} holds {labels.config.variant} labels, not {variant.key}'s")
    arrays = labels.arrays
    masks = np.unpackbits(arrays["mask"], axis=1, count=NUM_ACTIONS).astype(np.int8)
    encoded = encoding.encode_batch(arrays["obs"], masks).astype(np.float32)
    hidden = np.zeros((len(labels), view.size), np.float32)
    order = np.lexsort((arrays["ply"], arrays["game"]))
    game: KlondikeGame | None = None
    current, played = -1, 0
    for row in order.tolist():
        index = int(arrays["game"][row])
        if index != current:
            start = variant.new_game(variant.deal_id(int(arrays["deal"][row])))
            assert isinstance(start, KlondikeGame)
            game, current, played = start, index, 0
        assert game is not None
        line_start = int(arrays["game_line_offsets"][index])
        while played < int(arrays["ply"][row]):
            game.push(move_of(game, int(arrays["game_line"][line_start + played])))
            played += 1
        if not np.array_equal(variant.observe(game), arrays["obs"][row]):
            raise MalformedInputError(f"{folder}: row {row}'s replayed deal does not show its observation")
        view.write({"columns": game.columns, "hidden": game.hidden, "stock": game.stock, "seen": game.seen},
                   hidden[row])
    inputs = np.concatenate([encoded, hidden], axis=1)
    return WorldScores(inputs, labels.share.astype(np.float32), float(describe(folder)["cpu_hours"]))


class WorldScoreFit(BaseCallback):
    """After each rollout, ``steps`` minibatches of ``batch_size`` labelled positions fit the
    critic's world-score head (see the module docstring)."""

    def __init__(self, data: WorldScores, coef: float, steps: int, batch_size: int, seed: int) -> None:
        super().__init__()
        if coef <= 0 or steps < 1 or batch_size < 1 or not len(data):
            raise MalformedInputError("the world-score fit needs labels, and a positive coef, steps and "
                                      "batch size")
        self.inputs, self.targets = torch.as_tensor(data.inputs), torch.as_tensor(data.targets)
        self.coef, self.steps, self.batch_size = coef, steps, batch_size
        self.rng = np.random.default_rng(seed)

    def _on_step(self) -> bool:
        return True

    def _on_rollout_end(self) -> None:
        policy = self.model.policy
        extractor = policy.mlp_extractor
        if not isinstance(extractor, PrivilegedActionScorer) or extractor.world_head is None:
            raise MalformedInputError("the world-score fit needs a privileged critic with a world-score head")
        policy.set_training_mode(True)
        total = 0.0
        for _ in range(self.steps):
            index = torch.as_tensor(self.rng.integers(len(self.targets), size=self.batch_size))
            logits = extractor.world_logit(self.inputs[index])
            loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, self.targets[index])
            policy.optimizer.zero_grad()
            (self.coef * loss).backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), getattr(self.model, "max_grad_norm", 0.5))
            policy.optimizer.step()
            total += loss.item()
        self.logger.record("losses/world_score_loss", total / self.steps)


__all__ = ["WorldScoreFit", "WorldScores", "load_world_scores"]
