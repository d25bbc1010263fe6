// The atomic actions of a reported line: what a person does, one tap or drag at a time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "klondike/cards.hpp"

namespace solitaire::klondike {

// Numbered as solitaire_rl.envs.klondike.moves: DRAW, RECYCLE, WASTE_FOUNDATION, WASTE_COLUMN,
// COLUMN_FOUNDATION, COLUMN_COLUMN, FOUNDATION_COLUMN.
enum class ActionKind : std::uint8_t {
  draw = 0,                  // turn min(draw count, stock size) cards onto the waste
  recycle = 1,               // stock empty: the waste becomes the stock, in the same order
  waste_to_foundation = 2,
  waste_to_column = 3,
  column_to_foundation = 4,  // the column's end card
  column_to_column = 5,      // the last `count` cards of column `src` (a face-up run)
  foundation_to_column = 6,  // the top card of suit `src`'s foundation
};

struct Action {
  ActionKind kind = ActionKind::draw;
  int src = -1;    // column 0..6, or the suit for foundation_to_column; -1 when unused
  int dst = -1;    // column 0..6; -1 when unused (foundation targets are the card's suit)
  int count = 1;   // column_to_column: cards moved; draw: cards turned; else 1
  Card card = -1;  // the card moved (the run's first card; for a draw the new waste top)

  bool operator==(const Action& o) const {
    return kind == o.kind && src == o.src && dst == o.dst && count == o.count && card == o.card;
  }
};

// Text as solitaire_rl.envs.klondike.moves writes it: draw, recycle, waste>f, waste>c4, c2>f, c2>c5,
// c2:3>c5, fH>c4 (columns 1-based).
std::string action_text(const Action& action);
std::string line_text(const std::vector<Action>& line);  // space-separated

}  // namespace solitaire::klondike
