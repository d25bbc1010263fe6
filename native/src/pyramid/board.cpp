#include "pyramid/board.hpp"

namespace solitaire::pyramid {

namespace {
const Position& validated(const Position& position) {
  validate(position);
  return position;
}
}  // namespace

Board::Board(const Position& position, State* start)
    : geometry_(validated(position).rows),
      stock_top_playable_(position.stock_top_playable),
      max_passes_(position.max_passes),
      stock_size_(static_cast<int>(position.stock.size())) {
  for (int p = 0; p < geometry_.size(); ++p) {
    pyramid_rank_[p] = static_cast<std::uint8_t>(position.pyramid[p]);
    if (!((position.removed >> p) & 1U)) pyramid_rank_mask_[position.pyramid[p]] |= 1U << p;
  }
  for (int i = 0; i < stock_size_; ++i) {
    stock_rank_[i] = static_cast<std::uint8_t>(position.stock[i]);
    stock_rank_mask_[position.stock[i]] |= 1U << i;
  }
  if (start != nullptr) {
    start->removed = position.removed;
    start->stock = low_mask(stock_size_);
    start->cursor = static_cast<std::uint8_t>(position.waste_count);
    start->pass = static_cast<std::uint8_t>(position.pass_number);
  }
}

void Board::remove_place(State& s, int place) const {
  if (place == kStockPlace) {
    s.stock &= ~(1U << stock_top(s));
  } else if (place == kWastePlace) {
    s.stock &= ~(1U << (s.cursor - 1));
    const std::uint32_t below = s.stock & low_mask(s.cursor - 1);
    s.cursor = static_cast<std::uint8_t>(below == 0 ? 0 : highest_bit(below) + 1);
  } else {
    s.removed |= 1U << place;
  }
}

bool Board::canonicalize_stock(State& s) const {
  std::uint32_t stock = 0;
  int next = 0;       // the earliest index the next card may take
  int cursor = 0;
  for (std::uint32_t rest = s.stock; rest != 0; rest &= rest - 1) {
    const int i = lowest_bit(rest);
    const int j = lowest_bit(stock_rank_mask_[stock_rank_[i]] & ~low_mask(next));  // j <= i
    stock |= 1U << j;
    next = j + 1;
    if (i + 1 == s.cursor) cursor = j + 1;
  }
  if (stock == s.stock) return false;
  s.stock = stock;
  s.cursor = static_cast<std::uint8_t>(cursor);
  return true;
}

void Board::play(State& s, Move move) const {
  switch (move.kind) {
    case MoveKind::remove:
      // For stock + waste (a < b) the stock top goes first, so the cursor is still valid.
      remove_place(s, move.a);
      if (move.b != -1) remove_place(s, move.b);
      break;
    case MoveKind::draw:
      s.cursor = static_cast<std::uint8_t>(stock_top(s) + 1);
      break;
    case MoveKind::recycle:
      s.cursor = 0;
      ++s.pass;
      break;
  }
}

}  // namespace solitaire::pyramid
