"""Analysis of one game: the solver's verdict after every move and the move that lost the win.

>>> from solitaire_rl.agents.analysis import analyse_game
>>> report = analyse_game("pyramid-001", "pyramid-random-v1-1", ["draw", "draw"])
>>> report.verdicts[0] in ("winnable", "not_winnable", "unknown")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from solitaire_rl.agents.analysis.hindsight import DEFAULT_SAMPLES, Hindsight, judge_move
from solitaire_rl.agents.analysis.line import line_verdicts, positions_of
from solitaire_rl.agents.solver.limits import SearchLimits
from solitaire_rl.agents.solver.result import NOT_WINNABLE, UNKNOWN, WINNABLE
from solitaire_rl.envs.errors import IllegalMoveError, MalformedInputError
from solitaire_rl.envs.spec import Game, GameSpec, find_game, spec_of

DEFAULT_LIMITS = SearchLimits(time_limit=2.0, max_states=1_000_000)
"""Budget of each search on the true deal: past it that position is ``unknown``."""
DEFAULT_TIME_BUDGET = 20.0
"""Seconds all the searches of one analysis may take together."""

WON = "won"
"""The game was won: no move lost anything."""
LOST_AT_MOVE = "lost_at_move"
"""A move turned a winnable position into a lost one (:attr:`GameAnalysis.losing_move`)."""
NEVER_WINNABLE = "never_winnable"
"""The deal itself cannot be won."""
STILL_WINNABLE = "still_winnable"
"""The game stopped (truncated, abandoned) in a winnable position."""
UNDECIDED = "undecided"
"""The budget ran out before the boundary was found."""


@dataclass(frozen=True)
class LosingMove:
    """The first move after which the game could no longer be won."""

    index: int
    """0-based index of the move in the game."""
    move: Any
    alternative: tuple[Any, ...]
    """A winning line from the position before the move (its first move is the alternative)."""
    hindsight: Hindsight | None
    """Whether the player could have seen it (``None`` when not judged)."""


@dataclass(frozen=True)
class GameAnalysis:
    """What the analysis of one game found."""

    variant: str
    deal: str
    """The deal's ID, or its deal code when it has no ID."""
    moves: tuple[Any, ...]
    verdicts: tuple[str, ...]
    """The solver's verdict on the true deal: ``verdicts[0]`` of the deal, ``verdicts[i]`` after
    move ``i`` (1-based), each ``winnable``, ``not_winnable`` or ``unknown``."""
    outcome: str
    """:data:`WON`, :data:`LOST_AT_MOVE`, :data:`NEVER_WINNABLE`, :data:`STILL_WINNABLE` or
    :data:`UNDECIDED`."""
    losing_move: LosingMove | None
    searches: int
    states: int
    seconds: float

    @property
    def first_losing_move(self) -> int | None:
        """0-based index of the losing move, or ``None``."""
        return None if self.losing_move is None else self.losing_move.index

    def as_dict(self) -> dict[str, Any]:
        """The analysis as JSON-ready values (moves in their text forms)."""
        losing = None
        if self.losing_move is not None:
            lm = self.losing_move
            losing = {"index": lm.index, "move": str(lm.move),
                      "alternative": [str(m) for m in lm.alternative],
                      "hindsight": None if lm.hindsight is None else lm.hindsight.as_dict()}
        return {"variant": self.variant, "deal": self.deal, "moves": [str(m) for m in self.moves],
                "verdicts": list(self.verdicts), "outcome": self.outcome, "losing_move": losing,
                "searches": self.searches, "states": self.states, "seconds": self.seconds}


def deal_name(game: Game) -> str:
    deal = game.deal
    if deal is None:
        raise MalformedInputError("the game has no deal to analyse (a hand-built position)")
    return deal.label


def analyse_game(variant: str, deal: object, moves: Sequence[object], *,
                 limits: SearchLimits = DEFAULT_LIMITS, time_budget: float | None = DEFAULT_TIME_BUDGET,
                 judge: bool = True, samples: int = DEFAULT_SAMPLES, seed: int = 0) -> GameAnalysis:
    """Analyse the game of ``deal`` in ``variant`` whose moves were ``moves`` (values or text).

    Each search on the true deal is bounded by ``limits`` and all of them by ``time_budget``;
    ``judge`` also asks whether the losing move could be seen from the cards the player had seen
    (:func:`solitaire_rl.agents.analysis.hindsight.judge_move`, ``samples`` completions). A move that is not
    legal where it is played raises :class:`IllegalMoveError` naming it.
    """
    spec = find_game(variant)
    start = spec.new_game(deal)
    return analyse(spec, start, moves, limits=limits, time_budget=time_budget, judge=judge,
                   samples=samples, seed=seed)


def analyse_played(game: Game, **options: Any) -> GameAnalysis:
    """Analyse a game from the engine: its deal and the moves of its history."""
    spec = spec_of(game)
    deal_name(game)  # refuses a hand-built position: the analysis replays a deal
    start = spec.new_game(game.deal)
    return analyse(spec, start, game.history, **options)


def analyse(variant: GameSpec, start: Game, moves: Sequence[object], *, limits: SearchLimits = DEFAULT_LIMITS,
            time_budget: float | None = DEFAULT_TIME_BUDGET, judge: bool = True,
            samples: int = DEFAULT_SAMPLES, seed: int = 0) -> GameAnalysis:
    """:func:`analyse_game` from a first position."""
    if isinstance(moves, str | bytes):
        raise MalformedInputError("moves must be a sequence of moves, not one text")
    parsed: list[Any] = [variant.parse_move(m) for m in moves]
    game = start.copy()
    for i, move in enumerate(parsed):
        if not game.is_legal(move):
            refusal = game.refusal(move)
            why = refusal.en if refusal else ""
            raise IllegalMoveError(f"move {i + 1} ({move}) is not legal there: {why}", move)
        game.push(move)
    positions = positions_of(start, parsed)
    found = line_verdicts(variant, positions, parsed, limits, time_budget=time_budget)
    statuses = found.statuses
    losing = None
    lo = found.last_winnable
    n = len(parsed)
    if positions[n].is_won():
        outcome = WON
    elif lo == n:
        outcome = STILL_WINNABLE
    elif statuses[lo + 1] == NOT_WINNABLE and lo >= 0:
        outcome = LOST_AT_MOVE
        hindsight = (judge_move(variant, positions[lo], parsed[lo], samples=samples, seed=seed) if judge
                     else None)
        losing = LosingMove(lo, parsed[lo], found.lines[lo], hindsight)
    elif statuses[0] == NOT_WINNABLE:
        outcome = NEVER_WINNABLE
    else:
        outcome = UNDECIDED
    assert all(s in (WINNABLE, NOT_WINNABLE, UNKNOWN) for s in statuses)
    return GameAnalysis(variant.key, deal_name(start), tuple(parsed), statuses, outcome, losing,
                        found.searches, found.states, found.seconds)


__all__ = [
    "DEFAULT_LIMITS", "LOST_AT_MOVE", "NEVER_WINNABLE", "STILL_WINNABLE", "UNDECIDED", "WON",
    "GameAnalysis", "LosingMove", "analyse", "analyse_game", "analyse_played",
]
