"""Verdicts for play: what a game may tell a player about the position in front of them.

Seed 000 (variant 000): while any stock card has never been face up, the game never says "not
winnable", because it must not judge by cards the player has not seen; it gives only advice
from what is visible. So there, until all 24 stock cards have been seen, the verdict is
withheld (``unknown``, reason ``"unseen_stock"``) whatever the solver could prove, and the
solver is not even run. Once all have been seen, a proved loss is stated plainly.

Seed 001 (variant 001): a proved loss may be stated ("no line from here"); a search that hits
its limit is "unverified" (``unknown``), never "no solution".
"""

from __future__ import annotations

from dataclasses import dataclass

from solitaire_rl.agents.solver.limits import SearchLimits
from solitaire_rl.agents.solver.pyramid import CancelToken, solve_pyramid
from solitaire_rl.agents.solver.result import NOT_WINNABLE, UNKNOWN, WINNABLE, SolveResult
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.pyramid import Move, PyramidGame

UNSEEN_STOCK = "unseen_stock"
"""Reason of a withheld verdict: a stock card has never been face up (variant 000)."""


@dataclass(frozen=True)
class PlayVerdict:
    """What may be said to the player: ``winnable`` (with a line), ``not_winnable``, or ``unknown``."""

    status: str
    line: tuple[Move, ...] | None = None
    """A winning line from the position when the status is winnable."""
    reason: str | None = None
    """Why unknown: ``"unseen_stock"`` (withheld), or the search's reason (time, states, ...)."""
    result: SolveResult[Move] | None = None
    """The solver's result, when the solver ran."""


def play_verdict(
    game: PyramidGame, *, limits: SearchLimits | None = None, cancel: CancelToken | None = None
) -> PlayVerdict:
    """The verdict the seeds allow for ``game``'s position, using its record of seen cards."""
    if not isinstance(game, PyramidGame):
        raise MalformedInputError(f"expected a PyramidGame, not {type(game).__name__}")
    if game.stock_top_playable and not game.all_stock_seen():
        return PlayVerdict(UNKNOWN, reason=UNSEEN_STOCK)
    result = solve_pyramid(game, limits=limits, cancel=cancel)
    if result.status == WINNABLE:
        return PlayVerdict(WINNABLE, line=result.line, result=result)
    if result.status == NOT_WINNABLE:
        return PlayVerdict(NOT_WINNABLE, result=result)
    return PlayVerdict(UNKNOWN, reason=result.reason, result=result)


__all__ = ["UNSEEN_STOCK", "PlayVerdict", "play_verdict"]
