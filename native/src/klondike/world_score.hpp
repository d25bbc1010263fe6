// World scores: for each position of a batch, as a player knows it, in how many of K sampled
// worlds a capped exact search finds a win. A dense value target per position (issue 53): the
// share of worlds won is what the commitment planner (commit_planner.hpp) scores a candidate by.
//
// Worlds. World w of a position deals its unknown cards over its unknown places (hop.hpp's
// sampler) with the generator sample_rng(position seed, w); the position seed mixes `seed` with a
// hash of what the player knows there (the known cards in their places, which places are
// unknown), and the unknown cards are taken in card order. So a position's counts depend only on
// the options and on what the player knows: not on the batch it is in, its place in the batch,
// the number of threads, or where the hidden cards really are. A position with at most one unknown
// card has one world: it is searched once and counted K times.
//
// Search. The world's position is searched by the exact solver with at most `cap` states
// (world_search.hpp, as the planner's worlds are): won only if a win is found within the cap,
// lost when proved lost, cut when the cap was hit. Threads share the (position, world) pairs of
// the whole batch; with no time limit the counts are exact and the same for any thread count.
#pragma once

#include <cstdint>
#include <vector>

#include "klondike/hop.hpp"
#include "klondike/position.hpp"

namespace solitaire::klondike {

// Bound to Python as KlondikeWorldScoreOptions (keywords, these defaults, checked when built).
struct WorldScoreOptions {
  int draw_count = 3;            // cards a draw turns (>= 1)
  std::uint64_t seed = 0;
  int worlds = 200;              // K: worlds sampled at each position (1..1048576)
  std::uint64_t cap = 600;       // states each world's search may enter (>= 1)
  // A world's search stops as won once nothing is face down and the talon holds at most one card
  // (SolveOptions::surely_won_stops): the cap is spent on what is uncertain.
  bool surely_won_stops = true;
  int threads = 1;               // 1..256
};

// Throws std::invalid_argument, naming the option, when one is out of range.
void check_options(const WorldScoreOptions& options);

// A position as a player knows it: `base` holds the known cards where they are and the unknown
// cards, in any order, on the `unknown` places (as commit_plan and hop_evaluate take them).
struct KnownPosition {
  Position base;
  std::vector<UnknownSlot> unknown;
};

// Per position, in the batch's order: worlds won, proved lost and cut (won + lost + cut = K), and
// the states the searches entered (a position with one world counts its one search's states).
struct WorldScores {
  std::vector<std::int32_t> won, lost, cut;
  std::vector<std::uint64_t> states;
  std::vector<std::uint64_t> seeds;  // each position's seed (sample_rng(seeds[i], w) deals world w)
  std::int64_t searches = 0;         // capped searches run over the batch
  double seconds = 0.0;
};

// The seed of a position's worlds: `seed` mixed with a hash of what the player knows of it.
std::uint64_t position_seed(const Position& base, const std::vector<UnknownSlot>& unknown, std::uint64_t seed);

// Throws std::invalid_argument when an option is out of range, or naming the position (its index
// in the batch) when a position or a slot is invalid; nothing is searched then.
WorldScores world_scores(const std::vector<KnownPosition>& positions, const WorldScoreOptions& options);

}  // namespace solitaire::klondike
