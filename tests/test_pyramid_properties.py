"""Properties of random Pyramid games in both variants (hypothesis): cards are never created or lost,
undo is exact, replays are deterministic, the mask is the engine's legal moves, an illegal action
changes nothing, and the observation built move by move equals the one built from scratch."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solitaire_rl.envs.cards import FULL_DECK, rank
from solitaire_rl.envs.deals import encode_deal_code
from solitaire_rl.envs.errors import IllegalMoveError
from solitaire_rl.envs.pyramid import Move, PyramidGame
from solitaire_rl.envs.pyramid.actions import ACTION_MOVES, NUM_ACTIONS, move_to_action
from solitaire_rl.envs.pyramid.env import PyramidEnv
from solitaire_rl.envs.pyramid.layout import NUM_PYRAMID
from solitaire_rl.envs.pyramid.observation import PYRAMID_FEATURES, STOCK_FEATURES, observe, split_observation

PROPERTY_SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

decks = st.permutations(list(FULL_DECK)).map(encode_deal_code)
variants = st.booleans()
play_seeds = st.integers(0, 2**32 - 1)
P = {name: i for i, name in enumerate(PYRAMID_FEATURES)}
S = {name: i for i, name in enumerate(STOCK_FEATURES)}


def random_game(code: str, stock_top_playable: bool, seed: int, max_moves: int = 200) -> PyramidGame:
    """Play random legal moves (ending at a win or a dead end) and return the game."""
    game = PyramidGame(code, stock_top_playable=stock_top_playable)
    rng = random.Random(seed)
    for _ in range(max_moves):
        moves = game.legal_moves()
        if not moves:
            break
        game.push(rng.choice(moves))
    return game


def full_state(game: PyramidGame) -> tuple[object, ...]:
    return (game.key(), list(game.discarded), game.history, str(game), game.legal_moves(), game.cards_left)


@PROPERTY_SETTINGS
@given(decks, variants, play_seeds)
def test_cards_are_never_created_or_lost(code: str, stock_top_playable: bool, seed: int) -> None:
    game = PyramidGame(code, stock_top_playable=stock_top_playable)
    rng = random.Random(seed)
    while True:
        assert sorted(game.remaining_cards() + game.discarded) == list(FULL_DECK)
        assert len(game.stock) + len(game.waste) + game.cards_left + len(game.discarded) == 52
        moves = game.legal_moves()
        if not moves:
            break
        game.push(rng.choice(moves))
    assert game.outcome() in ("win", "dead_end")
    assert game.moves_played <= 126  # 52 removals, 72 draws, 2 recycles at most


@PROPERTY_SETTINGS
@given(decks, variants, play_seeds)
def test_undo_restores_the_exact_state_and_keeps_seen(code: str, stock_top_playable: bool, seed: int) -> None:
    game = PyramidGame(code, stock_top_playable=stock_top_playable)
    rng = random.Random(seed)
    states = [full_state(game)]
    while moves := game.legal_moves():
        game.push(rng.choice(moves))
        states.append(full_state(game))
    seen = game.seen
    while game.moves_played:
        states.pop()
        game.pop()
        assert full_state(game) == states[-1]
        assert game.seen == seen  # what was face up stays known
    assert game.moves_played == 0 and game.redo_moves


@PROPERTY_SETTINGS
@given(decks, variants, play_seeds)
def test_replays_and_redo_are_deterministic(code: str, stock_top_playable: bool, seed: int) -> None:
    game = random_game(code, stock_top_playable, seed)
    replayed = PyramidGame(code, stock_top_playable=stock_top_playable)
    replayed.replay([str(m) for m in game.history])
    assert full_state(replayed) == full_state(game) and replayed.seen == game.seen
    n = game.moves_played
    for _ in range(n):
        game.pop()
    for _ in range(n):
        game.redo()
    assert full_state(game) == full_state(replayed)
    copied = replayed.copy()
    assert full_state(copied) == full_state(replayed)


@PROPERTY_SETTINGS
@given(decks, variants, play_seeds)
def test_legal_moves_agree_with_refusal_and_stay_in_order(
    code: str, stock_top_playable: bool, seed: int
) -> None:
    game = PyramidGame(code, stock_top_playable=stock_top_playable)
    rng = random.Random(seed)
    for _ in range(12):  # every action checked at a dozen positions of the game
        legal = game.legal_moves()
        assert [m for m in ACTION_MOVES if game.refusal(m) is None] == sorted(legal, key=move_to_action)
        kings = [m for m in legal if m.kind == 0 and m.b == -1]
        assert legal[: len(kings)] == kings and legal[len(kings) :] == sorted(legal[len(kings) :])
        for move in legal:
            if move.kind == 0:
                assert sum(rank(game.card_at(p)) for p in move.places()) == 13
        if not legal:
            break
        for _ in range(rng.randint(1, 8)):
            if legal := game.legal_moves():
                game.push(rng.choice(legal))


@PROPERTY_SETTINGS
@given(decks, variants, play_seeds)
def test_an_illegal_move_changes_nothing(code: str, stock_top_playable: bool, seed: int) -> None:
    game = random_game(code, stock_top_playable, seed, max_moves=random.Random(seed).randint(0, 60))
    rng = random.Random(seed + 1)
    illegal = [m for m in ACTION_MOVES if game.refusal(m) is not None]
    before = (full_state(game), game.seen, game.redo_moves)
    for move in rng.sample(illegal, 10):
        try:
            game.push(move)
        except IllegalMoveError as exc:
            assert exc.reason == game.refusal(move).en
        else:
            raise AssertionError(f"{move} was played although refused")
        assert (full_state(game), game.seen, game.redo_moves) == before


@PROPERTY_SETTINGS
@given(decks, variants, play_seeds)
def test_env_mask_observation_and_illegal_steps(code: str, stock_top_playable: bool, seed: int) -> None:
    """The env's mask is the engine's legal moves, its incremental observation equals a fresh one,
    and an illegal action returns the same observation and mask with the refusal text."""
    env = PyramidEnv(stock_top_playable=stock_top_playable, split="any")
    obs, info = env.reset(seed=seed, options={"deal": code})
    rng = random.Random(seed)
    terminated = False
    while not terminated:
        game = env.game
        legal = [move_to_action(m) for m in game.legal_moves()]
        assert np.flatnonzero(info["action_mask"]).tolist() == sorted(legal)
        assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
        assert np.array_equal(obs, observe(game))
        assert_observation_is_the_state(obs, game)
        illegal = rng.choice([a for a in range(NUM_ACTIONS) if a not in legal])
        key = game.key()
        obs2, reward, terminated2, truncated, info2 = env.step(illegal)
        assert info2["illegal_action"] == game.refusal(ACTION_MOVES[illegal]).en
        assert game.key() == key and np.array_equal(obs2, obs) and reward == 0.0 and not terminated2
        assert np.array_equal(info2["action_mask"], info["action_mask"]) and not truncated
        obs, reward, terminated, truncated, info = env.step(rng.choice(legal))
        assert reward == (1.0 if game.is_won() else 0.0)
    assert not info["action_mask"].any() and info["outcome"] == game.outcome()


def assert_observation_is_the_state(obs: np.ndarray, game: PyramidGame) -> None:
    """Read stock, waste, pass and pyramid back from the observation and compare with the engine."""
    pyramid, stock, globals_ = split_observation(obs)
    stock_cards = game.deal.cards[NUM_PYRAMID:]

    def slots(column: int) -> list[int]:
        return [stock_cards[i] for i in np.flatnonzero(stock[:, column])]

    assert slots(S['in_waste']) == game.waste  # waste bottom..top
    assert slots(S['in_stock']) == game.stock[::-1]  # stock top..bottom
    assert sorted(slots(S['gone'])) == sorted(c for c in game.discarded if c in stock_cards)
    assert slots(S['stock_top']) == game.stock[-1:] and slots(S['waste_top']) == game.waste[-1:]
    for slot, card in enumerate(stock_cards):
        known = bool(game.seen >> card & 1)
        assert stock[slot, S['seen']] == known
        assert stock[slot, :13].tolist() == [float(known and r == rank(card)) for r in range(1, 14)]
    for pos, card in enumerate(game.pyramid):
        assert pyramid[pos, :13].argmax() + 1 == rank(card)
        assert pyramid[pos, P['on_table']] == (game.card_at(pos) is not None)
        assert pyramid[pos, P['available']] == game.is_available(pos)
    assert globals_[game.pass_number - 1] == 1 and globals_[:3].sum() == 1
    assert globals_[3] * 24 == len(game.stock) and globals_[4] * 24 == len(game.waste)
    assert round(globals_[5] * 28) == game.cards_left and globals_[6] == game.stock_top_playable


def test_observation_after_undo_is_rebuilt_from_the_engine() -> None:
    game = random_game(encode_deal_code(FULL_DECK), False, 0)
    while game.moves_played:
        seen = game.seen
        game.pop()
        _, stock, _ = split_observation(observe(game))
        seen_slots = [i for i, c in enumerate(game.deal.cards[NUM_PYRAMID:]) if seen >> c & 1]
        assert np.flatnonzero(stock[:, S['seen']]).tolist() == seen_slots
    assert Move.parse("draw") in game.legal_moves()
