"""Winnable Pyramid deals: deal IDs ``pyramid-winnable-v1-N`` (seed 001's second deal type).

Generator version 1. Number ``N`` maps to the first candidate ``k = 0, 1, 2, ...`` whose cards
``solitaire_rl.envs.rng.shuffled(FULL_DECK, f"pyramid-winnable-v1-{N}/{k}")`` (in Pyramid deal order) the
solver proves winnable in variant 001. That is the stricter variant: each of its moves is also
legal in 000, so a 001 winning line wins in 000 as well, and these deals are winnable in both.

The proof is exact: no time limit, and a large state cap only as a safety net that raises an
error rather than skipping a candidate. So the mapping depends on the cards alone, never on the
machine, the load or the solver's speed; a faster solver gives the same deals. Before a deal is
returned, its winning line is replayed through the engine. Any change to this rule needs a new
generator version, so that old IDs keep their deals.
"""

from __future__ import annotations

from functools import lru_cache

from solitaire_rl.agents.solver.limits import SearchLimits
from solitaire_rl.agents.solver.pyramid import PyramidPosition, solve_pyramid
from solitaire_rl.agents.solver.result import NOT_WINNABLE, WINNABLE
from solitaire_rl.envs.cards import FULL_DECK
from solitaire_rl.envs.deals import DealId, is_deal_type_registered, register_deal_type
from solitaire_rl.envs.errors import SolitaireError
from solitaire_rl.envs.pyramid import WIN, PyramidGame
from solitaire_rl.envs.rng import shuffled

VERSION = 1
MAX_CANDIDATES = 1000
"""Candidates tried per number; about two thirds of random deals are winnable in 001."""
SAFETY_LIMITS = SearchLimits(time_limit=None, max_states=50_000_000, max_memory_bytes=256 << 20)
"""No random deal seen so far needed more than about a million states."""


def candidate_cards(number: int, k: int) -> tuple[int, ...]:
    """Candidate ``k`` for deal number ``number``: a uniform shuffle named by both."""
    return tuple(shuffled(FULL_DECK, f"pyramid-winnable-v{VERSION}-{number}/{k}"))


@lru_cache(maxsize=4096)
def winnable_cards(number: int) -> tuple[int, ...]:
    """The 52 cards of ``pyramid-winnable-v1-{number}``, in Pyramid deal order."""
    if isinstance(number, bool) or not isinstance(number, int) or number < 0:
        raise SolitaireError(f"a deal number is an integer >= 0, not {number!r}")
    for k in range(MAX_CANDIDATES):
        cards = candidate_cards(number, k)
        position = PyramidPosition(pyramid=cards[:28], stock=cards[28:], stock_top_playable=False)
        result = solve_pyramid(position, limits=SAFETY_LIMITS)
        if result.status == NOT_WINNABLE:
            continue
        if result.status != WINNABLE or result.line is None:
            raise SolitaireError(
                f"winnable deal {number}: candidate {k} was not decided ({result.reason}); "
                "the generator never skips an undecided candidate"
            )
        game = PyramidGame(list(cards), stock_top_playable=False)
        game.replay(result.line)
        if game.outcome() != WIN:  # pragma: no cover - would be a solver bug
            raise SolitaireError(f"winnable deal {number}: the solver's line does not win")
        return cards
    raise SolitaireError(f"no winnable candidate among {MAX_CANDIDATES} for deal {number}")


def _generate(deal_id: DealId) -> tuple[int, ...]:
    return winnable_cards(deal_id.number)


def register_winnable_deals() -> None:
    """Make ``pyramid-winnable-v1-N`` resolve (done when :mod:`solitaire_rl.agents.solver` is imported)."""
    if not is_deal_type_registered("pyramid", "winnable", VERSION):
        register_deal_type("pyramid", "winnable", VERSION, _generate)


__all__ = ["VERSION", "candidate_cards", "register_winnable_deals", "winnable_cards"]
