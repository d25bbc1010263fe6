"""The Gymnasium environment ``Solitaire/Klondike-v0``: contract, rewards, episode end, training smoke."""

from __future__ import annotations

import functools
import pickle

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import solitaire_rl  # noqa: F401  (registers the environments)
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike import KlondikeGame, Move, to_solvitaire, to_solvitaire_json
from solitaire_rl.envs.klondike.actions import ACTION_INDEX, ACTION_MOVES, ACTION_NAMES, NUM_ACTIONS, move_of
from solitaire_rl.envs.klondike.env import DEFAULT_MAX_STEPS, FOUNDATION_BONUS, TURN_UP_BONUS, KlondikeEnv
from solitaire_rl.envs.klondike.observer import EMPTY, FACE_DOWN, OBS_SIZE, UNSEEN, VIEWS, observe

ENV_ID = "Solitaire/Klondike-v0"


def make(**kwargs) -> gymnasium.Env:
    """The env as the tests play it: any deal or position (``split="any"``)."""
    kwargs.setdefault("split", "any")
    return gymnasium.make(ENV_ID, **kwargs)


def legal_actions(env: gymnasium.Env) -> np.ndarray:
    return np.flatnonzero(env.unwrapped.action_masks())


def test_check_env_passes() -> None:
    check_env(make().unwrapped, skip_render_check=False)
    check_env(make(draw_count=1).unwrapped)


def test_reset_with_a_seed_deals_a_reproducible_random_deal() -> None:
    env = make()
    obs, info = env.reset(seed=123)
    again, info2 = make().reset(seed=123)
    assert info["deal_id"].startswith("klondike-random-v1-") and info["deal_id"] == info2["deal_id"]
    assert np.array_equal(obs, again)
    other = {make().reset(seed=s)[1]["deal_id"] for s in range(5)}
    assert len(other) == 5
    game = env.unwrapped.game
    assert game.deal.label == info["deal_id"] and game.draw_count == 3
    assert obs.shape == (OBS_SIZE,) and obs.dtype == np.int64 and env.observation_space.contains(obs)


def test_reset_options_accept_every_deal_spelling() -> None:
    env = make()
    cards = KlondikeGame("klondike-random-v1-9").deal.cards
    names = [KlondikeGame("klondike-random-v1-9").deal.code[i:i + 2] for i in range(0, 104, 2)]
    code = KlondikeGame("klondike-random-v1-9").deal.code
    for spec in ("klondike-random-v1-9", code, names, ",".join(names), to_solvitaire(cards),
                 to_solvitaire_json(cards)):
        _, info = env.reset(options={"deal": spec})
        assert env.unwrapped.game.deal.cards == cards
    assert info["deal_id"] == KlondikeGame("klondike-random-v1-9").deal.code  # typed-in deals show their code


def test_a_malformed_deal_raises_and_leaves_the_environment_as_it_was() -> None:
    env = make()
    env.reset(seed=4)
    env.step(int(legal_actions(env)[0]))
    key = env.unwrapped.game.key()
    for bad in ("klondike-random-v7-1", "not a deal", "{}", {"tableau piles": [["AS"]]}):
        with pytest.raises(MalformedInputError):
            env.reset(options={"deal": bad})
        assert env.unwrapped.game.key() == key


def test_masks_match_the_legal_moves_in_both_forms() -> None:
    env = make()
    _, info = env.reset(seed=8)
    rng = np.random.default_rng(0)
    for _ in range(200):
        mask = env.unwrapped.action_masks()
        assert mask.dtype == np.bool_ and info["action_mask"].dtype == np.int8
        assert np.array_equal(mask, info["action_mask"].astype(bool))
        game = env.unwrapped.game
        assert sorted(np.flatnonzero(mask)) == sorted({ACTION_INDEX[m] for m in game.legal_moves()})
        _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            _, info = env.reset()


def test_action_table_names_and_moves() -> None:
    assert NUM_ACTIONS == 590 == len(ACTION_NAMES) == len(set(ACTION_NAMES))
    assert ACTION_NAMES[0] == "draw/recycle" and ACTION_NAMES[1] == "waste>f"
    assert ACTION_NAMES[16] == "c1>c2" and ACTION_NAMES[17] == "c1:2>c2" and ACTION_NAMES[589] == "fS>c7"
    for i, move in enumerate(ACTION_MOVES[1:], start=1):
        assert Move.parse(ACTION_NAMES[i]) == move and ACTION_INDEX[move] == i
    game = KlondikeGame("klondike-random-v1-2")
    assert move_of(game, 0) == Move.parse("draw")
    while game.stock:
        game.push(Move.parse("draw"))
    assert move_of(game, 0) == Move.parse("recycle")
    assert make().unwrapped.action_names[562] == "fC>c1"


def test_an_illegal_action_changes_nothing_and_says_why() -> None:
    env = make()
    obs, _ = env.reset(seed=3)
    game = env.unwrapped.game
    illegal = int(np.flatnonzero(~env.unwrapped.action_masks())[0])
    key, moves = game.key(), game.moves_played
    obs2, reward, terminated, truncated, info = env.step(illegal)
    assert np.array_equal(obs, obs2) and reward == 0 and not terminated and not truncated
    assert game.key() == key and game.moves_played == moves
    assert info["illegal_action"] == game.refusal(move_of(game, illegal)).en
    with pytest.raises(MalformedInputError):
        env.step(NUM_ACTIONS)


def near_win() -> KlondikeGame:
    return KlondikeGame.from_position([[51], [], [], [], [], [], []], [0] * 7, stock=[],
                                      foundations=[13, 13, 13, 12])


def test_a_win_pays_one_and_terminates() -> None:
    env = make()
    env.reset(options={"game": near_win()})
    _, reward, terminated, truncated, info = env.step(ACTION_INDEX[Move.parse("c1>f")])
    assert reward == 1.0 and terminated and not truncated and info["outcome"] == "win"
    assert info["cards_up"] == 52 and not env.unwrapped.action_masks().any()


def test_shaped_reward_pays_once_per_card_and_per_turned_up_card() -> None:
    game = KlondikeGame.from_position([["7D", "9H"], ["10S"], ["6D"], [], [], [], []], [1, 0, 0, 0, 0, 0, 0],
                                      stock=None, foundations=[13, 5, 8, 5])
    env = make(reward_shaping=True)
    env.reset(options={"game": game})

    def reward(text: str) -> float:
        return env.step(ACTION_INDEX[Move.parse(text)])[1]

    assert reward("c1>c2") == pytest.approx(TURN_UP_BONUS)  # 9H onto 10S turns up 7D
    assert reward("fS>c3") == 0  # 5S down onto 6D
    assert reward("c3>f") == 0  # and up again: its foundation held it before
    assert reward("c2>f") == pytest.approx(FOUNDATION_BONUS)  # 9H up: a first for the hearts
    plain = make()
    plain.reset(options={"game": game})
    assert plain.step(ACTION_INDEX[Move.parse("c1>c2")])[1] == 0


def test_positions_the_observation_cannot_hold_are_refused() -> None:
    long_column = KlondikeGame.from_position([[]] * 6 + [list(range(52))], [0] * 6 + [51], stock=[])
    with pytest.raises(MalformedInputError, match="column 7 has 51 face-down cards; a Klondike column"):
        make().reset(options={"game": long_column})
    long_stock = KlondikeGame.from_position([[c] for c in range(7)], [0] * 7, stock=list(range(7, 52)))
    with pytest.raises(MalformedInputError, match="the stock 45; the observation shows at most 24"):
        observe(long_stock)
    env = make()
    before, _ = env.reset(seed=3)
    game = env.unwrapped.game
    with pytest.raises(MalformedInputError, match="a Klondike talon holds at most 24"):
        env.reset(options={"game": long_stock})
    assert env.unwrapped.game is game and np.array_equal(env.unwrapped._obs, before)


def test_no_progress_terminates_the_episode() -> None:
    env = make()
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(5000):
        _, reward, terminated, truncated, info = env.step(int(rng.choice(legal_actions(env))))
        if terminated and info["outcome"] == "no_progress":
            break
        if terminated or truncated:
            env.reset()
    else:
        pytest.fail("no random game ran into a position without progress")
    game = env.unwrapped.game
    assert reward == 0 and not truncated and game.legal_moves() and not game.progress_possible()
    assert env.unwrapped.action_masks().any(), "moves remain; none of them leads anywhere"


def test_episodes_are_truncated_after_max_episode_steps() -> None:
    env = make(max_episode_steps=5)
    env.reset(seed=1)
    ends = []
    for _ in range(5):
        *_, terminated, truncated, _ = env.step(0)
        ends.append((terminated, truncated))
    assert ends[-1] == (False, True) and all(e == (False, False) for e in ends[:-1])
    assert env.spec.max_episode_steps == 5 and make().spec.max_episode_steps == DEFAULT_MAX_STEPS
    assert make().unwrapped.max_steps is None  # the raw class never truncates by itself


def test_the_old_keyword_spellings_still_work_and_warn() -> None:
    with pytest.warns(DeprecationWarning, match="max_episode_steps"):
        env = make(max_steps=5)
    env.reset(seed=1)
    assert [env.step(0)[3] for _ in range(5)] == [False] * 4 + [True]
    with pytest.warns(DeprecationWarning, match="reward_shaping"):
        assert make(shaped_reward=True).unwrapped.reward_shaping


def test_render_ansi_returns_the_table_as_text() -> None:
    env = make(render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str) and "c7:" in text and "##" in text and "stock 24" in text
    assert make().unwrapped.render() is None
    with pytest.raises(MalformedInputError):
        KlondikeEnv(render_mode="svg")


def test_same_seed_same_actions_same_episode_and_pickling() -> None:
    def rollout(env: gymnasium.Env, seed: int, n: int = 300) -> list[bytes]:
        rng = np.random.default_rng(seed)
        obs, _ = env.reset(seed=seed)
        out = [obs.tobytes()]
        for _ in range(n):
            obs, reward, terminated, truncated, _ = env.step(int(rng.choice(legal_actions(env))))
            out.append(obs.tobytes() + bytes([int(reward * 100), terminated, truncated]))
            if terminated or truncated:
                obs, _ = env.reset()
        return out

    assert rollout(make(), 11) == rollout(make(), 11)
    env = make().unwrapped
    env.reset(seed=5)
    env.step(0)
    clone = pickle.loads(pickle.dumps(env))
    assert clone.game.key() == env.game.key()
    for action in (0, 0, 0):
        a, b = env.step(action), clone.step(action)
        assert np.array_equal(a[0], b[0]) and a[1:4] == b[1:4]


def test_observation_hides_face_down_and_unseen_cards_and_keeps_seen_ones() -> None:
    env = make()
    obs, _ = env.reset(seed=6)
    game = env.unwrapped.game
    columns = obs[VIEWS["columns"]].reshape(7, 19)
    for c in range(7):
        h, n = game.hidden[c], len(game.columns[c])
        assert list(columns[c][:h]) == [FACE_DOWN] * h
        assert list(columns[c][h:n]) == game.columns[c][h:]
        assert set(columns[c][n:]) <= {EMPTY}
    assert set(obs[VIEWS["stock"]]) == {UNSEEN} and set(obs[VIEWS["waste"]]) == {EMPTY}
    env.step(0)  # draw three
    obs = observe(game)
    assert list(obs[VIEWS["waste"]][:3]) == game.waste[::-1]
    card_views = np.concatenate([obs[VIEWS[v]] for v in ("columns", "waste", "stock")])
    visible = {int(v) for v in card_views if v < 52}
    face_down = {card for c, col in enumerate(game.columns) for card in col[: game.hidden[c]]}
    assert not visible & face_down and not visible & set(game.unseen_stock())
    while game.stock:
        env.step(0)
    env.step(0)  # recycle: now the whole stock order is known
    obs = observe(game)
    assert list(obs[VIEWS["stock"]]) == game.stock[::-1] and obs[VIEWS["recycles"]][0] == 1


def test_draw_one_keyword() -> None:
    env = make(draw_count=1)
    env.reset(seed=1)
    env.step(0)
    assert len(env.unwrapped.game.waste) == 1


# ------------------------------------------------------------------ training smoke tests
def _env_factory() -> gymnasium.Env:
    return gymnasium.make(ENV_ID, max_episode_steps=50)


@pytest.mark.parametrize("vec", ["dummy", "subproc"])
def test_maskable_ppo_trains_a_few_hundred_steps(vec: str) -> None:
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # a tiny net: more threads only fight over a shared machine's cores
    factories = [functools.partial(_env_factory) for _ in range(2)]
    venv = DummyVecEnv(factories) if vec == "dummy" else SubprocVecEnv(factories)
    try:
        model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0,
                            policy_kwargs={"net_arch": [16]}, verbose=0)
        model.learn(total_timesteps=256)
        obs = venv.reset()
        masks = get_action_masks(venv)  # fetched through the environment itself, no wrapper
        assert masks.shape == (2, NUM_ACTIONS) and masks.dtype == np.bool_
        actions, _ = model.predict(obs, action_masks=masks)
        assert all(masks[i, a] for i, a in enumerate(actions))
    finally:
        venv.close()
        torch.set_num_threads(threads)
