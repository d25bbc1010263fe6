"""One player's Klondike game (draw 3 or 1) on the server: the engine, the selection, the counts, the message.

The page sends intents; :class:`KlondikeSession` turns them into engine moves with seed 002's
tap rules, so the page holds no rule logic. Places are written like the engine's moves:

* ``stock``; ``waste`` (its top card); ``fC`` ``fD`` ``fH`` ``fS`` (a foundation's top card, or
  the foundation as a target); ``f`` (the card's own foundation, as a target);
* ``c3`` (column 3: its last card as a source, the column as a target) and ``c3:4`` (the face-up
  run of column 3's last 4 cards, i.e. the run that starts 4 cards from the end).

Intents: ``tap`` a place (a card with exactly one legal target goes there at once; otherwise it
is selected and its targets are marked; with a selection, a tap on another column or a foundation
is the target; a tap on the selection drops it), ``select`` (the run panel: select without
moving), ``move`` (a drag: source and target, or the engine's move text), ``stock`` (draw, or
recycle once the stock is empty), ``finish`` (one card of the auto-finish), ``undo``, ``redo``,
``restart`` and ``clear``. A refused intent raises :class:`ActionRefused` and changes nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from solitaire_rl.agents.solver.klondike import solve_klondike
from solitaire_rl.agents.solver.result import WINNABLE
from solitaire_rl.envs.cards import SUITS
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike import KlondikeGame, Move, Refusal
from solitaire_rl.envs.klondike.moves import (
    COLUMN_COLUMN,
    COLUMN_FOUNDATION,
    FOUNDATION_COLUMN,
    WASTE_COLUMN,
    WASTE_FOUNDATION,
)
from solitaire_rl.play.server.klondike_wording import foundation_detail, selected_words
from solitaire_rl.play.server.session import ActionRefused, GameSession, Notice

_PLACE = re.compile(r"(stock|waste|f[cdhs]?|c([1-7])(?::(\d{1,2}))?)")

NO_FINISH = Notice("NO_FINISH", "The finish is not available: a card is still face down, a stock card is "
                   "unseen, or the finish would not win.", "自動で仕上げはまだ使えません")
FINISH_TIME = 2.0
"""Seconds the finish may search for its winning line when foundation moves alone do not win."""
NOT_A_TARGET = Notice("NOT_A_TARGET", "Cards go to a column or a foundation, not there.",
                      "札を置けるのは列か組札だけです")


@dataclass(frozen=True)
class Place:
    """A parsed place: ``kind`` is ``stock``, ``waste``, ``foundation`` or ``column``."""

    kind: str
    index: int = -1
    """Column 0..6, or suit 0..3 (``-1``: the card's own foundation)."""
    count: int = 0
    """For a column: the run's length from the column's end (0: not given)."""

    def __str__(self) -> str:
        if self.kind in ("stock", "waste"):
            return self.kind
        if self.kind == "foundation":
            return "f" if self.index < 0 else f"f{SUITS[self.index]}"
        return f"c{self.index + 1}" + (f":{self.count}" if self.count > 1 else "")


def parse_place(text: object) -> Place:
    """Read a place (see the module docstring); :class:`MalformedInputError` if it is not one."""
    if not isinstance(text, str):
        raise MalformedInputError("a place is text: stock, waste, fC..fS, f, c1..c7 or c3:4")
    name = text.strip().lower()
    match = _PLACE.fullmatch(name)
    if match is None:
        raise MalformedInputError(f"{text!r} is not a place: use stock, waste, fC..fS, f, c1..c7 or c3:4")
    if name in ("stock", "waste"):
        return Place(name)
    if name.startswith("f"):
        return Place("foundation", SUITS.index(name[1].upper()) if len(name) == 2 else -1)
    count = int(match[3]) if match[3] is not None else 0
    if match[3] is not None and not 1 <= count <= 13:
        raise MalformedInputError(f"{text!r}: a run holds 1..13 cards")
    return Place("column", int(match[2]) - 1, count)


def move_source(move: Move) -> str:
    """The place a move takes its card(s) from."""
    if move.kind in (WASTE_FOUNDATION, WASTE_COLUMN):
        return "waste"
    if move.kind == FOUNDATION_COLUMN:
        return f"f{SUITS[move.src]}"
    if move.kind == COLUMN_COLUMN:
        return str(Place("column", move.src, move.count))
    if move.kind == COLUMN_FOUNDATION:
        return f"c{move.src + 1}"
    return "stock"


def move_target(move: Move, game: KlondikeGame) -> str:
    """The place a move puts its card(s) on (``stock`` for a draw or recycle)."""
    if move.kind in (WASTE_COLUMN, COLUMN_COLUMN, FOUNDATION_COLUMN):
        return f"c{move.dst + 1}"
    if move.kind == WASTE_FOUNDATION:
        return f"f{SUITS[game.waste[-1] & 3]}"
    if move.kind == COLUMN_FOUNDATION:
        return f"f{SUITS[game.columns[move.src][-1] & 3]}"
    return "stock"


def legal_targets(game: KlondikeGame) -> dict[str, list[dict[str, str]]]:
    """Every source place with its legal moves: ``{source: [{"target", "move"}, ...]}``."""
    out: dict[str, list[dict[str, str]]] = {}
    for move in game.legal_moves():
        source = move_source(move)
        if source == "stock":
            continue
        out.setdefault(source, []).append({"target": move_target(move, game), "move": str(move)})
    return out


class KlondikeSession(GameSession[KlondikeGame, str]):
    """A Klondike game; ``selected`` is the selected source place (``waste``, ``c3:2``, ``fH``)."""

    def canonical_move(self, text: str) -> str:
        """A hint's move as the engine writes it."""
        return str(Move.parse(text))

    # ------------------------------------------------------------ sources
    def source_of(self, place: Place) -> str:
        """The canonical source name of ``place`` as a source, refusing what cannot be moved."""
        game = self.game
        if game.is_won():
            self._refuse_rule(Refusal.GAME_WON)
        if place.kind == "waste":
            if not game.waste:
                self._refuse_rule(Refusal.WASTE_EMPTY)
            return "waste"
        if place.kind == "foundation":
            if place.index < 0 or not game.foundations[place.index]:
                self._refuse_rule(Refusal.NO_CARD)
            return f"f{SUITS[place.index]}"
        if place.kind == "column":
            col = game.columns[place.index]
            count = place.count or 1
            if count > len(col):
                self._refuse_rule(Refusal.NO_CARD)
            if count > len(col) - game.hidden[place.index]:
                self._refuse_rule(Refusal.FACE_DOWN)
            return str(Place("column", place.index, count))
        raise MalformedInputError("the stock is tapped to draw; it is not a card to move")

    def moves_from(self, source: str) -> list[Move]:
        """The legal moves of the card(s) at ``source``."""
        return [m for m in self.game.legal_moves() if move_source(m) == source]

    def move_for(self, source: str, target: Place) -> Move:
        """The move of ``source`` onto ``target``; refused (with the rules' reason) if illegal."""
        src = parse_place(source)
        if target.kind == "foundation":
            if src.kind == "foundation":
                raise ActionRefused(NOT_A_TARGET)
            card = self.game.waste[-1] if src.kind == "waste" else self.game.columns[src.index][-1]
            if src.kind == "column" and (src.count or 1) > 1:
                self._refuse_rule(Refusal.FOUNDATION_ORDER, "Only a single card goes to a foundation.")
            if target.index >= 0 and target.index != card & 3:
                self._refuse_rule(Refusal.FOUNDATION_ORDER, foundation_detail(card))
            move = Move.waste_to_foundation() if src.kind == "waste" else Move.column_to_foundation(src.index)
        elif target.kind == "column":
            t = target.index
            if src.kind == "waste":
                move = Move.waste_to_column(t)
            elif src.kind == "foundation":
                move = Move.foundation_to_column(src.index, t)
            else:
                move = Move.column_to_column(src.index, t, src.count or 1)
        else:
            raise ActionRefused(NOT_A_TARGET)
        reason = self.game.refusal(move)
        if reason is not None:
            self._refuse_rule(reason)
        return move

    # ------------------------------------------------------------ intents
    def tap(self, place: Place) -> None:
        """Seed 002's tap: select, play a card's only target, or use the tap as the target."""
        if place.kind == "stock":
            self.tap_stock()
            return
        if self.selected is not None and not self._still_there():
            self.selected = None
        if self.selected is not None:
            sel = parse_place(self.selected)
            same = (place.kind == sel.kind and (place.index == sel.index or place.kind == "waste"))
            if same:
                self.clear()
                return
            if place.kind in ("column", "foundation"):
                self._play(self.move_for(self.selected, Place(place.kind, place.index)))
                return
        source = self.source_of(place)
        moves = self.moves_from(source)
        if len(moves) == 1:
            self._play(moves[0])
            return
        self._select(source, moves)

    def select(self, place: Place) -> None:
        """Select a source without moving it (the run panel's confirmation)."""
        source = self.source_of(place)
        self._select(source, self.moves_from(source))

    def drop(self, source: Place, target: Place) -> None:
        """A drag: ``source`` dropped on ``target``; refused drops change nothing."""
        self._play(self.move_for(self.source_of(source), target))

    def play(self, move: Move) -> None:
        """Play a move given whole (a hint, a solver step); refused moves change nothing."""
        reason = self.game.refusal(move)
        if reason is not None:
            self._refuse_rule(reason)
        self._play(move)

    def tap_stock(self) -> None:
        """Draw 3 (fewer at the end; 1 in draw 1), or recycle the waste once the stock is empty."""
        self.play(self.game.stock_move())

    def finish_step(self) -> Move:
        """One step of the auto-finish: a card up (or the draw/recycle it needs) while foundation moves
        alone win; otherwise the next move of the solver's winning line (every card is known here, so
        the line is exact), which may move a card onto a column first."""
        game = self.game
        if not game.auto_finish_ready() or game.outcome() is not None:
            raise ActionRefused(NO_FINISH)
        move = game.auto_finish_move()
        if move is None:
            result = solve_klondike(game, time_limit=FINISH_TIME)
            if result.status != WINNABLE or not result.line:
                raise ActionRefused(NO_FINISH)
            move = result.line[0]
        self._play(move)
        return move

    # ------------------------------------------------------------ helpers
    def _still_there(self) -> bool:
        try:
            self.source_of(parse_place(self.selected))
        except (ActionRefused, MalformedInputError):
            return False
        return True

    def _select(self, source: str, moves: list[Move]) -> None:
        self.selected = source
        self.hint = None
        en, ja = selected_words(self.game, source, moves)
        self.notice = Notice("SELECTED", en, ja, kind="info")

    @staticmethod
    def _refuse_rule(refusal: Refusal, detail: str = "") -> None:
        raise ActionRefused(Notice(refusal.name, f"{refusal.en} {detail}".strip(), refusal.ja))


__all__ = ["NO_FINISH", "KlondikeSession", "Place", "legal_targets", "move_source", "move_target",
           "parse_place"]
