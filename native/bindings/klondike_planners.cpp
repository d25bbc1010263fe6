// The Klondike planners over the unknown cards: hindsight optimisation (native/src/klondike/hop.hpp)
// and information-set MCTS (native/src/klondike/ismcts.hpp), their options and results.
#include "bindings.hpp"

#include <cstdint>
#include <tuple>
#include <vector>

#include "common/cancel_token.hpp"
#include "klondike/hop.hpp"
#include "klondike/ismcts.hpp"
#include "klondike/position.hpp"

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
}

}  // namespace solitaire::bindings
