"""Every encoding as a Gymnasium wrapper (issue 38): ``check_env`` passes, the spec rebuilds it, and
its observations are the encoding's vectors of the raw env's, with the same step's mask."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import solitaire_rl  # noqa: F401  (registers the environments)
from solitaire_rl.agents.encodings import ENCODINGS, EncodedObservations, find_encoding
from solitaire_rl.envs.errors import MalformedInputError

ENV_IDS = {"pyramid": "Solitaire/Pyramid-v0", "klondike": "Solitaire/Klondike-v0"}


@pytest.mark.parametrize("name", list(ENCODINGS))
def test_check_env_passes_on_the_wrapped_env_and_its_space_is_the_encodings(name: str) -> None:
    encoding = ENCODINGS[name]
    raw = gymnasium.make(ENV_IDS[encoding.game])
    env = EncodedObservations(raw, name)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env, skip_render_check=True)
    messages = [str(w.message) for w in caught]
    assert all("different from the unwrapped" in m for m in messages), messages
    assert env.observation_space == encoding.input_space(raw.observation_space)


@pytest.mark.parametrize("name", list(ENCODINGS))
def test_observations_are_the_encoding_of_the_raw_ones_with_the_same_steps_mask(name: str) -> None:
    encoding = ENCODINGS[name]
    raw = gymnasium.make(ENV_IDS[encoding.game])
    env = EncodedObservations(gymnasium.make(ENV_IDS[encoding.game]), name)
    raw_obs, raw_info = raw.reset(seed=3)
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(30):
        np.testing.assert_array_equal(obs, encoding.encode(raw_obs, raw_info["action_mask"]))
        assert env.observation_space.contains(obs)
        np.testing.assert_array_equal(env.action_masks(), info["action_mask"])
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        raw_obs, _, _, _, raw_info = raw.step(action)
        obs, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break


@pytest.mark.parametrize("name", ["pyramid-actions", "klondike-compact", "klondike-actions"])
def test_the_spec_names_the_wrapper_and_rebuilds_it(name: str) -> None:
    env = EncodedObservations(gymnasium.make(ENV_IDS[name.split("-")[0]]), name)
    assert env.spec is not None
    (wrapper,) = env.spec.additional_wrappers
    assert wrapper.name == "EncodedObservations" and wrapper.kwargs == {"encoding": name}
    again = gymnasium.make(env.spec)
    assert isinstance(again, EncodedObservations) and again.encoding.name == name
    first, _ = env.reset(seed=11)
    second, _ = again.reset(seed=11)
    np.testing.assert_array_equal(first, second)


def test_an_unknown_or_other_games_encoding_or_a_foreign_env_is_refused() -> None:
    with pytest.raises(MalformedInputError, match="encoding 'klondike-compact' for pyramid"):
        EncodedObservations(gymnasium.make(ENV_IDS["pyramid"]), "klondike-compact")
    with pytest.raises(MalformedInputError, match="unknown observation encoding 'compact'"):
        EncodedObservations(gymnasium.make(ENV_IDS["klondike"]), "compact")
    with pytest.raises(MalformedInputError, match="not a solitaire-rl environment: CartPoleEnv"):
        EncodedObservations(gymnasium.make("CartPole-v1"), "klondike-compact")


def test_encoding_wrap_gives_the_same_wrapper_and_leaves_identity_encodings_alone() -> None:
    raw = gymnasium.make(ENV_IDS["klondike"])
    assert find_encoding("klondike-cards", "klondike").wrap(raw) is raw
    wrapped = find_encoding("klondike-compact", "klondike").wrap(raw)
    assert isinstance(wrapped, EncodedObservations) and wrapped.spec is not None
    assert wrapped.spec.additional_wrappers[-1].kwargs == {"encoding": "klondike-compact"}
