// Perfect-information Monte Carlo for Pyramid as the player knows it: the values of the candidate
// moves averaged over samples of the unseen stock cards, each sample solved by the exact solver.
//
// The player knows the pyramid and every stock card it has seen, in its place; the stock cards
// never seen are known only as a set. A sample deals that set over the unseen places at random;
// in it each candidate is played and the position after it solved under a small state budget.
// As in klondike/hop.hpp, the position before the move is solved first: lost means every
// candidate is lost, won makes the first move of its line a won candidate (a vote for it).
#pragma once

#include <cstdint>
#include <vector>

#include "common/sample_loop.hpp"
#include "pyramid/move.hpp"
#include "pyramid/position.hpp"

namespace solitaire::pyramid {

// Bound to Python as PyramidPimcOptions (keywords, these defaults, checked when built).
struct PimcOptions {
  std::uint64_t seed = 0;
  std::uint64_t states_per_solve = 20000;  // budget of each solve (>= 1)
  SampleBudget budget;                      // max_samples, max_states, time_limit_s, threads, cancel
};

// Throws std::invalid_argument, naming the option, when one is out of range.
void check_options(const PimcOptions& options);

// The position after `move`, which must be legal in `position`.
Position after_move(const Position& position, Move move);

// `unknown` lists indices into `base.stock` (draw order) of the cards never seen; only the set
// of ranks there is used, never their order. Every candidate must be legal in `base`. Throws
// std::invalid_argument when an option, the position, an index or a candidate is invalid.
SampleTally pimc_evaluate(const Position& base, const std::vector<int>& unknown,
                          const std::vector<Move>& candidates, const PimcOptions& options);

}  // namespace solitaire::pyramid
