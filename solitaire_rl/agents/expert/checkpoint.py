"""Expert-network checkpoints: a ``.zip`` with the weights and a JSON record of what they are.

The record (:data:`solitaire_rl.agents.ppo.METADATA_NAME`) holds ``kind`` (:data:`KIND`), the variant, the
observation encoding (name, version, size, layout digest), the number of actions, the network's
sizes and how it was trained (data, CPU hours, command). :func:`load_network` checks the record
against the variant asked for *before* reading any weights and refuses a file that is not such a
checkpoint, was made for another variant or encoding, or whose weights do not fit the sizes, with
:class:`solitaire_rl.agents.ppo.CheckpointError` / :class:`solitaire_rl.agents.ppo.CheckpointMismatchError`
saying which.
Shipped checkpoints: :data:`solitaire_rl.agents.ppo.CHECKPOINT_DIR` ``/expert-{variant}.zip``.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path
from typing import Any

from solitaire_rl.agents.encodings import Encoding, find_encoding
from solitaire_rl.agents.ppo import (
    CHECKPOINT_DIR,
    METADATA_NAME,
    CheckpointError,
    CheckpointMismatchError,
    check_metadata,
)
from solitaire_rl.envs.spec import GameSpec

KIND = "expert-policy-value"
FORMAT = 1
WEIGHTS_NAME = "weights.pt"
ENCODING_OF_GAME = {"klondike": "klondike-actions", "pyramid": "pyramid-actions"}
"""The encoding the expert network reads, per game (action slots: one shared move scorer)."""


def default_expert_checkpoint(variant: GameSpec) -> Path:
    """Where the shipped expert network of ``variant`` is (it may not exist)."""
    return CHECKPOINT_DIR / f"expert-{variant.key}.zip"


def expert_encoding(variant: GameSpec) -> Encoding:
    return find_encoding(ENCODING_OF_GAME[variant.game], variant.game)


def build_expert_metadata(variant: GameSpec, arch: dict[str, int],
                          training: dict[str, Any]) -> dict[str, Any]:
    encoding = expert_encoding(variant)
    env_space = variant.make_env().observation_space
    return {"format": FORMAT, "kind": KIND, "variant": variant.key, "game": variant.game,
            "encoding": encoding.record(env_space), "num_actions": variant.num_actions,
            "architecture": arch, "training": training}


def save_network(path: str | Path, state_dict: dict[str, Any], metadata: dict[str, Any]) -> Path:
    """Write weights and record to ``path`` (a new file, written whole)."""
    import torch

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    torch.save({k: v.detach().cpu() for k, v in state_dict.items()}, buffer)
    tmp = path.with_name(path.name + ".tmp")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(METADATA_NAME, json.dumps(metadata, indent=2, sort_keys=True))
        archive.writestr(WEIGHTS_NAME, buffer.getvalue())
    tmp.replace(path)
    return path


def read_expert_metadata(path: str | Path) -> dict[str, Any]:
    """The record of an expert checkpoint, without loading torch."""
    path = Path(path)
    if not path.is_file():
        raise CheckpointError(f"no expert checkpoint at {path}: "
                              "train one with 'python -m solitaire_rl.training.expert_fit'")
    try:
        with zipfile.ZipFile(path) as archive:
            names = archive.namelist()
            if METADATA_NAME not in names or WEIGHTS_NAME not in names:
                raise CheckpointError(f"{path} is not an expert-network checkpoint (no {METADATA_NAME} "
                                      f"and {WEIGHTS_NAME}); a ppo checkpoint goes to the ppo player")
            metadata = json.loads(archive.read(METADATA_NAME))
    except (zipfile.BadZipFile, json.JSONDecodeError, UnicodeDecodeError, OSError) as exc:
        raise CheckpointError(f"{path} is not a readable checkpoint: {exc}") from None
    if not isinstance(metadata, dict) or metadata.get("kind") != KIND:
        kind = metadata.get("kind") if isinstance(metadata, dict) else None
        raise CheckpointError(f"{path} holds a {kind!r} record, not an expert network's")
    if metadata.get("format") != FORMAT:
        raise CheckpointError(f"{path}: expert checkpoint format {metadata.get('format')!r}, "
                              f"this code reads {FORMAT}")
    return metadata


def check_expert_metadata(metadata: dict[str, Any], variant: GameSpec, source: str) -> Encoding:
    """Check a record against ``variant`` and this code (variant, actions, encoding)."""
    encoding = check_metadata(metadata, variant, source)
    if encoding.name != ENCODING_OF_GAME[variant.game]:
        raise CheckpointMismatchError(f"{source} reads {encoding.name}, the expert network "
                                      f"{ENCODING_OF_GAME[variant.game]}")
    return encoding


def load_network(path: str | Path, variant: GameSpec) -> tuple[Any, dict[str, Any]]:
    """The network of ``path`` for ``variant`` (in eval mode) and its record."""
    import torch

    from solitaire_rl.agents.expert.network import Architecture, PolicyValueNet

    path = Path(path)
    metadata = read_expert_metadata(path)
    encoding = check_expert_metadata(metadata, variant, f"checkpoint {path}")
    try:
        arch = Architecture(**metadata["architecture"])
    except (TypeError, KeyError) as exc:
        raise CheckpointError(f"checkpoint {path}: bad architecture record: {exc}") from None
    inputs = arch.flat_size + arch.slots * arch.slot_width
    if inputs != encoding.size or arch.num_actions != variant.num_actions:
        raise CheckpointMismatchError(f"checkpoint {path}: its sizes {arch} do not fit {encoding.name} "
                                      f"({encoding.size} inputs, {variant.num_actions} actions)")
    net = PolicyValueNet(arch)
    try:
        with zipfile.ZipFile(path) as archive:
            state = torch.load(io.BytesIO(archive.read(WEIGHTS_NAME)), weights_only=True)
        net.load_state_dict(state)
    except Exception as exc:  # torch raises many kinds: name the file, say what it holds
        raise CheckpointError(f"checkpoint {path}: its weights do not load into the recorded network: {exc}"
                              ) from None
    net.eval()
    return net, metadata


__all__ = ["ENCODING_OF_GAME", "KIND", "build_expert_metadata", "check_expert_metadata",
           "default_expert_checkpoint", "expert_encoding", "load_network", "read_expert_metadata",
           "save_network"]
