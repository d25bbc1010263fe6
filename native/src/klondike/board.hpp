// The search's mutable state: columns, talon and foundations, with exact do/undo and a key.
#pragma once

#include <array>
#include <cstdint>

#include "klondike/cards.hpp"
#include "klondike/position.hpp"
#include "klondike/state_key.hpp"
#include "klondike/step.hpp"

namespace solitaire::klondike {

class Board {
 public:
  static constexpr int kColumnCapacity = 64;

  // `position` must be valid (see validate()); draw_count >= 1.
  Board(const Position& position, int draw_count);

  int num_columns() const { return num_columns_; }
  int draw_count() const { return draw_; }
  int max_rank() const { return max_rank_; }
  int cards_left() const { return left_; }
  bool won() const { return left_ == 0; }
  // Nothing face down and every column one run, with at most one talon card (any number with
  // draw 1): won whatever is played, since the lowest card not up is then always at a column's end
  // or reachable in the talon, and can go up (lonelybot's "sure win").
  bool surely_won() const {
    if (talon_n_ > 1 && draw_ != 1) return false;
    for (int col = 0; col < num_columns_; ++col) {
      if (locked_[col] != 0) return false;
    }
    return true;
  }

  int length(int col) const { return len_[col]; }
  // Cards below index locked(col) are face down (or face up but cut off from the end's run);
  // cards from locked(col) to the end form one face-up run that may move in any part.
  int locked(int col) const { return locked_[col]; }
  Card at(int col, int i) const { return cards_[col][i]; }
  Card end_card(int col) const { return len_[col] ? cards_[col][len_[col] - 1] : -1; }

  int talon_size() const { return talon_n_; }
  int cursor() const { return cursor_; }
  Card talon_card(int q) const { return talon_[q - 1]; }  // q = 1..talon_size()
  std::uint64_t talon_cards() const { return talon_cards_; }  // bit c: card c is in the talon

  int foundation(int suit) const { return found_[suit]; }
  bool suit_in_play(int suit) const { return (in_play_ >> suit) & 1; }
  // The foundation height the rules see: absent suits count as complete.
  int effective_foundation(int suit) const { return suit_in_play(suit) ? found_[suit] : max_rank_; }
  bool goes_up(Card c) const { return found_[suit_of(c)] + 1 == rank_of(c); }

  void apply(Step& step);
  void undo(const Step& step);

  StateKey key() const;
  // A coarser name, equal for states that differ only in which of two same-colour cards of a rank
  // holds which card above it (the suit symmetry; see the design note in solver.hpp): each
  // column's face-down count and first face-up card, the foundations, the talon and its cursor.
  // Layout: 7 column fields of 12 bits (face-down count 6, first run card + 1 or 0: 6) at bits
  // 12 * col, the four foundation heights (4 bits each) at 84, the talon's remaining-card mask at
  // 128, its canonical cursor at 192 and the always-set bit 255.
  StateKey symmetric_key() const;
  // The same name in 128 bits (CompactKey), when compact_key_fits(): each column field is the
  // face-down count in as many bits as the largest one at the start needs (it never grows), then
  // the first run card + 1 (6 bits); the foundations (4 bits each); the talon's remaining-card mask
  // over its starting cards and the canonical cursor in as many bits as those need.
  bool compact_key_fits() const { return compact_fits_; }
  CompactKey compact_key() const;

 private:
  void set_card(int col, int i, Card c) {
    cards_[col][i] = static_cast<std::uint8_t>(c);
    const std::uint64_t bit = std::uint64_t{1} << i;
    suit_bits_[col] = (suit_of(c) >> 1) ? (suit_bits_[col] | bit) : (suit_bits_[col] & ~bit);
  }
  void push_card(int col, Card c) { set_card(col, len_[col]++, c); }
  std::uint8_t remove_from_column(int col, int count);  // returns 1 when a card was turned up
  void restore_flip(int col, std::uint8_t flipped) {
    if (flipped) ++locked_[col];
  }
  void take_talon(Step& step);  // removes T[q-1] into step.card/origin; cursor becomes q - 1
  void put_back_talon(const Step& step);
  std::uint32_t column_field(int col) const;
  // Marks the columns a step changes, so that key() recomputes only their fields.
  void touch(const Step& step) {
    switch (step.kind) {
      case StepKind::talon_to_foundation:
        break;
      case StepKind::column_to_foundation:
        dirty_ |= 1u << step.src;
        break;
      case StepKind::talon_to_column:
      case StepKind::foundation_to_column:
        dirty_ |= 1u << step.dst;
        break;
      case StepKind::column_to_column:
      case StepKind::partial_to_foundation:
        dirty_ |= (1u << step.src) | (1u << step.dst);
        break;
    }
  }

  void plan_compact_key();
  // symmetric_key() and compact_key(): each column's face-down count and base card, `lock_bits`
  // apart, the columns with nothing face down sorted.
  std::array<std::uint32_t, kMaxColumns> base_fields(int lock_bits) const;

  int num_columns_ = 0;
  int lock_bits_ = 0;     // compact_key(): bits of a face-down count
  int talon_bits_ = 0;    // the starting talon's size
  int cursor_bits_ = 0;   // bits of a cursor 0..talon_bits_
  bool compact_fits_ = false;
  int draw_ = 3;
  int max_rank_ = kMaxRank;
  int left_ = 0;
  int in_play_ = 0;
  std::array<std::array<std::uint8_t, kColumnCapacity>, kMaxColumns> cards_{};
  std::array<std::uint64_t, kMaxColumns> suit_bits_{};  // bit i: cards_[col][i] is a hearts/spades
  std::array<std::uint8_t, kMaxColumns> len_{};
  std::array<std::uint8_t, kMaxColumns> locked_{};
  std::array<std::uint8_t, kNumCards> talon_{};
  std::array<std::uint8_t, kNumCards> talon_origin_{};  // index in the starting talon
  std::uint64_t talon_mask_ = 0;                        // starting-talon indices still present
  std::uint64_t talon_cards_ = 0;                       // the same cards, by card number
  int talon_n_ = 0;
  int cursor_ = 0;
  std::array<int, kNumSuits> found_{};
  mutable std::array<std::uint32_t, kMaxColumns> fields_{};  // column_field() as of the last key()
  mutable std::uint32_t dirty_ = ~0u;                         // columns whose field may have changed
};

}  // namespace solitaire::klondike
