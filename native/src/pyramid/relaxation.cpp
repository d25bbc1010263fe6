#include "pyramid/relaxation.hpp"

#include <algorithm>

#include "common/bits.hpp"
#include "pyramid/pruning.hpp"

namespace solitaire::pyramid {

Relaxation::Relaxation(const Board& board, std::size_t max_bytes, Budget* budget)
    : board_(board), budget_(budget), memo_(max_bytes) {}

Relaxation::Answer Relaxation::clearable(const State& s) {
  int counts[14] = {};
  stock_counts(board_, s, counts);
  return search(s.removed, counts);
}

// Forced moves of the relaxed game, each safe by the argument in solver.hpp: Kings; a card
// with no possible pyramid partner takes a bag card of its partner rank (it must, and which
// one does not matter); a card whose one possible partner is an available pyramid card, with
// no bag card of that rank, pairs with it. Then the position is pruned by counting, looked up,
// or searched.
Relaxation::Answer Relaxation::search(std::uint32_t removed, int* counts) {
  const Geometry& geometry = board_.geometry();
  std::uint32_t available;
  for (bool changed = true; changed;) {
    changed = false;
    if (removed == geometry.all_mask()) return Answer::clearable;
    available = geometry.available(removed);
    const std::uint32_t kings = available & board_.pyramid_rank_mask(13);
    if (kings != 0) {
      removed |= kings;
      changed = true;
      continue;
    }
    const std::uint32_t present = ~removed & geometry.all_mask();
    for (std::uint32_t rest = available; rest != 0; rest &= rest - 1) {
      const int p = lowest_bit(rest);
      const int need = 13 - board_.pyramid_rank(p);
      const std::uint32_t possible =
          board_.pyramid_rank_mask(need) & present & ~geometry.related(p);
      if (possible == 0) {
        if (counts[need] == 0) return Answer::not_clearable;
        --counts[need];
        removed |= 1U << p;
        changed = true;
        break;
      }
      if (counts[need] == 0 && (possible & (possible - 1)) == 0 && (possible & available) != 0) {
        removed |= (1U << p) | possible;
        changed = true;
        break;
      }
    }
  }
  if (budget_ != nullptr && budget_->charge()) return Answer::stopped;
  if (counting_rule(board_, removed, counts) != PruneRule::none) return Answer::not_clearable;

  // Bag cards beyond what the pyramid could still use make no difference: cap them.
  const std::uint32_t present = ~removed & geometry.all_mask();
  std::uint64_t key = removed;
  for (int r = 1; r <= 12; ++r) {
    counts[r] = std::min(counts[r], popcount(board_.pyramid_rank_mask(13 - r) & present));
    key |= static_cast<std::uint64_t>(counts[r]) << (28 + 3 * (r - 1));
  }
  const std::int32_t known = memo_.find(key);
  if (known >= 0) return known == 1 ? Answer::clearable : Answer::not_clearable;

  for (std::uint32_t rest = available; rest != 0; rest &= rest - 1) {
    const int p = lowest_bit(rest);
    const int need = 13 - board_.pyramid_rank(p);
    const std::uint32_t later = available & ~low_mask(p + 1);
    for (std::uint32_t q = later & board_.pyramid_rank_mask(need); q != 0; q &= q - 1) {
      int child[14];
      std::copy(counts, counts + 14, child);
      const Answer answer = search(removed | (1U << p) | (1U << lowest_bit(q)), child);
      if (answer == Answer::stopped) return answer;
      if (answer == Answer::clearable) {
        memo_.store(key, 1);
        return answer;
      }
    }
    if (counts[need] > 0) {
      int child[14];
      std::copy(counts, counts + 14, child);
      --child[need];
      const Answer answer = search(removed | (1U << p), child);
      if (answer == Answer::stopped) return answer;
      if (answer == Answer::clearable) {
        memo_.store(key, 1);
        return answer;
      }
    }
  }
  memo_.store(key, 0);
  return Answer::not_clearable;
}

}  // namespace solitaire::pyramid
