"""Train sb3-contrib MaskablePPO on Pyramid (000 or 001) or Klondike draw 3.

    python -m solitaire_rl.training.train pyramid --total-timesteps 3000000
    python -m solitaire_rl.training.train pyramid-001 --config solitaire_rl/training/configs/pyramid-001.toml
    python -m solitaire_rl.training.train klondike --resume runs/<run>/checkpoints/klondike-draw3_500000.zip

Settings: :class:`solitaire_rl.training.config.Args` (``--help`` lists them with their defaults). Each run
gets a
folder ``runs/{variant}__{exp_name}__{seed}__{time}/`` holding ``args.json``, TensorBoard logs
(metrics under ``charts/``, ``losses/``, ``eval/``; hyperparameters once as text), ``progress.csv``,
``checkpoints/`` (every ``checkpoint_freq`` steps), ``best.zip`` (best held-out win rate) and
``final.zip``. Every checkpoint carries the metadata :mod:`solitaire_rl.agents.ppo` checks when loading.

Training envs deal only numbers of the ``train`` split and evaluation plays the first
``eval_deals`` numbers of the ``eval`` split (:mod:`solitaire_rl.training.splits`): never a benchmark deal.
Evaluation plays all its deals at once on one native batch (:mod:`solitaire_rl.training.evaluation`;
``--eval-env python``: one Python env, one deal after another, as before), and the policy masks
illegal actions with one ``masked_fill`` (:mod:`solitaire_rl.training.masking`; ``--masking sb3``:
sb3-contrib's own distribution, the same numbers, slower).
``--privileged-critic``: the value network also reads the hidden cards, the policy only the
observation (:mod:`solitaire_rl.training.privileged_model`, docs/privileged-critic.md);
``--init-from CHECKPOINT`` starts from a plain checkpoint's weights instead of a warm start.
The same seed reproduces a run (same deals, same network, same updates) on the same machine;
a resumed run continues the step count and learning-rate schedule, reseeded with ``seed + steps
done`` so that it draws fresh deals.
"""

from __future__ import annotations

import json
import math
import platform
import random
import sys
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import sb3_contrib
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.callbacks import MaskableEvalCallback
from stable_baselines3.common.callbacks import BaseCallback, CallbackList
from stable_baselines3.common.logger import (
    CSVOutputFormat,
    HumanOutputFormat,
    KVWriter,
    Logger,
    TensorBoardOutputFormat,
)
from stable_baselines3.common.utils import LinearSchedule
from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv

from solitaire_rl.agents.encodings import Encoding, find_encoding
from solitaire_rl.agents.greedy import GreedyPlayer
from solitaire_rl.agents.ppo import (
    PRIVILEGED_KEY,
    build_metadata,
    check_metadata,
    read_metadata,
    save_checkpoint,
)
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.training.config import Args, parse_args
from solitaire_rl.training.evaluation import NativeEvalCallback
from solitaire_rl.training.imitation import (
    Actor,
    Demonstrations,
    HindsightTeacher,
    collect_demonstrations,
    collect_hindsight,
    fit_to_demonstrations,
    make_teacher,
    policy_actor,
)
from solitaire_rl.training.masking import use_masked_fill
from solitaire_rl.training.native_vec_env import NativeVecEnv
from solitaire_rl.training.privileged_model import (
    check_critic,
    hand_over,
    policy_class_and_kwargs,
    privileged_env,
    run_view,
    start_from_checkpoint,
    train_env_of,
)
from solitaire_rl.training.ship import ship
from solitaire_rl.training.splits import EVAL, TRAIN
from solitaire_rl.training.vec_env import make_env_fn, make_vec_env
from solitaire_rl.training.world_score_fit import WorldScoreFit, load_world_scores

KEY_NAMES = {
    "rollout/ep_rew_mean": "charts/episodic_return",
    "rollout/ep_len_mean": "charts/episodic_length",
    "rollout/success_rate": "charts/win_rate",
    "time/fps": "charts/SPS",
    "eval/mean_reward": "eval/win_rate",
}
"""stable-baselines3's metric names -> this project's (CleanRL's prefixes); others by prefix below.
Evaluation plays without shaped reward, so its mean return is its win rate."""
PREFIXES = {"rollout/": "charts/", "time/": "charts/", "train/": "losses/", "eval/": "eval/"}


def metric_name(key: str) -> str:
    """The logged name of a stable-baselines3 metric (``train/value_loss`` -> ``losses/value_loss``)."""
    if key in KEY_NAMES:
        return KEY_NAMES[key]
    for old, new in PREFIXES.items():
        if key.startswith(old):
            return new + key[len(old):]
    return key


class RenamedKeys(KVWriter):
    """Writes through another output format with metric names mapped by :func:`metric_name`."""

    def __init__(self, inner: KVWriter) -> None:
        self.inner = inner

    def write(self, key_values: dict[str, Any], key_excluded: dict[str, Any], step: int = 0) -> None:
        self.inner.write({metric_name(k): v for k, v in key_values.items()},
                         {metric_name(k): v for k, v in key_excluded.items()}, step)

    def close(self) -> None:
        self.inner.close()


class SaveCheckpoint(BaseCallback):
    """Saves the model with its metadata: every ``every`` steps into a folder, or once to a file."""

    def __init__(self, metadata: dict[str, Any], path: Path, every: int = 0, prefix: str = "",
                 evaluation: MaskableEvalCallback | NativeEvalCallback | None = None) -> None:
        super().__init__()
        self.metadata, self.path, self.every, self.prefix = metadata, path, every, prefix
        self.evaluation = evaluation
        self._next = every

    def save(self, path: Path, optimizer_state: bool = True) -> Path:
        training = {**self.metadata["training"], "timesteps": int(self.model.num_timesteps)}
        evaluation = self.evaluation or self.parent
        if isinstance(evaluation, Evaluations) and np.isfinite(evaluation.last_mean_reward):
            training["eval_win_rate"] = float(evaluation.last_mean_reward)  # the warm start's too
        model = self.model
        assert isinstance(model, MaskablePPO), "the callbacks run inside MaskablePPO.learn"
        return save_checkpoint(model, path, {**self.metadata, "training": training}, optimizer_state)

    def _init_callback(self) -> None:
        if self.every:
            self._next = (self.model.num_timesteps // self.every + 1) * self.every

    def _on_step(self) -> bool:
        if not self.every:  # called by the eval callback on a new best
            self.save(self.path)
        elif self.num_timesteps >= self._next:
            self.save(self.path / f"{self.prefix}_{self.num_timesteps}.zip")
            self._next += self.every
        return True


Evaluations = (MaskableEvalCallback, NativeEvalCallback)
"""The trainer's evaluation callbacks (``eval_env`` python or native): both keep ``last_mean_reward``."""


class EvalFromTheStart(MaskableEvalCallback):
    """:class:`MaskableEvalCallback` that also evaluates before the first update, so that a
    warm-started network is itself a candidate for ``best.zip``."""

    def _on_training_start(self) -> None:
        super()._on_training_start()
        if self.eval_freq > 0 and self.model.num_timesteps == 0:
            self._on_step()  # n_calls is 0 here: the evaluation runs


class WallClockLimit(BaseCallback):
    """Stops learning once ``minutes`` of wall time have passed since learning began."""

    def __init__(self, minutes: float) -> None:
        super().__init__()
        self.seconds = 60.0 * minutes
        self.start = time.perf_counter()
        self.stopped = False

    def _on_training_start(self) -> None:
        self.start = time.perf_counter()

    def _on_step(self) -> bool:
        self.stopped = time.perf_counter() - self.start >= self.seconds
        return not self.stopped


@dataclass
class RunResult:
    """What a finished run left behind."""

    run_dir: Path
    final_checkpoint: Path
    timesteps: int
    steps_per_second: float
    """Environment steps per second of wall time over ``learn`` (updates included)."""
    steps_per_cpu_second: float
    """Environment steps per CPU-second of this (the learner's) process over ``learn``: with
    ``vec_env="dummy"`` (envs in this process) the rate one idle core would give."""
    eval_win_rate: float | None


def hyperparameter_table(args: Args) -> str:
    """CleanRL's markdown table of every setting."""
    rows = "\n".join(f"|{key}|{value}|" for key, value in args.to_dict().items())
    return f"|param|value|\n|-|-|\n{rows}"


def build_logger(run_dir: Path, args: Args) -> Logger:
    formats: list[KVWriter] = [RenamedKeys(CSVOutputFormat(str(run_dir / "progress.csv")))]
    if args.tensorboard:
        board = TensorBoardOutputFormat(str(run_dir))
        board.writer.add_text("hyperparameters", hyperparameter_table(args))
        formats.append(RenamedKeys(board))
    if args.verbose:
        formats.append(RenamedKeys(HumanOutputFormat(sys.stdout)))
    return Logger(str(run_dir), formats)


def seed_everything(seed: int, torch_threads: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(torch_threads)
    # torch.distributions re-checks every masked Categorical's probabilities (~0.5 ms each, twice per
    # step): the masks come from the environment and the logits from the network, so skip it.
    torch.distributions.Distribution.set_default_validate_args(False)


def learning_settings(args: Args) -> dict[str, Any]:
    """The PPO settings of ``args`` that a new model takes and a resumed one has replaced."""
    lr = LinearSchedule(args.learning_rate, 0.0, 1.0) if args.anneal_lr else args.learning_rate
    return {"learning_rate": lr, "n_steps": args.n_steps, "batch_size": args.batch_size,
            "n_epochs": args.n_epochs, "gamma": args.gamma, "gae_lambda": args.gae_lambda,
            "clip_range": args.clip_range, "ent_coef": args.ent_coef, "vf_coef": args.vf_coef,
            "max_grad_norm": args.max_grad_norm}


def new_model(args: Args, env: VecEnv, encoding: Encoding, privileged: bool | None = None) -> MaskablePPO:
    """A fresh model on ``env``: with a privileged critic if ``privileged`` (default: as ``args`` says)."""
    privileged = args.privileged_critic if privileged is None else privileged
    activation = {"relu": torch.nn.ReLU, "tanh": torch.nn.Tanh}[args.activation]
    policy_class, layout = policy_class_and_kwargs(encoding, run_view(privileged, encoding.game),
                                                   world_score_head=args.world_labels is not None)
    policy_kwargs = {"net_arch": list(args.net_arch), "activation_fn": activation, **layout}
    model = MaskablePPO(
        policy_class, env, **learning_settings(args), policy_kwargs=policy_kwargs, seed=args.seed,
        device=args.device, verbose=args.verbose,
    )
    return use_masked_fill(model) if args.masking == "masked_fill" else model


def check_resume(args: Args) -> None:
    """Refuse a checkpoint to resume from that does not fit ``args``, before anything is made."""
    assert args.resume is not None
    metadata = read_metadata(args.resume)
    source = f"checkpoint {args.resume}"
    check_critic(metadata, args.privileged_critic, args.variant_spec().game, source)
    encoding = check_metadata(metadata, args.variant_spec(), source=source, privileged=args.privileged_critic)
    if encoding.name != args.encoding_name():
        raise MalformedInputError(
            f"checkpoint {args.resume} uses encoding {encoding.name}, not {args.encoding_name()}"
        )


def resumed_model(args: Args, env: VecEnv) -> MaskablePPO:
    """The checkpoint's model on ``env``, reseeded with ``seed + steps done`` (fresh deals).

    It learns with this run's settings (learning rate, entropy coefficient, ...), not the ones it
    was saved with; the network (``net_arch``, the encoding) is the checkpoint's."""
    if args.resume is None:
        raise MalformedInputError("resumed_model needs --resume CHECKPOINT")
    # The policy class by its current import path (checkpoints saved before the package was named
    # solitaire_rl pickled it under its old module name).
    encoding = find_encoding(args.encoding_name(), args.variant_spec().game)
    policy_class, _ = policy_class_and_kwargs(encoding, run_view(args.privileged_critic, encoding.game))
    custom = learning_settings(args)
    if not isinstance(policy_class, str):
        custom["policy_class"] = policy_class
    model = MaskablePPO.load(args.resume, env=env, device=args.device, custom_objects=custom)
    model.set_random_seed(args.seed + model.num_timesteps)
    return model


def warm_start(model: MaskablePPO, args: Args, variant: Any, encoding: Any, run_dir: Path) -> None:
    """Fit ``model`` to the teacher's moves, then DAgger rounds (:mod:`solitaire_rl.training.imitation`);
    record how
    each went in ``imitation.json``. A privileged model's teacher data hold no hidden cards: a plain
    twin (the same seed, encoding and net_arch) is fitted and its weights handed over
    (:func:`solitaire_rl.agents.privileged_policy.transfer_plain_weights`)."""
    if args.privileged_critic:
        env = model.get_env()
        assert env is not None, "a new model has its training env"
        twin = new_model(args, train_env_of(env), encoding, privileged=False)
        warm_start_plain(twin, args, variant, encoding, run_dir)
        hand_over(twin, model)
        return
    warm_start_plain(model, args, variant, encoding, run_dir)


def warm_start_plain(model: MaskablePPO, args: Args, variant: Any, encoding: Any, run_dir: Path) -> None:
    """:func:`warm_start` of a plain model."""
    start = time.perf_counter()
    teacher = make_teacher(variant, args.imitation_teacher, args.seed, args.pimc_samples)

    def collect(episodes: int, seed: int, actor: Actor | None) -> Demonstrations:
        if isinstance(teacher, HindsightTeacher):  # its own moves would peek: greedy plays first
            return collect_hindsight(variant, encoding, episodes, seed, teacher,
                                     actor or GreedyPlayer(variant), args.hindsight_keep)
        return collect_demonstrations(variant, encoding, episodes, seed, args.gamma, args.reward_shaping,
                                      teacher, actor=actor)

    demos = collect(args.imitation_episodes, args.seed, None)
    stats = fit_to_demonstrations(model, demos, args.imitation_epochs, args.batch_size,
                                  args.imitation_learning_rate, args.seed)
    record: dict[str, Any] = {"teacher": args.imitation_teacher, "episodes": demos.episodes,
                              "steps": len(demos), "positions": demos.positions, "teacher_wins": demos.wins,
                              "seconds": round(time.perf_counter() - start, 1), **stats, "dagger": []}
    (run_dir / "imitation.json").write_text(json.dumps(record, indent=2) + "\n")
    for round_ in range(1, args.dagger_rounds + 1):
        seed = args.seed + 7919 * round_  # fresh training deals each round
        more = collect(args.dagger_episodes, seed, policy_actor(model))
        demos = demos + more
        stats = fit_to_demonstrations(model, demos, args.imitation_epochs, args.batch_size,
                                      args.imitation_learning_rate, args.seed + round_)
        record["dagger"].append({"round": round_, "episodes": more.episodes, "network_wins": more.wins,
                                 "pooled_steps": len(demos),
                                 "seconds": round(time.perf_counter() - start, 1), **stats})
        (run_dir / "imitation.json").write_text(json.dumps(record, indent=2) + "\n")


def main(args: Args) -> RunResult:
    """Train as ``args`` says; return where the results are."""
    args.validate()
    variant = args.variant_spec()
    encoding = find_encoding(args.encoding_name(), variant.game)
    if args.resume is not None:
        check_resume(args)
    seed_everything(args.seed, args.torch_threads)
    run_name = args.run_name()
    run_dir = args.runs_dir / run_name
    (run_dir / "checkpoints").mkdir(parents=True, exist_ok=True)
    (run_dir / "args.json").write_text(json.dumps(args.to_dict(), indent=2) + "\n")

    vec_env = args.vec_env_kind()
    if vec_env == "native":  # the same deals, observations and episode ends, stepped natively
        native = NativeVecEnv(variant, args.n_envs, encoding=encoding, reward_shaping=args.reward_shaping,
                              split=TRAIN)
        train_env: VecEnv = privileged_env(native) if args.privileged_critic else native
    else:
        train_env = make_vec_env(
            [make_env_fn(variant, encoding, TRAIN, args.reward_shaping) for _ in range(args.n_envs)], vec_env,
        )
    eval_env = None
    if args.eval_env == "python" and args.eval_freq:
        eval_env = DummyVecEnv([make_env_fn(variant, encoding, EVAL, False, EVAL.numbers(args.eval_deals))])
    try:
        model = resumed_model(args, train_env) if args.resume else new_model(args, train_env, encoding)
        model.set_logger(build_logger(run_dir, args))
        if args.init_from is not None:
            start_from_checkpoint(model, args.init_from, variant, encoding)
        elif args.imitation_episodes and not args.resume:
            warm_start(model, args, variant, encoding, run_dir)
        view = run_view(args.privileged_critic, variant.game)
        metadata = build_metadata(variant, encoding, train_env_of(train_env).observation_space, {
            "run_name": run_name, "seed": args.seed, "args": args.to_dict(),
            "versions": {"python": platform.python_version(), "torch": torch.__version__,
                         "sb3_contrib": sb3_contrib.__version__},
        })
        if view is not None:
            metadata[PRIVILEGED_KEY] = view.record()
        if args.world_labels is not None:
            assert view is not None, "validate() asks for a privileged critic"
            labels = load_world_scores(args.world_labels, variant, encoding, view)
            metadata["world_labels"] = {"folder": str(args.world_labels), "rows": len(labels),
                                        "cpu_hours": labels.cpu_hours}
        callbacks: list[BaseCallback] = []
        if args.checkpoint_freq:
            callbacks.append(
                SaveCheckpoint(metadata, run_dir / "checkpoints", args.checkpoint_freq, variant.key)
            )
        evaluation: EvalFromTheStart | NativeEvalCallback | None = None
        eval_freq = max(1, math.ceil(args.eval_freq / args.n_envs))
        if eval_env is not None:
            evaluation = EvalFromTheStart(
                eval_env, n_eval_episodes=args.eval_deals, eval_freq=eval_freq,
                deterministic=not args.eval_sample, warn=False, log_path=str(run_dir / "eval"),
                verbose=args.verbose,
                callback_on_new_best=SaveCheckpoint(metadata, run_dir / "best.zip"),
            )
        elif args.eval_freq:
            evaluation = NativeEvalCallback(
                variant, encoding, EVAL.numbers(args.eval_deals), eval_freq,
                deterministic=not args.eval_sample, log_path=run_dir / "eval", verbose=args.verbose,
                callback_on_new_best=SaveCheckpoint(metadata, run_dir / "best.zip"),
                critic_only=0 if view is None else view.size,
            )
        if evaluation is not None:
            callbacks.append(evaluation)
        if args.time_limit_minutes is not None:
            callbacks.append(WallClockLimit(args.time_limit_minutes))
        if args.world_labels is not None:
            callbacks.append(WorldScoreFit(labels, args.world_label_coef, args.world_label_steps,
                                           args.world_label_batch, args.seed))
        remaining = args.total_timesteps - model.num_timesteps
        start_steps, start, cpu_start = model.num_timesteps, time.perf_counter(), time.process_time()
        if remaining > 0:
            warnings.filterwarnings("ignore", "Training and eval env are not of the same type")
            model.learn(remaining, callback=CallbackList(callbacks), progress_bar=args.progress_bar,
                        reset_num_timesteps=False, tb_log_name=run_name)
        seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu_start
        final = SaveCheckpoint(metadata, run_dir / "final.zip", evaluation=evaluation)
        final.init_callback(model)
        final_path = final.save(run_dir / "final.zip")
        model.logger.close()
    finally:
        train_env.close()
        if eval_env is not None:
            eval_env.close()
    if args.save_to is not None:  # the better of best.zip and final.zip, without Adam's moments
        ship(run_dir, args.save_to)
    steps = model.num_timesteps - start_steps
    win_rate = None
    if evaluation is not None and np.isfinite(evaluation.last_mean_reward):
        win_rate = float(evaluation.last_mean_reward)
    rate, cpu_rate = (steps / s if s > 0 else 0.0 for s in (seconds, cpu_seconds))
    return RunResult(run_dir, final_path, model.num_timesteps, rate, cpu_rate, win_rate)


def cli(argv: Sequence[str] | None = None) -> RunResult:
    try:
        result = main(parse_args(argv))
    except MalformedInputError as exc:
        raise SystemExit(f"error: {exc}") from None
    rate = "n/a" if result.eval_win_rate is None else f"{result.eval_win_rate:.1%}"
    print(f"run: {result.run_dir}\nfinal checkpoint: {result.final_checkpoint}\n"
          f"timesteps: {result.timesteps:,}  throughput: {result.steps_per_second:,.0f} env steps/s  "
          f"last held-out win rate: {rate}")
    return result


if __name__ == "__main__":
    cli()
