#include "pyramid/policy_inputs.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "common/bits.hpp"
#include "pyramid/board.hpp"
#include "pyramid/env.hpp"
#include "pyramid/pruning.hpp"
#include "pyramid/relaxation.hpp"

namespace solitaire::pyramid::inputs {
namespace {

static_assert(kObservationSize == env::kObservationSize && kNumActions == env::kNumActions);

constexpr int kPyramid = 28;
constexpr int kStockSlots = 24;
constexpr int kKing = 13;
constexpr int kMaxPassesPlayed = env::kMaxPassesPlayed;  // solitaire_rl.envs.pyramid.game.MAX_PASSES
constexpr int kStock0 = kPyramid * env::kPyramidFeatures;           // observation: the stock rows
constexpr int kGlobals0 = kStock0 + kStockSlots * env::kStockFeatures;  // and the globals
constexpr int kOnTable = 13, kAvailable = 14;                         // PYRAMID_FEATURES after the ranks
constexpr int kSeen = 13, kInStock = 14, kInWaste = 15, kGone = 16, kStockTop = 17, kWasteTop = 18;
constexpr int kStockTopUsable = 6;                                    // GLOBAL_FEATURES

// pyramid_actions's slot: 0 is the action, then RELAXED_FEATURES in order.
enum Feature : int {
  fKing = 1, fDraw, fRecycle, fPyramidCards, fOtherCards, fUncovered, fUsesWaste, fUsesStock, fPartnersShort,
  fPartnersFreed, fGreedyScore, fLowRank, fLeftOfRank, fLeftOfPartnerRank, fDeepestRow, fHighestRow,
  fGreedyChoice, fRelaxedLost,
};
static_assert(fGreedyChoice == kActionFeatures && fRelaxedLost == kRelaxedSlotWidth - 1);

// solitaire_rl.agents.greedy.pyramid's scores.
constexpr double kKingScore = 100.0, kPyramidCardScore = 10.0, kOtherCardScore = 1.0, kUncoverScore = 4.0,
                 kWasteScore = 1.0, kShortPartnerScore = -50.0, kDrawScore = 0.0, kRecycleScore = -1.0;

float value(double v) { return static_cast<float>(v); }  // as NumPy stores a Python float in float32

const Geometry& geometry() {
  static const Geometry g(7);
  return g;
}

bool is_flag(float v) { return v == 0.0F || v == 1.0F; }

// The rank of a one-hot rank block (13 values): 1..13, 0 if all zero, -1 if not one-hot.
int one_hot_rank(const float* row) {
  int rank = 0;
  for (int i = 0; i < 13; ++i) {
    if (row[i] == 1.0F) {
      if (rank != 0) return -1;
      rank = i + 1;
    } else if (row[i] != 0.0F) {
      return -1;
    }
  }
  return rank;
}

// The row (1..7) of a pyramid position: solitaire_rl.envs.pyramid.layout.ROW_COL[p][0].
int row_of(int p) {
  int row = 1;
  while (row * (row + 1) / 2 <= p) ++row;
  return row;
}

// What a player knows, decoded as solitaire_rl.agents.greedy.pyramid.PyramidView decodes it.
struct View {
  std::array<int, kPyramid> ranks{};
  std::uint32_t removed = 0;
  int stock_top = 0;  // rank of the usable stock top (top_ranks[STOCK]), 0 if none
  int waste_top = 0;  // rank of the waste top (top_ranks[WASTE]), 0 if none
  std::array<int, 14> left{};  // cards of each rank 1..13 not yet removed
  int in_stock = 0;
  int in_waste = 0;
  int pass = 1;

  // False for a vector no environment writes (module header): then nothing below may be read.
  bool decode(const float* obs) {
    const Geometry& g = geometry();
    std::array<int, 14> cards{};  // pyramid cards and seen stock cards of each rank
    left.fill(4);
    left[0] = 0;
    for (int p = 0; p < kPyramid; ++p) {
      const float* row = obs + p * env::kPyramidFeatures;
      const int rank = one_hot_rank(row);
      if (rank <= 0 || !is_flag(row[kOnTable]) || !is_flag(row[kAvailable])) return false;
      ranks[p] = rank;
      ++cards[rank];
      if (row[kOnTable] == 0.0F) {
        removed |= 1U << p;
        --left[rank];
      }
    }
    if (!g.is_reachable_removed_set(removed)) return false;
    const std::uint32_t available = g.available(removed);
    for (int p = 0; p < kPyramid; ++p) {
      if ((obs[p * env::kPyramidFeatures + kAvailable] == 1.0F) != (((available >> p) & 1U) != 0)) return false;
    }
    const bool usable = obs[kGlobals0 + kStockTopUsable] == 1.0F;
    if (!is_flag(obs[kGlobals0 + kStockTopUsable])) return false;
    int stock_tops = 0, waste_tops = 0;
    for (int s = 0; s < kStockSlots; ++s) {
      const float* row = obs + kStock0 + s * env::kStockFeatures;
      const int rank = one_hot_rank(row);
      if (rank < 0) return false;
      for (int f = kSeen; f <= kWasteTop; ++f) {
        if (!is_flag(row[f])) return false;
      }
      const bool seen = row[kSeen] == 1.0F;
      if (seen != (rank > 0) || row[kInStock] + row[kInWaste] + row[kGone] != 1.0F) return false;
      if ((row[kStockTop] == 1.0F && row[kInStock] != 1.0F) || (row[kWasteTop] == 1.0F && row[kInWaste] != 1.0F)) {
        return false;
      }
      in_stock += row[kInStock] == 1.0F;
      in_waste += row[kInWaste] == 1.0F;
      stock_tops += row[kStockTop] == 1.0F;
      waste_tops += row[kWasteTop] == 1.0F;
      if (!seen) continue;
      ++cards[rank];
      if (row[kGone] == 1.0F) --left[rank];
      if (row[kStockTop] == 1.0F && usable) stock_top = rank;
      if (row[kWasteTop] == 1.0F) waste_top = rank;
    }
    if (stock_tops > 1 || waste_tops > 1) return false;
    for (int r = 1; r <= 13; ++r) {
      if (cards[r] > 4) return false;  // so every count below stays in 0..4
    }
    int passes = 0;
    for (int i = 0; i < kMaxPassesPlayed; ++i) {
      const float v = obs[kGlobals0 + i];
      if (!is_flag(v)) return false;
      if (v == 1.0F) {
        ++passes;
        pass = i + 1;
      }
    }
    return passes == 1;
  }

  // The rank at a place that holds a usable card, 0 if it holds none.
  int rank_at(int place) const {
    if (place == env::kStockPlace) return stock_top;
    if (place == env::kWastePlace) return waste_top;
    return geometry().is_available(removed, place) ? ranks[place] : 0;
  }
};

// The most disjoint pairs of a `low` and a `high` position (bitmasks) where neither lies on the
// other: _max_matching (any maximum matching has its size).
bool augment(int p, const std::array<std::uint32_t, kPyramid>& partners, std::uint32_t& visited,
             std::array<int, kPyramid>& match) {
  for (std::uint32_t rest = partners[p] & ~visited; rest != 0; rest &= rest - 1) {
    const int q = lowest_bit(rest);
    visited |= 1U << q;
    if (match[q] < 0 || augment(match[q], partners, visited, match)) {
      match[q] = p;
      return true;
    }
  }
  return false;
}

int max_matching(std::uint32_t low, std::uint32_t high) {
  const Geometry& g = geometry();
  std::array<std::uint32_t, kPyramid> partners{};
  std::array<int, kPyramid> match;
  match.fill(-1);
  int pairs = 0;
  for (std::uint32_t rest = low; rest != 0; rest &= rest - 1) {
    const int p = lowest_bit(rest);
    partners[p] = high & ~g.related(p);
    std::uint32_t visited = 0;
    pairs += augment(p, partners, visited, match) ? 1 : 0;
  }
  return pairs;
}

// pair_short: the cards of ranks r and 13 - r (r in 1..6) left without a possible partner.
int pair_short(const View& v, std::uint32_t removed, const std::array<int, 14>& left, int r) {
  std::uint32_t low = 0, high = 0;
  for (int p = 0; p < kPyramid; ++p) {
    if ((removed >> p) & 1U) continue;
    if (v.ranks[p] == r) low |= 1U << p;
    if (v.ranks[p] == 13 - r) high |= 1U << p;
  }
  if (low == 0 && high == 0) return 0;
  const int pairs = (low != 0 && high != 0) ? max_matching(low, high) : 0;
  const int nlow = popcount(low), nhigh = popcount(high);
  const int stock_low = left[r] - nlow, stock_high = left[13 - r] - nhigh;
  return std::max(0, nlow - pairs - stock_high) + std::max(0, nhigh - pairs - stock_low);
}

// The relaxation of solitaire_rl.agents.solver.pyramid_relaxed_lost for the positions of one row: one Board of
// the pyramid (its removed cards as now) with the stock and waste cards as a bag in rank order,
// and one Relaxation whose memo every question of the row shares (its answers depend only on the
// pyramid's ranks, the removed set and the bag, so sharing changes none).
class Relaxed {
 public:
  explicit Relaxed(const View& v) : board_(position(v), nullptr), relaxation_(board_, std::size_t{1} << 20, nullptr) {
    all_ = low_mask(board_.stock_size());
  }

  // prune_rule(position) != none, for the pyramid less `removed` and the bag `stock` (bits).
  bool lost(std::uint32_t removed, std::uint32_t stock) {
    State s;
    s.removed = removed;
    s.stock = stock;
    int counts[14] = {};
    stock_counts(board_, s, counts);
    if (counting_rule(board_, removed, counts) != PruneRule::none) return true;
    return relaxation_.clearable(s) == Relaxation::Answer::not_clearable;
  }

  bool lost_now(const View& v) { return lost(v.removed, all_); }

  // relaxed_lost_after of a removal of the cards at `places` (pyramid positions or tops).
  bool lost_after(const View& v, const int* places, int n) {
    std::uint32_t removed = v.removed, stock = all_;
    for (int i = 0; i < n; ++i) {
      if (places[i] < kPyramid) {
        removed |= 1U << places[i];
      } else {  // one card of its rank leaves the bag
        const std::uint32_t of_rank = board_.stock_rank_mask(v.rank_at(places[i])) & stock;
        if (of_rank != 0) stock &= ~(1U << lowest_bit(of_rank));
      }
    }
    if (removed == geometry().all_mask()) return false;  // won
    return lost(removed, stock);
  }

 private:
  static Position position(const View& v) {
    Position p;
    p.rows = 7;
    p.pyramid.assign(v.ranks.begin(), v.ranks.end());
    p.removed = v.removed;
    for (int r = 1; r <= 13; ++r) {  // _bag: the cards left less those in the pyramid
      int bag = v.left[r];
      for (int q = 0; q < kPyramid; ++q) bag -= (v.ranks[q] == r && !((v.removed >> q) & 1U)) ? 1 : 0;
      p.stock.insert(p.stock.end(), static_cast<std::size_t>(std::max(bag, 0)), r);
    }
    p.waste_count = 0;
    p.pass_number = 1;
    p.max_passes = kMaxPassesPlayed;
    p.stock_top_playable = true;
    return p;
  }

  Board board_;
  Relaxation relaxation_;
  std::uint32_t all_ = 0;
};

double squash(double score) { return 0.5 + 0.5 * std::tanh(score / 30.0); }

// action_slot: writes the slot of a legal action into `slot` (zeros) and its greedy score;
// false if the view cannot play it. `places` gets the places it removes (n of them).
bool action_slot(const View& v, int action, float* slot, double& score, int* places, int& n) {
  slot[0] = value((action + 1) / static_cast<double>(kNumActions));
  n = 0;
  if (action == env::kDrawAction) {
    if (v.in_stock == 0) return false;
    slot[fDraw] = 1.0F;
    score = kDrawScore;
    slot[fGreedyScore] = value(squash(score));
    return true;
  }
  if (action == env::kRecycleAction) {
    if (v.in_stock != 0 || v.in_waste == 0 || v.pass >= kMaxPassesPlayed) return false;
    slot[fRecycle] = 1.0F;
    score = kRecycleScore;
    slot[fGreedyScore] = value(squash(score));
    return true;
  }
  const env::ActionPlaces ap = env::action_places(action);
  places[n++] = ap.a;
  if (ap.b >= 0) places[n++] = ap.b;
  int ranks[2] = {};
  std::array<int, 14> left_after = v.left;
  std::uint32_t removed_after = v.removed;
  int pyramid_cards = 0, deepest = 0, highest = 8;
  bool uses_waste = false, uses_stock = false;
  for (int i = 0; i < n; ++i) {
    ranks[i] = v.rank_at(places[i]);
    if (ranks[i] == 0) return false;
    --left_after[ranks[i]];
    if (places[i] < kPyramid) {
      removed_after |= 1U << places[i];
      ++pyramid_cards;
      deepest = std::max(deepest, row_of(places[i]));
      highest = std::min(highest, row_of(places[i]));
    }
    uses_waste = uses_waste || places[i] == env::kWastePlace;
    uses_stock = uses_stock || places[i] == env::kStockPlace;
  }
  if (n == 1 ? ranks[0] != kKing : ranks[0] + ranks[1] != 13) return false;
  const bool king = n == 1;
  int short_ = 0;
  if (!king) {  // a pair's ranks r and 13 - r: the one rank pair whose count it can change
    const int r = std::min(ranks[0], 13 - ranks[0]);
    short_ = pair_short(v, removed_after, left_after, r) - pair_short(v, v.removed, v.left, r);
  }
  int uncovered = 0;
  if (pyramid_cards > 0) {
    const Geometry& g = geometry();
    uncovered = popcount(g.available(removed_after) & ~g.available(v.removed));
  }
  const int other_cards = n - pyramid_cards;
  if (king) {
    score = kKingScore + kUncoverScore * uncovered;
  } else {
    score = kPyramidCardScore * pyramid_cards + kOtherCardScore * other_cards + kUncoverScore * uncovered +
            (uses_waste ? kWasteScore : 0.0) + kShortPartnerScore * std::max(0, short_);
  }
  slot[fGreedyScore] = value(squash(score));
  const int low = std::min(ranks[0], n == 2 ? ranks[1] : ranks[0]);
  slot[fKing] = king ? 1.0F : 0.0F;
  slot[fPyramidCards] = value(pyramid_cards / 2.0);
  slot[fOtherCards] = value(other_cards / 2.0);
  slot[fUncovered] = value(std::min(uncovered, 3) / 3.0);
  slot[fUsesWaste] = uses_waste ? 1.0F : 0.0F;
  slot[fUsesStock] = uses_stock ? 1.0F : 0.0F;
  slot[fPartnersShort] = value(std::min(std::max(short_, 0), 4) / 4.0);
  slot[fPartnersFreed] = value(std::min(std::max(-short_, 0), 4) / 4.0);
  slot[fLowRank] = value(low / 13.0);
  slot[fLeftOfRank] = value(left_after[low] / 4.0);
  slot[fLeftOfPartnerRank] = king ? 0.0F : value(left_after[13 - low] / 4.0);
  if (pyramid_cards > 0) {
    slot[fDeepestRow] = value(deepest / 7.0);
    slot[fHighestRow] = value(highest / 7.0);
  }
  return true;
}

}  // namespace

InputError actions(const float* obs, const std::int8_t* mask, bool relaxed, float* out) {
  View v;
  if (!v.decode(obs)) return InputError::bad_observation;
  std::array<int, kSlots> legal{};
  int n = 0;
  for (int a = 0; a < kNumActions; ++a) {
    if (mask[a] == 0) continue;
    if (n == kSlots) return InputError::too_many_actions;  // cannot happen (pyramid_actions.py)
    legal[n++] = a;
  }
  const int width = relaxed ? kRelaxedSlotWidth : kSlotWidth;
  std::copy(obs, obs + kObservationSize, out);
  float* slots = out + kObservationSize;
  std::fill(slots, slots + kSlots * width, 0.0F);
  if (n == 0) return InputError::none;
  std::array<std::array<int, 2>, kSlots> places{};
  std::array<int, kSlots> counts{};
  int choice = -1;
  double best = 0.0;
  for (int j = 0; j < n; ++j) {
    double score = 0.0;
    if (!action_slot(v, legal[j], slots + j * width, score, places[j].data(), counts[j])) return InputError::bad_mask;
    if (choice < 0 || score > best) choice = j, best = score;  // ties to the lowest index, as greedy
  }
  slots[choice * width + fGreedyChoice] = 1.0F;
  if (!relaxed) return InputError::none;
  try {
    Relaxed relaxation(v);
    const bool lost_now = relaxation.lost_now(v);
    for (int j = 0; j < n; ++j) {
      const bool lost = counts[j] == 0 ? lost_now : relaxation.lost_after(v, places[j].data(), counts[j]);
      slots[j * width + fRelaxedLost] = lost ? 1.0F : 0.0F;
    }
  } catch (const std::invalid_argument&) {  // Board's own check; decode() leaves nothing it refuses
    return InputError::bad_observation;
  }
  return InputError::none;
}

}  // namespace solitaire::pyramid::inputs
