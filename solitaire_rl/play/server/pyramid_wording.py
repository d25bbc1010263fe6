"""How the Pyramid page names places and moves, in English and in the seeds' Japanese (the cards'
names are :mod:`solitaire_rl.play.server.wording`'s)."""

from __future__ import annotations

from solitaire_rl.envs.pyramid import STOCK, WASTE, Move, PyramidGame
from solitaire_rl.envs.pyramid.layout import ROW_COL
from solitaire_rl.envs.pyramid.moves import DRAW, RECYCLE
from solitaire_rl.play.server.wording import spoken, spoken_ja


def place_label(place: int) -> str:
    """``row 7, position 1``, ``stock top`` or ``waste top``."""
    if place == STOCK:
        return "stock top"
    if place == WASTE:
        return "waste top"
    row, col = ROW_COL[place]
    return f"row {row}, position {col}"


def place_label_ja(place: int) -> str:
    """``7 段目の 1 枚目``, ``山札の一番上`` or ``捨て札の一番上``."""
    if place == STOCK:
        return "山札の一番上"
    if place == WASTE:
        return "捨て札の一番上"
    row, col = ROW_COL[place]
    return f"{row} 段目の {col} 枚目"


def describe_move(game: PyramidGame, move: Move) -> tuple[str, str]:
    """A move of ``game`` (before it is played) in words: ``(English, Japanese)``."""
    if move.kind == DRAW:
        return "draw a card from the stock", "山札を 1 枚めくる"
    if move.kind == RECYCLE:
        return "recycle the waste into a new stock", "捨て札を再利用して次の巡へ進む"
    cards = [(game.card_at(p), p) for p in move.places()]
    en = " and ".join(f"the {spoken(c)} ({place_label(p)})" for c, p in cards)
    ja = "と".join(f"{spoken_ja(c)}（{place_label_ja(p)}）" for c, p in cards)
    if move.is_pair:
        return f"remove {en}, which add up to 13", f"{ja}を合計 13 で取り除く"
    return f"remove {en} alone", f"{ja}を単独で取り除く"


__all__ = ["describe_move", "place_label", "place_label_ja"]
