"""The benchmark's statistics: the exact McNemar test on hand-made tables, Holm's adjustment, the
interquartile mean and the bootstrap over runs and deals (solitaire_rl/training/benchmark_stats.py)."""

from __future__ import annotations

import numpy as np
import pytest

from solitaire_rl.agents.solver.stats import wilson_interval
from solitaire_rl.training.benchmark_rows import Row
from solitaire_rl.training.benchmark_stats import (
    aggregate,
    bootstrap_intervals,
    holm,
    iqm,
    mcnemar_exact,
    paired_tests,
)


def row(agent: str, number: int, won: bool, seed: int | None = None) -> Row:
    return Row(agent, f"pyramid-random-v1-{number}", number, "win" if won else "dead_end", won, 0, 1, 0.0,
               seed=seed)


def table(agent_a: str, agent_b: str, both: int, a_only: int, b_only: int, neither: int) -> list[Row]:
    """Rows of two agents on the same deals with the given 2x2 table."""
    outcomes = [(True, True)] * both + [(True, False)] * a_only + [(False, True)] * b_only
    outcomes += [(False, False)] * neither
    rows = [row(agent_a, n, a) for n, (a, _) in enumerate(outcomes, start=1)]
    return rows + [row(agent_b, n, b) for n, (_, b) in enumerate(outcomes, start=1)]


def test_the_exact_mcnemar_p_value_is_the_two_sided_sign_test_on_the_discordant_deals() -> None:
    """1 against 9 discordant deals: 2 * (C(10,0) + C(10,1)) / 2**10 = 22/1024 (scipy.stats.binomtest(1,
    10).pvalue and statsmodels' exact mcnemar give the same); 0 against 5: 2/32; equal counts: 1."""
    assert mcnemar_exact(1, 9) == mcnemar_exact(9, 1) == pytest.approx(22 / 1024, abs=1e-15)
    assert mcnemar_exact(0, 5) == pytest.approx(2 / 32)
    assert mcnemar_exact(4, 4) == mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(10, 30) == pytest.approx(0.002221, abs=1e-6)  # binomtest(10, 40)
    with pytest.raises(ValueError, match="never negative"):
        mcnemar_exact(-1, 3)


def test_paired_tests_count_wins_each_way_on_a_hand_made_table() -> None:
    rows = table("ppo", "greedy", both=5, a_only=1, b_only=9, neither=5)
    rows += [row("solver", n, True) for n in range(1, 21)]
    first, second, third = paired_tests(rows)
    assert (first.first, first.second, first.deals) == ("ppo", "greedy", 20)
    assert (first.both_won, first.first_only, first.second_only, first.neither_won) == (5, 1, 9, 5)
    assert first.p_value == pytest.approx(22 / 1024)
    assert (second.first, second.second, second.first_only, second.second_only) == ("ppo", "solver", 0, 14)
    assert (third.first, third.second, third.first_only, third.second_only) == ("greedy", "solver", 0, 6)
    assert [t.p_holm for t in (first, second, third)] == pytest.approx(
        holm([first.p_value, second.p_value, third.p_value]))


def test_paired_tests_use_only_the_deals_both_runs_played_and_name_seeds() -> None:
    rows = [row("random", n, n % 2 == 0, seed=s) for s in (0, 1) for n in range(1, 7)]
    rows += [row("greedy", n, True) for n in range(4, 10)]
    tests = paired_tests(rows, seeded=True)
    assert [(t.first, t.second, t.deals) for t in tests] == [
        ("random (seed 0)", "random (seed 1)", 6), ("random (seed 0)", "greedy", 3),
        ("random (seed 1)", "greedy", 3)]
    assert (tests[1].both_won, tests[1].second_only) == (2, 1)  # deals 4, 6 both; 5 greedy alone


def test_holm_adjusts_step_down_and_keeps_the_order() -> None:
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    assert holm([]) == []


def test_the_interquartile_mean_cuts_a_quarter_from_each_end() -> None:
    """scipy.stats.trim_mean(x, 0.25), rliable's IQM: of 8 values the middle 4; below 4 values, the mean."""
    assert float(iqm([8, 1, 7, 2, 6, 3, 5, 4])) == pytest.approx(4.5)
    assert float(iqm([0.2, 0.9, 0.4])) == pytest.approx(0.5)
    assert float(iqm([1, 2, 3, 4, 100])) == pytest.approx(3.0)  # int(5/4) = 1 cut each end
    assert iqm(np.array([[1, 2, 3, 4], [4, 4, 4, 40]]), axis=1) == pytest.approx([2.5, 4.0])


def test_one_run_gets_the_deals_interval_and_spread_runs_a_wider_one() -> None:
    wins = np.zeros((1, 1000), dtype=np.int8)
    wins[0, :400] = 1
    (low, high), (iqm_low, iqm_high) = bootstrap_intervals(wins)
    wilson = wilson_interval(400, 1000)
    assert low == pytest.approx(wilson[0], abs=0.006) and high == pytest.approx(wilson[1], abs=0.006)
    assert (iqm_low, iqm_high) == (low, high)  # one run: the IQM is the mean
    assert bootstrap_intervals(wins) == ((low, high), (iqm_low, iqm_high))  # seeded: the same every time
    spread = np.zeros((3, 1000), dtype=np.int8)
    for run, rate in enumerate((200, 400, 600)):
        spread[run, :rate] = 1
    (s_low, s_high), _ = bootstrap_intervals(spread)
    assert s_low < 0.3 and s_high > 0.5 and s_low < low


def test_an_aggregate_covers_the_deals_every_run_played() -> None:
    runs = [{1: True, 2: False, 3: True, 4: False}, {1: True, 2: True, 3: False},
            {1: False, 2: False, 3: True}]
    result = aggregate("random", runs, "hidden cards")
    assert (result.agent, result.runs, result.deals) == ("random", 3, 3)
    assert result.run_rates == pytest.approx([2 / 3, 2 / 3, 1 / 3])
    assert result.mean == pytest.approx(5 / 9) and result.iqm == pytest.approx(5 / 9)
    assert result.mean_low <= result.mean <= result.mean_high
    with pytest.raises(ValueError, match="share no deal"):
        aggregate("x", [{1: True}, {2: True}])
