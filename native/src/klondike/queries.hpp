// What the solver would do from a position, exposed for tests that compare it with the Python
// engine: the moves it generates (each expanded into atomic actions), its forced move, and the
// plain atomic actions of the independent replayer.
#pragma once

#include <vector>

#include "klondike/action.hpp"
#include "klondike/position.hpp"
#include "klondike/solver.hpp"

namespace solitaire::klondike {

// Every move the search tries from `position`, in its order (options.order_seed shuffles it as
// the search would), each written out as the atomic actions it stands for (draws included). The
// forced step, if any, is not among them: see forced_move. Throws std::invalid_argument for an
// invalid position or draw count.
std::vector<std::vector<Action>> generated_moves(const Position& position, const SolveOptions& options);

// The step the search plays at once from `position` (a safe or canonical lift to a foundation),
// as atomic actions; empty when there is none.
std::vector<Action> forced_move(const Position& position, const SolveOptions& options);

// Every legal atomic action (draw, recycle, then moves), from the replayer written apart from
// the search (replay.hpp).
std::vector<Action> legal_actions(const Position& position, int draw_count);

// Whether the relaxed game of dead_end.hpp proves `position` lost.
bool proved_lost_without_search(const Position& position, int draw_count);

}  // namespace solitaire::klondike
