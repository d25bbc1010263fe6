"""Exact solvers over the native C++ core (``native/``): Pyramid and Klondike.

Importing this package registers the ``pyramid-winnable-v1-N`` and ``klondike-winnable-v1-N`` deal IDs,
and the daily deals ``pyramid-daily-v1-YYYYMMDD`` and ``klondike-daily-v1-YYYYMMDD``
(:mod:`solitaire_rl.agents.solver.daily`).

>>> from solitaire_rl.agents.solver import solve_pyramid
>>> solve_pyramid("pyramid-random-v1-0").status in ("winnable", "not_winnable")
True
"""

from solitaire_rl.agents.solver.daily import register_daily_deals
from solitaire_rl.agents.solver.klondike import KlondikePosition, solve_klondike
from solitaire_rl.agents.solver.klondike_winnable import register_klondike_winnable_deals
from solitaire_rl.agents.solver.limits import DEFAULT_MAX_MEMORY_BYTES, DEFAULT_TIME_LIMIT, SearchLimits
from solitaire_rl.agents.solver.pyramid import (
    PRUNE_RULES,
    VARIANTS,
    CancelToken,
    PyramidPosition,
    pyramid_forced_moves,
    pyramid_legal_moves,
    pyramid_prune_rule,
    pyramid_relaxed_lost,
    solve_pyramid,
)
from solitaire_rl.agents.solver.result import NOT_WINNABLE, UNKNOWN, WINNABLE, SolveResult
from solitaire_rl.agents.solver.stats import wilson_interval
from solitaire_rl.agents.solver.verdict import UNSEEN_STOCK, PlayVerdict, play_verdict
from solitaire_rl.agents.solver.winnable import register_winnable_deals, winnable_cards

register_winnable_deals()
register_klondike_winnable_deals()
register_daily_deals()

__all__ = [
    "DEFAULT_MAX_MEMORY_BYTES", "DEFAULT_TIME_LIMIT", "NOT_WINNABLE", "PRUNE_RULES", "UNKNOWN",
    "UNSEEN_STOCK", "VARIANTS", "WINNABLE", "CancelToken", "KlondikePosition", "PlayVerdict",
    "PyramidPosition",
    "SearchLimits", "SolveResult", "play_verdict", "pyramid_forced_moves", "pyramid_legal_moves",
    "pyramid_prune_rule", "pyramid_relaxed_lost", "solve_klondike", "solve_pyramid", "wilson_interval",
    "winnable_cards",
]
