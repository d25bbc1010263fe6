// Geometry of a pyramid of 1..7 rows: positions, which cards cover which, availability.
#pragma once

#include <array>
#include <cstdint>

namespace solitaire::pyramid {

inline constexpr int kMaxRows = 7;
inline constexpr int kMaxPyramid = 28;  // cards in a full pyramid
inline constexpr int kMaxStock = 24;    // most stock-and-waste cards a position may hold
inline constexpr int kMaxPasses = 4;    // most passes a game may allow (the rules use 3)

// Positions are numbered from the apex down, each row left to right, as in solitaire_rl.envs.pyramid.layout:
// row r (1-based) holds positions r(r-1)/2 .. r(r+1)/2 - 1, and the card at row r, column c is
// covered by the cards at row r+1, columns c and c+1. The last row is uncovered.
class Geometry {
 public:
  explicit Geometry(int rows);

  int rows() const { return rows_; }
  int size() const { return size_; }
  std::uint32_t all_mask() const { return all_mask_; }
  // Positions directly covering p.
  std::uint32_t cover(int p) const { return cover_[p]; }
  // Positions lying on top of p, directly or further down: all must go before p is available.
  std::uint32_t below(int p) const { return below_[p]; }
  // Positions p lies on top of (p is in their `below`): they are available only after p goes.
  std::uint32_t above(int p) const { return above_[p]; }
  // Positions that can never be usable together with p: those on top of it and those under it.
  std::uint32_t related(int p) const { return below_[p] | above_[p]; }

  bool is_available(std::uint32_t removed, int p) const {
    return !((removed >> p) & 1U) && (removed & cover_[p]) == cover_[p];
  }
  // Mask of the available positions (present, with both covering cards removed).
  std::uint32_t available(std::uint32_t removed) const {
    // Row by row: a present card is available unless a card of the next row covers it.
    const std::uint32_t present = ~removed & all_mask_;
    std::uint32_t result = 0;
    std::uint32_t next_row = 0;  // present cards of row r + 1, aligned to bit 0
    for (int r = rows_; r >= 1; --r) {
      const int start = r * (r - 1) / 2;
      const std::uint32_t row = (present >> start) & ((1U << r) - 1);
      result |= (row & ~(next_row | (next_row >> 1))) << start;
      next_row = row;
    }
    return result;
  }
  // Whether a set of removed positions can arise in play: no card removed while covered.
  bool is_reachable_removed_set(std::uint32_t removed) const;

 private:
  int rows_;
  int size_;
  std::uint32_t all_mask_;
  std::array<std::uint32_t, kMaxPyramid> cover_{};
  std::array<std::uint32_t, kMaxPyramid> below_{};
  std::array<std::uint32_t, kMaxPyramid> above_{};
};

}  // namespace solitaire::pyramid
