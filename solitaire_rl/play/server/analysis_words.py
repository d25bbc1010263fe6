"""The analysis in words, English and the seeds' Japanese: verdicts, the outcome, the losing move,
its winning alternative and whether the player could have seen it. Never an engine code."""

from __future__ import annotations

from typing import Any

from solitaire_rl.agents.analysis import GameAnalysis
from solitaire_rl.agents.analysis.hindsight import HINDSIGHT, VISIBLE, Hindsight
from solitaire_rl.envs.klondike import KlondikeGame
from solitaire_rl.envs.klondike.moves import DRAW, RECYCLE
from solitaire_rl.play.server.klondike_wording import describe_klondike_move
from solitaire_rl.play.server.pyramid_wording import describe_move

Words = dict[str, str]

VERDICT_WORDS: dict[str, Words] = {
    "winnable": {"en": "can still be won", "ja": "まだ勝てる"},
    "not_winnable": {"en": "can no longer be won", "ja": "もう勝てない"},
    "unknown": {"en": "not decided (search limit)", "ja": "判定できず（探索の上限）"},
}


NEVER_WINNABLE_WORDS: Words = {"en": "cannot be won: no line wins this deal",
                               "ja": "勝てない（この配りはどう打っても勝てません）"}
"""A lost position of a deal lost from its start: it was never won, so it was not "no longer" won."""

TITLE_WORDS: dict[str, Words] = {
    "won": {"en": "How the game was won", "ja": "勝った局の振り返り"},
    "lost_at_move": {"en": "Where was the win lost?", "ja": "どこで勝ちを逃したか"},
    "never_winnable": {"en": "A deal that cannot be won", "ja": "どう打っても勝てない配り"},
    "still_winnable": {"en": "A game stopped while it could be won", "ja": "まだ勝てる状態で終わった局"},
    "undecided": {"en": "Game analysis", "ja": "局の振り返り"},
}
"""The viewer's title, by the analysis's outcome: only a game that lost its win asks where it was lost."""


WON_WORDS: Words = {"en": "has been won", "ja": "勝ちました"}
"""The position after the winning move: won, not "can still be won" (issue 51, defect 8)."""

def verdict_words(verdict: str, start_verdict: str, *, won: bool = False) -> Words:
    """A position's verdict in words; in a deal lost from its start, "cannot be won" (never "no longer");
    a won position "has been won"."""
    if won:
        return WON_WORDS
    if verdict == "not_winnable" and start_verdict == "not_winnable":
        return NEVER_WINNABLE_WORDS
    return VERDICT_WORDS[verdict]


def title_words(report: GameAnalysis) -> Words:
    """The viewer's title for ``report``'s outcome."""
    return TITLE_WORDS[report.outcome]


def move_words(game: Any, move: Any) -> Words:
    """A move of ``game`` (before it is played) as a short sentence."""
    if isinstance(game, KlondikeGame):
        if move.kind == DRAW:
            n = min(game.draw_count, len(game.stock))
            return {"en": f"Draw {n} card{'s' if n != 1 else ''} from the stock.",
                    "ja": f"山札から {n} 枚めくる"}
        if move.kind == RECYCLE:
            return {"en": "Turn the waste over into a new stock.",
                    "ja": "めくり札を組み直して新しい山札にする"}
        en, ja = describe_klondike_move(game, move)
        return {"en": en, "ja": ja}
    en, ja = describe_move(game, move)
    return {"en": en[0].upper() + en[1:] + ".", "ja": ja}


def outcome_words(report: GameAnalysis) -> Words:
    n = (report.first_losing_move or 0) + 1
    return {
        "won": {"en": "The game was won: no move lost anything.",
                "ja": "この局は勝ちました。勝ち筋を失った手はありません。"},
        "lost_at_move": {"en": f"After move {n} the game could no longer be won.",
                         "ja": f"{n} 手目のあと、もう勝てなくなりました。"},
        "never_winnable": {"en": "This deal cannot be won whatever the moves: no move lost it.",
                           "ja": "この配りはどう打っても勝てません。勝ちを逃した手はありません。"},
        "still_winnable": {"en": "The game stopped while it could still be won.",
                           "ja": "まだ勝てる状態で局が終わりました。"},
        "undecided": {"en": "The search reached its limit before finding the move that lost the game.",
                      "ja": "探索の上限に達し、どの手で勝てなくなったかは判定できませんでした。"},
    }[report.outcome]


def judgement_words(h: Hindsight, *, hint: bool = False) -> Words:
    """Whether the losing move could be seen from the cards seen at that moment (docs/analysis.md); a
    move the player played as the hint named it is said to be the hint's (issue 51: the analysis had
    blamed the player for the hint's own move)."""
    played, best, n = round(100 * h.played_value), round(100 * h.best_value), h.samples
    if hint:
        return hint_judgement_words(h, played, best, n)
    if h.judgement == VISIBLE and not h.unknown_cards:
        return {"en": "Every card was known at that moment: the loss could be seen.",
                "ja": "その時点ですべての札が見えていたので、負けは見て取れました。"}
    if h.judgement == VISIBLE:
        return {
            "en": (f"You could have seen it: judged by the cards seen at that moment, another move kept "
                   f"the game winnable more often ({best}% of {n} arrangements of the unseen cards, "
                   f"against {played}% for this move)."),
            "ja": (f"その時点で見えていた札から判断できた負けの一手です（見えていない札の並び {n} 通り"
                   f"のうち、別の手なら {best}%、この手では {played}% で勝てました）。"),
        }
    if h.judgement == HINDSIGHT:
        return {
            "en": (f"A loss only in hindsight: judged by the cards seen at that moment, this move was as "
                   f"good as any ({played}% of {n} arrangements of the unseen cards could still be won); "
                   f"it lost because of cards not seen yet."),
            "ja": (f"結果から見てはじめて分かる負けの一手です。その時点で見えていた札からは、ほかの手と"
                   f"変わらない手でした（見えていない札の並び {n} 通りのうち {played}% で勝てました）。"
                   f"まだ見ていない札の並びのせいで勝てなくなりました。"),
        }
    return {"en": "Whether it could be seen is not decided (no arrangement was solved within the limit).",
            "ja": "見て取れたかどうかは判定できませんでした（上限内に読み切れませんでした）。"}


HINT_MOVE_FIRST: Words = {"en": "This was the hint's move: you played the move the hint gave.",
                          "ja": "これはヒントの手です（ヒントどおりに打った手です）。"}


def hint_judgement_words(h: Hindsight, played: int, best: int, n: int) -> Words:
    """The losing move was the hint's: said first, then what the cards seen at that moment told."""
    en, ja = HINT_MOVE_FIRST["en"], HINT_MOVE_FIRST["ja"]
    if h.judgement == VISIBLE and not h.unknown_cards:
        return {"en": f"{en} Every card was known at that moment, and the hint missed the winning line.",
                "ja": f"{ja}その時点ですべての札が見えていましたが、ヒントは勝ち筋を外しました。"}
    if h.judgement == VISIBLE:
        return {"en": (f"{en} Judged by the cards seen at that moment, another move kept the game "
                       f"winnable more often ({best}% of {n} arrangements of the unseen cards, against "
                       f"{played}% for this move): the hint missed it."),
                "ja": (f"{ja}その時点で見えていた札から判断すると、別の手のほうが勝てる見込みが高く"
                       f"（見えていない札の並び {n} 通りのうち、別の手なら {best}%、この手では "
                       f"{played}%）、ヒントはそれを見落としました。")}
    if h.judgement == HINDSIGHT:
        return {"en": (f"{en} Judged by the cards seen at that moment, it was as good as any ({played}% "
                       f"of {n} arrangements of the unseen cards could still be won); it lost because of "
                       f"cards not seen yet."),
                "ja": (f"{ja}その時点で見えていた札からは、ほかの手と変わらない手でした（見えていない札の"
                       f"並び {n} 通りのうち {played}% で勝てました）。まだ見ていない札の並びのせいで"
                       f"勝てなくなりました。")}
    return {"en": (f"{en} Whether the loss could be seen is not decided (no arrangement was solved "
                   f"within the limit)."),
            "ja": f"{ja}見て取れたかどうかは判定できませんでした（上限内に読み切れませんでした）。"}


__all__ = ["HINT_MOVE_FIRST", "NEVER_WINNABLE_WORDS", "TITLE_WORDS", "VERDICT_WORDS",
           "WON_WORDS", "hint_judgement_words", "judgement_words", "move_words", "outcome_words",
           "title_words", "verdict_words"]
