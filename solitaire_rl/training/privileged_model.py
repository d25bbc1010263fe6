"""Building, starting and checking MaskablePPO models with a privileged critic for the trainer.

:func:`policy_class_and_kwargs` gives the policy of a run (plain or privileged) and the keyword
arguments its encoding needs; :func:`start_from_checkpoint` copies a plain checkpoint's network
into a new model (``--init-from``); :func:`check_critic` refuses a checkpoint to resume whose critic
is not the run's (plain against privileged, or another privileged layout).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import VecEnv

from solitaire_rl.agents.action_scoring_policy import ActionScoringPolicy
from solitaire_rl.agents.encodings import Encoding
from solitaire_rl.agents.ppo import PRIVILEGED_KEY, CheckpointMismatchError, load_model
from solitaire_rl.agents.privileged_policy import PrivilegedActionScoringPolicy, transfer_plain_weights
from solitaire_rl.envs.spec import GameSpec
from solitaire_rl.training.native_vec_env import NativeVecEnv
from solitaire_rl.training.privileged import PrivilegedView, check_privileged_record, privileged_view
from solitaire_rl.training.privileged_vec_env import PrivilegedVecEnv


def policy_class_and_kwargs(encoding: Encoding, view: PrivilegedView | None,
                            world_score_head: bool = False) -> tuple[Any, dict[str, Any]]:
    """The policy to give MaskablePPO and the keyword arguments its input layout needs: the
    encoding's own, or with ``view`` the privileged action-scoring policy (with a world-score
    head if asked)."""
    kwargs: dict[str, Any] = dict(encoding.policy_kwargs()) if encoding.policy_kwargs else {}
    if view is None:
        return encoding.policy_class(), kwargs
    return PrivilegedActionScoringPolicy, {**kwargs, "privileged_size": view.size,
                                           "world_score_head": world_score_head}


def privileged_env(env: NativeVecEnv) -> PrivilegedVecEnv:
    """``env`` with each observation followed by its privileged vector."""
    return PrivilegedVecEnv(env)


def start_from_checkpoint(model: MaskablePPO, checkpoint: Path, variant: GameSpec,
                          encoding: Encoding) -> None:
    """Give ``model`` the network of the plain checkpoint ``checkpoint`` (same encoding and net_arch):
    as it is for a plain model, with zero-weight privileged inputs for a privileged one."""
    plain, metadata = load_model(checkpoint, variant)
    if metadata["encoding"]["name"] != encoding.name:
        raise CheckpointMismatchError(
            f"checkpoint {checkpoint} uses encoding {metadata['encoding']['name']}, not {encoding.name}")
    source, target = plain.policy, model.policy
    try:
        if isinstance(target, PrivilegedActionScoringPolicy):
            if not isinstance(source, ActionScoringPolicy):
                raise ValueError(f"its policy is {type(source).__name__}")
            transfer_plain_weights(source, target)
        else:
            target.load_state_dict(source.state_dict())
    except (ValueError, RuntimeError) as exc:
        raise CheckpointMismatchError(f"checkpoint {checkpoint} is not this run's network: {exc}") from None


def hand_over(plain: MaskablePPO, privileged: MaskablePPO) -> None:
    """Give ``privileged``'s policy the weights of ``plain``'s (its warm start's twin)."""
    source, target = plain.policy, privileged.policy
    if not isinstance(source, ActionScoringPolicy) or not isinstance(target, PrivilegedActionScoringPolicy):
        raise TypeError(f"hand_over takes an action-scoring policy and a privileged one, not "
                        f"{type(source).__name__} and {type(target).__name__}")
    transfer_plain_weights(source, target)


def check_critic(metadata: dict[str, Any], privileged: bool, game: str, source: str) -> PrivilegedView | None:
    """The privileged view a checkpoint's critic reads (``None``: plain), refused unless it is the
    run's kind (``privileged``) and this code's layout."""
    record = metadata.get(PRIVILEGED_KEY)
    if (record is not None) != privileged:
        has = "a privileged critic" if record is not None else "a plain critic"
        flag = "with" if record is not None else "without"
        raise CheckpointMismatchError(f"{source} has {has}: resume it {flag} --privileged-critic")
    if record is None:
        return None
    return check_privileged_record(record, game, source)


def run_view(privileged: bool, game: str) -> PrivilegedView | None:
    """The privileged view a run trains with, or ``None`` for a plain critic."""
    return privileged_view(game) if privileged else None


def train_env_of(env: VecEnv) -> VecEnv:
    """The env a plain twin of a privileged model steps: the observations without privileged vectors."""
    return env.venv if isinstance(env, PrivilegedVecEnv) else env


__all__ = ["check_critic", "hand_over", "policy_class_and_kwargs", "privileged_env", "run_view",
           "start_from_checkpoint", "train_env_of"]
