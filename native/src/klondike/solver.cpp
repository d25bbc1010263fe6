#include "klondike/solver.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unordered_map>

#include "klondike/board.hpp"
#include "klondike/dead_end.hpp"
#include "klondike/line_expander.hpp"
#include "klondike/move_generator.hpp"
#include "klondike/restart_schedule.hpp"
#include "klondike/sleep_set.hpp"
#include "klondike/visited_table.hpp"

namespace solitaire::klondike {

namespace {

struct KeyHash {
  template <class Key>
  std::size_t operator()(const Key& k) const { return static_cast<std::size_t>(k.hash()); }
};

// The depth-first indexes of the pending states that the table holds, by table slot: a small
// open-addressing map (the pending states are few next to the table), so that the table itself
// holds keys only and a probe touches one cache line.
class PendingIndexes {
 public:
  PendingIndexes() { reset(64); }

  void clear() { reset(64); }

  void put(std::size_t slot, std::uint32_t index) {
    if ((size_ + 1) * 2 > keys_.size()) grow();
    std::size_t i = home(slot);
    while (keys_[i] != kEmpty && keys_[i] != slot) i = (i + 1) & mask_;
    if (keys_[i] == kEmpty) ++size_;
    keys_[i] = slot;
    values_[i] = index;
  }

  bool get(std::size_t slot, std::uint32_t& index) const {
    for (std::size_t i = home(slot); keys_[i] != kEmpty; i = (i + 1) & mask_) {
      if (keys_[i] == slot) {
        index = values_[i];
        return true;
      }
    }
    return false;
  }

  void erase(std::size_t slot) {
    std::size_t hole = home(slot);
    while (keys_[hole] != slot) {
      if (keys_[hole] == kEmpty) return;
      hole = (hole + 1) & mask_;
    }
    keys_[hole] = kEmpty;
    --size_;
    for (std::size_t i = (hole + 1) & mask_; keys_[i] != kEmpty; i = (i + 1) & mask_) {
      const std::size_t h = home(keys_[i]);
      // The entry at i stays when its home lies cyclically in (hole, i].
      if (((i - h) & mask_) < ((i - hole) & mask_)) continue;
      keys_[hole] = keys_[i];
      values_[hole] = values_[i];
      keys_[i] = kEmpty;
      hole = i;
    }
  }

 private:
  static constexpr std::size_t kEmpty = ~std::size_t{0};

  std::size_t home(std::size_t slot) const {
    return static_cast<std::size_t>((static_cast<std::uint64_t>(slot) * 0x9E3779B97F4A7C15ULL) >> 20) & mask_;
  }
  void reset(std::size_t capacity) {
    keys_.assign(capacity, kEmpty);
    values_.assign(capacity, 0);
    mask_ = capacity - 1;
    size_ = 0;
  }
  void grow() {
    std::vector<std::size_t> keys;
    std::vector<std::uint32_t> values;
    keys.swap(keys_);
    values.swap(values_);
    reset(keys.size() * 2);
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (keys[i] != kEmpty) put(keys[i], values[i]);
    }
  }

  std::vector<std::size_t> keys_;
  std::vector<std::uint32_t> values_;
  std::size_t mask_ = 0;
  std::size_t size_ = 0;
};

// Depth-first search over compound steps, iterative so that no position can overflow the call
// stack. The current line is `path_` (forced steps included); the untried alternatives of every
// state on it live in `moves_`, delimited by the frames.
//
// Proving states lost (Tarjan's strongly connected components). Every entered state gets an
// index. A state whose moves are all tried is lost only if no move led to a win *and* no move
// led back to a state still open on the line (a cycle through foundation moves and their
// reverse): when it closes, `lowlink` is the smallest index it reached through such cycles. If
// that is its own index, it and every state entered after it that is still pending form a
// closed component with no way out to a win: all are marked lost in the table. Otherwise they
// stay pending until the component's first state closes. A search stopped early keeps its lost
// marks, which are exact, and forgets the rest; a restarted search skips the lost states.
//
// Sleep sets (sleep_set.hpp): every frame also owns the top of `sleep_`, the moves asleep in its
// state followed by its children's moves proved lost so far, from which its next child inherits.
// Key: StateKey (Board::key or symmetric_key) or CompactKey (Board::compact_key), see solve().
template <class Key>
class Search {
 public:
  Search(const Position& position, const SolveOptions& options, const SolveBudget& budget)
      : position_(position),
        root_(position, options.draw_count),
        board_(root_),
        options_(options),
        generator_(options),
        budget_(budget),
        table_(budget.max_memory_bytes),
        start_(Clock::now()),
        cpu_start_(std::clock()) {}

  SolveResult run() {
    SolveResult result;
    bool won = board_.won() || (options_.surely_won_stops && board_.surely_won());
    bool exhausted = !won && options_.dead_end_check && structurally_lost(board_);
    if (!won && !exhausted && options_.draw1_after_states == 0) exhausted = draw1_proves_lost();
    for (int phase = 0; !won && !exhausted && stop_ == StopReason::none; ++phase) {
      if (phase > 0) {
        restart();
        ++result.restarts;
      }
      generator_.reseed(phase % 2 == 0 ? options_.order_seed : phase_seed(phase));
      // Luby's lengths: measured on the 112 deals of 1-1000 and the 157 of 1001-2500 that took
      // over 50 ms, they cut the states the winnable ones needed by 41% and 37% against lengths
      // that double, and left the unwinnable ones unchanged.
      const std::uint64_t unit = std::max<std::uint64_t>(options_.first_restart_states, 1);
      const std::uint64_t length = luby(static_cast<std::uint64_t>(phase) + 1);
      const std::uint64_t most = ~std::uint64_t{0};
      phase_limit_ = !options_.restarts ? 0 : unit > most / length ? most : unit * length;
      phase_states_ = 0;
      phase_over_ = false;
      won = search();
      exhausted = draw1_lost_ || (!won && !phase_over_ && stop_ == StopReason::none);
    }
    result.seconds = elapsed();
    result.states = states_;
    result.tt_entries = table_.size();
    result.tt_bytes = table_.bytes();
    result.tt_saturated = table_.saturated();
    if (won) {
      Board replay = root_;
      result.status = Status::winnable;
      result.line = expand_line(replay, path_);
    } else if (exhausted) {
      result.status = Status::not_winnable;
    } else {
      result.status = Status::unknown;
      result.stop_reason = stop_;
    }
    return result;
  }

 private:
  using Clock = std::chrono::steady_clock;
  using Table = BasicVisitedTable<Key>;

  Key make_key() const {
    if constexpr (std::is_same_v<Key, CompactKey>) {
      return board_.compact_key();
    } else {
      return symmetric_ ? board_.symmetric_key() : board_.key();
    }
  }
  enum class Entered { won, seen, seen_lost, open };

  struct Frame {
    std::size_t begin;        // untried moves: moves_[next, end)
    std::size_t end;
    std::size_t next;
    std::size_t entry_mark;   // path_ size before the move into this state
    std::size_t forced_mark;  // path_ size before this state's forced steps
    std::uint32_t index;
    std::uint32_t lowlink;
    std::size_t sleep_begin;  // sleep_[sleep_begin, end): the moves asleep here, then children proved lost
    Sleeper move;             // the move into this state (signature 0: none, or a long chain)
  };
  struct Pending {  // a state whose component is not closed yet
    Key key;
    std::size_t slot;  // in the table (kept up to date when slots move); npos when not recorded
    std::uint32_t index;
  };

  std::uint64_t phase_seed(int phase) const {
    std::uint64_t z = options_.order_seed + 0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(phase);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return z == 0 ? 1 : z;
  }

  double elapsed() const {
    if (budget_.cpu_clock) return static_cast<double>(std::clock() - cpu_start_) / CLOCKS_PER_SEC;
    return std::chrono::duration<double>(Clock::now() - start_).count();
  }

  bool out_of_budget() {
    ++states_;
    ++phase_states_;
    if (budget_.max_states != 0 && states_ > budget_.max_states) {
      states_ = budget_.max_states;
      stop_ = StopReason::states;
      return true;
    }
    if ((states_ & 255) == 0) {
      if (draw1_proves_lost()) {
        draw1_lost_ = true;
        phase_over_ = true;  // ends the search; run() sees draw1_lost_
        return true;
      }
      if (stop_ != StopReason::none) return true;
      if (budget_.cancel != nullptr && budget_.cancel->is_cancelled()) {
        stop_ = StopReason::cancelled;
        return true;
      }
      if (budget_.time_limit_s > 0 && elapsed() >= budget_.time_limit_s) {
        stop_ = StopReason::time;
        return true;
      }
    }
    if (phase_limit_ != 0 && phase_states_ > phase_limit_) {
      phase_over_ = true;
      return true;
    }
    return false;
  }

  // The draw-1 bound (see the design note): every line of this game is a line of the same
  // position with draw 1, so a draw-1 search that proves it lost proves this one lost. Tried at a
  // budget check once draw1_after_states states are entered, with as many states as entered so
  // far, again when they have grown eightfold, never again once draw 1 wins or fills its memory;
  // with draw1_after_states 0, first at the root with the whole budget. Its states count in
  // states_ and in the budget; its table gets what this one leaves of the memory cap.
  bool draw1_proves_lost() {
    if (!options_.draw1_bound || options_.draw_count == 1 || draw1_done_) return false;
    if (states_ < std::max<std::uint64_t>(options_.draw1_after_states, draw1_next_)) return false;
    SolveOptions options = options_;
    options.draw_count = 1;
    SolveBudget budget = budget_;
    if (states_ > 0) {
      budget.max_states = states_;
      if (budget_.max_states != 0) budget.max_states = std::min(states_, budget_.max_states - states_);
      if (budget.max_states == 0) return false;
    }
    if (budget_.time_limit_s > 0) budget.time_limit_s = std::max(budget_.time_limit_s - elapsed(), 1e-9);
    const std::size_t used = table_.bytes();
    if (budget_.max_memory_bytes < used + (std::size_t{1} << 20)) return false;
    budget.max_memory_bytes = budget_.max_memory_bytes - used;
    draw1_next_ = std::max<std::uint64_t>(states_, 1) * 8;
    const SolveResult r = solve(position_, options, budget);
    states_ += r.states;
    if (r.status == Status::not_winnable) return true;
    if (r.status == Status::winnable || r.stop_reason == StopReason::memory) draw1_done_ = true;
    if (r.stop_reason == StopReason::cancelled || r.stop_reason == StopReason::time) stop_ = r.stop_reason;
    if (budget_.max_states != 0 && states_ >= budget_.max_states) stop_ = StopReason::states;
    return false;
  }

  // Which kind of candidate for the relaxed game the steps path_[from, to) make: 1 when they
  // move a whole run onto a column, 0 when they put a talon card there, -1 when the relaxed
  // game is not worth playing: they bring a foundation card down or put nothing on a column.
  // Foundation moves cannot make it lose (see the design note); partial runs and chains of
  // foundation cards almost never made it lose on deals 1-1000. Skipping is always exact: the
  // state is searched instead.
  int relaxed_candidate(std::size_t from, std::size_t to) const {
    int kind = -1;
    for (std::size_t i = from; i < to; ++i) {
      const StepKind k = path_[i].kind;
      if (k == StepKind::foundation_to_column) return -1;
      if (k == StepKind::column_to_column) kind = 1;
      if (k == StepKind::talon_to_column && kind < 0) kind = 0;
    }
    if (kind < 0 || to - from != 1) return kind;
    // One card or run put on a column end y: when its first card h can leave again at once in
    // the relaxed game (h goes up, or the other holder of h ends a column), the relaxed game from
    // here does at least all it did from the state before (which was not proved lost), so it
    // would rarely prove anything.
    const Card h = path_[from].card;
    if (board_.goes_up(h)) return -1;
    for (int col = 0; col < board_.num_columns(); ++col) {
      const Card end = board_.end_card(col);
      if (end >= 0 && builds_on(h, end)) return -1;
    }
    return kind;
  }

  // Where the relaxed game keeps failing to prove anything after one kind of move (some deals
  // never block themselves), it is played after one such move in 32 only, until it proves
  // states lost often enough again.
  bool relaxed_check_due(int kind) {
    RelaxedRate& r = relaxed_rate_[kind];
    ++r.candidates;
    if (r.checks < kRelaxedWarmup || r.hits * kRelaxedMinRate >= r.checks) return true;
    return (r.candidates & 31) == 0;
  }
  bool relaxed_lost(int kind) {
    RelaxedRate& r = relaxed_rate_[kind];
    ++r.checks;
    const bool lost = structurally_lost(board_);
    r.hits += lost ? 1 : 0;
    return lost;
  }

  void undo_to(std::size_t mark) {
    while (path_.size() > mark) {
      board_.undo(path_.back());
      path_.pop_back();
    }
  }

  // The move into a child of the top frame's state was proved lost: it sleeps in the children
  // tried next (unless it is a chain of more than two steps).
  void note_lost_child(const Sleeper& move) {
    if (options_.sleep_sets && move.signature != 0 && !frames_.empty()) sleep_.push_back(move);
  }

  void reach_back(std::uint32_t index) {
    if (!frames_.empty()) frames_.back().lowlink = std::min(frames_.back().lowlink, index);
  }

  // Where a move with footprint `print`, played from a state whose forced steps were all played,
  // can have made a forced step: the columns it touched, when no foundation changed (it only
  // moved cards between columns or from the talon); everywhere when one did.
  static std::uint32_t forced_step_columns(std::uint32_t print) {
    return (print & kFootprintFoundations) != 0 ? MoveGenerator::kEverywhere : print & kFootprintColumns;
  }

  std::uint32_t footprint_of(std::size_t from, std::size_t to) const {
    std::uint32_t bits = 0;
    for (std::size_t i = from; i < to; ++i) bits |= footprint(path_[i]);
    return bits;
  }

  // The sleep set of a state entered by a move with footprint `move_print` and then the forced
  // steps path_[forced_mark, end), pushed on sleep_: what slept in its parent or was proved lost
  // from there, and commutes with those steps (sleep_set.hpp).
  void inherit_sleepers(std::uint32_t move_print, std::size_t forced_mark) {
    const std::uint32_t steps = move_print | footprint_of(forced_mark, path_.size());
    const std::size_t parent_end = sleep_.size();
    for (std::size_t i = frames_.back().sleep_begin; i < parent_end; ++i) {
      if ((sleep_[i].footprint & steps) == 0) sleep_.push_back(sleep_[i]);
    }
  }

  // Drops from moves_[begin, end) the moves asleep in sleep_[asleep, end).
  void drop_sleeping_moves(std::size_t begin, std::size_t asleep) {
    std::size_t kept = begin;
    for (std::size_t i = begin; i < moves_.size();) {
      std::size_t end = i + 1;  // the move: moves_[i, end)
      while (moves_[end - 1].chained != 0) ++end;
      const std::uint64_t name = move_signature(&moves_[i], end - i);
      const auto same = [name](const Sleeper& s) { return s.signature == name; };
      const auto first = sleep_.begin() + static_cast<std::ptrdiff_t>(asleep);
      if (name == 0 || std::none_of(first, sleep_.end(), same)) {
        for (; i < end; ++i) moves_[kept++] = moves_[i];
      }
      i = end;
    }
    moves_.resize(kept);
  }

  // Enters the board's current state: plays its forced steps, records it, lists its moves.
  Entered enter(std::size_t entry_mark) {
    if (out_of_budget()) return Entered::seen;
    const std::size_t mark = path_.size();
    const std::uint32_t print = footprint_of(entry_mark, mark);
    Sleeper move{0, print};
    if (options_.sleep_sets && entry_mark < mark) {
      move.signature = move_signature(&path_[entry_mark], mark - entry_mark);
    }
    Step forced;
    // At the root (no move yet) the forced steps are looked for everywhere.
    std::uint32_t columns = entry_mark == mark ? MoveGenerator::kEverywhere : forced_step_columns(print);
    while (generator_.forced_step(board_, forced, columns)) {
      board_.apply(forced);
      path_.push_back(forced);
      columns = MoveGenerator::kEverywhere;  // a foundation changed
    }
    if (board_.won() || (options_.surely_won_stops && board_.surely_won())) return Entered::won;
    const Key key = make_key();
    const std::uint32_t index = next_index_++;
    const typename Table::Probe probe = table_.insert(key);
    if (table_.generation() != generation_) relocate_pending();
    std::size_t slot = probe.slot;
    switch (probe.result) {
      case Table::Insert::added:
        pending_indexes_.put(slot, index);
        break;
      case Table::Insert::present:
        if (table_.is_lost(slot)) {
          undo_to(mark);
          note_lost_child(move);
          return Entered::seen_lost;
        }
        {  // a cycle to a pending state
          std::uint32_t pending_index = 0;  // not found cannot happen; 0 would close nothing
          pending_indexes_.get(slot, pending_index);
          reach_back(pending_index);
        }
        undo_to(mark);
        return Entered::seen;
      case Table::Insert::full: {
        // Not recorded: only the pending states guard against cycles now.
        const auto found = unrecorded_.find(key);
        if (found != unrecorded_.end()) {
          reach_back(found->second);
          undo_to(mark);
          return Entered::seen;
        }
        unrecorded_.emplace(key, index);
        slot = Table::npos;
        break;
      }
    }
    pending_.push_back(Pending{key, slot, index});
    const std::size_t begin = moves_.size();
    // A state that the relaxed game proves lost gets no moves: it closes at once, lost (exact).
    // Only after moves that put cards on columns: other moves only give the relaxed game more
    // (and not after all of those, see relaxed_candidate and relaxed_check_due).
    bool lost = false;
    if (options_.dead_end_check && options_.dead_end_in_search) {
      const int kind = relaxed_candidate(entry_mark, mark);
      lost = kind >= 0 && relaxed_check_due(kind) && relaxed_lost(kind);
    }
    const std::size_t sleep_begin = sleep_.size();
    if (options_.sleep_sets && !frames_.empty()) inherit_sleepers(print, mark);
    if (!lost) {
      generator_.generate(board_, moves_);
      if (sleep_.size() > sleep_begin) drop_sleeping_moves(begin, sleep_begin);
    }
    frames_.push_back(Frame{begin, moves_.size(), begin, entry_mark, mark, index, index, sleep_begin, move});
    return Entered::open;
  }

  // Closes the frame on top: all its moves are tried and none won. Returns its entry mark.
  std::size_t close() {
    const Frame f = frames_.back();
    frames_.pop_back();
    moves_.resize(f.begin);
    sleep_.resize(f.sleep_begin);
    if (f.lowlink == f.index) note_lost_child(f.move);
    undo_to(f.forced_mark);
    if (f.lowlink == f.index) {
      while (true) {
        const Pending p = pending_.back();
        pending_.pop_back();
        if (p.slot == Table::npos) {
          unrecorded_.erase(p.key);
        } else {
          table_.mark_lost(p.slot);
          pending_indexes_.erase(p.slot);
        }
        if (p.index == f.index) break;
      }
    } else {
      reach_back(f.lowlink);
    }
    return f.entry_mark;
  }

  bool search() {
    Entered e = enter(0);
    if (e == Entered::won) return true;
    while (!frames_.empty() && stop_ == StopReason::none && !phase_over_) {
      Frame& f = frames_.back();
      if (f.next == f.end) {
        const std::size_t entry_mark = close();
        if (!frames_.empty()) undo_to(entry_mark);  // the move into the state just closed
        continue;
      }
      const std::size_t before = path_.size();
      bool chained = true;
      while (chained) {  // one move: a step, or a chain of steps
        Step step = moves_[f.next++];
        chained = step.chained != 0;
        board_.apply(step);
        path_.push_back(step);
      }
      e = enter(before);
      if (e == Entered::won) return true;
      if (e == Entered::seen || e == Entered::seen_lost) undo_to(before);
    }
    return false;
  }

  // Back to the root for another order; only the states proved lost are kept. Every recorded
  // state not proved lost is still pending (a state leaves the pending list only when it is
  // marked lost), so forgetting the pending ones leaves exactly the lost ones, at a cost that
  // grows with the pending states rather than with the table (restarts are frequent).
  void restart() {
    undo_to(0);
    moves_.clear();
    frames_.clear();
    sleep_.clear();
    for (const Pending& p : pending_) {
      if (p.slot != Table::npos) table_.erase(p.key);
    }
    table_.reopen();
    pending_.clear();
    unrecorded_.clear();
    pending_indexes_.clear();
    generation_ = table_.generation();
  }

  // The table grew and its slots moved: find the pending states' new slots.
  void relocate_pending() {
    generation_ = table_.generation();
    pending_indexes_.clear();
    for (Pending& p : pending_) {
      if (p.slot == Table::npos) continue;
      p.slot = table_.find(p.key);
      pending_indexes_.put(p.slot, p.index);
    }
  }

  const Position position_;
  const Board root_;
  Board board_;
  SolveOptions options_;
  // Rule 10 needs rule 3's step (a part of a run moved and the card it uncovers played up, in one
  // step): without it the two-step detour it stands for would pass through the state's own name.
  bool symmetric_ = options_.suit_symmetry && options_.partial_run_rule;
  MoveGenerator generator_;
  SolveBudget budget_;
  Table table_;
  std::unordered_map<Key, std::uint32_t, KeyHash> unrecorded_;  // pending, not in the table
  std::vector<Step> path_;
  std::vector<Step> moves_;
  std::vector<Sleeper> sleep_;  // the frames' sleep sets, stacked like moves_
  std::vector<Frame> frames_;
  std::vector<Pending> pending_;
  PendingIndexes pending_indexes_;
  std::uint64_t generation_ = 0;  // the table's generation that the pending slots refer to
  std::uint32_t next_index_ = 1;
  std::uint64_t states_ = 0;
  std::uint64_t phase_states_ = 0;
  static constexpr std::uint64_t kRelaxedWarmup = 30000;   // checks before the rate counts
  static constexpr std::uint64_t kRelaxedMinRate = 1000;   // one state proved lost in so many
  struct RelaxedRate {
    std::uint64_t candidates = 0;
    std::uint64_t checks = 0;
    std::uint64_t hits = 0;  // states proved lost
  };
  RelaxedRate relaxed_rate_[2];  // after talon cards, after runs put on columns
  std::uint64_t phase_limit_ = 0;
  bool phase_over_ = false;
  bool draw1_lost_ = false;          // the draw-1 search proved the position lost
  bool draw1_done_ = false;          // draw 1 won or ran out of memory: not tried again
  std::uint64_t draw1_next_ = 0;     // states entered before draw 1 is tried again
  StopReason stop_ = StopReason::none;
  Clock::time_point start_;
  std::clock_t cpu_start_;
};

}  // namespace

SolveResult solve(const Position& position, const SolveOptions& options, const SolveBudget& budget) {
  const std::string error = validate(position);
  if (!error.empty()) throw std::invalid_argument(error);
  if (options.draw_count < 1 || options.draw_count > kNumCards) {
    throw std::invalid_argument("draw_count must be 1..52, got " + std::to_string(options.draw_count));
  }
  try {
    // Rule 10's name in 16 bytes where the position's fields fit (every deal), else 32.
    if (options.suit_symmetry && options.partial_run_rule && Board(position, options.draw_count).compact_key_fits()) {
      Search<CompactKey> search(position, options, budget);
      return search.run();
    }
    Search<StateKey> search(position, options, budget);
    return search.run();
  } catch (const std::bad_alloc&) {
    SolveResult result;
    result.status = Status::unknown;
    result.stop_reason = StopReason::memory;
    return result;
  }
}

}  // namespace solitaire::klondike
