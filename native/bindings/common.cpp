// What every solver and planner shares: the default and least memory caps, Status, StopReason,
// the cancel token, one search's Limits and a sample loop's SampleTally.
#include "bindings.hpp"

#include "common/cancel_token.hpp"
#include "common/limits.hpp"
#include "common/sample_loop.hpp"
#include "common/search_status.hpp"

namespace solitaire::bindings {

void bind_common(nb::module_& m) {
  m.attr("DEFAULT_MAX_MEMORY_BYTES") = kDefaultMaxMemoryBytes;
  m.attr("MIN_MAX_MEMORY_BYTES") = kMinMaxMemoryBytes;

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

  nb::class_<SampleTally>(m, "SampleTally")
      .def_ro("won", &SampleTally::won)
      .def_ro("lost", &SampleTally::lost)
      .def_ro("unknown", &SampleTally::unknown)
      .def_ro("first", &SampleTally::first)
      .def_ro("samples", &SampleTally::samples)
      .def_ro("states", &SampleTally::states)
      .def_ro("seconds", &SampleTally::seconds)
      .def_ro("stop_reason", &SampleTally::stop_reason);
}

}  // namespace solitaire::bindings
