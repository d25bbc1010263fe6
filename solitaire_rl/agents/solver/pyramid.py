"""The exact Pyramid solver: positions checked in Python, searched in the native core.

``solve_pyramid`` takes a :class:`~solitaire_rl.envs.pyramid.PyramidGame` (any position the engine can
reach), a :class:`PyramidPosition` (which also describes reduced games: fewer rows, a shorter
stock, fewer passes) or a deal (ID, code or card names). It has full information: it knows the
stock order. Everything is validated here, so the native side only ever sees sound positions.
The search itself and why its shortcuts are sound: ``native/src/pyramid/solver.hpp``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from solitaire_rl.agents.solver import _native
from solitaire_rl.agents.solver.limits import DEFAULT, SearchLimits, _Default, search_budget
from solitaire_rl.agents.solver.result import NOT_WINNABLE, UNKNOWN, WINNABLE, SolveResult
from solitaire_rl.envs.cards import NUM_CARDS, rank
from solitaire_rl.envs.deals import resolve_deal
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.pyramid import MAX_PASSES, Move, PyramidGame
from solitaire_rl.envs.pyramid import moves as pyramid_moves
from solitaire_rl.envs.pyramid.layout import COVER_MASK, NUM_PYRAMID, NUM_ROWS, ROW_COL

CancelToken = _native.CancelToken
"""A flag another thread may set (``token.cancel()``) to stop a running search."""

VARIANTS = ("000", "001")
"""``000``: stock top and waste top usable; ``001``: waste top only."""
MAX_STOCK = 24
MAX_SOLVER_PASSES = 4
PRUNE_RULES = ("rank_count", "buried_partner", "partner_matching", "relaxation")
"""Names of the rules that prove a position lost without search (``pyramid_prune_rule``)."""

_STATUS = {
    _native.Status.winnable: WINNABLE,
    _native.Status.not_winnable: NOT_WINNABLE,
    _native.Status.unknown: UNKNOWN,
}


def stock_top_playable(variant: str) -> bool:
    """``True`` for variant ``"000"``, ``False`` for ``"001"``; anything else is refused."""
    if variant not in VARIANTS:
        raise MalformedInputError(f"unknown Pyramid variant {variant!r}: use '000' or '001'")
    return variant == "000"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class PyramidPosition:
    """Everything that decides a Pyramid game from here on, checked on construction.

    Positions are numbered as in :mod:`solitaire_rl.envs.pyramid.layout`; a game of ``rows`` rows uses the
    first ``rows * (rows + 1) / 2`` of them. ``stock`` lists the stock and waste cards left, in
    draw order (waste bottom..top, then stock top..bottom, as ``PyramidGame.stock_order()``);
    the first ``waste_count`` of them lie on the waste.
    """

    pyramid: tuple[int, ...]
    """The card at each position, removed ones included."""
    stock: tuple[int, ...] = ()
    removed: int = 0
    """Bitmask of removed positions."""
    waste_count: int = 0
    pass_number: int = 1
    stock_top_playable: bool = True
    """Variant 000 (``True``) or 001 (``False``)."""
    rows: int = NUM_ROWS
    max_passes: int = MAX_PASSES

    def __post_init__(self) -> None:
        for name in ("removed", "waste_count", "pass_number", "rows", "max_passes"):
            if not _is_int(getattr(self, name)):
                raise MalformedInputError(f"{name} must be an integer, not {getattr(self, name)!r}")
        if not isinstance(self.stock_top_playable, bool):
            raise MalformedInputError("stock_top_playable must be True (variant 000) or False (001)")
        for name in ("pyramid", "stock"):
            cards = getattr(self, name)
            if isinstance(cards, str | bytes) or not hasattr(cards, "__iter__"):
                raise MalformedInputError(f"{name} must be a sequence of cards 0..51, not {cards!r}")
            object.__setattr__(self, name, tuple(cards))
        rows = self.rows
        if not 1 <= rows <= NUM_ROWS:
            raise MalformedInputError(f"a pyramid has 1 to {NUM_ROWS} rows, not {rows}")
        size = rows * (rows + 1) // 2
        if len(self.pyramid) != size:
            raise MalformedInputError(f"a pyramid of {rows} rows holds {size} cards, not {len(self.pyramid)}")
        if len(self.stock) > MAX_STOCK:
            raise MalformedInputError(f"at most {MAX_STOCK} stock and waste cards, not {len(self.stock)}")
        cards = self.pyramid + self.stock
        if not all(_is_int(c) and 0 <= c < NUM_CARDS for c in cards):
            raise MalformedInputError("cards must be integers 0..51")
        if len(set(cards)) != len(cards):
            raise MalformedInputError("impossible position: a card appears twice")
        if not 0 <= self.removed < 1 << size:
            raise MalformedInputError(f"removed must be a bitmask of the {size} pyramid positions")
        for p in range(size):
            if self.removed >> p & 1 and self.removed & self.cover_mask(p) != self.cover_mask(p):
                raise MalformedInputError(
                    f"impossible position: the card at position {p} is removed while a card covers it"
                )
        if not 0 <= self.waste_count <= len(self.stock):
            raise MalformedInputError(
                f"waste_count must be 0..{len(self.stock)} (stock and waste cards), not {self.waste_count}"
            )
        if not 1 <= self.max_passes <= MAX_SOLVER_PASSES:
            raise MalformedInputError(f"max_passes must be 1..{MAX_SOLVER_PASSES}, not {self.max_passes}")
        if not 1 <= self.pass_number <= self.max_passes:
            raise MalformedInputError(f"pass_number must be 1..{self.max_passes}, not {self.pass_number}")

    def cover_mask(self, p: int) -> int:
        """Positions directly covering position ``p`` in this pyramid (none on its last row)."""
        return COVER_MASK[p] if ROW_COL[p][0] < self.rows else 0

    @property
    def variant(self) -> str:
        return "000" if self.stock_top_playable else "001"

    @classmethod
    def from_game(cls, game: PyramidGame) -> PyramidPosition:
        """The position of a game (its history and seen record play no part)."""
        if not isinstance(game, PyramidGame):
            raise MalformedInputError(f"expected a PyramidGame, not {type(game).__name__}")
        return cls(
            pyramid=tuple(game.pyramid), stock=tuple(game.stock_order()), removed=game.removed,
            waste_count=len(game.waste), pass_number=game.pass_number,
            stock_top_playable=game.stock_top_playable,
        )

    @classmethod
    def from_deal(cls, deal: object, variant: str = "000") -> PyramidPosition:
        """The first position of a deal (a :class:`Deal`, ID, deal code or card names)."""
        cards = resolve_deal(deal, "pyramid").cards
        return cls(pyramid=cards[:28], stock=cards[28:], stock_top_playable=stock_top_playable(variant))

    def to_native(self) -> _native.PyramidPosition:
        native = _native.PyramidPosition()
        native.rows = self.rows
        native.pyramid = [rank(c) for c in self.pyramid]
        native.removed = self.removed
        native.stock = [rank(c) for c in self.stock]
        native.waste_count = self.waste_count
        native.pass_number = self.pass_number
        native.max_passes = self.max_passes
        native.stock_top_playable = self.stock_top_playable
        return native


def as_position(target: object, variant: str | None = None) -> PyramidPosition:
    """A :class:`PyramidPosition` from a position, a game, or a deal (played in ``variant``)."""
    if variant is not None:
        stock_top_playable(variant)
    if isinstance(target, PyramidPosition | PyramidGame):
        position = target if isinstance(target, PyramidPosition) else PyramidPosition.from_game(target)
        if variant is not None and variant != position.variant:
            raise MalformedInputError(f"this position is variant {position.variant}, not {variant}")
        return position
    return PyramidPosition.from_deal(target, variant or "000")


KIND_OF_NATIVE: dict[int, int] = {
    k.value: getattr(pyramid_moves, k.name.upper()) for k in _native.PyramidMoveKind}
"""The engine's move kind (:mod:`solitaire_rl.envs.pyramid.moves`) of each native move kind, by name."""
NATIVE_KIND: dict[int, int] = {kind: code for code, kind in KIND_OF_NATIVE.items()}
"""The native move kind of each engine move kind."""


def native_moves(moves: list[Move]) -> list[tuple[int, int, int]]:
    """``moves`` as the native ``(kind, a, b)`` tuples."""
    return [(NATIVE_KIND[m.kind], m.a, m.b) for m in moves]


def _moves(tuples: list[tuple[int, int, int]]) -> list[Move]:
    return [Move(KIND_OF_NATIVE[kind], a, b) for kind, a, b in tuples]


def solve_pyramid(
    target: object,
    *,
    variant: str | None = None,
    time_limit: float | _Default | None = DEFAULT,
    max_states: int | None = None,
    limits: SearchLimits | None = None,
    cancel: _native.CancelToken | None = None,
) -> SolveResult[Move]:
    """Decide whether the Pyramid position ``target`` can be won.

    ``target`` is a :class:`PyramidGame`, a :class:`PyramidPosition` or a deal; ``variant``
    (``"000"`` default, or ``"001"``) applies to deals and must match a game's. The budget is
    ``time_limit`` (wall-clock seconds, default 10; ``None``: none) and ``max_states``, or a whole
    ``limits`` (:func:`~solitaire_rl.agents.solver.limits.search_budget`, as for ``solve_klondike``; memory
    512 MiB by default). The search runs with the GIL released and stops early if ``cancel`` is
    set from another thread. A ``winnable`` result carries a winning line of
    :class:`Move` values that the engine accepts from the position.
    """
    position = as_position(target, variant)
    limits = search_budget(limits, time_limit, max_states)
    if cancel is not None and not isinstance(cancel, _native.CancelToken):
        raise MalformedInputError(f"cancel must be a CancelToken, not {type(cancel).__name__}")
    native = _native.pyramid_solve(position.to_native(), limits.to_native(), cancel)
    status = _STATUS[native.status]
    return SolveResult(
        status=status,
        line=tuple(_moves(native.line)) if status == WINNABLE else None,
        states=native.states,
        seconds=native.seconds,
        reason=native.stop_reason.name if status == UNKNOWN else None,
        table_entries=native.tt_entries,
        table_bytes=native.tt_bytes,
    )


def pyramid_legal_moves(target: object, variant: str | None = None) -> list[Move]:
    """The native move generator's legal moves, in the order of ``PyramidGame.legal_moves``."""
    return _moves(_native.pyramid_legal_moves(as_position(target, variant).to_native()))


def pyramid_prune_rule(target: object, variant: str | None = None) -> str | None:
    """The first rule of :data:`PRUNE_RULES` that proves the position lost, or ``None``.

    The rules look at the position as it stands (the solver applies them after its forced moves).
    """
    rule = _native.pyramid_prune_rule(as_position(target, variant).to_native())
    return None if rule == _native.PyramidPruneRule.none else rule.name


def pyramid_relaxed_lost(ranks: tuple[int, ...] | list[int], removed: int, bag: list[int]) -> bool:
    """Whether the pruning rules prove lost a full pyramid whatever the order of its stock.

    ``ranks`` are the 28 pyramid ranks (removed places too), ``removed`` the bitmask of removed
    places, ``bag[r]`` (index 1..13 of a list of 14) the cards of rank ``r`` left in the stock and
    waste. Every rule of :data:`PRUNE_RULES` reads only these (the relaxation uses every stock
    and waste card at any moment), so the answer needs no knowledge of the stock's order: a
    player who has seen none of it can compute it.
    """
    if len(ranks) != NUM_PYRAMID or not 1 <= min(ranks) <= max(ranks) <= 13 or len(bag) != 14:
        raise MalformedInputError("give 28 pyramid ranks 1..13 and 14 bag counts (index = rank)")
    if not 0 <= removed < 1 << NUM_PYRAMID or not 0 <= min(bag) <= max(bag) <= 4:
        raise MalformedInputError("removed is a bitmask of the 28 places; bag counts are 0..4")
    if sum(bag[1:]) > MAX_STOCK:
        raise MalformedInputError(f"at most {MAX_STOCK} stock and waste cards, not {sum(bag[1:])}")
    return _relaxed_lost(tuple(ranks), removed, tuple(bag[1:]))


@lru_cache(maxsize=1 << 16)
def _relaxed_lost(ranks: tuple[int, ...], removed: int, bag: tuple[int, ...]) -> bool:
    """:func:`pyramid_relaxed_lost` of checked input (``bag`` from rank 1), remembered: a game
    asks it again for every draw that leaves the pyramid and the counts as they are."""
    native = _native.PyramidPosition()
    native.rows = NUM_ROWS
    native.pyramid = list(ranks)
    native.removed = removed
    native.stock = [r for r, n in enumerate(bag, start=1) for _ in range(n)]
    native.waste_count, native.pass_number, native.max_passes = 0, 1, MAX_PASSES
    native.stock_top_playable = True
    return _native.pyramid_prune_rule(native) != _native.PyramidPruneRule.none


def pyramid_forced_moves(target: object, variant: str | None = None) -> list[Move]:
    """The moves the solver plays at once from the position: usable Kings and forced pairs."""
    return _moves(_native.pyramid_forced_moves(as_position(target, variant).to_native()))


__all__ = [
    "PRUNE_RULES", "VARIANTS", "CancelToken", "PyramidPosition", "as_position", "pyramid_forced_moves",
    "pyramid_legal_moves", "pyramid_prune_rule", "pyramid_relaxed_lost", "solve_pyramid",
    "stock_top_playable",
]
