"""How the page names cards, places and moves, in English and in the seeds' Japanese."""

from __future__ import annotations

import re
from typing import Any

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


_KANA_KANJI = "\u3040-\u30ff\u4e00-\u9fff"
_JAPANESE = f"{_KANA_KANJI}\u3000-\u303f\uff00-\uffef"  # with the Japanese punctuation and full-width forms
_BETWEEN_CJK = re.compile(f"(?<=[{_JAPANESE}]) +(?=[{_JAPANESE}])")
_CJK_THEN_LATIN = re.compile(f"([{_KANA_KANJI}])([A-Za-z0-9])")
_LATIN_THEN_CJK = re.compile(f"([A-Za-z0-9%])([{_KANA_KANJI}])")


def tidy_ja(text: str) -> str:
    """One space between a kana or kanji and a Latin letter or digit (``スペードの 8 を 5 列目``), none
    between two Japanese characters (``4 枚を``), as the seeds write; punctuation keeps no space."""
    text = _BETWEEN_CJK.sub("", re.sub(" {2,}", " ", text))
    return _LATIN_THEN_CJK.sub(r"\1 \2", _CJK_THEN_LATIN.sub(r"\1 \2", text))


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


__all__ = ["RANK_SHORT", "RANK_WORDS", "SUIT_WORDS", "SUIT_WORDS_JA", "describe_move", "hint_words",
           "place_label", "place_label_ja", "reason_en", "reason_ja", "spoken", "spoken_ja", "tidy_ja"]


_NONE_WON = "a rule-of-thumb move"
_PREFERENCE = r"preference \1%, not a win chance"  # how strongly the policy prefers the move
_GOES_BACK = "its first choice goes back to a position met before"
_WOULD_GO_BACK = "its first choice would go back to a position met before"

_REASONS: tuple[tuple[re.Pattern[str], str, str], ...] = tuple(
    (re.compile(pattern), en, ja) for pattern, en, ja in (
        # a sample count of 0 wins is no advice: said plainly, never "wins in 0 of 32"
        (r"^wins in 0 of (\d+) sampled (deal|stock)s \((\d+) more undecided\)$",
         rf"no sampled \2 is won for sure (0 of \1; \3 undecided): {_NONE_WON}",
         r"見えていない札の並びを \1 通り試しましたが、勝てると確かめられた並びはありません"
         r"（判定できなかったものが \3 通り）。経験則で選んだ手です"),
        (r"^wins in 0 of (\d+) sampled (deal|stock)s$",
         rf"no sampled \2 is won from here (0 of \1): {_NONE_WON}",
         r"見えていない札の並びを \1 通り試しましたが、勝てる並びはありません。経験則で選んだ手です"),
        (r"^wins in (\d+) of (\d+) sampled (?:deals|stocks) \((\d+) more undecided\)$", None,
         r"見えていない札の並びを \2 通り試して \1 通りで勝てる手です"
         r"（ほかに判定できなかったものが \3 通り）"),
        (r"^wins in (\d+) of (\d+) sampled (?:deals|stocks)$", None,
         r"見えていない札の並びを \2 通り試して \1 通りで勝てる手です"),
        (r"^safe to put up: no card can need it any more$", None, "組札に上げても困る札はもうありません"),
        (r"^this position has come up before: this move leads on to something new$", None,
         "この局面は前にも出ています。この手から新しい展開につながります"),
        (r"^the only (?:legal|useful) move$", None, "できる手はこれだけです"),
        (r"^every card is known: the solver's (?:winning line|move)$", None,
         "すべての札が見えています：ソルバーの勝ち筋です"),
        (r"^every card is known and no line clears the pyramid$", None,
         "すべての札が見えていますが、全消しの道はありません"),
        (r"^no sample finished in time: the (?:tie-break player's move|greedy choice)$", None,
         "時間内に読み切れなかったので、簡単な目安で選んだ手です"),
        # the policy's probability is how strongly it prefers the move, not a chance of winning
        (rf"^the trained policy's pick \((\d+)% likely\); {_GOES_BACK}$",
         rf"the trained agent's pick ({_PREFERENCE}); {_WOULD_GO_BACK}",
         r"学習済みエージェントの手（推す度合い \1%、勝てる見込みではありません）。"
         r"いちばん推す手は前に出た局面に戻るため、この手にしました"),
        (r"^the trained policy's pick \((\d+)% likely\)$",
         rf"the trained agent's pick ({_PREFERENCE})",
         r"学習済みエージェントの手（推す度合い \1%、勝てる見込みではありません）"),
        (rf"^the network's pick \((\d+)% likely; win chance (\d+)%\); {_GOES_BACK}$",
         rf"the network's pick (preference \1%; its win estimate \2%); {_WOULD_GO_BACK}",
         r"ネットワークの手（推す度合い \1%、ネットワークの見積もる勝てる見込み \2%）。"
         r"いちばん推す手は前に出た局面に戻るため、この手にしました"),
        (r"^the network's pick \((\d+)% likely; win chance (\d+)%\)$",
         r"the network's pick (preference \1%; its win estimate \2%)",
         r"ネットワークの手（推す度合い \1%、ネットワークの見積もる勝てる見込み \2%）"),
    ))


def _reworded(reason: str, lang: int) -> str | None:
    for pattern, en, ja in _REASONS:
        if pattern.match(reason):
            words = (en, ja)[lang]
            return pattern.sub(words, reason) if words else None
    return None


def reason_ja(reason: str) -> str | None:
    """The Japanese of a planner's or agent's reason (:class:`agents.base.Choice`), if it is one we know."""
    return _reworded(reason, 1)


def reason_en(reason: str) -> str:
    """A planner's or agent's reason as the page says it in English: plain where the agents' own words
    mislead a player (0 wins out of the samples; a policy's probability, which is no chance of winning)."""
    return _reworded(reason, 0) or reason


def hint_words(hint: dict[str, Any] | None) -> dict[str, Any] | None:
    """The hint as the page shows it: its reason in a player's English beside the agents' own (``reason``)."""
    if not hint or not isinstance(hint.get("reason"), str):
        return hint
    return {**hint, "reason_en": reason_en(hint["reason"]), "reason_ja": reason_ja(hint["reason"])}
