// The Pyramid policy inputs `pyramid-actions` and `pyramid-actions-relaxed` computed from the
// environment's observation and action mask: a second implementation of
// solitaire_rl/agents/encodings/pyramid_actions.py (the reference, with solitaire_rl/agents/greedy/pyramid.py's PyramidView,
// action_terms and terms_score; their docstrings define every value), held to it value for value
// by tests/test_native_policy_inputs_pyramid.py. It exists so that a native batch of games
// (batch.hpp) is encoded without a Python call per row.
//
// Like the Python encoders it reads only the observation (what the player sees) and the mask,
// never a game's state. The relaxed feature asks the solver's own pruning (pruning.hpp,
// relaxation.hpp) as solitaire_rl.agents.solver.pyramid_relaxed_lost does.
#pragma once

#include <cstdint>

#include "common/input_error.hpp"

namespace solitaire::pyramid::inputs {

inline constexpr int kObservationSize = 883;                               // OBSERVATION_SIZE
inline constexpr int kNumActions = 467;                                    // NUM_ACTIONS
inline constexpr int kSlots = 38;                                          // pyramid_actions.SLOTS
inline constexpr int kActionFeatures = 17;                                 // len(ACTION_FEATURES)
inline constexpr int kSlotWidth = 1 + kActionFeatures;                     // SLOT_WIDTH
inline constexpr int kRelaxedSlotWidth = kSlotWidth + 1;                   // RELAXED_SLOT_WIDTH
inline constexpr int kActionsSize = kObservationSize + kSlots * kSlotWidth;          // 1567
inline constexpr int kRelaxedSize = kObservationSize + kSlots * kRelaxedSlotWidth;   // 1605

// Why a row could not be encoded (common/input_error.hpp); here a bad observation or mask is a
// value that is not a one-hot rank or a 0/1 flag, more than four cards of a rank, a removed card
// under a card still on the table, or a legal action the observation cannot play.
using solitaire::InputError;

// Writes the pyramid-actions values (`relaxed`: pyramid-actions-relaxed) of one observation (883
// floats) and its mask (467 values, nonzero = legal) into `out` (1567 floats; relaxed: 1605).
InputError actions(const float* obs, const std::int8_t* mask, bool relaxed, float* out);

}  // namespace solitaire::pyramid::inputs
