"""The native core's contract: the GIL is released while it searches, a search can be cancelled
from another thread, and it is bounded in time, states and memory; bad input is refused in
Python before it reaches C++, and the C++ side refuses it again rather than crash."""

from __future__ import annotations

import threading
import time

import pytest
import solitaire_native

from solitaire_rl.agents.solver import CancelToken, PyramidPosition, SearchLimits, solve_pyramid
from solitaire_rl.envs.errors import MalformedInputError

# A deal that takes a fraction of a second normally, and minutes with the smallest table.
HARD_DEAL = "pyramid-random-v1-2390"
TINY_TABLE = SearchLimits(time_limit=None, max_memory_bytes=64 << 10)


def test_search_releases_the_gil_and_stops_when_cancelled_from_another_thread() -> None:
    token = CancelToken()
    results = []
    worker = threading.Thread(
        target=lambda: results.append(solve_pyramid(HARD_DEAL, limits=TINY_TABLE, cancel=token))
    )
    worker.start()
    spins, end = 0, time.perf_counter() + 0.3
    while time.perf_counter() < end:  # this thread runs Python while the search goes on
        spins += 1
    assert worker.is_alive()
    token.cancel()
    worker.join(timeout=5)
    assert not worker.is_alive()
    assert spins > 10_000
    (result,) = results
    assert (result.status, result.reason, result.line) == ("unknown", "cancelled", None)
    assert result.states > 0


def test_a_cancelled_token_stops_at_once_and_can_be_reset() -> None:
    token = CancelToken()
    token.cancel()
    assert token.cancelled
    assert solve_pyramid(HARD_DEAL, cancel=token).reason == "cancelled"
    token.reset()
    assert solve_pyramid("pyramid-random-v1-1", cancel=token).status != "unknown"


def test_time_limit_gives_unknown_never_a_loss() -> None:
    start = time.perf_counter()
    result = solve_pyramid(HARD_DEAL, limits=SearchLimits(time_limit=0.05, max_memory_bytes=64 << 10))
    assert time.perf_counter() - start < 1.0
    assert (result.status, result.reason) == ("unknown", "time")
    assert 0.05 <= result.seconds < 1.0


def test_state_limit_gives_unknown_and_the_same_count_every_time() -> None:
    limits = SearchLimits(time_limit=None, max_states=1000)
    first, second = (solve_pyramid(HARD_DEAL, limits=limits) for _ in range(2))
    assert (first.status, first.reason, first.states) == ("unknown", "states", 1000)
    assert second.states == first.states


def test_memory_cap_bounds_the_table_and_keeps_the_verdict() -> None:
    full = solve_pyramid(HARD_DEAL)
    capped = solve_pyramid(HARD_DEAL, limits=SearchLimits(max_memory_bytes=1 << 20))
    assert full.status == capped.status == "not_winnable"
    assert capped.table_bytes <= 1 << 20 < full.table_bytes
    assert capped.states > full.states  # forgotten states were searched again


def test_default_memory_cap_is_under_two_gib() -> None:
    assert SearchLimits().max_memory_bytes == solitaire_native.DEFAULT_MAX_MEMORY_BYTES < 2 << 30


@pytest.mark.parametrize(
    "limits",
    [dict(time_limit=0), dict(time_limit=-1.0), dict(time_limit=float("nan")), dict(time_limit="1"),
     dict(max_states=0), dict(max_states=1.5), dict(max_memory_bytes=1000), dict(max_memory_bytes=1 << 50),
     dict(max_memory_bytes=True)],
)
def test_bad_limits_are_refused(limits: dict) -> None:
    with pytest.raises(MalformedInputError):
        SearchLimits(**limits)


def test_native_side_refuses_impossible_positions_it_is_handed_directly() -> None:
    """Positions built past the Python checks raise ValueError in C++, never crash."""
    good = PyramidPosition.from_deal("pyramid-random-v1-3").to_native()
    limits = SearchLimits().to_native()
    for field, value in [("rows", 0), ("rows", 8), ("pyramid", [1, 2]), ("pyramid", [0] * 28),
                         ("removed", 1), ("waste_count", 25), ("waste_count", -1), ("pass_number", 4),
                         ("max_passes", 0), ("stock", [5] * 25), ("stock", [14] * 24)]:
        bad = PyramidPosition.from_deal("pyramid-random-v1-3").to_native()
        setattr(bad, field, value)
        calls = (lambda p: solitaire_native.pyramid_solve(p, limits), solitaire_native.pyramid_legal_moves,
                 solitaire_native.pyramid_prune_rule, solitaire_native.pyramid_forced_moves)
        for call in calls:
            with pytest.raises(ValueError):
                call(bad)
    assert solitaire_native.pyramid_solve(good, limits).status != solitaire_native.Status.unknown
