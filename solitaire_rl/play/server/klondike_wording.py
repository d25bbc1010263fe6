"""How the Klondike page names cards, places and moves in words, in English and in the seed's Japanese.

Every text a player reads says "the 8 of clubs", "column 5", "the waste", "the clubs foundation";
the engine's short names (``c5:3``, ``waste>f``, ``fS``) stay in the API's fields.
"""

from __future__ import annotations

from solitaire_rl.envs.klondike import KlondikeGame, Move
from solitaire_rl.envs.klondike.moves import (
    COLUMN_COLUMN,
    COLUMN_FOUNDATION,
    DRAW,
    FOUNDATION_COLUMN,
    RECYCLE,
    WASTE_COLUMN,
    WASTE_FOUNDATION,
)
from solitaire_rl.play.server.wording import SUIT_WORDS, SUIT_WORDS_JA, spoken, spoken_ja, tidy_ja


def the_card(card: int) -> str:
    """``the 8 of clubs``, ``the Queen of hearts``."""
    return f"the {spoken(card)}"


def foundation_words(suit: int) -> tuple[str, str]:
    """``the clubs foundation`` / ``クラブの組札``."""
    return f"the {SUIT_WORDS[suit]} foundation", f"{SUIT_WORDS_JA[suit]}の組札"


def place_words(game: KlondikeGame, place: str) -> tuple[str, str]:
    """A page place (``waste``, ``fH``, ``c3``, ``c3:4``, ``stock``) in words, naming its card if any.

    ``c3:4``: ``the 9 of spades and the 3 cards on it in column 3``; ``fH``: ``the hearts
    foundation``; ``c3`` as a target: ``column 3`` (its last card named when it has one).
    """
    if place == "stock":
        return "the stock", "山札"
    if place == "waste":
        if game.waste:
            card = game.waste[-1]
            return f"{the_card(card)} on the waste", f"めくり札の{spoken_ja(card)}"
        return "the waste", "めくり札"
    if place.startswith("f"):
        suit = "CDHS".index(place[1].upper())
        return foundation_words(suit)
    col, _, count_text = place[1:].partition(":")
    c = int(col) - 1
    count = int(count_text or 1)
    cards = game.columns[c]
    if count > len(cards) - game.hidden[c] or not cards:
        return f"column {c + 1}", f"{c + 1} 列目"
    first = cards[-count]
    en = the_card(first)
    ja = spoken_ja(first)
    if count > 1:
        en += f" and the {count - 1} card{'s' if count > 2 else ''} on it"
        ja += f"から {count} 枚"
    return f"{en} in column {c + 1}", f"{c + 1} 列目の{ja}"


def target_words(game: KlondikeGame, target: str) -> tuple[str, str]:
    """Where cards go, as a target: ``onto the 9 of hearts in column 2``, ``to the empty column 4``,
    ``to the clubs foundation``."""
    if target.startswith("f"):
        en, ja = foundation_words("CDHS".index(target[1].upper()))
        return f"to {en}", f"{ja}へ"
    c = int(target[1:].split(":")[0]) - 1
    cards = game.columns[c]
    if not cards:
        return f"to the empty column {c + 1}", f"空いた {c + 1} 列目へ"
    return f"onto {the_card(cards[-1])} in column {c + 1}", f"{c + 1} 列目の{spoken_ja(cards[-1])} の上へ"


def _moving(game: KlondikeGame, move: Move) -> tuple[list[int], str, str]:
    """The cards a move carries (first one first) and where they come from, in words."""
    if move.kind in (WASTE_FOUNDATION, WASTE_COLUMN):
        return [game.waste[-1]], "from the waste", "めくり札から"
    if move.kind == FOUNDATION_COLUMN:
        top = game.foundations[move.src]
        en, ja = foundation_words(move.src)
        return [(top - 1) * 4 + move.src], f"from {en}", f"{ja}から"
    col = game.columns[move.src]
    count = move.count if move.kind == COLUMN_COLUMN else 1
    return list(col[-count:]), f"from column {move.src + 1}", f"{move.src + 1} 列目から"


def describe_klondike_move(game: KlondikeGame, move: Move) -> tuple[str, str]:
    """A legal move of ``game`` (before it is played) as a sentence: ``(English, Japanese)``, the
    Japanese spaced as the seed writes (:func:`tidy_ja`).

    ``Move the 8 of clubs from column 5 onto the 9 of hearts in column 2.``
    """
    if move.kind == DRAW:
        n = min(game.draw_count, len(game.stock))
        return (f"Draw {n} card{'s' if n != 1 else ''} from the stock.",
                f"山札から {n} 枚めくりましょう")
    if move.kind == RECYCLE:
        return "Turn the waste over into a new stock.", "めくり札を組み直して新しい山札にしましょう"
    cards, origin_en, origin_ja = _moving(game, move)
    if move.kind in (WASTE_FOUNDATION, COLUMN_FOUNDATION):
        suit = cards[0] & 3
        dest_en, dest_ja = foundation_words(suit)
        dest_en, dest_ja = f"to {dest_en}", f"{dest_ja}へ"
    else:
        dest_en, dest_ja = target_words(game, f"c{move.dst + 1}")
    what_en, what_ja = the_card(cards[0]), spoken_ja(cards[0])
    if len(cards) > 1:
        what_en += f" and the {len(cards) - 1} card{'s' if len(cards) > 2 else ''} on it"
        what_ja += f"から {len(cards)} 枚"
    return f"Move {what_en} {origin_en} {dest_en}.", tidy_ja(f"{origin_ja}{what_ja}を{dest_ja}")


def selected_words(game: KlondikeGame, source: str, moves: list[Move]) -> tuple[str, str]:
    """The message of a selection: what is selected and where it can go, in words."""
    what_en, what_ja = place_words(game, source)
    if not moves:
        return (f"Selected {what_en}: it cannot move anywhere now.",
                tidy_ja(f"{what_ja}を選びました。今は置ける場所がありません"))
    targets_en: list[str] = []
    targets_ja: list[str] = []
    for move in moves:
        if move.kind in (WASTE_FOUNDATION, COLUMN_FOUNDATION):
            card = game.waste[-1] if move.kind == WASTE_FOUNDATION else game.columns[move.src][-1]
            en, ja = foundation_words(card & 3)
            en, ja = f"to {en}", f"{ja}へ"
        else:
            en, ja = target_words(game, f"c{move.dst + 1}")
        targets_en.append(en)
        targets_ja.append(ja)
    where_en = targets_en[0] if len(targets_en) == 1 else ", ".join(targets_en[:-1]) + " or " + targets_en[-1]
    return (f"Selected {what_en}: it can go {where_en}.",
            tidy_ja(f"{what_ja}を選びました。置き先（{'、'.join(targets_ja)}）が光っています"))


def foundation_detail(card: int) -> str:
    """The detail of a foundation refusal: ``The 8 of clubs goes on the clubs foundation.``"""
    return f"The {spoken(card)} goes on the {SUIT_WORDS[card & 3]} foundation."


__all__ = ["describe_klondike_move", "foundation_detail", "foundation_words", "place_words",
           "selected_words", "target_words", "the_card"]
