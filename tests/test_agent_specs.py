"""One AgentSpec per agent (solitaire_rl.agents.registry.AGENTS): what callers read instead of names."""

from __future__ import annotations

import pytest

from solitaire_rl.agents.registry import AGENT_NAMES, AGENTS, agent_spec, make_player, unavailable_reason
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.training.benchmark import is_planner
from solitaire_rl.training.benchmark_options import (
    CHECKPOINT_AGENTS,
    DETERMINISTIC_AGENTS,
    EXPERT_AGENTS,
    PPO_AGENTS,
)
from solitaire_rl.training.benchmark_rows import KLONDIKE_PLANNERS, information_setting


def test_every_agent_has_one_spec_under_its_name() -> None:
    assert tuple(AGENTS) == AGENT_NAMES
    assert all(spec.name == name and spec.games <= {"pyramid", "klondike"} and spec.games
               for name, spec in AGENTS.items())


def test_the_benchmark_reads_its_agent_sets_from_the_specs() -> None:
    assert set(EXPERT_AGENTS) == {"expert-net", "expert-sampled", "guided-ismcts", "guided-pimc"}
    assert set(CHECKPOINT_AGENTS) == {"ppo", "ppo-privileged", *EXPERT_AGENTS}
    assert set(PPO_AGENTS) == {"ppo", "ppo-privileged"}
    assert set(DETERMINISTIC_AGENTS) == {"greedy", "solver", "expert-net"}
    assert set(KLONDIKE_PLANNERS) == {"hop", "ismcts", "guided-ismcts"}
    assert {name for name in AGENT_NAMES if is_planner(name)} == {
        "pimc", "hop", "ismcts", "guided-ismcts", "guided-pimc", "world-bandit"}
    assert not is_planner("my_module:make_player")
    assert [information_setting(name) for name in ("solver", "greedy", "hop")] == [
        "thoughtful", "hidden cards", "hidden cards"]
    assert information_setting("hop", stock_known=True) == "stock known"


@pytest.mark.parametrize("name", [n for n in AGENT_NAMES if AGENTS[n].games == {"klondike"}])
def test_a_klondike_only_agent_refuses_pyramid_clearly(name: str) -> None:
    with pytest.raises(MalformedInputError, match=f"the {name} player plays Klondike, not pyramid"):
        make_player(name, "pyramid-001")
    assert unavailable_reason(name, "pyramid") == f"the {name} player plays Klondike only"


def test_an_option_the_agent_does_not_take_is_refused_before_it_is_built() -> None:
    refusal = r"the greedy agent takes no option 'seed' \(its options: none\)"
    with pytest.raises(MalformedInputError, match=refusal):
        make_player("greedy", "klondike", seed=3)
    with pytest.raises(MalformedInputError, match="'samples' must be Integral or None, not 'four'"):
        make_player("pimc", "pyramid", samples="four")
    with pytest.raises(MalformedInputError, match="unknown agent 'gredy'"):
        agent_spec("gredy")


def test_the_options_a_spec_declares_are_the_ones_its_player_takes() -> None:
    random = make_player("random", "klondike", seed=[1, 2])
    assert type(random).__name__ == "RandomPlayer"
    assert AGENTS["solver"].sees == "every card" and AGENTS["ppo"].checkpoint == "ppo"
    assert set(AGENTS["ppo"].options) == {"checkpoint", "seed", "deterministic"}
