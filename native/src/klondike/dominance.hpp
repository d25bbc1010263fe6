// The safe-foundation rule: when sending a card up now can never cost the win.
#pragma once

#include "klondike/board.hpp"
#include "klondike/cards.hpp"

namespace solitaire::klondike {

// Keller's rule for games where foundation cards may come back down (Blake & Gent, "The
// Winnability of Klondike Solitaire and Many Other Patience Games", safe foundation moves with
// worry-back): card c of rank r may go up at once when both foundations of the opposite colour
// hold rank r - 2 or more and the other foundation of c's colour holds r - 3 or more. Absent
// suits (reduced decks) count as complete. Meant for a card that goes up now (its own
// foundation holds r - 1); the rule never looks at that foundation.
inline bool is_safe_to_foundation(const Board& board, Card c) {
  const int r = rank_of(c);
  const int s = suit_of(c);
  const int opp1 = is_red_suit(s) ? 0 : 1;
  const int opp2 = is_red_suit(s) ? 3 : 2;
  return board.effective_foundation(opp1) >= r - 2 && board.effective_foundation(opp2) >= r - 2 &&
         board.effective_foundation(twin_suit(s)) >= r - 3;
}

}  // namespace solitaire::klondike
