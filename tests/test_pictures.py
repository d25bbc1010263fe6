"""render_mode="rgb_array" and "human" for both environments; RecordVideo records an agent's game."""

from __future__ import annotations

import itertools
import os

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.wrappers import RecordVideo

import solitaire_rl  # noqa: F401
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike import KlondikeGame
from solitaire_rl.envs.klondike.picture import klondike_frame, move_places
from solitaire_rl.envs.pyramid import PyramidGame
from solitaire_rl.envs.pyramid.moves import STOCK
from solitaire_rl.envs.pyramid.picture import pyramid_frame

CASES = [("Solitaire/Pyramid-v0", {}, (384, 640, 3)),
         ("Solitaire/Pyramid-v0", {"stock_top_playable": False}, (384, 640, 3)),
         ("Solitaire/Klondike-v0", {}, (560, 560, 3))]


@pytest.mark.parametrize(("env_id", "kwargs", "shape"), CASES)
def test_a_frame_has_the_right_shape_and_changes_as_the_game_does(env_id, kwargs, shape) -> None:
    env = gymnasium.make(env_id, render_mode="rgb_array", **kwargs)
    env.reset(seed=3)
    first = env.render()
    assert isinstance(first, np.ndarray) and first.shape == shape and first.dtype == np.uint8
    assert np.array_equal(first, env.render())  # the same position draws the same picture
    rng = np.random.default_rng(0)
    frames = [first]
    for _ in range(8):
        mask = env.unwrapped.action_masks()
        _, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        frames.append(env.render())
        if terminated or truncated:
            break
    assert all(not np.array_equal(a, b) for a, b in itertools.pairwise(frames))
    # the felt, white card faces and the page's card-back blue are all in the picture
    colours = {tuple(c) for c in first.reshape(-1, 3)[::7]}
    assert (27, 94, 56) in colours and (255, 255, 255) in colours
    env.close()


@pytest.mark.filterwarnings("ignore:.*render_mode='svg'")
def test_every_render_mode_passes_gymnasiums_checker_and_a_bad_one_is_refused() -> None:
    for env_id, kwargs, _ in CASES:
        env = gymnasium.make(env_id, render_mode="rgb_array", **kwargs)
        check_env(env.unwrapped, skip_render_check=False)
        with pytest.raises(MalformedInputError, match="rgb_array"):
            gymnasium.make(env_id, render_mode="svg", **kwargs)


def test_hidden_cards_are_never_drawn() -> None:
    """Two deals that differ only in face-down / unseen cards give the same picture."""
    game = KlondikeGame("klondike-random-v1-5")
    other = KlondikeGame.from_position(
        [list(col) for col in game.columns], list(game.hidden), list(game.stock), [], draw_count=3)
    other.columns[6][0], other.columns[6][1] = other.columns[6][1], other.columns[6][0]
    other.stock[0], other.stock[1] = other.stock[1], other.stock[0]
    assert np.array_equal(klondike_frame(game), klondike_frame(other))
    pyramid = PyramidGame("pyramid-random-v1-5", stock_top_playable=False)
    cards = list(pyramid.deal.cards)
    cards[50], cards[51] = cards[51], cards[50]
    assert np.array_equal(pyramid_frame(pyramid), pyramid_frame(PyramidGame(cards, stock_top_playable=False)))
    assert not np.array_equal(pyramid_frame(PyramidGame("pyramid-random-v1-5")), pyramid_frame(pyramid))


def test_a_highlighted_move_is_framed_in_the_hint_colour() -> None:
    game = KlondikeGame("klondike-random-v1-5")
    move = game.legal_moves()[0]
    framed = klondike_frame(game, move_places(game, move))
    assert (framed == (255, 95, 210)).all(axis=2).sum() > 200
    assert not (klondike_frame(game) == (255, 95, 210)).all(axis=2).any()
    pyramid = PyramidGame("pyramid-random-v1-5")
    assert (pyramid_frame(pyramid, [STOCK, 27]) == (255, 95, 210)).all(axis=2).sum() > 200


def test_record_video_writes_a_file_of_an_agents_game(tmp_path) -> None:
    folder = tmp_path / "videos"
    env = RecordVideo(gymnasium.make("Solitaire/Pyramid-v0", render_mode="rgb_array"), str(folder),
                      episode_trigger=lambda _: True, disable_logger=True)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(30):
        mask = env.unwrapped.action_masks()
        _, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            break
    env.close()
    videos = list(folder.glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 1000


def test_human_mode_shows_the_frames_in_a_window(monkeypatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame
    for env_id, _, shape in CASES[::2]:
        env = gymnasium.make(env_id, render_mode="human")
        env.reset(seed=2)
        env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))
        surface = pygame.display.get_surface()
        assert surface.get_size() == (shape[1], shape[0])
        env.close()
        assert os.environ["SDL_VIDEODRIVER"] == "dummy"


def test_the_gallery_writes_frames_of_agents_games(tmp_path) -> None:
    from solitaire_rl.training.gallery import main

    main([str(tmp_path)])
    names = sorted(p.name for p in tmp_path.glob("*.png"))
    assert "klondike-alternative.png" in names and any(n.startswith("pyramid-001-") for n in names)
    assert len(names) == 7
