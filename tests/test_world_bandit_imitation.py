"""Imitating world-bandit (solitaire_rl/training/world_bandit_imitation.py): every position of the bot's
games with its move and a value target, a fitted expert-network checkpoint that names its teacher and
the compute it took, and that the expert-net player loads and plays."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from solitaire_rl.agents.base import play_episode
from solitaire_rl.agents.ppo import METADATA_NAME
from solitaire_rl.agents.registry import make_player
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.spec import find_game
from solitaire_rl.training import world_bandit_imitation
from solitaire_rl.training.splits import TRAIN
from solitaire_rl.training.world_labels import LabelConfig, load, run

KLONDIKE = find_game("klondike")
CONFIG = LabelConfig(chunk=1, max_worlds=60, bot_options={"cap": 150, "hopeless_worlds": 30}, label_worlds=8,
                     label_cap=100)
"""A small budget: a game and its labels take about a second."""


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("world-labels")
    run(folder, CONFIG, TRAIN.first + 17, 2, progress=False)
    return folder


def test_every_position_of_the_bots_games_is_a_row_with_its_move(run_folder: Path) -> None:
    labels = load(run_folder)
    data = world_bandit_imitation.positions(labels, KLONDIKE, "world")
    a = labels.arrays
    rows = len(data.won)
    assert len(labels) < rows <= len(a["game_line"])  # the moves between commitments too
    assert data.searched.sum() == len(labels)  # each labelled commitment, met again in the replay
    moves = data.target.argmax(axis=1)
    assert np.array_equal(moves[data.searched], a["action"])
    assert np.array_equal(data.target.sum(axis=1), np.ones(rows, np.float32))
    assert (data.masks.sum(axis=1) > 1).all() and data.masks[np.arange(rows), moves].all()
    # the value target at a labelled commitment is its world score
    assert np.allclose(data.won[data.searched], labels.share)
    outcome = world_bandit_imitation.positions(labels, KLONDIKE, "outcome")
    assert np.array_equal(outcome.won, a["game_won"][outcome.game].astype(np.float32))
    weighted = world_bandit_imitation.positions(labels, KLONDIKE, "world", commitment_weight=3.0)
    assert np.array_equal(weighted.target.max(axis=1), np.where(data.searched, 3.0, 1.0).astype(np.float32))
    assert np.array_equal(weighted.target.argmax(axis=1), moves)
    with pytest.raises(MalformedInputError, match="--commitment-weight must be positive"):
        world_bandit_imitation.positions(labels, KLONDIKE, commitment_weight=0.0)
    with pytest.raises(MalformedInputError, match="--value is one of"):
        world_bandit_imitation.positions(labels, KLONDIKE, "return")
    with pytest.raises(MalformedInputError, match="klondike-draw3's, not klondike-draw1's"):
        world_bandit_imitation.positions(labels, find_game("klondike-draw1"))


def test_a_replay_that_does_not_show_a_labelled_row_is_refused(run_folder: Path) -> None:
    labels = load(run_folder)
    labels.arrays["obs"] = labels.arrays["obs"].copy()
    labels.arrays["obs"][3, 0] ^= 1
    with pytest.raises(MalformedInputError, match="does not show the labelled row's observation"):
        world_bandit_imitation.positions(labels, KLONDIKE)


def test_a_fitted_checkpoint_names_its_teacher_and_plays_as_the_expert_network(run_folder: Path,
                                                                              tmp_path: Path) -> None:
    out = tmp_path / "bc.zip"
    result = world_bandit_imitation.main([str(run_folder), "--out", str(out), "--epochs", "1", "--sizes",
                                          "16,16,16", "--threads", "1", "--augment", "--val-games", "0.5"])
    assert result["checkpoint"] == str(out)
    with zipfile.ZipFile(out) as archive:
        training = json.loads(archive.read(METADATA_NAME))["training"]
    assert training["teacher"] == world_bandit_imitation.TEACHER == "world-bandit"
    assert training["games"] == 2 and training["selfplay_cpu_hours"] > 0
    assert training["value_target"] == "world"
    assert training["validation"]["fit_cpu_hours"] > 0
    assert training["positions"] == training["validation"]["fit_rows"] + training["validation"]["val_rows"]
    player = make_player("expert-net", KLONDIKE, checkpoint=out)
    result = play_episode(KLONDIKE.make_env(max_episode_steps=100), player, KLONDIKE.deal_id(100_001),
                          KLONDIKE.cards_cleared)
    assert result.steps > 0


def test_bad_options_are_refused_before_anything_is_fitted(run_folder: Path, tmp_path: Path) -> None:
    with pytest.raises(MalformedInputError, match="one world-label run folder"):
        world_bandit_imitation.main([str(run_folder), str(run_folder), "--out", str(tmp_path / "a.zip")])
    with pytest.raises(MalformedInputError, match="--sizes is context,hidden,value_hidden"):
        world_bandit_imitation.main([str(run_folder), "--out", str(tmp_path / "b.zip"), "--sizes", "16,16"])
    with pytest.raises(MalformedInputError, match="holds no world-label run"):
        world_bandit_imitation.main([str(tmp_path), "--out", str(tmp_path / "c.zip")])
    assert not list(tmp_path.glob("*.zip"))
