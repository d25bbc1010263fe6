// Pyramid moves, numbered as in solitaire_rl.envs.pyramid.moves.
#pragma once

#include <cstdint>

namespace solitaire::pyramid {

// Places: pyramid positions 0..27, the stock's top card, the waste's top card.
inline constexpr int kStockPlace = 28;
inline constexpr int kWastePlace = 29;

enum class MoveKind : std::int8_t { remove = 0, draw = 1, recycle = 2 };

// REMOVE: `a` a place and `b` its partner (a < b), or -1 for a King removed alone.
struct Move {
  MoveKind kind = MoveKind::draw;
  std::int8_t a = -1;
  std::int8_t b = -1;

  static Move remove(int a, int b = -1) {
    if (b != -1 && b < a) { const int t = a; a = b; b = t; }
    return Move{MoveKind::remove, static_cast<std::int8_t>(a), static_cast<std::int8_t>(b)};
  }
  static Move draw() { return Move{MoveKind::draw, -1, -1}; }
  static Move recycle() { return Move{MoveKind::recycle, -1, -1}; }

  bool operator==(const Move& o) const { return kind == o.kind && a == o.a && b == o.b; }
};

}  // namespace solitaire::pyramid
