#include "pyramid/pimc.hpp"

#include <algorithm>
#include <stdexcept>

#include "common/planner_options.hpp"
#include "pyramid/queries.hpp"
#include "pyramid/solver.hpp"

namespace solitaire::pyramid {

Position after_move(const Position& position, Move move) {
  Position p = position;
  switch (move.kind) {
    case MoveKind::draw:
      ++p.waste_count;
      break;
    case MoveKind::recycle:
      p.waste_count = 0;
      ++p.pass_number;
      break;
    case MoveKind::remove: {
      bool stock_top = false;
      bool waste_top = false;
      for (int place : {static_cast<int>(move.a), static_cast<int>(move.b)}) {
        if (place < 0) continue;
        if (place == kStockPlace) {
          stock_top = true;
        } else if (place == kWastePlace) {
          waste_top = true;
        } else {
          p.removed |= std::uint32_t{1} << place;
        }
      }
      if (stock_top) p.stock.erase(p.stock.begin() + p.waste_count);  // before the waste top
      if (waste_top) {
        p.stock.erase(p.stock.begin() + (p.waste_count - 1));
        --p.waste_count;
      }
      break;
    }
  }
  return p;
}

namespace {

bool all_removed(const Position& p) {
  const int size = p.rows * (p.rows + 1) / 2;
  return p.removed == (size >= 32 ? ~std::uint32_t{0} : (std::uint32_t{1} << size) - 1);
}

}  // namespace

void check_options(const PimcOptions& options) {
  check_states_per_solve(options.states_per_solve, "pimc");
  check_sample_budget(options.budget, "pimc");
}

SampleTally pimc_evaluate(const Position& base, const std::vector<int>& unknown,
                          const std::vector<Move>& candidates, const PimcOptions& options) {
  check_options(options);
  validate(base);
  std::vector<bool> used(base.stock.size(), false);
  for (int i : unknown) {
    if (i < 0 || i >= static_cast<int>(base.stock.size())) throw std::invalid_argument("pimc: an unknown index is outside the stock");
    if (used[static_cast<std::size_t>(i)]) throw std::invalid_argument("pimc: an unknown index is listed twice");
    used[static_cast<std::size_t>(i)] = true;
  }
  const std::vector<Move> legal = legal_moves(base);
  for (const Move& move : candidates) {
    if (std::find(legal.begin(), legal.end(), move) == legal.end()) {
      throw std::invalid_argument("pimc: a candidate is not a legal move");
    }
  }
  std::vector<int> ranks;
  for (int i : unknown) ranks.push_back(base.stock[static_cast<std::size_t>(i)]);
  // In a fixed order before shuffling: the order the unseen cards lie in must not steer the samples.
  std::sort(ranks.begin(), ranks.end());
  const int n = static_cast<int>(candidates.size());

  auto evaluate = [&](int sample, std::vector<SampleOutcome>& out, const auto& stop) -> std::int64_t {
    Position deal = base;
    std::vector<int> shuffled = ranks;
    SplitMix64 rng = sample_rng(options.seed, sample);
    shuffle(rng, shuffled);
    for (std::size_t k = 0; k < unknown.size(); ++k) deal.stock[static_cast<std::size_t>(unknown[k])] = shuffled[k];
    Limits limits;
    limits.max_states = options.states_per_solve;
    return solve_candidates(
        deal, n, [&](const Position& p) { return solve(p, limits, options.budget.cancel); },
        [&](const Move& first, int c) { return first == candidates[static_cast<std::size_t>(c)]; },
        [&](int c, bool& won) {
          Position next = after_move(deal, candidates[static_cast<std::size_t>(c)]);
          won = all_removed(next);
          return next;
        },
        stop, out);
  };
  return run_samples(n, options.budget, evaluate);
}

}  // namespace solitaire::pyramid
