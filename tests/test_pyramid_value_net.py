"""The known-stock value-network diagnostic (benchmarks/diagnostics/pyramid_value_net.py): its encoding reads
the position it is given, and its three steps run end to end."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks" / "diagnostics"))

import pyramid_value_net as vn  # noqa: E402

from solitaire_rl.agents.planner.pimc import unseen_places  # noqa: E402
from solitaire_rl.envs.cards import rank  # noqa: E402
from solitaire_rl.envs.pyramid.actions import ACTION_MOVES, NUM_ACTIONS, fill_action_mask  # noqa: E402
from solitaire_rl.envs.pyramid.game import PyramidGame  # noqa: E402
from solitaire_rl.envs.pyramid.layout import NUM_PYRAMID  # noqa: E402
from tests.position_helpers import game_positions  # noqa: E402


def known_stock_games(seed: int) -> list[PyramidGame]:
    """Positions of random play (both variants, by ``seed``) whose whole stock has been seen."""
    variant = "pyramid" if seed % 2 else "pyramid-001"
    return [game for game, _, _ in game_positions(variant, seed, 300) if not unseen_places(game)]


@pytest.mark.parametrize("seed", range(6))
def test_features_hold_the_position_and_the_pairs(seed: int) -> None:
    positions = known_stock_games(seed)
    assert positions
    for game in positions:
        x = vn.afterstate_features(game)
        assert x.shape == (vn.FEATURES,)
        pyramid = x[:NUM_PYRAMID * vn.SLOT].reshape(NUM_PYRAMID, vn.SLOT)
        stock_start = NUM_PYRAMID * vn.SLOT
        stock = x[stock_start:stock_start + vn.NUM_STOCK * vn.SLOT].reshape(vn.NUM_STOCK, vn.SLOT)
        passes = x[stock_start + vn.NUM_STOCK * vn.SLOT:][:3]
        pairs = x[-NUM_PYRAMID * vn.NUM_STOCK:].reshape(NUM_PYRAMID, vn.NUM_STOCK)
        pyramid_ranks = [0 if (game.removed >> p) & 1 else rank(game.pyramid[p]) for p in range(NUM_PYRAMID)]
        order = game.stock_order()
        stock_ranks = [rank(c) for c in order] + [0] * (vn.NUM_STOCK - len(order))
        for p, r in enumerate(pyramid_ranks):
            assert pyramid[p, :13].sum() == (r > 0) and (r == 0 or pyramid[p, r - 1] == 1)
            assert pyramid[p, 13] == game.is_available(p)
        for i, r in enumerate(stock_ranks):
            assert stock[i, :13].sum() == (r > 0) and (r == 0 or stock[i, r - 1] == 1)
            assert stock[i, 13] == (i < len(game.waste))
        assert passes.tolist() == [float(k + 1 == game.pass_number) for k in range(3)]
        expected = [[float(a > 0 and b > 0 and a + b == 13) for b in stock_ranks] for a in pyramid_ranks]
        assert pairs.tolist() == expected


def test_afterstates_are_the_positions_after_each_move() -> None:
    game = known_stock_games(0)[0]
    key = game.key()
    legal = np.flatnonzero(fill_action_mask(game.legal_moves(), np.zeros(NUM_ACTIONS, np.int8)))
    rows = vn.afterstates(game, legal)
    for action, row in zip(legal, rows, strict=True):
        after = game.copy()
        after.push(ACTION_MOVES[int(action)])
        assert np.array_equal(row, vn.afterstate_features(after))
    assert game.key() == key  # the position itself is left as it was


def test_generate_fit_and_play_run_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "d.npz"
    vn.generate(argparse.Namespace(game="pyramid", deals="1000000-1000019", epsilon=0.1, seed=0,
                                   out=str(data)))
    saved = np.load(data)
    labels, groups, picks = saved["labels"], saved["groups"], saved["greedy_pick"]
    assert len(labels) == len(saved["features"]) > 0
    assert set(np.unique(labels)) <= {0.0, 0.5, 1.0}
    for group in np.unique(groups):  # one greedy move per position, and some move keeps it winnable
        assert picks[groups == group].sum() == 1 and labels[groups == group].max() == 1
    weights = tmp_path / "v.pt"
    vn.fit(argparse.Namespace(data=[str(data)], out=str(weights), epochs=1, width=16, seed=0,
                              torch_threads=1))
    vn.play(argparse.Namespace(game="pyramid", net=str(weights), deals="1-3", margins="0.5", width=16))
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{data}: ") and lines[2].startswith("epoch 0: loss ")
    assert "held-out accuracy" in lines[2]
    assert lines[-2].startswith("pyramid-000 greedy+relaxed: ") and lines[-2].endswith(" of 3 deals won")
    assert lines[-1].startswith("pyramid-000 greedy+relaxed, network's move by a margin of 0.5: ")
