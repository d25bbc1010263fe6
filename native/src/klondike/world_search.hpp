// One sampled world's capped search: the unknown cards dealt over the unknown places (hop.hpp's
// sampler), a line played, and the position after it searched by the exact solver with at most
// `cap` states. What the commitment planner scores a candidate with in each world
// (commit_planner.hpp) and what the world scores count (world_score.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "common/cancel_token.hpp"
#include "common/random_deal.hpp"
#include "klondike/action.hpp"
#include "klondike/cards.hpp"
#include "klondike/hop.hpp"
#include "klondike/position.hpp"

namespace solitaire::klondike {

// won: a win was found within the cap (or the line itself wins); lost: the search proved the world
// lost; cut: the search hit the cap (the planner scores it as a loss); skipped: cancelled.
enum class WorldOutcome : std::int8_t { won, lost, cut, skipped };

struct CappedSearch {
  int draw_count = 3;
  std::uint64_t cap = 1000;            // states the search may enter (>= 1)
  bool surely_won_stops = false;       // SolveOptions::surely_won_stops
  const CancelToken* cancel = nullptr;
};

struct WorldSearch {
  WorldOutcome outcome = WorldOutcome::skipped;
  std::uint64_t states = 0;  // states the search entered (also when it was cancelled)
};

// The world `rng` deals: `base` with `cards` shuffled by `rng` on the `unknown` places; `line`
// (legal there: it moves known cards only, or turns up its last card) played, then searched.
// Inputs are those check_planner_input accepted.
WorldSearch search_world(const Position& base, const std::vector<UnknownSlot>& unknown,
                         const std::vector<Card>& cards, SplitMix64 rng, const std::vector<Action>& line,
                         const CappedSearch& search);

}  // namespace solitaire::klondike
