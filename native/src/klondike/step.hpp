// The moves the search makes: compound steps, each expanded into atomic actions for the line.
#pragma once

#include <cstdint>

namespace solitaire::klondike {

enum class StepKind : std::uint8_t {
  column_to_foundation,   // the end card of column `src`
  talon_to_foundation,    // talon card at cursor `q` (reached by draws and recycles)
  talon_to_column,        // talon card at cursor `q` onto column `dst`
  column_to_column,       // the last `count` cards of `src` onto `dst`
  foundation_to_column,   // the top of suit `src`'s foundation onto `dst`
  partial_to_foundation,  // a partial run of `count` cards from `src` to `dst`, then the card
                          // it uncovered in `src` to its foundation
};

struct Step {
  StepKind kind = StepKind::column_to_foundation;
  std::uint8_t src = 0;
  std::uint8_t dst = 0;
  std::uint8_t count = 1;
  std::uint8_t q = 0;         // talon cursor of the card played (1-based)
  std::uint8_t chained = 0;   // 1: the next step in the list belongs to the same move
  // Filled by Board::apply, read by Board::undo.
  std::uint8_t prev_cursor = 0;
  std::uint8_t card = 0;      // the card that went up or left the talon; a run's first card
  std::uint8_t origin = 0;    // its index in the starting talon (talon steps)
  std::uint8_t flipped = 0;   // 1 when the move turned up a face-down card in `src`
  std::uint8_t is_auto = 0;   // played as a forced (dominance) move
};

}  // namespace solitaire::klondike
