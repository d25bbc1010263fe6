// The fixed part of a search: geometry, the rank at each place, variant and passes; and the
// compact State that changes as moves are played.
#pragma once

#include <array>
#include <cstdint>

#include "common/bits.hpp"
#include "pyramid/geometry.hpp"
#include "pyramid/move.hpp"
#include "pyramid/position.hpp"

namespace solitaire::pyramid {

// The changing part of a position, 8 bytes.
//
// The stock and waste always hold the remaining cards of one fixed sequence (the draw order):
// drawing moves the cursor forward, recycling moves it back to 0, removals only delete cards.
// So a bitmask of the cards still present plus a cursor describe both piles: cards before the
// cursor are the waste (its top the last of them), cards from the cursor on are the stock (its
// top the first of them). The cursor is kept canonical: 0, or just after the waste's top card.
struct State {
  std::uint32_t removed = 0;  // pyramid positions removed
  std::uint32_t stock = 0;    // bit i: card i of the draw order still present
  std::uint8_t cursor = 0;
  std::uint8_t pass = 1;

  bool operator==(const State& o) const {
    return removed == o.removed && stock == o.stock && cursor == o.cursor && pass == o.pass;
  }
};

class Board {
 public:
  // Validates `position` (std::invalid_argument) and sets up the board; `start` gets its state.
  Board(const Position& position, State* start);

  const Geometry& geometry() const { return geometry_; }
  bool stock_top_playable() const { return stock_top_playable_; }
  int max_passes() const { return max_passes_; }
  int stock_size() const { return stock_size_; }
  int pyramid_rank(int p) const { return pyramid_rank_[p]; }
  int stock_rank(int i) const { return stock_rank_[i]; }
  // Positions (pyramid) and draw-order indices (stock) holding each rank 1..13.
  std::uint32_t pyramid_rank_mask(int rank) const { return pyramid_rank_mask_[rank]; }
  std::uint32_t stock_rank_mask(int rank) const { return stock_rank_mask_[rank]; }

  bool is_won(const State& s) const { return s.removed == geometry_.all_mask(); }
  // Draw-order index of the waste's / stock's top card, or -1 if that pile is empty.
  static int waste_top(const State& s) { return s.cursor == 0 ? -1 : s.cursor - 1; }
  static int stock_top(const State& s) {
    const std::uint32_t rest = s.stock & ~low_mask(s.cursor);
    return rest == 0 ? -1 : lowest_bit(rest);
  }
  // Rank of the card at a usable place (the place must hold a card).
  int rank_at(const State& s, int place) const {
    if (place == kStockPlace) return stock_rank_[stock_top(s)];
    if (place == kWastePlace) return stock_rank_[waste_top(s)];
    return pyramid_rank_[place];
  }

  // Play a move already known to be legal.
  void play(State& s, Move move) const;

  // Only the ranks of the stock and waste cards left, in draw order, and which of them is the
  // waste's top, decide the game. Of all states that agree on those, keep the one whose cards
  // sit earliest in the draw order (each card as early as its rank allows): an equivalent state,
  // and every move (named by place) means the same in both. True if `s` changed.
  bool canonicalize_stock(State& s) const;

  // The state less its time: removed (28 bits) and stock (24 bits).
  static std::uint64_t key(const State& s) {
    return std::uint64_t{s.removed} | (std::uint64_t{s.stock} << 28);
  }
  // When in the game the state is: pass, then cursor. From a state the game can reach the same
  // removed set and stock at any later time, by drawing (and recycling while passes are left).
  static unsigned time(const State& s) { return (s.pass - 1U) * 32U + s.cursor; }

 private:
  void remove_place(State& s, int place) const;

  Geometry geometry_;
  bool stock_top_playable_;
  int max_passes_;
  int stock_size_;
  std::array<std::uint8_t, kMaxPyramid> pyramid_rank_{};
  std::array<std::uint8_t, kMaxStock> stock_rank_{};
  std::array<std::uint32_t, 14> pyramid_rank_mask_{};
  std::array<std::uint32_t, 14> stock_rank_mask_{};
};

}  // namespace solitaire::pyramid
