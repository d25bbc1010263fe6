"""The JSON state the Pyramid page renders: every fact it shows, so the page needs no rule logic."""

from __future__ import annotations

from typing import Any

from solitaire_rl.envs.cards import rank
from solitaire_rl.envs.pyramid import DRAW_MOVE, MAX_PASSES, RECYCLE_MOVE, STOCK, WASTE, place_name
from solitaire_rl.envs.pyramid.layout import NUM_PYRAMID, ROW_COL
from solitaire_rl.play.server.pyramid_session import PyramidSession, covered_detail
from solitaire_rl.play.server.pyramid_wording import place_label, place_label_ja
from solitaire_rl.play.server.session import refusal_notice
from solitaire_rl.play.server.view import card_json, notice_json


def state_json(session: PyramidSession, verdict: dict[str, Any] | None = None) -> dict[str, Any]:
    """The whole state of a session, as the page renders it."""
    game = session.game
    usable = game.usable_places()
    partners = {p: session.partners(p) for p in usable}
    selected = session.selected if session.selected in usable else None
    pyramid = []
    for pos in range(NUM_PYRAMID):
        row, col = ROW_COL[pos]
        card = game.card_at(pos)
        state = "removed" if card is None else ("available" if game.is_available(pos) else "covered")
        why = covered_detail(game, pos) if state == "covered" else (None, None)
        pyramid.append({
            "place": pos, "name": place_name(pos), "row": row, "col": col, "state": state,
            "card": card_json(game.pyramid[pos]),
            "partners": partners.get(pos, []),
            "covered_reason": why[0], "covered_reason_ja": why[1],
        })
    stock_top = game.card_at(STOCK)
    draw_refusal = game.refusal(DRAW_MOVE)
    recycle_refusal = game.refusal(RECYCLE_MOVE)
    deal = game.deal
    return {
        "session": session.session_id,
        "variant": game.variant,
        "deal": {"label": deal.label, "id": str(deal.deal_id) if deal.deal_id else None, "code": deal.code,
                 "type": session.deal_type},
        "pyramid": pyramid,
        "stock": {"count": len(game.stock),
                  "top": card_json(stock_top) if game.stock_top_playable else None,
                  "partners": partners.get(STOCK, [])},
        "waste": {"count": len(game.waste), "top": card_json(game.card_at(WASTE)),
                  "partners": partners.get(WASTE, [])},
        "usable": [{"place": p, "name": place_name(p), "label": place_label(p), "label_ja": place_label_ja(p),
                    "card": card_json(game.card_at(p)), "partners": partners[p]} for p in usable],
        "selected": selected,
        "needed_rank": 13 - rank(game.card_at(selected)) if selected is not None else None,
        "pass": game.pass_number,
        "passes": MAX_PASSES,
        "recycles_left": MAX_PASSES - game.pass_number,
        "cards_left": game.cards_left,
        "removed": NUM_PYRAMID - game.cards_left,
        "draw_refusal": notice_json(refusal_notice(draw_refusal)) if draw_refusal else None,
        "recycle_refusal": notice_json(refusal_notice(recycle_refusal)) if recycle_refusal else None,
        "can_undo": game.moves_played > 0,
        "can_redo": bool(game.redo_moves),
        "moves": game.moves_played,
        "operations": session.operations,
        "hints": session.hints,
        "history": [str(m) for m in game.history],
        "redo": [str(m) for m in game.redo_moves],
        "seen": [c for c in range(52) if (game.seen >> c) & 1],
        "all_stock_seen": game.all_stock_seen(),
        "outcome": game.outcome(),
        "message": notice_json(session.notice),
        "hint": session.hint,
        "verdict": verdict,
    }


__all__ = ["state_json"]
