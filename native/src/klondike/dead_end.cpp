#include "klondike/dead_end.hpp"

#include <array>
#include <cstdint>

namespace solitaire::klondike {

namespace {

// The relaxed game's state: columns shrink from their ends; everything else is free.
class RelaxedGame {
 public:
  explicit RelaxedGame(const Board& board) : board_(board), king_(board.max_rank()) {
    for (int col = 0; col < board.num_columns(); ++col) {
      len_[col] = board.length(col);
      for (int i = 0; i < len_[col]; ++i) {
        in_column_[board.at(col, i)] = true;
        column_of_[board.at(col, i)] = static_cast<std::uint8_t>(col);
      }
      if (len_[col] > 0) {
        at_end_[board.at(col, len_[col] - 1)] = true;
      } else {
        ++empty_columns_;
      }
    }
    for (int q = 1; q <= board.talon_size(); ++q) unplaced_[board.talon_card(q)] = true;
    for (int s = 0; s < kNumSuits; ++s) {
      up_[s] = board.effective_foundation(s);
      for (int r = 1; r <= board.foundation(s); ++r) unplaced_[make_card(r, s)] = true;
    }
  }

  bool won() {
    for (bool changed = true; changed;) changed = play_foundations() | place_cards() | clear_columns();
    for (int s = 0; s < kNumSuits; ++s) {
      if (up_[s] < king_) return false;
    }
    return true;
  }

 private:
  bool at_end(Card c) const { return at_end_[c]; }

  // Column `col` now ends at `len` cards (shorter than before).
  void shorten(int col, int len) {
    at_end_[board_.at(col, len_[col] - 1)] = false;
    len_[col] = len;
    if (len > 0) {
      at_end_[board_.at(col, len - 1)] = true;
    } else {
      ++empty_columns_;
    }
  }

  // A holder: a card at a column's end, or one that has left its column, or a talon or
  // foundation card that could be put on the table. (Talon and foundation cards hold nothing
  // before they are themselves put somewhere.)
  bool available(Card c) const { return (!in_column_[c] && !unplaced_[c]) || at_end(c); }

  bool empty_column() const { return empty_columns_ > 0; }

  // Talon and foundation cards that can be put on the table (a holder is available, or a King
  // and an empty column) become holders themselves.
  bool place_cards() {
    bool changed = false;
    for (Card t = 0; t < kNumCards; ++t) {
      if (!unplaced_[t]) continue;
      if (holder_available(t) || (rank_of(t) == king_ && empty_column())) {
        unplaced_[t] = false;
        changed = true;
      }
    }
    return changed;
  }

  bool holder_available(Card x) const {
    if (rank_of(x) == king_) return false;
    const int low_suit = is_red(x) ? 0 : 1;  // the other colour's suits: 0/3 or 1/2
    for (int s : {low_suit, twin_suit(low_suit)}) {
      if (board_.suit_in_play(s) && available(make_card(rank_of(x) + 1, s))) return true;
    }
    return false;
  }

  bool play_foundations() {
    bool changed = false;
    for (int s = 0; s < kNumSuits; ++s) {
      while (up_[s] < king_) {
        const Card next = make_card(up_[s] + 1, s);
        if (in_column_[next]) {  // a column card keeps holding (at its column's end it could)
          if (!at_end_[next]) break;
          const int col = column_of_[next];
          shorten(col, len_[col] - 1);
          in_column_[next] = false;
        }
        ++up_[s];
        changed = true;
      }
    }
    return changed;
  }

  bool clear_columns() {
    bool changed = false;
    const bool empty = empty_column();
    for (int col = 0; col < board_.num_columns(); ++col) {
      const int len = len_[col];
      if (len == 0) continue;
      // What may move: any part of the run while some of it is left, else the end card alone.
      const int start = len > board_.locked(col) ? board_.locked(col) : len - 1;
      for (int i = start; i < len; ++i) {
        const Card x = board_.at(col, i);
        const bool king_moves = rank_of(x) == king_ && empty && i > 0;
        if (king_moves || holder_available(x)) {
          for (int j = i; j < len; ++j) in_column_[board_.at(col, j)] = false;
          shorten(col, i);
          changed = true;
          break;
        }
      }
    }
    return changed;
  }

  const Board& board_;
  const int king_;
  std::array<int, kMaxColumns> len_{};
  std::array<bool, kNumCards> in_column_{};
  std::array<bool, kNumCards> unplaced_{};  // talon cards not yet able to hold anything
  std::array<int, kNumSuits> up_{};
  std::array<bool, kNumCards> at_end_{};             // the card ends its column
  std::array<std::uint8_t, kNumCards> column_of_{};  // the column of a card in a column
  int empty_columns_ = 0;
};

}  // namespace

bool structurally_lost(const Board& board) {
  RelaxedGame game(board);
  return !game.won();
}

}  // namespace solitaire::klondike
