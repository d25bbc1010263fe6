"""Held-out evaluation during training on one native batch: every evaluation deal at once.

The trainer used to evaluate as sb3-contrib's ``MaskableEvalCallback`` does: one Python env, one
deal after another, one network forward per step (a quarter of a four-minute Klondike run).
:func:`evaluate_on_batch` deals all the evaluation deals to one native batch (autoreset disabled,
the registered step limit, no shaped reward: what the Python evaluation env plays), and steps them
together, one batched forward per step for the games still going, until every game has ended. For
the same deals and a deterministic policy it gives the returns and lengths the old evaluation gives
(``tests/test_training.py`` compares them deal by deal).

:class:`NativeEvalCallback` is the trainer's callback around it, logging what
``MaskableEvalCallback`` logs (``eval/mean_reward``, ``eval/mean_ep_length``,
``eval/success_rate``, ``evaluations.npz``) and calling its ``callback_on_new_best`` the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from gymnasium.vector import AutoresetMode
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.callbacks import BaseCallback

from solitaire_rl.agents.encodings import Encoding
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.native_batch import NativeBatch
from solitaire_rl.envs.spec import GameSpec
from solitaire_rl.envs.splits import EVAL, DealRange


@dataclass(frozen=True)
class EvalResult:
    """One evaluation: per deal (in the order given), its return, its length in steps and whether
    it was won."""

    deals: tuple[int, ...]
    returns: np.ndarray
    lengths: np.ndarray
    wins: np.ndarray

    @property
    def mean_return(self) -> float:
        return float(self.returns.mean())

    @property
    def win_rate(self) -> float:
        return float(self.wins.mean())


def evaluation_batch(variant: GameSpec, num_envs: int, split: DealRange = EVAL) -> NativeBatch:
    """A native batch that plays as the Python evaluation env does: the variant's rules, no shaped
    reward, the registered step limit, autoreset disabled, deals of ``split``."""
    return variant.make_batch(num_envs, autoreset=AutoresetMode.DISABLED, split=split)


def evaluate_on_batch(policy: MaskableActorCriticPolicy, variant: GameSpec, encoding: Encoding,
                      deals: Sequence[int], deterministic: bool = True, split: DealRange = EVAL,
                      batch: NativeBatch | None = None, critic_only: int = 0) -> EvalResult:
    """Play each of ``deals`` (``{game}-random-v1-N``, numbers of ``split``) once with ``policy``, all
    at once on one native batch (``batch``: one made by :func:`evaluation_batch` to reuse, with one
    game per deal). ``deterministic``: the most probable legal action, else a sampled one.
    ``critic_only``: the length of a privileged critic's part of the input, which the actor never
    reads (:mod:`solitaire_rl.agents.privileged_policy`); it is given as zeros."""
    numbers = [int(d) for d in deals]
    if not numbers:
        raise MalformedInputError("evaluation needs at least one deal")
    batch = evaluation_batch(variant, len(numbers), split) if batch is None else batch
    n = len(numbers)
    if batch.num_envs != n:
        raise MalformedInputError(f"the batch holds {batch.num_envs} games, not one per deal ({n})")
    batch.reset(list(range(n)), None, [variant.deal_id(d) for d in numbers])
    win = batch.win_code
    returns = np.zeros(n, np.float64)
    lengths = np.zeros(n, np.int64)
    wins = np.zeros(n, np.bool_)
    done = np.zeros(n, np.bool_)
    actions = np.zeros(n, np.int64)
    was_training = policy.training
    policy.set_training_mode(False)
    try:
        while not done.all():
            active = np.flatnonzero(~done)
            obs, mask = batch.obs[active], batch.mask[active]
            inputs = obs if encoding.transform is None else encoding.encode_batch(obs, mask)
            if critic_only:
                inputs = np.concatenate([inputs, np.zeros((len(active), critic_only), np.float32)], axis=1)
            with torch.no_grad():
                tensor, _ = policy.obs_to_tensor(inputs)
                distribution = policy.get_distribution(tensor, action_masks=mask.astype(np.bool_))
                actions[active] = distribution.get_actions(deterministic=deterministic).cpu().numpy()
            batch.step(actions)  # the games that ended refuse theirs and stay as they are
            returns[active] += batch.reward[active]
            lengths[active] += 1
            ended = (batch.terminated | batch.truncated) & ~done
            wins[ended] = batch.outcome[ended] == win
            done |= ended
    finally:
        policy.set_training_mode(was_training)
    return EvalResult(tuple(numbers), returns, lengths, wins)


class NativeEvalCallback(BaseCallback):
    """Evaluates every ``eval_freq`` calls (and before the first update) on a native batch of
    ``deals`` (:func:`evaluate_on_batch`), as the trainer's ``MaskableEvalCallback`` did on one
    Python env: same log keys, ``evaluations.npz`` under ``log_path``, :attr:`last_mean_reward`
    and :attr:`best_mean_reward`, and ``callback_on_new_best`` called on a new best."""

    def __init__(self, variant: GameSpec, encoding: Encoding, deals: Sequence[int], eval_freq: int,
                 deterministic: bool = True, log_path: str | Path | None = None,
                 callback_on_new_best: BaseCallback | None = None, verbose: int = 0,
                 critic_only: int = 0) -> None:
        super().__init__(verbose)
        self.critic_only = critic_only
        """The length of a privileged critic's part of the input (zeros: the actor never reads it)."""
        self.variant, self.encoding, self.deals = variant, encoding, [int(d) for d in deals]
        self.eval_freq = eval_freq
        self.deterministic = deterministic
        self.log_path = None if log_path is None else Path(log_path) / "evaluations"
        self.callback_on_new_best = callback_on_new_best
        if callback_on_new_best is not None:
            callback_on_new_best.parent = self
        self.batch = evaluation_batch(variant, len(self.deals))
        self.last_mean_reward = -np.inf
        self.best_mean_reward = -np.inf
        self.evaluations_timesteps: list[int] = []
        self.evaluations_results: list[list[float]] = []
        self.evaluations_length: list[list[int]] = []
        self.evaluations_successes: list[list[bool]] = []

    def _init_callback(self) -> None:
        if self.log_path is not None:
            self.log_path.parent.mkdir(parents=True, exist_ok=True)
        if self.callback_on_new_best is not None:
            self.callback_on_new_best.init_callback(self.model)

    def _on_training_start(self) -> None:
        if self.eval_freq > 0 and self.model.num_timesteps == 0:
            self.evaluate()  # a warm-started network is itself a candidate for best.zip

    def _on_step(self) -> bool:
        if self.eval_freq > 0 and self.n_calls % self.eval_freq == 0:
            return self.evaluate()
        return True

    def evaluate(self) -> bool:
        """One evaluation, logged; ``False`` if the new-best callback asks to stop."""
        policy = self.model.policy
        assert isinstance(policy, MaskableActorCriticPolicy)
        result = evaluate_on_batch(policy, self.variant, self.encoding, self.deals, self.deterministic,
                                   batch=self.batch, critic_only=self.critic_only)
        self.evaluations_timesteps.append(self.num_timesteps)
        self.evaluations_results.append(result.returns.tolist())
        self.evaluations_length.append(result.lengths.tolist())
        self.evaluations_successes.append(result.wins.tolist())
        if self.log_path is not None:
            np.savez(self.log_path, timesteps=self.evaluations_timesteps, results=self.evaluations_results,
                     ep_lengths=self.evaluations_length, successes=self.evaluations_successes)
        self.last_mean_reward = result.mean_return
        self.logger.record("eval/mean_reward", result.mean_return)
        self.logger.record("eval/mean_ep_length", float(result.lengths.mean()))
        self.logger.record("eval/success_rate", result.win_rate)
        self.logger.record("time/total_timesteps", self.num_timesteps, exclude="tensorboard")
        self.logger.dump(self.num_timesteps)
        if self.verbose > 0:
            print(f"Eval num_timesteps={self.num_timesteps}, win rate {result.win_rate:.1%}")
        if result.mean_return > self.best_mean_reward:
            self.best_mean_reward = result.mean_return
            if self.callback_on_new_best is not None:
                return self.callback_on_new_best.on_step()
        return True


__all__ = ["EvalResult", "NativeEvalCallback", "evaluate_on_batch", "evaluation_batch"]
