// The exact Pyramid solver: depth-first search with a transposition table.
//
// Design note: what is proved, and why each shortcut is sound
// -----------------------------------------------------------
// The solver has full information: it knows the stock order (the "thoughtful" game). A state
// is (removed pyramid set, stock cards left, cursor, pass); see board.hpp. Only 1,430 removed
// sets can occur (no card leaves while covered), but the raw 28-bit mask is kept: with the
// 24-bit stock it makes a 52-bit key, and (pass, cursor) is the state's *time*.
//
// The game graph is acyclic (every move removes cards, advances the cursor or raises the
// pass), so depth-first search decides a state exactly: winnable iff some move leads to a
// winnable state. `not_winnable` is only reported when the search finished; a search stopped by
// its budget records nothing for unfinished states and reports `unknown`.
//
// Time. From any state, drawing (and recycling, while passes are left) reaches the same removed
// set and stock at every later time, so a state is at least as good as itself later. Hence the
// table keeps, per key, the earliest time the key was proved lost, and a probe at that time or
// later counts as lost. Forgetting entries (the table is capped) costs time, never correctness.
//
// Chains. The states of one key at its times from t on form a chain joined by draws and
// recycles. A removal tried at the chain's earliest possible time reaches its key earlier
// than the same removal later in the chain, so only the first is searched: pyramid pairs at
// the chain's start, pairs with a stock or waste card when that card first shows on a top.
// After one whole pass, every (cursor, tops) configuration repeats an earlier one, so the
// chain stops there. A chain also stops where a draw brings a forced move or buries cards:
// the rest is searched as that new state.
//
// "At least as good": T' is at least as good as T when every line from T maps to a line from
// T' that wins whenever it does. If T' is also reachable from T (or equivalent to it), T and
// T' have the same value and the search may replace T by T'. Forced moves (forced_moves.hpp):
//  * Kings at once. A King has no partner: the only move using it is its removal.
//    - A usable pyramid King: removing it early only makes cards available sooner, and leaves
//      stock and waste alone; every other move of a line stays legal.
//    - A King on the waste's top (both variants) or the stock's top (000): replay the line
//      without its draws of that King and without its removal. Where the King is not a usable
//      top, both games show the same tops; where it was the stock's top (000) the line could
//      only draw or remove it. A recycle that finds only that King left is skipped, which
//      leaves more passes, never fewer.
//    - In 001 a King on top of the stock is drawn and removed: that reaches exactly the
//      King-deleted state (the waste's top is unchanged), so it too is played at once.
//  * Forced pairs. If pyramid card p (rank r) and card q are usable and q is the only card of
//    rank 13 - r left, every win removes p with q (p needs a partner; q is the only one) and q
//    is used by no other move. Removing both now is at least as good, as for Kings.
//  * Buried waste (last pass only). A waste card that can never leave (no partner left in the
//    pyramid, nor in 000 ahead in the stock, which is the only way a waste card pairs with a
//    stock card) stays on top of the cards under it for good, as no recycle is left: those
//    cards can never be used, and dropping them gives an equivalent state.
//
// Pruning (pruning.hpp, relaxation.hpp); a pruned state is lost without search. Two pyramid
// cards are *related* if one lies on top of the other (directly or further down): they are
// never usable together, so never a pair.
//  * rank_count: every pyramid card must go; one of rank r < 13 goes only with one of rank
//    13 - r, each card once. More pyramid cards of rank r than cards of rank 13 - r left
//    anywhere means one of them never goes.
//  * buried_partner: a pyramid card whose every remaining partner is related to it (on top of
//    it: gone before it is usable; under it: usable only after it is gone) never goes.
//  * partner_matching: the pyramid cards of one rank need different partners among their
//    unrelated pyramid partners and the stock and waste cards; if Hall's condition fails for a
//    set of them, some card gets none.
//  * relaxation: give the game more freedom (every stock and waste card usable at any moment,
//    each once); a line of the real game is a line of the relaxed one, so if the relaxed game
//    cannot clear the pyramid, neither can the real one. The relaxed game is searched exactly,
//    with its own memo and forced moves (Kings; a card with no unrelated pyramid partner takes
//    a bag card of its partner rank, which it must do sooner or later; a card whose one
//    possible partner is an available pyramid card, with no bag card of that rank, pairs with
//    it), each sound by the argument for forced pairs.
//
// Move order (speed only): the removals freeing the most pyramid cards first, then those
// removing more pyramid cards, then the chain's later times.
#pragma once

#include <cstdint>
#include <vector>

#include "common/cancel_token.hpp"
#include "common/limits.hpp"
#include "common/search_status.hpp"
#include "pyramid/move.hpp"
#include "pyramid/position.hpp"

namespace solitaire::pyramid {

struct SearchResult {
  Status status = Status::unknown;
  StopReason stop_reason = StopReason::none;
  std::vector<Move> line;  // a winning line from the position when status is winnable
  std::uint64_t states = 0;        // states visited
  double seconds = 0.0;            // wall-clock time of the search
  std::uint64_t tt_entries = 0;    // lost states recorded at the end
  std::uint64_t tt_bytes = 0;      // final size of the transposition table
};

// Decide `position` within `limits`. Throws std::invalid_argument for an invalid position.
// Never prints, never touches signals; `cancel` (may be null) is polled at every state.
SearchResult solve(const Position& position, const Limits& limits,
                   const CancelToken* cancel = nullptr);

}  // namespace solitaire::pyramid
