// One Klondike env game: the rules' state (env.hpp), its no-progress memo (env_progress.hpp), and
// what solitaire_rl.envs.klondike.env.KlondikeEnv writes for it: the 590-value mask, the 190-value observation
// (solitaire_rl/envs/klondike/observer.py) and the step's reward and outcome.
#pragma once

#include <cstdint>

#include "klondike/env.hpp"
#include "klondike/env_progress.hpp"

namespace solitaire::klondike::env {

inline constexpr double kFoundationBonus = 0.02;  // solitaire_rl.envs.klondike.env.FOUNDATION_BONUS
inline constexpr double kTurnUpBonus = 0.02;      // solitaire_rl.envs.klondike.env.TURN_UP_BONUS

// The result of one legal move.
struct StepResult {
  double reward;
  bool terminated;
  Outcome outcome;
};

class Game {
 public:
  // A new game from 52 cards (0..51) in Klondike deal order (solitaire_rl/envs/klondike/layout.py).
  void reset_deal(const std::uint8_t* cards, int draw_count);
  // A game from a given position (the caller checks it); the memo starts afresh.
  void reset_state(const State& state);

  // The mask bit of `action` (0..589) now.
  bool is_legal(int action) const;
  // Why `action` is refused; Refusal::not_legal_now if the rules find no reason.
  Refusal refusal(int action) const;
  // Plays a legal action (is_legal) and judges the position it leads to.
  StepResult play(int action, bool shaped_reward);

  void write_mask(std::int8_t* out) const;
  void write_observation(std::int64_t* out) const;

  const State& state() const { return s_; }
  int cards_up() const { return s_.cards_up(); }
  int recycles() const { return s_.recycles; }

 private:
  void refresh_mask();

  State s_;
  ProgressMemo memo_;
  std::uint64_t mask_[10] = {};  // 590 bits
  std::int16_t legal_[kMaxMoves] = {};  // the legal action indices (a recycle and a draw share 0)
  int num_legal_ = 0;
};

}  // namespace solitaire::klondike::env
