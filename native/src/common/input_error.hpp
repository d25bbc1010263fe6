// Why a row of policy inputs could not be encoded (klondike/policy_inputs.hpp,
// pyramid/policy_inputs.hpp; the values are the codes solitaire_rl/agents/*_inputs_batch.py name): more legal
// actions than slots (the Python encoders' refusal), or an observation or a mask no environment
// writes, which the native encoders refuse rather than read past it.
#pragma once

#include <cstdint>

namespace solitaire {

enum class InputError : std::uint8_t { none = 0, bad_observation, too_many_actions, bad_mask };

}  // namespace solitaire
