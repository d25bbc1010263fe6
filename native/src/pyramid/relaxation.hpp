// The relaxed game: the pyramid alone, with the stock and waste as a bag of cards that may be
// used at any moment. If the pyramid cannot be cleared even so, the real position is lost.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/budget.hpp"
#include "common/transposition_table.hpp"
#include "pyramid/board.hpp"

namespace solitaire::pyramid {

class Relaxation {
 public:
  enum class Answer { clearable, not_clearable, stopped };

  // `budget` (may be null) is charged one state per relaxed position searched.
  Relaxation(const Board& board, std::size_t max_bytes, Budget* budget);

  // Whether the pyramid of `s` could be cleared, removing Kings alone and pairs of available
  // pyramid cards, or an available pyramid card with any card of the partner rank left in the
  // stock or waste (each such card used once). Results are remembered between calls.
  Answer clearable(const State& s);

  const TranspositionTable& memo() const { return memo_; }

 private:
  Answer search(std::uint32_t removed, int* counts);

  const Board& board_;
  Budget* budget_;
  TranspositionTable memo_;  // key: removed set and capped counts; value 1 clearable, 0 not
};

}  // namespace solitaire::pyramid
