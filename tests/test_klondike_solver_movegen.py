"""The native Klondike move generation against the Python engine, over thousands of positions
reached by random play (draw 3 and draw 1).

1. The native replayer's atomic actions are exactly the engine's legal moves.
2. The search's moves with its dominances off are exactly the engine's moves, seen as the search
   sees them: a talon card is one move wherever draws and recycles can bring it to the waste top
   (the "K+" talon: the engine's draws are followed to every waste top they reach); and three
   rules that stay on are applied to the engine's list here: a King at the bottom of a column
   never moves, a run that would empty its column moves only if some King could ever use the
   empty column, and one empty column stands for all as a target.
3. With the dominances on, every move the search tries, expanded into atomic actions, is legal in
   the engine; its forced move lifts a card that Keller's safe rule or a canonical lift allows.
"""

from __future__ import annotations

import random

import pytest

from solitaire_rl.agents.solver.klondike import (
    klondike_forced_move,
    klondike_generated_moves,
    klondike_legal_actions,
    native_move,
)
from solitaire_rl.envs.klondike import DRAW_MOVE, RECYCLE_MOVE, KlondikeGame, Move
from solitaire_rl.envs.klondike.moves import (
    COLUMN_COLUMN,
    COLUMN_FOUNDATION,
    DRAW,
    FOUNDATION_COLUMN,
    RECYCLE,
    WASTE_COLUMN,
)

KING = 13


def random_positions(draw: int, count: int, seed: int):
    """Positions of random play: favour foundation moves a little so foundations fill up too."""
    rng = random.Random(seed)
    produced = 0
    deal = 0
    while produced < count:
        deal += 1
        game = KlondikeGame(f"klondike-random-v1-{seed * 1000 + deal}", draw_count=draw)
        for _ in range(rng.randrange(20, 160)):
            moves = game.legal_moves()
            if not moves or game.is_won():
                break
            ups = [m for m in moves if m.kind in (2, 4)]
            game.push(rng.choice(ups) if ups and rng.random() < 0.5 else rng.choice(moves))
            if rng.random() < 0.3:
                produced += 1
                yield game
                if produced >= count:
                    return


def king_could_use_an_empty_column(game: KlondikeGame) -> bool:
    if any(c >> 2 == KING - 1 for col in game.columns for c in col[1:]):
        return True
    if any(c >> 2 == KING - 1 for c in game.stock + game.waste):
        return True
    return KING in game.foundations


def engine_moves_as_the_search_sees_them(game: KlondikeGame) -> set[tuple]:
    """The engine's moves with the search's three standing rules and the K+ talon."""
    empty = [t for t, col in enumerate(game.columns) if not col]
    first_empty = empty[0] if empty else None
    moves: set[tuple] = set()
    for m in game.legal_moves():
        if m.kind in (DRAW, RECYCLE) or m.kind in (2, WASTE_COLUMN):
            continue  # the talon is covered below
        if m.dst in empty and m.dst != first_empty and m.kind in (COLUMN_COLUMN, FOUNDATION_COLUMN):
            continue
        if m.kind == COLUMN_COLUMN:
            col, hidden = game.columns[m.src], game.hidden[m.src]
            whole_column = m.count == len(col) and hidden == 0
            if whole_column and (col[0] >> 2 == KING - 1 or not king_could_use_an_empty_column(game)):
                continue
        moves.add(tuple(m))
    # Every waste top that draws and recycles can bring up, and the moves of that card.
    talon = game.copy()
    total = len(talon.stock) + len(talon.waste)
    for _ in range(2 * total + 4):
        if talon.waste:
            card = talon.waste[-1]
            for m in talon.legal_moves():
                if m.kind == 2 or (m.kind == WASTE_COLUMN and (m.dst not in empty or m.dst == first_empty)):
                    moves.add(("talon", card, m.kind, m.dst))
        if not talon.stock and not talon.waste:
            break
        talon.push(talon.stock_move())
    return moves


def native_moves(game: KlondikeGame, dominances: bool) -> list[list[Move]]:
    generated = klondike_generated_moves(game, game.draw_count, dominances=dominances)
    return [[native_move(a) for a in actions] for actions in generated], generated


def signature(actions: list[tuple]) -> tuple:
    kind, _src, dst, _count, card = actions[-1]
    if kind in (2, WASTE_COLUMN):
        return ("talon", card, kind, dst)
    return tuple(native_move(actions[-1]))


@pytest.mark.parametrize("draw", [3, 1])
def test_native_replayer_actions_are_the_engines_legal_moves(draw: int) -> None:
    checked = 0
    for game in random_positions(draw, 1500, seed=draw):
        native = sorted(tuple(native_move(a)) for a in klondike_legal_actions(game, draw))
        engine = sorted(tuple(m) for m in game.legal_moves())
        assert native == engine, (str(game), native, engine)
        checked += 1
    assert checked == 1500


@pytest.mark.parametrize("draw", [3, 1])
def test_unpruned_search_moves_are_the_engines_moves(draw: int) -> None:
    for game in random_positions(draw, 1500, seed=10 + draw):
        moves, generated = native_moves(game, dominances=False)
        for line in moves:  # each move, draws expanded, plays in the engine
            copy = game.copy()
            for move in line:
                copy.push(move)
        native = [signature(actions) for actions in generated]
        assert len(native) == len(set(native)), str(game)  # each move once
        assert set(native) == engine_moves_as_the_search_sees_them(game), str(game)


def keller_safe(game: KlondikeGame, card: int) -> bool:
    """Keller's rule: rank r goes up safely when both opposite-colour foundations hold r-2 or more
    and the other same-colour one r-3 or more (Aces and Twos always)."""
    r, s = (card >> 2) + 1, card & 3
    fnd = game.foundations
    others = [t for t in range(4) if (t in (1, 2)) != (s in (1, 2))]
    twin = 3 - s
    return all(fnd[t] >= r - 2 for t in others) and fnd[twin] >= r - 3


@pytest.mark.parametrize("draw", [3, 1])
def test_search_moves_with_dominances_are_legal_and_forced_moves_are_safe(draw: int) -> None:
    forced_seen = 0
    for game in random_positions(draw, 1000, seed=20 + draw):
        moves, _ = native_moves(game, dominances=True)
        unpruned = {tuple(line[-1]) for line in native_moves(game, dominances=False)[0]}
        for line in moves:
            copy = game.copy()
            for move in line:
                copy.push(move)
            if len(line) == 1 or all(m in (DRAW_MOVE, RECYCLE_MOVE) for m in line[:-1]):
                assert tuple(line[-1]) in unpruned  # a single move is one the plain search has too
        actions = klondike_forced_move(game, draw)
        if actions:
            forced_seen += 1
            forced = [native_move(a) for a in actions]
            last, card = forced[-1], actions[-1][4]
            copy = game.copy()
            for move in forced:
                copy.push(move)
            assert last.kind in (COLUMN_FOUNDATION, 2) and copy.foundations[card & 3] == (card >> 2) + 1
            if last.kind == COLUMN_FOUNDATION:
                col, hidden = game.columns[last.src], game.hidden[last.src]
                below_safe = card >> 2 == 0 or keller_safe(game, card - 4)
                comes_back = len(col) - 1 > hidden or (len(col) == 1 and card >> 2 == KING - 1)
                assert keller_safe(game, card) or (comes_back and below_safe), str(game)
            else:
                assert draw == 1 and keller_safe(game, card)  # talon cards are forced only with draw 1
    assert forced_seen >= 50
