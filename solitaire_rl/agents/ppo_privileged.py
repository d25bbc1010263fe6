"""The ``ppo-privileged`` player: a MaskablePPO checkpoint trained with a privileged critic, played
by its actor alone.

The checkpoint (``python -m solitaire_rl.training.train GAME --privileged-critic``) holds a policy
whose critic read the hidden cards in training (:mod:`solitaire_rl.agents.privileged_policy`); its
metadata says so (:data:`solitaire_rl.agents.ppo.PRIVILEGED_KEY`). Playing needs only the actor:
this player reads the checkpoint's metadata and its ``policy.pth`` member, and builds a
:class:`~solitaire_rl.agents.privileged_policy.PolicyActor` from the actor's weights, without
stable-baselines3 and without the critic. It reads only the observation, as every ``hidden cards``
agent does.

Refused with :class:`~solitaire_rl.agents.ppo.CheckpointMismatchError`: a plain ``ppo`` checkpoint
(and, by ``ppo``, a privileged one), a checkpoint of another game or variant, another encoding's,
or one whose actor weights do not fit the encoding's input size.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from solitaire_rl.agents.ppo import (
    CheckpointError,
    CheckpointMismatchError,
    PpoPlayer,
    check_metadata,
    read_metadata,
)
from solitaire_rl.envs.spec import GameSpec

if TYPE_CHECKING:
    from solitaire_rl.agents.privileged_policy import PolicyActor

POLICY_MEMBER = "policy.pth"
"""stable-baselines3's member of a saved model holding the policy's state dict."""


def load_actor(path: str | Path, variant: GameSpec) -> tuple[PolicyActor, dict[str, Any]]:
    """The actor of a privileged-critic checkpoint for ``variant``, with its metadata, after checking
    the metadata and the weights' shapes (nothing of the critic is built)."""
    import torch

    from solitaire_rl.agents.privileged_policy import PolicyActor

    path = Path(path)
    metadata = read_metadata(path)
    source = f"checkpoint {path}"
    encoding = check_metadata(metadata, variant, source=source, privileged=True)
    if not encoding.policy.endswith(":ActionScoringPolicy") or encoding.policy_kwargs is None:
        raise CheckpointMismatchError(f"{source}: encoding {encoding.name} has no action-scoring actor")
    args = metadata.get("training", {}).get("args", {})
    sizes, activation = args.get("net_arch"), args.get("activation", "relu")
    if not (isinstance(sizes, list) and len(sizes) == 3 and all(isinstance(s, int) and s > 0 for s in sizes)):
        raise CheckpointError(f"{source}: its metadata gives no [context, hidden, value_hidden] net_arch")
    if activation not in ("relu", "tanh"):
        raise CheckpointError(f"{source}: unknown activation {activation!r}")
    layout = encoding.policy_kwargs()
    expected = int(layout["flat_size"]) + int(layout["slots"]) * int(layout["slot_width"])  # type: ignore[call-overload]
    if metadata["encoding"].get("size") != expected:
        raise CheckpointMismatchError(
            f"{source}: its observation has {metadata['encoding'].get('size')} values, the {encoding.name} "
            f"encoding {expected}")
    try:
        with zipfile.ZipFile(path) as archive:
            state = torch.load(io.BytesIO(archive.read(POLICY_MEMBER)), map_location="cpu", weights_only=True)
    except (KeyError, zipfile.BadZipFile, RuntimeError, EOFError) as exc:
        raise CheckpointError(f"{source} holds no readable {POLICY_MEMBER}: {exc}") from None
    function = {"relu": torch.nn.ReLU, "tanh": torch.nn.Tanh}[activation]
    actor = PolicyActor(**layout, num_actions=variant.num_actions, context=sizes[0],  # type: ignore[arg-type]
                        hidden=sizes[1], activation=function)
    try:
        actor.load_actor_weights(state)
    except ValueError as exc:
        raise CheckpointMismatchError(f"{source}: {exc}") from None
    actor.eval()
    return actor, metadata


class PrivilegedPpoPlayer(PpoPlayer):
    """Plays the actor of a privileged-critic checkpoint: the most probable legal action, or a sample.

    As :class:`~solitaire_rl.agents.ppo.PpoPlayer` (seeding, sampling, ``deterministic``), with only
    the actor built from the checkpoint; ``checkpoint=None``: the shipped ``{variant key}-privileged.zip``.
    """

    name = "ppo-privileged"
    privileged = True

    def _load(self, checkpoint: Path) -> dict[str, Any]:
        self.actor, metadata = load_actor(checkpoint, self.variant)
        return metadata

    def action_probabilities(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The policy's probability of each action, masked actions at zero."""
        import torch

        legal = np.asarray(mask, np.bool_)
        encoded = np.asarray(self.encoding.encode(observation, mask), np.float32)[None]
        with torch.no_grad():
            logits = self.actor(torch.as_tensor(encoded))[0].double().numpy()
        scores = np.where(legal, logits, -np.inf)
        probs = np.exp(scores - scores[legal].max())
        return probs / probs.sum()


__all__ = ["POLICY_MEMBER", "PrivilegedPpoPlayer", "load_actor"]
