#include "pyramid/move_generator.hpp"

#include "common/bits.hpp"

namespace solitaire::pyramid {

int usable_places(const Board& board, const State& s, int* places) {
  int n = 0;
  std::uint32_t available = board.geometry().available(s.removed);
  while (available != 0) {
    places[n++] = lowest_bit(available);
    available &= available - 1;
  }
  if (board.stock_top_playable() && Board::stock_top(s) >= 0) places[n++] = kStockPlace;
  if (Board::waste_top(s) >= 0) places[n++] = kWastePlace;
  return n;
}

int legal_moves(const Board& board, const State& s, Move* out) {
  if (board.is_won(s)) return 0;
  int places[kMaxPlaces];
  int ranks[kMaxPlaces];
  const int n = usable_places(board, s, places);
  for (int i = 0; i < n; ++i) ranks[i] = board.rank_at(s, places[i]);
  int count = 0;
  for (int i = 0; i < n; ++i) {
    if (ranks[i] == 13) out[count++] = Move::remove(places[i]);
  }
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      if (ranks[i] + ranks[j] == 13) out[count++] = Move::remove(places[i], places[j]);
    }
  }
  if (Board::stock_top(s) >= 0) {
    out[count++] = Move::draw();
  } else if (Board::waste_top(s) >= 0 && s.pass < board.max_passes()) {
    out[count++] = Move::recycle();
  }
  return count;
}

}  // namespace solitaire::pyramid
