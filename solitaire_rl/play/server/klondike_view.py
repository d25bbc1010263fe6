"""The JSON state the Klondike page renders: every fact it shows, so the page needs no rule logic.

Hidden cards never leave the server: a face-down column card is sent as ``{"face_down": true}``,
the stock only as a count, and neither a random deal's code nor a hand-built start position is
sent (the deal ID names a random deal).
"""

from __future__ import annotations

from typing import Any

from solitaire_rl.envs.cards import SUITS
from solitaire_rl.envs.klondike import DRAW_MOVE, KlondikeGame
from solitaire_rl.envs.klondike.messages import Announcement
from solitaire_rl.envs.klondike.moves import COLUMN_FOUNDATION, DRAW, RECYCLE, WASTE_COLUMN, WASTE_FOUNDATION
from solitaire_rl.play.server.klondike_session import KlondikeSession, legal_targets, move_source, move_target
from solitaire_rl.play.server.session import refusal_notice
from solitaire_rl.play.server.view import card_json, notice_json

FACE_DOWN = {"face_down": True, "spoken": "face-down card"}
SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")


def waste_fan(game: KlondikeGame) -> int:
    """How many waste cards the fan shows: the cards of the last draw still on the waste (seed 002:
    3, or 1 or 2 when fewer were left to draw), and at least the top card while the waste has one."""
    played = 0
    for move, note in reversed(game._history):  # the engine's undo notes: a draw's note is its size
        if move.kind in (WASTE_FOUNDATION, WASTE_COLUMN):
            played += 1
        elif move.kind == DRAW:
            return min(len(game.waste), max(note - played, 1))
        elif move.kind == RECYCLE:
            break
    return min(len(game.waste), 1)


def column_json(session: KlondikeSession, c: int, targets: dict[str, list[dict[str, str]]]) -> dict[str, Any]:
    game = session.game
    col, hidden = game.columns[c], game.hidden[c]
    cards: list[dict[str, Any]] = [dict(FACE_DOWN) for _ in range(hidden)]
    for i in range(hidden, len(col)):
        count = len(col) - i
        place = f"c{c + 1}" + (f":{count}" if count > 1 else "")
        key = place if count > 1 else f"c{c + 1}"
        cards.append({**card_json(col[i]), "face_down": False, "place": place, "count": count,
                      "targets": [t["target"] for t in targets.get(key, [])]})
    up = [card_json(x)["spoken"] for x in col[hidden:]]
    label = f"Column {c + 1}: " + (
        "empty" if not col else
        ", ".join(filter(None, [f"{hidden} face-down card{'s' if hidden != 1 else ''}" if hidden else "",
                                " on ".join(reversed(up))])))
    up_ja = [card_json(x).get("spoken_ja", "") for x in col[hidden:]]
    label_ja = f"{c + 1} 列目：" + ("空" if not col else "、".join(filter(None, [
        f"裏向き {hidden} 枚" if hidden else "", "、".join(up_ja)])))
    return {"col": c, "name": f"c{c + 1}", "face_down": hidden, "cards": cards, "label": label,
            "label_ja": label_ja}


def state_json(session: KlondikeSession, verdict: dict[str, Any] | None = None) -> dict[str, Any]:
    """The whole state of a Klondike session, as the page renders it."""
    game = session.game
    targets = legal_targets(game)
    outcome = game.outcome()
    fan = waste_fan(game)
    waste_cards = game.waste[-fan:] if fan else []
    draw_refusal = game.refusal(DRAW_MOVE) if not game.waste else None
    stock_move = game.stock_move()
    deal = game.deal
    selected = session.selected
    sel_targets = []
    if selected is not None:
        key = selected
        sel_targets = [t["target"] for t in targets.get(key, [])]
    foundations = []
    for s in range(4):
        top = game.foundations[s]
        place = f"f{SUITS[s]}"
        foundations.append({
            "suit": SUITS[s], "place": place, "count": top, "suit_word": SUIT_WORDS[s],
            "top": card_json((top - 1) * 4 + s) if top else None,
            "targets": [t["target"] for t in targets.get(place, [])],
        })
    # Seed 002: the finish shows as soon as nothing is face down and no stock card is unseen (issue 51:
    # it had waited until foundation moves alone could win, 14 moves late); the finish then plays the
    # winning line, column moves included (KlondikeSession.finish_step).
    finish = game.auto_finish_ready() if outcome is None else False
    return {
        "session": session.session_id,
        "game": "klondike",
        "draw_count": game.draw_count,
        # A deal's code names every card, face-down ones included: it is sent only for a deal the
        # player typed in (no ID); a hand-built start position stays on the server.
        "deal": {"label": deal.label if deal else "hand-built position",
                 "id": str(deal.deal_id) if deal and deal.deal_id else None,
                 "code": deal.code if deal and deal.deal_id is None else None, "type": session.deal_type},
        "columns": [column_json(session, c, targets) for c in range(len(game.columns))],
        "stock": {"count": len(game.stock), "action": "draw" if stock_move.kind == DRAW else "recycle",
                  "refusal": notice_json(refusal_notice(draw_refusal)) if draw_refusal else None},
        "waste": {"count": len(game.waste), "fan": [card_json(x) for x in waste_cards],
                  "targets": [t["target"] for t in targets.get("waste", [])]},
        "foundations": foundations,
        "selected": selected,
        "selected_targets": sel_targets,
        "recycles": game.recycles,
        "cards_up": game.cards_up,
        "face_down": game.face_down_count(),
        "moves": game.moves_played,
        "operations": session.operations,
        "hints": session.hints,
        "can_undo": game.moves_played > 0,
        "can_redo": bool(game.redo_moves),
        "history": [str(m) for m in game.history],
        "redo": [str(m) for m in game.redo_moves],
        "seen": [c for c in range(52) if (game.seen >> c) & 1],
        "outcome": outcome,
        "outcome_text": _outcome_text(outcome),
        "finish": {"available": finish, "label": Announcement.FINISH.en,
                   "label_ja": Announcement.FINISH.ja},
        "auto_home": safe_home(game) if outcome is None else None,
        "message": notice_json(session.notice),
        "hint": session.hint,
        "verdict": verdict,
    }


def is_safe_home(game: KlondikeGame, card: int) -> bool:
    """Whether sending ``card`` (next on its foundation) up can never cost the player: an Ace or a 2,
    or a card that no card left could need to be built on it (both foundations of the other colour
    have reached one rank below, and the same colour's other suit two below)."""
    rank, suit = card // 4 + 1, card & 3
    if rank <= 2:
        return True
    red = suit in (1, 2)
    other_colour = [s for s in range(4) if (s in (1, 2)) != red]
    same_colour = [s for s in range(4) if (s in (1, 2)) == red and s != suit]
    return (all(game.foundations[s] >= rank - 1 for s in other_colour)
            and all(game.foundations[s] >= rank - 2 for s in same_colour))


def safe_home(game: KlondikeGame) -> dict[str, str] | None:
    """The first card (waste top, then columns left to right) that is safe to send up, as
    ``{source, target}`` places, or ``None``."""
    for move in game.legal_moves():
        if move.kind == WASTE_FOUNDATION:
            card = game.waste[-1]
        elif move.kind == COLUMN_FOUNDATION:
            card = game.columns[move.src][-1]
        else:
            continue
        if is_safe_home(game, card):
            return {"source": move_source(move), "target": move_target(move, game)}
    return None


def _outcome_text(outcome: str | None) -> dict[str, str] | None:
    notice = {"win": Announcement.WON, "dead_end": Announcement.NO_LEGAL_MOVE,
              "no_progress": Announcement.NO_PROGRESS}.get(outcome or "")
    return {"en": notice.en, "ja": notice.ja} if notice else None


__all__ = ["FACE_DOWN", "column_json", "is_safe_home", "safe_home", "state_json", "waste_fan"]
