"""One API shape for both solvers: the same budget keywords, the same result type, the same errors."""

from __future__ import annotations

import inspect

import pytest

from solitaire_rl.agents.solver import SearchLimits, SolveResult, solve_klondike, solve_pyramid
from solitaire_rl.agents.solver.cli import build_parser
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike import KlondikeGame
from solitaire_rl.envs.pyramid import PyramidGame

SOLVERS = {
    "pyramid": (solve_pyramid, "pyramid-random-v1-3"),
    "klondike": (solve_klondike, "klondike-random-v1-3"),
}
BUDGET = ("time_limit", "max_states", "limits")


def test_both_solvers_take_the_same_budget_keywords_with_the_same_defaults() -> None:
    pyramid, klondike = (inspect.signature(f).parameters for f in (solve_pyramid, solve_klondike))
    for name in (*BUDGET, "cancel"):
        assert pyramid[name].kind is inspect.Parameter.KEYWORD_ONLY
        assert klondike[name].kind is inspect.Parameter.KEYWORD_ONLY
        assert pyramid[name].default is klondike[name].default


@pytest.mark.parametrize("game", sorted(SOLVERS))
def test_each_budget_keyword_is_obeyed_and_the_result_type_is_shared(game: str) -> None:
    solve, deal = SOLVERS[game]
    by_states = solve(deal, max_states=5)
    assert isinstance(by_states, SolveResult)
    assert (by_states.status, by_states.reason) == ("unknown", "states") or by_states.states <= 5
    same = solve(deal, limits=SearchLimits(time_limit=None, max_states=5))
    assert (same.status, same.states, same.reason) == (by_states.status, by_states.states, by_states.reason)
    full = solve(deal, time_limit=30)
    assert full.status in ("winnable", "not_winnable") and full.reason is None
    assert (full.line is not None) == (full.status == "winnable")
    assert solve(deal, time_limit=None, max_states=10**7).status == full.status


@pytest.mark.parametrize("game", sorted(SOLVERS))
def test_bad_budgets_are_refused_with_a_message_naming_them(game: str) -> None:
    solve, deal = SOLVERS[game]
    with pytest.raises(MalformedInputError, match="not both"):
        solve(deal, limits=SearchLimits(), time_limit=1)
    with pytest.raises(MalformedInputError, match="not both"):
        solve(deal, limits=SearchLimits(), max_states=10)
    with pytest.raises(MalformedInputError, match="time limit"):
        solve(deal, time_limit=-1)
    with pytest.raises(MalformedInputError, match="state limit"):
        solve(deal, max_states=0)
    with pytest.raises(MalformedInputError, match="limits must be a SearchLimits"):
        solve(deal, limits={"time_limit": 1})
    with pytest.raises(TypeError, match="'budget'"):
        solve(deal, budget=1)


def test_a_games_own_keyword_is_refused_by_the_other_solver() -> None:
    with pytest.raises(TypeError, match="'draw_count'"):
        solve_pyramid(PyramidGame("pyramid-random-v1-3"), draw_count=3)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="'variant'"):
        solve_klondike(KlondikeGame("klondike-random-v1-3"), variant="000")  # type: ignore[call-arg]


def test_the_command_line_gives_both_games_the_same_budget_flags() -> None:
    parser = build_parser()
    flags = ["--time", "2", "--max-states", "1000", "--max-memory-mib", "64", "--json", "--line"]
    pyramid = vars(parser.parse_args(["pyramid", "1", *flags]))
    klondike = vars(parser.parse_args(["klondike", "1", *flags]))
    for key in ("budget", "max_states", "max_memory_mib", "json", "line", "ray"):
        assert pyramid[key] == klondike[key]
