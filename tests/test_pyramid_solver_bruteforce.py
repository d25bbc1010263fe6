"""On reduced games (fewer rows, short stocks, small decks, fewer passes) a plain brute-force
search written here in Python, from the rules alone, agrees with every native verdict; and every
native winning line wins under these rules."""

from __future__ import annotations

import random
from functools import cache

import pytest

from solitaire_rl.agents.solver import PyramidPosition, SearchLimits, pyramid_legal_moves, solve_pyramid
from solitaire_rl.envs.cards import make_card, rank
from solitaire_rl.envs.pyramid import DRAW_MOVE, RECYCLE_MOVE, STOCK, WASTE, Move

# A plain state: (removed, stock, waste, pass); stock lists cards top first, waste bottom first.
State = tuple[int, tuple[int, ...], tuple[int, ...], int]


class BruteForce:
    """The Pyramid rules on a reduced game, and an exhaustive memoised search over them."""

    def __init__(self, position: PyramidPosition) -> None:
        self.position = position
        self.cards = position.pyramid
        self.size = len(self.cards)
        self.cover = [position.cover_mask(p) for p in range(self.size)]

    def start(self) -> State:
        p = self.position
        waste = p.stock[: p.waste_count]
        stock = p.stock[p.waste_count :]
        return p.removed, stock, waste, p.pass_number

    def card(self, state: State, place: int) -> int:
        _, stock, waste, _ = state
        if place == STOCK:
            return stock[0]
        if place == WASTE:
            return waste[-1]
        return self.cards[place]

    def legal_moves(self, state: State) -> list[Move]:
        removed, stock, waste, pass_number = state
        if removed == (1 << self.size) - 1:
            return []
        places = [
            p for p in range(self.size)
            if not removed >> p & 1 and removed & self.cover[p] == self.cover[p]
        ]
        if self.position.stock_top_playable and stock:
            places.append(STOCK)
        if waste:
            places.append(WASTE)
        moves = [Move.remove(p) for p in places if rank(self.card(state, p)) == 13]
        for i, p in enumerate(places):
            for q in places[i + 1 :]:
                if rank(self.card(state, p)) + rank(self.card(state, q)) == 13:
                    moves.append(Move.remove(p, q))
        if stock:
            moves.append(DRAW_MOVE)
        elif waste and pass_number < self.position.max_passes:
            moves.append(RECYCLE_MOVE)
        return moves

    def play(self, state: State, move: Move) -> State:
        assert move in self.legal_moves(state), f"illegal {move} in {state}"
        removed, stock, waste, pass_number = state
        if move == DRAW_MOVE:
            return removed, stock[1:], (*waste, stock[0]), pass_number
        if move == RECYCLE_MOVE:
            return removed, waste, (), pass_number + 1
        for place in move.places():
            if place == STOCK:
                stock = stock[1:]
            elif place == WASTE:
                waste = waste[:-1]
            else:
                removed |= 1 << place
        return removed, stock, waste, pass_number

    def is_won(self, state: State) -> bool:
        return state[0] == (1 << self.size) - 1

    def winnable(self) -> bool:
        @cache
        def search(state: State) -> bool:
            return self.is_won(state) or any(search(self.play(state, m)) for m in self.legal_moves(state))

        return search(self.start())


def random_closed_removed(rows: int, rng: random.Random) -> int:
    """A removed set the rules can reach: cards taken off the bottom in a random order."""
    size = rows * (rows + 1) // 2
    probe = PyramidPosition(pyramid=tuple(range(size)), rows=rows)
    removed = 0
    for _ in range(rng.randrange(size + 1)):
        free = [
            p for p in range(size)
            if not removed >> p & 1 and removed & probe.cover_mask(p) == probe.cover_mask(p)
        ]
        if not free:
            break
        removed |= 1 << rng.choice(free)
    return removed


def random_small_position(rng: random.Random) -> PyramidPosition:
    """A small deal from a few ranks (so that pairs are common), possibly part-played."""
    rows = rng.randint(1, 4)
    size = rows * (rows + 1) // 2
    n_stock = rng.randint(0, 9)
    base = rng.sample(range(1, 13), rng.randint(1, 4))
    ranks = set(base) | {13 - r for r in base if rng.random() < 0.8}
    if rng.random() < 0.3:
        ranks.add(13)
    deck = [make_card(r, s) for r in sorted(ranks) for s in range(4)]
    while len(deck) < size + n_stock:
        extra = rng.randint(1, 13)
        deck += [make_card(extra, s) for s in range(4) if make_card(extra, s) not in deck]
    cards = rng.sample(deck, size + n_stock)
    fresh = rng.random() < 0.5
    max_passes = rng.choice((1, 2, 3, 3))
    stock = tuple(cards[size:])
    return PyramidPosition(
        pyramid=tuple(cards[:size]),
        stock=stock,
        removed=0 if fresh else random_closed_removed(rows, rng),
        waste_count=0 if fresh else rng.randint(0, len(stock)),
        pass_number=1 if fresh else rng.randint(1, max_passes),
        stock_top_playable=rng.random() < 0.5,
        rows=rows,
        max_passes=max_passes,
    )


@pytest.mark.parametrize("seed", range(6))
def test_native_verdicts_agree_with_brute_force_on_small_games(seed: int) -> None:
    """500 random small games per seed: same verdict, and every native line wins by the rules."""
    rng = random.Random(seed)
    outcomes = {True: 0, False: 0}
    for _ in range(500):
        position = random_small_position(rng)
        brute = BruteForce(position)
        expected = brute.winnable()
        result = solve_pyramid(position, limits=SearchLimits(time_limit=None))
        assert result.winnable is expected, position
        outcomes[expected] += 1
        if expected:
            state = brute.start()
            for move in result.line:
                state = brute.play(state, move)
            assert brute.is_won(state), position
    assert min(outcomes.values()) > 50  # both verdicts are well represented


def test_native_legal_moves_match_brute_force_rules_on_small_games() -> None:
    """The native move generator follows the same rules on reduced games too, in the same order."""
    rng = random.Random(99)
    for _ in range(2000):
        position = random_small_position(rng)
        assert pyramid_legal_moves(position) == BruteForce(position).legal_moves(BruteForce(position).start())
