"""Winnable Klondike deals (draw 3): deal IDs ``klondike-winnable-v1-N``.

Generator version 1. Number ``N`` maps to the first candidate ``k = 0, 1, 2, ...`` whose cards
``solitaire_rl.envs.rng.shuffled(FULL_DECK, f"klondike-winnable-v1-{N}/{k}")`` (in Klondike deal order, see
:mod:`solitaire_rl.envs.klondike.layout`) the exact solver proves winnable in draw 3, every card known (the
"thoughtful" game), unlimited recycles. The proof is for draw 3 only.

The search of each candidate is capped at :data:`MAX_STATES` states and has no time limit. A
candidate the solver neither proves winnable nor proves lost within the cap is **skipped**, just
as a lost one is. States are counted the same way on every machine, so the mapping depends on
the cards alone, never on time, load or machine; it does lean a little towards deals the solver
decides quickly (16% of the candidates searched for numbers 1..1000 are skipped undecided, see
``benchmarks/klondike_winnable_deals.py``). Before a deal is returned, the solver's winning line
is replayed through the engine (:class:`solitaire_rl.envs.klondike.KlondikeGame`). Any change to this rule
(cap, seed text) needs a new generator version, so that old IDs keep their deals. Unlike
Pyramid's generator, this one also depends on how many states the native search needs: a change
to the search that changes its state counts can move a candidate across the cap, so
``tests/test_klondike_winnable.py`` pins the first 100 deals, and such a change needs a new
version too (or the old search kept for version 1).
"""

from __future__ import annotations

from functools import lru_cache

from solitaire_rl.agents.solver.klondike import solve_klondike
from solitaire_rl.agents.solver.limits import SearchLimits
from solitaire_rl.agents.solver.result import NOT_WINNABLE, UNKNOWN, WINNABLE, SolveResult
from solitaire_rl.envs.cards import FULL_DECK
from solitaire_rl.envs.deals import DealId, is_deal_type_registered, register_deal_type
from solitaire_rl.envs.errors import MalformedInputError, SolitaireError
from solitaire_rl.envs.klondike import WIN, KlondikeGame, Move
from solitaire_rl.envs.rng import shuffled

VERSION = 1
DRAW_COUNT = 3
MAX_NUMBER = 10**12 - 1
"""Largest deal number accepted: twelve digits are plenty, an absurd one is refused."""
MAX_CANDIDATES = 1000
"""Candidates tried per number; about four in five random draw-3 deals are winnable."""
MAX_STATES = 20_000
"""The deterministic state cap per candidate (part of version 1: changing it changes deals)."""
LIMITS = SearchLimits(time_limit=None, max_states=MAX_STATES, max_memory_bytes=64 << 20)


def check_number(number: object) -> int:
    """``number`` if it is a deal number 0..:data:`MAX_NUMBER`; else :class:`MalformedInputError`."""
    if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= MAX_NUMBER:
        raise MalformedInputError(f"a winnable deal number is an integer 0..{MAX_NUMBER}, not {number!r}")
    return number


def candidate_cards(number: int, k: int) -> tuple[int, ...]:
    """Candidate ``k`` for deal number ``number``: a uniform shuffle named by both."""
    return tuple(shuffled(FULL_DECK, f"klondike-winnable-v{VERSION}-{number}/{k}"))


def solve_candidate(cards: tuple[int, ...]) -> SolveResult[Move]:
    """The capped draw-3 search of one candidate (``unknown`` means skipped: the cap was reached)."""
    result = solve_klondike(KlondikeGame(list(cards), draw_count=DRAW_COUNT), limits=LIMITS)
    if result.status == UNKNOWN and result.reason != "states":  # pragma: no cover - memory cap
        raise SolitaireError(f"winnable Klondike search stopped by {result.reason}, not by the state cap")
    return result


@lru_cache(maxsize=4096)
def winnable_deal(number: int) -> tuple[int, tuple[int, ...], tuple[Move, ...]]:
    """``(k, cards, line)`` of ``klondike-winnable-v1-{number}``: the chosen candidate's index,
    its 52 cards in Klondike deal order and a winning line checked in the engine."""
    check_number(number)
    for k in range(MAX_CANDIDATES):
        cards = candidate_cards(number, k)
        result = solve_candidate(cards)
        if result.status in (NOT_WINNABLE, UNKNOWN):
            continue
        assert result.status == WINNABLE and result.line is not None
        game = KlondikeGame(list(cards), draw_count=DRAW_COUNT)
        game.replay(result.line)
        if game.outcome() != WIN:  # pragma: no cover - would be a solver bug
            raise SolitaireError(f"winnable Klondike deal {number}: the solver's line does not win")
        return k, cards, result.line
    raise SolitaireError(  # pragma: no cover - about four candidates in five are winnable
        f"no winnable candidate among {MAX_CANDIDATES} for deal {number}")


def winnable_cards(number: int) -> tuple[int, ...]:
    """The 52 cards of ``klondike-winnable-v1-{number}``, in Klondike deal order."""
    return winnable_deal(number)[1]


def _generate(deal_id: DealId) -> tuple[int, ...]:
    return winnable_cards(deal_id.number)


def register_klondike_winnable_deals() -> None:
    """Make ``klondike-winnable-v1-N`` resolve (done when :mod:`solitaire_rl.agents.solver` is imported)."""
    if not is_deal_type_registered("klondike", "winnable", VERSION):
        register_deal_type("klondike", "winnable", VERSION, _generate)


__all__ = [
    "DRAW_COUNT", "LIMITS", "MAX_NUMBER", "MAX_STATES", "VERSION", "candidate_cards", "check_number",
    "register_klondike_winnable_deals", "solve_candidate", "winnable_cards", "winnable_deal",
]
