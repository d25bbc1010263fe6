#include "pyramid/pruning.hpp"

#include "common/bits.hpp"

namespace solitaire::pyramid {

namespace {

// Whether the pyramid cards `cards` (all of one rank) can each be given a different partner,
// the partners being the pyramid cards `partners` they are not related to and `spare` cards
// from the stock and waste. Hall's condition, checked over every subset (at most 4 cards).
bool can_match(const Geometry& geometry, std::uint32_t cards, std::uint32_t partners, int spare) {
  std::uint32_t possible[4];
  int n = 0;
  for (std::uint32_t rest = cards; rest != 0 && n < 4; rest &= rest - 1) {
    possible[n++] = partners & ~geometry.related(lowest_bit(rest));
  }
  for (unsigned subset = 3; subset < (1U << n); ++subset) {  // singletons are checked already
    std::uint32_t union_of = 0;
    for (int i = 0; i < n; ++i) {
      if ((subset >> i) & 1U) union_of |= possible[i];
    }
    if (popcount(union_of) + spare < popcount(subset)) return false;
  }
  return true;
}

}  // namespace

void stock_counts(const Board& board, const State& s, int* counts) {
  for (int r = 1; r <= 12; ++r) counts[r] = popcount(board.stock_rank_mask(r) & s.stock);
}

PruneRule counting_rule(const Board& board, std::uint32_t removed, const int* counts) {
  const Geometry& geometry = board.geometry();
  const std::uint32_t present = ~removed & geometry.all_mask();
  std::uint32_t in_pyramid[14];
  for (int r = 1; r <= 12; ++r) in_pyramid[r] = board.pyramid_rank_mask(r) & present;
  for (int r = 1; r <= 12; ++r) {
    if (popcount(in_pyramid[r]) > popcount(in_pyramid[13 - r]) + counts[13 - r]) {
      return PruneRule::rank_count;
    }
  }
  for (std::uint32_t rest = present & ~board.pyramid_rank_mask(13); rest != 0; rest &= rest - 1) {
    const int p = lowest_bit(rest);
    const int partner = 13 - board.pyramid_rank(p);
    if (counts[partner] == 0 && (in_pyramid[partner] & ~geometry.related(p)) == 0) {
      return PruneRule::buried_partner;
    }
  }
  for (int r = 1; r <= 12; ++r) {
    if (!can_match(geometry, in_pyramid[r], in_pyramid[13 - r], counts[13 - r])) {
      return PruneRule::partner_matching;
    }
  }
  return PruneRule::none;
}

}  // namespace solitaire::pyramid
