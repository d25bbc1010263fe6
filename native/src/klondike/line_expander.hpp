// Turns the search's compound steps into the atomic actions a person would make.
#pragma once

#include <vector>

#include "klondike/action.hpp"
#include "klondike/board.hpp"
#include "klondike/step.hpp"

namespace solitaire::klondike {

// `board` is the position the steps start from; it is played forward (left at the end).
std::vector<Action> expand_line(Board& board, const std::vector<Step>& steps);

}  // namespace solitaire::klondike
