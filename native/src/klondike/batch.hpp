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

#include <cstdint>
#include <vector>

#include "klondike/env_game.hpp"

namespace solitaire::klondike::env {

enum class Autoreset : std::uint8_t { next_step = 0, same_step = 1, disabled = 2 };

// Row-major output arrays of one call, each with num_envs rows (caller-owned, preallocated).
struct Outputs {
  std::int64_t* obs;         // num_envs x 190
  std::int8_t* mask;         // num_envs x 590
  double* reward;            // num_envs
  bool* terminated;          // num_envs
  bool* truncated;           // num_envs
  std::uint8_t* refusal;     // num_envs: Refusal of an illegal action, else 0
  std::uint8_t* outcome;     // num_envs: Outcome of a game that ended this step, else 0
  std::int32_t* cards_up;    // num_envs: cards on the foundations (of the game after any reset)
  std::int32_t* recycles;    // num_envs: times the waste was turned over (likewise)
  bool* was_reset;           // num_envs: the game was reset (and took its pending deal) in this call
  std::int64_t* final_obs;   // num_envs x 190, same_step only: the last observation of a game that ended
  std::int8_t* final_mask;   // num_envs x 590, same_step only: its last mask (encodings read it)
};

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

  // Deals 52 cards (Klondike deal order) to game i and writes its row of obs, mask, cards_up, recycles.
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
