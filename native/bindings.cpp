// The Python module solitaire_native: type conversions only, no game logic.
#include <nanobind/nanobind.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <tuple>
#include <vector>

#include "common/cancel_token.hpp"
#include "common/limits.hpp"
#include "common/search_status.hpp"
#include "pyramid/position.hpp"
#include "pyramid/pruning.hpp"
#include "pyramid/queries.hpp"
#include "pyramid/solver.hpp"

namespace nb = nanobind;
using namespace nb::literals;
using solitaire::CancelToken;
using solitaire::Limits;
using solitaire::Status;
using solitaire::StopReason;
namespace pyr = solitaire::pyramid;

namespace {

using MoveTuple = std::tuple<int, int, int>;  // (kind, a, b) as envs.pyramid.Move

std::vector<MoveTuple> to_tuples(const std::vector<pyr::Move>& moves) {
  std::vector<MoveTuple> out;
  out.reserve(moves.size());
  for (const pyr::Move& m : moves) out.emplace_back(static_cast<int>(m.kind), m.a, m.b);
  return out;
}

}  // namespace

NB_MODULE(solitaire_native, m) {
  m.doc() = "Native core of solitaire-rl: the exact Pyramid solver (see agents.solver).";
  m.attr("DEFAULT_MAX_MEMORY_BYTES") = solitaire::kDefaultMaxMemoryBytes;
  m.attr("MIN_MAX_MEMORY_BYTES") = solitaire::kMinMaxMemoryBytes;

  nb::enum_<Status>(m, "Status")
      .value("winnable", Status::winnable)
      .value("not_winnable", Status::not_winnable)
      .value("unknown", Status::unknown);
  nb::enum_<StopReason>(m, "StopReason")
      .value("none", StopReason::none)
      .value("time", StopReason::time)
      .value("states", StopReason::states)
      .value("memory", StopReason::memory)
      .value("cancelled", StopReason::cancelled);
  nb::enum_<pyr::PruneRule>(m, "PyramidPruneRule")
      .value("none", pyr::PruneRule::none)
      .value("rank_count", pyr::PruneRule::rank_count)
      .value("buried_partner", pyr::PruneRule::buried_partner)
      .value("partner_matching", pyr::PruneRule::partner_matching)
      .value("relaxation", pyr::PruneRule::relaxation);

  nb::class_<CancelToken>(m, "CancelToken")
      .def(nb::init<>())
      .def("cancel", &CancelToken::cancel)
      .def("reset", &CancelToken::reset)
      .def_prop_ro("cancelled", &CancelToken::is_cancelled);

  nb::class_<Limits>(m, "Limits")
      .def(nb::init<>())
      .def_rw("time_limit_s", &Limits::time_limit_s)
      .def_rw("max_states", &Limits::max_states)
      .def_rw("max_memory_bytes", &Limits::max_memory_bytes);

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
      "pyramid_legal_moves",
      [](const pyr::Position& position) { return to_tuples(pyr::legal_moves(position)); },
      "position"_a);
  m.def("pyramid_prune_rule", &pyr::prune_rule, "position"_a);
  m.def(
      "pyramid_forced_moves",
      [](const pyr::Position& position) { return to_tuples(pyr::forced_moves(position)); },
      "position"_a);
}
