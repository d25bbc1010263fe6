// Questions about one position, answered without a full search (for tests and tools).
#pragma once

#include <vector>

#include "pyramid/move.hpp"
#include "pyramid/position.hpp"
#include "pyramid/pruning.hpp"

namespace solitaire::pyramid {

// Every legal move, in the order of solitaire_rl.envs.pyramid.PyramidGame.legal_moves.
std::vector<Move> legal_moves(const Position& position);

// The first rule that proves the position lost as it stands (the counting rules, then the
// relaxation), or PruneRule::none.
PruneRule prune_rule(const Position& position);

// The moves the solver plays at once from the position (Kings, forced pairs).
std::vector<Move> forced_moves(const Position& position);

}  // namespace solitaire::pyramid
