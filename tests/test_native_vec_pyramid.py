"""The native batched Pyramid env (solitaire_rl/envs/pyramid/vector.py) against the Python env, the reference.

The differential test drives ``gymnasium.make_vec(..., vectorization_mode="vector_entry_point")``
and one ``gymnasium.make`` env per sub-env (seeded ``S + i``, reset by hand where Gymnasium's
next-step autoreset resets) with the same actions, random legal ones with some random illegal
ones mixed in, and requires identical observations, masks, rewards, terminations, truncations and
infos at every step.
"""

from __future__ import annotations

import pickle
from collections import Counter
from typing import Any

import gymnasium
import numpy as np
import pytest
import solitaire_native
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import RecordEpisodeStatistics

import solitaire_rl  # noqa: F401  (registers the environments)
from solitaire_rl.envs.deals import DealId
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.native_batch import spawn_seeds
from solitaire_rl.envs.pyramid.actions import NUM_ACTIONS
from solitaire_rl.envs.pyramid.vector import NativePyramidEnv, PyramidVectorEnv
from solitaire_rl.envs.wrappers import TruncationOutcome

ENV_ID = "Solitaire/Pyramid-v0"
VARIANTS = {"000": {"stock_top_playable": True}, "001": {"stock_top_playable": False}}
ILLEGAL_SHARE = 0.05


def make_native(num_envs: int, **kwargs: Any) -> PyramidVectorEnv:
    """The native vector env over any deal (``split="any"``, as :func:`make_reference`)."""
    kwargs.setdefault("split", "any")
    env = gymnasium.make_vec(ENV_ID, num_envs=num_envs, vectorization_mode="vector_entry_point", **kwargs)
    assert isinstance(env, PyramidVectorEnv)
    return env


def make_reference(**kwargs: Any) -> gymnasium.Env:
    """The Python env as a differential reference: any deal, ``"truncated"`` written as the native
    env writes it (:class:`TruncationOutcome`, as ``GameSpec.make_env`` wraps it)."""
    kwargs.setdefault("split", "any")
    return TruncationOutcome(gymnasium.make(ENV_ID, **kwargs))


def sample_actions(rng: np.random.Generator, mask: np.ndarray,
                   illegal_share: float = ILLEGAL_SHARE) -> np.ndarray:
    """A random legal action per row (any action where none is legal), some replaced by any action."""
    scores = rng.random(mask.shape)
    scores[mask == 0] = -1.0
    actions = scores.argmax(axis=1)
    wild = rng.random(len(actions)) < illegal_share
    actions[wild] = rng.integers(0, NUM_ACTIONS, int(wild.sum()))
    return actions


def optional(info: dict[str, Any], key: str, i: int) -> object:
    """Sub-env ``i``'s entry of a vector info key, ``None`` where it has none."""
    return info[key][i] if key in info and info[f"_{key}"][i] else None


def drive_side_by_side(num_envs: int, steps: int, seed: int, **kwargs: Any) -> Counter[str]:
    """Step the native vector env and the Python envs together ``steps`` times; count what happened."""
    native = make_native(num_envs, **kwargs)
    reference = [make_reference(**kwargs) for _ in range(num_envs)]
    streams = spawn_seeds(seed, num_envs)
    obs, info = native.reset(seed=seed)
    ref = [env.reset(seed=streams[i]) for i, env in enumerate(reference)]
    assert np.array_equal(obs, np.stack([o for o, _ in ref]))
    for i, (_, ref_info) in enumerate(ref):
        assert np.array_equal(info["action_mask"][i], ref_info["action_mask"])
        assert info["deal_id"][i] == ref_info["deal_id"]
    rng = np.random.default_rng(seed)
    done = np.zeros(num_envs, np.bool_)
    seen: Counter[str] = Counter()
    for _ in range(steps // num_envs):
        actions = sample_actions(rng, info["action_mask"])
        obs, rewards, terminated, truncated, info = native.step(actions)
        ref_obs, ref_rewards, ref_term, ref_trunc = [], [], [], []
        for i, env in enumerate(reference):
            if done[i]:  # next-step autoreset: this step is the reset, the action is ignored
                o, ri = env.reset()
                r, te, tr = 0.0, False, False
                seen["autoreset"] += 1
            else:
                o, r, te, tr, ri = env.step(int(actions[i]))
            ref_obs.append(o)
            ref_rewards.append(r)
            ref_term.append(te)
            ref_trunc.append(tr)
            assert np.array_equal(info["action_mask"][i], ri["action_mask"])
            assert (info["deal_id"][i], info["pass"][i], info["cards_left"][i]) == (
                ri["deal_id"], ri["pass"], ri["cards_left"])
            assert optional(info, "illegal_action", i) == ri.get("illegal_action")
            assert optional(info, "outcome", i) == ri.get("outcome")
            seen["illegal"] += "illegal_action" in ri
            seen[ri.get("outcome") or ("truncated" if tr else "")] += bool(te or tr)
        assert np.array_equal(obs, np.stack(ref_obs))
        assert np.array_equal(rewards, np.asarray(ref_rewards, np.float64))
        assert np.array_equal(terminated, ref_term) and np.array_equal(truncated, ref_trunc)
        done = terminated | truncated
    return seen


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_native_batch_steps_exactly_as_the_python_env(variant: str) -> None:
    """100,000 steps per variant: wins, dead ends, truncations, illegal actions and autoresets."""
    seen = drive_side_by_side(64, 100_032, seed=1000 + int(variant), reward_shaping=True,
                              max_episode_steps=72, **VARIANTS[variant])
    assert all(seen[kind] > 0 for kind in ("win", "dead_end", "truncated", "illegal", "autoreset")), seen


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_plain_reward_and_the_registered_time_limit_match_too(variant: str) -> None:
    seen = drive_side_by_side(16, 8_000, seed=7, **VARIANTS[variant])
    assert seen["win"] + seen["dead_end"] > 0


def test_native_deals_are_the_python_deals() -> None:
    numbers = [0, 1, 2, 999, 100_001, 1_000_000, 2**31 - 1, 2**40, *range(3, 300)]
    for game in ("pyramid", "klondike"):
        for n in numbers:
            assert solitaire_native.random_deal(game, n) == list(DealId(game, "random", 1, n).cards())


# --------------------------------------------------------------------------- Gymnasium's API
def test_make_vec_gives_the_native_env_with_the_single_env_spaces() -> None:
    single = gymnasium.make(ENV_ID)
    for kwargs in ({}, {"stock_top_playable": False}):
        env = make_native(8, **kwargs)
        assert env.single_observation_space == single.observation_space
        assert env.single_action_space == single.action_space
        assert env.observation_space.shape == (8, 883) and env.action_space.shape == (8,)
        assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
        assert env.max_episode_steps == 500
        assert env.batch.stock_top_playable == kwargs.get("stock_top_playable", True)
        obs, info = env.reset(seed=0)
        assert env.observation_space.contains(obs)
        assert info["action_mask"].dtype == np.int8 and info["action_mask"].shape == (8, NUM_ACTIONS)
        assert np.array_equal(env.action_masks(), info["action_mask"].astype(np.bool_))
    assert isinstance(gymnasium.make_vec(ENV_ID, num_envs=2), PyramidVectorEnv)  # the default mode
    sync = gymnasium.make_vec(ENV_ID, num_envs=2, vectorization_mode="sync")
    assert not isinstance(sync, PyramidVectorEnv)


def test_it_steps_as_gymnasiums_own_sync_vector_env() -> None:
    """Gymnasium's SyncVectorEnv over the Python envs is the reference for the vector API itself."""
    native = make_native(6, reward_shaping=True, max_episode_steps=60)
    sync = gymnasium.make_vec(ENV_ID, num_envs=6, vectorization_mode="sync", reward_shaping=True,
                              max_episode_steps=60, split="any", wrappers=[TruncationOutcome])
    obs, info = native.reset(seed=11)
    sync_obs, sync_info = sync.reset(seed=spawn_seeds(11, 6))  # Gymnasium's own gives seed + i
    rng = np.random.default_rng(3)
    for _ in range(400):
        assert np.array_equal(obs, sync_obs)
        for key in ("action_mask", "deal_id", "pass", "cards_left", "illegal_action", "outcome"):
            assert (key in info) == (key in sync_info), key
            if key in info:
                assert np.array_equal(info[f"_{key}"], sync_info[f"_{key}"]), key
                has = info[f"_{key}"]
                assert list(info[key][has]) == list(sync_info[key][has]) if info[key].dtype == object \
                    else np.array_equal(info[key][has], sync_info[key][has]), key
        actions = sample_actions(rng, info["action_mask"], 0.1)
        obs, rewards, terminated, truncated, info = native.step(actions)
        sync_obs, sync_rewards, sync_term, sync_trunc, sync_info = sync.step(actions)
        assert np.array_equal(rewards, sync_rewards)
        assert np.array_equal(terminated, sync_term) and np.array_equal(truncated, sync_trunc)


def test_check_env_passes_on_a_single_sub_env_view() -> None:
    for kwargs in ({}, {"stock_top_playable": False, "reward_shaping": True}):
        view = make_native(4, **kwargs).sub_env_view()
        assert isinstance(view, NativePyramidEnv)
        check_env(view, skip_render_check=True)
        reference = make_reference(**kwargs)
        obs, info = view.reset(seed=5)
        ref_obs, ref_info = reference.reset(seed=5)
        assert np.array_equal(obs, ref_obs) and info["deal_id"] == ref_info["deal_id"]
        rng = np.random.default_rng(0)
        for _ in range(300):  # no autoreset: an ended game refuses every action, as the Python env
            action = int(sample_actions(rng, info["action_mask"][None], 0.2)[0])
            obs, reward, terminated, truncated, info = view.step(action)
            ref = reference.step(action)
            assert np.array_equal(obs, ref[0]) and (reward, terminated, truncated) == ref[1:4]
            assert info.get("illegal_action") == ref[4].get("illegal_action")
            assert info.get("outcome") == ref[4].get("outcome")
            if terminated or truncated:
                obs, info = view.reset()
                reference.reset()


def test_gymnasiums_vector_wrappers_run_on_it() -> None:
    env = RecordEpisodeStatistics(make_native(16, max_episode_steps=200))
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    lengths: list[int] = []
    for _ in range(400):
        info = env.step(sample_actions(rng, info["action_mask"], 0.0))[4]
        if "episode" in info:
            lengths += list(info["episode"]["l"][info["_episode"]])
    assert lengths and all(0 < n <= 126 for n in lengths)  # legal play ends within 126 steps


# --------------------------------------------------------------------------- seeding and autoreset
def test_seeding_deals_what_the_single_env_deals() -> None:
    env = make_native(5, split="train")
    _, first = env.reset(seed=42)
    _, again = env.reset(seed=42)
    assert list(first["deal_id"]) == list(again["deal_id"])
    streams = spawn_seeds(42, 5)  # SeedSequence(42).spawn(5): seeds 42 and 43 share no stream
    expected = [gymnasium.make(ENV_ID).reset(seed=streams[i])[1]["deal_id"] for i in range(5)]
    assert list(first["deal_id"]) == expected
    # Without a seed each sub-env's generator goes on, as the single env's does.
    singles = [gymnasium.make(ENV_ID) for _ in range(5)]
    for i, single in enumerate(singles):
        single.reset(seed=streams[i])
    _, later = env.reset()
    assert list(later["deal_id"]) == [single.reset()[1]["deal_id"] for single in singles]
    # A list gives one seed per sub-env.
    _, listed = env.reset(seed=streams)
    assert list(listed["deal_id"]) == expected
    _, unseeded = make_native(5, split="train").reset()
    assert len(set(unseeded["deal_id"])) == 5


def test_autoreset_is_next_step_and_ignores_the_action() -> None:
    env = make_native(3, max_episode_steps=4)
    reference = make_reference()
    obs, info = env.reset(seed=9)
    reference.reset(seed=spawn_seeds(9, 3)[0])
    for _ in range(4):  # the fourth step truncates every sub-env
        obs, rewards, terminated, truncated, info = env.step(np.full(3, 465))  # draw
    assert truncated.all() and not terminated.any()
    before = env.batch.deal_number.copy()
    obs, rewards, terminated, truncated, info = env.step(np.zeros(3, np.int64))  # illegal: ignored
    assert not (rewards.any() or terminated.any() or truncated.any()) and "illegal_action" not in info
    assert (env.batch.deal_number != before).all()
    ref_obs, ref_info = reference.reset()  # the second deal of seed 9's generator
    assert np.array_equal(obs[0], ref_obs) and info["deal_id"][0] == ref_info["deal_id"]


def test_disabled_autoreset_and_reset_mask() -> None:
    env = make_native(2, max_episode_steps=2, autoreset_mode=AutoresetMode.DISABLED)
    env.reset(seed=1)
    env.step(np.array([465, 465]))
    _, _, _, truncated, _ = env.step(np.array([465, 465]))
    assert truncated.all()
    _, _, _, truncated, _ = env.step(np.array([465, 465]))  # nothing resets by itself
    assert truncated.all()
    obs, info = env.reset(options={"reset_mask": np.array([True, False])})
    assert info["pass"][0] == 1 and obs[0, -4] == 1.0  # a fresh stock: 24 of 24
    _, _, _, truncated, _ = env.step(np.array([465, 465]))
    assert list(truncated) == [False, True]
    with pytest.raises(MalformedInputError, match="DISABLED"):
        make_native(2).reset(options={"reset_mask": np.array([True, False])})


# --------------------------------------------------------------------------- refusals and bad input
def test_an_illegal_action_in_a_batch_is_refused_as_the_single_env_refuses_it() -> None:
    env = make_native(3)
    obs, info = env.reset(seed=4)
    single = gymnasium.make(ENV_ID)
    single.reset(seed=4)
    legal = [int(np.flatnonzero(row)[-1]) for row in info["action_mask"]]
    illegal = int(np.flatnonzero(info["action_mask"][0] == 0)[0])
    expected = single.step(illegal)[4]["illegal_action"]
    after, rewards, terminated, _, step_info = env.step(np.array([illegal, legal[1], legal[2]]))
    assert list(step_info["_illegal_action"]) == [True, False, False]
    assert step_info["illegal_action"][0] == expected
    assert np.array_equal(after[0], obs[0])
    assert np.array_equal(step_info["action_mask"][0], info["action_mask"][0])
    assert rewards[0] == 0.0 and not terminated[0]
    assert not np.array_equal(after[1], obs[1])  # the others moved on


def test_bad_actions_raise_a_clear_error_and_change_nothing() -> None:
    env, twin = make_native(2), make_native(2)
    env.reset(seed=3)
    twin.reset(seed=3)
    for bad, match in ((np.array([0, 467]), "467 is not an action"),
                       (np.array([-1, 0]), "-1 is not an action"),
                       (np.array([465]), "2 integers"), (np.array([465.0, 465.0]), "integers"),
                       (np.array([[465, 465]]), "2 integers")):
        with pytest.raises(MalformedInputError, match=match):
            env.step(bad)
    ours, theirs = env.step(np.array([465, 465])), twin.step(np.array([465, 465]))
    assert np.array_equal(ours[0], theirs[0]) and list(ours[4]["deal_id"]) == list(theirs[4]["deal_id"])
    with pytest.raises(gymnasium.error.ResetNeeded):
        make_native(1).step(np.array([465]))


def test_bad_settings_and_options_are_refused() -> None:
    with pytest.raises(MalformedInputError, match="num_envs"):
        make_native(0)
    with pytest.raises(MalformedInputError, match="SAME_STEP"):
        make_native(2, autoreset_mode=AutoresetMode.SAME_STEP)
    env = make_native(2)
    env.reset(seed=0)
    before = env.batch.obs.copy()
    for options, match in (({"deal": "pyramid-random-v1-x"}, "deal"), ({"colour": 1}, "unknown reset option"),
                           ({"deals": ["pyramid-random-v1-1"]}, "one deal"),
                           ({"deals": [None, "klondike-random-v1-1"]}, "klondike deal")):
        with pytest.raises(MalformedInputError, match=match):
            env.reset(options=options)
    assert np.array_equal(env.batch.obs, before)


def test_deals_given_by_options_are_dealt() -> None:
    env = make_native(2)
    _, info = env.reset(options={"deal": "pyramid-random-v1-7"})
    assert list(info["deal_id"]) == ["pyramid-random-v1-7"] * 2 and list(info["deal_number"]) == [7, 7]
    code = DealId("pyramid", "random", 1, 8).cards()
    obs, info = env.reset(options={"deals": [None, list(code)]})
    assert info["deal_number"][1] == -1 and len(info["deal_id"][1]) == 104
    single = make_reference()
    assert np.array_equal(obs[1], single.reset(options={"deal": "pyramid-random-v1-8"})[0])


def test_pickling_is_refused_with_the_way_to_make_one() -> None:
    env = make_native(2)
    with pytest.raises(TypeError, match="make_vec"):
        pickle.dumps(env)
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(env.sub_env_view())


def test_threads_and_copies_do_not_change_the_results() -> None:
    results = []
    for kwargs in ({"num_threads": 1}, {"num_threads": 3}, {"copy": False}):
        env = make_native(300, **kwargs)
        _, info = env.reset(seed=2)
        rng = np.random.default_rng(1)
        total = np.zeros(300)
        for _ in range(150):
            obs, rewards, terminated, truncated, info = env.step(sample_actions(rng, info["action_mask"]))
            total += rewards + terminated + 2 * truncated + obs.sum(axis=1)
        results.append(total)
    assert np.array_equal(results[0], results[1]) and np.array_equal(results[0], results[2])
    env = make_native(2, copy=False)
    obs, _ = env.reset(seed=0)
    assert obs is env.batch.obs
