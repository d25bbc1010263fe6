#include "klondike/replay.hpp"

#include <algorithm>

namespace solitaire::klondike {

ReplayGame::ReplayGame(const Position& position, int draw_count)
    : stock_(position.stock), waste_(position.waste), draw_(draw_count), max_rank_(position.max_rank) {
  for (const ColumnCards& spec : position.columns) {
    Column col;
    col.cards = spec.face_down;
    col.cards.insert(col.cards.end(), spec.face_up.begin(), spec.face_up.end());
    col.down = static_cast<int>(spec.face_down.size());
    turn_up(col);
    columns_.push_back(col);
  }
  for (int s = 0; s < kNumSuits; ++s) foundation_[s] = position.foundation[static_cast<std::size_t>(s)];
}

void ReplayGame::turn_up(Column& col) {
  if (col.down > 0 && col.down == static_cast<int>(col.cards.size())) --col.down;
}

bool ReplayGame::accepts(const Column& col, Card head) const {
  if (col.cards.empty()) return rank_of(head) == max_rank_;
  const Card end = col.cards.back();
  return rank_of(end) == rank_of(head) + 1 && is_red(end) != is_red(head);
}

bool ReplayGame::won() const {
  if (!stock_.empty() || !waste_.empty()) return false;
  for (const Column& col : columns_) {
    if (!col.cards.empty()) return false;
  }
  return true;
}

std::string ReplayGame::apply(const Action& a) {
  const int ncols = static_cast<int>(columns_.size());
  auto column_ok = [ncols](int c) { return c >= 0 && c < ncols; };
  auto fits_foundation = [this](Card c) { return foundation_[suit_of(c)] + 1 == rank_of(c); };
  switch (a.kind) {
    case ActionKind::draw: {
      if (stock_.empty()) return "draw: the stock is empty";
      const int n = std::min(draw_, static_cast<int>(stock_.size()));
      if (a.count != n) return "draw: turns " + std::to_string(n) + " cards, not " + std::to_string(a.count);
      for (int i = 0; i < n; ++i) {
        waste_.push_back(stock_.back());
        stock_.pop_back();
      }
      return {};
    }
    case ActionKind::recycle:
      if (!stock_.empty()) return "recycle: the stock is not empty";
      if (waste_.empty()) return "recycle: the waste is empty";
      stock_.assign(waste_.rbegin(), waste_.rend());
      waste_.clear();
      return {};
    case ActionKind::waste_to_foundation: {
      if (waste_.empty()) return "waste>f: the waste is empty";
      if (!fits_foundation(waste_.back())) return "waste>f: " + card_code(waste_.back()) + " does not go up";
      ++foundation_[suit_of(waste_.back())];
      waste_.pop_back();
      return {};
    }
    case ActionKind::waste_to_column: {
      if (waste_.empty()) return "waste>c: the waste is empty";
      if (!column_ok(a.dst)) return "waste>c: no such column";
      if (!accepts(columns_[a.dst], waste_.back())) return "waste>c: " + card_code(waste_.back()) + " does not fit";
      columns_[a.dst].cards.push_back(waste_.back());
      waste_.pop_back();
      return {};
    }
    case ActionKind::column_to_foundation: {
      if (!column_ok(a.src)) return "c>f: no such column";
      Column& col = columns_[a.src];
      if (col.cards.empty()) return "c>f: the column is empty";
      if (!fits_foundation(col.cards.back())) return "c>f: " + card_code(col.cards.back()) + " does not go up";
      ++foundation_[suit_of(col.cards.back())];
      col.cards.pop_back();
      turn_up(col);
      return {};
    }
    case ActionKind::column_to_column: {
      if (!column_ok(a.src) || !column_ok(a.dst) || a.src == a.dst) return "c>c: bad columns";
      Column& from = columns_[a.src];
      const int size = static_cast<int>(from.cards.size());
      if (a.count < 1 || a.count > size - from.down) return "c>c: not that many face-up cards";
      const int start = size - a.count;
      for (int i = start + 1; i < size; ++i) {
        const Card lower = from.cards[i];
        const Card upper = from.cards[i - 1];
        if (!(rank_of(upper) == rank_of(lower) + 1 && is_red(upper) != is_red(lower))) return "c>c: not a run";
      }
      if (!accepts(columns_[a.dst], from.cards[start])) return "c>c: " + card_code(from.cards[start]) + " does not fit";
      Column& to = columns_[a.dst];
      to.cards.insert(to.cards.end(), from.cards.begin() + start, from.cards.end());
      from.cards.resize(start);
      turn_up(from);
      return {};
    }
    case ActionKind::foundation_to_column: {
      if (a.src < 0 || a.src >= kNumSuits || !column_ok(a.dst)) return "f>c: bad suit or column";
      if (foundation_[a.src] == 0) return "f>c: the foundation is empty";
      const Card c = make_card(foundation_[a.src], a.src);
      if (!accepts(columns_[a.dst], c)) return "f>c: " + card_code(c) + " does not fit";
      columns_[a.dst].cards.push_back(c);
      --foundation_[a.src];
      return {};
    }
  }
  return "unknown action";
}

std::vector<Action> ReplayGame::legal_actions() const {
  std::vector<Action> out;
  auto add = [&out](ActionKind kind, int src, int dst, int count) {
    Action a;
    a.kind = kind;
    a.src = src;
    a.dst = dst;
    a.count = count;
    out.push_back(a);
  };
  const int ncols = static_cast<int>(columns_.size());
  if (!stock_.empty()) add(ActionKind::draw, -1, -1, std::min(draw_, static_cast<int>(stock_.size())));
  if (stock_.empty() && !waste_.empty()) add(ActionKind::recycle, -1, -1, 1);
  if (!waste_.empty()) {
    const Card w = waste_.back();
    if (foundation_[suit_of(w)] + 1 == rank_of(w)) add(ActionKind::waste_to_foundation, -1, -1, 1);
    for (int d = 0; d < ncols; ++d) {
      if (accepts(columns_[d], w)) add(ActionKind::waste_to_column, -1, d, 1);
    }
  }
  for (int s = 0; s < ncols; ++s) {
    const Column& col = columns_[s];
    const int size = static_cast<int>(col.cards.size());
    if (size == 0) continue;
    if (foundation_[suit_of(col.cards.back())] + 1 == rank_of(col.cards.back())) {
      add(ActionKind::column_to_foundation, s, -1, 1);
    }
    for (int count = 1; count <= size - col.down; ++count) {
      const int start = size - count;
      if (count > 1) {
        const Card lower = col.cards[start + 1];
        const Card upper = col.cards[start];
        if (!(rank_of(upper) == rank_of(lower) + 1 && is_red(upper) != is_red(lower))) break;
      }
      for (int d = 0; d < ncols; ++d) {
        if (d != s && accepts(columns_[d], col.cards[start])) add(ActionKind::column_to_column, s, d, count);
      }
    }
  }
  for (int s = 0; s < kNumSuits; ++s) {
    if (foundation_[s] == 0) continue;
    const Card c = make_card(foundation_[s], s);
    for (int d = 0; d < ncols; ++d) {
      if (accepts(columns_[d], c)) add(ActionKind::foundation_to_column, s, d, 1);
    }
  }
  return out;
}

std::string ReplayGame::state_text() const {
  std::string out;
  for (const Column& col : columns_) {
    out += std::to_string(col.down) + ':';
    for (Card c : col.cards) out += static_cast<char>('0' + c);
    out += '|';
  }
  for (Card c : stock_) out += static_cast<char>('0' + c);
  out += '|';
  for (Card c : waste_) out += static_cast<char>('0' + c);
  out += '|';
  for (int s = 0; s < kNumSuits; ++s) out += static_cast<char>('0' + foundation_[s]);
  return out;
}

Position ReplayGame::position() const {
  Position p;
  p.max_rank = max_rank_;
  for (const Column& col : columns_) {
    ColumnCards spec;
    spec.face_down.assign(col.cards.begin(), col.cards.begin() + col.down);
    spec.face_up.assign(col.cards.begin() + col.down, col.cards.end());
    p.columns.push_back(spec);
  }
  p.stock = stock_;
  p.waste = waste_;
  for (int s = 0; s < kNumSuits; ++s) p.foundation[static_cast<std::size_t>(s)] = foundation_[s];
  return p;
}

std::string check_winning_line(const Position& position, int draw_count, const std::vector<Action>& line) {
  ReplayGame game(position, draw_count);
  for (std::size_t i = 0; i < line.size(); ++i) {
    const std::string error = game.apply(line[i]);
    if (!error.empty()) return "action " + std::to_string(i + 1) + " (" + action_text(line[i]) + "): " + error;
  }
  if (!game.won()) return "the line ends before the game is won";
  return {};
}

}  // namespace solitaire::klondike
