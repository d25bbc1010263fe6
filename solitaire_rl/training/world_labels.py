"""World-count value labels from ``world-bandit``'s self-play (issue 53): resumable shards.

``python -m solitaire_rl.training.world_labels --deals 200`` plays train deals (from 1,000,000 on,
or ``--first``) with the ``world-bandit`` bot at a cheaper budget (``--max-worlds 600`` a decision;
the shipped bot spends 3000) and, at every position where the bot decides at a commitment (kind
``planned`` or ``forced``: the commitment planner ran), or at every position with ``--every``,
records a row:

* ``obs`` (the observation: nothing a player does not see), ``mask`` (bit-packed), ``action`` (the
  bot's move), ``kind`` (the decision's kind, an index into :data:`DECISION_KINDS`), ``commitment``
  (the action index of the commitment its line ends with, -1 where none), ``bot_won`` /
  ``bot_worlds`` (the chosen commitment's worlds won and searched, 0 where none);
* the label: ``label_won`` / ``label_lost`` / ``label_cut`` of K worlds (``--label-worlds``, default
  200) searched with at most ``--label-cap`` states each
  (:func:`solitaire_rl.agents.planner.world_score.world_scores`), and ``label_states``;
* ``deal`` and ``ply`` (moves played before the row's position) and ``game`` (the game's index in the
  shard). Per game: ``game_deal``, ``game_won``, ``game_outcome``, ``game_plies``,
  ``game_cards_cleared`` and every move played (``game_line``, ragged by ``game_line_offsets``), so
  that :func:`game_at` rebuilds the full position of any row (hidden cards included) for a
  privileged critic.

Deals are played in chunks of ``--chunk`` consecutive numbers, one compressed ``.npz`` shard a
chunk (``deals-FIRST-LAST.npz``), written whole (a temporary file renamed). A shard holds nothing
that depends on the machine or the clock (the bot's worlds of deal N are seeded by ``[seed, N]``,
its budget is worlds, never time; each label is seeded by ``--label-seed`` and what the player
sees; the zip entries carry a fixed date), so the same deals give the same bytes. ``manifest.json``
holds the run's options (a resumed run must have the same), the code version, and per shard its
rows, games, wins, CPU seconds (the bot's and the labels'), size and SHA-256. Re-running skips the
shards already written; a shard whose bytes differ from its manifest entry, or that cannot be
read, is reported (:class:`ShardError`) rather than skipped. ``--workers N`` plays N chunks at once;
``--ray ADDRESS`` plays them as Ray tasks. Only train deals are played (1,000,000..2,147,483,647);
outputs stay out of git (``data/`` is ignored).
"""

from __future__ import annotations

import datetime
import json
import time
import zipfile
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import tyro

from solitaire_rl.agents.base import legal_mask
from solitaire_rl.agents.planner.commitment import CommitmentBot
from solitaire_rl.agents.planner.world_score import DEFAULT_CAP, DEFAULT_WORLDS, world_scores
from solitaire_rl.agents.seeding import reseed
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike import KlondikeGame
from solitaire_rl.envs.klondike.actions import ACTION_INDEX, NUM_ACTIONS, move_of
from solitaire_rl.envs.klondike.observer import OBS_SIZE
from solitaire_rl.envs.spec import GameSpec, find_game
from solitaire_rl.training.provenance import git_state, provenance
from solitaire_rl.training.shards import (
    digest,
    locked,
    shard_bytes,
    shard_name,
    train_chunks,
    write_atomically,
)
from solitaire_rl.training.splits import TRAIN

FORMAT = 1
"""Version of the shard layout; a reader refuses another."""
MANIFEST = "manifest.json"
DECISION_KINDS = ("planned", "following", "stock-pass", "endgame-solved", "forced", "only-move",
                  "no-progress")
"""The bot's decision kinds (:data:`solitaire_rl.agents.planner.commitment.DecisionKind`), by index."""
COMMITMENT_KINDS = ("planned", "forced")
"""The kinds of a decision at a commitment: the rows recorded without ``--every``."""
DEFAULT_BOT_WORLDS = 600
"""The bot's worlds a decision here (the shipped bot spends 3000)."""
ROW_KEYS = ("obs", "mask", "action", "kind", "commitment", "bot_won", "bot_worlds", "label_won", "label_lost",
            "label_cut", "label_states", "deal", "ply", "game")
GAME_KEYS = ("game_deal", "game_won", "game_outcome", "game_plies", "game_cards_cleared", "game_line",
             "game_line_offsets")


class ShardError(MalformedInputError):
    """A shard that cannot be read, or whose bytes are not the ones its manifest entry records."""

    def __init__(self, path: Path, why: str) -> None:
        super().__init__(f"{path}: {why}; delete it and run again to play its deals again")
        self.path = path


@dataclass(frozen=True)
class LabelConfig:
    """What a labelling run is: a resumed run must have the same (the manifest holds it)."""

    variant: str = "klondike-draw3"
    seed: int = 0
    """The bot's worlds of deal N are seeded by ``[seed, N]`` (as the benchmark's)."""
    chunk: int = 10
    """Deals a shard."""
    max_worlds: int = DEFAULT_BOT_WORLDS
    """The bot's world budget a decision."""
    bot_options: dict[str, Any] = field(default_factory=dict)
    """Other options of :class:`~solitaire_rl.agents.planner.commitment.CommitmentBot` (no time limit)."""
    label_worlds: int = DEFAULT_WORLDS
    label_cap: int = DEFAULT_CAP
    label_seed: int = 0
    every: bool = False
    """Label every position, not only the decisions at commitments."""
    format: int = FORMAT

    def check(self) -> None:
        """Refuse what would make the data depend on the machine, or is out of range."""
        variant = find_game(self.variant)
        if variant.kind is not KlondikeGame:
            raise MalformedInputError(f"world labels are Klondike's, not {self.variant!r}'s")
        if "time_limit" in self.bot_options:
            raise MalformedInputError("the bot's budget here is worlds, never time: the data must not "
                                      "depend on the machine")
        for name in ("seed", "max_worlds"):
            if name in self.bot_options:
                raise MalformedInputError(f"give {name} as its own option, not in bot_options")
        if isinstance(self.chunk, bool) or not isinstance(self.chunk, int) or self.chunk < 1:
            raise MalformedInputError(f"chunk must be a positive number of deals, not {self.chunk!r}")
        make_bot(self)  # the bot's options, checked by the bot
        world_scores(np.zeros((0, OBS_SIZE), np.uint8), worlds=self.label_worlds, cap=self.label_cap,
                     seed=self.label_seed)  # the labels' options, checked by the native core


def make_bot(config: LabelConfig) -> CommitmentBot:
    variant = find_game(config.variant)
    return CommitmentBot(variant, seed=config.seed, max_worlds=config.max_worlds, **config.bot_options)


# ------------------------------------------------------------------------------ playing
@dataclass
class GameRows:
    """One game's recorded rows and moves, as lists (turned into arrays per shard)."""

    obs: list[np.ndarray] = field(default_factory=list)
    mask: list[np.ndarray] = field(default_factory=list)
    action: list[int] = field(default_factory=list)
    kind: list[int] = field(default_factory=list)
    commitment: list[int] = field(default_factory=list)
    bot_won: list[int] = field(default_factory=list)
    bot_worlds: list[int] = field(default_factory=list)
    ply: list[int] = field(default_factory=list)
    line: list[int] = field(default_factory=list)
    labels: dict[str, np.ndarray] = field(default_factory=dict)


def play_deal(variant: GameSpec, env: Any, bot: CommitmentBot, deal: int, config: LabelConfig,
              label_threads: int = 1) -> tuple[GameRows, dict[str, Any]]:
    """One deal played by ``bot`` and its rows labelled; the game's summary with its CPU seconds."""
    reseed(bot, [config.seed, deal])
    obs, info = env.reset(options={"deal": variant.deal_id(deal)})
    bot.reset(env)
    rows, outcome = GameRows(), None
    start = time.process_time()
    while outcome is None:
        mask = legal_mask(info)
        if not mask.any():
            outcome = info.get("outcome", "dead_end")
            break
        decision = bot.step(obs, mask)
        if config.every or decision.kind in COMMITMENT_KINDS:
            chosen = decision.chosen_candidate
            rows.obs.append(np.asarray(obs, np.uint8))
            rows.mask.append(np.packbits(mask))
            rows.action.append(decision.action)
            rows.kind.append(DECISION_KINDS.index(decision.kind))
            rows.commitment.append(ACTION_INDEX[decision.line[-1]] if chosen is not None else -1)
            rows.bot_won.append(chosen.won if chosen is not None else 0)
            rows.bot_worlds.append(chosen.worlds if chosen is not None else 0)
            rows.ply.append(len(rows.line))
        rows.line.append(decision.action)
        obs, _, terminated, truncated, info = env.step(decision.action)
        if terminated:
            outcome = info.get("outcome", "win")
        elif truncated:
            outcome = "truncated"
    bot_seconds = time.process_time() - start
    start = time.process_time()
    scores = world_scores(np.asarray(rows.obs, np.uint8), bot.draw_count, worlds=config.label_worlds,
                          cap=config.label_cap, seed=config.label_seed, threads=label_threads)
    rows.labels = {"label_won": scores.won, "label_lost": scores.lost, "label_cut": scores.cut,
                   "label_states": scores.states}
    summary = {"deal": deal, "won": outcome == "win", "outcome": str(outcome), "plies": len(rows.line),
               "cards_cleared": int(variant.cards_cleared(info)), "bot_cpu_seconds": bot_seconds,
               "label_cpu_seconds": time.process_time() - start}
    return rows, summary


def pack_shard(games: Sequence[GameRows], summaries: Sequence[dict[str, Any]]) -> dict[str, np.ndarray]:
    """The arrays of one shard (see the module docstring)."""
    def rows_of(key: str, dtype: Any) -> np.ndarray:
        parts = [np.asarray(getattr(g, key), dtype) for g in games]
        return np.concatenate(parts) if parts else np.zeros(0, dtype)

    counts = [len(g.action) for g in games]
    obs = [np.stack(g.obs) for g in games if g.obs]
    masks = [np.stack(g.mask) for g in games if g.mask]
    mask_bytes = (NUM_ACTIONS + 7) // 8
    return {
        "format": np.asarray(FORMAT, np.int16),
        "obs": np.concatenate(obs) if obs else np.zeros((0, OBS_SIZE), np.uint8),
        "mask": np.concatenate(masks) if masks else np.zeros((0, mask_bytes), np.uint8),
        "action": rows_of("action", np.int16), "kind": rows_of("kind", np.int8),
        "commitment": rows_of("commitment", np.int16), "bot_won": rows_of("bot_won", np.int32),
        "bot_worlds": rows_of("bot_worlds", np.int32),
        **{key: np.concatenate([g.labels[key] for g in games]).astype(dtype)
           for key, dtype in (("label_won", np.int32), ("label_lost", np.int32), ("label_cut", np.int32),
                              ("label_states", np.int64))},
        "deal": np.repeat(np.asarray([s["deal"] for s in summaries], np.int64), counts),
        "ply": rows_of("ply", np.int32),
        "game": np.repeat(np.arange(len(games), dtype=np.int32), counts),
        "game_deal": np.asarray([s["deal"] for s in summaries], np.int64),
        "game_won": np.asarray([s["won"] for s in summaries], bool),
        "game_outcome": np.asarray([s["outcome"] for s in summaries], "U16"),
        "game_plies": np.asarray([s["plies"] for s in summaries], np.int32),
        "game_cards_cleared": np.asarray([s["cards_cleared"] for s in summaries], np.int16),
        "game_line": rows_of("line", np.int16),
        "game_line_offsets": np.concatenate([[0], np.cumsum([len(g.line) for g in games])]).astype(np.int64),
    }


_WORKER: dict[str, Any] = {}


def play_chunk(config: LabelConfig, deals: Sequence[int], label_threads: int = 1
               ) -> tuple[dict[str, np.ndarray], dict[str, float]]:
    """Every deal of ``deals``: one shard's arrays and its CPU seconds (the bot and env are built once
    per process)."""
    key = json.dumps(asdict(config), sort_keys=True)
    if _WORKER.get("key") != key:
        variant = find_game(config.variant)
        _WORKER.update(key=key, variant=variant, env=variant.make_env(split="train"), bot=make_bot(config))
    games, summaries = [], []
    for deal in deals:
        rows, summary = play_deal(_WORKER["variant"], _WORKER["env"], _WORKER["bot"], deal, config,
                                  label_threads)
        games.append(rows)
        summaries.append(summary)
    seconds = {"bot_cpu_seconds": sum(s["bot_cpu_seconds"] for s in summaries),
               "label_cpu_seconds": sum(s["label_cpu_seconds"] for s in summaries)}
    return pack_shard(games, summaries), seconds


# ------------------------------------------------------------------------------ shards on disk
def load_shard(path: Path) -> dict[str, np.ndarray]:
    """A shard's arrays, checked (:class:`ShardError` naming the file when it cannot be read or
    is not a shard of this format)."""
    try:
        with np.load(path, allow_pickle=False) as shard:
            arrays = {k: shard[k] for k in shard.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, zipfile.LargeZipFile) as exc:
        raise ShardError(path, f"not a readable shard ({type(exc).__name__}: {exc})") from None
    missing = [k for k in ("format", *ROW_KEYS, *GAME_KEYS) if k not in arrays]
    if missing:
        raise ShardError(path, f"not a world-label shard (no {', '.join(missing)})")
    if int(arrays["format"]) != FORMAT:
        raise ShardError(path, f"shard format {int(arrays['format'])}, this code reads {FORMAT}")
    rows, games = len(arrays["action"]), len(arrays["game_deal"])
    if any(len(arrays[k]) != rows for k in ROW_KEYS) or len(arrays["game_line_offsets"]) != games + 1 \
            or int(arrays["game_line_offsets"][-1]) != len(arrays["game_line"]):
        raise ShardError(path, "its arrays do not have matching lengths")
    return arrays


def read_manifest(folder: Path) -> dict[str, Any] | None:
    path = folder / MANIFEST
    if not path.exists():
        return None
    try:
        manifest = json.loads(path.read_text())
    except json.JSONDecodeError as exc:
        raise MalformedInputError(f"{path} is not a world-label manifest: {exc}") from None
    if not isinstance(manifest, dict) or "config" not in manifest or "shards" not in manifest:
        raise MalformedInputError(f"{path} is not a world-label manifest (no config or shards)")
    return manifest


def write_manifest(folder: Path, manifest: dict[str, Any]) -> None:
    write_atomically(folder / MANIFEST, (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode())


def shard_entry(path: Path, arrays: dict[str, np.ndarray],
                seconds: dict[str, float] | None) -> dict[str, Any]:
    """What the manifest says of one shard."""
    cpu = None if seconds is None else seconds["bot_cpu_seconds"] + seconds["label_cpu_seconds"]
    return {"first": int(arrays["game_deal"][0]), "last": int(arrays["game_deal"][-1]),
            "games": len(arrays["game_deal"]), "wins": int(arrays["game_won"].sum()),
            "rows": len(arrays["action"]),
            "bytes": path.stat().st_size, "sha256": digest(path), "cpu_seconds": cpu,
            "bot_cpu_seconds": None if seconds is None else seconds["bot_cpu_seconds"],
            "label_cpu_seconds": None if seconds is None else seconds["label_cpu_seconds"],
            "written": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"), "code": git_state()}


def open_run(folder: Path, config: LabelConfig) -> dict[str, Any]:
    """The run's manifest: a new one, or the folder's, checked against ``config`` and against the
    shards on disk (each listed shard's bytes, each unlisted shard readable and then listed)."""
    config.check()
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob(".deals-*.npz.tmp"):  # a run stopped while writing
        stale.unlink()
    wanted = asdict(config)
    manifest = read_manifest(folder)
    if manifest is None:
        manifest = {"format": FORMAT, "config": wanted, "created": provenance(), "shards": {}}
    elif manifest["config"] != wanted:
        raise MalformedInputError(f"{folder} holds a run with other options ({manifest['config']}); "
                                  f"use another folder for {wanted}")
    shards: dict[str, Any] = manifest["shards"]
    for name in [n for n in shards if not (folder / n).exists()]:
        del shards[name]  # deleted by hand: its deals are played again
    for path in sorted(folder.glob("deals-*.npz")):
        entry = shards.get(path.name)
        if entry is None:
            shards[path.name] = shard_entry(path, load_shard(path), None)  # written, manifest not yet
        elif path.stat().st_size != entry["bytes"] or digest(path) != entry["sha256"]:
            raise ShardError(path, "its bytes are not the ones the manifest records "
                                   "(a corrupt or foreign shard)")
    write_manifest(folder, manifest)
    return manifest


def chunks_of(first: int, count: int, chunk: int) -> list[list[int]]:
    """Deals ``first .. first + count - 1`` in chunks of ``chunk``, aligned to ``first``."""
    return train_chunks(first, count, chunk, "world labels are made")


def run(folder: Path, config: LabelConfig, first: int, count: int, workers: int = 1, ray: str | None = None,
        label_threads: int = 1, progress: bool = True) -> dict[str, Any]:
    """Play and label the chunks whose shard is not written yet; returns what this call added
    (shards, games, wins, rows, CPU hours) and what the folder holds."""
    chunks = chunks_of(first, count, config.chunk)
    with locked(folder):
        manifest = open_run(folder, config)
        todo = [c for c in chunks if shard_name(c) not in manifest["shards"]]
        done: dict[str, Any] = {"shards": 0, "games": 0, "wins": 0, "rows": 0, "cpu_hours": 0.0,
                                "skipped": len(chunks) - len(todo)}
        bar = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=sum(map(len, todo)), unit="deal", desc="world labels")

        def take(deals: Sequence[int], arrays: dict[str, np.ndarray], seconds: dict[str, float]) -> None:
            path = folder / shard_name(deals)
            write_atomically(path, shard_bytes(arrays))
            entry = manifest["shards"][path.name] = shard_entry(path, arrays, seconds)
            write_manifest(folder, manifest)
            done["shards"] += 1
            done["games"] += entry["games"]
            done["wins"] += entry["wins"]
            done["rows"] += entry["rows"]
            done["cpu_hours"] += entry["cpu_seconds"] / 3600
            if bar is not None:
                bar.update(len(deals))
                bar.set_postfix(rows=done["rows"], won=f"{done['wins']}/{done['games']}")

        if ray:
            from solitaire_rl.agents import distributed

            distributed.connect(ray)
            items = [(config, c, label_threads) for c in todo]
            for index, result in distributed.fan_out(_chunk_task, items, chunk_size=1):
                if isinstance(result, distributed.Failed):
                    raise RuntimeError(f"chunk from deal {todo[index][0]}: {result.error}")
                take(todo[index], *result)
        elif workers <= 1:
            for deals in todo:
                take(deals, *play_chunk(config, deals, label_threads))
        else:
            with ProcessPoolExecutor(workers) as pool:
                futures = {pool.submit(play_chunk, config, deals, label_threads): deals for deals in todo}
                for future in as_completed(futures):
                    take(futures[future], *future.result())
        if bar is not None:
            bar.close()
        shards = manifest["shards"].values()
        done["folder"] = {"shards": len(shards), "games": sum(e["games"] for e in shards),
                          "rows": sum(e["rows"] for e in shards)}
    return done


def _chunk_task(item: tuple[LabelConfig, list[int], int]) -> tuple[dict[str, np.ndarray], dict[str, float]]:
    return play_chunk(*item)


# ------------------------------------------------------------------------------ reading
@dataclass
class WorldLabels:
    """Every shard of a run folder, concatenated in deal order (``game`` and the line offsets rebased)."""

    arrays: dict[str, np.ndarray]
    config: LabelConfig

    def __len__(self) -> int:
        return int(self.arrays["action"].shape[0])

    @property
    def games(self) -> int:
        return int(self.arrays["game_deal"].shape[0])

    @property
    def share(self) -> np.ndarray:
        """Each row's world score: the share of its K worlds won."""
        return self.arrays["label_won"] / self.config.label_worlds

    def game_at(self, row: int) -> KlondikeGame:
        return game_at(self, row)


def load(folder: Path) -> WorldLabels:
    """The shards of run folder ``folder`` (its manifest names the options), in deal order."""
    folder = Path(folder)
    manifest = read_manifest(folder)
    if manifest is None:
        raise MalformedInputError(f"{folder} holds no world-label run ({MANIFEST} missing)")
    config = LabelConfig(**manifest["config"])
    paths = sorted(folder.glob("deals-*.npz"))
    if not paths:
        raise MalformedInputError(f"{folder} holds no world-label shard")
    columns: dict[str, list[np.ndarray]] = {}
    games = moves = 0
    for path in paths:
        arrays = load_shard(path)
        arrays["game"] = arrays["game"] + games
        arrays["game_line_offsets"] = arrays["game_line_offsets"][:-1] + moves
        games += len(arrays["game_deal"])
        moves += len(arrays["game_line"])
        for key, value in arrays.items():
            columns.setdefault(key, []).append(value)
    merged = {k: np.concatenate(v) for k, v in columns.items() if k != "format"}
    merged["game_line_offsets"] = np.concatenate([merged["game_line_offsets"], [moves]])
    return WorldLabels(merged, config)


def game_at(labels: WorldLabels, row: int) -> KlondikeGame:
    """The full game at ``row`` (hidden cards where they really are): the row's deal with its first
    ``ply`` moves replayed. Its observation is the row's (:class:`ShardError`-like
    :class:`MalformedInputError` if not: data made by other rules)."""
    arrays = labels.arrays
    if isinstance(row, bool) or not isinstance(row, int | np.integer) or not 0 <= row < len(labels):
        raise MalformedInputError(f"row must be 0..{len(labels) - 1}, not {row!r}")
    variant = find_game(labels.config.variant)
    game_index = int(arrays["game"][row])
    start = int(arrays["game_line_offsets"][game_index])
    deal = int(arrays["deal"][row])
    game = variant.new_game(variant.deal_id(deal))
    assert isinstance(game, KlondikeGame)
    for action in arrays["game_line"][start:start + int(arrays["ply"][row])]:
        game.push(move_of(game, int(action)))
    if not np.array_equal(variant.observe(game), arrays["obs"][row]):
        raise MalformedInputError(f"row {row}: the replayed deal {deal} does not show the row's observation "
                                  "(data made by other rules)")
    return game


def describe(folder: Path) -> dict[str, Any]:
    """What a run folder holds: rows, games, wins, CPU hours and rows a CPU second (shards whose
    seconds the manifest knows), and how the labels spread (the share of rows strictly between 0
    and 1: dense; its deciles; the mean label in won and lost games; the share of worlds cut)."""
    labels = load(folder)
    manifest = read_manifest(Path(folder))
    assert manifest is not None
    timed = [e for e in manifest["shards"].values() if e["cpu_seconds"] is not None]
    seconds = sum(e["cpu_seconds"] for e in timed)
    out: dict[str, Any] = {
        "rows": len(labels), "games": labels.games, "wins": int(labels.arrays["game_won"].sum()),
        "cpu_hours": seconds / 3600,
        "rows_per_cpu_second": sum(e["rows"] for e in timed) / seconds if seconds else None,
        "label_cpu_share": sum(e["label_cpu_seconds"] for e in timed) / seconds if seconds else None,
    }
    if not len(labels):
        return out
    share = labels.share
    won_game = labels.arrays["game_won"][labels.arrays["game"]]
    cut = labels.arrays["label_cut"].sum() / (labels.config.label_worlds * len(labels))
    return {
        **out, "dense": float(np.mean((share > 0) & (share < 1))), "zero": float(np.mean(share == 0)),
        "one": float(np.mean(share == 1)),
        "deciles": np.quantile(share, np.linspace(0, 1, 11)).round(3).tolist(),
        "mean_in_won_games": float(share[won_game].mean()) if won_game.any() else None,
        "mean_in_lost_games": float(share[~won_game].mean()) if (~won_game).any() else None,
        "cut_share": float(cut),
    }


# ------------------------------------------------------------------------------ command line
@dataclass(frozen=True)
class Args:
    """World-count value labels from world-bandit's self-play on train deals (resumable shards)."""

    out: Path = Path("data/world_labels")
    """Run folder (created; resumed if it exists)."""
    first: int = TRAIN.first
    """First train deal number."""
    deals: int = 200
    """Deals to play from ``first`` on."""
    chunk: int = 10
    """Deals a shard."""
    seed: int = 0
    """The bot's seed (deal N's worlds: ``[seed, N]``)."""
    max_worlds: int = DEFAULT_BOT_WORLDS
    """The bot's world budget a decision (shipped: 3000)."""
    bot_options: str = "{}"
    """JSON: other options of the bot (cap, schedule, ...; no time limit)."""
    label_worlds: int = DEFAULT_WORLDS
    """K: worlds a label."""
    label_cap: int = DEFAULT_CAP
    """States each label world's search may enter."""
    label_seed: int = 0
    every: bool = False
    """Label every position, not only the bot's decisions at commitments."""
    variant: str = "klondike-draw3"
    workers: int = 1
    """Chunks played at once (processes)."""
    label_threads: int = 1
    """Threads of each labelling call (the labels are the same for any number)."""
    ray: Annotated[str | None, tyro.conf.arg(metavar="ADDRESS")] = None
    """Play the chunks on a Ray cluster (auto or HOST:PORT)."""
    quiet: bool = False
    """No progress bar."""
    describe: bool = False
    """Play nothing: print what the run folder holds (rows, CPU hours, how the labels spread)."""

    def config(self) -> LabelConfig:
        try:
            bot_options = json.loads(self.bot_options)
        except json.JSONDecodeError as exc:
            raise MalformedInputError(f"--bot-options is not JSON: {exc}") from None
        if not isinstance(bot_options, dict):
            raise MalformedInputError(f"--bot-options must be a JSON object, not {self.bot_options!r}")
        return LabelConfig(variant=find_game(self.variant).key, seed=self.seed, chunk=self.chunk,
                           max_worlds=self.max_worlds, bot_options=bot_options,
                           label_worlds=self.label_worlds, label_cap=self.label_cap,
                           label_seed=self.label_seed, every=self.every)


PROG = "python -m solitaire_rl.training.world_labels"


def main(args: Args) -> dict[str, Any]:
    if args.describe:
        described = describe(args.out)
        print(json.dumps(described))
        return described
    done = run(args.out, args.config(), args.first, args.deals, args.workers, args.ray, args.label_threads,
               progress=not args.quiet)
    print(json.dumps(done))
    return done


if __name__ == "__main__":
    main(tyro.cli(Args, prog=PROG))
