"""The world-label generator (solitaire_rl/training/world_labels.py): the same shard bytes for the same
deals, resumed runs that skip written shards, corrupt shards reported by name, train deals only,
and rows whose full game the loader rebuilds."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import tyro

from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.spec import find_game
from solitaire_rl.training import world_labels
from solitaire_rl.training.splits import TRAIN
from solitaire_rl.training.world_labels import (
    COMMITMENT_KINDS,
    DECISION_KINDS,
    PROG,
    Args,
    LabelConfig,
    ShardError,
    load,
    play_chunk,
    run,
    shard_bytes,
)

KLONDIKE = find_game("klondike")
FIRST = TRAIN.first + 17
CONFIG = LabelConfig(chunk=1, max_worlds=60, bot_options={"cap": 150, "hopeless_worlds": 30}, label_worlds=8,
                     label_cap=100)
"""A small budget: a game and its labels take about a second."""


def test_a_deal_gives_the_same_rows_and_shard_bytes_every_time() -> None:
    arrays, seconds = play_chunk(CONFIG, [FIRST, FIRST + 1])
    again, _ = play_chunk(CONFIG, [FIRST, FIRST + 1])
    assert shard_bytes(arrays) == shard_bytes(again)
    assert seconds["bot_cpu_seconds"] > 0 and seconds["label_cpu_seconds"] > 0
    alone, _ = play_chunk(CONFIG, [FIRST + 1])  # a deal's rows do not depend on its chunk
    second = arrays["game"] == 1
    for key in ("obs", "action", "kind", "label_won", "label_lost", "label_cut", "ply"):
        assert np.array_equal(arrays[key][second], alone[key]), key
    rows = len(arrays["action"])
    assert rows > 10 and set(arrays["deal"].tolist()) == {FIRST, FIRST + 1}
    assert {DECISION_KINDS[k] for k in arrays["kind"]} <= set(COMMITMENT_KINDS)
    assert np.array_equal(arrays["label_won"] + arrays["label_lost"] + arrays["label_cut"], np.full(rows, 8))
    assert (arrays["bot_worlds"] > 0).any() and (arrays["commitment"] >= 0).all()
    share = arrays["label_won"] / 8
    assert ((share > 0) & (share < 1)).any()  # dense labels, not only 0 and 1


def test_a_resumed_run_skips_the_written_shards(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "run"
    first = run(folder, CONFIG, FIRST, 2, progress=False)
    assert (first["shards"], first["skipped"], first["games"]) == (2, 0, 2)
    written = {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in folder.glob("deals-*.npz")}
    played: list[list[int]] = []
    original = world_labels.play_chunk

    def counting(config: LabelConfig, deals: list[int], label_threads: int = 1) -> object:
        played.append(list(deals))
        return original(config, deals, label_threads)

    monkeypatch.setattr(world_labels, "play_chunk", counting)
    resumed = run(folder, CONFIG, FIRST, 3, progress=False)
    assert played == [[FIRST + 2]]
    assert (resumed["shards"], resumed["skipped"], resumed["folder"]["games"]) == (1, 2, 3)
    for name, (mtime, data) in written.items():
        assert (folder / name).stat().st_mtime_ns == mtime and (folder / name).read_bytes() == data
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["config"]["max_worlds"] == 60 and manifest["created"]["git"].keys() == {"commit", "dirty"}
    entries = manifest["shards"]
    assert sorted(entries) == sorted(p.name for p in folder.glob("deals-*.npz")) and len(entries) == 3
    assert all(e["cpu_seconds"] > 0 and e["rows"] > 0 and e["games"] == 1 for e in entries.values())
    assert sum(e["rows"] for e in entries.values()) == len(load(folder))
    # the same deals in one go: the same bytes, shard by shard
    whole = tmp_path / "whole"
    run(whole, CONFIG, FIRST, 3, progress=False)
    for name in entries:
        assert (whole / name).read_bytes() == (folder / name).read_bytes()


def test_a_corrupt_shard_is_reported_not_skipped(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    run(folder, CONFIG, FIRST, 1, progress=False)
    shard = next(folder.glob("deals-*.npz"))
    shard.write_bytes(shard.read_bytes()[:-100])  # cut short, as by a full disk
    with pytest.raises(ShardError, match=f"{shard.name}: its bytes are not the ones the manifest records"):
        run(folder, CONFIG, FIRST, 2, progress=False)
    assert not (folder / world_labels.shard_name([FIRST + 1])).exists()  # nothing was played
    with pytest.raises(ShardError, match=f"{shard.name}: not a readable shard .*delete it and run again"):
        load(folder)
    shard.unlink()  # deleted: its deal is played again
    assert run(folder, CONFIG, FIRST, 1, progress=False)["shards"] == 1
    stray = folder / world_labels.shard_name([FIRST + 5])
    stray.write_bytes(b"not a zip file")  # a shard the manifest does not list
    with pytest.raises(ShardError, match=f"{stray.name}: not a readable shard"):
        run(folder, CONFIG, FIRST, 1, progress=False)


def test_a_resumed_run_keeps_its_options_and_train_deals_only(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    run(folder, CONFIG, FIRST, 1, progress=False)
    other = LabelConfig(**{**CONFIG.__dict__, "label_worlds": 16})
    with pytest.raises(MalformedInputError, match="holds a run with other options"):
        run(folder, other, FIRST, 1, progress=False)
    with pytest.raises(MalformedInputError, match="train deals only"):
        run(tmp_path / "bench", CONFIG, 1, 10, progress=False)
    with pytest.raises(MalformedInputError, match="train deals only"):
        run(tmp_path / "bench", CONFIG, TRAIN.first - 1, 2, progress=False)
    with pytest.raises(MalformedInputError, match="never time"):
        run(tmp_path / "timed", LabelConfig(bot_options={"time_limit": 1.0}), FIRST, 1, progress=False)
    with pytest.raises(MalformedInputError, match="worlds must be at least 1"):
        run(tmp_path / "labels", LabelConfig(label_worlds=0), FIRST, 1, progress=False)
    with pytest.raises(MalformedInputError, match="Klondike's"):
        run(tmp_path / "pyramid", LabelConfig(variant="pyramid-001"), FIRST, 1, progress=False)
    assert not (tmp_path / "bench").exists() or not list((tmp_path / "bench").glob("deals-*"))
    with world_labels.locked(folder), pytest.raises(MalformedInputError, match="another run is writing"):
        run(folder, CONFIG, FIRST, 1, progress=False)


def test_the_loader_rebuilds_the_full_game_of_a_row(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    run(folder, CONFIG, FIRST, 2, progress=False)
    labels = load(folder)
    arrays = labels.arrays
    assert labels.games == 2 and labels.config == CONFIG
    for row in (0, len(labels) // 2, len(labels) - 1):
        game = labels.game_at(row)
        assert game.moves_played == arrays["ply"][row]
        assert np.array_equal(KLONDIKE.observe(game), arrays["obs"][row])
        assert game.deal is not None and game.deal.deal_id is not None
        assert game.deal.deal_id.number == arrays["deal"][row]
        assert np.array_equal(np.packbits(KLONDIKE.legal_mask(game)), arrays["mask"][row])
        assert KLONDIKE.legal_mask(game)[arrays["action"][row]]
    second = int(np.flatnonzero(arrays["game"] == 1)[0])
    assert labels.game_at(second).deal.deal_id.number == FIRST + 1  # type: ignore[union-attr]
    assert labels.share.min() >= 0 and labels.share.max() <= 1
    arrays["ply"][second] += 1  # a row that no longer fits its game
    with pytest.raises(MalformedInputError, match=f"row {second}: the replayed deal"):
        labels.game_at(second)
    with pytest.raises(MalformedInputError, match="row must be"):
        labels.game_at(len(labels))


def test_every_position_is_labelled_on_request(tmp_path: Path) -> None:
    every = LabelConfig(**{**CONFIG.__dict__, "every": True})
    arrays, _ = play_chunk(every, [FIRST])
    assert len(arrays["action"]) == int(arrays["game_plies"][0]) == len(arrays["game_line"])
    assert np.array_equal(arrays["ply"], np.arange(len(arrays["action"])))
    assert np.array_equal(arrays["action"], arrays["game_line"])
    assert {DECISION_KINDS[k] for k in arrays["kind"]} > set(COMMITMENT_KINDS)


def test_the_command_line_runs_and_resumes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--out", str(tmp_path / "cli"), "--first", str(FIRST), "--deals", "1", "--chunk", "1",
            "--max-worlds", "60", "--bot-options", '{"cap": 150, "hopeless_worlds": 30}',
            "--label-worlds", "8", "--label-cap", "100", "--quiet"]
    args = tyro.cli(Args, args=argv, prog=PROG)
    assert args.config() == CONFIG
    done = world_labels.main(args)
    assert json.loads(capsys.readouterr().out) == done and done["shards"] == 1
    assert world_labels.main(tyro.cli(Args, args=argv, prog=PROG))["skipped"] == 1
    capsys.readouterr()
    described = world_labels.main(tyro.cli(Args, args=[*argv, "--describe"], prog=PROG))
    assert json.loads(capsys.readouterr().out) == described
    rows = described["rows"]
    assert rows == len(load(tmp_path / "cli")) and described["games"] == 1 and described["cpu_hours"] > 0
    assert described["rows_per_cpu_second"] == pytest.approx(rows / (described["cpu_hours"] * 3600))
    assert described["dense"] + described["zero"] + described["one"] == pytest.approx(1.0)
    assert described["deciles"][0] >= 0 and described["deciles"][-1] <= 1 and 0 <= described["cut_share"] <= 1
    with pytest.raises(MalformedInputError, match="not JSON"):
        tyro.cli(Args, args=[*argv, "--bot-options", "{cap"], prog=PROG).config()
