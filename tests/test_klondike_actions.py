"""The ``klondike-actions`` encoding: one feature row per legal Klondike action, checked against the game."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solitaire_rl.agents.base import play_episode
from solitaire_rl.agents.encodings import find_encoding
from solitaire_rl.agents.encodings.klondike_actions import (
    ACTION_FEATURES,
    KLONDIKE_ACTIONS_SIZE,
    SLOT_WIDTH,
    SLOTS,
)
from solitaire_rl.agents.encodings.klondike_compact import KLONDIKE_COMPACT_SIZE, klondike_compact
from solitaire_rl.agents.greedy.klondike import KlondikeView, score_klondike_action
from solitaire_rl.agents.ppo import PpoPlayer, read_metadata
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike import KlondikeGame
from solitaire_rl.envs.klondike.actions import ACTION_MOVES, NUM_ACTIONS, STOCK_ACTION, move_of
from solitaire_rl.envs.klondike.moves import (
    COLUMN_COLUMN,
    COLUMN_FOUNDATION,
    FOUNDATION_COLUMN,
    WASTE_COLUMN,
    WASTE_FOUNDATION,
    Move,
)
from solitaire_rl.envs.spec import find_game
from solitaire_rl.training.config import Args
from solitaire_rl.training.train import main
from tests.position_helpers import game_positions

ACTIONS = find_encoding("klondike-actions", "klondike")
F = {name: i + 1 for i, name in enumerate(ACTION_FEATURES)}
KINDS = {WASTE_FOUNDATION: "waste_to_foundation", WASTE_COLUMN: "waste_to_column",
         COLUMN_FOUNDATION: "column_to_foundation", COLUMN_COLUMN: "column_to_column",
         FOUNDATION_COLUMN: "foundation_to_column"}


def slots_of(vector: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The action index and the features of each used slot."""
    rows = vector[KLONDIKE_COMPACT_SIZE:].reshape(SLOTS, SLOT_WIDTH)
    index = np.rint(rows[:, 0] * NUM_ACTIONS).astype(int) - 1
    assert (rows[index < 0] == 0).all()
    return index[index >= 0], rows[index >= 0]


def table_first(rng: np.random.Generator, legal: np.ndarray) -> int:
    """Mostly greedy-like: a move to the table 70% of the time, so that runs grow and columns empty."""
    table = legal[legal != STOCK_ACTION]
    return int(rng.choice(table) if table.size and rng.random() < 0.7 else rng.choice(legal))


def positions(seed: int, steps: int) -> list[tuple[KlondikeGame, np.ndarray, np.ndarray]]:
    """Games (copies), observations and masks along a game of :func:`table_first` moves."""
    return game_positions("klondike-draw3", seed, steps, table_first)  # type: ignore[return-value]


def can_play(game: KlondikeGame, card: int) -> bool:
    """Whether a legal move of ``game`` takes ``card`` alone: from the waste top or a column's end."""
    for move in game.legal_moves():
        if move.kind in (WASTE_FOUNDATION, WASTE_COLUMN) and game.waste and game.waste[-1] == card:
            return True
        from_end = move.kind == COLUMN_FOUNDATION or (move.kind == COLUMN_COLUMN and move.count == 1)
        if from_end and game.columns[move.src][-1] == card:
            return True
    return False


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_each_slot_says_what_its_move_does_to_the_game(seed: int) -> None:
    assert "draw" in check_slots_along_a_game(seed, 120)


def test_the_slot_checks_meet_every_kind_of_move() -> None:
    """Fixed seeds, so that the property test above is known to reach each kind of move (one random
    game of 120 steps need not play a waste card to a column)."""
    seen = set().union(*(check_slots_along_a_game(seed, 300) for seed in range(4)))
    assert seen >= {"draw", "recycle", "waste_to_column", "waste_to_foundation", "column_to_column",
                    "column_to_foundation"}


def check_slots_along_a_game(seed: int, steps: int) -> set[str]:
    """Check every slot of every position along a game against the game; return the move kinds met."""
    seen_kinds: set[str] = set()
    for game, obs, mask in positions(seed, steps):
        vector = ACTIONS.encode(obs, mask)
        assert vector.shape == (KLONDIKE_ACTIONS_SIZE,) and vector.dtype == np.float32
        assert np.array_equal(vector[:KLONDIKE_COMPACT_SIZE], klondike_compact(obs))
        assert float(vector.min()) >= 0.0 and float(vector.max()) <= 1.0
        index, rows = slots_of(vector)
        assert index.tolist() == np.flatnonzero(mask).tolist()
        view = KlondikeView(obs)
        scores = [score_klondike_action(view, int(a), stuck=False)[0] for a in index]
        pick = int(np.argmax(scores))  # the first best, as greedy
        assert rows[:, F["greedy_choice"]].tolist() == [float(i == pick) for i in range(len(index))]
        for action, row in zip(index.tolist(), rows, strict=True):
            move = move_of(game, action)
            after = game.copy()
            after.push(move)
            kinds = [name for name in (*KINDS.values(), "draw", "recycle") if row[F[name]]]
            assert len(kinds) == 1
            seen_kinds.add(kinds[0])
            if action == STOCK_ACTION:
                assert kinds == ["draw" if game.stock else "recycle"]
                if row[F["next_card_known"]]:
                    top = after.waste[-1]
                    assert (game.seen >> top) & 1 and row[F["next_card_plays"]] == can_play(after, top)
                else:
                    assert not game.stock or not (game.seen >> after.waste[-1]) & 1
                continue
            assert kinds == [KINDS[move.kind]]
            check_table_move(game, after, move, row)
    return seen_kinds


def check_table_move(game: KlondikeGame, after: KlondikeGame, move: Move, row: np.ndarray) -> None:
    """The features of a move that is not a tap on the stock, against the game before and after it."""
    column_source = move.kind in (COLUMN_FOUNDATION, COLUMN_COLUMN)
    if column_source:
        count = len(game.columns[move.src]) - len(after.columns[move.src])
        assert row[F["cards_moved"]] == pytest.approx(count / 13)
        assert row[F["source_face_down"]] == pytest.approx(game.hidden[move.src] / 6)
        assert row[F["turns_up"]] == (after.hidden[move.src] < game.hidden[move.src])
        assert row[F["empties_column"]] == (not game.hidden[move.src] and not after.columns[move.src])
        moved = game.columns[move.src][-count]
        left_behind = after.columns[move.src][-1] if len(after.columns[move.src]) > after.hidden[move.src] \
            and after.hidden[move.src] == game.hidden[move.src] else None
    else:
        assert row[F["cards_moved"]] == row[F["turns_up"]] == row[F["empties_column"]] == 0
        if move.kind == FOUNDATION_COLUMN:
            moved, left_behind = after.columns[move.dst][-1], None
        else:
            moved = game.waste[-1]
            left_behind = after.waste[-1] if after.waste else None
    assert row[F["rank"]] == pytest.approx(((moved >> 2) + 1) / 13)
    if move.kind in (WASTE_FOUNDATION, COLUMN_FOUNDATION):
        assert row[F["to_empty_column"]] == row[F["target_column"]] == 0
    else:
        assert row[F["to_empty_column"]] == (not game.columns[move.dst])
        assert row[F["target_face_down"]] == pytest.approx(game.hidden[move.dst] / 6)
    assert row[F["next_card_known"]] == (left_behind is not None)
    if left_behind is not None:
        assert row[F["next_card_plays"]] == can_play(after, left_behind), (str(move), left_behind)


def test_every_legal_action_fits_the_slots_along_long_games() -> None:
    most = max(int(mask.sum()) for seed in range(6) for _, _, mask in positions(seed, 300))
    assert 10 <= most <= SLOTS


def test_the_encoding_needs_the_mask_and_refuses_too_many_actions() -> None:
    _, obs, _ = positions(3, 1)[0]
    with pytest.raises(MalformedInputError, match="needs the action mask"):
        ACTIONS.encode(obs, None)
    with pytest.raises(MalformedInputError, match="do not fit"):
        ACTIONS.encode(obs, np.ones(len(ACTION_MOVES), np.bool_))


def test_a_tiny_warm_started_run_on_klondike_actions_loads_and_plays_legal_moves(tmp_path: Path) -> None:
    variant = find_game("klondike-draw3")
    args = Args(game="klondike-draw3", encoding="klondike-actions", net_arch=(16, 16, 16),
                total_timesteps=512, n_envs=2, n_steps=128, batch_size=128, n_epochs=1, vec_env="dummy",
                eval_freq=0, checkpoint_freq=0, runs_dir=tmp_path / "runs", progress_bar=False,
                tensorboard=False, seed=3, imitation_episodes=3, imitation_epochs=2, eval_sample=True)
    result = main(args)
    metadata = read_metadata(result.final_checkpoint)
    assert metadata["encoding"]["name"] == "klondike-actions"
    assert metadata["encoding"]["size"] == KLONDIKE_ACTIONS_SIZE
    player = PpoPlayer(variant, result.final_checkpoint)
    assert type(player.model.policy).__name__ == "ActionScoringPolicy"
    env = variant.make_env(max_episode_steps=150)
    outcome = play_episode(env, player, variant.deal_id(1), variant.cards_cleared)
    assert outcome.steps > 0
    _, obs, mask = positions(5, 1)[0]
    probs = player.action_probabilities(obs, mask)
    assert probs[~mask].sum() == 0 and probs[mask].sum() == pytest.approx(1.0)


@pytest.mark.parametrize(
    "module",
    [
        "solitaire_rl.agents.encodings.klondike_actions",
        "solitaire_rl.agents.encodings.klondike_compact",
        "solitaire_rl.agents.encodings",
    ],
)
def test_each_encoding_module_imports_first_in_a_fresh_interpreter(module: str) -> None:
    done = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[1], check=False)
    assert done.returncode == 0, done.stderr
