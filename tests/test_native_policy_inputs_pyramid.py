"""The native ``pyramid-actions`` and ``pyramid-actions-relaxed``
(solitaire_rl.agents.encodings.pyramid_inputs_batch)
against the Python encoder, the reference: the same float32 values for every row, and bad input refused."""

from __future__ import annotations

import numpy as np
import pytest

from solitaire_rl.agents.encodings import find_encoding
from solitaire_rl.agents.encodings.pyramid_actions import (
    RELAXED_FEATURES,
    RELAXED_SLOT_WIDTH,
    SLOTS,
    pyramid_actions,
)
from solitaire_rl.agents.encodings.pyramid_inputs_batch import (
    pyramid_actions_batch,
    pyramid_actions_relaxed_batch,
)
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.pyramid.actions import DRAW_ACTION, NUM_ACTIONS
from solitaire_rl.envs.pyramid.observation import (
    OBSERVATION_SIZE,
    PYRAMID_FEATURES,
    STOCK_FEATURES,
    split_observation,
)
from solitaire_rl.envs.pyramid.vector import PyramidVectorEnv

F = {name: i + 1 for i, name in enumerate(RELAXED_FEATURES)}
ON_TABLE = PYRAMID_FEATURES.index("on_table")


def rows_along_games(num_envs: int, steps: int, seed: int, stock_top_playable: bool = True):
    """Observations and masks of native games played half by greedy's choice (read from the
    slots), half at random, so that pyramids clear, Kings and the stock's cards get used, and
    moves leave partners short or lost."""
    env = PyramidVectorEnv(num_envs=num_envs, stock_top_playable=stock_top_playable)
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        masks = info["action_mask"]
        yield obs, masks
        encoded = pyramid_actions_batch(obs, masks)
        slots = encoded[:, OBSERVATION_SIZE:].reshape(num_envs, SLOTS, -1)
        chosen = slots[np.arange(num_envs), slots[:, :, F["greedy_choice"]].argmax(axis=1), 0]
        greedy = np.rint(chosen.astype(np.float64) * NUM_ACTIONS).astype(int) - 1  # -1: none legal
        random = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])  # 0: a reset
        obs, _, _, _, info = env.step(np.where(rng.random(num_envs) < 0.5, np.maximum(greedy, 0), random))


@pytest.mark.parametrize("stock_top_playable", [True, False])
def test_native_inputs_equal_the_python_encoder(stock_top_playable: bool) -> None:
    used = np.zeros(RELAXED_SLOT_WIDTH, np.int64)  # rows where each slot feature is nonzero
    count = 0
    games = rows_along_games(48, 300, seed=int(stock_top_playable), stock_top_playable=stock_top_playable)
    for obs, masks in games:
        rows = list(zip(obs, masks, strict=True))
        relaxed = pyramid_actions_relaxed_batch(obs, masks)
        python = np.stack([pyramid_actions(o, m, relaxed=True) for o, m in rows])
        np.testing.assert_array_equal(relaxed, python)
        np.testing.assert_array_equal(pyramid_actions_batch(obs, masks),
                                      np.stack([pyramid_actions(o, m) for o, m in rows]))
        slots = relaxed[:, OBSERVATION_SIZE:].reshape(-1, RELAXED_SLOT_WIDTH)
        used += (slots != 0).sum(axis=0)
        count += len(obs)
    assert count == 48 * 300
    # Never set by a position an env writes: partners_freed (a removal never lowers greedy's count
    # of cards short of a partner: a matching after it, plus the pair removed, is one before it,
    # and the stock's counts fall with the cards taken) and, in 001, uses_stock.
    never = {"partners_freed"} | (set() if stock_top_playable else {"uses_stock"})
    missing = [name for name, i in F.items() if used[i] == 0 and name not in never]
    assert not missing, f"never exercised: {missing}"
    assert all(used[F[name]] == 0 for name in never)


def test_encode_batch_uses_the_native_path_for_both_action_encodings() -> None:
    obs, masks = next(rows_along_games(4, 1, seed=7))
    for name in ("pyramid-actions", "pyramid-actions-relaxed"):
        encoding = find_encoding(name, "pyramid")
        assert encoding.batch is not None
        rows = zip(obs, masks, strict=True)
        python = np.stack([encoding.encode(o, m) for o, m in rows])
        np.testing.assert_array_equal(encoding.encode_batch(obs, masks), python)
    flat = find_encoding("pyramid-flat", "pyramid")
    assert flat.encode_batch(obs, masks) is obs


def _bad(obs: np.ndarray, row: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A copy of ``obs`` and the pyramid and stock views of its ``row``."""
    bad = obs.copy()
    pyramid, stock, _ = split_observation(bad[row])
    return bad, pyramid, stock


@pytest.mark.parametrize("encode", [pyramid_actions_batch, pyramid_actions_relaxed_batch])
def test_bad_rows_are_refused_with_their_row(encode) -> None:
    obs, masks = next(rows_along_games(3, 1, seed=3))
    bad, pyramid, _ = _bad(obs, 2)
    pyramid[5, :13] = 0.0
    pyramid[5, [2, 7]] = 1.0  # two ranks at once
    with pytest.raises(MalformedInputError, match="row 2 is not a Pyramid observation"):
        encode(bad, masks)
    bad, pyramid, _ = _bad(obs, 1)
    pyramid[0, ON_TABLE] = 0.0  # the apex gone under a full pyramid
    with pytest.raises(MalformedInputError, match="row 1 is not"):
        encode(bad, masks)
    bad, _, stock = _bad(obs, 0)
    stock[3, STOCK_FEATURES.index("in_stock")] = 0.5
    with pytest.raises(MalformedInputError, match="row 0 is not"):
        encode(bad, masks)
    bad, pyramid, _ = _bad(obs, 1)
    pyramid[:5, :13] = 0.0
    pyramid[:5, 0] = 1.0  # five aces
    with pytest.raises(MalformedInputError, match="row 1 is not"):
        encode(bad, masks)
    wrong = masks.astype(np.int8)
    wrong[1, 0] = 1  # the apex removed alone while covered
    with pytest.raises(MalformedInputError, match="row 1 marks an action legal"):
        encode(obs, wrong)
    empty_stock, _, stock = _bad(obs, 0)
    stock[:, STOCK_FEATURES.index("in_stock")] = 0.0
    stock[:, STOCK_FEATURES.index("stock_top")] = 0.0
    stock[:, STOCK_FEATURES.index("gone")] = 1.0
    wrong = masks.astype(np.int8)
    wrong[0, DRAW_ACTION] = 1  # a draw with no stock
    with pytest.raises(MalformedInputError, match="row 0 marks an action legal"):
        encode(empty_stock, wrong)
    with pytest.raises(MalformedInputError, match=f"more than {SLOTS} legal actions"):
        encode(obs, np.ones_like(masks))
    with pytest.raises(MalformedInputError, match=f"rows of {OBSERVATION_SIZE}"):
        encode(obs[:, :100], masks)
    with pytest.raises(MalformedInputError, match=f"masks must be 3 rows of {NUM_ACTIONS}"):
        encode(obs, masks[:2])
    with pytest.raises(MalformedInputError, match="need the action masks"):
        encode(obs, None)


def test_corrupted_rows_are_refused_or_read_as_python_reads_them() -> None:
    """Real rows with a few values flipped and maybe one more action marked legal: the native
    encoder refuses most (reading nothing out of bounds), and every row it accepts it encodes as
    the Python encoder does."""
    rng = np.random.default_rng(5)
    rows = [row for obs, masks in rows_along_games(16, 60, seed=9) for row in zip(obs, masks, strict=True)]
    accepted = refused = 0
    for _ in range(4000):
        o, m = (a.copy() for a in rows[rng.integers(len(rows))])
        flips = rng.integers(OBSERVATION_SIZE, size=rng.integers(0, 3))
        o[flips] = 1.0 - o[flips]
        if rng.random() < 0.5:
            m[rng.integers(NUM_ACTIONS)] = 1
        try:
            native = pyramid_actions_relaxed_batch(o[None], m[None])[0]
        except MalformedInputError:
            refused += 1
            continue
        accepted += 1
        np.testing.assert_array_equal(native, pyramid_actions(o, m, relaxed=True))
    assert accepted > 200 and refused > 2000
