"""The action-scoring policy with a privileged critic: the actor reads the observation, the critic
reads it and the hidden cards.

PerfectDou's "perfect-training, imperfect-execution" for MaskablePPO. The input is the encoded
observation (``observation_size`` values: the flat part and the legal actions' slots of
:mod:`solitaire_rl.agents.action_scoring_policy`) followed by ``privileged_size`` values that only
the critic reads (:mod:`solitaire_rl.training.privileged`: where every hidden card lies).

* **Actor**: :class:`~solitaire_rl.agents.action_scoring_policy.ActionScorer`'s context and slot
  scorer, on the first ``observation_size`` values only: the privileged part is cut off before any
  actor layer, so it cannot change an action probability (``tests/test_privileged_critic.py``
  checks this bit for bit and by input gradients).
* **Critic**: an MLP on the observation's flat part and the privileged vector.

At play time the privileged part does not exist: :class:`PolicyActor` is the actor alone, built from
a checkpoint's actor weights (:mod:`solitaire_rl.agents.ppo_privileged`).
:func:`transfer_plain_weights` starts a privileged policy from a plain one (the shipped ``ppo``, or
the warm start's fit): the same actor, the same critic with zero weights on the privileged inputs, so
that it starts with the plain policy's values and moves.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

from solitaire_rl.agents.action_scoring_policy import ActionActor, ActionScorer, ActionScoringPolicy, _mlp

ACTOR_PREFIXES = ("mlp_extractor.context.", "mlp_extractor.scorer.")
"""The policy's state-dict entries that make the actor (everything else is the critic's)."""
WORLD_HEAD = "mlp_extractor.world_head."


class PrivilegedActionScorer(ActionScorer):
    """:class:`ActionScorer` whose critic also reads ``privileged_size`` values after the observation."""

    def __init__(self, flat_size: int, slots: int, slot_width: int, privileged_size: int, num_actions: int,
                 context: int, hidden: int, value_hidden: int, activation: type[nn.Module],
                 world_head: bool = False) -> None:
        super().__init__(flat_size, slots, slot_width, num_actions, context, hidden, value_hidden, activation)
        self.observation_size = flat_size + slots * slot_width
        self.privileged_size = privileged_size
        self.critic = _mlp([flat_size + privileged_size, value_hidden, value_hidden], activation)
        self.world_head = nn.Linear(value_hidden, 1) if world_head else None
        """A second head on the critic's last hidden layer: the logit of the position's world score
        (:mod:`solitaire_rl.training.world_score_fit`); ``None`` without world-label training."""

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        return super().forward_actor(features[:, : self.observation_size])

    def forward_critic(self, features: torch.Tensor) -> torch.Tensor:
        flat = features[:, : self.flat_size]
        return self.critic(torch.cat([flat, features[:, self.observation_size:]], dim=1))

    def world_logit(self, features: torch.Tensor) -> torch.Tensor:
        """The world-score head's logit of each row (a ``ValueError`` without the head)."""
        if self.world_head is None:
            raise ValueError("this critic has no world-score head")
        return self.world_head(self.forward_critic(features)).squeeze(-1)


class PrivilegedActionScoringPolicy(ActionScoringPolicy):
    """:class:`ActionScoringPolicy` with :class:`PrivilegedActionScorer` as its networks
    (``privileged_size``: the length of the critic-only part at the end of the input)."""

    def __init__(self, *args: Any, flat_size: int, slots: int, slot_width: int, privileged_size: int,
                 world_score_head: bool = False, **kwargs: Any) -> None:
        self.privileged_size = privileged_size
        self.world_score_head = world_score_head
        super().__init__(*args, flat_size=flat_size, slots=slots, slot_width=slot_width, **kwargs)

    def _build_mlp_extractor(self) -> None:
        sizes = list(self.net_arch) if isinstance(self.net_arch, list) and self.net_arch else [64, 64, 128]
        if len(sizes) != 3 or not all(isinstance(s, int) and s > 0 for s in sizes):
            raise ValueError(f"net_arch is [context, hidden, value_hidden], not {sizes}")
        layout = self.layout
        expected = layout["flat_size"] + layout["slots"] * layout["slot_width"] + self.privileged_size
        if self.features_dim != expected:
            raise ValueError(f"input of {self.features_dim} values, expected {expected} "
                             f"({layout}, privileged_size {self.privileged_size})")
        self.mlp_extractor = PrivilegedActionScorer(  # type: ignore[assignment]
            **layout, privileged_size=self.privileged_size, num_actions=int(self.action_space.n),  # type: ignore[attr-defined]
            context=sizes[0], hidden=sizes[1], value_hidden=sizes[2], activation=self.activation_fn,
            world_head=self.world_score_head)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        return {**super()._get_constructor_parameters(), "privileged_size": self.privileged_size,
                "world_score_head": self.world_score_head}


class PolicyActor(ActionActor):
    """The actor of an action-scoring policy alone: the logits of an encoded observation."""

    forward = ActionActor.forward_actor

    def load_actor_weights(self, policy_state: dict[str, torch.Tensor]) -> None:
        """Take the actor's weights from a whole policy's state dict (``mlp_extractor.context.*``,
        ``mlp_extractor.scorer.*``); a missing or misshapen one is a ``ValueError``."""
        prefix = "mlp_extractor."
        mine = {key[len(prefix):]: value for key, value in policy_state.items()
                if key.startswith(ACTOR_PREFIXES)}
        own = self.state_dict()
        missing = sorted(set(own) - set(mine))
        if missing:
            raise ValueError(f"the checkpoint has no actor weights {missing}")
        for key, value in own.items():
            if tuple(mine[key].shape) != tuple(value.shape):
                raise ValueError(f"actor weight {key} is {tuple(mine[key].shape)} in the checkpoint, "
                                 f"{tuple(value.shape)} for this encoding")
        self.load_state_dict({key: mine[key] for key in own})


def transfer_plain_weights(plain: ActionScoringPolicy, privileged: PrivilegedActionScoringPolicy) -> None:
    """Give ``privileged`` the weights of ``plain`` (same encoding and ``net_arch``): the actor's and
    the value head's as they are, the critic's with zero weights on the privileged inputs, so that
    both give the same action probabilities and values until the privileged one learns (a
    world-score head, which the plain policy has not, keeps its own)."""
    source, target = plain.state_dict(), privileged.state_dict()
    flat = privileged.layout["flat_size"]
    first = "mlp_extractor.critic.0.weight"
    with torch.no_grad():
        for key, value in target.items():
            if key.startswith(WORLD_HEAD):
                continue
            if key not in source:
                raise ValueError(f"the plain policy has no {key}: not the same network")
            if key == first:
                if source[key].shape != value[:, :flat].shape:
                    raise ValueError(f"{key}: {tuple(source[key].shape)} against {tuple(value.shape)}")
                value.zero_()
                value[:, :flat] = source[key]
            elif source[key].shape != value.shape:
                raise ValueError(f"{key}: {tuple(source[key].shape)} against {tuple(value.shape)}")
            else:
                value.copy_(source[key])
    privileged.load_state_dict(target)


__all__ = ["ACTOR_PREFIXES", "PolicyActor", "PrivilegedActionScorer", "PrivilegedActionScoringPolicy",
           "transfer_plain_weights"]
