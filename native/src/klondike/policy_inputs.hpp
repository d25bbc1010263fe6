// The Klondike policy inputs `klondike-compact` and `klondike-actions` computed from the
// environment's observation and action mask: a second implementation of
// solitaire_rl/agents/encodings/klondike_compact.py and solitaire_rl/agents/encodings/klondike_actions.py (the reference; their docstrings
// define every value), held to them value for value by tests/test_native_policy_inputs.py. It
// exists so that a native batch of games (batch.hpp) is encoded without a Python call per row.
//
// Like the Python encoders it reads only the observation (what the player sees) and the mask,
// never a game's state.
#pragma once

#include <cstdint>

#include "common/input_error.hpp"

namespace solitaire::klondike::inputs {

inline constexpr int kCardFeatures = 13;                           // KLONDIKE_CARD_FEATURES
inline constexpr int kGlobals = 7 * 3 + 3 + 4 + 4 + 1;             // KLONDIKE_GLOBALS
inline constexpr int kCompactSize = 52 * kCardFeatures + kGlobals;  // 709
inline constexpr int kSlots = 33;                                  // klondike_actions.SLOTS
inline constexpr int kActionFeatures = 21;                         // len(ACTION_FEATURES)
inline constexpr int kSlotWidth = 1 + kActionFeatures;
inline constexpr int kActionsSize = kCompactSize + kSlots * kSlotWidth;  // 1435

// Why a row could not be encoded (common/input_error.hpp); here a bad observation or mask is a
// value out of range or out of order, or a legal action the observation cannot play.
using solitaire::InputError;

// Writes the klondike-compact values of one observation (190 values) into `out` (709 floats).
InputError compact(const std::int64_t* obs, float* out);

// Writes the klondike-actions values of one observation and its mask (590 values, nonzero =
// legal) into `out` (1435 floats).
InputError actions(const std::int64_t* obs, const std::int8_t* mask, float* out);

}  // namespace solitaire::klondike::inputs
