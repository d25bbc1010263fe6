// A plain rules engine for atomic actions, written apart from the solver's board so that it can
// check the solver's lines independently: a card per vector slot, every rule checked on the spot.
#pragma once

#include <string>
#include <vector>

#include "klondike/action.hpp"
#include "klondike/position.hpp"

namespace solitaire::klondike {

class ReplayGame {
 public:
  // `position` must be valid; draw_count >= 1.
  ReplayGame(const Position& position, int draw_count);

  // Empty on success; otherwise why the action is illegal (the game is then unchanged).
  std::string apply(const Action& action);
  bool won() const;
  // Every legal atomic action now, in a fixed order (draw, recycle, then moves).
  std::vector<Action> legal_actions() const;
  // A text that is equal for equal game states (face-up flags included).
  std::string state_text() const;
  // The current state as a Position (max_rank as given at the start).
  Position position() const;

 private:
  struct Column {
    std::vector<Card> cards;  // bottom -> end
    int down = 0;             // the first `down` cards are face down
  };
  bool accepts(const Column& col, Card head) const;
  void turn_up(Column& col);

  std::vector<Column> columns_;
  std::vector<Card> stock_;  // bottom -> top
  std::vector<Card> waste_;  // bottom -> top
  int foundation_[kNumSuits] = {0, 0, 0, 0};
  int draw_ = 3;
  int max_rank_ = kMaxRank;
};

// Empty when `line` played from `position` is legal throughout and wins; else what went wrong.
std::string check_winning_line(const Position& position, int draw_count, const std::vector<Action>& line);

}  // namespace solitaire::klondike
