"""The training run's settings: a typed ``Args`` dataclass, read from flags and an optional TOML file.

``python -m solitaire_rl.training.train GAME [--config FILE.toml] [--flag value ...]``: the config file's keys
are
``Args`` field names (``solitaire_rl/training/configs/`` holds one per variant); flags given on the command
line
override it; anything left out takes the default documented on the field below.
"""

from __future__ import annotations

import sys
import time
import tomllib
import warnings
from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Annotated, Any, Literal

import tyro

from solitaire_rl.agents.encodings import DEFAULT_ENCODING
from solitaire_rl.agents.registry import agent_spec, games_words
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.spec import GameSpec, find_game

TEACHER_AGENTS = {"greedy": "greedy", "pimc": "pimc", "hindsight": "pimc"}
"""The registry agent whose games each teacher plays (``hindsight`` labels moves with ``pimc``'s solves)."""


def check_teacher(name: str, variant: GameSpec) -> None:
    """Refuse teacher ``name`` for a game it cannot teach (``MalformedInputError``)."""
    if name not in TEACHER_AGENTS:
        raise MalformedInputError(f"unknown teacher {name!r}: choose one of {', '.join(TEACHER_AGENTS)}")
    games = agent_spec(TEACHER_AGENTS[name]).games
    if variant.game not in games:
        raise MalformedInputError(f"the {name} teacher is for {games_words(games)} only, not {variant.game}")



@dataclass
class Args:
    """Train sb3-contrib MaskablePPO on a solitaire variant. Settings may also come from
    --config FILE.toml (keys: the option names below with underscores); flags override it."""

    game: Annotated[str, tyro.conf.Positional, tyro.conf.arg(metavar="GAME")]
    """Game or variant: pyramid (= pyramid-000), pyramid-001, klondike (= klondike-draw3)."""
    variant: str | None = None
    """Variant of GAME, if not in its name: 000 or 001 for pyramid, draw3 for klondike."""
    exp_name: str = "ppo"
    """Experiment name, the second part of the run name {variant}__{exp_name}__{seed}__{time}."""
    seed: int = 1
    """Seed of everything: the network, the sampling, and the deals (env i's stream: the i-th child of
    numpy.random.SeedSequence(seed).spawn(n_envs), so two seeds share no deal stream)."""
    total_timesteps: int = 2_000_000
    """Environment steps to train for in all (a resumed run counts the steps already done)."""
    time_limit_minutes: float | None = None
    """Stop learning after this many minutes of wall time (the final checkpoint is still saved)."""
    n_envs: int = 16
    """Parallel environments (each SubprocVecEnv worker process hosts one)."""
    vec_env: Literal["auto", "subproc", "dummy", "native"] = "auto"
    """subproc: one process per env, across the cores; dummy: all envs in this process; native: all
    envs in one native batch (solitaire_rl/training/native_vec_env.py; both games with any encoding, encoded
    in
    native code a batch at a time; it trains the same network as the others); auto: native where it
    can, else subproc."""
    torch_threads: int = 1
    """torch threads in the learner process (1 leaves the other cores to the env workers)."""
    learning_rate: float = 3e-4
    """Adam step size, decayed linearly to 0 over the run when anneal_lr is set."""
    anneal_lr: bool = True
    """Decay the learning rate linearly to 0 over total_timesteps."""
    n_steps: int = 128
    """Steps collected per env between updates (rollout size = n_steps * n_envs)."""
    batch_size: int = 1024
    """Minibatch size of the PPO update."""
    n_epochs: int = 4
    """Passes over each rollout per update."""
    gamma: float = 0.995
    """Discount factor."""
    gae_lambda: float = 0.95
    """GAE lambda."""
    clip_range: float = 0.2
    """PPO clipping of the probability ratio."""
    ent_coef: float = 0.01
    """Entropy bonus coefficient."""
    vf_coef: float = 0.5
    """Value loss coefficient."""
    max_grad_norm: float = 0.5
    """Gradient clipping norm."""
    net_arch: tuple[int, ...] = (128, 128)
    """Hidden layer sizes, shared by the policy and value networks' separate MLPs."""
    activation: Literal["relu", "tanh"] = "relu"
    """Activation of the hidden layers."""
    reward_shaping: bool = True
    """Train with the env's shaped reward (per card cleared); evaluation always uses the plain win reward."""
    encoding: str | None = None
    """Observation encoding (solitaire_rl.agents.encodings); None: the game's default."""
    imitation_episodes: int = 0
    """Warm start (solitaire_rl.training.imitation): first fit the network to the teacher's moves on this
    many training deals (0: start from random weights)."""
    privileged_critic: bool = False
    """Train with a privileged critic (solitaire_rl.agents.privileged_policy): the value network also
    reads the hidden cards (solitaire_rl.training.privileged), the policy only the observation; needs
    an action-scoring encoding (klondike-actions, pyramid-actions, pyramid-actions-relaxed) and the
    native batch. Its checkpoints play as the ppo-privileged agent, never as ppo."""
    init_from: Path | None = None
    """Start from the weights of a plain ppo checkpoint of this game, encoding and net_arch (e.g. the
    shipped one) instead of a warm start (imitation_episodes is then not played); with
    privileged_critic, the critic's privileged inputs start at zero weight, so the network starts
    with the checkpoint's moves and values."""
    world_labels: Path | None = None
    """With privileged_critic (Klondike): a folder of world-label shards (python -m
    solitaire_rl.training.world_labels); after each rollout the critic also fits each labelled
    position's world score with a head of its own (solitaire_rl.training.world_score_fit)."""
    world_label_coef: float = 0.5
    """Weight of the world-score loss."""
    world_label_steps: int = 4
    """Minibatches of labelled positions fitted after each rollout."""
    world_label_batch: int = 256
    """Labelled positions a minibatch."""
    imitation_teacher: Literal["greedy", "pimc", "hindsight"] = "greedy"
    """Who shows the moves: the greedy heuristic, the pimc player (Pyramid only: samples of the
    unseen stock, each solved exactly; slower, stronger), or hindsight labels (Pyramid only: every
    legal move marked by whether the true deal stays winnable after it; the network learns which
    moves win given what it sees)."""
    pimc_samples: int = 8
    """Sampled stocks per move of the pimc teacher."""
    hindsight_keep: float = 1.0
    """With the hindsight teacher: the share of positions where every move is marked alike (most of
    them) that is kept, each weighted 1/hindsight_keep in the fit."""
    dagger_rounds: int = 0
    """After the first fit, rounds in which the network plays dagger_episodes training deals while
    the teacher names its move at every position; the data are pooled and the network refitted."""
    dagger_episodes: int = 500
    """Deals the network plays in each DAgger round."""
    imitation_epochs: int = 8
    """Passes over the demonstrations in each fit of the warm start."""
    imitation_learning_rate: float = 1e-3
    """Adam step size of the warm start."""
    eval_freq: int = 50_000
    """Evaluate every this many environment steps (0: never)."""
    eval_deals: int = 200
    """Held-out deals per evaluation: the first ones of the eval split, each played once."""
    eval_env: Literal["native", "python"] = "native"
    """native: every evaluation deal at once on one native batch (solitaire_rl/training/evaluation.py);
    python: one Python env, one deal after another (the earlier evaluation; the same results for the
    most probable action, slower)."""
    masking: Literal["masked_fill", "sb3"] = "masked_fill"
    """How the policy masks illegal actions: masked_fill (one distribution a forward,
    solitaire_rl/training/masking.py) or sb3 (sb3-contrib's own, built three times a forward); the
    same numbers, bit for bit."""
    eval_sample: bool = False
    """Evaluate by sampling each action from the policy (default: its most probable action). For
    Klondike, whose most probable action can move a card back and forth until the step limit."""
    checkpoint_freq: int = 250_000
    """Save a checkpoint every this many environment steps (0: only at the end)."""
    runs_dir: Path = Path("runs")
    """Folder of the runs: TensorBoard logs, checkpoints and the config of each."""
    resume: Path | None = None
    """Checkpoint to continue from (its metadata must match GAME and the encoding); it goes on
    learning with this run's PPO settings (learning rate, entropy coefficient, ...)."""
    save_to: Path | None = None
    """Also save the policy to ship here, without optimizer state (e.g.
    solitaire_rl/agents/checkpoints/pyramid-000.zip):
    best.zip or final.zip, whichever had the better held-out win rate (solitaire_rl.training.ship)."""
    progress_bar: bool = True
    """Show a progress bar (tqdm/rich)."""
    tensorboard: bool = True
    """Write TensorBoard logs under the run's folder."""
    verbose: int = 0
    """stable-baselines3 verbosity: 0 quiet, 1 prints the logged metrics."""
    device: str = "cpu"
    """torch device."""

    # ---------------------------------------------------------------- derived
    def variant_spec(self) -> GameSpec:
        return find_game(self.game, self.variant)

    def native_env_fits(self) -> bool:
        """Whether the native batch can stand in for the Python training envs (same data)."""
        from solitaire_rl.training.native_vec_env import NATIVE_GAMES

        return self.variant_spec().game in NATIVE_GAMES

    def vec_env_kind(self) -> str:
        """``vec_env`` with ``auto`` resolved: ``native`` where :meth:`native_env_fits`, else ``subproc``."""
        if self.vec_env != "auto":
            return self.vec_env
        return "native" if self.native_env_fits() else "subproc"

    def encoding_name(self) -> str:
        return self.encoding or DEFAULT_ENCODING[self.variant_spec().game]

    def run_name(self, now: float | None = None) -> str:
        """``{variant}__{exp_name}__{seed}__{unix time}``."""
        return f"{self.variant_spec().key}__{self.exp_name}__{self.seed}__{int(now or time.time())}"

    def validate(self) -> None:
        """Raise :class:`MalformedInputError` for settings that cannot work together."""
        self.variant_spec()
        if self.n_envs < 1 or self.n_steps < 1 or self.batch_size < 2:
            raise MalformedInputError("n_envs and n_steps must be positive and batch_size at least 2")
        if self.batch_size > self.n_steps * self.n_envs:
            raise MalformedInputError(
                f"batch_size {self.batch_size} exceeds the rollout size n_steps * n_envs = "
                f"{self.n_steps * self.n_envs}"
            )
        if self.total_timesteps < 1 or self.eval_freq < 0 or self.checkpoint_freq < 0 or self.eval_deals < 1:
            raise MalformedInputError("total_timesteps and eval_deals must be positive, frequencies >= 0")
        if self.imitation_episodes < 0 or self.imitation_epochs < 1 or self.imitation_learning_rate <= 0:
            raise MalformedInputError("imitation_episodes must be >= 0; imitation epochs and rate positive")
        if not 0 < self.hindsight_keep <= 1:
            raise MalformedInputError("hindsight_keep is a share of positions: 0 < hindsight_keep <= 1")
        if self.dagger_rounds < 0 or self.dagger_episodes < 1 or self.pimc_samples < 1:
            raise MalformedInputError("dagger_rounds must be >= 0, dagger_episodes and pimc_samples positive")
        if self.dagger_rounds and not self.imitation_episodes:
            raise MalformedInputError("dagger_rounds need a first fit: set imitation_episodes")
        check_teacher(self.imitation_teacher, self.variant_spec())
        if self.vec_env == "native" and not self.native_env_fits():
            from solitaire_rl.training.native_vec_env import NATIVE_GAMES

            raise MalformedInputError(
                f"vec_env native steps {' and '.join(sorted(NATIVE_GAMES))} only, not "
                f"{self.variant_spec().key}: use dummy or subproc")
        if self.time_limit_minutes is not None and self.time_limit_minutes <= 0:
            raise MalformedInputError("time_limit_minutes must be positive")
        self._validate_privileged()

    def _validate_privileged(self) -> None:
        """Refuse --privileged-critic and --init-from settings that cannot work."""
        if self.init_from is not None and self.resume is not None:
            raise MalformedInputError("init_from starts a new run from a checkpoint's weights: give it or "
                                      "resume, not both")
        if self.world_label_coef <= 0 or self.world_label_steps < 1 or self.world_label_batch < 1:
            raise MalformedInputError(
                "world_label_coef, world_label_steps and world_label_batch must be positive")
        if not self.privileged_critic:
            if self.world_labels is not None:
                raise MalformedInputError(
                    "world_labels trains a privileged critic's head: add privileged_critic")
            return
        from solitaire_rl.agents.encodings import find_encoding

        encoding = find_encoding(self.encoding_name(), self.variant_spec().game)
        if not encoding.policy.endswith(":ActionScoringPolicy"):
            raise MalformedInputError(
                f"privileged_critic needs an action-scoring encoding (klondike-actions, pyramid-actions, "
                f"pyramid-actions-relaxed), not {encoding.name}")
        if self.vec_env_kind() != "native":
            raise MalformedInputError(f"privileged_critic reads the native games' states: use vec_env "
                                      f"native or auto, not {self.vec_env}")
        if self.eval_env != "native":
            raise MalformedInputError("privileged_critic evaluates on the native batch: use eval_env native")

    def to_dict(self) -> dict[str, Any]:
        """Plain values (paths as text, tuples as lists): what a run records."""
        out: dict[str, Any] = {}
        for key, value in asdict(self).items():
            if isinstance(value, Path):
                value = str(value)
            out[key] = list(value) if isinstance(value, tuple) else value
        return out


FIELD_NAMES = frozenset(f.name for f in fields(Args))
RENAMED = {"shaped_reward": "reward_shaping"}
"""Old setting names that still work, with a ``DeprecationWarning`` (the environments' keyword too)."""


def _renamed_setting(old: str, where: str) -> str:
    new = RENAMED[old]
    warnings.warn(f"{where}: {old} is deprecated, use {new}", DeprecationWarning, stacklevel=3)
    return new


def load_config(path: str | Path) -> dict[str, Any]:
    """The settings of a TOML config file, checked against :class:`Args`' fields."""
    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except OSError as exc:
        raise MalformedInputError(f"cannot read config file {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise MalformedInputError(f"config file {path} is not valid TOML: {exc}") from None
    for old in sorted(set(data) & set(RENAMED)):
        new = _renamed_setting(old, f"config file {path}")
        if new in data:
            raise MalformedInputError(f"config file {path} gives both {old} and {new}: keep {new}")
        data[new] = data.pop(old)
    unknown = sorted(set(data) - FIELD_NAMES)
    if unknown:
        raise MalformedInputError(f"config file {path}: unknown setting(s) {unknown}")
    for key in ("runs_dir", "resume", "save_to", "init_from", "world_labels"):
        if isinstance(data.get(key), str):
            data[key] = Path(data[key])
    if isinstance(data.get("net_arch"), list):
        data["net_arch"] = tuple(data["net_arch"])
    return data


def _split_config_flag(argv: Sequence[str]) -> tuple[str | None, list[str]]:
    """Take ``--config FILE`` (or ``--config=FILE``) out of ``argv``."""
    rest: list[str] = []
    config: str | None = None
    items = iter(argv)
    for item in items:
        if item == "--config":
            config = next(items, None)
            if config is None:
                raise MalformedInputError("--config needs a file name")
        elif item.startswith("--config="):
            config = item.split("=", 1)[1]
        else:
            rest.append(_new_flag(item))
    return config, rest


def _new_flag(item: str) -> str:
    """``item`` with a renamed option's old spelling (``--shaped-reward``, ``--no-shaped-reward``)
    replaced by the new one, with a ``DeprecationWarning``."""
    for old in RENAMED:
        for prefix in ("--", "--no-"):
            flag = prefix + old.replace("_", "-")
            if item == flag or item.startswith(flag + "="):
                return prefix + _renamed_setting(old, "command line").replace("_", "-") + item[len(flag):]
    return item


def parse_args(argv: Sequence[str] | None = None) -> Args:
    """Build :class:`Args` from ``argv`` (default: the command line), a config file, and defaults."""
    argv = list(sys.argv[1:] if argv is None else argv)
    config_path, rest = _split_config_flag(argv)
    if config_path is None:
        args = tyro.cli(Args, args=rest, prog="python -m solitaire_rl.training.train")
    else:
        settings = load_config(config_path)
        default = replace(Args(game=settings.pop("game", tyro.MISSING)), **settings)
        args = tyro.cli(Args, args=rest, default=default, prog="python -m solitaire_rl.training.train")
    args.validate()
    return args


__all__ = ["Args", "load_config", "parse_args"]
