// The output arrays of one call of a batch of games (pyramid/batch.hpp, klondike/batch.hpp), the same
// for every game: caller-owned (the NumPy arrays of solitaire_rl/envs/*/vector.py), row-major, one row
// per game. A game adds its own per-game counters, each named: a counter is one entry of the game's
// `Counter` enum and of its `kCounterNames` (the binding and Python read the names from there), and
// one write in the game's batch (its `write_counters`).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace solitaire {

template <class Obs, class Counter, std::size_t NumCounters>
struct StepBuffer {
  using ObsType = Obs;
  using CounterType = Counter;
  static constexpr std::size_t kNumCounters = NumCounters;

  Obs* obs = nullptr;                  // num_envs x the game's observation size
  std::int8_t* mask = nullptr;         // num_envs x the game's actions
  double* reward = nullptr;            // num_envs
  bool* terminated = nullptr;          // num_envs
  bool* truncated = nullptr;           // num_envs
  std::uint8_t* refusal = nullptr;     // num_envs: the game's Refusal of an illegal action, else 0
  std::uint8_t* outcome = nullptr;     // num_envs: the game's Outcome of a game that ended this step, else 0
  bool* was_reset = nullptr;           // num_envs: the game was reset (and took its pending deal) in this call
  Obs* final_obs = nullptr;            // num_envs x obs, same_step only: the last observation of a game that ended
  std::int8_t* final_mask = nullptr;   // num_envs x actions, same_step only: its last mask (encodings read it)
  std::array<std::int32_t*, NumCounters> counters{};  // num_envs each, in the order of the game's Counter

  // Counter `c`'s column (of the game after any reset).
  std::int32_t* counter(Counter c) const { return counters[static_cast<std::size_t>(c)]; }
};

}  // namespace solitaire
