"""How the page names cards, places and moves, in English and in the seeds' Japanese."""

from __future__ import annotations

import re

from envs.cards import rank
from envs.pyramid import STOCK, WASTE, Move, PyramidGame
from envs.pyramid.layout import ROW_COL
from envs.pyramid.moves import DRAW, RECYCLE

RANK_WORDS = ("", "Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King")
RANK_SHORT = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")
SUIT_WORDS_JA = ("クラブ", "ダイヤ", "ハート", "スペード")


def spoken(card: int) -> str:
    """``Queen of clubs``."""
    return f"{RANK_WORDS[rank(card)]} of {SUIT_WORDS[card & 3]}"


def spoken_ja(card: int) -> str:
    """``クラブの Q``."""
    return f"{SUIT_WORDS_JA[card & 3]}の {RANK_SHORT[rank(card)]}"


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


__all__ = ["RANK_SHORT", "RANK_WORDS", "SUIT_WORDS", "SUIT_WORDS_JA", "describe_move", "place_label",
           "place_label_ja", "spoken", "spoken_ja"]


_REASONS_JA: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(pattern), ja) for pattern, ja in (
    (r"^wins in (\d+) of (\d+) sampled (?:deals|stocks) \((\d+) more undecided\)$",
     r"見えていない札の並びを \2 通り試して \1 通りで勝てる手です"
     r"（ほかに判定できなかったものが \3 通り）"),
    (r"^wins in (\d+) of (\d+) sampled (?:deals|stocks)$",
     r"見えていない札の並びを \2 通り試して \1 通りで勝てる手です"),
    (r"^safe to put up: no card can need it any more$", "組札に上げても困る札はもうありません"),
    (r"^this position has come up before: this move leads on to something new$",
     "この局面は前にも出ています。この手から新しい展開につながります"),
    (r"^the only (?:legal|useful) move$", "できる手はこれだけです"),
    (r"^every card is known: the solver's (?:winning line|move)$",
     "すべての札が見えています：ソルバーの勝ち筋です"),
    (r"^every card is known and no line clears the pyramid$",
     "すべての札が見えていますが、全消しの道はありません"),
    (r"^no sample finished in time: the (?:tie-break player's move|greedy choice)$",
     "時間内に読み切れなかったので、簡単な目安で選んだ手です"),
    (r"^the trained policy's pick \((\d+)% likely\)(; its first choice goes back to a position met before)?$",
     r"学習したエージェントの選んだ手です（確率 \1%）"),
    (r"^the network's pick \((\d+)% likely; win chance (\d+)%\)"
     r"(; its first choice goes back to a position met before)?$",
     r"ネットワークの選んだ手です（確率 \1%、勝つ見込み \2%）"),
))


def reason_ja(reason: str) -> str | None:
    """The Japanese of a planner's or agent's reason (:class:`agents.base.Choice`), if it is one we know."""
    for pattern, ja in _REASONS_JA:
        if pattern.match(reason):
            return pattern.sub(ja, reason)
    return None
