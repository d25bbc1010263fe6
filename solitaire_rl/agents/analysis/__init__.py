"""Where was the win lost? The exact solver's verdict after every move of a game.

:func:`analyse_game` takes a variant, a deal and its moves; :func:`analyse_played` a game from the
engine. The verdicts come from few searches (:mod:`solitaire_rl.agents.analysis.line`), the losing move's
judgement by what the player could know from samples (:mod:`solitaire_rl.agents.analysis.hindsight`). The
definitions are in ``docs/analysis.md``.
"""

from solitaire_rl.agents.analysis.hindsight import HINDSIGHT, VISIBLE, Hindsight, judge_move
from solitaire_rl.agents.analysis.report import (
    DEFAULT_LIMITS,
    LOST_AT_MOVE,
    NEVER_WINNABLE,
    STILL_WINNABLE,
    UNDECIDED,
    WON,
    GameAnalysis,
    LosingMove,
    analyse,
    analyse_game,
    analyse_played,
)

__all__ = [
    "DEFAULT_LIMITS", "HINDSIGHT", "LOST_AT_MOVE", "NEVER_WINNABLE", "STILL_WINNABLE",
    "UNDECIDED", "VISIBLE", "WON", "GameAnalysis", "Hindsight", "LosingMove", "analyse", "analyse_game",
    "analyse_played", "judge_move",
]
