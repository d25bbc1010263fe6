// The budget of one search: time, states and memory.
#pragma once

#include <cstddef>
#include <cstdint>

namespace solitaire {

// The default memory cap of every native search: Limits (both games' solvers, from Python) and
// klondike::SolveBudget (the klondike_solve driver, the planners' searches, the C++ tests).
// Python reads it as solitaire_native.DEFAULT_MAX_MEMORY_BYTES.
inline constexpr std::size_t kDefaultMaxMemoryBytes = std::size_t{512} << 20;  // 512 MiB
inline constexpr std::size_t kMinMaxMemoryBytes = std::size_t{64} << 10;       // 64 KiB

struct Limits {
  double time_limit_s = 0.0;    // wall-clock seconds; <= 0 means no time limit
  std::uint64_t max_states = 0;  // states visited; 0 means no state limit
  std::size_t max_memory_bytes = kDefaultMaxMemoryBytes;  // peak size of the transposition table
};

}  // namespace solitaire
