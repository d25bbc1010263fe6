// A cheap proof that a position is lost: a relaxed game that can still not be won.
#pragma once

#include "klondike/board.hpp"

namespace solitaire::klondike {

// True only when the position cannot be won. It plays a relaxed game: every talon card may go up
// when its turn comes (draw order ignored); a card that has left its column, or could be put on
// the table from the talon or a foundation (a holder for it is free, or it is a King and a
// column is empty), holds any number of cards from then on. A column's end
// card, or a run from it, leaves when a holder for its first card is free or at another column's
// end, or when it goes up; a King leaves for an empty column. Each real move is allowed in the
// relaxed game too, and the relaxed game only gains options as it goes, so playing it greedily
// to the end decides it: if even it cannot send every card up, neither can any real line. It
// finds tableaus that block themselves, such as two columns whose end cards each wait for a card
// buried under the other.
bool structurally_lost(const Board& board);

// The same relaxed game played card by card, as first written: slower, kept to check
// structurally_lost() against (the two must agree on every position).
bool structurally_lost_reference(const Board& board);

}  // namespace solitaire::klondike
