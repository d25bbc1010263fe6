// N Pyramid games stepped together, writing into caller-owned arrays (the NumPy arrays of
// solitaire_rl.envs.pyramid.vector.PyramidVectorEnv); no Python object is touched, so the binding releases the
// GIL around every call, and a call may split its games across threads.
//
// Autoreset (Gymnasium 1.x): `next_step` (Gymnasium's default): a step after a game ended resets
// that game with its pending deal and ignores its action; `same_step` (stable-baselines3's): a game
// that ends is reset at once, its last observation and mask written to `final_obs` and
// `final_mask` first; `disabled`:
// nothing is reset by a step (a game that ended refuses every action, as the Python env does).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "common/step_buffer.hpp"
#include "pyramid/env.hpp"

namespace solitaire::pyramid::env {

enum class Autoreset : std::uint8_t { next_step = 0, same_step = 1, disabled = 2 };

// The per-game counters a call writes beside the observation and the mask (of the game after any
// reset): its pass 1..3 and its pyramid cards left. Python reads them by these names.
enum class Counter : std::uint8_t { pass_number, cards_left };
inline constexpr std::array<const char*, 2> kCounterNames{"pass_number", "cards_left"};

// The arrays of one call (common/step_buffer.hpp): obs and final_obs num_envs x 883, mask and final_mask
// num_envs x 467.
using Outputs = StepBuffer<float, Counter, kCounterNames.size()>;

// One game of a batch as get_state/set_state carry it: its state and the batch's counters for it.
struct Saved {
  Snapshot game;
  std::int32_t elapsed = 0;  // steps since its reset (the truncation count)
  bool needs_reset = false;  // next_step mode: it ended at the last step, so the next step deals
};

class Batch {
 public:
  Batch(int num_envs, bool stock_top_playable, bool reward_shaping, int max_episode_steps, int num_threads);

  int num_envs() const { return static_cast<int>(games_.size()); }

  // Deals 52 cards (Pyramid deal order) to game i and writes its row of obs, mask and counters.
  void reset_one(int i, const std::uint8_t* cards, const Outputs& out);
  // Deals pyramid-random-v1-{numbers[k]} to game indices[k], k < count (the same writes).
  void reset_random(const std::int64_t* indices, const std::int64_t* numbers, int count, const Outputs& out);
  // Game i's state, and game i put back in a saved state (the same writes as reset_one).
  Saved saved(int i) const;
  void restore(int i, const Saved& saved, const Outputs& out);
  // One step of every game. actions: num_envs values in 0..466 (checked by the caller);
  // pending: the deal number each game takes if it is reset in this call.
  void step(const std::int64_t* actions, const std::int64_t* pending, Autoreset mode, const Outputs& out);

 private:
  void step_range(int begin, int end, const std::int64_t* actions, const std::int64_t* pending,
                  Autoreset mode, const Outputs& out);
  void write_row(int i, const Outputs& out) const;
  void write_counters(int i, const Outputs& out) const;
  void deal(int i, std::int64_t number);

  std::vector<Game> games_;
  std::vector<std::int32_t> elapsed_;   // steps since the game's reset (TimeLimit's count)
  std::vector<std::uint8_t> needs_reset_;  // next_step mode: the game ended at the last step
  bool stock_top_playable_;
  bool reward_shaping_;
  int max_episode_steps_;  // 0: never truncate
  int num_threads_;
};

}  // namespace solitaire::pyramid::env
