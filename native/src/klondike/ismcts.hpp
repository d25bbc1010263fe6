// Information-set Monte-Carlo tree search for Klondike as a player knows it (single observer,
// Cowling, Powley and Whitehouse 2012), with the exact solver at the leaves.
//
// Each iteration deals the unknown cards over the unknown places at random (as hop.hpp does) and
// walks one tree whose nodes are what the player knows: a move that turns up an unknown card
// leads to a child per card shown, any other move to one child. Moves are chosen by UCB1 over
// the node's statistics; the walk stops at a new node or at a depth limit, where the sampled
// position is solved under a small state budget (won 1, lost 0, undecided 1/2). Unlike plain
// hindsight optimisation, the moves inside the tree are chosen without knowing the sample, so
// the values near the root are those of a player who learns the cards as they turn up.
#pragma once

#include <cstdint>
#include <vector>

#include "common/cancel_token.hpp"
#include "common/search_status.hpp"
#include "klondike/action.hpp"
#include "klondike/hop.hpp"
#include "klondike/position.hpp"

namespace solitaire::klondike {

// Bound to Python as KlondikeIsmctsOptions (keywords, these defaults, checked when built).
struct IsmctsOptions {
  int draw_count = 3;                      // cards a draw turns (>= 1)
  std::uint64_t seed = 0;
  std::uint64_t states_per_solve = 2000;  // budget of each leaf's solve (>= 1)
  int max_iterations = 400;                // iterations at most (>= 1)
  std::uint64_t max_states = 0;            // 0: none; else stop once the leaves entered this many
  double time_limit_s = 0.0;               // <= 0: none (finite)
  double exploration = 0.5;                // UCB1's constant (finite, >= 0)
  int max_depth = 8;                       // moves from the root at most before a leaf is solved (>= 1)
  const CancelToken* cancel = nullptr;
};

// Throws std::invalid_argument, naming the option, when one is out of range.
void check_options(const IsmctsOptions& options);

struct IsmctsResult {
  std::vector<int> visits;         // per candidate: iterations that began with it
  std::vector<double> value_sum;   // per candidate: the sum of those iterations' leaf values
  int iterations = 0;
  std::uint64_t states = 0;
  int nodes = 0;
  double seconds = 0.0;
  StopReason stop_reason = StopReason::none;  // why the search stopped before max_iterations
};

// `base`, `unknown` and `candidates` as for hop_evaluate (the root's moves are the candidates).
// Single-threaded; with no time limit the result depends only on the arguments. Throws
// std::invalid_argument when an option, the position, a slot or a candidate is invalid.
IsmctsResult ismcts_evaluate(const Position& base, const std::vector<UnknownSlot>& unknown,
                             const std::vector<Action>& candidates, const IsmctsOptions& options);

}  // namespace solitaire::klondike
