"""The Pyramid Gymnasium environment: API conformance, deals, masks, rewards, hidden cards, learning."""

from __future__ import annotations

import copy
import functools
import importlib.util
import pickle
import random
import sys
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from gymnasium.utils.env_checker import check_env

import solitaire_rl  # noqa: F401  (registers the environments)
from solitaire_rl.envs.cards import card_name, rank
from solitaire_rl.envs.deals import DealId, encode_deal_code, parse_deal_code
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.pyramid import Move, PyramidGame
from solitaire_rl.envs.pyramid.actions import (
    ACTION_MOVES,
    DRAW_ACTION,
    NUM_ACTIONS,
    RECYCLE_ACTION,
    action_to_move,
    move_to_action,
)
from solitaire_rl.envs.pyramid.env import SHAPING_PER_CARD, PyramidEnv
from solitaire_rl.envs.pyramid.layout import NUM_PYRAMID
from solitaire_rl.envs.pyramid.observation import (
    GLOBAL_FEATURES,
    OBSERVATION_SIZE,
    PYRAMID_FEATURES,
    STOCK_FEATURES,
    observe,
    split_observation,
)

ENV_ID = "Solitaire/Pyramid-v0"
VARIANTS = {"000": True, "001": False}
P = {name: i for i, name in enumerate(PYRAMID_FEATURES)}
S = {name: i for i, name in enumerate(STOCK_FEATURES)}


@pytest.fixture(params=list(VARIANTS), ids=lambda v: f"variant{v}")
def stock_top_playable(request: pytest.FixtureRequest) -> bool:
    return VARIANTS[request.param]


def make(stock_top_playable: bool = True, **kwargs: object) -> gymnasium.Env:
    """The env as the tests play it: any deal (``split="any"``), unless a test names its split."""
    kwargs.setdefault("split", "any")
    return gymnasium.make(ENV_ID, stock_top_playable=stock_top_playable, **kwargs)


def legal_actions(env: gymnasium.Env) -> list[int]:
    return sorted(move_to_action(m) for m in env.unwrapped.game.legal_moves())


def random_rollout(env: gymnasium.Env, seed: int, steps: int) -> list[tuple[object, ...]]:
    """Random masked play from ``reset(seed=seed)``, across episodes; every transition recorded."""
    rng = random.Random(seed)
    obs, info = env.reset(seed=seed)
    record: list[tuple[object, ...]] = [(obs.tobytes(), info["deal_id"], info["action_mask"].tobytes())]
    for _ in range(steps):
        action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
        obs, reward, terminated, truncated, info = env.step(action)
        record.append((action, obs.tobytes(), reward, terminated, truncated, info["action_mask"].tobytes()))
        if terminated or truncated:
            obs, info = env.reset()
            record.append((obs.tobytes(), info["deal_id"]))
    return record


# ------------------------------------------------------------------ API conformance
def test_make_builds_both_variants() -> None:
    assert make().unwrapped.stock_top_playable is True
    assert gymnasium.make(ENV_ID).unwrapped.stock_top_playable is True
    env = make(False)
    assert isinstance(env.unwrapped, PyramidEnv) and env.unwrapped.stock_top_playable is False
    assert env.action_space == gymnasium.spaces.Discrete(467) and NUM_ACTIONS == 467
    assert env.observation_space.shape == (OBSERVATION_SIZE,) == (883,)
    assert env.observation_space.dtype == np.float32


def test_check_env_passes_without_warnings(stock_top_playable: bool) -> None:
    env = make(stock_top_playable, render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


def test_step_before_reset_and_bad_arguments_raise() -> None:
    with pytest.raises(ResetNeeded):
        PyramidEnv().step(0)
    with pytest.raises(MalformedInputError, match="render_mode"):
        PyramidEnv(render_mode="svg")
    assert PyramidEnv().render() is None


# ------------------------------------------------------------------ deals
def test_seeded_reset_deals_a_named_random_deal_drawn_from_np_random() -> None:
    """A plain ``gymnasium.make`` deals train deals only: uniform over 1,000,000 .. 2**31 - 1."""
    env = gymnasium.make(ENV_ID)
    _, info = env.reset(seed=5)
    deal_id = DealId.parse(info["deal_id"])
    assert (deal_id.game, deal_id.kind, deal_id.version) == ("pyramid", "random", 1)
    assert env.unwrapped.game.deal.cards == deal_id.cards()
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(5)))
    assert deal_id.number == int(rng.integers(1_000_000, 2**31 - 1, endpoint=True))
    any_env = make()  # split="any": every number, as before the option
    any_number = DealId.parse(any_env.reset(seed=5)[1]["deal_id"]).number
    assert any_number == int(np.random.Generator(np.random.PCG64(np.random.SeedSequence(5))).integers(2**31))
    assert env.reset(seed=5)[1]["deal_id"] == info["deal_id"]
    assert env.reset()[1]["deal_id"] != info["deal_id"]  # the generator moves on
    assert env.reset(seed=6)[1]["deal_id"] != info["deal_id"]


@pytest.mark.parametrize("form", ["id", "code", "lower-code", "names", "comma-names", "deal-id-object"])
def test_reset_with_a_deal_option(form: str) -> None:
    deal_id = DealId.parse("pyramid-random-v1-42")
    cards = deal_id.cards()
    code = encode_deal_code(cards)
    spec: object = {
        "id": str(deal_id), "code": code, "lower-code": code.lower(), "names": [card_name(c) for c in cards],
        "comma-names": ",".join(card_name(c).lower() for c in cards), "deal-id-object": deal_id,
    }[form]
    env = make()
    obs, info = env.reset(seed=1, options={"deal": spec})
    assert env.unwrapped.game.deal.cards == cards
    assert info["deal_id"] == (str(deal_id) if form in ("id", "deal-id-object") else code)
    assert np.array_equal(obs, observe(PyramidGame(cards)))


@pytest.mark.parametrize(("options", "message"), [
    ({"deal": "pyramid-random-v9-1"}, "unknown deal ID"),
    ({"deal": "klondike-random-v1-1"}, "klondike deal, not pyramid"),
    ({"deal": "3HTH6S"}, "got 3 cards"),
    ({"deal": "3HTH6SXX"}, "malformed deal code"),
    ({"deal": ["AS"] * 52}, "doubled AS"),
    ({"deal": 7}, "cannot read a deal"),
    ({"seed": 3}, "unknown reset option"),
])
def test_a_bad_deal_option_raises_and_changes_nothing(options: dict[str, object], message: str) -> None:
    env = make()
    obs, _ = env.reset(seed=2)
    game = env.unwrapped.game
    rng_state = env.unwrapped.np_random.bit_generator.state
    with pytest.raises(MalformedInputError, match=message):
        env.reset(seed=99, options=options)
    assert env.unwrapped.game is game and env.unwrapped.np_random.bit_generator.state == rng_state
    obs_after, *_ = env.step(DRAW_ACTION)  # play goes on in the same game
    assert env.unwrapped.game.moves_played == 1 and not np.array_equal(obs, obs_after)


# ------------------------------------------------------------------ actions and masks
def test_action_layout_and_names() -> None:
    env = make().unwrapped
    names = [env.action_name(i) for i in range(NUM_ACTIONS)]
    assert len(set(names)) == NUM_ACTIONS
    assert names[0] == "r1c1 (King)" and names[27] == "r7c7 (King)"
    assert names[28] == "stock (King)" and names[29] == "waste (King)"
    assert names[30] == "r1c1+r2c1" and names[464] == "stock+waste"
    assert names[DRAW_ACTION] == "draw" and names[RECYCLE_ACTION] == "recycle"
    assert "r7c1+r7c2" in names and "r6c2+waste" in names and "r7c3 (King)" in names
    for i, move in enumerate(ACTION_MOVES):
        assert move_to_action(move) == i and action_to_move(i) == move
        assert Move.parse(names[i].removesuffix(" (King)")) == move
    for bad in (-1, NUM_ACTIONS, 1.5, "3"):
        with pytest.raises(MalformedInputError):
            action_to_move(bad)  # type: ignore[arg-type]


def test_masks_match_the_engine_and_each_other(stock_top_playable: bool) -> None:
    env = make(stock_top_playable)
    _, info = env.reset(seed=11)
    rng = random.Random(11)
    for _ in range(300):
        bool_mask = env.unwrapped.action_masks()
        wrapped_mask = env.get_wrapper_attr("action_masks")()
        assert bool_mask.dtype == np.bool_ and info["action_mask"].dtype == np.int8
        assert np.array_equal(bool_mask, info["action_mask"].astype(bool))
        assert np.array_equal(wrapped_mask, bool_mask)
        assert np.flatnonzero(bool_mask).tolist() == legal_actions(env)
        _, _, terminated, truncated, info = env.step(rng.choice(legal_actions(env)))
        if terminated or truncated:
            assert not info["action_mask"].any()
            _, info = env.reset()


def test_returned_masks_are_copies() -> None:
    env = make().unwrapped
    _, info = env.reset(seed=0)
    mask = env.action_masks()
    mask[:] = True
    info["action_mask"][:] = 1
    assert np.flatnonzero(env.action_masks()).tolist() == legal_actions(env)


def test_illegal_action_changes_nothing_and_says_why(build_deal) -> None:
    env = make()
    obs, info = env.reset(options={"deal": build_deal({"r7c1": "5D", "r7c2": "4S"})})
    key = env.unwrapped.game.key()
    for action, reason in [
        (move_to_action(Move.parse("r7c1+r7c2")), "These two cards do not add up to 13."),
        (move_to_action(Move.parse("r6c1")), "This card is still covered."),
        (RECYCLE_ACTION, "You can recycle once the stock has been drawn to the end."),
    ]:
        obs2, reward, terminated, truncated, info2 = env.step(action)
        assert info2["illegal_action"] == reason
        assert (reward, terminated, truncated) == (0.0, False, False)
        assert np.array_equal(obs2, obs) and np.array_equal(info2["action_mask"], info["action_mask"])
        assert env.unwrapped.game.key() == key and env.unwrapped.game.moves_played == 0
    _, _, _, _, info3 = env.step(DRAW_ACTION)
    assert "illegal_action" not in info3


def test_out_of_space_actions_raise() -> None:
    env = make()
    env.reset(seed=0)
    for bad in (-1, NUM_ACTIONS):
        with pytest.raises(MalformedInputError, match="not an action"):
            env.step(bad)


# ------------------------------------------------------------------ rewards and episode end
def test_win_pays_one_on_the_clearing_move(
    win_deal: str, win_line: tuple[str, ...], stock_top_playable: bool
) -> None:
    env = make(stock_top_playable)
    env.reset(options={"deal": win_deal})
    for i, move in enumerate(win_line):
        _, reward, terminated, truncated, info = env.step(move_to_action(Move.parse(move)))
        last = i == len(win_line) - 1
        assert (reward, terminated, truncated) == ((1.0, True, False) if last else (0.0, False, False))
    assert info["outcome"] == "win" and info["cards_left"] == 0 and not info["action_mask"].any()
    assert len(env.unwrapped.game.stock) == 24


def test_shaped_reward_pays_per_pyramid_card(win_deal: str, win_line: tuple[str, ...]) -> None:
    env = make(reward_shaping=True)
    env.reset(options={"deal": win_deal})
    rewards = [env.step(move_to_action(Move.parse(m)))[1] for m in win_line]
    expected = [SHAPING_PER_CARD * len(Move.parse(m).places()) for m in win_line]
    expected[-1] += 1.0
    assert rewards == pytest.approx(expected)
    assert sum(rewards) == pytest.approx(1.0 + 28 * SHAPING_PER_CARD)


def test_shaped_reward_ignores_stock_cards_and_illegal_actions(stock_pairs_deal: str) -> None:
    env = make(reward_shaping=True)
    env.reset(options={"deal": stock_pairs_deal})
    assert env.step(DRAW_ACTION)[1] == 0.0
    assert env.step(move_to_action(Move.parse("stock+waste")))[1] == 0.0
    assert env.step(move_to_action(Move.parse("r7c1+r7c2")))[1] == 0.0  # A + A: refused


def test_dead_end_terminates_without_reward(draw_only_deal: str, stock_top_playable: bool) -> None:
    env = make(stock_top_playable, reward_shaping=True)
    _, info = env.reset(options={"deal": draw_only_deal})
    for step in range(74):
        assert np.flatnonzero(info["action_mask"]).tolist() == [DRAW_ACTION if step not in (24, 49) else
                                                                RECYCLE_ACTION]
        action = int(np.flatnonzero(info["action_mask"])[0])
        _, reward, terminated, truncated, info = env.step(action)
        assert reward == 0.0 and terminated is (step == 73) and not truncated
    assert info["outcome"] == "dead_end" and info["pass"] == 3
    _, reward, terminated, _, info = env.step(DRAW_ACTION)  # stepping on after the end changes nothing
    assert terminated and reward == 0.0 and info["illegal_action"] == "There is no card to draw."


def test_truncation_comes_from_max_episode_steps() -> None:
    env = gymnasium.make(ENV_ID, max_episode_steps=5)
    env.reset(seed=0)
    illegal = RECYCLE_ACTION  # refused while the stock holds cards
    results = [env.step(illegal)[2:4] for _ in range(5)]
    assert results == [(False, False)] * 4 + [(False, True)]


# ------------------------------------------------------------------ rendering
def test_ansi_render_shows_the_table(stock_top_playable: bool) -> None:
    env = make(stock_top_playable, render_mode="ansi")
    env.reset(options={"deal": "pyramid-random-v1-42"})
    text = env.render()
    stock_top = card_name(DealId.parse("pyramid-random-v1-42").cards()[NUM_PYRAMID])
    assert "pass 1/3" in text and "24 left" in text
    assert (f"stock {stock_top}" in text) is stock_top_playable
    assert ("stock ##" in text) is not stock_top_playable
    quiet = make(render_mode=None)
    quiet.reset(seed=0)
    assert quiet.render() is None


# ------------------------------------------------------------------ determinism and pickling
def test_same_seed_same_rollout(stock_top_playable: bool) -> None:
    first = random_rollout(make(stock_top_playable), seed=3, steps=400)
    second = random_rollout(make(stock_top_playable), seed=3, steps=400)
    assert first == second
    assert random_rollout(make(stock_top_playable), seed=4, steps=400) != first


@pytest.mark.parametrize("use_pickle", [True, False], ids=["pickle", "deepcopy"])
def test_pickled_env_continues_identically(stock_top_playable: bool, use_pickle: bool) -> None:
    env = make(stock_top_playable)
    env.reset(seed=8)
    for action in (DRAW_ACTION, DRAW_ACTION):
        env.step(action)
    clone = pickle.loads(pickle.dumps(env)) if use_pickle else copy.deepcopy(env)
    rng = random.Random(0)
    for _ in range(200):
        action = rng.choice(legal_actions(env) or [DRAW_ACTION])
        a, b = env.step(action), clone.step(action)
        assert np.array_equal(a[0], b[0]) and a[1:4] == b[1:4]
        assert np.array_equal(a[4]["action_mask"], b[4]["action_mask"])
        if a[2] or a[3]:
            assert np.array_equal(env.reset()[0], clone.reset()[0])


# ------------------------------------------------------------------ what the observation reveals
def swap_stock_cards(code: str, i: int, j: int) -> str:
    """The deal ``code`` with stock slots ``i`` and ``j`` (0 = first stock card) exchanged."""
    cards = list(parse_deal_code(code))
    a, b = NUM_PYRAMID + i, NUM_PYRAMID + j
    cards[a], cards[b] = cards[b], cards[a]
    return encode_deal_code(cards)


def observation_after_draws(code: str, stock_top_playable: bool, draws: int) -> np.ndarray:
    env = make(stock_top_playable)
    obs, _ = env.reset(options={"deal": code})
    for _ in range(draws):
        obs = env.step(DRAW_ACTION)[0]
    return obs


# Deal 42's stock starts JS 4H 5H 3D 6S 6D 10S; slot 22 holds 8D, a rank none of those has.
@pytest.mark.parametrize(("variant", "draws", "last_seen"), [
    ("000", 0, 0), ("001", 0, None), ("000", 5, 5), ("001", 5, 4),
])
def test_unseen_stock_cards_do_not_change_the_observation(
    variant: str, draws: int, last_seen: int | None
) -> None:
    """Two deals differing only in stock cards never face up give identical observations."""
    base = encode_deal_code(DealId.parse("pyramid-random-v1-42").cards())
    first_unseen = 0 if last_seen is None else last_seen + 1
    game = PyramidGame(base, stock_top_playable=VARIANTS[variant])
    game.replay(["draw"] * draws)
    stock_cards = game.deal.cards[NUM_PYRAMID:]
    seen = [bool(game.seen >> c & 1) for c in stock_cards[: first_unseen + 1]]
    assert seen == [True] * first_unseen + [False]
    obs = observation_after_draws(base, VARIANTS[variant], draws)
    twin = swap_stock_cards(base, first_unseen, 22)
    assert twin != base
    assert np.array_equal(observation_after_draws(twin, VARIANTS[variant], draws), obs)
    if last_seen is not None:  # a card once face up is in the observation
        seen_twin = swap_stock_cards(base, last_seen, 22)
        assert not np.array_equal(observation_after_draws(seen_twin, VARIANTS[variant], draws), obs)


def test_observation_layout_is_the_documented_one() -> None:
    ranks = ["rank_A", *(f"rank_{r}" for r in range(2, 11)), "rank_J", "rank_Q", "rank_K"]
    assert (*ranks, "on_table", "available") == PYRAMID_FEATURES
    assert (*ranks, "seen", "in_stock", "in_waste", "gone", "stock_top", "waste_top") == STOCK_FEATURES
    assert GLOBAL_FEATURES == (
        "pass_1", "pass_2", "pass_3", "stock_count", "waste_count", "pyramid_left", "stock_top_usable",
    )
    assert 28 * len(PYRAMID_FEATURES) + 24 * len(STOCK_FEATURES) + len(GLOBAL_FEATURES) == OBSERVATION_SIZE


def test_observation_names_seen_cards_in_stock_order_with_their_status() -> None:
    env = make(False)  # variant 001: the stock top is face down
    obs, _ = env.reset(options={"deal": "pyramid-random-v1-42"})
    game = env.unwrapped.game
    stock_cards = game.deal.cards[NUM_PYRAMID:]
    _, stock, globals_ = split_observation(obs)
    assert not stock[:, : S['seen'] + 1].any()  # no stock card seen yet
    assert stock[0, S['stock_top']] == 1 and stock[:, S['in_stock']].sum() == 24
    for _ in range(3):
        obs = env.step(DRAW_ACTION)[0]
    pyramid, stock, globals_ = split_observation(obs)
    for slot in range(3):
        assert stock[slot, :13].argmax() + 1 == rank(stock_cards[slot]) and stock[slot, S['seen']] == 1
        assert stock[slot, S['in_waste']] == 1
    assert stock[2, S['waste_top']] == 1 and stock[3, S['stock_top']] == 1
    assert not stock[3:, : S['seen'] + 1].any()
    assert globals_.tolist() == pytest.approx([1, 0, 0, 21 / 24, 3 / 24, 1, 0])
    assert pyramid[:, P['on_table']].sum() == 28 and pyramid[:, P['available']].sum() == 7


def test_an_undone_draw_stays_seen_in_the_observation() -> None:
    game = PyramidGame("pyramid-random-v1-42", stock_top_playable=False)
    game.push(Move.parse("draw"))
    game.pop()
    _, stock, _ = split_observation(observe(game))
    assert stock[0, S['seen']] == 1 and stock[0, S['in_stock']] == 1 and stock[0, S['stock_top']] == 1
    assert stock[0, :13].argmax() + 1 == rank(game.stock[-1])


# ------------------------------------------------------------------ learning with sb3-contrib
@pytest.mark.parametrize("vec_env", ["dummy", "subproc"])
def test_maskable_ppo_learns_through_the_env_masks(vec_env: str) -> None:
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    class CountIllegal(BaseCallback):
        illegal = 0
        steps = 0

        def _on_step(self) -> bool:
            self.steps += len(self.locals["infos"])
            self.illegal += sum("illegal_action" in info for info in self.locals["infos"])
            return True

    env_fn = functools.partial(gymnasium.make, "solitaire_rl:" + ENV_ID,
                               stock_top_playable=vec_env == "dummy")
    vec = make_vec_env(env_fn, n_envs=2, seed=0,
                       vec_env_cls=DummyVecEnv if vec_env == "dummy" else SubprocVecEnv)
    try:
        model = MaskablePPO("MlpPolicy", vec, n_steps=64, batch_size=64, n_epochs=2, seed=0, device="cpu",
                            policy_kwargs={"net_arch": [16]})
        before = [p.detach().clone() for p in model.policy.parameters()]
        counter = CountIllegal()
        model.learn(total_timesteps=256, callback=counter)
        assert counter.steps >= 256 and counter.illegal == 0  # every sampled action was legal
        after = [p.detach().numpy() for p in model.policy.parameters()]
        assert any(not np.array_equal(x.numpy(), y) for x, y in zip(before, after, strict=True))
        obs = vec.reset()
        masks = np.stack(vec.env_method("action_masks"))
        actions, _ = model.predict(obs, action_masks=masks)
        assert all(masks[i, a] for i, a in enumerate(actions))
    finally:
        vec.close()


# ------------------------------------------------------------------ the benchmark script
def test_benchmark_script_runs_on_a_tiny_budget(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "env_steps.py"
    monkeypatch.syspath_prepend(str(path.parent))  # its _checkout, as running the script gives it
    spec = importlib.util.spec_from_file_location("env_steps", path)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "env_steps", module)
    spec.loader.exec_module(module)
    assert module.parse_spec("Solitaire/Pyramid-v0:stock_top_playable=False,x=abc") == (
        ENV_ID, {"stock_top_playable": False, "x": "abc"}
    )
    module.main(["--steps", "300", "--repeats", "1", ENV_ID + ":stock_top_playable=False"])
    lines = capsys.readouterr().out.splitlines()
    rows = [line.split() for line in lines if line.startswith(ENV_ID)]
    assert [row[1] for row in rows] == ["make", "raw"]
    assert all(float(row[2].replace(",", "")) > 0 for row in rows)
