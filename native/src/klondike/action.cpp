#include "klondike/action.hpp"

namespace solitaire::klondike {

std::string action_text(const Action& a) {
  const std::string src_col = "c" + std::to_string(a.src + 1);
  const std::string dst_col = "c" + std::to_string(a.dst + 1);
  switch (a.kind) {
    case ActionKind::draw:
      return "draw";
    case ActionKind::recycle:
      return "recycle";
    case ActionKind::waste_to_foundation:
      return "waste>f";
    case ActionKind::waste_to_column:
      return "waste>" + dst_col;
    case ActionKind::column_to_foundation:
      return src_col + ">f";
    case ActionKind::column_to_column:
      return src_col + (a.count != 1 ? ":" + std::to_string(a.count) : std::string()) + ">" + dst_col;
    case ActionKind::foundation_to_column:
      return std::string("f") + (a.src >= 0 && a.src < kNumSuits ? kSuitLetters[a.src] : '?') + ">" +
             dst_col;
  }
  return "?";
}

std::string line_text(const std::vector<Action>& line) {
  std::string out;
  for (const Action& a : line) {
    if (!out.empty()) out += ' ';
    out += action_text(a);
  }
  return out;
}

}  // namespace solitaire::klondike
