// Sleep sets (Godefroid's partial-order reduction) for the search: moves left untried in a
// state because they commute with the move that led there and were already proved to lose.
//
// Why it is exact. Say move b was tried from state X and X.b was proved lost (a lost mark is a
// proof: no line from there wins), and the search then plays a from X, with its forced steps F.
// If b touches nothing that a and F touch (footprint() below), b is still legal after a.F and
// the two orders end in the same state: X.a.F.b = X.b.a.F, a state reachable from X.b, so lost
// too. b therefore "sleeps" in X.a.F and is not tried there; and it keeps sleeping below, as
// long as the moves made meanwhile do not touch it either (the same argument, one step further).
// A move that leads only to lost states is never part of a winning line, so every winning line
// survives; and a state is still proved lost only when every move it did try was proved lost,
// the skipped ones being lost as well. Only marks that are proofs put a move to sleep: a child
// still pending in an open component (see solver.cpp) may yet turn out to win.
#pragma once

#include <cstddef>
#include <cstdint>

#include "klondike/cards.hpp"
#include "klondike/step.hpp"

namespace solitaire::klondike {

// What a step reads or changes, as bits: its columns (bit c: column c), the talon and the
// foundation of each suit it moves a card to or from. A step's legality and effect depend on
// these alone, so two moves with disjoint footprints commute. `step` must have been applied
// (Board::apply fills in the card that went up).
inline constexpr std::uint32_t kFootprintColumns = 0x7Fu;
inline constexpr std::uint32_t kFootprintTalon = 1u << 7;
inline constexpr std::uint32_t kFootprintFoundations = 0xFu << 8;  // bit 8 + suit
inline std::uint32_t footprint(const Step& step) {
  const std::uint32_t suit = 1u << (8 + suit_of(step.card));
  switch (step.kind) {
    case StepKind::column_to_foundation:
      return 1u << step.src | suit;
    case StepKind::talon_to_foundation:
      return kFootprintTalon | suit;
    case StepKind::talon_to_column:
      return kFootprintTalon | 1u << step.dst;
    case StepKind::column_to_column:
      return 1u << step.src | 1u << step.dst;
    case StepKind::foundation_to_column:
      return 1u << (8 + step.src) | 1u << step.dst;
    case StepKind::partial_to_foundation:  // the uncovered card goes up
      return 1u << step.src | 1u << step.dst | suit;
  }
  return ~0u;
}

// A step's name: in two states that agree on the step's footprint, equal names are the same
// step (same cards, from and to the same places). Never 0.
inline std::uint32_t signature(const Step& step) {
  return 1u | static_cast<std::uint32_t>(step.kind) << 1 | static_cast<std::uint32_t>(step.src) << 4 |
         static_cast<std::uint32_t>(step.dst) << 7 | static_cast<std::uint32_t>(step.count) << 10 |
         static_cast<std::uint32_t>(step.q) << 16;
}

// A move's name: its steps' names, for moves of one or two steps (a chain of two: a run that
// empties its column and the King put there, a card brought down and the card put on it); 0 for
// longer chains, which are not put to sleep.
inline std::uint64_t move_signature(const Step* steps, std::size_t count) {
  if (count == 1) return signature(steps[0]);
  if (count == 2) return signature(steps[0]) | static_cast<std::uint64_t>(signature(steps[1])) << 32;
  return 0;
}

// A move asleep in a state: tried from an ancestor, proved lost there, commuting since.
struct Sleeper {
  std::uint64_t signature;  // move_signature()
  std::uint32_t footprint;  // its steps' footprints together
};

}  // namespace solitaire::klondike
