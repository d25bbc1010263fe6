"""Whether the losing move was a mistake the player could see, or a loss only in hindsight.

Definition (``docs/analysis.md``). Take the position before the losing move, as the player knew it:
every card seen where it was seen, the unseen ones (face-down Klondike cards, stock cards never
face up) unknown. Draw ``samples`` completions of the unseen cards over the unseen places (the
same completions for every move), and for each legal move count the completions in which the
position after it can still be won (a search out of its budget counts half, as the planners
count it). The move played *could be seen to lose* (``visible``) when some other move keeps the
game winnable in clearly more completions: its share is higher by more than one standard error
(:func:`solitaire_rl.agents.planner.hop.tie_margin`, the planners' tie). Otherwise it was a loss *only in
hindsight* (``hindsight``): judged by what the player could see, the move was as good as any; it
lost because of where the unseen cards lay. When the player knew every card, the completion is the
deal itself and a losing move is always ``visible``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solitaire_rl.agents.games import agent_side
from solitaire_rl.agents.planner.hop import tie_margin
from solitaire_rl.envs.spec import Game, GameSpec

VISIBLE = "visible"
HINDSIGHT = "hindsight"
UNDECIDED = "undecided"
"""No completion was solved within the budget."""
DEFAULT_SAMPLES = 32
DEFAULT_STATES_PER_SOLVE = 20_000
DEFAULT_DECISION_STATES = 2_000_000


@dataclass(frozen=True)
class Hindsight:
    """The sampled judgement of one move."""

    judgement: str
    """:data:`VISIBLE`, :data:`HINDSIGHT` or :data:`UNDECIDED`."""
    samples: int
    """Completions of the unseen cards solved (1 when every card was known)."""
    unknown_cards: int
    """Cards the player could not place at that moment."""
    played_value: float
    """Share of completions still winnable after the move played (undecided ones counting half)."""
    best_value: float
    best_move: Any
    """The move with the highest share (the move played when it ties for the best)."""

    def as_dict(self) -> dict[str, Any]:
        return {"judgement": self.judgement, "samples": self.samples, "unknown_cards": self.unknown_cards,
                "played_value": self.played_value, "best_value": self.best_value,
                "best_move": str(self.best_move)}


def judge_move(variant: GameSpec, before: Game, played: Any, *, samples: int = DEFAULT_SAMPLES,
               states_per_solve: int = DEFAULT_STATES_PER_SOLVE,
               max_states: int = DEFAULT_DECISION_STATES, seed: int = 0) -> Hindsight:
    """Judge ``played`` in ``before`` by what the player could know there (see the module text)."""
    moves = before.legal_moves()
    if played not in moves:
        raise ValueError(f"{played} is not legal in this position")
    unknown = variant.unknown_count(before)
    sample = agent_side(variant).sampled_tally
    tally = sample(before, moves, samples=samples, states_per_solve=states_per_solve, max_states=max_states,
                   seed=seed)
    count = max(int(tally.samples), 1)
    values = [(w + 0.5 * u) / count for w, u in zip(tally.won, tally.unknown, strict=True)]
    k = moves.index(played)
    best = max(range(len(moves)), key=lambda j: (values[j], j == k))
    margin = tie_margin(count) if unknown else 0.0
    if not tally.samples:
        judgement = UNDECIDED
    else:
        judgement = VISIBLE if values[best] - values[k] > margin or not unknown else HINDSIGHT
    return Hindsight(judgement, int(tally.samples), unknown, values[k], values[best], moves[best])


__all__ = ["DEFAULT_SAMPLES", "HINDSIGHT", "UNDECIDED", "VISIBLE", "Hindsight", "judge_move"]
