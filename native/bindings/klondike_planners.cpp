// The Klondike planners over the unknown cards: hindsight optimisation (native/src/klondike/hop.hpp),
// information-set MCTS (native/src/klondike/ismcts.hpp), the commitment planner
// (native/src/klondike/commit_planner.hpp) and the world scores of a batch of positions
// (native/src/klondike/world_score.hpp), their options and results.
#include "bindings.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "common/cancel_token.hpp"
#include "klondike/commit_planner.hpp"
#include "klondike/hop.hpp"
#include "klondike/ismcts.hpp"
#include "klondike/position.hpp"
#include "klondike/world_score.hpp"

namespace solitaire::bindings {

using namespace nb::literals;
namespace kl = solitaire::klondike;

namespace {

kl::Action action_of(const ActionTuple& t) {
  kl::Action a;
  a.kind = static_cast<kl::ActionKind>(std::get<0>(t));
  a.src = std::get<1>(t);
  a.dst = std::get<2>(t);
  a.count = std::get<3>(t);
  a.card = std::get<4>(t);
  return a;
}

// The planners' arguments: the unknown places as (column, index) and the candidate moves as tuples.
std::vector<kl::UnknownSlot> unknown_slots(const std::vector<std::tuple<int, int>>& unknown) {
  std::vector<kl::UnknownSlot> slots;
  for (const auto& [column, index] : unknown) slots.push_back({column, index});
  return slots;
}

std::vector<kl::Action> candidate_actions(const std::vector<ActionTuple>& candidates) {
  std::vector<kl::Action> moves;
  for (const ActionTuple& t : candidates) moves.push_back(action_of(t));
  return moves;
}

}  // namespace

void bind_klondike_planners(nb::module_& m) {
  // The planners' options: built with keywords only (the C++ defaults), checked at once, then read-only.
  const kl::HopOptions hop;
  nb::class_<kl::HopOptions> hop_options(m, "KlondikeHopOptions");
  hop_options
      .def("__init__",
           [](kl::HopOptions* self, int draw_count, std::uint64_t seed, std::uint64_t states_per_solve,
              int max_samples, std::uint64_t max_states, double time_limit_s, int threads) {
             kl::HopOptions o;
             o.draw_count = draw_count;
             o.seed = seed;
             o.states_per_solve = states_per_solve;
             o.budget = sample_budget(max_samples, max_states, time_limit_s, threads);
             kl::check_options(o);
             new (self) kl::HopOptions(o);
           },
           nb::kw_only(), "draw_count"_a = hop.draw_count, "seed"_a = hop.seed,
           "states_per_solve"_a = hop.states_per_solve, "max_samples"_a = hop.budget.max_samples,
           "max_states"_a = hop.budget.max_states, "time_limit_s"_a = hop.budget.time_limit_s,
           "threads"_a = hop.budget.threads)
      .def_ro("draw_count", &kl::HopOptions::draw_count)
      .def_ro("seed", &kl::HopOptions::seed)
      .def_ro("states_per_solve", &kl::HopOptions::states_per_solve);
  def_budget_fields(hop_options);

  const kl::IsmctsOptions tree;
  nb::class_<kl::IsmctsOptions>(m, "KlondikeIsmctsOptions")
      .def("__init__",
           [](kl::IsmctsOptions* self, int draw_count, std::uint64_t seed, std::uint64_t states_per_solve,
              int max_iterations, std::uint64_t max_states, double time_limit_s, double exploration, int max_depth) {
             kl::IsmctsOptions o;
             o.draw_count = draw_count;
             o.seed = seed;
             o.states_per_solve = states_per_solve;
             o.max_iterations = max_iterations;
             o.max_states = max_states;
             o.time_limit_s = time_limit_s;
             o.exploration = exploration;
             o.max_depth = max_depth;
             kl::check_options(o);
             new (self) kl::IsmctsOptions(o);
           },
           nb::kw_only(), "draw_count"_a = tree.draw_count, "seed"_a = tree.seed,
           "states_per_solve"_a = tree.states_per_solve, "max_iterations"_a = tree.max_iterations,
           "max_states"_a = tree.max_states, "time_limit_s"_a = tree.time_limit_s,
           "exploration"_a = tree.exploration, "max_depth"_a = tree.max_depth)
      .def_ro("draw_count", &kl::IsmctsOptions::draw_count)
      .def_ro("seed", &kl::IsmctsOptions::seed)
      .def_ro("states_per_solve", &kl::IsmctsOptions::states_per_solve)
      .def_ro("max_iterations", &kl::IsmctsOptions::max_iterations)
      .def_ro("max_states", &kl::IsmctsOptions::max_states)
      .def_ro("time_limit_s", &kl::IsmctsOptions::time_limit_s)
      .def_ro("exploration", &kl::IsmctsOptions::exploration)
      .def_ro("max_depth", &kl::IsmctsOptions::max_depth);

  nb::class_<kl::HopResult>(m, "KlondikeHopResult")
      .def_ro("tally", &kl::HopResult::tally)
      .def_prop_ro("lines", [](const kl::HopResult& r) {
        std::vector<std::vector<ActionTuple>> lines;
        for (const auto& line : r.lines) lines.push_back(to_tuples(line));
        return lines;
      });

  m.def(
      "klondike_hop",
      [](const kl::Position& position, const std::vector<std::tuple<int, int>>& unknown,
         const std::vector<ActionTuple>& candidates, const kl::HopOptions& options, const CancelToken* cancel) {
        kl::HopOptions own_options = options;
        own_options.budget.cancel = cancel;
        const std::vector<kl::UnknownSlot> slots = unknown_slots(unknown);
        const std::vector<kl::Action> moves = candidate_actions(candidates);
        const kl::Position own = position;
        nb::gil_scoped_release release;
        return kl::hop_evaluate(own, slots, moves, own_options);
      },
      "position"_a, "unknown"_a, "candidates"_a, "options"_a, "cancel"_a.none() = nb::none());
  nb::class_<kl::IsmctsResult>(m, "KlondikeIsmctsResult")
      .def_ro("visits", &kl::IsmctsResult::visits)
      .def_ro("value_sum", &kl::IsmctsResult::value_sum)
      .def_ro("iterations", &kl::IsmctsResult::iterations)
      .def_ro("states", &kl::IsmctsResult::states)
      .def_ro("nodes", &kl::IsmctsResult::nodes)
      .def_ro("seconds", &kl::IsmctsResult::seconds)
      .def_ro("stop_reason", &kl::IsmctsResult::stop_reason);
  m.def(
      "klondike_ismcts",
      [](const kl::Position& position, const std::vector<std::tuple<int, int>>& unknown,
         const std::vector<ActionTuple>& candidates, const kl::IsmctsOptions& options, const CancelToken* cancel) {
        kl::IsmctsOptions own_options = options;
        own_options.cancel = cancel;
        const std::vector<kl::UnknownSlot> slots = unknown_slots(unknown);
        const std::vector<kl::Action> moves = candidate_actions(candidates);
        const kl::Position own = position;
        nb::gil_scoped_release release;
        return kl::ismcts_evaluate(own, slots, moves, own_options);
      },
      "position"_a, "unknown"_a, "candidates"_a, "options"_a, "cancel"_a.none() = nb::none());

  nb::enum_<kl::CommitSchedule>(m, "KlondikeCommitSchedule")
      .value("ucb", kl::CommitSchedule::ucb)
      .value("halving", kl::CommitSchedule::halving)
      .value("race", kl::CommitSchedule::race);
  const kl::CommitOptions commit;
  nb::class_<kl::CommitOptions>(m, "KlondikeCommitOptions")
      .def("__init__",
           [](kl::CommitOptions* self, int draw_count, std::uint64_t seed, std::uint64_t cap,
              std::uint64_t cap_per_known, int worlds_per_candidate, std::int64_t max_worlds, double exploration,
              int batch, std::int64_t hopeless_worlds, double time_limit_s, int threads, int max_closure,
              kl::CommitSchedule schedule, bool merge, double race_z, int race_min_worlds,
              bool surely_won_stops) {
             kl::CommitOptions o;
             o.draw_count = draw_count;
             o.seed = seed;
             o.cap = cap;
             o.cap_per_known = cap_per_known;
             o.worlds_per_candidate = worlds_per_candidate;
             o.max_worlds = max_worlds;
             o.exploration = exploration;
             o.batch = batch;
             o.hopeless_worlds = hopeless_worlds;
             o.time_limit_s = time_limit_s;
             o.threads = threads;
             o.max_closure = max_closure;
             o.schedule = schedule;
             o.merge = merge;
             o.race_z = race_z;
             o.race_min_worlds = race_min_worlds;
             o.surely_won_stops = surely_won_stops;
             kl::check_options(o);
             new (self) kl::CommitOptions(o);
           },
           nb::kw_only(), "draw_count"_a = commit.draw_count, "seed"_a = commit.seed, "cap"_a = commit.cap,
           "cap_per_known"_a = commit.cap_per_known, "worlds_per_candidate"_a = commit.worlds_per_candidate,
           "max_worlds"_a = commit.max_worlds, "exploration"_a = commit.exploration, "batch"_a = commit.batch,
           "hopeless_worlds"_a = commit.hopeless_worlds, "time_limit_s"_a = commit.time_limit_s,
           "threads"_a = commit.threads, "max_closure"_a = commit.max_closure, "schedule"_a = commit.schedule,
           "merge"_a = commit.merge, "race_z"_a = commit.race_z, "race_min_worlds"_a = commit.race_min_worlds,
           "surely_won_stops"_a = commit.surely_won_stops)
      .def_ro("draw_count", &kl::CommitOptions::draw_count)
      .def_ro("seed", &kl::CommitOptions::seed)
      .def_ro("cap", &kl::CommitOptions::cap)
      .def_ro("cap_per_known", &kl::CommitOptions::cap_per_known)
      .def_ro("worlds_per_candidate", &kl::CommitOptions::worlds_per_candidate)
      .def_ro("max_worlds", &kl::CommitOptions::max_worlds)
      .def_ro("exploration", &kl::CommitOptions::exploration)
      .def_ro("batch", &kl::CommitOptions::batch)
      .def_ro("hopeless_worlds", &kl::CommitOptions::hopeless_worlds)
      .def_ro("time_limit_s", &kl::CommitOptions::time_limit_s)
      .def_ro("threads", &kl::CommitOptions::threads)
      .def_ro("max_closure", &kl::CommitOptions::max_closure)
      .def_ro("schedule", &kl::CommitOptions::schedule)
      .def_ro("merge", &kl::CommitOptions::merge)
      .def_ro("race_z", &kl::CommitOptions::race_z)
      .def_ro("race_min_worlds", &kl::CommitOptions::race_min_worlds)
      .def_ro("surely_won_stops", &kl::CommitOptions::surely_won_stops);
  nb::class_<kl::CommitCandidate>(m, "KlondikeCommitCandidate")
      .def_prop_ro("line", [](const kl::CommitCandidate& c) { return to_tuples(c.line); })
      .def_ro("reveals", &kl::CommitCandidate::reveals)
      .def_ro("won", &kl::CommitCandidate::won)
      .def_ro("lost", &kl::CommitCandidate::lost)
      .def_ro("cut", &kl::CommitCandidate::cut);
  nb::class_<kl::CommitResult>(m, "KlondikeCommitResult")
      .def_ro("candidates", &kl::CommitResult::candidates)
      .def_ro("chosen", &kl::CommitResult::chosen)
      .def_prop_ro("win_line", [](const kl::CommitResult& r) { return to_tuples(r.win_line); })
      .def_ro("closure", &kl::CommitResult::closure)
      .def_ro("closure_complete", &kl::CommitResult::closure_complete)
      .def_ro("worlds", &kl::CommitResult::worlds)
      .def_ro("states", &kl::CommitResult::states)
      .def_ro("cap", &kl::CommitResult::cap)
      .def_ro("seconds", &kl::CommitResult::seconds)
      .def_ro("stop_reason", &kl::CommitResult::stop_reason)
      .def_ro("hopeless", &kl::CommitResult::hopeless);
  m.def(
      "klondike_commit_plan",
      [](const kl::Position& position, const std::vector<std::tuple<int, int>>& unknown,
         const kl::CommitOptions& options, const CancelToken* cancel) {
        kl::CommitOptions own_options = options;
        own_options.cancel = cancel;
        const std::vector<kl::UnknownSlot> slots = unknown_slots(unknown);
        const kl::Position own = position;
        nb::gil_scoped_release release;
        return kl::commit_plan(own, slots, own_options);
      },
      "position"_a, "unknown"_a, "options"_a, "cancel"_a.none() = nb::none());

  const kl::WorldScoreOptions scored;
  nb::class_<kl::WorldScoreOptions>(m, "KlondikeWorldScoreOptions")
      .def("__init__",
           [](kl::WorldScoreOptions* self, int draw_count, std::uint64_t seed, int worlds, std::uint64_t cap,
              bool surely_won_stops, int threads) {
             kl::WorldScoreOptions o;
             o.draw_count = draw_count;
             o.seed = seed;
             o.worlds = worlds;
             o.cap = cap;
             o.surely_won_stops = surely_won_stops;
             o.threads = threads;
             kl::check_options(o);
             new (self) kl::WorldScoreOptions(o);
           },
           nb::kw_only(), "draw_count"_a = scored.draw_count, "seed"_a = scored.seed, "worlds"_a = scored.worlds,
           "cap"_a = scored.cap, "surely_won_stops"_a = scored.surely_won_stops, "threads"_a = scored.threads)
      .def_ro("draw_count", &kl::WorldScoreOptions::draw_count)
      .def_ro("seed", &kl::WorldScoreOptions::seed)
      .def_ro("worlds", &kl::WorldScoreOptions::worlds)
      .def_ro("cap", &kl::WorldScoreOptions::cap)
      .def_ro("surely_won_stops", &kl::WorldScoreOptions::surely_won_stops)
      .def_ro("threads", &kl::WorldScoreOptions::threads);
  nb::class_<kl::WorldScores>(m, "KlondikeWorldScores")
      .def_ro("won", &kl::WorldScores::won)
      .def_ro("lost", &kl::WorldScores::lost)
      .def_ro("cut", &kl::WorldScores::cut)
      .def_ro("states", &kl::WorldScores::states)
      .def_ro("seeds", &kl::WorldScores::seeds)
      .def_ro("searches", &kl::WorldScores::searches)
      .def_ro("seconds", &kl::WorldScores::seconds);
  m.def(
      "klondike_world_scores",
      [](const std::vector<kl::Position>& positions, const std::vector<std::vector<std::tuple<int, int>>>& unknown,
         const kl::WorldScoreOptions& options) {
        if (positions.size() != unknown.size()) {
          throw std::invalid_argument("world scores: " + std::to_string(positions.size()) + " positions but " +
                                      std::to_string(unknown.size()) + " lists of unknown places");
        }
        std::vector<kl::KnownPosition> known;
        known.reserve(positions.size());
        for (std::size_t i = 0; i < positions.size(); ++i) known.push_back({positions[i], unknown_slots(unknown[i])});
        nb::gil_scoped_release release;
        return kl::world_scores(known, options);
      },
      "positions"_a, "unknown"_a, "options"_a);
}

}  // namespace solitaire::bindings
