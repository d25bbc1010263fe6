"""A MaskablePPO policy that scores each legal action with one shared network.

For encodings that list the legal actions as slots (:mod:`solitaire_rl.agents.encodings.pyramid_actions`): the
input is
a flat observation of ``flat_size`` values followed by ``slots`` rows of ``slot_width`` values,
each row an action's code ``(action + 1) / num_actions`` (0: unused) and its features.

* **Context**: an MLP reads the flat observation into a short vector.
* **Actor**: one MLP scores every used slot from its features and the context; the scores go to
  their actions' logits (actions without a slot get 0, and the mask rules them out anyway). What it
  learns about one action carries over to every other, which an MLP with one output per action
  cannot do.
* **Critic**: an MLP on the flat observation, beside the actor (no shared layers).

It plugs into stable-baselines3 as the ``mlp_extractor`` of :class:`MaskableActorCriticPolicy`,
whose action net is then the identity: the extractor's actor output already is the logits.
"""

from __future__ import annotations

from functools import partial
from itertools import pairwise
from typing import Any, cast

import numpy as np
import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from torch import nn


def _mlp(sizes: list[int], activation: type[nn.Module]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for a, b in pairwise(sizes):
        layers += [nn.Linear(a, b), activation()]
    return nn.Sequential(*layers)


class ActionActor(nn.Module):
    """The actor alone: a context from the flat part, a score for each used action slot, the
    logits of the actions (unused ones at zero, masked later)."""

    def __init__(self, flat_size: int, slots: int, slot_width: int, num_actions: int,
                 context: int, hidden: int, activation: type[nn.Module]) -> None:
        super().__init__()
        self.flat_size, self.slots, self.slot_width = flat_size, slots, slot_width
        self.num_actions = num_actions
        self.context = _mlp([flat_size, 2 * context, context], activation)
        self.scorer = nn.Sequential(_mlp([slot_width - 1 + context, hidden, hidden], activation),
                                    nn.Linear(hidden, 1))

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        flat = features[:, : self.flat_size]
        rows = features[:, self.flat_size:].reshape(-1, self.slots, self.slot_width)
        index = torch.round(rows[:, :, 0] * self.num_actions).long() - 1
        batch, slot = (index >= 0).nonzero(as_tuple=True)  # only the used slots are scored
        context = self.context(flat)
        scores = self.scorer(torch.cat([rows[batch, slot, 1:], context[batch]], dim=1)).squeeze(1)
        logits = scores.new_zeros(rows.shape[0], self.num_actions)
        return logits.index_put((batch, index[batch, slot]), scores)


class ActionScorer(ActionActor):
    """Actor logits from per-slot scores (:class:`ActionActor`), and the critic's latent vector."""

    def __init__(self, flat_size: int, slots: int, slot_width: int, num_actions: int,
                 context: int, hidden: int, value_hidden: int, activation: type[nn.Module]) -> None:
        super().__init__(flat_size, slots, slot_width, num_actions, context, hidden, activation)
        self.critic = _mlp([flat_size, value_hidden, value_hidden], activation)
        self.latent_dim_pi = num_actions
        self.latent_dim_vf = value_hidden

    def forward(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.forward_actor(features), self.forward_critic(features)

    def forward_critic(self, features: torch.Tensor) -> torch.Tensor:
        return self.critic(features[:, : self.flat_size])


class ActionScoringPolicy(MaskableActorCriticPolicy):
    """:class:`MaskableActorCriticPolicy` with :class:`ActionScorer` as its networks.

    ``flat_size``, ``slots`` and ``slot_width`` describe the input (the encoding supplies them);
    ``net_arch`` (a list ``[context, hidden, value_hidden]``, default ``[64, 64, 128]``) sizes the
    networks.
    """

    def __init__(self, *args: Any, flat_size: int, slots: int, slot_width: int, **kwargs: Any) -> None:
        self.layout = {"flat_size": flat_size, "slots": slots, "slot_width": slot_width}
        super().__init__(*args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        sizes = list(self.net_arch) if isinstance(self.net_arch, list) and self.net_arch else [64, 64, 128]
        if len(sizes) != 3 or not all(isinstance(s, int) and s > 0 for s in sizes):
            raise ValueError(f"net_arch is [context, hidden, value_hidden], not {sizes}")
        expected = self.layout["flat_size"] + self.layout["slots"] * self.layout["slot_width"]
        if self.features_dim != expected:
            raise ValueError(f"input of {self.features_dim} values, expected {expected} ({self.layout})")
        if not isinstance(self.action_space, spaces.Discrete):
            raise ValueError(f"the action-scoring policy needs Discrete actions, not {self.action_space}")
        # sb3 types mlp_extractor as its MlpExtractor; it only needs latent_dim_pi/vf and the two forwards.
        self.mlp_extractor = ActionScorer(**self.layout, num_actions=int(self.action_space.n),  # type: ignore[assignment]
                                          context=sizes[0], hidden=sizes[1], value_hidden=sizes[2],
                                          activation=self.activation_fn)

    def _build(self, lr_schedule: Any) -> None:
        self._build_mlp_extractor()
        self.action_net = nn.Identity()
        self.value_net = nn.Linear(self.mlp_extractor.latent_dim_vf, 1)
        if self.ortho_init:
            self.mlp_extractor.apply(partial(self.init_weights, gain=np.sqrt(2)))
            self.init_weights(cast(ActionScorer, self.mlp_extractor).scorer[-1], gain=0.01)
            self.init_weights(self.value_net, gain=1.0)
        self.optimizer = self.optimizer_class(  # as sb3 builds it: every torch optimizer takes lr
            self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)  # type: ignore[call-arg]

    def _get_constructor_parameters(self) -> dict[str, Any]:
        return {**super()._get_constructor_parameters(), **self.layout}


__all__ = ["ActionActor", "ActionScorer", "ActionScoringPolicy"]
