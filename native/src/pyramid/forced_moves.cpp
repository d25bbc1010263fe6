#include "pyramid/forced_moves.hpp"

#include "common/bits.hpp"

namespace solitaire::pyramid {

namespace {

// Plays `move`, already known legal, and records it.
void play(const Board& board, State& s, Move move, std::vector<Move>& line) {
  board.play(s, move);
  line.push_back(move);
}

// Plays one forced move if there is one; true if it did.
bool play_one(const Board& board, State& s, std::vector<Move>& line) {
  const std::uint32_t available = board.geometry().available(s.removed);
  const std::uint32_t kings = available & board.pyramid_rank_mask(13);
  if (kings != 0) {
    play(board, s, Move::remove(lowest_bit(kings)), line);
    return true;
  }
  const int waste = Board::waste_top(s);
  if (waste >= 0 && board.stock_rank(waste) == 13) {
    play(board, s, Move::remove(kWastePlace), line);
    return true;
  }
  const int stock = Board::stock_top(s);
  if (stock >= 0 && board.stock_rank(stock) == 13) {
    if (board.stock_top_playable()) {
      play(board, s, Move::remove(kStockPlace), line);
    } else {
      play(board, s, Move::draw(), line);
      play(board, s, Move::remove(kWastePlace), line);
    }
    return true;
  }
  // Forced pairs: for each rank with one card left, that card and an available pyramid partner.
  const std::uint32_t present = ~s.removed & board.geometry().all_mask();
  for (int rank = 1; rank <= 12; ++rank) {
    const std::uint32_t partners = available & board.pyramid_rank_mask(13 - rank);
    if (partners == 0) continue;
    const std::uint32_t in_pyramid = board.pyramid_rank_mask(rank) & present;
    const std::uint32_t in_stock = board.stock_rank_mask(rank) & s.stock;
    if (popcount(in_pyramid) + popcount(in_stock) != 1) continue;
    int place = -1;
    if (in_pyramid != 0) {
      if ((in_pyramid & available) != 0) place = lowest_bit(in_pyramid);
    } else if (lowest_bit(in_stock) == waste) {
      place = kWastePlace;
    } else if (board.stock_top_playable() && lowest_bit(in_stock) == stock) {
      place = kStockPlace;
    }
    if (place >= 0) {
      play(board, s, Move::remove(lowest_bit(partners), place), line);
      return true;
    }
  }
  return false;
}

}  // namespace

bool drop_buried_waste(const Board& board, State& s) {
  if (s.pass < board.max_passes() || s.cursor < 2) return false;
  const std::uint32_t waste = s.stock & low_mask(s.cursor);
  const std::uint32_t ahead = s.stock & ~low_mask(s.cursor);
  const std::uint32_t present = ~s.removed & board.geometry().all_mask();
  std::uint32_t stuck = 0;  // draw-order indices of cards that can never leave
  for (int r = 1; r <= 12; ++r) {
    const bool can_leave =
        (board.pyramid_rank_mask(13 - r) & present) != 0 ||
        (board.stock_top_playable() && (board.stock_rank_mask(13 - r) & ahead) != 0);
    if (!can_leave) stuck |= board.stock_rank_mask(r);
  }
  const std::uint32_t blockers = waste & stuck;
  if (blockers == 0) return false;
  const std::uint32_t beneath = waste & low_mask(highest_bit(blockers));
  s.stock &= ~beneath;
  return beneath != 0;
}

int play_forced_moves(const Board& board, State& s, std::vector<Move>& line) {
  const std::size_t before = line.size();
  while (!board.is_won(s) && play_one(board, s, line)) {
  }
  return static_cast<int>(line.size() - before);
}

}  // namespace solitaire::pyramid
