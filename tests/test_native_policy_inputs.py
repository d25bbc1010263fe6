"""The native ``klondike-compact`` and ``klondike-actions``
(solitaire_rl.agents.encodings.klondike_inputs_batch)
against the Python encoders, the reference: the same float32 values for every row, and bad input refused."""

from __future__ import annotations

import numpy as np
import pytest

from solitaire_rl.agents.encodings import find_encoding
from solitaire_rl.agents.encodings.klondike_actions import (
    ACTION_FEATURES,
    SLOT_WIDTH,
    SLOTS,
    klondike_actions,
)
from solitaire_rl.agents.encodings.klondike_compact import KLONDIKE_COMPACT_SIZE, klondike_compact
from solitaire_rl.agents.encodings.klondike_inputs_batch import klondike_actions_batch, klondike_compact_batch
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike.actions import NUM_ACTIONS
from solitaire_rl.envs.klondike.observer import EMPTY, VIEWS
from solitaire_rl.envs.klondike.vector import KlondikeVectorEnv

F = {name: i + 1 for i, name in enumerate(ACTION_FEATURES)}


def rows_along_games(num_envs: int, steps: int, seed: int, draw_count: int = 3):
    """Observations and masks of native games played half by greedy's choice (read from the
    slots), half at random, so that foundations fill, columns empty and cards come back down."""
    env = KlondikeVectorEnv(num_envs=num_envs, draw_count=draw_count, max_episode_steps=400)
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        masks = env.action_masks()
        yield obs, masks
        encoded = klondike_actions_batch(obs, masks)
        slots = encoded[:, KLONDIKE_COMPACT_SIZE:].reshape(num_envs, SLOTS, SLOT_WIDTH)
        greedy = np.rint(slots[np.arange(num_envs), slots[:, :, F["greedy_choice"]].argmax(axis=1), 0]
                         * NUM_ACTIONS).astype(int) - 1  # -1: no legal action (the next step resets)
        random = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])  # 0: a reset step
        obs, *_ = env.step(np.where(rng.random(num_envs) < 0.5, np.maximum(greedy, 0), random))


@pytest.mark.parametrize("draw_count", [3, 1])
def test_native_inputs_equal_the_python_encoders(draw_count: int) -> None:
    used = np.zeros(SLOT_WIDTH, np.int64)  # rows where each slot feature is nonzero
    count = 0
    for obs, masks in rows_along_games(48, 300, seed=draw_count, draw_count=draw_count):
        native = klondike_actions_batch(obs, masks)
        python = np.stack([klondike_actions(o, m) for o, m in zip(obs, masks, strict=True)])
        np.testing.assert_array_equal(native, python)
        np.testing.assert_array_equal(klondike_compact_batch(obs),
                                      np.stack([klondike_compact(o) for o in obs]))
        slots = native[:, KLONDIKE_COMPACT_SIZE:].reshape(-1, SLOT_WIDTH)
        used += (slots != 0).sum(axis=0)
        count += len(obs)
    assert count == 48 * 300
    missing = [name for name, i in F.items() if used[i] == 0]
    assert not missing, f"never exercised: {missing}"


def test_encode_batch_uses_the_native_path_for_klondike_and_rows_elsewhere() -> None:
    obs, masks = next(rows_along_games(4, 1, seed=7))
    actions = find_encoding("klondike-actions", "klondike")
    assert actions.batch is not None
    np.testing.assert_array_equal(actions.encode_batch(obs, masks),
                                  np.stack([actions.encode(o, m) for o, m in zip(obs, masks, strict=True)]))
    cards = find_encoding("klondike-cards", "klondike")
    assert cards.encode_batch(obs, masks) is obs


def test_bad_rows_are_refused_with_their_row() -> None:
    obs, masks = next(rows_along_games(3, 1, seed=3))
    bad = obs.copy()
    bad[2, VIEWS["foundations"].start] = 14
    with pytest.raises(MalformedInputError, match="row 2 is not a Klondike observation"):
        klondike_compact_batch(bad)
    bad = obs.copy()
    bad[1, VIEWS["waste"].start:VIEWS["waste"].stop] = EMPTY
    bad[1, VIEWS["waste"].start + 1] = 5  # a card after the waste's end
    with pytest.raises(MalformedInputError, match="row 1 is not"):
        klondike_actions_batch(bad, masks)
    empty_waste = obs.copy()
    empty_waste[0, VIEWS["waste"]] = EMPTY
    wrong = masks.astype(np.int8)
    wrong[0, 1] = 1  # the waste's top card up, with no waste
    with pytest.raises(MalformedInputError, match="row 0 marks an action legal"):
        klondike_actions_batch(empty_waste, wrong)
    with pytest.raises(MalformedInputError, match=f"more than {SLOTS} legal actions"):
        klondike_actions_batch(obs, np.ones_like(masks))
    with pytest.raises(MalformedInputError, match="rows of 190"):
        klondike_compact_batch(obs[:, :100])
    with pytest.raises(MalformedInputError, match="masks must be 3 rows of 590"):
        klondike_actions_batch(obs, masks[:2])
    with pytest.raises(MalformedInputError, match="needs the action masks"):
        klondike_actions_batch(obs, None)
