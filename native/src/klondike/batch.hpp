// N Klondike games stepped together, writing into caller-owned arrays (the NumPy arrays of
// solitaire_rl.envs.klondike.vector.KlondikeVectorEnv); no Python object is touched, so the binding releases the
// GIL around every call, and a call may split its games across threads.
//
// Autoreset (Gymnasium 1.x), as in pyramid/batch.hpp: `next_step` (Gymnasium's default): a step
// after a game ended resets that game with its pending deal and ignores its action; `same_step`
// (stable-baselines3's): a game that ends is reset at once, its last observation written to
// `final_obs` first; `disabled`: nothing is reset by a step. A game that terminated stays terminated
// until it is reset (every later step says terminated, as solitaire_rl.envs.klondike.env.KlondikeEnv does); a
// max_steps of 0 never truncates; truncation is reported even on a terminating step (Gymnasium's
// TimeLimit, and pyramid/batch.hpp, do the same).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "common/step_buffer.hpp"
#include "klondike/env_game.hpp"

namespace solitaire::klondike::env {

enum class Autoreset : std::uint8_t { next_step = 0, same_step = 1, disabled = 2 };

// The per-game counters a call writes beside the observation and the mask (of the game after any
// reset): its cards on the foundations and the times its waste was turned over. Python reads them by
// these names.
enum class Counter : std::uint8_t { cards_up, recycles };
inline constexpr std::array<const char*, 2> kCounterNames{"cards_up", "recycles"};

// The arrays of one call (common/step_buffer.hpp): obs and final_obs num_envs x 190, mask and final_mask
// num_envs x 590.
using Outputs = StepBuffer<std::int64_t, Counter, kCounterNames.size()>;

// One game of a batch as get_state/set_state carry it: its position and the batch's counters for it
// (the no-progress memo is not carried: it only speeds answers up).
struct Saved {
  State state;
  std::int32_t elapsed = 0;  // steps since its reset (the truncation count)
  bool ended = false;        // it terminated since its reset (every later step says terminated)
  bool needs_reset = false;  // next_step mode: it ended at the last step, so the next step deals
};

class Batch {
 public:
  Batch(int num_envs, int draw_count, bool shaped_reward, int max_steps, int num_threads);

  int num_envs() const { return static_cast<int>(games_.size()); }

  // Deals 52 cards (Klondike deal order) to game i and writes its row of obs, mask and counters.
  void reset_cards(int i, const std::uint8_t* cards, const Outputs& out);
  // Puts game i in a given position (checked by the caller); the same writes.
  void reset_state(int i, const State& state, const Outputs& out);
  // Deals klondike-random-v1-{numbers[k]} to game indices[k], k < count (the same writes).
  void reset_random(const std::int64_t* indices, const std::int64_t* numbers, int count, const Outputs& out);
  // Game i's state, and game i put back in a saved state (the same writes as reset_state).
  Saved saved(int i) const;
  void restore(int i, const Saved& saved, const Outputs& out);
  // One step of every game. actions: num_envs values in 0..589 (checked by the caller);
  // pending: the deal number each game takes if it is reset in this call.
  void step(const std::int64_t* actions, const std::int64_t* pending, Autoreset mode, const Outputs& out);

 private:
  void step_range(int begin, int end, const std::int64_t* actions, const std::int64_t* pending,
                  Autoreset mode, const Outputs& out);
  void write_row(int i, const Outputs& out) const;
  void write_counters(int i, const Outputs& out) const;
  void deal(int i, std::int64_t number);

  std::vector<Game> games_;
  std::vector<std::int32_t> elapsed_;      // steps since the game's reset (KlondikeEnv's count)
  std::vector<std::uint8_t> needs_reset_;  // next_step mode: the game ended at the last step
  std::vector<std::uint8_t> ended_;        // the game terminated (won, dead end, no progress) since its reset
  int draw_count_;
  bool shaped_reward_;
  int max_steps_;  // 0: never truncate
  int num_threads_;
};

}  // namespace solitaire::klondike::env
