#include "klondike/board.hpp"

#include <algorithm>

#include "klondike/talon.hpp"

namespace solitaire::klondike {

Board::Board(const Position& position, int draw_count)
    : num_columns_(static_cast<int>(position.columns.size())),
      draw_(draw_count),
      max_rank_(position.max_rank),
      in_play_(suits_in_play(position)) {
  for (int col = 0; col < num_columns_; ++col) {
    const ColumnCards& spec = position.columns[static_cast<std::size_t>(col)];
    for (Card c : spec.face_down) push_card(col, c);
    for (Card c : spec.face_up) push_card(col, c);
    // The movable run: the longest built run at the end within the face-up cards. A column with
    // no face-up card shows its last card, as the game turns it up by itself.
    int start = static_cast<int>(spec.face_down.size());
    if (start == len_[col] && start > 0) --start;
    int run = len_[col];
    if (run > 0) {
      run = len_[col] - 1;
      while (run > start && builds_on(cards_[col][run], cards_[col][run - 1])) --run;
    }
    locked_[col] = static_cast<std::uint8_t>(run);
    left_ += len_[col];
  }
  // T = waste bottom -> top, then the stock from its top down.
  for (Card c : position.waste) talon_[talon_n_++] = static_cast<std::uint8_t>(c);
  for (auto it = position.stock.rbegin(); it != position.stock.rend(); ++it) {
    talon_[talon_n_++] = static_cast<std::uint8_t>(*it);
  }
  for (int i = 0; i < talon_n_; ++i) {
    talon_origin_[i] = static_cast<std::uint8_t>(i);
    talon_mask_ |= std::uint64_t{1} << i;
    talon_cards_ |= std::uint64_t{1} << talon_[i];
  }
  cursor_ = static_cast<int>(position.waste.size());
  left_ += talon_n_;
  for (int s = 0; s < kNumSuits; ++s) found_[s] = position.foundation[static_cast<std::size_t>(s)];
  plan_compact_key();
}

std::uint8_t Board::remove_from_column(int col, int count) {
  len_[col] = static_cast<std::uint8_t>(len_[col] - count);
  if (len_[col] == locked_[col] && locked_[col] > 0) {
    --locked_[col];
    return 1;
  }
  return 0;
}

void Board::take_talon(Step& step) {
  const int i = step.q - 1;
  step.card = talon_[i];
  step.origin = talon_origin_[i];
  talon_mask_ &= ~(std::uint64_t{1} << talon_origin_[i]);
  talon_cards_ &= ~(std::uint64_t{1} << step.card);
  for (int j = i; j + 1 < talon_n_; ++j) {
    talon_[j] = talon_[j + 1];
    talon_origin_[j] = talon_origin_[j + 1];
  }
  --talon_n_;
  cursor_ = i;
}

void Board::put_back_talon(const Step& step) {
  const int i = step.q - 1;
  for (int j = talon_n_; j > i; --j) {
    talon_[j] = talon_[j - 1];
    talon_origin_[j] = talon_origin_[j - 1];
  }
  talon_[i] = step.card;
  talon_origin_[i] = step.origin;
  talon_mask_ |= std::uint64_t{1} << step.origin;
  talon_cards_ |= std::uint64_t{1} << step.card;
  ++talon_n_;
}

void Board::apply(Step& step) {
  const int src = step.src;
  const int dst = step.dst;
  step.prev_cursor = static_cast<std::uint8_t>(cursor_);
  step.flipped = 0;
  touch(step);
  switch (step.kind) {
    case StepKind::column_to_foundation: {
      step.card = cards_[src][len_[src] - 1];
      ++found_[suit_of(step.card)];
      step.flipped = remove_from_column(src, 1);
      --left_;
      break;
    }
    case StepKind::talon_to_foundation: {
      take_talon(step);
      ++found_[suit_of(step.card)];
      --left_;
      break;
    }
    case StepKind::talon_to_column: {
      take_talon(step);
      push_card(dst, step.card);
      break;
    }
    case StepKind::column_to_column: {
      const int from = len_[src] - step.count;
      step.card = cards_[src][from];  // the run's first card (read by the search, not by undo)
      for (int i = 0; i < step.count; ++i) push_card(dst, cards_[src][from + i]);
      step.flipped = remove_from_column(src, step.count);
      break;
    }
    case StepKind::foundation_to_column: {
      step.card = static_cast<std::uint8_t>(make_card(found_[src], src));
      push_card(dst, step.card);
      --found_[src];
      ++left_;
      break;
    }
    case StepKind::partial_to_foundation: {
      const int from = len_[src] - step.count;
      for (int i = 0; i < step.count; ++i) push_card(dst, cards_[src][from + i]);
      len_[src] = static_cast<std::uint8_t>(from);  // the card below the run is face up
      step.card = cards_[src][from - 1];
      ++found_[suit_of(step.card)];
      step.flipped = remove_from_column(src, 1);
      --left_;
      break;
    }
  }
}

void Board::undo(const Step& step) {
  const int src = step.src;
  const int dst = step.dst;
  auto move_back = [this](int from_col, int to_col, int count) {
    const int start = len_[from_col] - count;
    for (int i = 0; i < count; ++i) set_card(to_col, len_[to_col] + i, cards_[from_col][start + i]);
    len_[to_col] = static_cast<std::uint8_t>(len_[to_col] + count);
    len_[from_col] = static_cast<std::uint8_t>(start);
  };
  touch(step);
  switch (step.kind) {
    case StepKind::column_to_foundation:
      restore_flip(src, step.flipped);
      push_card(src, step.card);
      --found_[suit_of(step.card)];
      ++left_;
      break;
    case StepKind::talon_to_foundation:
      --found_[suit_of(step.card)];
      put_back_talon(step);
      ++left_;
      break;
    case StepKind::talon_to_column:
      --len_[dst];
      put_back_talon(step);
      break;
    case StepKind::column_to_column:
      restore_flip(src, step.flipped);
      move_back(dst, src, step.count);
      break;
    case StepKind::foundation_to_column:
      ++found_[src];
      --len_[dst];
      --left_;
      break;
    case StepKind::partial_to_foundation:
      restore_flip(src, step.flipped);
      push_card(src, step.card);
      --found_[suit_of(step.card)];
      ++left_;
      move_back(dst, src, step.count);
      break;
  }
  cursor_ = step.prev_cursor;
}

std::uint32_t Board::column_field(int col) const {
  const int lock = locked_[col];
  const int run = len_[col] - lock;
  if (run == 0) return static_cast<std::uint32_t>(lock);
  const std::uint32_t suits =
      static_cast<std::uint32_t>((suit_bits_[col] >> (lock + 1)) & ((std::uint64_t{1} << (run - 1)) - 1));
  return static_cast<std::uint32_t>(lock) | static_cast<std::uint32_t>(run) << 6 |
         static_cast<std::uint32_t>(cards_[col][lock]) << 10 | suits << 16;
}

StateKey Board::key() const {
  // Columns with nothing locked hold only a run (or nothing): they are interchangeable, so
  // their fields are sorted over their slots. A column with locked cards keeps its slot, which
  // names those cards (the locked part only ever shrinks from the top).
  std::array<std::uint32_t, kMaxColumns> fields{};
  std::array<int, kMaxColumns> free_slots{};
  std::array<std::uint32_t, kMaxColumns> free_fields{};
  int free_count = 0;
  for (int col = 0; col < num_columns_; ++col) {
    if ((dirty_ >> col) & 1u) fields_[col] = column_field(col);
    fields[col] = fields_[col];
    if (locked_[col] == 0) {
      free_slots[free_count] = col;
      free_fields[free_count++] = fields[col];
    }
  }
  if (free_count > 1) {
    for (int i = 1; i < free_count; ++i) {  // insertion sort: at most 7 fields
      const std::uint32_t f = free_fields[i];
      int j = i;
      for (; j > 0 && free_fields[j - 1] > f; --j) free_fields[j] = free_fields[j - 1];
      free_fields[j] = f;
    }
    for (int i = 0; i < free_count; ++i) fields[free_slots[i]] = free_fields[i];
  }
  dirty_ = 0;
  // The fields at bits 28 * col (absent columns stay 0), then the talon at 196, its cursor at
  // 248 and the always-set bit 255: the layout of state_key.hpp, written word by word.
  static_assert(kMaxColumns == 7, "the key holds seven column fields");
  const auto f = [&fields](int col) { return static_cast<std::uint64_t>(fields[col]); };  // absent: 0
  const std::uint64_t cursor = static_cast<std::uint64_t>(canonical_cursor(talon_n_, cursor_, draw_));
  StateKey key;
  key.w[0] = f(0) | f(1) << 28 | f(2) << 56;
  key.w[1] = f(2) >> 8 | f(3) << 20 | f(4) << 48;
  key.w[2] = f(4) >> 16 | f(5) << 12 | f(6) << 40;
  key.w[3] = f(6) >> 24 | talon_mask_ << 4 | cursor << 56 | std::uint64_t{1} << 63;
  return key;
}

}  // namespace solitaire::klondike

namespace solitaire::klondike {

std::array<std::uint32_t, kMaxColumns> Board::base_fields(int lock_bits) const {
  // Per column its face-down count and first face-up card (0: none, else card + 1) above it;
  // the fields of the columns with nothing face down sorted among those columns' slots.
  std::array<std::uint32_t, kMaxColumns> fields{};
  std::array<int, kMaxColumns> free_slots{};
  std::array<std::uint32_t, kMaxColumns> free_fields{};
  int free_count = 0;
  for (int col = 0; col < num_columns_; ++col) {
    const int lock = locked_[col];
    const std::uint32_t base = len_[col] > lock ? static_cast<std::uint32_t>(cards_[col][lock]) + 1 : 0;
    fields[col] = static_cast<std::uint32_t>(lock) | base << lock_bits;
    if (lock == 0) {
      free_slots[free_count] = col;
      free_fields[free_count++] = fields[col];
    }
  }
  if (free_count > 1) {
    for (int i = 1; i < free_count; ++i) {
      const std::uint32_t f = free_fields[i];
      int j = i;
      for (; j > 0 && free_fields[j - 1] > f; --j) free_fields[j] = free_fields[j - 1];
      free_fields[j] = f;
    }
    for (int i = 0; i < free_count; ++i) fields[free_slots[i]] = free_fields[i];
  }
  return fields;
}

StateKey Board::symmetric_key() const {
  // The cards above a column's first face-up card are not named: given the face-down cards, the
  // foundations and the talon, the face-up cards on the table are known, and each one that is not
  // a column's first lies on one of the two cards one rank higher of the other colour; which one
  // does not change the game's value. Columns with nothing locked are interchangeable (as in key()).
  const std::array<std::uint32_t, kMaxColumns> fields = base_fields(6);
  static_assert(kMaxColumns == 7, "the key holds seven column fields");
  const auto f = [&fields](int col) { return static_cast<std::uint64_t>(fields[col]); };
  std::uint64_t found = 0;
  for (int s = 0; s < kNumSuits; ++s) found |= static_cast<std::uint64_t>(found_[s]) << (4 * s);
  const std::uint64_t cursor = static_cast<std::uint64_t>(canonical_cursor(talon_n_, cursor_, draw_));
  StateKey key;
  key.w[0] = f(0) | f(1) << 12 | f(2) << 24 | f(3) << 36 | f(4) << 48 | f(5) << 60;
  key.w[1] = f(5) >> 4 | f(6) << 8 | found << 20;
  key.w[2] = talon_mask_;
  key.w[3] = cursor | std::uint64_t{1} << 63;
  return key;
}

}  // namespace solitaire::klondike

namespace solitaire::klondike {

namespace {
int bits_for(int value) {  // bits that hold 0..value
  int bits = 0;
  while ((value >> bits) != 0) ++bits;
  return bits;
}
}  // namespace

void Board::plan_compact_key() {
  int max_lock = 0;
  for (int col = 0; col < num_columns_; ++col) max_lock = std::max(max_lock, static_cast<int>(locked_[col]));
  lock_bits_ = bits_for(max_lock);
  talon_bits_ = talon_n_;
  cursor_bits_ = bits_for(talon_n_);
  const int bits = num_columns_ * (lock_bits_ + 6) + 4 * kNumSuits + talon_bits_ + cursor_bits_;
  compact_fits_ = bits <= 126;  // bits 126 (lost flag) and 127 (always set) stay free
}

CompactKey Board::compact_key() const {
  // The fields of symmetric_key(), sorted the same way, packed one after another from bit 0.
  const std::array<std::uint32_t, kMaxColumns> fields = base_fields(lock_bits_);
  CompactKey key;
  int offset = 0;
  const auto put = [&key, &offset](std::uint64_t value, int bits) {
    if (bits == 0) return;
    const int word = offset >> 6;
    const int shift = offset & 63;
    key.w[word] |= value << shift;
    if (shift + bits > 64) key.w[word + 1] |= value >> (64 - shift);
    offset += bits;
  };
  for (int col = 0; col < num_columns_; ++col) put(fields[col], lock_bits_ + 6);
  for (int s = 0; s < kNumSuits; ++s) put(static_cast<std::uint64_t>(found_[s]), 4);
  put(talon_mask_, talon_bits_);
  put(static_cast<std::uint64_t>(canonical_cursor(talon_n_, cursor_, draw_)), cursor_bits_);
  key.w[1] |= std::uint64_t{1} << 63;
  return key;
}

}  // namespace solitaire::klondike
