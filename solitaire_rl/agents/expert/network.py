"""The expert-iteration network: a policy over the legal moves and a value of the position.

It reads an action-slot encoding (``klondike-actions``, ``pyramid-actions``: the observation
then one feature row per legal action) and gives

* ``logits`` over every action: one shared scorer rates each legal action's row in the context of
  the position (:class:`solitaire_rl.agents.action_scoring_policy.ActionScorer`), so what it learns of a move
  carries over to every other;
* ``value``: the logit of the chance that the game is won from here, as games really end under
  hidden cards (fitted to self-play outcomes, not to the solver's hindsight);
* ``progress``: the share of the cards the game ends with up (a denser second target).

Only the observation and the mask go in: the network cannot read a hidden card.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import torch
from torch import nn

from solitaire_rl.agents.action_scoring_policy import ActionScorer


@dataclass(frozen=True)
class Architecture:
    """Sizes of the network (kept in the checkpoint)."""

    flat_size: int
    slots: int
    slot_width: int
    num_actions: int
    context: int = 256
    hidden: int = 256
    value_hidden: int = 256

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


class PolicyValueNet(nn.Module):
    """Action logits, a win logit and an end-progress logit from encoded rows."""

    def __init__(self, arch: Architecture) -> None:
        super().__init__()
        self.arch = arch
        self.body = ActionScorer(arch.flat_size, arch.slots, arch.slot_width, arch.num_actions, arch.context,
                                 arch.hidden, arch.value_hidden, nn.ReLU)
        self.heads = nn.Linear(arch.value_hidden, 2)

    def forward(self, features: torch.Tensor, mask: torch.Tensor | None = None
                ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """``(logits, value logit, progress logit)``; masked actions' logits at -inf when ``mask``."""
        logits = self.body.forward_actor(features)
        if mask is not None:
            logits = logits.masked_fill(~mask, float("-inf"))
        heads = self.heads(self.body.forward_critic(features))
        return logits, heads[:, 0], heads[:, 1]


__all__ = ["Architecture", "PolicyValueNet"]
