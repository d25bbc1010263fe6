"""One player's Pyramid game on the server: the engine, the selection, the counts and the last message.

The page sends intents (tap a card, draw, recycle, undo, redo, restart, clear); :class:`PyramidSession`
turns them into engine moves with the seeds' tap rules, so the page holds no rule logic:

* a tap selects a usable card and marks its partners; a second tap on it deselects it;
* a King goes with one tap; a partner making 13 removes the pair;
* a second card that does not make 13 is refused with the seed's message in variant 000 and
  takes the selection in variant 001;
* a covered card is refused, naming the cards still on it.

A refused intent raises :class:`solitaire_rl.play.server.session.ActionRefused` and changes nothing (selection
included). Undo, redo, restart, clear and the save's replay are
:class:`solitaire_rl.play.server.session.GameSession`'s.
"""

from __future__ import annotations

from solitaire_rl.envs.cards import rank
from solitaire_rl.envs.pyramid import DRAW_MOVE, RECYCLE_MOVE, STOCK, Move, PyramidGame, Refusal
from solitaire_rl.envs.pyramid.layout import COVERED_BY, NUM_PYRAMID
from solitaire_rl.play.server.pyramid_wording import place_label, place_label_ja
from solitaire_rl.play.server.session import ActionRefused, GameSession, Notice, refusal_notice
from solitaire_rl.play.server.wording import RANK_SHORT, RANK_WORDS, spoken, spoken_ja

DEAL_TYPES = ("random", "winnable")
VARIANT_DEAL_TYPES = {"000": ("random",), "001": DEAL_TYPES}
"""Seed 000 has one deal type; seed 001 adds the winnable one."""



def covering_places(game: PyramidGame, pos: int) -> list[int]:
    """The cards still lying on pyramid position ``pos``, directly or further down, nearest first."""
    found: list[int] = []
    frontier = [q for q in COVERED_BY[pos] if game.card_at(q) is not None]
    while frontier:
        q = frontier.pop(0)
        if q not in found:
            found.append(q)
            frontier.extend(r for r in COVERED_BY[q] if game.card_at(r) is not None)
    return found


def covered_detail(game: PyramidGame, pos: int) -> tuple[str, str]:
    """Why a covered card cannot be chosen, naming the cards on it, in English and Japanese
    (``The 7 of hearts (row 7, position 3) is on top of it: remove it first.``)."""
    direct = [q for q in COVERED_BY[pos] if game.card_at(q) is not None]
    en_cards = " and ".join(f"the {spoken(game.card_at(q))} ({place_label(q)})" for q in direct)
    ja_cards = "と".join(f"{spoken_ja(game.card_at(q))}（{place_label_ja(q)}）" for q in direct)
    if len(direct) == 1:
        return (f"{en_cards[0].upper()}{en_cards[1:]} is on top of it: remove it first.",
                f"{ja_cards}が上に重なっています。先に取り除くと選べます")
    return (f"{en_cards[0].upper()}{en_cards[1:]} are on top of it: remove both first.",
            f"{ja_cards}が上に重なっています。2 枚とも取り除くと選べます")


class PyramidSession(GameSession[PyramidGame, int]):
    """A Pyramid game: ``selected`` is a place number (seed 001: ``operations`` never goes down)."""

    @property
    def variant(self) -> str:
        return self.game.variant

    # ------------------------------------------------------------ queries
    def partners(self, place: int) -> list[int]:
        """Usable places whose card makes 13 with the card at ``place`` (none for a King)."""
        card = self.game.card_at(place)
        if card is None or rank(card) == 13:
            return []
        need = 13 - rank(card)
        return [q for q in self.game.usable_places() if q != place and rank(self.game.card_at(q)) == need]

    # ------------------------------------------------------------ intents
    def tap(self, place: int) -> None:
        """Tap the card at ``place`` (a pyramid position, ``STOCK`` or ``WASTE``)."""
        game = self.game
        if game.is_won():
            self._refuse(refusal_notice(Refusal.GAME_WON))
        card = game.card_at(place)
        if card is None:
            self._refuse(refusal_notice(Refusal.NO_CARD))
        if place == STOCK and not game.stock_top_playable:
            self._refuse(refusal_notice(Refusal.STOCK_TOP_UNUSABLE))
        if place < NUM_PYRAMID and not game.is_available(place):
            self._refuse(refusal_notice(Refusal.COVERED, covered_detail(game, place)))
        if rank(card) == 13:
            self._play(Move.remove(place))
            return
        if self.selected is None or self.selected not in game.usable_places():
            self._select(place)
            return
        if self.selected == place:
            self.selected = None
            self.notice = None
            return
        other = game.card_at(self.selected)
        if rank(other) + rank(card) == 13:
            self._play(Move.remove(self.selected, place))
        elif game.stock_top_playable:
            self._refuse(refusal_notice(Refusal.NOT_THIRTEEN))
        else:
            self._select(place)

    def play(self, move: Move) -> None:
        """Play a move given whole (a hint or a solver step); refused moves change nothing."""
        reason = self.game.refusal(move)
        if reason is not None:
            detail = ("", "")
            if reason == Refusal.COVERED:
                pos = next(p for p in move.places() if p < NUM_PYRAMID and not self.game.is_available(p))
                detail = covered_detail(self.game, pos)
            self._refuse(refusal_notice(reason, detail))
        self._play(move)

    def draw(self) -> None:
        self.play(DRAW_MOVE)

    def recycle(self) -> None:
        self.play(RECYCLE_MOVE)

    def canonical_move(self, text: str) -> str:
        """A hint's move as the engine writes it (``r7c2+r7c1`` is ``r7c1+r7c2``)."""
        return str(Move.parse(text))

    # ------------------------------------------------------------ helpers
    def _select(self, place: int) -> None:
        self.selected = place
        self.hint = None  # a hint for another card would be stale
        card = self.game.card_at(place)
        need = 13 - rank(card)
        word = RANK_WORDS[need]
        article = "an" if word in ("Ace", "8") else "a"
        self.notice = Notice("SELECTED", f"Selected the {spoken(card)} ({place_label(place)}): it needs "
                             f"{article} {word}.",
                             f"{spoken_ja(card)}（{place_label_ja(place)}）を選択中：相手の数字は "
                             f"{RANK_SHORT[need]} です", kind="info")

    def _refuse(self, notice: Notice) -> None:
        raise ActionRefused(notice)


__all__ = ["DEAL_TYPES", "VARIANT_DEAL_TYPES", "PyramidSession", "covered_detail", "covering_places"]
