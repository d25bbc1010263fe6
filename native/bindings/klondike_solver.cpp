// The Klondike solver (native/src/klondike/solver.hpp): positions and their validation, the
// search's options and result, the search, and the one-position queries (generated moves, forced
// move, legal actions, loss proved without search).
#include "bindings.hpp"

#include <array>
#include <cstdint>
#include <vector>

#include "common/cancel_token.hpp"
#include "common/limits.hpp"
#include "klondike/position.hpp"
#include "klondike/queries.hpp"
#include "klondike/solver.hpp"

namespace solitaire::bindings {

using namespace nb::literals;
namespace kl = solitaire::klondike;

namespace {

kl::Position make_klondike_position(const std::vector<std::vector<int>>& face_down,
                                    const std::vector<std::vector<int>>& face_up, const std::vector<int>& stock,
                                    const std::vector<int>& waste, const std::array<int, 4>& foundation,
                                    int max_rank) {
  if (face_down.size() != face_up.size()) throw nb::value_error("face_down and face_up need one list per column");
  kl::Position p;
  for (std::size_t c = 0; c < face_down.size(); ++c) p.columns.push_back({face_down[c], face_up[c]});
  p.stock = stock;
  p.waste = waste;
  p.foundation = foundation;
  p.max_rank = max_rank;
  return p;
}

kl::SolveOptions klondike_options(int draw_count, std::uint64_t order_seed, bool dominances) {
  kl::SolveOptions options;
  options.draw_count = draw_count;
  options.order_seed = order_seed;
  options.safe_foundation_moves = options.partial_run_rule = options.canonical_lifts = dominances;
  options.kings_follow_emptying = dominances;
  return options;
}

}  // namespace

void bind_klondike_solver(nb::module_& m) {
  // A code the native side writes into Python's tuples, mapped by name (see batch_envs.cpp).
  nb::enum_<kl::ActionKind>(m, "KlondikeActionKind")
      .value("draw", kl::ActionKind::draw)
      .value("recycle", kl::ActionKind::recycle)
      .value("waste_to_foundation", kl::ActionKind::waste_to_foundation)
      .value("waste_to_column", kl::ActionKind::waste_to_column)
      .value("column_to_foundation", kl::ActionKind::column_to_foundation)
      .value("column_to_column", kl::ActionKind::column_to_column)
      .value("foundation_to_column", kl::ActionKind::foundation_to_column);

  nb::class_<kl::Position>(m, "KlondikePosition")
      .def("__init__",
           [](kl::Position* self, const std::vector<std::vector<int>>& face_down,
              const std::vector<std::vector<int>>& face_up, const std::vector<int>& stock,
              const std::vector<int>& waste, const std::array<int, 4>& foundation, int max_rank) {
             new (self) kl::Position(make_klondike_position(face_down, face_up, stock, waste, foundation, max_rank));
           },
           "face_down"_a, "face_up"_a, "stock"_a, "waste"_a, "foundation"_a, "max_rank"_a);

  nb::class_<kl::SolveOptions>(m, "KlondikeOptions")
      .def(nb::init<>())
      .def_rw("draw_count", &kl::SolveOptions::draw_count)
      .def_rw("safe_foundation_moves", &kl::SolveOptions::safe_foundation_moves)
      .def_rw("partial_run_rule", &kl::SolveOptions::partial_run_rule)
      .def_rw("canonical_lifts", &kl::SolveOptions::canonical_lifts)
      .def_rw("dead_end_check", &kl::SolveOptions::dead_end_check)
      .def_rw("dead_end_in_search", &kl::SolveOptions::dead_end_in_search)
      .def_rw("order_seed", &kl::SolveOptions::order_seed)
      .def_rw("restarts", &kl::SolveOptions::restarts)
      .def_rw("surely_won_stops", &kl::SolveOptions::surely_won_stops);

  nb::class_<kl::SolveResult>(m, "KlondikeResult")
      .def_ro("status", &kl::SolveResult::status)
      .def_ro("stop_reason", &kl::SolveResult::stop_reason)
      .def_prop_ro("line", [](const kl::SolveResult& r) { return to_tuples(r.line); })
      .def_ro("states", &kl::SolveResult::states)
      .def_ro("seconds", &kl::SolveResult::seconds)
      .def_ro("tt_entries", &kl::SolveResult::tt_entries)
      .def_ro("tt_bytes", &kl::SolveResult::tt_bytes)
      .def_ro("restarts", &kl::SolveResult::restarts)
      .def_ro("tt_saturated", &kl::SolveResult::tt_saturated);

  m.def("klondike_validate", &kl::validate, "position"_a);
  m.def(
      "klondike_solve",
      [](const kl::Position& position, const kl::SolveOptions& options, const Limits& limits,
         const CancelToken* cancel) {
        const kl::Position own = position;  // copied while the GIL is held
        kl::SolveBudget budget;
        budget.time_limit_s = limits.time_limit_s;
        budget.max_states = limits.max_states;
        budget.max_memory_bytes = limits.max_memory_bytes;
        budget.cancel = cancel;
        const kl::SolveOptions own_options = options;
        nb::gil_scoped_release release;
        return kl::solve(own, own_options, budget);
      },
      "position"_a, "options"_a, "limits"_a, "cancel"_a.none() = nb::none());
  m.def(
      "klondike_generated_moves",
      [](const kl::Position& position, int draw_count, std::uint64_t order_seed, bool dominances) {
        std::vector<std::vector<ActionTuple>> out;
        for (const auto& move : kl::generated_moves(position, klondike_options(draw_count, order_seed, dominances))) {
          out.push_back(to_tuples(move));
        }
        return out;
      },
      "position"_a, "draw_count"_a, "order_seed"_a = 0, "dominances"_a = true);
  m.def(
      "klondike_forced_move",
      [](const kl::Position& position, int draw_count) {
        return to_tuples(kl::forced_move(position, klondike_options(draw_count, 0, true)));
      },
      "position"_a, "draw_count"_a);
  m.def(
      "klondike_legal_actions",
      [](const kl::Position& position, int draw_count) { return to_tuples(kl::legal_actions(position, draw_count)); },
      "position"_a, "draw_count"_a);
  m.def("klondike_proved_lost_without_search", &kl::proved_lost_without_search, "position"_a, "draw_count"_a);
}

}  // namespace solitaire::bindings
