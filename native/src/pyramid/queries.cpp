#include "pyramid/queries.hpp"

#include <cstddef>

#include "pyramid/board.hpp"
#include "pyramid/forced_moves.hpp"
#include "pyramid/move_generator.hpp"
#include "pyramid/relaxation.hpp"

namespace solitaire::pyramid {

std::vector<Move> legal_moves(const Position& position) {
  State s;
  const Board board(position, &s);
  Move moves[kMaxMoves];
  const int n = legal_moves(board, s, moves);
  return std::vector<Move>(moves, moves + n);
}

PruneRule prune_rule(const Position& position) {
  State s;
  const Board board(position, &s);
  int counts[14] = {};
  stock_counts(board, s, counts);
  const PruneRule rule = counting_rule(board, s.removed, counts);
  if (rule != PruneRule::none) return rule;
  Relaxation relaxation(board, std::size_t{1} << 20, nullptr);
  return relaxation.clearable(s) == Relaxation::Answer::not_clearable ? PruneRule::relaxation
                                                                      : PruneRule::none;
}

std::vector<Move> forced_moves(const Position& position) {
  State s;
  const Board board(position, &s);
  std::vector<Move> line;
  play_forced_moves(board, s, line);
  return line;
}

}  // namespace solitaire::pyramid
