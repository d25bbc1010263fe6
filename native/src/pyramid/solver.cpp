#include "pyramid/solver.hpp"

#include <algorithm>
#include <new>

#include "common/bits.hpp"
#include "common/budget.hpp"
#include "common/transposition_table.hpp"
#include "pyramid/board.hpp"
#include "pyramid/forced_moves.hpp"
#include "pyramid/move_generator.hpp"
#include "pyramid/pruning.hpp"
#include "pyramid/relaxation.hpp"

namespace solitaire::pyramid {

namespace {

enum class Outcome { win, loss, stopped };

class Search {
 public:
  // Three quarters of the memory go to the transposition table, one to the relaxation's.
  Search(const Board& board, const Limits& limits, const CancelToken* cancel)
      : board_(board),
        budget_(limits, cancel),
        table_(limits.max_memory_bytes / 4 * 3),
        relaxation_(board, limits.max_memory_bytes / 4, &budget_) {}

  Outcome run(State s) { return visit(s); }
  std::vector<Move>& line() { return line_; }
  Budget& budget() { return budget_; }
  const TranspositionTable& table() const { return table_; }

 private:
  // Which cards a chain has already removed together (see visit).
  struct ChainSeen {
    std::uint32_t with_pyramid[kMaxPyramid] = {};  // bit i: pyramid p with stock card i
    std::uint32_t with_stock[kMaxStock] = {};      // bit j: stock card i with stock card j
    // Marks bit `bit` of `row`; false if it was marked already.
    static bool first_time(std::uint32_t& row, int bit) {
      if ((row >> bit) & 1U) return false;
      row |= 1U << bit;
      return true;
    }
  };

  // The earliest time at which the removed set and stock of `s` are known lost (or later
  // than any time): the state is lost if it is that time or later.
  unsigned lost_from(const State& s) const {
    const std::int32_t time = table_.find(Board::key(s));
    return time >= 0 ? static_cast<unsigned>(time) : kNever;
  }
  bool known_lost(const State& s) const { return lost_from(s) <= Board::time(s); }
  static constexpr unsigned kNever = ~0U;

  // Forced moves (appended to the line), dropping cards out of play for good, and the
  // canonical stock: the state becomes an equivalent one.
  void normalize(State& s) {
    while (play_forced_moves(board_, s, line_) > 0 || drop_buried_waste(board_, s)) {
    }
    board_.canonicalize_stock(s);
  }

  // Sort moves best first: those making the most pyramid cards available, then those removing
  // more pyramid cards; a stable sort keeps the generator's order among equals.
  void order_moves(const State& s, std::uint32_t available, Move* moves, int n) const {
    if (n < 2) return;
    int score[kMaxMoves];
    for (int i = 0; i < n; ++i) {
      std::uint32_t gone = 0;
      if (moves[i].a < kStockPlace) gone |= 1U << moves[i].a;
      if (moves[i].b >= 0 && moves[i].b < kStockPlace) gone |= 1U << moves[i].b;
      const std::uint32_t freed = board_.geometry().available(s.removed | gone) & ~available;
      score[i] = 4 * popcount(freed) + popcount(gone);
    }
    for (int i = 1; i < n; ++i) {  // insertion sort: stable, and n is small
      const Move m = moves[i];
      const int v = score[i];
      int j = i - 1;
      for (; j >= 0 && score[j] < v; --j) {
        moves[j + 1] = moves[j];
        score[j + 1] = score[j];
      }
      moves[j + 1] = m;
      score[j + 1] = v;
    }
  }

  // The pairs that use a stock or waste card at this point of the chain, not yet tried in it.
  int top_moves(const State& s, std::uint32_t available, ChainSeen& seen, Move* out) const {
    int n = 0;
    const int waste = Board::waste_top(s);
    const int stock = board_.stock_top_playable() ? Board::stock_top(s) : -1;
    if (stock >= 0) {
      const int need = 13 - board_.stock_rank(stock);
      for (std::uint32_t m = available & board_.pyramid_rank_mask(need); m != 0; m &= m - 1) {
        const int p = lowest_bit(m);
        if (seen.first_time(seen.with_pyramid[p], stock)) out[n++] = Move::remove(p, kStockPlace);
      }
    }
    if (waste >= 0) {
      const int need = 13 - board_.stock_rank(waste);
      for (std::uint32_t m = available & board_.pyramid_rank_mask(need); m != 0; m &= m - 1) {
        const int p = lowest_bit(m);
        if (seen.first_time(seen.with_pyramid[p], waste)) out[n++] = Move::remove(p, kWastePlace);
      }
      if (stock >= 0 && board_.stock_rank(stock) + board_.stock_rank(waste) == 13 &&
          seen.first_time(seen.with_stock[stock], waste)) {
        out[n++] = Move::remove(kStockPlace, kWastePlace);
      }
    }
    return n;
  }

  // Pairs of two available pyramid cards.
  int pyramid_pairs(std::uint32_t available, Move* out) const {
    int n = 0;
    for (std::uint32_t m = available; m != 0; m &= m - 1) {
      const int p = lowest_bit(m);
      const int need = 13 - board_.pyramid_rank(p);
      const std::uint32_t later = available & ~low_mask(p + 1);
      for (std::uint32_t q = later & board_.pyramid_rank_mask(need); q != 0; q &= q - 1) {
        out[n++] = Move::remove(p, lowest_bit(q));
      }
    }
    return n;
  }

  Outcome try_moves(const State& s, const Move* moves, int n) {
    const std::size_t mark = line_.size();
    State children[kMaxMoves];
    for (int i = 0; i < n; ++i) {  // start the table's cache misses all at once
      children[i] = s;
      board_.play(children[i], moves[i]);
      table_.prefetch(Board::key(children[i]));
    }
    for (int i = 0; i < n; ++i) {
      line_.push_back(moves[i]);
      const Outcome outcome = visit(children[i]);
      if (outcome != Outcome::loss) return outcome;
      line_.resize(mark);
    }
    return Outcome::loss;
  }

  // What stays the same along a chain, for spotting a forced move at a new top cheaply.
  struct ChainFacts {
    std::uint32_t forced_ranks = 0;  // bit r: the one card of rank r left pairs at once if on top
    std::uint32_t lonely_ranks = 0;  // bit r: no pyramid card of rank 13 - r is left
  };

  ChainFacts chain_facts(const State& s, std::uint32_t available) const {
    ChainFacts facts;
    const std::uint32_t present = ~s.removed & board_.geometry().all_mask();
    for (int r = 1; r <= 12; ++r) {
      const std::uint32_t mine = board_.pyramid_rank_mask(r) & present;
      const int left = popcount(mine) + popcount(board_.stock_rank_mask(r) & s.stock);
      if (left == 1 && (available & board_.pyramid_rank_mask(13 - r)) != 0) {
        facts.forced_ranks |= 1U << r;
      }
      if ((board_.pyramid_rank_mask(13 - r) & present) == 0) facts.lonely_ranks |= 1U << r;
    }
    return facts;
  }

  // Whether drop_buried_waste would drop cards, knowing the chain's lonely ranks.
  bool buries_waste(const State& s, const ChainFacts& facts) const {
    const std::uint32_t waste = s.stock & low_mask(s.cursor);
    if ((waste & (waste - 1)) == 0) return false;  // fewer than two waste cards
    const std::uint32_t ahead = s.stock & ~low_mask(s.cursor);
    std::uint32_t stuck = 0;
    for (std::uint32_t ranks = facts.lonely_ranks; ranks != 0; ranks &= ranks - 1) {
      const int r = lowest_bit(ranks);
      if (!board_.stock_top_playable() || (board_.stock_rank_mask(13 - r) & ahead) == 0) {
        stuck |= board_.stock_rank_mask(r);
      }
    }
    const std::uint32_t blockers = waste & stuck;
    return blockers != 0 && (waste & low_mask(highest_bit(blockers))) != 0;
  }

  // Whether a chain state reached by a draw or recycle needs normalising: a King or a forced
  // pair on a top, or (last pass) cards buried for good.
  bool needs_normalizing(const State& s, const ChainFacts& facts) const {
    const int waste = Board::waste_top(s);
    const int stock = Board::stock_top(s);
    const std::uint32_t urgent = facts.forced_ranks | (1U << 13);
    if (waste >= 0 && ((urgent >> board_.stock_rank(waste)) & 1U)) return true;
    if (stock >= 0) {
      const int rank = board_.stock_rank(stock);
      if (rank == 13) return true;
      if (board_.stock_top_playable() && ((facts.forced_ranks >> rank) & 1U)) return true;
    }
    return s.pass == board_.max_passes() && buries_waste(s, facts);
  }

  // Decides state `s`: normalises it (forced moves, cards out of play), looks it up, prunes
  // it, or searches its chain. Records lost states, as found and as normalised.
  Outcome visit(State s) {
    if (budget_.charge()) return Outcome::stopped;
    if (known_lost(s)) return Outcome::loss;
    const State entry = s;
    const std::size_t mark = line_.size();
    normalize(s);
    if (board_.is_won(s)) return Outcome::win;
    const unsigned known = s == entry ? lost_from(entry) : lost_from(s);
    if (known <= Board::time(s)) {
      table_.store_min(Board::key(entry), Board::time(entry));
      line_.resize(mark);
      return Outcome::loss;
    }
    // The relaxation applies the counting rules first, so they need no call here.
    const Relaxation::Answer relaxed = relaxation_.clearable(s);
    if (relaxed == Relaxation::Answer::stopped) return Outcome::stopped;
    const Outcome outcome = relaxed == Relaxation::Answer::clearable ? chain(s, known) : Outcome::loss;
    if (outcome != Outcome::loss) return outcome;
    if (!(s == entry)) table_.store_min(Board::key(entry), Board::time(entry));
    line_.resize(mark);
    return Outcome::loss;
  }

  // Searches the *chain* of the normalised state `head`: the states with the same removed set
  // and stock at this time and later, which drawing and recycling reach (see solver.hpp). Each
  // removal is tried at the first time of the chain it is possible; the chain ends when it has
  // come round a whole pass, or as soon as a draw brings a forced move or buries cards for
  // good (the rest is then another state's chain), or at `known`, a time from which the chain
  // is already known lost. Records `head` lost if it is.
  Outcome chain(const State& head, unsigned known) {
    State s = head;
    const std::uint32_t available = board_.geometry().available(s.removed);
    const ChainFacts facts = chain_facts(s, available);
    ChainSeen seen;
    Move moves[kMaxMoves];
    const std::size_t mark = line_.size();
    int n = pyramid_pairs(available, moves);
    n += top_moves(s, available, seen, moves + n);
    order_moves(s, available, moves, n);
    Outcome outcome = try_moves(s, moves, n);
    while (outcome == Outcome::loss) {
      // Advance the chain by one draw, or a recycle.
      Move step;
      if (Board::stock_top(s) >= 0) {
        step = Move::draw();
      } else if (Board::waste_top(s) >= 0 && s.pass < board_.max_passes()) {
        step = Move::recycle();
      } else {
        break;
      }
      board_.play(s, step);
      line_.push_back(step);
      if (s.pass > head.pass && s.cursor >= head.cursor) break;  // the rest repeats
      if (Board::time(s) >= known) break;                         // the rest is known lost
      if (needs_normalizing(s, facts)) {
        outcome = visit(s);  // the chain goes on as another state
        break;
      }
      n = top_moves(s, available, seen, moves);
      order_moves(s, available, moves, n);
      outcome = try_moves(s, moves, n);
    }
    if (outcome != Outcome::loss) return outcome;
    line_.resize(mark);
    table_.store_min(Board::key(head), Board::time(head));
    return Outcome::loss;
  }

  const Board& board_;
  Budget budget_;
  TranspositionTable table_;
  Relaxation relaxation_;
  std::vector<Move> line_;
};

}  // namespace

SearchResult solve(const Position& position, const Limits& limits, const CancelToken* cancel) {
  State start;
  const Board board(position, &start);  // validates
  SearchResult result;
  Limits capped = limits;
  capped.max_memory_bytes = std::max(limits.max_memory_bytes, kMinMaxMemoryBytes);
  try {
    Search search(board, capped, cancel);
    search.line().reserve(256);
    const Outcome outcome = search.run(start);
    if (outcome == Outcome::win) {
      result.status = Status::winnable;
      result.line = search.line();
    } else if (outcome == Outcome::loss) {
      result.status = Status::not_winnable;
    } else {
      result.status = Status::unknown;
      result.stop_reason = search.budget().reason();
    }
    result.states = search.budget().states();
    result.seconds = search.budget().elapsed_seconds();
    result.tt_entries = search.table().entries();
    result.tt_bytes = search.table().bytes();
  } catch (const std::bad_alloc&) {
    result = SearchResult{};
    result.status = Status::unknown;
    result.stop_reason = StopReason::memory;
  }
  return result;
}

}  // namespace solitaire::pyramid
