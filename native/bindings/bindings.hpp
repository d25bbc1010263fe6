// What the parts of the Python module solitaire_native share: each part's bind_* function (called
// by module.cpp, in the order listed) and the conversions more than one part uses. Type
// conversions only, no game logic.
//
// Every part includes this header, so every part sees the same nanobind type casters (a caster
// missing from one translation unit would make that part treat std::vector etc. as an unbound
// class at run time).
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <tuple>
#include <vector>

#include "common/sample_loop.hpp"
#include "klondike/action.hpp"

namespace solitaire::bindings {

namespace nb = nanobind;

// The parts, one per subsystem and file (native/README.md).
void bind_common(nb::module_& m);             // memory caps, Status, StopReason, CancelToken, Limits, SampleTally
void bind_pyramid_solver(nb::module_& m);     // the Pyramid solver, its queries and PIMC
void bind_klondike_solver(nb::module_& m);    // the Klondike solver and its queries
void bind_klondike_planners(nb::module_& m);  // HOP, ISMCTS, the commitment planner, world scores
void bind_batch_envs(nb::module_& m);         // both games' native batched environments
void bind_policy_inputs(nb::module_& m);      // both games' policy inputs of a batch

// A Klondike action as Python sees it: (kind, src, dst, count, card).
using ActionTuple = std::tuple<int, int, int, int, int>;

inline std::vector<ActionTuple> to_tuples(const std::vector<klondike::Action>& actions) {
  std::vector<ActionTuple> out;
  out.reserve(actions.size());
  for (const klondike::Action& a : actions) {
    out.emplace_back(static_cast<int>(a.kind), a.src, a.dst, a.count, a.card);
  }
  return out;
}

// The sample loop's budget of a planner's options (the cancel token is an argument of the call).
inline SampleBudget sample_budget(int max_samples, std::uint64_t max_states, double time_limit_s, int threads) {
  SampleBudget budget;
  budget.max_samples = max_samples;
  budget.max_states = max_states;
  budget.time_limit_s = time_limit_s;
  budget.threads = threads;
  return budget;
}

// The read-only fields of a sample loop's budget, on the options class `cls` of a planner whose
// options hold it as `budget` (the cancel token is an argument of the call, not an option).
template <class Options>
void def_budget_fields(nb::class_<Options>& cls) {
  cls.def_prop_ro("max_samples", [](const Options& o) { return o.budget.max_samples; })
      .def_prop_ro("max_states", [](const Options& o) { return o.budget.max_states; })
      .def_prop_ro("time_limit_s", [](const Options& o) { return o.budget.time_limit_s; })
      .def_prop_ro("threads", [](const Options& o) { return o.budget.threads; });
}

// The NumPy arrays of the batched environments and the policy inputs: C-contiguous, on the CPU.
template <typename T>
using Rows = nb::ndarray<T, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
template <typename T>
using Column = nb::ndarray<T, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

}  // namespace solitaire::bindings
