"""The exact Klondike solver: positions checked in Python, searched in the native core.

``solve_klondike`` takes a :class:`~solitaire_rl.envs.klondike.KlondikeGame` (any position the engine can
reach), a :class:`KlondikePosition` (which also describes reduced games: fewer columns, fewer
ranks) or a deal (ID, code, card names or a Solvitaire JSON deal). It plays the "thoughtful"
game: it knows the face-down cards and the stock order. Draw 3 or draw 1, unlimited recycles.
A winning line comes back as the engine's own :class:`~solitaire_rl.envs.klondike.Move` values, draws and
recycles written out, so ``game.push`` accepts it move by move. The search and why its
shortcuts are sound: ``native/src/klondike/solver.hpp``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from solitaire_rl.agents.solver import _native
from solitaire_rl.agents.solver.limits import DEFAULT, SearchLimits, _Default, search_budget
from solitaire_rl.agents.solver.result import NOT_WINNABLE, UNKNOWN, WINNABLE, SolveResult
from solitaire_rl.envs.cards import NUM_CARDS
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike import DRAW_MOVE, RECYCLE_MOVE, KlondikeGame, Move, resolve_klondike_deal
from solitaire_rl.envs.klondike import moves as klondike_moves
from solitaire_rl.envs.klondike.game import DRAW_COUNTS
from solitaire_rl.envs.klondike.layout import NUM_COLUMNS, deal_table
from solitaire_rl.envs.klondike.solvitaire import (
    load_solvitaire,
    looks_like_solvitaire,
    parse_solvitaire_card,
)

CancelToken = _native.CancelToken
"""A flag another thread may set (``token.cancel()``) to stop a running search."""

MAX_RANK = 13

_STATUS = {
    _native.Status.winnable: WINNABLE,
    _native.Status.not_winnable: NOT_WINNABLE,
    _native.Status.unknown: UNKNOWN,
}
KIND_OF_NATIVE: dict[int, int] = {
    k.value: getattr(klondike_moves, k.name.upper().replace("_TO_", "_")) for k in _native.KlondikeActionKind}
"""The engine's move kind (:mod:`solitaire_rl.envs.klondike.moves`) of each native action kind, by name."""
NATIVE_KIND: dict[int, int] = {kind: code for code, kind in KIND_OF_NATIVE.items()}
"""The native action kind of each engine move kind."""

ActionTuple = tuple[int, int, int, int, int]
"""A native atomic action: ``(kind, src, dst, count, card)``, kinds numbered as Move's."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _cards(name: str, value: object) -> tuple[int, ...]:
    if isinstance(value, str | bytes) or not hasattr(value, "__iter__"):
        raise MalformedInputError(f"{name} must be a sequence of cards 0..51, not {value!r}")
    cards = tuple(value)
    if not all(_is_int(c) and 0 <= c < NUM_CARDS for c in cards):
        raise MalformedInputError(f"{name}: cards must be integers 0..51")
    return cards


def check_draw_count(draw_count: object) -> int:
    """``draw_count`` if it is one the engine plays (1 or 3); else :class:`MalformedInputError`."""
    if not _is_int(draw_count) or draw_count not in DRAW_COUNTS:
        raise MalformedInputError(f"draw_count must be 1 or 3, not {draw_count!r}")
    return draw_count


@dataclass(frozen=True)
class KlondikePosition:
    """Everything that decides a Klondike game from here on, checked on construction.

    ``face_down[c]`` and ``face_up[c]`` list column ``c`` from its bottom to its end (1 to 7
    columns); ``stock`` and ``waste`` from the bottom to the top (the stock's last card is drawn
    next, the waste's last card is playable), as :class:`KlondikeGame` keeps them;
    ``foundations`` the top rank of each suit (C, D, H, S). ``max_rank`` below 13 makes a reduced
    deck of ranks 1..max_rank; a suit with no card on the table or its foundation is left out
    altogether. The top rank plays the King's part.
    """

    face_down: tuple[tuple[int, ...], ...]
    face_up: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...] = ()
    waste: tuple[int, ...] = ()
    foundations: tuple[int, int, int, int] = (0, 0, 0, 0)
    max_rank: int = MAX_RANK

    def __post_init__(self) -> None:
        for name in ("face_down", "face_up"):
            cols = getattr(self, name)
            if isinstance(cols, str | bytes) or not hasattr(cols, "__iter__"):
                raise MalformedInputError(f"{name} must be a sequence of columns, not {cols!r}")
            object.__setattr__(self, name, tuple(_cards(f"{name} column", col) for col in cols))
        if len(self.face_down) != len(self.face_up):
            raise MalformedInputError("face_down and face_up need one list per column")
        object.__setattr__(self, "stock", _cards("stock", self.stock))
        object.__setattr__(self, "waste", _cards("waste", self.waste))
        fnd = self.foundations
        if isinstance(fnd, str | bytes) or not hasattr(fnd, "__iter__"):
            raise MalformedInputError(f"foundations must be 4 ranks (C, D, H, S), not {fnd!r}")
        ranks = tuple(fnd)
        if len(ranks) != 4 or not all(_is_int(r) and 0 <= r <= MAX_RANK for r in ranks):
            raise MalformedInputError(f"foundations must be 4 ranks 0..13 (C, D, H, S), not {ranks!r}")
        object.__setattr__(self, "foundations", ranks)
        if not _is_int(self.max_rank):
            raise MalformedInputError(f"max_rank must be an integer 1..13, not {self.max_rank!r}")
        error = _native.klondike_validate(self._native_unchecked())
        if error:
            raise MalformedInputError(f"impossible Klondike position: {error}")

    @property
    def num_columns(self) -> int:
        return len(self.face_up)

    def _native_unchecked(self) -> _native.KlondikePosition:
        return _native.KlondikePosition(
            [list(c) for c in self.face_down], [list(c) for c in self.face_up], list(self.stock),
            list(self.waste), list(self.foundations), self.max_rank,
        )

    def to_native(self) -> _native.KlondikePosition:
        return self._native_unchecked()

    @classmethod
    def from_game(cls, game: KlondikeGame) -> KlondikePosition:
        """The position of a game (its history, ``best`` and ``seen`` records play no part)."""
        if not isinstance(game, KlondikeGame):
            raise MalformedInputError(f"expected a KlondikeGame, not {type(game).__name__}")
        return cls(
            face_down=tuple(tuple(col[:h]) for col, h in zip(game.columns, game.hidden, strict=True)),
            face_up=tuple(tuple(col[h:]) for col, h in zip(game.columns, game.hidden, strict=True)),
            stock=tuple(game.stock), waste=tuple(game.waste),
            foundations=(game.foundations[0], game.foundations[1], game.foundations[2], game.foundations[3]),
        )

    @classmethod
    def from_deal(cls, deal: object) -> KlondikePosition:
        """The first position of a deal (a :class:`Deal`, ID, deal code, card names, Solvitaire JSON)."""
        columns, stock = deal_table(resolve_klondike_deal(deal).cards)
        return cls(
            face_down=tuple(tuple(col[:-1]) for col in columns),
            face_up=tuple((col[-1],) for col in columns),
            stock=tuple(stock),
        )

    @classmethod
    def from_solvitaire(cls, deal: str | Mapping[str, object]) -> KlondikePosition:
        """A position in Solvitaire's JSON format, reduced ones included: 1..7 ``"tableau piles"``
        (bottom to end, lower-case suit face down), ``"stock"`` (bottom to top: the last card is
        drawn first), an optional ``"waste"`` (bottom to top). Ranks 1..max_rank of each suit in
        play must all be on the table (nothing on the foundations)."""
        deal = load_solvitaire(deal)
        for key in ("foundations", "foundation"):
            extra = deal.get(key)
            if extra and (not isinstance(extra, list) or any(extra)):
                raise MalformedInputError(f"{key!r} must be empty: give such cards in play instead")
        piles, stock, waste = deal.get("tableau piles"), deal.get("stock", []), deal.get("waste", [])
        if not isinstance(piles, list) or not 1 <= len(piles) <= NUM_COLUMNS:
            raise MalformedInputError("a Solvitaire Klondike deal needs 'tableau piles': 1..7 piles")
        if not isinstance(stock, list) or not isinstance(waste, list):
            raise MalformedInputError("'stock' and 'waste' must be lists of cards")
        face_down: list[tuple[int, ...]] = []
        face_up: list[tuple[int, ...]] = []
        for c, pile in enumerate(piles):
            if not isinstance(pile, list):
                raise MalformedInputError(f"tableau pile {c + 1} must be a list of cards")
            parsed = [parse_solvitaire_card(text) for text in pile]
            down = [card for card, up in parsed if not up]
            up_cards = [card for card, up in parsed if up]
            if any(up for _, up in parsed[: len(down)]) or (parsed and not parsed[-1][1]):
                raise MalformedInputError(
                    f"tableau pile {c + 1}: face-down cards (lower-case suits) come first and the "
                    f"last card is face up"
                )
            face_down.append(tuple(down))
            face_up.append(tuple(up_cards))
        cards = [card for col in face_down + face_up for card in col]
        stock_cards = tuple(parse_solvitaire_card(t)[0] for t in stock)
        waste_cards = tuple(parse_solvitaire_card(t)[0] for t in waste)
        cards += [*stock_cards, *waste_cards]
        max_rank = max(((c >> 2) + 1 for c in cards), default=1)
        return cls(tuple(face_down), tuple(face_up), stock_cards, waste_cards, (0, 0, 0, 0), max_rank)


def as_position(target: object) -> KlondikePosition:
    """A :class:`KlondikePosition` from a position, a game, a Solvitaire JSON deal or a deal."""
    if isinstance(target, KlondikePosition):
        return target
    if isinstance(target, KlondikeGame):
        return KlondikePosition.from_game(target)
    if looks_like_solvitaire(target):  # reduced deals too, which solitaire_rl.envs.klondike does not read
        return KlondikePosition.from_solvitaire(target)  # type: ignore[arg-type]
    return KlondikePosition.from_deal(target)


def native_actions(moves: Sequence[Move]) -> list[ActionTuple]:
    """``moves`` as the native atomic actions (the moved card left to the native side: -1)."""
    return [(NATIVE_KIND[m.kind], m.src, m.dst, m.count, -1) for m in moves]


def native_move(action: ActionTuple) -> Move:
    """The engine's :class:`Move` for a native atomic action."""
    code, src, dst, count, _card = action
    kind = KIND_OF_NATIVE[code]
    if kind == klondike_moves.DRAW:
        return DRAW_MOVE
    if kind == klondike_moves.RECYCLE:
        return RECYCLE_MOVE
    return Move(kind, src, dst, count)


def _options(draw_count: int, order_seed: int) -> _native.KlondikeOptions:
    if not _is_int(order_seed) or not 0 <= order_seed < 2**64:
        raise MalformedInputError(f"order_seed must be an integer 0..2**64-1, not {order_seed!r}")
    options = _native.KlondikeOptions()
    options.draw_count = draw_count
    options.order_seed = order_seed
    return options


def _draw_count_for(target: object, draw_count: object) -> int:
    if isinstance(target, KlondikeGame):
        if draw_count is not None and draw_count != target.draw_count:
            raise MalformedInputError(f"this game is draw {target.draw_count}, not draw {draw_count!r}")
        return target.draw_count
    return check_draw_count(3 if draw_count is None else draw_count)


def solve_klondike(
    target: object,
    *,
    draw_count: int | None = None,
    time_limit: float | _Default | None = DEFAULT,
    max_states: int | None = None,
    limits: SearchLimits | None = None,
    order_seed: int = 0,
    cancel: _native.CancelToken | None = None,
) -> SolveResult[Move]:
    """Decide whether the Klondike position ``target`` can be won.

    ``target`` is a :class:`KlondikeGame`, a :class:`KlondikePosition` or a deal. ``draw_count``
    (1 or 3; default 3, or the game's own, which it must then match). The budget is
    ``time_limit`` (wall-clock seconds, default 10; ``None``: none) and ``max_states``, or a whole
    ``limits`` (:func:`~solitaire_rl.agents.solver.limits.search_budget`, as for ``solve_pyramid``); the
    search
    runs with the GIL released and stops early if ``cancel`` is set from another thread.
    ``order_seed`` other than 0 shuffles the move order (the verdict stays the same). A
    ``winnable`` result carries a winning line that ``game.push`` accepts move by move.
    """
    draw = _draw_count_for(target, draw_count)
    position = as_position(target)
    budget = search_budget(limits, time_limit, max_states)
    if cancel is not None and not isinstance(cancel, _native.CancelToken):
        raise MalformedInputError(f"cancel must be a CancelToken, not {type(cancel).__name__}")
    options = _options(draw, order_seed)
    native = _native.klondike_solve(position.to_native(), options, budget.to_native(), cancel)
    status = _STATUS[native.status]
    return SolveResult(
        status=status,
        line=tuple(native_move(a) for a in native.line) if status == WINNABLE else None,
        states=native.states,
        seconds=native.seconds,
        reason=native.stop_reason.name if status == UNKNOWN else None,
        table_entries=native.tt_entries,
        table_bytes=native.tt_bytes,
    )


def klondike_generated_moves(
    target: object, draw_count: int = 3, *, order_seed: int = 0, dominances: bool = True
) -> list[list[ActionTuple]]:
    """The moves the native search tries from the position, in its order, each as the atomic
    actions it stands for. ``dominances=False`` turns off the safe-foundation, partial-run and
    canonical-lift rules (rules 1-3 and 6 of the design note)."""
    position = as_position(target)
    _options(check_draw_count(draw_count), order_seed)
    return _native.klondike_generated_moves(position.to_native(), draw_count, order_seed, bool(dominances))


def klondike_forced_move(target: object, draw_count: int = 3) -> list[ActionTuple]:
    """The step the native search plays at once from the position (atomic actions), or ``[]``."""
    return _native.klondike_forced_move(as_position(target).to_native(), check_draw_count(draw_count))


def klondike_legal_actions(target: object, draw_count: int = 3) -> list[ActionTuple]:
    """Every legal atomic action, from the native replayer (written apart from the search)."""
    return _native.klondike_legal_actions(as_position(target).to_native(), check_draw_count(draw_count))


def klondike_proved_lost_without_search(target: object, draw_count: int = 3) -> bool:
    """Whether the native relaxed game (``dead_end.hpp``) proves the position lost."""
    return _native.klondike_proved_lost_without_search(as_position(target).to_native(),
                                                        check_draw_count(draw_count))


def solvitaire_deals(text: str) -> list[KlondikePosition]:
    """The deals of a Solvitaire JSON text: one object, a list of them, or one per line; an
    object ``{"deal": {...}, ...}`` (as in the project's fixtures) stands for its ``deal``."""
    try:
        data = json.loads(text)
        items: Sequence[object] = data if isinstance(data, list) else [data]
    except json.JSONDecodeError:
        try:
            items = [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError as exc:
            raise MalformedInputError(f"not Solvitaire JSON (a deal, a list, one per line): {exc}") from None
    deals = []
    for item in items:
        if isinstance(item, Mapping) and "deal" in item:
            item = item["deal"]
        deals.append(KlondikePosition.from_solvitaire(item))  # type: ignore[arg-type]
    if not deals:
        raise MalformedInputError("no Solvitaire deal in the text")
    return deals


__all__ = [
    "CancelToken", "KlondikePosition", "as_position", "check_draw_count", "klondike_forced_move",
    "klondike_generated_moves", "klondike_legal_actions", "klondike_proved_lost_without_search",
    "native_move", "solve_klondike", "solvitaire_deals",
]
