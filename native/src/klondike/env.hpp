// One Klondike game as the Gymnasium environment plays it: a second implementation of
// solitaire_rl/envs/klondike/env.py (its rules: solitaire_rl/envs/klondike/game.py; its actions: solitaire_rl/envs/klondike/actions.py;
// its observation: solitaire_rl/envs/klondike/observer.py; its episode end: solitaire_rl/envs/klondike/progress.py), held to
// it step by step by tests/test_native_vec_klondike.py. The Python env is the reference; this one
// exists for speed.
//
// A game keeps the columns (bottom to end, the first `hidden` cards face down), the stock and the
// waste (top card last, as the Python engine keeps them), the foundations' top ranks, their records
// (`best`), the recycle count and the cards the player has seen. The no-progress check
// (progress.hpp) keeps a memo per game, as the Python engine does; it only speeds answers up.
#pragma once

#include <array>
#include <cstdint>

namespace solitaire::klondike::env {

inline constexpr int kColumns = 7;
inline constexpr int kMaxColumn = 19;  // 6 face-down cards under a King..Ace run
inline constexpr int kMaxTalon = 24;
inline constexpr int kNumActions = 590;
inline constexpr int kObservationSize = 7 * kMaxColumn + 24 + 24 + 4 + 4 + 1;  // 190
inline constexpr int kMaxRecyclesShown = 31;
inline constexpr int kMaxMoves = 256;

// Move kinds, as solitaire_rl.envs.klondike.moves numbers them.
enum Kind : std::uint8_t { kDraw = 0, kRecycle, kWasteFoundation, kWasteColumn, kColumnFoundation, kColumnColumn,
                           kFoundationColumn };

struct Move {
  std::uint8_t kind;
  std::int8_t src;  // column, or suit for kFoundationColumn; -1 where unused
  std::int8_t dst;  // column; -1 where unused
  std::uint8_t count;  // run length (kColumnColumn), else 1
};

// Why an action is refused, in the order solitaire_rl.envs.klondike.game.KlondikeGame.refusal checks; the values
// index solitaire_rl.envs.klondike.vector.REFUSALS. not_legal_now: masked out although refusal() finds no reason
// (the env's fallback text; never met in play).
enum class Refusal : std::uint8_t {
  none = 0,
  nothing_to_draw,
  stock_empty,
  stock_not_empty,
  waste_empty,
  no_card,
  face_down,
  same_column,
  build_down,
  king_only,
  foundation_order,
  game_won,
  not_legal_now,
};

enum class Outcome : std::uint8_t { none = 0, win, no_progress, dead_end };

// The move of action index `action` (0..589); action 0 is a draw (see stock_move()).
Move action_move(int action);
// The action index of a move (draw and recycle are both 0).
int action_index(const Move& move);

// The position and the records the rules and the observation need.
struct State {
  std::array<std::array<std::uint8_t, kMaxColumn>, kColumns> col{};
  std::array<std::uint8_t, kColumns> len{};
  std::array<std::uint8_t, kColumns> hidden{};
  std::array<std::uint8_t, kMaxTalon> stock{};  // top card last
  std::array<std::uint8_t, kMaxTalon> waste{};  // top card last
  std::uint8_t nstock = 0;
  std::uint8_t nwaste = 0;
  std::array<std::uint8_t, 4> fnd{};   // top rank per suit (C, D, H, S), 0 when empty
  std::array<std::uint8_t, 4> best{};  // highest rank each foundation has held
  std::uint64_t seen = 0;              // bit c: card c has been face up
  std::int32_t recycles = 0;
  std::uint8_t draw = 3;

  int cards_up() const { return fnd[0] + fnd[1] + fnd[2] + fnd[3]; }
  bool is_won() const { return cards_up() == 52; }
  Move stock_move() const;  // draw, or recycle once the stock is empty and the waste is not
  // Every legal move (the order is not the Python engine's: only the set matters here).
  int legal_moves(Move* out) const;
  Refusal refusal(const Move& move) const;
  // Whether a legal move makes progress (solitaire_rl.envs.klondike.game.KlondikeGame.is_progress).
  bool is_progress(const Move& move) const;
  // Plays a legal move; returns 1 if it turned a face-down card up.
  int apply(const Move& move);
  bool all_stock_seen() const;

 private:
  Refusal column_refusal(int card, int dst) const;
  int turn_up(int c);
};

}  // namespace solitaire::klondike::env
