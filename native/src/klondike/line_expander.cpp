#include "klondike/line_expander.hpp"

#include "klondike/talon.hpp"

namespace solitaire::klondike {

namespace {

Action make(ActionKind kind, int src, int dst, int count, Card card) {
  Action a;
  a.kind = kind;
  a.src = src;
  a.dst = dst;
  a.count = count;
  a.card = card;
  return a;
}

// The draws and recycles that make T[q-1] the waste top.
void reach(const Board& board, int q, std::vector<Action>& out) {
  const int n = board.talon_size();
  int p = board.cursor();
  walk_talon(
      n, p, q, board.draw_count(),
      [&](int cards) {
        p += cards;
        out.push_back(make(ActionKind::draw, -1, -1, cards, board.talon_card(p)));
      },
      [&] {
        p = 0;
        out.push_back(make(ActionKind::recycle, -1, -1, 1, -1));
      });
}

}  // namespace

std::vector<Action> expand_line(Board& board, const std::vector<Step>& steps) {
  std::vector<Action> out;
  for (Step step : steps) {
    const int src = step.src;
    const int dst = step.dst;
    switch (step.kind) {
      case StepKind::column_to_foundation:
        out.push_back(make(ActionKind::column_to_foundation, src, -1, 1, board.end_card(src)));
        break;
      case StepKind::talon_to_foundation:
        reach(board, step.q, out);
        out.push_back(make(ActionKind::waste_to_foundation, -1, -1, 1, board.talon_card(step.q)));
        break;
      case StepKind::talon_to_column:
        reach(board, step.q, out);
        out.push_back(make(ActionKind::waste_to_column, -1, dst, 1, board.talon_card(step.q)));
        break;
      case StepKind::column_to_column:
        out.push_back(make(ActionKind::column_to_column, src, dst, step.count,
                           board.at(src, board.length(src) - step.count)));
        break;
      case StepKind::foundation_to_column:
        out.push_back(make(ActionKind::foundation_to_column, src, dst, 1,
                           make_card(board.foundation(src), src)));
        break;
      case StepKind::partial_to_foundation: {
        const int start = board.length(src) - step.count;
        out.push_back(make(ActionKind::column_to_column, src, dst, step.count, board.at(src, start)));
        out.push_back(make(ActionKind::column_to_foundation, src, -1, 1, board.at(src, start - 1)));
        break;
      }
    }
    board.apply(step);
  }
  return out;
}

}  // namespace solitaire::klondike
