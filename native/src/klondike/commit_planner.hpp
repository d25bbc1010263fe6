// The commitment planner: Klondike as a player knows it, decided only where a move cannot be
// taken back, each such move scored over many sampled worlds by capped exact searches, a UCB1
// bandit spending the worlds (after lonelybot's public recipe; the code is this project's own).
//
// Commitments. From the position the player sees, every move that shows no unknown card and
// takes no card out of the talon can be undone or made harmless (column moves, foundation moves,
// draws and recycles), so the set of positions reachable through such moves (the closure) is known
// exactly and costs nothing to move around in. A candidate is a move out of the closure: one that
// turns up a face-down card, draws a stock card never seen, or plays a talon card onto a column or
// a foundation. Its line is the shortest path of closure moves to it, then the move. Candidates
// that leave the same position (the talon's draw cursor aside: the solver's searches move it
// freely) are one.
//
// Worlds. World w deals the unknown cards over the unknown places (hop.hpp's sampler, seeded by
// (seed, w)); every candidate is scored on the same worlds 0, 1, 2, ... (common random numbers).
// In a world a candidate's line is played and the position after it searched by the exact solver
// with at most `cap` states: won only if a win is found within the cap. A cut-off search counts
// as a loss (`cut`, kept apart from proved losses): it favours lines that win without needing the
// unknown cards to fall well, which full-solve values cannot tell apart.
//
// Bandit. Each candidate first gets one batch of worlds; then UCB1 over the share of worlds won
// picks which candidate gets the next batch, until one candidate has `worlds_per_candidate`
// worlds, the worlds budget is spent, the time is up or the search is cancelled. The most sampled
// candidate is chosen (ties: more worlds won, then the first found). With no time limit and no
// cancel, the answer depends only on the arguments, whatever the number of threads: the bandit is
// sequential and the threads share only the worlds of one batch.
#pragma once

#include <cstdint>
#include <vector>

#include "common/cancel_token.hpp"
#include "common/search_status.hpp"
#include "klondike/action.hpp"
#include "klondike/hop.hpp"
#include "klondike/position.hpp"

namespace solitaire::klondike {

// How the worlds are spent over the candidates: UCB1 batch by batch (anytime: for time limits),
// sequential halving over the worlds budget (max_worlds, else worlds_per_candidate for each), or
// a race: every candidate left gets the same worlds, batch by batch, and one is dropped once the
// leader wins significantly more of their common worlds than it does (paired sign test).
enum class CommitSchedule : std::uint8_t { ucb = 0, halving = 1, race = 2 };

// Bound to Python as KlondikeCommitOptions (keywords, these defaults, checked when built).
struct CommitOptions {
  int draw_count = 3;                 // cards a draw turns (>= 1)
  std::uint64_t seed = 0;
  std::uint64_t cap = 1000;           // states each world's search may enter (>= 1)
  // The cap grows by this many states for each unknown card fewer than 21 (0: a fixed cap; >= 0).
  std::uint64_t cap_per_known = 0;
  int worlds_per_candidate = 3000;    // stop once one candidate has this many worlds (>= 1)
  std::int64_t max_worlds = 0;        // 0: none; else stop once this many worlds were searched
  double exploration = 1.0;           // UCB1's constant (finite, >= 0)
  int batch = 10;                     // worlds a candidate gets each time it is picked (>= 1)
  // Stop early once this many worlds were searched and none was won (0: never): the position is
  // then very likely lost and any candidate will do.
  std::int64_t hopeless_worlds = 0;
  double time_limit_s = 0.0;          // <= 0: none (finite)
  int threads = 1;                    // 1..256
  int max_closure = 4096;             // closure positions explored at most (>= 1)
  CommitSchedule schedule = CommitSchedule::ucb;
  // Candidates that turn up the same column (or play the same talon card onto the same card,
  // foundation or empty column) are one, with the shortest line; false: one per position left.
  bool merge = true;
  // The race: a candidate is dropped when (worlds the leader won and it lost) - (the reverse) >
  // race_z * sqrt(their sum) (> 0, finite), or when the two never differed after race_min_worlds (>= 1).
  double race_z = 2.0;
  int race_min_worlds = 40;
  // A world's search stops as won once nothing is face down and the talon holds at most one
  // card (SolveOptions::surely_won_stops): the cap is spent on what is uncertain.
  bool surely_won_stops = false;
  const CancelToken* cancel = nullptr;
};

// Throws std::invalid_argument, naming the option, when one is out of range.
void check_options(const CommitOptions& options);

struct CommitCandidate {
  std::vector<Action> line;  // closure moves, then the commitment (the last move)
  bool reveals = false;      // the commitment shows an unknown card
  int won = 0;               // worlds where a win was found within the cap
  int lost = 0;              // worlds proved lost
  int cut = 0;               // worlds whose search hit the cap (scored as losses)
  int worlds() const { return won + lost + cut; }
};

struct CommitResult {
  std::vector<CommitCandidate> candidates;  // in the order found (shortest lines first)
  int chosen = -1;                          // index of the chosen candidate; -1: none
  std::vector<Action> win_line;             // closure moves that win outright (empty: none found)
  int closure = 0;                          // closure positions explored
  bool closure_complete = true;             // false when max_closure stopped the exploration
  std::int64_t worlds = 0;                  // worlds searched, over all candidates
  std::uint64_t states = 0;                 // states the world searches entered
  std::uint64_t cap = 0;                    // the cap the world searches had
  double seconds = 0.0;
  StopReason stop_reason = StopReason::none;  // time / cancelled when those cut the bandit short
  bool hopeless = false;                      // stopped by hopeless_worlds
};

// `base`, `unknown` as for hop_evaluate: the known cards where they are, the unknown cards in any
// order on the unknown places (only their set is used). Throws std::invalid_argument when an
// option, the position or a slot is invalid.
CommitResult commit_plan(const Position& base, const std::vector<UnknownSlot>& unknown,
                         const CommitOptions& options);

}  // namespace solitaire::klondike
