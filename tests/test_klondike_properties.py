"""Property tests of the Klondike engine over random games (hypothesis)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from solitaire_rl.envs.klondike import KlondikeGame
from solitaire_rl.envs.klondike.actions import ACTION_INDEX, NUM_ACTIONS, legal_actions_in, move_of
from solitaire_rl.envs.klondike.observer import OBS_NVEC, VIEWS, observe

games = st.builds(
    lambda number, draw: KlondikeGame(f"klondike-random-v1-{number}", draw_count=draw),
    st.integers(0, 10**9),
    st.sampled_from([3, 3, 1]),
)
choices = st.lists(st.integers(0, 10**6), min_size=1, max_size=150)
SETTINGS = settings(max_examples=40, deadline=None)


def all_cards(game: KlondikeGame) -> list[int]:
    columns = [c for col in game.columns for c in col]
    return sorted(columns + game.stock + game.waste + game.foundation_cards())


def state(game: KlondikeGame) -> tuple:
    return (game.key(), list(game.best), game.recycles, list(game.hidden), game.history)


def play(game: KlondikeGame, picks: list[int]):
    """Play legal moves chosen by ``picks``; yield after each one."""
    for pick in picks:
        moves = game.legal_moves()
        if not moves:
            return
        game.push(moves[pick % len(moves)])
        yield


@SETTINGS
@given(games, choices)
def test_cards_are_never_created_or_lost(game: KlondikeGame, picks: list[int]) -> None:
    for _ in play(game, picks):
        assert all_cards(game) == list(range(52))
        for c, col in enumerate(game.columns):
            assert 0 <= game.hidden[c] <= c and (not col or game.hidden[c] < len(col))
        assert all(0 <= f <= b <= 13 for f, b in zip(game.foundations, game.best, strict=True))


@SETTINGS
@given(games, choices)
def test_undo_restores_the_exact_state(game: KlondikeGame, picks: list[int]) -> None:
    for _ in play(game, picks):
        after = state(game)
        move = game.pop()
        game.push(move)
        assert state(game) == after
    while game.history:
        game.pop()
    assert game.key() == KlondikeGame(game.deal, draw_count=game.draw_count).key()
    assert game.best == [0, 0, 0, 0] and game.recycles == 0 and game.hidden == list(range(7))


@SETTINGS
@given(games, choices)
def test_replays_are_deterministic(game: KlondikeGame, picks: list[int]) -> None:
    for _ in play(game, picks):
        pass
    replayed = KlondikeGame(game.deal, draw_count=game.draw_count)
    replayed.replay([str(m) for m in game.history])
    assert state(replayed) == state(game) and replayed.seen == game.seen
    assert replayed.legal_moves() == game.legal_moves()


@SETTINGS
@given(games, choices, st.integers(0, NUM_ACTIONS - 1))
def test_the_mask_is_the_legal_moves_and_illegal_actions_change_nothing(
    game: KlondikeGame, picks: list[int], probe: int
) -> None:
    for _ in play(game, picks[:60]):
        legal = set(legal_actions_in(game))
        assert len(legal) == len(game.legal_moves()), "each legal move is one action"
        for action in (probe, (probe * 7919) % NUM_ACTIONS, 0):
            move = move_of(game, action)
            assert (action in legal) == game.is_legal(move) == (move in game.legal_moves())
            if action not in legal:
                before = (state(game), game.seen)
                reason = game.refusal(move)
                assert reason is not None
                try:
                    game.push(move)
                except ValueError as error:
                    assert reason.en in str(error)
                else:
                    raise AssertionError("an illegal move was played")
                assert (state(game), game.seen) == before
        assert all(ACTION_INDEX[m] in legal for m in game.legal_moves())


@SETTINGS
@given(games, choices)
def test_the_observation_shows_exactly_what_the_player_has_seen(game: KlondikeGame, picks: list[int]) -> None:
    for _ in play(game, picks):
        obs = observe(game)
        assert obs.shape == OBS_NVEC.shape and (obs >= 0).all() and (obs < OBS_NVEC).all()
        cards = np.concatenate([obs[VIEWS[v]] for v in ("columns", "waste", "stock")])
        shown = {int(c) for c in cards if c < 52}
        face_down = {card for c, col in enumerate(game.columns) for card in col[: game.hidden[c]]}
        expected = set(range(52)) - face_down - set(game.unseen_stock()) - set(game.foundation_cards())
        assert shown == expected
        assert list(obs[VIEWS["foundations"]]) == game.foundations
