// A Pyramid position as the Python side describes it: ranks only, any reduced size.
#pragma once

#include <cstdint>
#include <vector>

namespace solitaire::pyramid {

// Everything that decides the game from here on. Suits play no part, so cards are ranks 1..13.
struct Position {
  int rows = 7;                   // 1..7 rows; the full game has 7 (28 cards)
  std::vector<int> pyramid;       // rank at each position (removed positions too), rows*(rows+1)/2
  std::uint32_t removed = 0;      // bitmask of removed pyramid positions
  std::vector<int> stock;         // remaining stock and waste in draw order: waste bottom..top,
                                  // then stock top..bottom (at most 24 cards)
  int waste_count = 0;            // how many of `stock` lie on the waste
  int pass_number = 1;            // 1..max_passes
  int max_passes = 3;             // passes through the stock in all (1..4; the rules use 3)
  bool stock_top_playable = true; // variant 000 (true) or 001 (false)
};

// Throws std::invalid_argument, naming the fault, unless the position is one the rules allow.
void validate(const Position& position);

}  // namespace solitaire::pyramid
