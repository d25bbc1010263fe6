#include "klondike/queries.hpp"

#include <stdexcept>
#include <string>

#include "klondike/board.hpp"
#include "klondike/dead_end.hpp"
#include "klondike/line_expander.hpp"
#include "klondike/move_generator.hpp"
#include "klondike/replay.hpp"

namespace solitaire::klondike {

namespace {

void check(const Position& position, int draw_count) {
  const std::string error = validate(position);
  if (!error.empty()) throw std::invalid_argument(error);
  if (draw_count < 1 || draw_count > kNumCards) {
    throw std::invalid_argument("draw_count must be 1..52, got " + std::to_string(draw_count));
  }
}

}  // namespace

std::vector<std::vector<Action>> generated_moves(const Position& position, const SolveOptions& options) {
  check(position, options.draw_count);
  Board board(position, options.draw_count);
  MoveGenerator generator(options);
  std::vector<Step> steps;
  generator.generate(board, steps);
  std::vector<std::vector<Action>> out;
  std::vector<Step> move;
  for (const Step& step : steps) {
    move.push_back(step);
    if (step.chained) continue;
    Board scratch = board;
    out.push_back(expand_line(scratch, move));
    move.clear();
  }
  return out;
}

std::vector<Action> forced_move(const Position& position, const SolveOptions& options) {
  check(position, options.draw_count);
  const Board board(position, options.draw_count);
  const MoveGenerator generator(options);
  Step step;
  if (!generator.forced_step(board, step)) return {};
  Board scratch = board;
  return expand_line(scratch, {step});
}

std::vector<Action> legal_actions(const Position& position, int draw_count) {
  check(position, draw_count);
  return ReplayGame(position, draw_count).legal_actions();
}

bool proved_lost_without_search(const Position& position, int draw_count) {
  check(position, draw_count);
  return structurally_lost(Board(position, draw_count));
}

}  // namespace solitaire::klondike
