"""The fast paths of the no-progress check give the exact search's answer, at every step.

``progress_possible`` answers most steps without searching (cheap exits, the memo kept from earlier
steps, going back one move) and searches over :func:`state_key`, which merges positions that differ
only by the order of their columns, by their face-down cards, or by twins (same rank and colour)
that cannot reach their foundations. Here its answer is compared with the plain exact search
started afresh in each position, once over :func:`state_key` and once over the exact positions
(:func:`search_key`, no merging), along random games.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import gymnasium
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solitaire_rl  # noqa: F401  (registers the environments)
from solitaire_rl.envs.cards import parse_card
from solitaire_rl.envs.klondike import KlondikeGame, progress
from solitaire_rl.envs.klondike.actions import ACTION_INDEX, NUM_ACTIONS
from solitaire_rl.envs.klondike.observer import observe
from tests.test_klondike_progress import build, reference_progress


def exact_search(game: KlondikeGame, key: Callable[[KlondikeGame], bytes] = progress.search_key) -> bool:
    """The exact search alone, from scratch: no cheap exit, no memo, states keyed by ``key`` (put in
    place of :func:`state_key` for the search's duration)."""
    if game.is_won():
        return False
    if game.unseen_stock():
        return True
    work = game._copy_position()
    progress._raise_all(work)
    progress._normalize(work)
    memo = progress._Memo((*game.best, game.draw_count))
    keyed = progress.state_key
    progress.state_key = key
    try:
        return progress._search(work, key(work), memo)
    finally:
        progress.state_key = keyed


def check_position(game: KlondikeGame) -> bool:
    answer = game.progress_possible()
    assert answer == exact_search(game), game.history
    assert answer == exact_search(game, progress.state_key), game.history
    fresh = game._copy_position()
    assert fresh.progress_possible() == answer, "the answer does not depend on the memo"
    return answer


games = st.builds(
    lambda number, draw: KlondikeGame(f"klondike-random-v1-{number}", draw_count=draw),
    st.integers(0, 10**9),
    st.sampled_from([3, 3, 1]),
)


@settings(max_examples=30, deadline=None)
@given(games, st.lists(st.integers(0, 10**6), min_size=1, max_size=200))
def test_the_answer_equals_the_exact_search_at_every_step(game: KlondikeGame, picks: list[int]) -> None:
    for pick in picks:
        moves = game.legal_moves()
        if not moves:
            break
        game.push(moves[pick % len(moves)])
        if not check_position(game):
            break


@pytest.mark.parametrize("seed", [11, 12])
def test_long_random_episodes_agree_with_the_exact_search_and_the_reference(seed: int) -> None:
    """Random masked play through the environment, as in training; undo steps mixed in, so the
    memo sees lines of play abandoned and resumed."""
    env = gymnasium.make("Solitaire/Klondike-v0").unwrapped
    rng = random.Random(seed)
    env.reset(seed=seed)
    verdicts = {True: 0, False: 0}
    for _ in range(1200):
        legal = np.flatnonzero(env.action_masks())
        _, _, terminated, truncated, _ = env.step(int(legal[rng.randrange(len(legal))]))
        game = env.game
        undone = not terminated and game.history and rng.random() < 0.1
        if undone:
            game.pop()
            env._mask = env._compute_mask()
        answer = check_position(game)
        verdicts[answer] += 1
        if not undone:
            assert terminated == (game.is_won() or not answer)
        if rng.random() < 0.05 or not answer:
            expected = reference_progress(game)
            assert expected is None or expected == answer, game.history
        if terminated or truncated or not answer:
            env.reset()
    assert verdicts[True] > 100 and verdicts[False] > 0, verdicts


def test_positions_that_differ_by_column_order_or_face_down_cards_share_a_key_and_an_answer() -> None:
    rng = random.Random(5)
    checked = 0
    for number in range(40):
        game = KlondikeGame(f"klondike-random-v1-{number}")
        for _ in range(rng.randrange(20, 120)):
            moves = game.legal_moves()
            if not moves:
                break
            game.push(rng.choice(moves))
        order = list(range(7))
        rng.shuffle(order)
        # the same position with its columns shuffled and its face-down cards exchanged between
        # columns (keeping each column's face-down count above zero where it was)
        down = [card for c in order for card in game.columns[c][: game.hidden[c]]]
        rng.shuffle(down)
        columns, hidden = [], []
        for c in order:
            h = game.hidden[c]
            columns.append(down[:h] + game.face_up(c))
            hidden.append(h)
            del down[:h]
        other = KlondikeGame.from_position(
            columns, hidden, stock=game.stock, waste=game.waste, foundations=game.foundations,
            draw_count=game.draw_count, best=game.best, recycles=game.recycles,
        )
        other.seen = game.seen
        assert progress.state_key(other) == progress.state_key(game)
        answer = exact_search(game)
        assert exact_search(other) == answer == other.progress_possible() == game.progress_possible()
        checked += 1
    assert checked == 40


def reference_moves(game: KlondikeGame) -> list:
    """The legal moves from the rules alone: every action's move that :meth:`refusal` accepts, in
    the documented order (draw/recycle, waste, columns to foundations, runs, foundations)."""
    candidates = [game.stock_move()] + [m for m in ACTION_INDEX if m.kind > 1]
    legal = [m for m in candidates if game.refusal(m) is None]
    return sorted(legal, key=lambda m: (max(m.kind, 1), m.src, m.dst, m.count))


@settings(max_examples=40, deadline=None)
@given(games, st.lists(st.integers(0, 10**6), min_size=1, max_size=150))
def test_the_move_generator_and_the_observation_equal_their_plain_definitions(
    game: KlondikeGame, picks: list[int]
) -> None:
    for pick in picks:
        moves = game.legal_moves()
        assert moves == reference_moves(game)
        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        mask[[ACTION_INDEX[m] for m in moves]] = True
        assert mask.sum() == len(moves)
        assert np.array_equal(observe(game), plain_observation(game))
        if not moves:
            break
        game.push(moves[pick % len(moves)])


def plain_observation(game: KlondikeGame) -> np.ndarray:
    """The observation written out from the observer's documented layout, card by card."""
    values: list[int] = []
    for c, col in enumerate(game.columns):
        row = [52 if i < game.hidden[c] else card for i, card in enumerate(col)]
        values += row + [53] * (19 - len(row))
    values += game.waste[::-1] + [53] * (24 - len(game.waste))
    stock = [card if (game.seen >> card) & 1 else 52 for card in reversed(game.stock)]
    values += stock + [53] * (24 - len(stock))
    values += game.foundations + game.best + [min(game.recycles, 31)]
    return np.array(values, dtype=np.int64)


def decode_state_key(key: bytes) -> tuple:
    """Read :func:`state_key` back: foundations, the sorted (face-up cards, has face-down cards)
    columns, the waste length (or the cycle marker) and the talon in draw order."""
    columns, pos = [], 4
    for _ in range(7):
        end = next(i for i in range(pos, len(key)) if key[i] >= 64)
        columns.append((list(key[pos:end]), key[end] == 65))
        pos = end + 1
    return list(key[:4]), sorted(columns), key[pos], list(key[pos + 1:])


def written(card: int, best: list[int]) -> int:
    """How :func:`state_key` writes ``card``: a spade or heart whose rank is at least two above both
    its own and its twin's foundation record is written as its twin (club or diamond)."""
    rank, suit = (card >> 2) + 1, card & 3
    twin = card ^ 3  # C<->S, D<->H
    if suit in (2, 3) and rank >= max(best[suit], best[twin & 3]) + 2:
        return twin
    return card


@settings(max_examples=40, deadline=None)
@given(games, st.lists(st.integers(0, 10**6), min_size=1, max_size=150))
def test_the_state_key_holds_what_decides_the_answer_and_nothing_else(
    game: KlondikeGame, picks: list[int]
) -> None:
    for pick in picks:
        moves = game.legal_moves()
        if not moves:
            break
        game.push(moves[pick % len(moves)])
        foundations, columns, marker, talon = decode_state_key(progress.state_key(game))
        best = game.best
        assert foundations == game.foundations
        assert columns == sorted(([written(c, best) for c in game.face_up(c)], game.hidden[c] > 0)
                                 for c in range(7))
        assert talon == [written(c, best) for c in game.stock_order()]
        w, n = len(game.waste), len(talon)
        on_cycle = w == n or w % game.draw_count == 0
        assert marker == (progress.ON_CYCLE if on_cycle else w)


def test_twins_are_written_alike_only_while_neither_can_reach_its_foundation() -> None:
    table = progress.twin_table([1, 0, 4, 0])
    five_c, five_s, two_s, three_s = (parse_card(n) for n in ("5C", "5S", "2S", "3S"))
    assert table[five_s] == five_c and table[three_s] == parse_card("3C")
    assert table[two_s] == two_s, "2S: clubs' record is 1, so 2C may go up"
    assert table[parse_card("6H")] == parse_card("6D") and table[parse_card("5H")] == parse_card("5H")
    assert all(table[c] == c for c in range(52) if c & 3 in (0, 1))


def test_twins_that_may_still_go_up_are_told_apart() -> None:
    # clubs' record 4, spades' 3: 5C may go up (progress), 5S may not; the two positions differ
    # only by which black five lies on 6H, and must not share a key
    up = build([["6H", "5C"]], foundations=(4, 0, 0, 3), filler_end="9H")
    stuck = build([["6H", "5S"]], foundations=(4, 0, 0, 3), filler_end="9H")
    assert up.progress_possible() and exact_search(up)
    assert not stuck.progress_possible() and not exact_search(stuck)
    assert progress.state_key(up) != progress.state_key(stuck)
    # once both records are two below the fives, the fives are written alike
    assert progress.twin_table([3, 0, 0, 3])[parse_card("5S")] == parse_card("5C")


def test_a_position_that_took_seconds_is_decided_over_few_states() -> None:
    """Met in random play: no progress is possible, which took the search 12,860 exact positions
    (seconds); the twins and the column order bring that under a thousand keys."""
    stock = ["3S", "QD", "8S", "2S", "KH", "JD", "5C", "JS", "10D", "5H"]
    game = KlondikeGame.from_position(
        [["7C", "6D", "5S", "4D", "3C"], ["KS", "QH", "JC", "10H", "9S"], ["KD"], ["8H", "10C", "9H"], ["6H"],
         ["8C", "4C", "10S", "QC", "AS", "KC"], ["7H", "8D", "7D", "7S", "6S", "5D", "4S", "3H"]],
        [0, 0, 0, 1, 0, 5, 4], stock=stock, waste=["JH", "3D", "6C", "2H", "2C", "9D", "QS", "9C", "4H"],
        foundations=(1, 2, 1, 0), recycles=3, seen=stock,
    )
    assert not game.progress_possible()
    assert len(game._progress_memo.bad) < 1000
    assert not exact_search(game)
