"""The small statistics the solver reports and benchmarks share (solitaire_rl.agents.solver.stats)."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from solitaire_rl.agents.solver.stats import median, percentile


def test_percentile_is_the_nearest_rank() -> None:
    values = [float(v) for v in range(1, 11)]  # 1..10
    assert percentile(values, 0.9) == 9.0
    assert percentile(values, 0.91) == 10.0
    assert percentile(values, 1.0) == 10.0
    assert percentile(values, 0.1) == 1.0
    assert percentile(list(reversed(values)), 0.5) == 5.0  # order of the input does not matter
    assert math.isnan(percentile([], 0.5))


@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=1, max_size=50),
       st.floats(min_value=0.01, max_value=1.0))
def test_percentile_has_at_least_q_of_the_values_at_or_below_it(values: list[float], q: float) -> None:
    p = percentile(values, q)
    assert p in values
    assert sum(v <= p for v in values) >= q * len(values)
    assert sum(v < p for v in values) < q * len(values)


def test_median_of_odd_and_even_lists() -> None:
    assert median([3.0, 1.0, 2.0]) == 2.0
    assert median([4.0, 1.0, 2.0, 3.0]) == 2.5
