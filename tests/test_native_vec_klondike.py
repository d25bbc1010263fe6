"""The native batched Klondike env (solitaire_rl/envs/klondike/vector.py) against the Python env, the
reference.

The differential tests drive ``gymnasium.make_vec(..., vectorization_mode="vector_entry_point")``
and one ``gymnasium.make`` env per sub-env (seeded ``S + i``, reset by hand where Gymnasium's
next-step autoreset resets, or with the same options where the test resets) with the same
actions, random legal ones with some random illegal ones mixed in, and require identical
observations, masks, rewards, terminations, truncations and infos at every step. Over 100,000
steps in all, ending by win, dead end, no progress and truncation: random deals with a short step
limit, and near-won and dead-end positions given by ``options``.
"""

from __future__ import annotations

import pickle
from collections import Counter
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import RecordEpisodeStatistics
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solitaire_rl  # noqa: F401  (registers the environments)
from solitaire_rl.envs.deals import DealId
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike.actions import ACTION_INDEX, NUM_ACTIONS
from solitaire_rl.envs.klondike.game import KlondikeGame
from solitaire_rl.envs.klondike.moves import Move
from solitaire_rl.envs.klondike.vector import KlondikeVectorEnv, NativeKlondikeEnv
from solitaire_rl.envs.native_batch import spawn_seeds
from solitaire_rl.envs.wrappers import TruncationOutcome

ENV_ID = "Solitaire/Klondike-v0"
ILLEGAL_SHARE = 0.05
INFO_KEYS = ("deal_id", "cards_cleared", "cards_up", "recycles")


def make_native(num_envs: int, **kwargs: Any) -> KlondikeVectorEnv:
    """The native vector env over any deal (``split="any"``, as :func:`make_reference`)."""
    kwargs.setdefault("split", "any")
    env = gymnasium.make_vec(ENV_ID, num_envs=num_envs, vectorization_mode="vector_entry_point", **kwargs)
    assert isinstance(env, KlondikeVectorEnv)
    return env


def make_reference(**kwargs: Any) -> gymnasium.Env:
    """The Python env as a differential reference: any deal, ``"truncated"`` written as the native
    env writes it (:class:`TruncationOutcome`, as ``GameSpec.make_env`` wraps it)."""
    kwargs.setdefault("split", "any")
    return TruncationOutcome(gymnasium.make(ENV_ID, **kwargs))


TO_FOUNDATION = np.array([1, *range(9, 16)])
"""The actions that put a card up (waste or a column's last card to its foundation)."""


def sample_actions(rng: np.random.Generator, mask: np.ndarray, illegal_share: float = ILLEGAL_SHARE,
                   foundation_first: float = 0.0) -> np.ndarray:
    """A random legal action per row (any action where none is legal), some replaced by any action;
    with probability ``foundation_first`` a row puts a card up if it can."""
    scores = rng.random(mask.shape)
    eager = rng.random(len(scores)) < foundation_first
    scores[np.ix_(eager, TO_FOUNDATION)] += 1.0
    scores[mask == 0] = -1.0
    actions = scores.argmax(axis=1)
    wild = rng.random(len(actions)) < illegal_share
    actions[wild] = rng.integers(0, NUM_ACTIONS, int(wild.sum()))
    return actions


def optional(info: dict[str, Any], key: str, i: int) -> object:
    """Sub-env ``i``'s entry of a vector info key, ``None`` where it has none."""
    return info[key][i] if key in info and info[f"_{key}"][i] else None


def near_won(rng: np.random.Generator, draw_count: int = 3) -> KlondikeGame:
    """A position with 10..13 cards of each suit up and the rest face up in columns or in the stock."""
    foundations = [int(f) for f in rng.integers(10, 14, 4)]
    rest = [(r - 1) * 4 + s for s in range(4) for r in range(foundations[s] + 1, 14)]
    rng.shuffle(rest)
    columns = [[c] for c in rest[:7]] + [[] for _ in range(7 - min(7, len(rest)))]
    return KlondikeGame.from_position(columns, [0] * 7, stock=rest[7:], foundations=foundations,
                                      draw_count=draw_count)


def dead_end_ahead(draw_count: int = 3) -> KlondikeGame:
    """Every card black but for full red foundations: once 6S goes up from the waste, nothing moves."""
    down = {0: ["6C"], 1: ["7S"], 2: ["7C"], 6: ["JC", "QC", "KC", "JS", "QS"]}
    ends = ["8C", "8S", "9C", "9S", "10C", "10S", "KS"]
    columns = [[*down.get(c, []), end] for c, end in enumerate(ends)]
    return KlondikeGame.from_position(columns, [len(down.get(c, [])) for c in range(7)], stock=[],
                                      waste=["6S"], foundations=[5, 13, 13, 5], draw_count=draw_count)


def compare(info: dict[str, Any], refs: list[tuple[Any, ...]], step: tuple[Any, ...] | None) -> None:
    """The native vector env's results against the Python envs' (``refs``: one tuple per sub-env)."""
    ref_obs = np.stack([r[0] for r in refs])
    ref_infos = [r[-1] for r in refs]
    assert np.array_equal(info["action_mask"], np.stack([ri["action_mask"] for ri in ref_infos]))
    for key in INFO_KEYS:
        assert list(info[key]) == [ri[key] for ri in ref_infos], key
    for key in ("illegal_action", "outcome"):
        assert [optional(info, key, i) for i in range(len(refs))] == [ri.get(key) for ri in ref_infos], key
    if step is not None:
        obs, rewards, terminated, truncated = step
        assert np.array_equal(obs, ref_obs)
        assert np.array_equal(rewards, np.asarray([r[1] for r in refs], np.float64))
        assert np.array_equal(terminated, [r[2] for r in refs])
        assert np.array_equal(truncated, [r[3] for r in refs])


def tally(seen: Counter[str], refs: list[tuple[Any, ...]]) -> None:
    for _, _, terminated, truncated, ri in refs:
        seen["illegal"] += "illegal_action" in ri
        if terminated or truncated:
            seen[ri.get("outcome") or "truncated"] += 1


def drive_with_autoreset(num_envs: int, steps: int, seed: int, **kwargs: Any) -> Counter[str]:
    """Random deals, Gymnasium's next-step autoreset, the Python envs reset by hand alongside."""
    native = make_native(num_envs, **kwargs)
    reference = [make_reference(**kwargs) for _ in range(num_envs)]
    streams = spawn_seeds(seed, num_envs)
    obs, info = native.reset(seed=seed)
    resets = [env.reset(seed=streams[i]) for i, env in enumerate(reference)]
    assert np.array_equal(obs, np.stack([o for o, _ in resets]))
    compare(info, resets, None)
    rng = np.random.default_rng(seed)
    done = np.zeros(num_envs, np.bool_)
    seen: Counter[str] = Counter()
    for _ in range(steps // num_envs):
        actions = sample_actions(rng, info["action_mask"])
        obs, rewards, terminated, truncated, info = native.step(actions)
        refs = []
        for i, env in enumerate(reference):
            if done[i]:  # next-step autoreset: this step is the reset, the action is ignored
                o, ri = env.reset()
                refs.append((o, 0.0, False, False, ri))
                seen["autoreset"] += 1
            else:
                refs.append(env.step(int(actions[i])))
        compare(info, refs, (obs, rewards, terminated, truncated))
        tally(seen, refs)
        done = terminated | truncated
    return seen


def drive_with_positions(num_envs: int, steps: int, seed: int, **kwargs: Any) -> Counter[str]:
    """Autoreset disabled; each ended sub-env is reset (``reset_mask``) with a near-won position, the
    dead-end position or a random deal, the Python env with the same option. Half the actions put
    a card up where one can go up (random play alone takes a near-won game apart again)."""
    native = make_native(num_envs, autoreset_mode=AutoresetMode.DISABLED, **kwargs)
    reference = [make_reference(**kwargs) for _ in range(num_envs)]
    streams = spawn_seeds(seed, num_envs)
    rng = np.random.default_rng(seed)

    def option(i: int) -> KlondikeGame | None:
        kind = (i + int(rng.integers(3))) % 3
        draw = kwargs.get("draw_count", 3)
        return near_won(rng, draw) if kind == 0 else dead_end_ahead(draw) if kind == 1 else None

    deals = [option(i) for i in range(num_envs)]
    obs, info = native.reset(seed=seed, options={"deals": deals})
    resets = [env.reset(seed=streams[i], options={} if d is None else {"game": d})
              for i, (env, d) in enumerate(zip(reference, deals, strict=True))]
    assert np.array_equal(obs, np.stack([o for o, _ in resets]))
    compare(info, resets, None)
    seen: Counter[str] = Counter()
    for _ in range(steps // num_envs):
        actions = sample_actions(rng, info["action_mask"], foundation_first=0.5)
        obs, rewards, terminated, truncated, info = native.step(actions)
        refs = [env.step(int(a)) for env, a in zip(reference, actions, strict=True)]
        compare(info, refs, (obs, rewards, terminated, truncated))
        tally(seen, refs)
        ended = terminated | truncated
        if ended.any():
            indices = np.flatnonzero(ended).tolist()
            deals = [option(i) if ended[i] else None for i in range(num_envs)]
            obs, info = native.reset(options={"reset_mask": ended, "deals": deals})
            for i in indices:
                o, ri = reference[i].reset(options={} if deals[i] is None else {"game": deals[i]})
                assert np.array_equal(obs[i], o) and np.array_equal(info["action_mask"][i], ri["action_mask"])
                assert info["deal_id"][i] == ri["deal_id"]
                seen["reset"] += 1
    return seen


# --------------------------------------------------------------------------- differential tests
def test_the_native_batch_steps_exactly_as_the_python_env_on_random_deals() -> None:
    """64,000 steps: no-progress endings, truncations, illegal actions, autoresets."""
    seen = drive_with_autoreset(64, 64_000, seed=500, reward_shaping=True, max_episode_steps=250)
    assert all(seen[kind] > 0 for kind in ("no_progress", "truncated", "illegal", "autoreset")), seen


def test_the_native_batch_steps_exactly_as_the_python_env_to_wins_and_dead_ends() -> None:
    """40,000 steps from near-won and dead-end positions (and random deals): every kind of ending."""
    seen = drive_with_positions(40, 40_000, seed=77, reward_shaping=True, max_episode_steps=200)
    assert all(seen[kind] > 0 for kind in ("win", "dead_end", "no_progress", "truncated", "illegal")), seen


def test_the_plain_reward_draw_one_and_the_default_step_limit_match_too() -> None:
    seen = drive_with_autoreset(16, 6_400, seed=3)
    assert seen["no_progress"] > 0
    seen = drive_with_autoreset(16, 4_800, seed=4, draw_count=1, max_episode_steps=200)
    assert seen["no_progress"] + seen["truncated"] > 0
    seen = drive_with_positions(8, 2_400, seed=5, draw_count=1)
    assert seen["win"] > 0


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=st.integers(0, 2**31 - 1), seed=st.integers(0, 2**16), shaped=st.booleans())
def test_a_native_game_follows_the_python_game_from_any_deal(deal: int, seed: int, shaped: bool) -> None:
    view = NativeKlondikeEnv(reward_shaping=shaped, max_episode_steps=300, split="any")
    reference = make_reference(reward_shaping=shaped, max_episode_steps=300)
    spec = f"klondike-random-v1-{deal}"
    obs, info = view.reset(options={"deal": spec})
    ref_obs, ref_info = reference.reset(options={"deal": spec})
    assert np.array_equal(obs, ref_obs) and info["deal_id"] == ref_info["deal_id"] == spec
    rng = np.random.default_rng(seed)
    for _ in range(300):
        action = int(sample_actions(rng, info["action_mask"][None], 0.1)[0])
        obs, reward, terminated, truncated, info = view.step(action)
        ref = reference.step(action)
        assert np.array_equal(obs, ref[0]) and (reward, terminated, truncated) == ref[1:4]
        assert np.array_equal(info["action_mask"], ref[4]["action_mask"])
        assert info.get("outcome") == ref[4].get("outcome")
        assert info.get("illegal_action") == ref[4].get("illegal_action")
        if terminated or truncated:
            break


# --------------------------------------------------------------------------- Gymnasium's API
def test_make_vec_gives_the_native_env_with_the_single_env_spaces() -> None:
    single = gymnasium.make(ENV_ID)
    env = make_native(8)
    assert env.single_observation_space == single.observation_space
    assert env.single_action_space == single.action_space
    assert env.observation_space.shape == (8, 190) and env.action_space.shape == (8,)
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert env.max_episode_steps == 1000 and env.draw_count == 3
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert info["action_mask"].dtype == np.int8 and info["action_mask"].shape == (8, NUM_ACTIONS)
    assert np.array_equal(env.action_masks(), info["action_mask"].astype(np.bool_))
    assert isinstance(gymnasium.make_vec(ENV_ID, num_envs=2), KlondikeVectorEnv)  # the default mode
    sync = gymnasium.make_vec(ENV_ID, num_envs=2, vectorization_mode="sync")
    assert not isinstance(sync, KlondikeVectorEnv)


def test_it_steps_as_gymnasiums_own_sync_vector_env() -> None:
    """Gymnasium's SyncVectorEnv over the Python envs is the reference for the vector API itself."""
    native = make_native(6, reward_shaping=True, max_episode_steps=60)
    sync = gymnasium.make_vec(ENV_ID, num_envs=6, vectorization_mode="sync", reward_shaping=True,
                              max_episode_steps=60, split="any", wrappers=[TruncationOutcome])
    obs, info = native.reset(seed=11)
    sync_obs, sync_info = sync.reset(seed=spawn_seeds(11, 6))  # Gymnasium's own gives seed + i
    rng = np.random.default_rng(3)
    for _ in range(300):
        assert np.array_equal(obs, sync_obs)
        for key in ("action_mask", *INFO_KEYS, "illegal_action", "outcome"):
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
    for kwargs in ({}, {"reward_shaping": True, "max_episode_steps": 50}):
        view = make_native(4, **kwargs).sub_env_view()
        assert isinstance(view, NativeKlondikeEnv)
        check_env(view, skip_render_check=True)
        reference = make_reference(**kwargs)
        obs, info = view.reset(seed=5)
        ref_obs, ref_info = reference.reset(seed=5)
        assert np.array_equal(obs, ref_obs) and info["deal_id"] == ref_info["deal_id"]
        rng = np.random.default_rng(0)
        for _ in range(200):  # no autoreset: an ended game stays ended, as the Python env
            action = int(sample_actions(rng, info["action_mask"][None], 0.2)[0])
            obs, reward, terminated, truncated, info = view.step(action)
            ref = reference.step(action)
            assert np.array_equal(obs, ref[0]) and (reward, terminated, truncated) == ref[1:4]
            assert info.get("illegal_action") == ref[4].get("illegal_action")
            assert info.get("outcome") == ref[4].get("outcome")


def test_gymnasiums_vector_wrappers_run_on_it() -> None:
    env = RecordEpisodeStatistics(make_native(16, max_episode_steps=100))
    _, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    lengths: list[int] = []
    for _ in range(300):
        info = env.step(sample_actions(rng, info["action_mask"], 0.0))[4]
        if "episode" in info:
            lengths += list(info["episode"]["l"][info["_episode"]])
    assert lengths and all(0 < n <= 100 for n in lengths)


# --------------------------------------------------------------------------- seeding and autoreset
def test_seeding_deals_what_the_single_env_deals() -> None:
    env = make_native(5, split="train")
    _, first = env.reset(seed=42)
    _, again = env.reset(seed=42)
    assert list(first["deal_id"]) == list(again["deal_id"])
    streams = spawn_seeds(42, 5)  # SeedSequence(42).spawn(5): seeds 42 and 43 share no stream
    expected = [gymnasium.make(ENV_ID).reset(seed=streams[i])[1]["deal_id"] for i in range(5)]
    assert list(first["deal_id"]) == expected
    singles = [gymnasium.make(ENV_ID) for _ in range(5)]
    for i, single in enumerate(singles):
        single.reset(seed=streams[i])
    _, later = env.reset()  # without a seed each sub-env's generator goes on
    assert list(later["deal_id"]) == [single.reset()[1]["deal_id"] for single in singles]
    _, listed = env.reset(seed=streams)
    assert list(listed["deal_id"]) == expected
    _, unseeded = make_native(5, split="train").reset()
    assert len(set(unseeded["deal_id"])) == 5


def test_autoreset_is_next_step_and_ignores_the_action() -> None:
    env = make_native(3, max_episode_steps=4)
    reference = make_reference()
    env.reset(seed=9)
    reference.reset(seed=spawn_seeds(9, 3)[0])
    for _ in range(4):  # the fourth step truncates every sub-env
        _, _, terminated, truncated, _ = env.step(np.zeros(3, np.int64))  # draw
    assert truncated.all() and not terminated.any()
    before = env.batch.deal_number.copy()
    obs, rewards, terminated, truncated, info = env.step(np.full(3, 100))  # illegal, but ignored
    assert not (rewards.any() or terminated.any() or truncated.any()) and "illegal_action" not in info
    assert (env.batch.deal_number != before).all()
    ref_obs, ref_info = reference.reset()  # the second deal of seed 9's generator
    assert np.array_equal(obs[0], ref_obs) and info["deal_id"][0] == ref_info["deal_id"]


def test_disabled_autoreset_and_reset_mask() -> None:
    env = make_native(2, max_episode_steps=2, autoreset_mode=AutoresetMode.DISABLED)
    env.reset(seed=1)
    env.step(np.zeros(2, np.int64))
    _, _, _, truncated, _ = env.step(np.zeros(2, np.int64))
    assert truncated.all()
    _, _, _, truncated, _ = env.step(np.zeros(2, np.int64))  # nothing resets by itself
    assert truncated.all()
    obs, _ = env.reset(options={"reset_mask": np.array([True, False])})
    assert (obs[0, 133:157] == 53).all() and not (obs[1, 133:157] == 53).all()  # a fresh, empty waste
    _, _, _, truncated, _ = env.step(np.zeros(2, np.int64))
    assert list(truncated) == [False, True]
    with pytest.raises(MalformedInputError, match="DISABLED"):
        make_native(2).reset(options={"reset_mask": np.array([True, False])})


# --------------------------------------------------------------------------- refusals and bad input
def test_an_illegal_action_in_a_batch_is_refused_as_the_single_env_refuses_it() -> None:
    env = make_native(3)
    obs, info = env.reset(seed=4)
    single = gymnasium.make(ENV_ID)
    single.reset(seed=4)
    illegal = int(np.flatnonzero(info["action_mask"][0] == 0)[-1])
    expected = single.step(illegal)[4]["illegal_action"]
    after, rewards, terminated, _, step_info = env.step(np.array([illegal, 0, 0]))
    assert list(step_info["_illegal_action"]) == [True, False, False]
    assert step_info["illegal_action"][0] == expected
    assert np.array_equal(after[0], obs[0])
    assert np.array_equal(step_info["action_mask"][0], info["action_mask"][0])
    assert rewards[0] == 0.0 and not terminated[0]
    assert not np.array_equal(after[1], obs[1])  # the others moved on (a draw)


def test_a_won_game_refuses_everything_with_the_single_env_reason() -> None:
    game = KlondikeGame.from_position([[51], [], [], [], [], [], []], [0] * 7, stock=[],
                                      foundations=[13, 13, 13, 12])
    env = make_native(1, autoreset_mode=AutoresetMode.DISABLED)
    env.reset(options={"game": game})
    _, reward, terminated, _, info = env.step(np.array([ACTION_INDEX[Move.parse("c1>f")]]))
    assert reward[0] == 1.0 and terminated[0] and info["outcome"][0] == "win" and info["cards_up"][0] == 52
    assert not env.action_masks().any()
    _, _, _, _, info = env.step(np.array([0]))
    assert info["illegal_action"][0] == "All 52 cards are on the foundations: the game is won."


def test_bad_actions_raise_a_clear_error_and_change_nothing() -> None:
    env, twin = make_native(2), make_native(2)
    env.reset(seed=3)
    twin.reset(seed=3)
    for bad, match in ((np.array([0, 590]), "590 is not an action"),
                       (np.array([-1, 0]), "-1 is not an action"), (np.array([0]), "2 integers"),
                       (np.array([0.0, 0.0]), "integers"), (np.array([[0, 0]]), "2 integers")):
        with pytest.raises(MalformedInputError, match=match):
            env.step(bad)
    ours, theirs = env.step(np.array([0, 0])), twin.step(np.array([0, 0]))
    assert np.array_equal(ours[0], theirs[0]) and list(ours[4]["deal_id"]) == list(theirs[4]["deal_id"])
    with pytest.raises(gymnasium.error.ResetNeeded):
        make_native(1).step(np.array([0]))


def test_bad_settings_and_options_are_refused() -> None:
    with pytest.raises(MalformedInputError, match="num_envs"):
        make_native(0)
    with pytest.raises(MalformedInputError, match="draw_count"):
        make_native(2, draw_count=2)
    with pytest.raises(MalformedInputError, match="max_episode_steps"):
        make_native(2, max_episode_steps=0)
    with pytest.raises(MalformedInputError, match="SAME_STEP"):
        make_native(2, autoreset_mode=AutoresetMode.SAME_STEP)
    env = make_native(2)
    env.reset(seed=0)
    before = env.batch.obs.copy()
    long_stock = KlondikeGame.from_position([[c] for c in range(7)], [0] * 7, stock=list(range(7, 52)))
    for options, match in (({"deal": "klondike-random-v1-x"}, "deal"),
                           ({"colour": 1}, "unknown reset option"),
                           ({"deals": ["klondike-random-v1-1"]}, "one deal"),
                           ({"deals": [None, "pyramid-random-v1-1"]}, "pyramid deal"),
                           ({"game": "klondike-random-v1-1"}, "KlondikeGame"),
                           ({"game": long_stock}, "a Klondike talon holds at most 24"),
                           ({"deal": "klondike-random-v1-1", "game": KlondikeGame()}, "not")):
        with pytest.raises(MalformedInputError, match=match):
            env.reset(options=options)
    assert np.array_equal(env.batch.obs, before)


def test_deals_given_by_options_are_dealt() -> None:
    env = make_native(2)
    _, info = env.reset(options={"deal": "klondike-random-v1-7"})
    assert list(info["deal_id"]) == ["klondike-random-v1-7"] * 2 and list(info["deal_number"]) == [7, 7]
    code = DealId("klondike", "random", 1, 8).cards()
    obs, info = env.reset(options={"deals": [None, list(code)]})
    assert info["deal_number"][1] == -1 and len(info["deal_id"][1]) == 104
    single = make_reference()
    assert np.array_equal(obs[1], single.reset(options={"deal": "klondike-random-v1-8"})[0])
    draw_one = KlondikeGame("klondike-random-v1-9", draw_count=1)  # a position keeps its draw count
    obs, _ = env.reset(options={"game": draw_one})
    assert np.array_equal(obs[0], single.reset(options={"game": draw_one})[0])
    after, ref_after = env.step(np.zeros(2, np.int64))[0], single.step(0)[0]
    assert np.array_equal(after[0], ref_after) and np.array_equal(after[1], ref_after)
    assert after[0, 133] != 53 and (after[0, 134:157] == 53).all()  # one card drawn


def test_pickling_is_refused_with_the_way_to_make_one() -> None:
    env = make_native(2)
    with pytest.raises(TypeError, match="make_vec"):
        pickle.dumps(env)
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(env.sub_env_view())


def test_threads_and_copies_do_not_change_the_results() -> None:
    results = []
    for kwargs in ({"num_threads": 1}, {"num_threads": 3}, {"copy": False}):
        env = make_native(256, max_episode_steps=100, **kwargs)
        _, info = env.reset(seed=2)
        rng = np.random.default_rng(1)
        total = np.zeros(256)
        for _ in range(120):
            obs, rewards, terminated, truncated, info = env.step(sample_actions(rng, info["action_mask"]))
            total += rewards + terminated + 2 * truncated + obs.sum(axis=1)
        results.append(total)
    assert np.array_equal(results[0], results[1]) and np.array_equal(results[0], results[2])
    env = make_native(2, copy=False)
    obs, _ = env.reset(seed=0)
    assert obs is env.batch.obs
