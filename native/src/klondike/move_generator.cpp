#include "klondike/move_generator.hpp"

#include <algorithm>

#include "common/bits.hpp"
#include "klondike/dominance.hpp"
#include "klondike/talon.hpp"

namespace solitaire::klondike {

namespace {

enum Bucket : int {  // in the order tried
  kTalonFoundation = 0,
  kReveal = 1,            // a whole run moves and turns a face-down card over
  kRevealFoundation = 2,  // a column's end goes up and turns a face-down card over
  kFoundation = 3,
  kPartial = 4,
  kTalonColumn = 5,
  kWorryBack = 6,
  kEmptying = 7,  // a whole run leaves a column with nothing under it
};

Step make_step(StepKind kind, int src, int dst, int count, int q) {
  Step s;
  s.kind = kind;
  s.src = static_cast<std::uint8_t>(src);
  s.dst = static_cast<std::uint8_t>(dst);
  s.count = static_cast<std::uint8_t>(count);
  s.q = static_cast<std::uint8_t>(q);
  return s;
}

}  // namespace

MoveGenerator::MoveGenerator(const SolveOptions& options) : options_(options) { reseed(options.order_seed); }

void MoveGenerator::reseed(std::uint64_t seed) {
  shuffle_ = seed != 0;
  rng_ = seed * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL;  // never 0 for xorshift
  if (rng_ == 0) rng_ = 1;
}

bool MoveGenerator::lifted_at_once(const Board& board, int col) const {
  const Card c = board.end_card(col);
  if (c < 0 || !board.goes_up(c)) return false;
  if (!options_.safe_foundation_moves) return false;
  if (is_safe_to_foundation(board, c)) return true;
  if (!options_.canonical_lifts) return false;
  // Rule 6: it can come straight back down where it was (it lies on a face-up card, or it is a
  // King alone in its column), and the card under it on the foundation is safe, so never needed
  // back down (rule 2): lifting it only makes states that reach each other one.
  const int len = board.length(col);
  const bool comes_back =
      len - 1 > board.locked(col) || (len == 1 && board.locked(col) == 0 && rank_of(c) == board.max_rank());
  return comes_back && (rank_of(c) == 1 || is_safe_to_foundation(board, make_card(rank_of(c) - 1, suit_of(c))));
}

bool MoveGenerator::forced_step(const Board& board, Step& step, std::uint32_t columns) const {
  for (std::uint32_t left = columns & ((1u << board.num_columns()) - 1); left != 0; left &= left - 1) {
    const int col = lowest_bit(left);  // in column order
    const Card end = board.end_card(col);
    if (end < 0 || !board.goes_up(end)) continue;  // the common case, without a call
    if (lifted_at_once(board, col)) {
      step = make_step(StepKind::column_to_foundation, col, 0, 1, 0);
      step.is_auto = 1;
      return true;
    }
  }
  if (!options_.safe_foundation_moves || columns != kEverywhere) return false;
  // With draw 1 every talon card is in reach and playing one leaves the others in reach, so
  // the talon is as good as a reserve and the same rule holds there. Not with draw 3: taking a
  // card out shifts the groups of three that the later draws make.
  if (board.draw_count() == 1) {
    for (int q = 1; q <= board.talon_size(); ++q) {
      const Card c = board.talon_card(q);
      if (board.goes_up(c) && is_safe_to_foundation(board, c)) {
        step = make_step(StepKind::talon_to_foundation, 0, 0, 1, q);
        step.is_auto = 1;
        return true;
      }
    }
  }
  return false;
}

void MoveGenerator::emit_chain(const std::vector<Step>& chain, const Step& last) {
  for (Step step : chain) {
    step.chained = 1;
    buckets_[kWorryBack].push_back(step);
  }
  buckets_[kWorryBack].push_back(last);
}

void MoveGenerator::extend_chain(Board& board, int col, std::vector<Step>& chain, int depth) {
  const Card x = board.end_card(col);
  const bool dominance = options_.safe_foundation_moves;
  const std::uint64_t reach = reachable_cursors(board.talon_size(), board.cursor(), board.draw_count());
  for (std::uint64_t left = reach; left != 0; left &= left - 1) {
    const int q = lowest_bit64(left);
    const Card c = board.talon_card(q);
    if (!builds_on(c, x)) continue;
    if (dominance && board.goes_up(c) && is_safe_to_foundation(board, c)) continue;  // as rule 2
    emit_chain(chain, make_step(StepKind::talon_to_column, 0, col, 1, q));
  }
  for (int src = 0; src < board.num_columns(); ++src) {
    if (src == col) continue;
    const int len = board.length(src);
    const int lock = board.locked(src);
    for (int start = lock; start < len; ++start) {
      const Card head = board.at(src, start);
      if (!builds_on(head, x)) continue;
      const int count = len - start;
      if (start == lock) {
        if (lock == 0 && !king_could_use_empty_column(board)) continue;  // rule 5
        emit_chain(chain, make_step(StepKind::column_to_column, src, col, count, 0));
      } else if (!options_.partial_run_rule) {
        emit_chain(chain, make_step(StepKind::column_to_column, src, col, count, 0));
      } else if (board.goes_up(board.at(src, start - 1))) {
        emit_chain(chain, make_step(StepKind::partial_to_foundation, src, col, count, 0));
      }
    }
  }
  if (depth >= kMaxRank) return;
  for (int s = 0; s < kNumSuits; ++s) {
    if (!board.suit_in_play(s) || board.foundation(s) == 0) continue;
    const Card y = make_card(board.foundation(s), s);
    if (!builds_on(y, x) || (dominance && is_safe_to_foundation(board, y))) continue;
    Step down = make_step(StepKind::foundation_to_column, s, col, 1, 0);
    board.apply(down);
    if (lifted_at_once(board, col)) {
      chain.push_back(down);
      extend_chain(board, col, chain, depth + 1);
      chain.pop_back();
    } else {
      emit_chain(chain, down);  // it stays down: a move of its own
    }
    board.undo(down);
  }
}

void MoveGenerator::emit_king_into(Board& board, const Step& empty) {
  const int col = empty.src;
  Step applied = empty;
  board.apply(applied);
  const int king = board.max_rank();
  Step first = empty;
  first.chained = 1;
  // A King from the talon.
  const std::uint64_t reach = reachable_cursors(board.talon_size(), board.cursor(), board.draw_count());
  for (std::uint64_t left = reach; left != 0; left &= left - 1) {
    const int q = lowest_bit64(left);
    if (rank_of(board.talon_card(q)) != king) continue;
    buckets_[kEmptying].push_back(first);
    buckets_[kEmptying].push_back(make_step(StepKind::talon_to_column, 0, col, 1, q));
  }
  // A run headed by a King with something under it (rule 4), from any other column.
  for (int src = 0; src < board.num_columns(); ++src) {
    const int lock = board.locked(src);
    if (src == col || board.length(src) == 0 || lock == 0 || rank_of(board.at(src, lock)) != king) continue;
    buckets_[kEmptying].push_back(first);
    buckets_[kEmptying].push_back(make_step(StepKind::column_to_column, src, col, board.length(src) - lock, 0));
  }
  // A King from its foundation (rule 2: not one the safe rule would send back up), alone or, where
  // rule 6 would lift it again, in a chain that puts a card on it.
  const bool dominance = options_.safe_foundation_moves;
  for (int s = 0; s < kNumSuits; ++s) {
    if (!board.suit_in_play(s) || board.foundation(s) != king) continue;
    if (dominance && is_safe_to_foundation(board, make_card(king, s))) continue;
    Step down = make_step(StepKind::foundation_to_column, s, col, 1, 0);
    board.apply(down);
    if (options_.canonical_lifts && lifted_at_once(board, col)) {
      std::vector<Step> chain{first, down};
      chain.back().chained = 1;
      extend_chain(board, col, chain, 1);
    } else {
      buckets_[kEmptying].push_back(first);
      buckets_[kEmptying].push_back(make_step(StepKind::foundation_to_column, s, col, 1, 0));
    }
    board.undo(down);
  }
  board.undo(applied);
}

void MoveGenerator::emit_talon_with_follow_up(Board& board, const Step& put) {
  const int col = put.dst;
  Step applied = put;
  board.apply(applied);
  // Alone: a card that goes straight up (the state of playing it up) or a King put into an empty
  // column (which changes where rules 5 and 8 see Kings).
  if (board.length(col) == 1 || lifted_at_once(board, col)) {
    board.undo(applied);
    buckets_[kTalonColumn].push_back(put);
    return;
  }
  if (!inner_) {
    SolveOptions plain = options_;
    plain.talon_waits = false;
    plain.order_seed = 0;
    inner_ = std::make_unique<MoveGenerator>(plain);
  }
  follow_.clear();
  inner_->generate(board, follow_);
  board.undo(applied);
  Step first = put;
  first.chained = 1;
  for (std::size_t i = 0; i < follow_.size();) {
    std::size_t end = i + 1;  // the move: follow_[i, end)
    while (follow_[end - 1].chained != 0) ++end;
    bool depends = false;
    for (std::size_t k = i; k < end && !depends; ++k) {
      const Step& s = follow_[k];
      depends = s.kind != StepKind::column_to_column || s.src == col || s.dst == col;
    }
    if (depends) {
      buckets_[kTalonColumn].push_back(first);
      buckets_[kTalonColumn].insert(buckets_[kTalonColumn].end(), follow_.begin() + static_cast<std::ptrdiff_t>(i),
                                    follow_.begin() + static_cast<std::ptrdiff_t>(end));
    }
    i = end;
  }
}

std::uint32_t MoveGenerator::king_sources(const Board& board) const {
  const int king = board.max_rank();
  std::uint32_t sources = 0;
  for (int col = 0; col < board.num_columns(); ++col) {
    const int lock = board.locked(col);
    if (lock > 0 && board.length(col) > lock && rank_of(board.at(col, lock)) == king) sources |= 1u << col;
  }
  const std::uint64_t kings = std::uint64_t{0xF} << (4 * (king - 1));  // card numbers: see cards.hpp
  if ((board.talon_cards() & kings) != 0) {
    const std::uint64_t reach = reachable_cursors(board.talon_size(), board.cursor(), board.draw_count());
    for (std::uint64_t left = reach; left != 0; left &= left - 1) {
      if (rank_of(board.talon_card(lowest_bit64(left))) == king) sources |= kTalonKing;
    }
  }
  for (int s = 0; s < kNumSuits; ++s) {
    if (!board.suit_in_play(s) || board.foundation(s) != king) continue;
    const bool stays_up = options_.safe_foundation_moves && is_safe_to_foundation(board, make_card(king, s));
    if (!stays_up) sources |= kFoundationKing;
  }
  return sources;
}

bool MoveGenerator::king_could_use_empty_column(const Board& board) const {
  // A King in the talon, on its foundation or anywhere in a column but its bottom: some King in
  // play is not at the bottom of a column.
  const int king = board.max_rank();
  int kings_at_bottom = 0;
  for (int col = 0; col < board.num_columns(); ++col) {
    if (board.length(col) > 0 && rank_of(board.at(col, 0)) == king) ++kings_at_bottom;
  }
  int kings_in_play = 0;
  for (int s = 0; s < kNumSuits; ++s) kings_in_play += board.suit_in_play(s) ? 1 : 0;
  return kings_at_bottom < kings_in_play;
}

void MoveGenerator::generate(Board& board, std::vector<Step>& out) {
  for (auto& b : buckets_) b.clear();
  const int ncols = board.num_columns();
  const int king = board.max_rank();
  const bool dominance = options_.safe_foundation_moves;
  int first_empty = -1;
  for (int col = 0; col < ncols; ++col) {
    if (board.length(col) == 0) {
      first_empty = col;
      break;
    }
  }
  // accept[c]: the columns whose end card `c` may go on (one empty column stands for all).
  std::uint8_t accept[kNumCards] = {};
  for (int dst = 0; dst < ncols; ++dst) {
    const Card end = board.end_card(dst);
    if (end < 0 || rank_of(end) == 1) continue;
    // The two suits of the other colour: clubs and spades (0, 3) or diamonds and hearts (1, 2).
    const int low_suit = is_red(end) ? 0 : 1;
    accept[make_card(rank_of(end) - 1, low_suit)] |= static_cast<std::uint8_t>(1 << dst);
    accept[make_card(rank_of(end) - 1, twin_suit(low_suit))] |= static_cast<std::uint8_t>(1 << dst);
  }
  auto for_each_target = [&](Card c, int skip, auto&& emit) {
    unsigned mask = accept[c];
    if (first_empty >= 0 && rank_of(c) == king) mask |= 1u << first_empty;
    if (skip >= 0) mask &= ~(1u << skip);
    for (; mask != 0; mask &= mask - 1) emit(lowest_bit(mask));  // in column order
  };

  bool emptying_checked = false;
  bool emptying_useful = false;
  std::uint32_t kings = 0;  // king_sources(), once emptying is useful
  for (int src = 0; src < ncols; ++src) {
    const int len = board.length(src);
    if (len == 0) continue;
    const int lock = board.locked(src);
    const Card end = board.end_card(src);
    if (board.goes_up(end)) {
      const bool reveals = len - 1 == lock && lock > 0;
      buckets_[reveals ? kRevealFoundation : kFoundation].push_back(
          make_step(StepKind::column_to_foundation, src, 0, 1, 0));
    }
    for (int start = lock; start < len; ++start) {
      const Card head = board.at(src, start);
      const int count = len - start;
      if (start == lock) {
        if (lock == 0) {
          if (rank_of(head) == king) continue;  // a King at the bottom has nowhere better to be
          if (!emptying_checked) {
            emptying_useful = king_could_use_empty_column(board);
            emptying_checked = true;
            if (emptying_useful && options_.kings_follow_emptying) kings = king_sources(board);
          }
          if (!emptying_useful) continue;  // an empty column would serve no King
          // Rule 8 with no King to put into this column next: nothing to emit.
          if (options_.kings_follow_emptying && (kings & ~(1u << src)) == 0) continue;
          for_each_target(head, src, [&](int dst) {
            const Step empty = make_step(StepKind::column_to_column, src, dst, count, 0);
            if (options_.kings_follow_emptying) {
              emit_king_into(board, empty);  // rule 8
            } else {
              buckets_[kEmptying].push_back(empty);
            }
          });
        } else {
          for_each_target(head, src, [&](int dst) {
            buckets_[kReveal].push_back(make_step(StepKind::column_to_column, src, dst, count, 0));
          });
        }
      } else if (options_.partial_run_rule) {
        if (!board.goes_up(board.at(src, start - 1))) continue;
        for_each_target(head, src, [&](int dst) {
          buckets_[kPartial].push_back(make_step(StepKind::partial_to_foundation, src, dst, count, 0));
        });
      } else {
        for_each_target(head, src, [&](int dst) {
          buckets_[kPartial].push_back(make_step(StepKind::column_to_column, src, dst, count, 0));
        });
      }
    }
  }
  // Whole-run moves that turn a card over: the column with more face-down cards first (a stable
  // insertion sort: the lists are short).
  std::vector<Step>& reveal = buckets_[kReveal];
  for (std::size_t i = 1; i < reveal.size(); ++i) {
    const Step step = reveal[i];
    std::size_t j = i;
    for (; j > 0 && board.locked(reveal[j - 1].src) < board.locked(step.src); --j) reveal[j] = reveal[j - 1];
    reveal[j] = step;
  }

  const std::uint64_t reach = reachable_cursors(board.talon_size(), board.cursor(), board.draw_count());
  for (std::uint64_t left = reach; left != 0; left &= left - 1) {
    const int q = lowest_bit64(left);
    const Card c = board.talon_card(q);
    const bool up = board.goes_up(c);
    if (up) buckets_[kTalonFoundation].push_back(make_step(StepKind::talon_to_foundation, 0, 0, 1, q));
    // A card that may safely go up is better up than on a column: from the column it could
    // only go up next, to the same state.
    if (up && dominance && is_safe_to_foundation(board, c)) continue;
    for_each_target(c, -1, [&](int dst) {
      const Step put = make_step(StepKind::talon_to_column, 0, dst, 1, q);
      if (options_.talon_waits) {
        emit_talon_with_follow_up(board, put);  // rule 11
      } else {
        buckets_[kTalonColumn].push_back(put);
      }
    });
  }

  for (int s = 0; s < kNumSuits; ++s) {
    if (!board.suit_in_play(s) || board.foundation(s) == 0) continue;
    const Card c = make_card(board.foundation(s), s);
    // A card the safe rule would send straight back up is never worth bringing down.
    if (dominance && is_safe_to_foundation(board, c)) continue;
    for_each_target(c, -1, [&](int dst) {
      const Step down = make_step(StepKind::foundation_to_column, s, dst, 1, 0);
      if (!options_.canonical_lifts) {
        buckets_[kWorryBack].push_back(down);
        return;
      }
      Step applied = down;
      board.apply(applied);
      if (!lifted_at_once(board, dst)) {
        buckets_[kWorryBack].push_back(down);
      } else {
        // Brought down alone it would go straight back up: it comes down only to take a card.
        chain_.assign(1, down);
        extend_chain(board, dst, chain_, 1);
      }
      board.undo(applied);
    });
  }

  const std::size_t first = out.size();
  for (const auto& b : buckets_) out.insert(out.end(), b.begin(), b.end());
  if (shuffle_) {
    // Shuffle whole moves (a chain stays together).
    starts_.clear();
    for (std::size_t i = first; i < out.size(); ++i) {
      if (i == first || out[i - 1].chained == 0) starts_.push_back(i);
    }
    for (std::size_t i = starts_.size(); i > 1; --i) {
      rng_ ^= rng_ << 13;
      rng_ ^= rng_ >> 7;
      rng_ ^= rng_ << 17;
      std::swap(starts_[i - 1], starts_[rng_ % i]);
    }
    shuffled_.clear();
    for (std::size_t start : starts_) {
      std::size_t i = start;
      do {
        shuffled_.push_back(out[i]);
      } while (out[i++].chained != 0);
    }
    std::copy(shuffled_.begin(), shuffled_.end(), out.begin() + static_cast<std::ptrdiff_t>(first));
  }
}

}  // namespace solitaire::klondike
