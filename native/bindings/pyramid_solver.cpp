// The Pyramid solver (native/src/pyramid/solver.hpp): positions, the search and its result, the
// one-position queries (legal moves, prune rule, forced moves) and PIMC with its options.
#include "bindings.hpp"

#include <tuple>
#include <vector>

#include "common/cancel_token.hpp"
#include "common/limits.hpp"
#include "pyramid/pimc.hpp"
#include "pyramid/position.hpp"
#include "pyramid/pruning.hpp"
#include "pyramid/queries.hpp"
#include "pyramid/solver.hpp"

namespace solitaire::bindings {

using namespace nb::literals;
namespace pyr = solitaire::pyramid;

namespace {

using MoveTuple = std::tuple<int, int, int>;  // (kind, a, b) as solitaire_rl.envs.pyramid.Move

std::vector<MoveTuple> to_tuples(const std::vector<pyr::Move>& moves) {
  std::vector<MoveTuple> out;
  out.reserve(moves.size());
  for (const pyr::Move& m : moves) out.emplace_back(static_cast<int>(m.kind), m.a, m.b);
  return out;
}

}  // namespace

void bind_pyramid_solver(nb::module_& m) {
  nb::enum_<pyr::PruneRule>(m, "PyramidPruneRule")
      .value("none", pyr::PruneRule::none)
      .value("rank_count", pyr::PruneRule::rank_count)
      .value("buried_partner", pyr::PruneRule::buried_partner)
      .value("partner_matching", pyr::PruneRule::partner_matching)
      .value("relaxation", pyr::PruneRule::relaxation);
  // A code the native side writes into Python's tuples, mapped by name (see batch_envs.cpp).
  nb::enum_<pyr::MoveKind>(m, "PyramidMoveKind")
      .value("remove", pyr::MoveKind::remove)
      .value("draw", pyr::MoveKind::draw)
      .value("recycle", pyr::MoveKind::recycle);

  // PIMC's options: built with keywords only (the C++ defaults), checked at once, then read-only.
  const pyr::PimcOptions pimc;
  nb::class_<pyr::PimcOptions> pimc_options(m, "PyramidPimcOptions");
  pimc_options
      .def("__init__",
           [](pyr::PimcOptions* self, std::uint64_t seed, std::uint64_t states_per_solve, int max_samples,
              std::uint64_t max_states, double time_limit_s, int threads) {
             pyr::PimcOptions o;
             o.seed = seed;
             o.states_per_solve = states_per_solve;
             o.budget = sample_budget(max_samples, max_states, time_limit_s, threads);
             pyr::check_options(o);
             new (self) pyr::PimcOptions(o);
           },
           nb::kw_only(), "seed"_a = pimc.seed, "states_per_solve"_a = pimc.states_per_solve,
           "max_samples"_a = pimc.budget.max_samples, "max_states"_a = pimc.budget.max_states,
           "time_limit_s"_a = pimc.budget.time_limit_s, "threads"_a = pimc.budget.threads)
      .def_ro("seed", &pyr::PimcOptions::seed)
      .def_ro("states_per_solve", &pyr::PimcOptions::states_per_solve);
  def_budget_fields(pimc_options);

  nb::class_<pyr::Position>(m, "PyramidPosition")
      .def(nb::init<>())
      .def_rw("rows", &pyr::Position::rows)
      .def_rw("pyramid", &pyr::Position::pyramid)
      .def_rw("removed", &pyr::Position::removed)
      .def_rw("stock", &pyr::Position::stock)
      .def_rw("waste_count", &pyr::Position::waste_count)
      .def_rw("pass_number", &pyr::Position::pass_number)
      .def_rw("max_passes", &pyr::Position::max_passes)
      .def_rw("stock_top_playable", &pyr::Position::stock_top_playable);

  nb::class_<pyr::SearchResult>(m, "PyramidResult")
      .def_ro("status", &pyr::SearchResult::status)
      .def_ro("stop_reason", &pyr::SearchResult::stop_reason)
      .def_prop_ro("line", [](const pyr::SearchResult& r) { return to_tuples(r.line); })
      .def_ro("states", &pyr::SearchResult::states)
      .def_ro("seconds", &pyr::SearchResult::seconds)
      .def_ro("tt_entries", &pyr::SearchResult::tt_entries)
      .def_ro("tt_bytes", &pyr::SearchResult::tt_bytes);

  m.def(
      "pyramid_solve",
      [](const pyr::Position& position, const Limits& limits, const CancelToken* cancel) {
        const pyr::Position own = position;  // copied while the GIL is held
        const Limits own_limits = limits;
        nb::gil_scoped_release release;
        return pyr::solve(own, own_limits, cancel);
      },
      "position"_a, "limits"_a, "cancel"_a.none() = nb::none());

  m.def(
      "pyramid_pimc",
      [](const pyr::Position& position, const std::vector<int>& unknown, const std::vector<MoveTuple>& candidates,
         const pyr::PimcOptions& options, const CancelToken* cancel) {
        pyr::PimcOptions own_options = options;
        own_options.budget.cancel = cancel;
        std::vector<pyr::Move> moves;
        for (const auto& [kind, a, b] : candidates) {
          if (kind == static_cast<int>(pyr::MoveKind::remove)) {
            moves.push_back(pyr::Move::remove(a, b));
          } else {
            moves.push_back(pyr::Move{static_cast<pyr::MoveKind>(kind), -1, -1});
          }
        }
        const pyr::Position own = position;
        nb::gil_scoped_release release;
        return pyr::pimc_evaluate(own, unknown, moves, own_options);
      },
      "position"_a, "unknown"_a, "candidates"_a, "options"_a, "cancel"_a.none() = nb::none());

  m.def(
      "pyramid_legal_moves",
      [](const pyr::Position& position) { return to_tuples(pyr::legal_moves(position)); },
      "position"_a);
  m.def("pyramid_prune_rule", &pyr::prune_rule, "position"_a);
  m.def(
      "pyramid_forced_moves",
      [](const pyr::Position& position) { return to_tuples(pyr::forced_moves(position)); },
      "position"_a);
}

}  // namespace solitaire::bindings
