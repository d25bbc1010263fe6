"""The sampled expert player (solitaire_rl/agents/expert/sampled.py): moves drawn from the policy over
the legal moves, the same draws after the same reseed, the registry's ``expert-sampled`` with a checkpoint
of its own, and no hidden card read."""

from __future__ import annotations

import numpy as np
import pytest

from solitaire_rl.agents.base import play_episode
from solitaire_rl.agents.expert.checkpoint import default_expert_checkpoint
from solitaire_rl.agents.expert.sampled import SampledExpertPlayer
from solitaire_rl.agents.registry import make_player
from solitaire_rl.envs.deals import DealId
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike.layout import DEAL_SLOTS
from solitaire_rl.envs.spec import find_game
from tests.position_helpers import choices_while_observations_agree

KLONDIKE = find_game("klondike")
CHECKPOINT = default_expert_checkpoint(KLONDIKE)


def _moves(player: SampledExpertPlayer, seed: int) -> list[int]:
    player.reseed(seed)
    env = KLONDIKE.make_env(max_episode_steps=60)
    obs, info = env.reset(options={"deal": KLONDIKE.deal_id(100_001)})
    player.reset(env)
    moves = []
    for _ in range(60):
        mask = np.asarray(info["action_mask"], bool)
        if not mask.any():
            break
        choice = player.choose(obs, mask, info)
        assert mask[choice.action] and "drawn from the expert network's policy" in choice.reason
        moves.append(choice.action)
        obs, _, terminated, truncated, info = env.step(choice.action)
        if terminated or truncated:
            break
    return moves


def test_moves_are_drawn_from_the_policy_and_repeat_after_the_same_reseed() -> None:
    player = SampledExpertPlayer(KLONDIKE, CHECKPOINT)
    first, again = _moves(player, 7), _moves(player, 7)
    assert first == again
    assert any(_moves(player, seed) != first for seed in (8, 9, 10))


def test_the_registry_plays_it_with_the_checkpoint_given() -> None:
    player = make_player("expert-sampled", KLONDIKE, checkpoint=CHECKPOINT, seed=4)
    assert isinstance(player, SampledExpertPlayer)
    result = play_episode(KLONDIKE.make_env(max_episode_steps=50), player, KLONDIKE.deal_id(100_002),
                          KLONDIKE.cards_cleared)
    assert result.steps > 0
    with pytest.raises(MalformedInputError, match="no option"):
        make_player("expert-sampled", KLONDIKE, checkpoint=CHECKPOINT, samples=3)


def test_the_player_never_reads_a_hidden_card() -> None:
    cards = list(DealId.parse("klondike-random-v1-8").cards())
    down = [i for i, (col, depth) in enumerate(DEAL_SLOTS) if depth < col]
    other = list(cards)
    other[down[0]], other[down[-1]] = other[down[-1]], other[down[0]]
    assert choices_while_observations_agree(KLONDIKE.key, cards, other,
                                            lambda: SampledExpertPlayer(KLONDIKE, CHECKPOINT, seed=3),
                                            limit=60) >= 1
