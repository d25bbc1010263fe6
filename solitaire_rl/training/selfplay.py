"""Self-play data for expert iteration: a planner plays train deals and every decision is kept.

``python -m solitaire_rl.training.selfplay OUT --variant klondike-draw3 --teacher ismcts --deals 2000`` plays
train-split deals (from 1,000,000 on, or ``--first``) with the teacher and writes, for every
decision, what the player saw and what the search said:

* ``obs`` (the observation, nothing a player does not see) and ``mask`` (bit-packed);
* ``action``: the teacher's move; ``played``: the move played (the same, except in a DAgger round,
  ``--actor``, where another player moves while the teacher names its move at every position);
* the search's view of each legal move, ragged over the decisions (``offsets``): ``cand_action``,
  ``cand_won``, ``cand_lost``, ``cand_unknown``, ``cand_first`` (samples), ``cand_visits`` (tree
  search) and ``samples`` per decision (0: decided without a search: the only move, a safe move,
  the solver's line once every card is known);
* per game: ``deal``, ``won``, ``cards_up``, ``steps``, and ``game`` / ``step`` per decision.

Deals are played in chunks of ``--chunk`` consecutive numbers, one compressed ``.npz`` shard a
chunk, written whole (a temporary file renamed) so that a run stopped at any point resumes where
it was: shards already on disk are kept and skipped. ``run.json`` holds the run's settings (a
resumed run must match them) and each shard records the CPU seconds it took. ``--max-mb`` bounds
the disk the shards may take. Each deal is played with the teacher's generator seeded by
``[seed, deal]`` under a budget of states (never of time), so a deal's record is the same on every
machine and in any worker. ``--workers N`` plays N chunks at once; ``--ray ADDRESS`` plays them
as Ray tasks. Outputs stay out of git (``data/`` is ignored).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from solitaire_rl.agents.base import Player, legal_mask
from solitaire_rl.agents.registry import make_player
from solitaire_rl.agents.seeding import Reseedable, reseed
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.spec import GameSpec, find_game
from solitaire_rl.training.shards import shard_bytes, shard_name, train_chunks, write_atomically
from solitaire_rl.training.splits import TRAIN

TEACHERS = {"klondike": ("ismcts", "hop"), "pyramid": ("pimc",)}
"""The planners that can label decisions, per game (the first is the default)."""
FORMAT = 1
"""Version of the shard layout; a reader refuses another."""


@dataclass(frozen=True)
class RunConfig:
    """What a self-play run is: a resumed run must have the same."""

    variant: str
    teacher: str
    seed: int = 0
    chunk: int = 20
    teacher_options: dict[str, Any] = field(default_factory=dict)
    actor: str | None = None
    actor_options: dict[str, Any] = field(default_factory=dict)
    format: int = FORMAT


class GameLog:
    """The decisions of one game, as lists (turned into arrays per shard)."""

    def __init__(self) -> None:
        self.obs: list[np.ndarray] = []
        self.mask: list[np.ndarray] = []
        self.action: list[int] = []
        self.played: list[int] = []
        self.samples: list[int] = []
        self.cands: list[dict[str, np.ndarray]] = []

    def add(self, obs: np.ndarray, mask: np.ndarray, action: int, played: int, search: Any) -> None:
        self.obs.append(np.asarray(obs))
        self.mask.append(np.packbits(mask))
        self.action.append(action)
        self.played.append(played)
        if search is None:
            self.samples.append(0)
            self.cands.append({})
        else:
            self.samples.append(int(search.samples))
            self.cands.append({"action": np.asarray(search.actions), "won": np.asarray(search.won),
                               "lost": np.asarray(search.lost), "unknown": np.asarray(search.unknown),
                               "first": np.asarray(search.first), "visits": np.asarray(search.visits)})


def make_teacher(config: RunConfig) -> Player:
    variant = find_game(config.variant)
    if config.teacher not in TEACHERS[variant.game]:
        raise MalformedInputError(f"the teacher for {variant.game} is one of "
                                  f"{', '.join(TEACHERS[variant.game])}, not {config.teacher!r}")
    options = dict(config.teacher_options)
    if "time_limit" in options:
        raise MalformedInputError("self-play budgets are states, never time: "
                                  "the data must not depend on the machine")
    return make_player(config.teacher, variant, **options)


def play_game(variant: GameSpec, env: Any, teacher: Player, deal: int, seed: int,
              actor: Player | None = None) -> tuple[GameLog, dict[str, Any]]:
    """One deal: the teacher labels every decision; ``actor`` (default: the teacher) moves."""
    reseed(teacher, [seed, deal])  # every planner draws its samples from its own generator
    if isinstance(actor, Reseedable):
        actor.reseed([seed, deal, 1])
    obs, info = env.reset(options={"deal": variant.deal_id(deal)})
    teacher.reset(env)
    if actor is not None:
        actor.reset(env)
    log, start, outcome = GameLog(), time.process_time(), None
    while outcome is None:
        mask = legal_mask(info)
        if not mask.any():
            outcome = info.get("outcome", "dead_end")
            break
        action = teacher.act(obs, mask, info)
        search = getattr(teacher, "last_search", None)
        played = action if actor is None else actor.act(obs, mask, info)
        log.add(obs, mask, action, played, search)
        obs, _, terminated, truncated, info = env.step(played)
        if terminated:
            outcome = info.get("outcome", "win")
        elif truncated:
            outcome = "truncated"
    summary = {"deal": deal, "won": outcome == "win", "outcome": str(outcome),
               "cards_up": int(variant.cards_cleared(info)), "steps": len(log.action),
               "cpu_seconds": time.process_time() - start}
    return log, summary


def pack_shard(logs: Sequence[GameLog], games: Sequence[dict[str, Any]]) -> dict[str, np.ndarray]:
    """The arrays of one shard (see the module docstring)."""
    obs = np.concatenate([np.stack(g.obs) for g in logs])
    if np.issubdtype(obs.dtype, np.integer) and obs.min() >= 0 and obs.max() <= 255:
        obs = obs.astype(np.uint8)  # Klondike's small integers; Pyramid's floats stay as they are
    cands = [c for g in logs for c in g.cands]
    counts = np.asarray([len(c.get("action", ())) for c in cands], np.int64)

    def flat(key: str, dtype: Any) -> np.ndarray:
        parts = [c[key] for c in cands if c]
        return np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype)

    return {
        "format": np.asarray(FORMAT), "obs": obs,
        "mask": np.concatenate([np.stack(g.mask) for g in logs]),
        "action": np.concatenate([g.action for g in logs]).astype(np.int16),
        "played": np.concatenate([g.played for g in logs]).astype(np.int16),
        "samples": np.concatenate([g.samples for g in logs]).astype(np.int16),
        "game": np.concatenate([np.full(len(g.action), i) for i, g in enumerate(logs)]).astype(np.int32),
        "step": np.concatenate([np.arange(len(g.action)) for g in logs]).astype(np.int16),
        "offsets": np.concatenate([[0], np.cumsum(counts)]).astype(np.int64),
        "cand_action": flat("action", np.int16), "cand_won": flat("won", np.uint8),
        "cand_lost": flat("lost", np.uint8), "cand_unknown": flat("unknown", np.uint8),
        "cand_first": flat("first", np.uint8), "cand_visits": flat("visits", np.float32),
        "deal": np.asarray([g["deal"] for g in games], np.int64),
        "won": np.asarray([g["won"] for g in games], bool),
        "outcome": np.asarray([g["outcome"] for g in games]),
        "cards_up": np.asarray([g["cards_up"] for g in games], np.int16),
        "steps": np.asarray([g["steps"] for g in games], np.int32),
        "cpu_seconds": np.asarray([g["cpu_seconds"] for g in games], np.float64),
    }


_WORKER: dict[str, Any] = {}


def play_chunk(config: RunConfig, deals: Sequence[int]) -> dict[str, np.ndarray]:
    """Every deal of ``deals``: one shard's arrays (players and env built once per process)."""
    key = json.dumps(asdict(config), sort_keys=True)
    if _WORKER.get("key") != key:
        variant = find_game(config.variant)
        actor = (make_player(config.actor, variant, **config.actor_options) if config.actor else None)
        _WORKER.update(key=key, variant=variant, env=variant.make_env(), teacher=make_teacher(config),
                       actor=actor)
    logs, games = [], []
    for deal in deals:
        log, summary = play_game(_WORKER["variant"], _WORKER["env"], _WORKER["teacher"], deal, config.seed,
                                 _WORKER["actor"])
        logs.append(log)
        games.append(summary)
    return pack_shard(logs, games)


def write_shard(folder: Path, deals: Sequence[int], arrays: dict[str, np.ndarray]) -> Path:
    """Write a shard whole: a reader never meets half a file."""
    path = folder / shard_name(deals)
    write_atomically(path, shard_bytes(arrays))
    return path


def open_run(folder: Path, config: RunConfig) -> None:
    """Create the run folder, or check that a resumed run has the same settings."""
    folder.mkdir(parents=True, exist_ok=True)
    manifest = folder / "run.json"
    wanted = asdict(config)
    if manifest.exists():
        try:
            found = json.loads(manifest.read_text())
        except json.JSONDecodeError as exc:
            raise MalformedInputError(f"{manifest} is not a run manifest: {exc}") from exc
        if found != wanted:
            raise MalformedInputError(f"{folder} holds a run with other settings ({found}); "
                                      f"use another folder for {wanted}")
    else:
        manifest.write_text(json.dumps(wanted, indent=1, sort_keys=True) + "\n")


def pending_chunks(folder: Path, first: int, count: int, chunk: int) -> list[list[int]]:
    """The chunks of deals ``first .. first + count - 1`` whose shard is not written yet."""
    chunks = train_chunks(first, count, chunk, "self-play plays")
    return [c for c in chunks if not (folder / shard_name(c)).exists()]


def folder_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.glob("deals-*.npz")) / 2**20


def run(folder: Path, config: RunConfig, first: int, count: int, workers: int = 1, ray: str | None = None,
        max_mb: float | None = None, progress: bool = True) -> dict[str, Any]:
    """Play the pending chunks; returns a summary (games, wins, decisions, CPU hours of this run)."""
    open_run(folder, config)
    todo = pending_chunks(folder, first, count, config.chunk)
    done: dict[str, Any] = {"shards": 0, "games": 0, "wins": 0, "decisions": 0, "cpu_hours": 0.0,
                            "stopped": None}
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(todo) * config.chunk, unit="deal", desc=f"self-play {config.teacher}")

    def take(deals: Sequence[int], arrays: dict[str, np.ndarray]) -> bool:
        if max_mb is not None and folder_mb(folder) >= max_mb:
            done["stopped"] = f"the shards reached --max-mb {max_mb:g}"
            return False
        write_shard(folder, deals, arrays)
        done["shards"] += 1
        done["games"] += len(arrays["deal"])
        done["wins"] += int(arrays["won"].sum())
        done["decisions"] += len(arrays["action"])
        done["cpu_hours"] += float(arrays["cpu_seconds"].sum()) / 3600
        if bar is not None:
            bar.update(len(deals))
            bar.set_postfix(won=f"{done['wins']}/{done['games']}")
        return True

    if ray:
        from solitaire_rl.agents import distributed

        distributed.connect(ray)
        for index, arrays in distributed.fan_out(_chunk_task, [(config, c) for c in todo], chunk_size=1):
            if isinstance(arrays, distributed.Failed):
                raise RuntimeError(f"chunk {todo[index][0]}: {arrays.error}")
            if not take(todo[index], arrays):
                break
    elif workers <= 1:
        for deals in todo:
            if not take(deals, play_chunk(config, deals)):
                break
    else:
        with ProcessPoolExecutor(workers, initializer=_quiet_threads) as pool:
            futures = {pool.submit(play_chunk, config, deals): deals for deals in todo}
            for future in as_completed(futures):
                if not take(futures[future], future.result()):
                    for other in futures:
                        other.cancel()
                    break
    if bar is not None:
        bar.close()
    return done


def _chunk_task(item: tuple[RunConfig, list[int]]) -> dict[str, np.ndarray]:
    return play_chunk(*item)


def _quiet_threads() -> None:
    os.environ.setdefault("OMP_NUM_THREADS", "1")


# ------------------------------------------------------------------------------ reading
@dataclass
class SelfPlayData:
    """Every shard of one or more runs, concatenated (``offsets`` rebased)."""

    arrays: dict[str, np.ndarray]
    cpu_hours: float

    def __len__(self) -> int:
        return int(self.arrays["action"].shape[0])

    @property
    def games(self) -> int:
        return int(self.arrays["deal"].shape[0])


def load(folders: Sequence[Path]) -> SelfPlayData:
    """The shards of ``folders`` (each a run folder), in deal order."""
    parts: list[dict[str, np.ndarray]] = []
    for folder in folders:
        paths = sorted(Path(folder).glob("deals-*[0-9].npz"))
        if not paths:
            raise MalformedInputError(f"{folder} holds no self-play shard")
        for path in paths:
            with np.load(path) as shard:
                arrays = {k: shard[k] for k in shard.files}
            if int(arrays.get("format", -1)) != FORMAT:
                raise MalformedInputError(f"{path}: shard format {arrays.get('format')}, expected {FORMAT}")
            parts.append(arrays)
    columns: dict[str, list[np.ndarray]] = {}
    games = cands = 0
    for arrays in parts:
        shifted = dict(arrays)
        shifted["game"] = arrays["game"] + games
        shifted["offsets"] = arrays["offsets"][:-1] + cands
        games += len(arrays["deal"])
        cands += int(arrays["offsets"][-1])
        for k, v in shifted.items():
            columns.setdefault(k, []).append(v)
    merged = {k: np.concatenate(v) for k, v in columns.items() if k != "format"}
    merged["offsets"] = np.concatenate([merged["offsets"], [cands]])
    return SelfPlayData(merged, float(merged["cpu_seconds"].sum()) / 3600)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m solitaire_rl.training.selfplay", description=__doc__.split("\n")[0]
    )
    parser.add_argument("out", type=Path, help="run folder (created; resumed if it exists)")
    parser.add_argument("--variant", default="klondike-draw3")
    parser.add_argument("--teacher", default=None, help="ismcts or hop (Klondike), pimc (Pyramid)")
    parser.add_argument("--teacher-options", default="{}", help="JSON: the planner's budgets")
    parser.add_argument("--actor", default=None, help="a player that moves while the teacher labels (DAgger)")
    parser.add_argument("--actor-options", default="{}", help="JSON: the actor's options")
    parser.add_argument("--first", type=int, default=TRAIN.first, help="first train deal number")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--chunk", type=int, default=20, help="deals a shard")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--ray", default=None, help="play the chunks on a Ray cluster (auto or HOST:PORT)")
    parser.add_argument("--max-mb", type=float, default=2000.0, help="stop when the shards take this much")
    args = parser.parse_args(argv)
    variant = find_game(args.variant)
    config = RunConfig(variant.key, args.teacher or TEACHERS[variant.game][0], args.seed, args.chunk,
                       json.loads(args.teacher_options), args.actor, json.loads(args.actor_options))
    done = run(args.out, config, args.first, args.deals, args.workers, args.ray, args.max_mb)
    print(json.dumps(done))


if __name__ == "__main__":
    main()
