"""Players on Klondike draw 3: legal moves, the greedy heuristic's rules, the compact encoding."""

from __future__ import annotations

import numpy as np
import pytest

from solitaire_rl.agents.base import play_episode
from solitaire_rl.agents.encodings import find_encoding
from solitaire_rl.agents.encodings.klondike_compact import KLONDIKE_CARD_FEATURES
from solitaire_rl.agents.greedy import GreedyPlayer
from solitaire_rl.agents.greedy.klondike import (
    SAFE_FOUNDATION_SCORE,
    TURN_UP_SCORE,
    KlondikeView,
    score_klondike_action,
)
from solitaire_rl.agents.random_agent import RandomPlayer
from solitaire_rl.envs.deals import DealId
from solitaire_rl.envs.klondike.actions import ACTION_INDEX, STOCK_ACTION
from solitaire_rl.envs.klondike.game import KlondikeGame
from solitaire_rl.envs.klondike.layout import DEAL_SLOTS
from solitaire_rl.envs.klondike.moves import Move
from solitaire_rl.envs.klondike.observer import UNSEEN, observe
from solitaire_rl.envs.spec import find_game
from tests.position_helpers import choices_while_observations_agree, game_positions

KLONDIKE = find_game("klondike")
COMPACT = find_encoding("klondike-compact", "klondike")
LOCATIONS = len(KLONDIKE_CARD_FEATURES) - 1


@pytest.mark.parametrize("name", ["greedy", "random"])
def test_players_play_legal_moves_only(name: str) -> None:
    player = GreedyPlayer(KLONDIKE) if name == "greedy" else RandomPlayer(3)
    env = KLONDIKE.make_env(max_episode_steps=150)
    for number in range(1, 4):
        result = play_episode(env, player, KLONDIKE.deal_id(number), KLONDIKE.cards_cleared)
        assert result.outcome in {"win", "dead_end", "no_progress", "truncated"}
        assert 0 <= result.cards_cleared <= 52 and 0 < result.steps <= 150


def test_greedy_never_reads_face_down_cards() -> None:
    """Two deals differing only in two face-down cards get the same choices while the
    observations agree."""
    cards = list(DealId.parse("klondike-random-v1-8").cards())
    down = [i for i, (col, depth) in enumerate(DEAL_SLOTS) if depth < col]
    other = list(cards)
    other[down[0]], other[down[-1]] = other[down[-1]], other[down[0]]
    compared = choices_while_observations_agree(KLONDIKE.key, cards, other, lambda: GreedyPlayer(KLONDIKE),
                                                limit=60)
    assert compared >= 1


def game_at(columns: list[list[int]], hidden: list[int], spare: list[int],
            foundations: tuple[int, ...] = (0, 0, 0, 0)) -> KlondikeGame:
    """A hand-built position; the ``spare`` cards fill the stock (24 at most), then the waste."""
    return KlondikeGame.from_position(columns=columns, hidden=hidden, stock=spare[:24], waste=spare[24:],
                                      foundations=foundations)


def position(*args, **kwargs) -> KlondikeView:
    return KlondikeView(observe(game_at(*args, **kwargs)))


@pytest.mark.parametrize("seed", [0, 1])
def test_view_decodes_what_the_game_shows(seed: int) -> None:
    """Greedy's view (which both Klondike encodings read) holds the game's piles as a player sees
    them, along random games: never a face-down or unseen card."""
    for game, obs, _ in game_positions("klondike", seed, 400):
        view = KlondikeView(obs)
        assert view.face_down == list(game.hidden)
        assert view.face_up == [list(col[down:]) for col, down in zip(game.columns, game.hidden, strict=True)]
        assert view.waste == list(reversed(game.waste))
        assert view.waste_top == (game.waste[-1] if game.waste else None)
        assert view.stock == [c if (game.seen >> c) & 1 else UNSEEN for c in reversed(game.stock)]
        assert view.foundations == list(game.foundations) and view.best == list(game.best)
        assert view.recycles == min(game.recycles, 31)


def test_greedy_turns_up_face_down_cards_first_and_prefers_the_longer_column() -> None:
    # Column 1: 3 face down under 5H; column 2: 1 face down under 5D; column 3 ends with 6S.
    table = {0, 1, 2, 18, 3, 17, 4, 23}  # AC AD AH 5H, AS 5D, 2C 6S
    view = position([[0, 1, 2, 18], [3, 17], [4, 23], [], [], [], []], [3, 1, 1, 0, 0, 0, 0],
                    [c for c in range(52) if c not in table])
    from_long = ACTION_INDEX[Move.column_to_column(0, 2, 1)]
    from_short = ACTION_INDEX[Move.column_to_column(1, 2, 1)]
    long_score, reason = score_klondike_action(view, from_long, stuck=False)
    assert long_score > score_klondike_action(view, from_short, stuck=False)[0] >= TURN_UP_SCORE
    assert "turns up" in reason
    assert score_klondike_action(view, STOCK_ACTION, stuck=False)[0] < TURN_UP_SCORE


def test_greedy_sends_low_cards_up_at_once_and_others_only_when_safe() -> None:
    view = position([[]] * 7, [0] * 7, [c for c in range(52) if c >= 16], (4, 4, 4, 4))
    assert view.safe_to_foundation(16)  # 5C: both red foundations hold a 4
    view = position([[]] * 7, [0] * 7, [c for c in range(52) if c >= 16 or c in {13, 15}], (4, 3, 4, 3))
    assert not view.safe_to_foundation(16)  # 5C: the 4 of diamonds is still out and may need it
    assert view.safe_to_foundation(4)  # 2C: always
    game = game_at([[16], [], [], [], [], [], []], [0] * 7, [c for c in range(52) if c > 16 or c in {13, 15}],
                   (4, 3, 4, 3))
    action = ACTION_INDEX[Move.column_to_foundation(0)]
    assert score_klondike_action(KlondikeView(observe(game)), action, stuck=False)[0] < 1
    assert score_klondike_action(KlondikeView(observe(game)), action, stuck=True)[0] > 1
    kings = [[0], [48], [49], [50], [51], [44], [45]]  # AC alone in column 1, then Kings and Queens
    ace = game_at(kings, [0] * 7, [c for c in range(1, 52) if c not in {44, 45, 48, 49, 50, 51}])
    assert score_klondike_action(KlondikeView(observe(ace)), action, stuck=False)[0] == SAFE_FOUNDATION_SCORE
    assert "foundation" in score_klondike_action(KlondikeView(observe(ace)), action, stuck=False)[1]


def test_compact_encoding_places_every_card_once() -> None:
    env = KLONDIKE.make_env()
    obs, info = env.reset(options={"deal": KLONDIKE.deal_id(5)})
    rng = np.random.default_rng(0)
    for _ in range(120):
        x = COMPACT.encode(obs)
        assert x.shape == (COMPACT.size,) and x.dtype == np.float32 and x.min() >= 0 and x.max() <= 1
        cards = x[: 52 * len(KLONDIKE_CARD_FEATURES)].reshape(52, -1)
        assert np.array_equal(cards[:, :LOCATIONS].sum(axis=1), np.ones(52))
        game = env.unwrapped.game
        known_down = sum(game.hidden) + len(game.unseen_stock())
        assert cards[:, LOCATIONS - 1].sum() == known_down
        assert cards[:, 10].sum() == game.cards_up
        obs, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if terminated or truncated:
            obs, info = env.reset()
    wrapped = COMPACT.wrap(KLONDIKE.make_env())
    assert wrapped.observation_space.shape == (COMPACT.size,)
    assert wrapped.reset(seed=1)[0].shape == (COMPACT.size,)


def expected_places(game: KlondikeGame) -> dict[int, tuple[int, float]]:
    """Each known card's location flag and depth, read from the game itself."""
    places: dict[int, tuple[int, float]] = {}
    for c, (col, down) in enumerate(zip(game.columns, game.hidden, strict=True)):
        up = col[down:]
        places.update({card: (c, (len(up) - 1 - i) / 12) for i, card in enumerate(up)})
    for i, card in enumerate(reversed(game.waste)):  # from the top
        places[card] = (7 if i == 0 else 8, i / 23)
    for i, card in enumerate(reversed(game.stock)):  # in draw order
        if (game.seen >> card) & 1:
            places[card] = (9, i / 23)
    for suit, top in enumerate(game.foundations):
        places.update({(rank - 1) * 4 + suit: (10, 0.0) for rank in range(1, top + 1)})
    return places


def test_compact_encoding_puts_each_card_where_the_game_has_it() -> None:
    env = KLONDIKE.make_env()
    obs, info = env.reset(options={"deal": KLONDIKE.deal_id(11)})
    rng = np.random.default_rng(3)
    for _ in range(400):
        cards = COMPACT.encode(obs)[: 52 * len(KLONDIKE_CARD_FEATURES)].reshape(52, -1)
        places = expected_places(env.unwrapped.game)
        for card in range(52):
            flag, depth = places.get(card, (LOCATIONS - 1, 0.0))
            assert np.flatnonzero(cards[card, :LOCATIONS]).tolist() == [flag], card
            assert cards[card, LOCATIONS] == np.float32(depth), card
        obs, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if terminated or truncated:
            obs, info = env.reset()


def test_compact_encoding_globals_count_what_the_game_holds() -> None:
    env = KLONDIKE.make_env()
    obs, info = env.reset(options={"deal": KLONDIKE.deal_id(12)})
    rng = np.random.default_rng(4)
    for _ in range(400):
        glob = COMPACT.encode(obs)[52 * len(KLONDIKE_CARD_FEATURES):]
        game = env.unwrapped.game
        down = np.array(game.hidden, np.float32)
        up = np.array([len(col) for col in game.columns], np.float32) - down
        expected = np.concatenate([
            down / 6, up / 13, (down + up == 0),
            [len(game.stock) / 24, len(game.waste) / 24, len(game.unseen_stock()) / 24],
            np.array(game.foundations) / 13, np.array(game.best) / 13, [min(game.recycles, 31) / 31],
        ]).astype(np.float32)
        assert np.array_equal(glob, expected)
        obs, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if terminated or truncated:
            obs, info = env.reset()
