"""Statistics of the benchmark's rows: paired tests between runs, and aggregates over runs.

* **Paired test** (:func:`paired_tests`): two runs on the same deals, counted as wins each way
  (deals one run won and the other lost); the exact two-sided McNemar p-value is the sign test on
  those discordant deals, ``min(1, 2 P(X <= min(b, c)))`` with ``X ~ Binomial(b + c, 1/2)``. Holm's
  step-down adjustment over all the pairs of one table is given beside it.
* **Aggregate over runs** (:func:`aggregate`): several runs of one agent (seeds, or checkpoints of
  several training seeds) on the same deals: the mean and the interquartile mean (IQM: the mean of
  the middle 50% of the runs' win rates, as rliable defines it) with 95% percentile intervals from
  a stratified bootstrap that resamples the runs *and* the deals (one deal resample shared by every
  run, as the runs played the same deals). rliable's own bootstrap resamples runs only: one run
  would get an interval of width zero.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Protocol

import numpy as np

BOOTSTRAP_REPS = 2000
"""Bootstrap resamples of an aggregate's interval."""
BOOTSTRAP_SEED = 0
"""The bootstrap's generator seed: the same rows always give the same interval."""


class Played(Protocol):
    """What the statistics read of a row."""

    @property
    def agent(self) -> str: ...
    @property
    def deal_number(self) -> int: ...
    @property
    def won(self) -> bool: ...
    @property
    def seed(self) -> int | None: ...


def run_label(agent: str, seed: int | None, seeded: bool) -> str:
    """A run's name in a table: the agent, and its seed where several seeds were played."""
    return f"{agent} (seed {seed})" if seeded and seed is not None else agent


def runs_of(rows: Sequence[Played]) -> dict[tuple[str, int | None], dict[int, bool]]:
    """The rows by run (agent, seed): deal number -> won, runs in the order they first appear."""
    runs: dict[tuple[str, int | None], dict[int, bool]] = {}
    for row in rows:
        runs.setdefault((row.agent, row.seed), {})[row.deal_number] = row.won
    return runs


# ---------------------------------------------------------------------------------- paired tests
def mcnemar_exact(first_only: int, second_only: int) -> float:
    """The exact two-sided McNemar p-value of ``first_only`` deals won by one run alone against
    ``second_only`` won by the other alone (1.0 when no deal tells them apart)."""
    if first_only < 0 or second_only < 0:
        raise ValueError(f"counts are never negative: {first_only}, {second_only}")
    n, k = first_only + second_only, min(first_only, second_only)
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (family-wise error), in the order given."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [0.0] * len(p_values)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


@dataclass(frozen=True)
class PairedTest:
    """Two runs on the deals both played: wins each way and the exact McNemar p-value."""

    first: str
    second: str
    deals: int
    both_won: int
    first_only: int
    """Deals the first run won and the second lost."""
    second_only: int
    neither_won: int
    p_value: float
    """Exact two-sided McNemar (sign test on the deals only one run won)."""
    p_holm: float
    """``p_value`` adjusted by Holm's method over every pair of the table."""


def paired_tests(rows: Sequence[Played], seeded: bool = False) -> list[PairedTest]:
    """Every two runs of ``rows`` compared on the deals both played, in table order; runs are named
    by :func:`run_label` (``seeded``: with their seed)."""
    runs = runs_of(rows)
    raw = []
    for (a, a_won), (b, b_won) in combinations(runs.items(), 2):
        common = [n for n in a_won if n in b_won]
        both = sum(a_won[n] and b_won[n] for n in common)
        first = sum(a_won[n] and not b_won[n] for n in common)
        second = sum(b_won[n] and not a_won[n] for n in common)
        raw.append((run_label(*a, seeded), run_label(*b, seeded), len(common), both, first, second,
                    len(common) - both - first - second, mcnemar_exact(first, second)))
    adjusted = holm([t[-1] for t in raw])
    return [PairedTest(*t, p_holm=p) for t, p in zip(raw, adjusted, strict=True)]


# ------------------------------------------------------------------------------ runs aggregated
def iqm(values: Sequence[float] | np.ndarray, axis: int = -1) -> np.ndarray:
    """The interquartile mean along ``axis``: the mean of the middle 50%, ``int(n / 4)`` values cut
    from each end of the sorted values (``scipy.stats.trim_mean(values, 0.25)``, rliable's IQM;
    below 4 values nothing is cut, so it is the mean)."""
    ordered = np.sort(np.asarray(values, dtype=float), axis=axis)
    n = ordered.shape[axis]
    cut = int(0.25 * n)
    return np.take(ordered, np.arange(cut, n - cut), axis=axis).mean(axis=axis)


@dataclass(frozen=True)
class Aggregate:
    """Several runs of one agent on the same deals."""

    agent: str
    runs: int
    deals: int
    """Deals each run played."""
    mean: float
    """Mean over runs of each run's win rate."""
    mean_low: float
    mean_high: float
    iqm: float
    iqm_low: float
    iqm_high: float
    run_rates: list[float]
    """Each run's win rate, in run order."""
    setting: str = "hidden cards"


def bootstrap_intervals(wins: np.ndarray, reps: int = BOOTSTRAP_REPS, seed: int = BOOTSTRAP_SEED,
                        level: float = 0.95) -> tuple[tuple[float, float], tuple[float, float]]:
    """95% percentile intervals of the mean and the IQM of the runs' win rates; ``wins`` is a
    runs x deals array of 0/1. Each resample draws the runs with replacement and the deals with
    replacement (the same deals for every run)."""
    runs, deals = wins.shape
    if runs == 0 or deals == 0:
        raise ValueError("an aggregate needs at least one run of at least one deal")
    rng = np.random.default_rng(seed)
    means, iqms = np.empty(reps), np.empty(reps)
    chunk = max(1, min(reps, 2_000_000 // deals))
    matrix = wins.astype(float)
    for start in range(0, reps, chunk):
        size = min(chunk, reps - start)
        weights = rng.multinomial(deals, np.full(deals, 1 / deals), size=size)  # deal resamples
        rates = weights @ matrix.T / deals  # size x runs
        picked = np.take_along_axis(rates, rng.integers(0, runs, size=(size, runs)), axis=1)
        means[start:start + size] = picked.mean(axis=1)
        iqms[start:start + size] = iqm(picked, axis=1)
    tail = 100 * (1 - level) / 2
    low_m, high_m = np.percentile(means, [tail, 100 - tail])
    low_i, high_i = np.percentile(iqms, [tail, 100 - tail])
    return (float(low_m), float(high_m)), (float(low_i), float(high_i))


def aggregate(agent: str, runs: Sequence[dict[int, bool]], setting: str = "hidden cards") -> Aggregate:
    """The aggregate of ``runs`` (deal number -> won each), over the deals every run played."""
    common = sorted(set.intersection(*(set(r) for r in runs))) if runs else []
    if not common:
        raise ValueError(f"{agent}: its runs share no deal")
    wins = np.array([[r[n] for n in common] for r in runs], dtype=np.int8)
    rates = wins.mean(axis=1)
    (mean_low, mean_high), (iqm_low, iqm_high) = bootstrap_intervals(wins)
    return Aggregate(agent, len(runs), len(common), float(rates.mean()), mean_low, mean_high,
                     float(iqm(rates)), iqm_low, iqm_high, [float(r) for r in rates], setting)


__all__ = ["Aggregate", "PairedTest", "aggregate", "bootstrap_intervals", "holm", "iqm", "mcnemar_exact",
           "paired_tests", "run_label", "runs_of"]
