"""Plain-text rendering of a Klondike position, as the player sees it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from solitaire_rl.envs.cards import RANK_NAMES, SUITS, card_name

if TYPE_CHECKING:
    from solitaire_rl.envs.klondike.game import KlondikeGame

FACE_DOWN_TEXT = "##"


def render_text(game: KlondikeGame) -> str:
    """Stock, waste (the last three cards fanned, the playable top in brackets), foundations,
    then one line per column from its bottom (``##`` face down) to its end. Example::

        stock 15  waste 6: .. 4H 9C [QS]  recycles 1  draw 3
        foundations  C:3  D:-  H:A  S:-
        c1: KS QH JC
        c2: ## ## 5D
    """
    waste = game.waste
    fan = [card_name(c) for c in waste[-3:]]
    if fan:
        fan[-1] = f"[{fan[-1]}]"
    more = ".. " if len(waste) > 3 else ""
    head = (f"stock {len(game.stock)}  waste {len(waste)}: {more}{' '.join(fan) or '-'}  "
            f"recycles {game.recycles}  draw {game.draw_count}")
    found = "  ".join(
        f"{SUITS[s]}:{RANK_NAMES[r - 1] if r else '-'}" for s, r in enumerate(game.foundations)
    )
    lines = [head, f"foundations  {found}"]
    for c, col in enumerate(game.columns):
        h = game.hidden[c]
        cells = [FACE_DOWN_TEXT] * h + [card_name(card) for card in col[h:]]
        lines.append(f"c{c + 1}: {' '.join(cells) or '-'}")
    return "\n".join(lines)
