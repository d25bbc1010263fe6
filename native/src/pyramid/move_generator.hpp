// The legal moves of a position, in the fixed order of solitaire_rl.envs.pyramid.PyramidGame.legal_moves.
#pragma once

#include "pyramid/board.hpp"
#include "pyramid/move.hpp"

namespace solitaire::pyramid {

// At most 7 available pyramid cards (an antichain of the pyramid) plus the two tops: 9 places,
// so 9 Kings + 36 pairs + 1 draw or recycle.
inline constexpr int kMaxMoves = 48;
inline constexpr int kMaxPlaces = 9;

// Usable places: available pyramid positions ascending, then the stock top (variant 000 only),
// then the waste top. Returns how many were written to `places`.
int usable_places(const Board& board, const State& s, int* places);

// Every legal move: Kings (by place), pairs (by first place, then second), then draw if the
// stock holds a card, else recycle if the waste holds one and a pass is left. None once won.
// Returns how many were written to `out` (room for kMaxMoves).
int legal_moves(const Board& board, const State& s, Move* out);

}  // namespace solitaire::pyramid
