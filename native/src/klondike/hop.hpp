// Hindsight optimisation for Klondike as a player knows it: the values of the candidate moves
// averaged over samples of the unknown cards, each sample solved by the exact solver.
//
// The player knows every face-up card, the waste, the foundations and the stock cards already
// seen (in their places); the face-down cards and the never-seen stock cards are one set of
// unknowns. A sample deals that set over the unknown places at random; in it, each candidate is
// played and the position after it solved under a small state budget: won, lost, or unknown
// (budget spent, never counted as a loss). Work is shared between the candidates of a sample:
// the position before the move is solved first; if it is lost every candidate is lost, and if it
// is won the first move of the winning line is a won candidate without a search of its own.
#pragma once

#include <cstdint>
#include <vector>

#include "common/sample_loop.hpp"
#include "klondike/action.hpp"
#include "klondike/position.hpp"

namespace solitaire::klondike {

// A place whose card the player has not seen: face-down card `index` of column `column` (from
// the bottom), or, with column == -1, stock card `index` (from the bottom, as Position lists it).
struct UnknownSlot {
  int column = -1;
  int index = 0;
};

// Bound to Python as KlondikeHopOptions (keywords, these defaults, checked when built).
struct HopOptions {
  int draw_count = 3;                      // cards a draw turns (>= 1)
  std::uint64_t seed = 0;
  std::uint64_t states_per_solve = 2000;  // budget of each solve (>= 1)
  SampleBudget budget;                     // max_samples, max_states, time_limit_s, threads, cancel
};

// Throws std::invalid_argument, naming the option, when one is out of range.
void check_options(const HopOptions& options);

// The tally, and for each kept sample the winning line its root solve found (empty when the root
// was not won within the budget): the line a player can follow until it turns up an unknown card.
struct HopResult {
  SampleTally tally;
  std::vector<std::vector<Action>> lines;
};

// The checked input of a planner (hop, ismcts): the candidates (draws with their card count) and
// the cards on the unknown places. Throws std::invalid_argument, naming `who`, when the position,
// a slot or a candidate is invalid (`draw_count`, from options already checked, is >= 1).
struct PlannerInput {
  std::vector<Action> moves;
  std::vector<Card> cards;
};
PlannerInput check_planner_input(const Position& base, const std::vector<UnknownSlot>& unknown,
                                 const std::vector<Action>& candidates, int draw_count, const char* who);

// `deal` with `cards`, shuffled by `rng`, on the `unknown` places.
void deal_sample(Position& deal, const std::vector<UnknownSlot>& unknown, std::vector<Card> cards,
                 SplitMix64& rng);

// The same move: a draw is named by its kind alone (the cards it turns depend on the sample).
bool same_move(const Action& a, const Action& b);

// `base` holds the known cards where they are and the unknown cards, in any order, on the
// unknown places; only the set of cards on those places is used, never their order. Every
// candidate must be legal in `base` (its legality depends on known cards only). Throws
// std::invalid_argument when an option, the position, a slot or a candidate is invalid.
HopResult hop_evaluate(const Position& base, const std::vector<UnknownSlot>& unknown,
                       const std::vector<Action>& candidates, const HopOptions& options);

}  // namespace solitaire::klondike
