"""Klondike's suit symmetries against the engine: a renamed deal plays as the renamed game."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from solitaire_rl.envs.deals import DealId, encode_deal_code
from solitaire_rl.envs.klondike.symmetry import (
    SUIT_SYMMETRIES,
    action_permutation,
    card_table,
    permute_actions,
    permute_observations,
)
from solitaire_rl.envs.spec import find_game

KLONDIKE = find_game("klondike")


def test_the_symmetries_keep_colours_together_and_form_a_group() -> None:
    colour = (0, 1, 1, 0)  # C, D, H, S: black, red, red, black
    for sigma in SUIT_SYMMETRIES:
        assert sorted(sigma) == [0, 1, 2, 3]
        for a in range(4):
            for b in range(4):
                assert (colour[a] == colour[b]) == (colour[sigma[a]] == colour[sigma[b]])
    assert len(set(SUIT_SYMMETRIES)) == 8
    for s in SUIT_SYMMETRIES:
        for t in SUIT_SYMMETRIES:
            assert tuple(t[s[i]] for i in range(4)) in SUIT_SYMMETRIES
    for sigma in SUIT_SYMMETRIES:
        assert sorted(action_permutation(sigma).tolist()) == list(range(KLONDIKE.num_actions))


@settings(max_examples=12, deadline=None)
@given(number=st.integers(100_001, 110_000), which=st.integers(0, 7), seed=st.integers(0, 2**31))
def test_a_renamed_deal_shows_the_renamed_observation_and_mask_at_every_step(number: int, which: int,
                                                                             seed: int) -> None:
    sigma = SUIT_SYMMETRIES[which]
    cards = list(DealId.parse(KLONDIKE.deal_id(number)).cards())
    renamed = card_table(sigma)[cards].tolist()
    env_a, env_b = KLONDIKE.make_env(), KLONDIKE.make_env()
    obs_a, info_a = env_a.reset(options={"deal": encode_deal_code(cards)})
    obs_b, info_b = env_b.reset(options={"deal": encode_deal_code(renamed)})
    perm = action_permutation(sigma)
    rng = np.random.default_rng(seed)
    for _ in range(60):
        mask_a = np.asarray(info_a["action_mask"], bool)
        assert (permute_observations(obs_a[None], sigma)[0] == obs_b).all()
        assert (permute_actions(mask_a[None], sigma)[0] == np.asarray(info_b["action_mask"], bool)).all()
        action = int(rng.choice(np.flatnonzero(mask_a)))
        obs_a, reward_a, done_a, _, info_a = env_a.step(action)
        obs_b, reward_b, done_b, _, info_b = env_b.step(int(perm[action]))
        assert reward_a == reward_b and done_a == done_b
        if done_a:
            break
