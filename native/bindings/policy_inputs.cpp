// Both games' policy inputs of a batch (native/src/klondike/policy_inputs.hpp,
// native/src/pyramid/policy_inputs.hpp; solitaire_rl/agents/encodings/klondike_inputs_batch.py,
// solitaire_rl/agents/encodings/pyramid_inputs_batch.py).
#include "bindings.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>

#include "common/input_error.hpp"
#include "klondike/env.hpp"
#include "klondike/policy_inputs.hpp"
#include "pyramid/policy_inputs.hpp"

namespace solitaire::bindings {

using namespace nb::literals;
namespace klenv = solitaire::klondike::env;
namespace klin = solitaire::klondike::inputs;
namespace pyin = solitaire::pyramid::inputs;
using solitaire::InputError;

namespace {

// Runs `encode(row)` (InputError::none when the row was written) on rows 0..n-1 with the GIL
// released, stopping at the first row that could not be encoded; returns (row, InputError) of that
// row, or None. Both games' policy inputs below.
template <class Encode>
nb::object encode_rows(std::size_t n, const Encode& encode) {
  std::size_t row = 0;
  InputError error = InputError::none;
  {
    nb::gil_scoped_release release;
    for (; row < n; ++row) {
      error = encode(row);
      if (error != InputError::none) break;
    }
  }
  if (error == InputError::none) return nb::none();
  return nb::make_tuple(row, error);
}

// Encodes every row of `obs` (and `mask`) into `out`; returns (row, error) of the first row that
// could not be encoded (the rows before it are written), or None.
nb::object klondike_policy_inputs(Rows<const std::int64_t> obs, std::optional<Rows<const std::int8_t>> mask,
                                  Rows<float> out) {
  const std::size_t n = obs.shape(0);
  const std::size_t width = mask ? klin::kActionsSize : klin::kCompactSize;
  if (obs.shape(1) != klenv::kObservationSize) throw nb::value_error("obs must have 190 values a row");
  if (mask && (mask->shape(0) != n || mask->shape(1) != klenv::kNumActions)) {
    throw nb::value_error("mask must have 590 values for each row of obs");
  }
  if (out.shape(0) != n || out.shape(1) != width) throw nb::value_error("out has the wrong shape");
  return encode_rows(n, [&](std::size_t row) {
    const std::int64_t* o = obs.data() + row * klenv::kObservationSize;
    float* dst = out.data() + row * width;
    return mask ? klin::actions(o, mask->data() + row * klenv::kNumActions, dst) : klin::compact(o, dst);
  });
}

// Encodes every row of `obs` and `mask` into `out` (`relaxed`: pyramid-actions-relaxed); returns
// (row, error) of the first row that could not be encoded (the rows before it are written), or None.
nb::object pyramid_policy_inputs(Rows<const float> obs, Rows<const std::int8_t> mask, bool relaxed,
                                 Rows<float> out) {
  const std::size_t n = obs.shape(0);
  const std::size_t width = relaxed ? pyin::kRelaxedSize : pyin::kActionsSize;
  if (obs.shape(1) != pyin::kObservationSize) throw nb::value_error("obs must have 883 values a row");
  if (mask.shape(0) != n || mask.shape(1) != pyin::kNumActions) {
    throw nb::value_error("mask must have 467 values for each row of obs");
  }
  if (out.shape(0) != n || out.shape(1) != width) throw nb::value_error("out has the wrong shape");
  return encode_rows(n, [&](std::size_t row) {
    return pyin::actions(obs.data() + row * pyin::kObservationSize, mask.data() + row * pyin::kNumActions, relaxed,
                         out.data() + row * width);
  });
}

}  // namespace

void bind_policy_inputs(nb::module_& m) {
  // Why a row could not be encoded (common/input_error.hpp): the Python encoders word each by name.
  nb::enum_<InputError>(m, "InputError")
      .value("none", InputError::none)
      .value("bad_observation", InputError::bad_observation)
      .value("too_many_actions", InputError::too_many_actions)
      .value("bad_mask", InputError::bad_mask);
  m.def("klondike_policy_inputs", &klondike_policy_inputs, "obs"_a, "mask"_a.none(), "out"_a);
  m.def("pyramid_policy_inputs", &pyramid_policy_inputs, "obs"_a, "mask"_a, "relaxed"_a, "out"_a);
}

}  // namespace solitaire::bindings
