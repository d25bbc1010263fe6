// One Pyramid game as the Gymnasium environment plays it: a second implementation of
// solitaire_rl/envs/pyramid/env.py (its rules: solitaire_rl/envs/pyramid/game.py; its observation:
// solitaire_rl/envs/pyramid/observation.py; its actions: solitaire_rl/envs/pyramid/actions.py), held to it step by step by
// tests/test_native_vec_pyramid.py. The Python env is the reference; this one exists for speed.
//
// A game keeps the 28 pyramid ranks, the 24 stock ranks in the deal's stock order (slot 0 is the
// first card drawn), and five small fields: the removed pyramid positions, the stock slots still
// in play, a cursor (slots before it are the waste, its top the last of them; slots from it on
// are the stock, its top the first of them), the pass, and the slots ever face up. The stock and
// waste always hold the remaining cards of the deal's stock order, so this is the whole state.
#pragma once

#include <array>
#include <cstdint>

#include "pyramid/geometry.hpp"

namespace solitaire::pyramid::env {

inline constexpr int kPlaces = 30;      // pyramid positions 0..27, stock top 28, waste top 29
inline constexpr int kStockPlace = 28;
inline constexpr int kWastePlace = 29;
inline constexpr int kPairActions = kPlaces * (kPlaces - 1) / 2;
inline constexpr int kDrawAction = kPlaces + kPairActions;  // 465
inline constexpr int kRecycleAction = kDrawAction + 1;       // 466
inline constexpr int kNumActions = kRecycleAction + 1;       // 467
inline constexpr int kPyramidFeatures = 15;                  // rank one-hot, on_table, available
inline constexpr int kStockFeatures = 19;  // rank one-hot, seen, in_stock, in_waste, gone, stock_top, waste_top
inline constexpr int kGlobalFeatures = 7;  // pass one-hot (3), stock, waste, pyramid left, stock_top_usable
inline constexpr int kObservationSize = 28 * kPyramidFeatures + 24 * kStockFeatures + kGlobalFeatures;  // 883
inline constexpr int kMaxPassesPlayed = 3;

// Why an action is refused, in the order solitaire_rl.envs.pyramid.game.PyramidGame.refusal checks; the
// values index solitaire_rl.envs.pyramid.vector.REFUSALS (the Refusal enum's members).
enum class Refusal : std::uint8_t {
  none = 0,
  game_won,
  nothing_to_draw,
  stock_not_empty,
  no_recycles_left,
  waste_empty,
  no_card,
  stock_top_unusable,
  covered,
  needs_partner,
  not_thirteen,
};

enum class Outcome : std::uint8_t { none = 0, win, dead_end };

// The places of a pair action (a < b), or of a King action (b = -1).
struct ActionPlaces {
  std::int8_t a;
  std::int8_t b;
};
ActionPlaces action_places(int action);
int pair_action(int a, int b);  // a < b

// A game's whole state: the ranks it was dealt and the five fields of play (see above). What
// Batch::saved/restore carry; restore() takes it as snapshot() gave it (the binding checks it).
struct Snapshot {
  std::array<std::uint8_t, 28> pyramid_rank{};
  std::array<std::uint8_t, 24> stock_rank{};
  std::uint32_t removed = 0;
  std::uint32_t present = 0;
  std::uint32_t seen = 0;
  std::uint8_t cursor = 0;
  std::uint8_t pass = 1;
};

class Game {
 public:
  // A new game of 52 cards (0..51) in the Pyramid deal order: 28 pyramid cards, apex down, then
  // the 24 stock cards from the top. The caller checks the cards form a deck.
  void reset(const std::uint8_t* cards, bool stock_top_playable);

  Refusal refusal(int action) const;
  // Plays a legal action; returns the pyramid cards it removed (0, 1 or 2).
  int apply(int action);

  // Writes the 467-value mask; returns the number of legal actions.
  int write_mask(std::int8_t* out) const;
  void write_observation(float* out) const;

  Snapshot snapshot() const;
  void restore(const Snapshot& snap, bool stock_top_playable);

  bool is_won() const { return removed_ == kAll; }
  int cards_left() const;
  int pass_number() const { return pass_; }

 private:
  static constexpr std::uint32_t kAll = (1U << 28) - 1;
  int stock_top() const;  // slot, or -1
  int waste_top() const;  // slot, or -1
  int rank_at(int place) const;  // 0 if the place holds no card
  void note_seen();

  static const Geometry& geometry();

  std::array<std::uint8_t, 28> pyramid_rank_{};
  std::array<std::uint8_t, 24> stock_rank_{};
  std::uint32_t removed_ = 0;
  std::uint32_t present_ = 0;  // stock slots still in play (stock or waste)
  std::uint32_t seen_ = 0;     // stock slots that have been face up
  std::uint8_t cursor_ = 0;
  std::uint8_t pass_ = 1;
  bool stock_top_playable_ = true;
};

}  // namespace solitaire::pyramid::env
