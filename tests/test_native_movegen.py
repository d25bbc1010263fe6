"""Differential test: the native move generator and the Python engine agree on the legal moves
(same moves, same order) of thousands of random positions of both variants."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from solitaire_rl.agents.solver import PyramidPosition, pyramid_legal_moves
from solitaire_rl.envs.pyramid import PyramidGame


def random_positions(seed: int, deals: int) -> list[PyramidGame]:
    """Every position of random playouts (random legal moves, undo now and then)."""
    rng = random.Random(seed)
    positions = []
    for number in range(deals):
        game = PyramidGame(f"pyramid-random-v1-{seed * 1000 + number}", stock_top_playable=number % 2 == 0)
        for _ in range(150):
            positions.append(game.copy())
            moves = game.legal_moves()
            if not moves:
                break
            if game.moves_played and rng.random() < 0.1:
                game.pop()
            else:
                game.push(rng.choice(moves))
    return positions


def test_native_and_engine_agree_on_legal_moves_of_random_playouts() -> None:
    positions = random_positions(seed=1, deals=120)
    assert len(positions) > 5000
    kinds = set()
    for game in positions:
        expected = game.legal_moves()
        assert pyramid_legal_moves(game) == expected, str(game)
        kinds.update((m.kind, m.a >= 28, m.b >= 28) for m in expected)
    assert len(kinds) >= 6  # pairs with stock and waste, Kings, draws and recycles all occur


def test_native_agrees_on_positions_built_directly() -> None:
    """The same through PyramidPosition, including the last pass with no recycle left."""
    for game in random_positions(seed=2, deals=30):
        assert pyramid_legal_moves(PyramidPosition.from_game(game)) == game.legal_moves()


@settings(max_examples=200, deadline=None)
@given(number=st.integers(0, 10**6), choices=st.lists(st.integers(0, 10**6), max_size=120),
       variant=st.sampled_from(["000", "001"]))
def test_native_and_engine_agree_along_any_line(number: int, choices: list[int], variant: str) -> None:
    game = PyramidGame(f"pyramid-random-v1-{number}", stock_top_playable=variant == "000")
    for choice in choices:
        moves = game.legal_moves()
        assert pyramid_legal_moves(game) == moves
        if not moves:
            break
        game.push(moves[choice % len(moves)])
