// Moves that can be played at once without search, because they never make a position worse.
#pragma once

#include <vector>

#include "pyramid/board.hpp"
#include "pyramid/move.hpp"

namespace solitaire::pyramid {

// Plays, for as long as one applies and the game is not won, and appends each move to `line`:
//  * a King that is usable: an available pyramid King, the waste's top, or in variant 000 the
//    stock's top; in variant 001 a King on top of the stock is drawn and then removed;
//  * a forced pair: a usable pyramid card whose partner rank has exactly one card left, that
//    card being usable now (each is then the other's only possible partner).
// Returns how many moves were appended. Why each is safe is argued in solver.hpp.
int play_forced_moves(const Board& board, State& s, std::vector<Move>& line);

// On the last pass, a waste card that can never leave (no partner left in the pyramid, nor in
// variant 000 ahead in the stock) keeps every card beneath it out of play for good. Drops
// those cards from `s.stock`: the state is equivalent, nothing is played. True if it dropped any.
bool drop_buried_waste(const Board& board, State& s);

}  // namespace solitaire::pyramid
