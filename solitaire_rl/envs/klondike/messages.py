"""Player-facing Klondike messages in English and Japanese, worded after seed 002.

:class:`Refusal` says why an action was refused (the position is unchanged); :class:`Announcement` is a
status the play page shows on its own (no legal move, no progress possible, the finish button).
"""

from __future__ import annotations

from enum import Enum


class Refusal(Enum):
    """Why a Klondike action was refused. ``.en`` and ``.ja`` are the messages shown."""

    NOTHING_TO_DRAW = (
        "The stock and the waste are both empty: there is nothing to draw.",
        "山札もめくり札も空なので、めくれる札がありません",
    )
    STOCK_EMPTY = (
        "The stock is empty: tap it to turn the waste over into a new stock.",
        "山札が空です。空いた山札の枠をタップすると、めくり札がそのままの順序で新しい山札になります",
    )
    STOCK_NOT_EMPTY = (
        "The waste is turned over only once the stock is empty.",
        "めくり札を組み直せるのは、山札が空になってからです",
    )
    WASTE_EMPTY = ("The waste is empty.", "めくり札がありません")
    NO_CARD = ("There is no card there.", "そこに札はありません")
    FACE_DOWN = (
        "Face-down cards cannot be moved: only a face-up run moves.",
        "裏向きの札は動かせません。動かせるのは表向きの一続きだけです",
    )
    SAME_COLUMN = ("The cards are already in that column.", "同じ列へは動かせません")
    BUILD_DOWN = (
        "A card goes only on a card one rank higher of the opposite colour.",
        "置き先の札より 1 つ小さく、色が反対の札しか置けません",
    )
    KING_ONLY = (
        "Only a King, or a run starting with a King, can go to an empty column.",
        "空いた列に置けるのは K だけ、または K で始まる一続きだけです",
    )
    FOUNDATION_ORDER = (
        "A foundation takes only the next card of its suit, starting with the Ace.",
        "組札には、A から順に同じスートの次の札だけを重ねられます",
    )
    GAME_WON = (
        "All 52 cards are on the foundations: the game is won.",
        "52 枚すべてが組札に上がりました",
    )

    def __init__(self, en: str, ja: str) -> None:
        self.en = en
        self.ja = ja


class Announcement(Enum):
    """Statuses the play page announces; ``.en`` and ``.ja`` are the texts."""

    NO_LEGAL_MOVE = (
        "No legal move is left anywhere on the table.",
        "盤面のどこにも正しい手が残っていません（手詰まりです）",
    )
    NO_PROGRESS = (
        "Moves remain, but none of them leads anywhere new.",
        "手は残っていますが、どれを選んでも前に進みません",
    )
    FINISH = ("Finish", "自動で仕上げ")
    WON = (
        "All 52 cards are on the foundations: the game is won.",
        "52 枚すべてが上がりました。このゲームは勝ちです",
    )

    def __init__(self, en: str, ja: str) -> None:
        self.en = en
        self.ja = ja


__all__ = ["Announcement", "Refusal"]
