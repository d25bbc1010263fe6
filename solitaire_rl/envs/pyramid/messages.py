"""Player-facing refusal reasons from the seeds, in English and in the seeds' Japanese."""

from __future__ import annotations

from enum import Enum


class Refusal(Enum):
    """Why a Pyramid action was refused. ``.en`` and ``.ja`` are the messages shown."""

    NOT_THIRTEEN = ("These two cards do not add up to 13.", "この 2 枚は合計 13 になりません")
    COVERED = ("This card is still covered.", "このカードはまだ重なっています")
    NOTHING_TO_DRAW = ("There is no card to draw.", "めくれるカードがありません")
    STOCK_NOT_EMPTY = (
        "You can recycle once the stock has been drawn to the end.",
        "山札をめくり終えると再利用できます",
    )
    NO_RECYCLES_LEFT = ("No recycles are left.", "再利用できる回数が残っていません")
    WASTE_EMPTY = ("The waste has no cards to recycle.", "捨て札に再利用できるカードがありません")
    NO_CARD = ("There is no card there.", "そこにカードはありません")
    STOCK_TOP_UNUSABLE = (
        "Only the waste's top card can be used; draw the stock card first.",
        "使えるのは捨て札の一番上だけです",
    )
    NEEDS_PARTNER = (
        "Only a King is removed alone; this card needs a partner adding up to 13.",
        "K 以外のカードは合計 13 になる相手と一緒に取り除きます",
    )
    SAME_CARD = ("Choose two different cards.", "別々の 2 枚を選んでください")
    GAME_WON = ("The pyramid is cleared: the game is won.", "ピラミッドはすべて取り除かれました")

    def __init__(self, en: str, ja: str) -> None:
        self.en = en
        self.ja = ja
