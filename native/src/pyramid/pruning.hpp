// Positions that cannot be won, recognised without searching the game itself.
#pragma once

#include <cstdint>

#include "pyramid/board.hpp"

namespace solitaire::pyramid {

// Two pyramid cards are *related* when one lies on top of the other (directly or further
// down): they can never be usable at the same time, so they can never be paired. A card's
// *partners* are the remaining cards of rank 13 - r; its *possible partners* are those left in
// the stock or waste and those in the pyramid not related to it.
enum class PruneRule : std::uint8_t {
  none = 0,
  // For some rank r, the pyramid holds more cards of rank r than there are cards of rank 13 - r
  // left anywhere (pyramid, stock and waste together).
  rank_count = 1,
  // Some pyramid card has no possible partner left: every remaining partner lies on top of it
  // or under it in the pyramid.
  buried_partner = 2,
  // For some rank r, the pyramid cards of rank r cannot each get a different possible partner
  // (Hall's condition fails for a set of them).
  partner_matching = 3,
  // Even if every card left in the stock and waste could be used at any moment, the pyramid
  // could not be cleared (see relaxation.hpp).
  relaxation = 4,
};

// Cards of each rank 1..12 left in the stock and waste of `s`.
void stock_counts(const Board& board, const State& s, int* counts);

// The first counting rule (rank_count, buried_partner, partner_matching) that proves lost a
// position with pyramid `removed` and `counts[r]` cards of rank r in stock and waste, or none.
PruneRule counting_rule(const Board& board, std::uint32_t removed, const int* counts);

}  // namespace solitaire::pyramid
