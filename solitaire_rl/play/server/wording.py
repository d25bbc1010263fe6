"""How both pages name cards and speak a hint's reason, in English and in the seeds' Japanese.

Each game names its own places and moves: :mod:`solitaire_rl.play.server.pyramid_wording`,
:mod:`solitaire_rl.play.server.klondike_wording`. Reasons that come as typed decisions (Klondike's
commitment bot, the planner's way out of a loop) are worded from their kinds by the advisor
(:mod:`solitaire_rl.play.server.klondike_advice`), never parsed here; :func:`reason_en` and
:func:`reason_ja` word the planners' and agents' own sentences.
"""

from __future__ import annotations

import re

from solitaire_rl.envs.cards import rank

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


_NONE_WON = "a rule-of-thumb move"
_PREFERENCE = r"preference \1%, not a win chance"  # how strongly the policy prefers the move
_GOES_BACK = "its first choice goes back to a position met before"
_WOULD_GO_BACK = "its first choice would go back to a position met before"

_REASONS: tuple[tuple[re.Pattern[str], str | None, str], ...] = tuple(
    (re.compile(pattern), en, ja) for pattern, en, ja in (
        # a sample count of 0 wins is no advice: said plainly, never "wins in 0 of 32"
        # (issue 51: "no sampled stock is won from here (0 of 24)" read as "this can't be won"; a guess
        # at unseen cards is no verdict, so the count of guesses is not said)
        (r"^wins in 0 of (\d+) sampled (?:deal|stock)s(?: \((\d+) more undecided\))?$",
         f"{_NONE_WON} (the cards you have not seen will decide; it does not mean the deal is lost)",
         "経験則で選んだ手です（まだ見ていない札しだいです。勝てないという判定ではありません）"),
        # a player's words for the planners' "sampled" (issue 51: engine words off the main screen)
        (r"^wins in (\d+) of (\d+) sampled (?:deals|stocks) \((\d+) more undecided\)$",
         r"wins in \1 of \2 guesses at the cards you have not seen (\3 more could not be worked out in time)",
         r"見えていない札の並びを \2 通り試して \1 通りで勝てる手です"
         r"（ほかに時間内に読み切れなかったものが \3 通り）"),
        (r"^wins in (\d+) of (\d+) sampled (?:deals|stocks)$",
         r"wins in \1 of \2 guesses at the cards you have not seen",
         r"見えていない札の並びを \2 通り試して \1 通りで勝てる手です"),
        (r"^safe to put up: no card can need it any more$", None, "組札に上げても困る札はもうありません"),
        (r"^the only legal move$", None, "できる手はこれだけです"),
        # the player's words for the planners' endgame (issue 51: no "solver" on the main screen)
        (r"^every card is known: the solver's (?:winning line|move)$",
         "every card is known: this move is on a winning line", "すべての札が見えています：勝ち筋の一手です"),
        (r"^every card is known and no line clears the pyramid$", None,
         "すべての札が見えていますが、全消しの道はありません"),
        (r"^no sample finished in time: the (?:tie-break player's move|greedy choice)$",
         "nothing was worked out in time: a rule-of-thumb move",
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
    """The Japanese of a planner's or agent's reason (:class:`solitaire_rl.agents.base.Choice`), if it is one
    we know."""
    return _reworded(reason, 1)


def reason_en(reason: str) -> str:
    """A planner's or agent's reason as the page says it in English: plain where the agents' own words
    mislead a player (0 wins out of the samples; a policy's probability, which is no chance of winning)
    or name the engine (the solver, samples)."""
    return _reworded(reason, 0) or reason


__all__ = ["RANK_SHORT", "RANK_WORDS", "SUIT_WORDS", "SUIT_WORDS_JA", "reason_en", "reason_ja",
           "spoken", "spoken_ja", "tidy_ja"]
