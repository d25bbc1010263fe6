"""The environment API researchers expect (issue 52), for both games: deal splits, independent vector
deal streams, the outcome of every final step, the compact Klondike observation, the Dict
observation with its mask, action names and their parser, saving and restoring a native sub-env,
and vector rendering."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode

import solitaire_rl  # noqa: F401  (registers the environments)
from solitaire_rl.envs.deals import DealId
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike import actions as klondike_actions
from solitaire_rl.envs.klondike.game import KlondikeGame
from solitaire_rl.envs.klondike.observer import OBS_NVEC
from solitaire_rl.envs.native_batch import spawn_seeds
from solitaire_rl.envs.pyramid import actions as pyramid_actions
from solitaire_rl.envs.splits import BENCHMARK, EVAL, TRAIN
from solitaire_rl.envs.wrappers import ActionMaskObservation, TruncationOutcome

GAMES = {"pyramid": "Solitaire/Pyramid-v0", "klondike": "Solitaire/Klondike-v0"}
ACTIONS = {"pyramid": pyramid_actions, "klondike": klondike_actions}


def make_vec(game: str, num_envs: int, **kwargs: Any) -> Any:
    return gymnasium.make_vec(GAMES[game], num_envs=num_envs, vectorization_mode="vector_entry_point",
                              **kwargs)


def random_legal(rng: np.random.Generator, mask: np.ndarray) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


# --------------------------------------------------------------------------- splits
@pytest.mark.parametrize("game", GAMES)
def test_a_plain_env_deals_train_deals_only_single_and_vector(game: str) -> None:
    env = gymnasium.make(GAMES[game])
    numbers = [DealId.parse(env.reset(seed=s)[1]["deal_id"]).number for s in range(50)]
    assert all(n in TRAIN for n in numbers)
    vector = make_vec(game, 8)
    _, info = vector.reset(seed=3)
    for _ in range(3):
        assert all(n in TRAIN for n in info["deal_number"])
        _, info = vector.reset()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("split", [EVAL, BENCHMARK])
def test_an_env_of_a_split_draws_from_it(game: str, split: Any) -> None:
    env = gymnasium.make(GAMES[game], split=split.name)
    assert all(DealId.parse(env.reset(seed=s)[1]["deal_id"]).number in split for s in range(30))
    _, info = make_vec(game, 6, split=split.name).reset(seed=1)
    assert all(n in split for n in info["deal_number"])


@pytest.mark.parametrize("game", GAMES)
def test_a_train_env_refuses_a_benchmark_deal_and_changes_nothing(game: str) -> None:
    env = gymnasium.make(GAMES[game])
    obs, info = env.reset(seed=1)
    for deal in (f"{game}-random-v1-5", f"{game}-random-v1-100001", DealId(game, "random", 1, 7).cards()):
        with pytest.raises(MalformedInputError, match=r"train split.*split='any'"):
            env.reset(options={"deal": deal})
        assert env.unwrapped.game.deal.label == info["deal_id"]
    first_train = f"{game}-random-v1-1000000"
    assert env.reset(options={"deal": first_train})[1]["deal_id"] == first_train
    vector = make_vec(game, 2)
    obs, info = vector.reset(seed=1)
    with pytest.raises(MalformedInputError, match="train split"):
        vector.reset(options={"deals": [None, f"{game}-random-v1-5"]})
    assert np.array_equal(vector.unwrapped.batch.obs, obs)
    for maker in (lambda: gymnasium.make(GAMES[game], split="any"), lambda: make_vec(game, 1, split="any")):
        _, any_info = maker().reset(options={"deal": f"{game}-random-v1-5"})
        assert f"{game}-random-v1-5" in np.atleast_1d(any_info["deal_id"])


def test_a_train_env_refuses_a_position_and_an_unknown_split() -> None:
    with pytest.raises(MalformedInputError, match="split='any'"):
        gymnasium.make(GAMES["klondike"]).reset(options={"game": KlondikeGame("klondike-random-v1-3")})
    with pytest.raises(MalformedInputError, match="split must be one of"):
        gymnasium.make(GAMES["pyramid"], split="test")
    with pytest.raises(MalformedInputError, match="split must be one of"):
        make_vec("klondike", 2, split="validation")


# --------------------------------------------------------------------------- seeds
@pytest.mark.parametrize("game", GAMES)
def test_two_seeds_share_no_deal_stream(game: str) -> None:
    """16 sub-envs seeded 1 and 16 seeded 2 (``seed + i`` shared 15 of 16 streams) deal no common
    deal over 20 resets."""
    dealt: dict[int, set[int]] = {}
    for seed in (1, 2):
        env = make_vec(game, 16)
        _, info = env.reset(seed=seed)
        numbers = set(info["deal_number"].tolist())
        for _ in range(19):
            numbers |= set(env.reset()[1]["deal_number"].tolist())
        dealt[seed] = numbers
        assert len(numbers) == 16 * 20
    assert not dealt[1] & dealt[2]


def test_a_sub_env_deals_what_the_single_env_seeded_with_its_stream_deals() -> None:
    streams = spawn_seeds(7, 4)
    assert len(set(streams)) == 4 and streams == spawn_seeds(7, 4) and streams != spawn_seeds(8, 4)
    _, info = make_vec("pyramid", 4).reset(seed=7)
    single = gymnasium.make(GAMES["pyramid"])
    assert list(info["deal_id"]) == [single.reset(seed=s)[1]["deal_id"] for s in streams]
    with pytest.raises(MalformedInputError, match="non-negative"):
        spawn_seeds(-1, 2)


# --------------------------------------------------------------------------- outcome
@pytest.mark.parametrize("game", GAMES)
def test_every_final_step_says_how_the_episode_ended(game: str) -> None:
    single = TruncationOutcome(gymnasium.make(GAMES[game], max_episode_steps=3))
    single.reset(seed=0)
    rng = np.random.default_rng(0)
    for step in range(3):
        _, _, terminated, truncated, info = single.step(random_legal(rng, single.unwrapped.action_masks()))
        assert truncated == (step == 2) and not terminated
    assert info["outcome"] == "truncated"
    for autoreset in (AutoresetMode.NEXT_STEP, AutoresetMode.DISABLED):
        vector = make_vec(game, 3, max_episode_steps=3, autoreset_mode=autoreset)
        vector.reset(seed=0)
        for _ in range(3):
            _, _, terminated, truncated, info = vector.step(np.array([random_legal(rng, m)
                                                                      for m in vector.action_masks()]))
        assert truncated.all() and not terminated.any()
        assert list(info["outcome"]) == ["truncated"] * 3 and info["_outcome"].all()


def test_the_project_maker_writes_the_truncation_outcome() -> None:
    from solitaire_rl.envs.spec import find_game

    env = find_game("klondike").make_env(max_episode_steps=2)
    env.reset(seed=1)
    env.step(0)
    assert env.step(0)[-1]["outcome"] == "truncated"


# --------------------------------------------------------------------------- observations
def test_the_compact_klondike_observation_is_a_uint8_box_with_the_same_values() -> None:
    box = gymnasium.make(GAMES["klondike"], obs_type="box")
    plain = gymnasium.make(GAMES["klondike"])
    space = box.observation_space
    assert isinstance(space, gymnasium.spaces.Box) and space.dtype == np.uint8 and space.shape == (190,)
    assert np.array_equal(space.high, OBS_NVEC - 1)
    check_env(box.unwrapped, skip_render_check=True)
    obs, _ = box.reset(seed=4)
    ref, _ = plain.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(40):
        assert obs.dtype == np.uint8 and np.array_equal(obs, ref) and obs in space
        action = random_legal(rng, box.unwrapped.action_masks())
        obs, ref = box.step(action)[0], plain.step(action)[0]
    vector = make_vec("klondike", 3, obs_type="box")
    vobs, _ = vector.reset(seed=2)
    assert vobs.dtype == np.uint8 and vobs in vector.observation_space
    assert vobs.nbytes * 8 == make_vec("klondike", 3).reset(seed=2)[0].nbytes
    with pytest.raises(MalformedInputError, match="obs_type"):
        gymnasium.make(GAMES["klondike"], obs_type="onehot")


@pytest.mark.parametrize("game", GAMES)
def test_the_dict_observation_carries_the_mask_and_passes_check_env(game: str) -> None:
    env = ActionMaskObservation(gymnasium.make(GAMES[game]).unwrapped)
    check_env(env, skip_render_check=True)
    wrapped = ActionMaskObservation(gymnasium.make(GAMES[game]))
    obs, info = wrapped.reset(seed=5)
    assert set(obs) == {"observation", "action_mask"} and obs in wrapped.observation_space
    rng = np.random.default_rng(5)
    for _ in range(20):
        assert np.array_equal(obs["action_mask"], info["action_mask"]) and obs["action_mask"].dtype == np.int8
        assert np.array_equal(wrapped.action_masks(), obs["action_mask"].astype(bool))
        obs, _, terminated, _, info = wrapped.step(random_legal(rng, obs["action_mask"]))
        if terminated:
            break


# --------------------------------------------------------------------------- action names
@pytest.mark.parametrize("game", GAMES)
def test_action_names_parse_back_on_every_legal_action_along_random_games(game: str) -> None:
    actions = ACTIONS[game]
    assert [actions.parse_action(actions.action_name(a)) for a in range(actions.NUM_ACTIONS)] \
        == list(range(actions.NUM_ACTIONS))
    env = gymnasium.make(GAMES[game])
    rng = np.random.default_rng(11)
    checked = 0
    for seed in range(6):
        _, info = env.reset(seed=seed)
        for _ in range(150):
            legal = np.flatnonzero(info["action_mask"])
            if not len(legal):
                break
            for a in legal:
                name = env.unwrapped.action_name(a)
                assert env.unwrapped.parse_action(name) == a
                assert env.unwrapped.parse_action(name.upper()) == a
                checked += 1
            _, _, terminated, truncated, info = env.step(int(rng.choice(legal)))
            if terminated or truncated:
                break
    assert checked > 500
    for bad in ("c8>f", "r9c1", "", "draw recycle", 3):
        with pytest.raises(MalformedInputError):
            actions.parse_action(bad)  # type: ignore[arg-type]


def test_move_spellings_parse_to_their_actions() -> None:
    assert klondike_actions.parse_action("draw") == klondike_actions.parse_action("Recycle") == 0
    assert klondike_actions.action_name(klondike_actions.parse_action("c2 : 3 > c5")) == "c2:3>c5"
    assert pyramid_actions.parse_action("r7c2+r7c1") == pyramid_actions.parse_action("r7c1+r7c2")
    assert pyramid_actions.action_name(pyramid_actions.parse_action("r7c3")) == "r7c3 (King)"
    assert make_vec("pyramid", 1).parse_action("draw") == pyramid_actions.DRAW_ACTION


# --------------------------------------------------------------------------- native state
@pytest.mark.parametrize("game", GAMES)
def test_set_state_of_get_state_reproduces_the_same_step(game: str) -> None:
    env = make_vec(game, 4, autoreset_mode=AutoresetMode.DISABLED, max_episode_steps=400)
    other = make_vec(game, 4, autoreset_mode=AutoresetMode.DISABLED, max_episode_steps=400)
    env.reset(seed=21)
    other.reset(seed=99)
    rng = np.random.default_rng(21)
    for _ in range(120):
        masks = env.action_masks()
        actions = np.array([random_legal(rng, m) if m.any() else 0 for m in masks])
        saved = [env.get_state(i) for i in range(4)]
        first = env.step(actions)
        for i in range(4):  # back to where it was: the same step again, in this env and another
            env.set_state(i, saved[i])
            other.set_state(3 - i, saved[i])
        again = env.step(actions)
        elsewhere = other.step(actions[::-1])
        for k in range(4):
            assert np.array_equal(first[k], again[k])
            assert np.array_equal(first[k][::-1], elsewhere[k])
        for key in ("action_mask", "deal_id", "outcome"):
            if key in first[4]:
                assert list(map(str, first[4][key])) == list(map(str, again[4][key]))


@pytest.mark.parametrize("game", GAMES)
def test_a_malformed_state_is_refused_and_changes_nothing(game: str) -> None:
    env = make_vec(game, 2)
    obs, _ = env.reset(seed=1)
    state = env.get_state(0)
    broken = dict(state)
    key = "columns" if game == "klondike" else "pyramid_ranks"
    broken[key] = state[key][:-1]
    for bad in (broken, {**state, "elapsed": -1}, "state", {**state, "colour": 1}):
        with pytest.raises(MalformedInputError, match="state"):
            env.set_state(0, bad)
    with pytest.raises(MalformedInputError, match="sub-env"):
        env.set_state(2, state)
    assert np.array_equal(env.unwrapped.batch.obs, obs)


# --------------------------------------------------------------------------- rendering
@pytest.mark.parametrize("game", GAMES)
def test_vector_envs_render_a_grid_of_their_tables(game: str) -> None:
    """Mid-game, each tile is the single env's picture after the same moves."""
    env = make_vec(game, 5, render_mode="rgb_array", render_envs=4, autoreset_mode=AutoresetMode.DISABLED)
    assert env.metadata["render_modes"] == ["rgb_array", "ansi"] and env.render_mode == "rgb_array"
    _, info = env.reset(seed=3)
    singles = [gymnasium.make(GAMES[game], render_mode="rgb_array", split="any") for _ in range(5)]
    for i, single in enumerate(singles):
        single.reset(options={"deal": info["deal_id"][i]})
    rng = np.random.default_rng(3)
    for _ in range(25):
        masks = env.action_masks()
        actions = np.array([random_legal(rng, m) if m.any() else 0 for m in masks])
        env.step(actions)
        for single, action in zip(singles, actions, strict=True):
            single.step(int(action))  # an ended game refuses it, as the native one does
    grid = env.render()
    frames = [single.render() for single in singles[:4]]
    h, w, _ = frames[0].shape
    assert grid.shape == (2 * h, 2 * w, 3) and grid.dtype == np.uint8
    for k, frame in enumerate(frames):
        r, c = divmod(k, 2)
        assert np.array_equal(grid[r * h:(r + 1) * h, c * w:(c + 1) * w], frame)
    text = make_vec(game, 2, render_mode="ansi")
    text.reset(seed=1)
    assert text.render().count("-random-v1-") == 2
    with pytest.raises(MalformedInputError, match="render_mode"):
        make_vec(game, 2, render_mode="human")


# --------------------------------------------------------------------------- Pyramid positions
@pytest.mark.parametrize("stock_top_playable", [True, False])
def test_a_pyramid_position_plays_on_alike_in_the_python_and_the_native_env(stock_top_playable: bool) -> None:
    """``options={"game": PyramidGame}`` in both envs: the same observation, mask and steps from a
    position reached by random play (draws, removals and recycles)."""
    from solitaire_rl.envs.pyramid.game import PyramidGame
    from solitaire_rl.envs.pyramid.observation import observe

    rng = np.random.default_rng(8)
    for number in range(1, 6):
        game = PyramidGame(f"pyramid-random-v1-{number}", stock_top_playable=stock_top_playable)
        for _ in range(int(rng.integers(5, 60))):
            legal = game.legal_moves()
            if not legal:
                break
            game.push(legal[int(rng.integers(len(legal)))])
        single = gymnasium.make(GAMES["pyramid"], stock_top_playable=stock_top_playable, split="any")
        vector = make_vec("pyramid", 2, stock_top_playable=stock_top_playable, split="any",
                          autoreset_mode=AutoresetMode.DISABLED)
        obs, info = single.reset(options={"game": game})
        vobs, vinfo = vector.reset(options={"deals": [None, game]})
        assert np.array_equal(obs, observe(game)) and np.array_equal(vobs[1], obs)
        assert np.array_equal(vinfo["action_mask"][1], info["action_mask"])
        assert vinfo["deal_id"][1] == info["deal_id"]
        for _ in range(30):
            action = random_legal(rng, info["action_mask"]) if info["action_mask"].any() else 0
            obs, reward, terminated, _, info = single.step(action)
            vobs, vreward, vterminated, _, vinfo = vector.step(np.array([0, action]))
            assert np.array_equal(vobs[1], obs) and vreward[1] == reward and vterminated[1] == terminated
            assert np.array_equal(vinfo["action_mask"][1], info["action_mask"])
            if terminated:
                break
        assert game.moves_played > 0  # the env played a copy


def test_a_pyramid_position_is_refused_in_a_split_env_or_of_the_other_variant() -> None:
    from solitaire_rl.envs.pyramid.game import PyramidGame

    game = PyramidGame("pyramid-random-v1-1000003")
    with pytest.raises(MalformedInputError, match="split='any'"):
        gymnasium.make(GAMES["pyramid"]).reset(options={"game": game})
    with pytest.raises(MalformedInputError, match="variant 000"):
        gymnasium.make(GAMES["pyramid"], stock_top_playable=False, split="any").reset(options={"game": game})
    vector = make_vec("pyramid", 2)
    obs, _ = vector.reset(seed=0)
    with pytest.raises(MalformedInputError, match="split='any'"):
        vector.reset(options={"game": game})
    assert np.array_equal(vector.unwrapped.batch.obs, obs)
    with pytest.raises(MalformedInputError, match="PyramidGame"):
        gymnasium.make(GAMES["pyramid"], split="any").reset(options={"game": "pyramid-random-v1-3"})
