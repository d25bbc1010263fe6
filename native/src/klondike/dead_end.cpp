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

// The same relaxed game on 64-bit card sets (bit c: card c), for the search, where it runs once
// per new state. Every rule above only ever makes more cards available, columns shorter and
// foundations higher, so the game has one end whatever order its steps are taken in; this
// version takes them in bulk: all holders of a round are found at once by shifts (the holders of
// rank r are the cards of rank r + 1, four bits up), which may take more rounds but ends in the
// same state. The tests compare the two on thousands of positions (klondike_solver_test.cpp).
class FastRelaxedGame {
 public:
  explicit FastRelaxedGame(const Board& board) : board_(board), king_(board.max_rank()) {
    const std::uint64_t one_suit = 0x1111111111111ULL >> (4 * (kMaxRank - king_));  // ranks 1..king
    for (int s = 0; s < kNumSuits; ++s) {
      if (!board.suit_in_play(s)) continue;
      play_ |= one_suit << s;
      kings_ |= bit(make_card(king_, s));
    }
    // Every card in play is in exactly one place (validate()): the talon, a foundation (ranks
    // 1..height) or a column.
    std::uint64_t up_cards = 0;
    for (int s = 0; s < kNumSuits; ++s) {
      up_[s] = board.effective_foundation(s);
      up_cards |= (0x1111111111111ULL >> (4 * (kMaxRank - board.foundation(s)))) << s;
    }
    up_cards &= play_;
    unplaced_ = board.talon_cards() | up_cards;
    in_column_ = play_ & ~unplaced_;
    for (int col = 0; col < board.num_columns(); ++col) {
      const int len = board.length(col);
      len_[col] = len;
      if (len > 0) {
        set_end(col, board.at(col, len - 1));
      } else {
        ++empty_columns_;
      }
    }
  }

  bool won() {
    for (bool changed = true; changed;) {
      changed = play_foundations();
      if (in_column_ == 0) return true;  // nothing is left to block a foundation
      changed |= place_cards();
      changed |= clear_columns();
    }
    for (int s = 0; s < kNumSuits; ++s) {
      if (up_[s] < king_) return false;
    }
    return true;
  }

 private:
  static std::uint64_t bit(Card c) { return std::uint64_t{1} << c; }

  // Cards that hold: at a column's end, or out of their column and placed.
  std::uint64_t available() const { return ((~in_column_ & ~unplaced_) | at_end_) & play_; }

  // Cards below a King with an available holder: a card of the next rank and the other colour.
  std::uint64_t with_holder() const {
    constexpr std::uint64_t kLowBits = 0x1111111111111ULL;  // bit 0 of each rank's four cards
    const std::uint64_t next = available() >> 4;           // card c's bit: c + 4 is available
    const std::uint64_t red = ((next >> 1) | (next >> 2)) & kLowBits;  // diamonds or hearts
    const std::uint64_t black = (next | (next >> 3)) & kLowBits;       // clubs or spades
    return ((red * 9) | (black * 6)) & play_ & ~kings_;  // clubs and spades go on red, ...
  }

  void shorten(int col, int len) {
    at_end_ &= ~bit(board_.at(col, len_[col] - 1));
    len_[col] = len;
    if (len > 0) {
      set_end(col, board_.at(col, len - 1));
    } else {
      ++empty_columns_;
    }
  }

  void set_end(int col, Card c) {
    at_end_ |= bit(c);
    end_column_[c] = static_cast<std::uint8_t>(col);
  }

  // Each suit goes up to its first card still in a column, which follows when it ends its column.
  bool play_foundations() {
    bool changed = false;
    for (int s = 0; s < kNumSuits; ++s) {
      while (up_[s] < king_) {
        // The suit's cards above its foundation that are still in columns, lowest first.
        const std::uint64_t above = std::uint64_t{0x1111111111111ULL} << (4 * up_[s] + s);
        const std::uint64_t waiting = in_column_ & above;
        if (waiting == 0) {
          up_[s] = king_;
          changed = true;
          break;
        }
        const Card next = __builtin_ctzll(waiting);
        const int below = rank_of(next) - 1;  // every card of the suit up to here may go up
        if (below > up_[s]) {
          up_[s] = below;
          changed = true;
        }
        if (!(at_end_ & bit(next))) break;
        const int col = end_column_[next];
        shorten(col, len_[col] - 1);
        in_column_ &= ~bit(next);
        up_[s] = below + 1;
        changed = true;
      }
    }
    return changed;
  }

  bool place_cards() {
    const std::uint64_t placed = unplaced_ & (with_holder() | (empty_columns_ > 0 ? kings_ : 0));
    unplaced_ &= ~placed;
    return placed != 0;
  }

  bool clear_columns() {
    bool changed = false;
    const bool empty = empty_columns_ > 0;
    std::uint64_t held = with_holder();
    for (int col = 0; col < board_.num_columns(); ++col) {
      // The column again after each step: what it uncovers may move as well.
      for (bool moved = true; moved && len_[col] > 0;) {
        moved = false;
        const int len = len_[col];
        const int start = len > board_.locked(col) ? board_.locked(col) : len - 1;
        for (int i = start; i < len; ++i) {
          const Card x = board_.at(col, i);
          const bool king_moves = rank_of(x) == king_ && empty && i > 0;
          if (king_moves || (held & bit(x))) {
            for (int j = i; j < len; ++j) in_column_ &= ~bit(board_.at(col, j));
            shorten(col, i);
            held = with_holder();
            changed = moved = true;
            break;
          }
        }
      }
    }
    return changed;
  }

  const Board& board_;
  const int king_;
  std::uint64_t play_ = 0;       // the cards of the suits in play
  std::uint64_t kings_ = 0;
  std::uint64_t in_column_ = 0;
  std::uint64_t unplaced_ = 0;   // talon and foundation cards not yet able to hold anything
  std::uint64_t at_end_ = 0;     // the cards that end their columns
  std::array<int, kMaxColumns> len_{};
  std::array<int, kNumSuits> up_{};
  std::uint8_t end_column_[kNumCards];  // the column a card ends (read only for cards at an end)
  int empty_columns_ = 0;
};

}  // namespace

bool structurally_lost(const Board& board) {
  FastRelaxedGame game(board);
  return !game.won();
}

bool structurally_lost_reference(const Board& board) {
  RelaxedGame game(board);
  return !game.won();
}

}  // namespace solitaire::klondike
