"""The ``ppo`` player: a MaskablePPO checkpoint, always predicting with the action mask.

A checkpoint is stable-baselines3's ``.zip`` with one more member, :data:`METADATA_NAME`, a JSON
record of what the policy was trained on: game and variant, the observation encoding (name,
version, input size, layout digest; :mod:`solitaire_rl.agents.encodings`) and the number of actions, plus how
it was trained. :func:`load_model` checks that record against the variant asked for *before*
loading any weights, and raises :class:`CheckpointMismatchError` naming the difference.

Shipped checkpoints live in :data:`CHECKPOINT_DIR` as ``{variant key}.zip`` (``pyramid-000.zip``,
``pyramid-001.zip``, ``klondike-draw3.zip``); the ``ppo`` player loads those by default. torch and
sb3-contrib are imported only when a model is loaded.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from solitaire_rl.agents.base import Choice, Player, legal_actions
from solitaire_rl.agents.encodings import Encoding, find_encoding
from solitaire_rl.agents.seeding import Seed, new_generator
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.spec import GameSpec, find_game

if TYPE_CHECKING:
    from sb3_contrib import MaskablePPO

METADATA_NAME = "solitaire_rl.json"
"""The checkpoint member holding the metadata record."""
METADATA_FORMAT = 1
PRIVILEGED_KEY = "privileged"
"""The metadata's record of a privileged critic (the value network read the hidden cards in training:
:mod:`solitaire_rl.agents.privileged_policy`); absent for a plain MaskablePPO checkpoint."""
CHECKPOINT_DIR = Path(__file__).resolve().parent / "checkpoints"
"""Where the shipped checkpoints are, one per variant."""


class CheckpointError(MalformedInputError):
    """A checkpoint file that cannot be used: missing, unreadable, or without metadata."""


class CheckpointMismatchError(CheckpointError):
    """A checkpoint trained for another game, variant, observation encoding or action space."""


def default_checkpoint(variant: GameSpec, privileged: bool = False) -> Path:
    """The shipped checkpoint of a variant (it may not exist yet); ``privileged``: the one with a
    privileged critic (``{variant key}-privileged.zip``)."""
    return CHECKPOINT_DIR / f"{variant.key}{'-privileged' if privileged else ''}.zip"


def build_metadata(
    variant: GameSpec, encoding: Encoding, env_space: Any, training: dict[str, Any]
) -> dict[str, Any]:
    """The metadata record of a policy trained on ``variant`` with ``encoding``."""
    return {
        "format": METADATA_FORMAT,
        "variant": variant.key,
        "game": variant.game,
        "variant_name": variant.name,
        "encoding": encoding.record(env_space),
        "num_actions": variant.num_actions,
        "training": training,
    }


def write_metadata(path: str | Path, metadata: dict[str, Any]) -> None:
    """Add the metadata record to a checkpoint ``.zip`` just saved by ``model.save``."""
    with zipfile.ZipFile(path, "a", compression=zipfile.ZIP_DEFLATED) as archive:
        if METADATA_NAME in archive.namelist():
            raise CheckpointError(f"{path} already holds {METADATA_NAME}: save the model afresh first")
        archive.writestr(METADATA_NAME, json.dumps(metadata, indent=2, sort_keys=True))


def save_checkpoint(model: MaskablePPO, path: str | Path, metadata: dict[str, Any],
                    optimizer_state: bool = True) -> Path:
    """Save ``model`` to ``path`` (``.zip`` added if missing) with its metadata record.

    ``optimizer_state=False`` saves a fresh optimizer instead of Adam's running moments, which
    are twice the size of the network: a checkpoint to ship and play (resuming from it restarts
    the moments).
    """
    path = Path(path)
    if path.suffix != ".zip":
        path = path.with_name(path.name + ".zip")
    path.parent.mkdir(parents=True, exist_ok=True)
    policy = model.policy
    optimizer = policy.optimizer
    if not optimizer_state:
        policy.optimizer = type(optimizer)(policy.parameters(), **optimizer.defaults)
    try:
        model.save(path)
    finally:
        policy.optimizer = optimizer
    write_metadata(path, {**metadata, "optimizer_state": optimizer_state})
    return path


def read_metadata(path: str | Path) -> dict[str, Any]:
    """The metadata record of a checkpoint, without loading torch."""
    path = Path(path)
    if not path.is_file():
        raise CheckpointError(f"no checkpoint at {path}")
    try:
        with zipfile.ZipFile(path) as archive:
            if METADATA_NAME not in archive.namelist():
                raise CheckpointError(
                    f"{path} has no {METADATA_NAME}: it was not saved by solitaire_rl.training.train, so "
                    f"its game, variant and observation encoding are unknown"
                )
            metadata = json.loads(archive.read(METADATA_NAME))
    except (zipfile.BadZipFile, json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CheckpointError(f"{path} is not a readable checkpoint: {exc}") from None
    if not isinstance(metadata, dict) or metadata.get("format") != METADATA_FORMAT:
        raise CheckpointError(f"{path}: unsupported metadata format {metadata.get('format')!r}")
    return metadata


def check_metadata(metadata: dict[str, Any], variant: GameSpec, source: str = "checkpoint",
                   privileged: bool = False) -> Encoding:
    """Check a metadata record against ``variant`` and this code; return the encoding to use.
    ``privileged``: the checkpoint must have a privileged critic (the ``ppo-privileged`` player), else
    it must not (``ppo``)."""
    if (metadata.get(PRIVILEGED_KEY) is not None) != privileged:
        raise CheckpointMismatchError(
            f"{source} has a privileged critic (its value network read the hidden cards in training): "
            f"play it as ppo-privileged, not ppo" if not privileged else
            f"{source} is a plain MaskablePPO checkpoint without a privileged critic: play it as ppo, "
            f"not ppo-privileged")
    trained = metadata.get("variant")
    if trained != variant.key:
        raise CheckpointMismatchError(
            f"{source} was trained on {trained}, not {variant.key}: use a {variant.key} checkpoint"
        )
    if metadata.get("num_actions") != variant.num_actions:
        raise CheckpointMismatchError(
            f"{source} has {metadata.get('num_actions')} actions but the {variant.key} environment has "
            f"{variant.num_actions}: the action layout changed, retrain"
        )
    record = metadata.get("encoding") or {}
    encoding = find_encoding(str(record.get("name")), variant.game)
    if record.get("version") != encoding.version:
        raise CheckpointMismatchError(
            f"{source} uses observation encoding {encoding.name} v{record.get('version')}, this code "
            f"has v{encoding.version}: retrain"
        )
    if record.get("digest") != encoding.digest():
        raise CheckpointMismatchError(
            f"{source}'s observation layout (digest {record.get('digest')}) differs from this "
            f"environment's (digest {encoding.digest()}): the observation changed since training, retrain"
        )
    return encoding


def load_model(path: str | Path, variant: GameSpec, device: str = "cpu",
               privileged: bool = False) -> tuple[MaskablePPO, dict[str, Any]]:
    """Load a checkpoint for ``variant`` after checking its metadata; return it with the metadata.
    ``privileged``: a checkpoint with a privileged critic, loaded whole (to ship or resume it; the
    ``ppo-privileged`` player builds its actor alone)."""
    metadata = read_metadata(path)
    encoding = check_metadata(metadata, variant, source=f"checkpoint {path}", privileged=privileged)
    from sb3_contrib import MaskablePPO

    try:
        # The policy class by its current import path: checkpoints saved before the package was
        # named solitaire_rl pickled it as ``agents.action_scoring_policy``.
        policy_class: Any = encoding.policy_class()
        if privileged:
            from solitaire_rl.agents.privileged_policy import PrivilegedActionScoringPolicy

            policy_class = PrivilegedActionScoringPolicy
        custom = {} if isinstance(policy_class, str) else {"policy_class": policy_class}
        model = MaskablePPO.load(path, device=device, custom_objects=custom)
    except Exception as exc:
        raise CheckpointError(f"{path} could not be loaded by MaskablePPO: {exc}") from exc
    size = int(np.prod(model.observation_space.shape or ()))
    critic_only = int(metadata[PRIVILEGED_KEY]["size"]) if privileged else 0  # what only the critic reads
    actions = getattr(model.action_space, "n", None)
    if size != metadata["encoding"]["size"] + critic_only or actions != variant.num_actions:
        raise CheckpointMismatchError(
            f"checkpoint {path}: its spaces ({model.observation_space}, {model.action_space}) do not "
            f"match its metadata ({encoding.name}, {variant.num_actions} actions)"
        )
    return model, metadata


def plays_by_sampling(metadata: dict[str, Any]) -> bool:
    """Whether a checkpoint is meant to sample its moves rather than play the most probable one.

    True when training chose it by sampled evaluation (``--eval-sample``, kept in the record's
    training arguments): the shipped Klondike policy's most probable move cycles, and only
    sampling plays it as it was measured.
    """
    training = metadata.get("training")
    args = training.get("args") if isinstance(training, dict) else None
    return isinstance(args, dict) and args.get("eval_sample") is True


class PpoPlayer(Player):
    """Plays a MaskablePPO policy: the most probable legal action, or a sample from the policy.

    ``deterministic=None`` (the default) plays as the checkpoint was chosen in training
    (:func:`plays_by_sampling`); ``True`` or ``False`` force the most probable move or sampling.
    Subclasses load another kind of checkpoint by overriding :meth:`_load` and
    :meth:`action_probabilities` (:class:`~solitaire_rl.agents.ppo_privileged.PrivilegedPpoPlayer`).
    """

    name = "ppo"
    privileged = False
    """Whether the checkpoint is a privileged-critic one (``{variant key}-privileged.zip`` when shipped)."""

    def __init__(self, variant: GameSpec | str, checkpoint: str | Path | None = None,
                 deterministic: bool | None = None, seed: int | None = None) -> None:
        self.variant = find_game(variant) if isinstance(variant, str) else variant
        shipped = default_checkpoint(self.variant, privileged=self.privileged)
        self.checkpoint = Path(checkpoint) if checkpoint is not None else shipped
        if checkpoint is None and not self.checkpoint.is_file():
            kind = "privileged-critic checkpoint" if self.privileged else "checkpoint"
            flag = " --privileged-critic" if self.privileged else ""
            raise CheckpointError(
                f"no shipped {kind} for {self.variant.key} at {self.checkpoint}: train one with "
                f"'python -m solitaire_rl.training.train {self.variant.game}{flag} ...' or pass a "
                "checkpoint path"
            )
        self.metadata = self._load(self.checkpoint)
        import torch

        # Process-wide settings for playing one position at a time: a small network runs fastest
        # on one thread (several fight over a shared machine's cores), and the masked distribution
        # needs no argument checks (the mask comes from the env, the logits from the network).
        torch.set_num_threads(1)
        torch.distributions.Distribution.set_default_validate_args(False)
        self.encoding = find_encoding(self.metadata["encoding"]["name"], self.variant.game)
        self.deterministic = not plays_by_sampling(self.metadata) if deterministic is None else deterministic
        self._rng = np.random.default_rng(seed)

    def _load(self, checkpoint: Path) -> dict[str, Any]:
        """Load the network from ``checkpoint`` (checked against the variant); return its metadata."""
        self.model, metadata = load_model(checkpoint, self.variant)
        return metadata

    def reseed(self, seed: Seed) -> None:
        """Sample moves from ``numpy.random.default_rng(seed)`` from now on (when not deterministic)."""
        self._rng = new_generator(seed)

    def action_probabilities(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The policy's probability of each action, masked actions at zero."""
        import torch

        policy = self.model.policy
        obs_tensor, _ = policy.obs_to_tensor(self.encoding.encode(observation, mask))
        with torch.no_grad():
            distribution = policy.get_distribution(obs_tensor, action_masks=np.asarray(mask, np.bool_)[None])
            categorical = distribution.distribution
            assert isinstance(categorical, torch.distributions.Categorical)  # a Discrete action space's
            probs = categorical.probs[0].cpu().numpy().astype(np.float64)
        probs[~np.asarray(mask, np.bool_)] = 0.0
        return probs

    def choose(self, observation: np.ndarray, mask: np.ndarray, info: dict[str, Any]) -> Choice:
        legal = legal_actions(mask)
        probs = self.action_probabilities(observation, mask)
        if self.deterministic:
            action = int(legal[np.argmax(probs[legal])])
        else:
            p = probs[legal] / probs[legal].sum()
            action = int(legal[self._rng.choice(legal.size, p=p)])
        return Choice(action, f"the trained policy's pick ({probs[action]:.0%} likely)")


__all__ = [
    "CHECKPOINT_DIR", "METADATA_NAME", "PRIVILEGED_KEY", "CheckpointError", "CheckpointMismatchError",
    "PpoPlayer", "build_metadata", "check_metadata", "default_checkpoint", "load_model", "plays_by_sampling",
    "read_metadata", "save_checkpoint", "write_metadata",
]
