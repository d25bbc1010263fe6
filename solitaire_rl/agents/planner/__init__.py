"""Planners: players that search over what the player has seen, built on the exact solvers.

``hop`` (Klondike, :mod:`solitaire_rl.agents.planner.hop`) and ``pimc`` (Pyramid,
:mod:`solitaire_rl.agents.planner.pimc`) sample
the unknown cards, solve each sample natively and play the move that wins most often.
"""

from dataclasses import dataclass

import numpy as np

NO_SAMPLE = "no sample finished in time"
"""How a planner's reason starts when its time ran out before any sample: the move is then only
its tie-break's (the play page's hint then asks the trained agent instead)."""


@dataclass(frozen=True)
class SearchRecord:
    """What a planner's last search said of each legal move (what self-play data keeps).

    ``actions`` are the candidate action indices; per candidate, ``won``/``lost``/``unknown``
    count samples whose solve after the move won, lost or ran out of budget, ``first`` counts
    samples whose winning line started with it, and ``visits`` are an information-set tree
    search's visits (zeros where no tree search ran)."""

    actions: np.ndarray
    won: np.ndarray
    lost: np.ndarray
    unknown: np.ndarray
    first: np.ndarray
    visits: np.ndarray
    samples: int

    @property
    def values(self) -> np.ndarray:
        """Share of samples won, an unfinished search counting half."""
        return (self.won + 0.5 * self.unknown) / max(self.samples, 1)
