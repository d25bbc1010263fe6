#include "klondike/env_progress.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace solitaire::klondike::env {

namespace {

constexpr std::size_t kMemoLimit = 1U << 16;  // keys kept per game (about 6 MB) before the memo starts afresh
constexpr int kNone = 52;                     // "no parent" (a King's), never an end card
constexpr int kOnCycle = 255;                 // the waste-length byte of a memo key on the stock cycle

struct Parents {
  std::array<std::uint8_t, 52> first{};
  std::array<std::uint8_t, 52> second{};
  Parents() {
    for (int c = 0; c < 52; ++c) {
      int found = 0;
      first[c] = second[c] = kNone;
      const bool red = (c & 3) == 1 || (c & 3) == 2;
      for (int p = 0; p < 52; ++p) {
        const bool pred = (p & 3) == 1 || (p & 3) == 2;
        if ((p >> 2) == (c >> 2) + 1 && pred != red) (found++ == 0 ? first[c] : second[c]) = static_cast<std::uint8_t>(p);
      }
    }
  }
};

const Parents& parents() {
  static const Parents p;
  return p;
}

// progress.py's _shift_needed: for each talon card, how many cards before it must leave first for a
// draw (from the cycle's start or from the waste as it is) to end on it.
void shift_needed(int w, int n, int step, std::array<std::uint8_t, kMaxTalon>& need) {
  for (int j = 0; j < n; ++j) {
    if (j == n - 1) {
      need[j] = 0;
      continue;
    }
    for (int m = 0; m < step; ++m) {
      if ((j + 1 - m) % step == 0 || (j >= w - 1 && (j - w + 1 - m) % step == 0)) {
        need[j] = static_cast<std::uint8_t>(m);
        break;
      }
    }
  }
}

}  // namespace

bool relaxed_progress(const State& g) {
  const auto& p1 = parents().first;
  const auto& p2 = parents().second;
  std::array<bool, 53> end{};
  std::array<bool, 52> moved{};
  std::array<int, 52> under{};
  std::array<std::uint8_t, 52> column_cards{};
  int ncolumn = 0;
  bool empty_col = false;
  for (int c = 0; c < kColumns; ++c) {
    const int h = g.hidden[c], size = g.len[c];
    if (!size) {
      empty_col = true;
      continue;
    }
    int below = h ? -1 : -2;  // -1: on face-down cards; -2: a column's bottom card
    for (int i = h; i < size; ++i) {
      const int card = g.col[c][i];
      column_cards[ncolumn++] = static_cast<std::uint8_t>(card);
      under[card] = below;
      below = card;
    }
    end[g.col[c][size - 1]] = true;
  }
  std::array<std::uint8_t, kMaxTalon> talon{};
  int n = 0;
  for (int i = 0; i < g.nwaste; ++i) talon[n++] = g.waste[i];
  for (int i = g.nstock - 1; i >= 0; --i) talon[n++] = g.stock[i];
  std::array<std::uint8_t, kMaxTalon> need{};
  shift_needed(g.nwaste, n, g.draw, need);
  std::array<bool, kMaxTalon + 1> played{};
  std::array<int, 4> reach = {g.fnd[0], g.fnd[1], g.fnd[2], g.fnd[3]};
  std::array<bool, 52> on_top{};
  bool changed = true;
  while (changed) {
    changed = false;
    int before = 0;
    for (int j = 0; j < n; ++j) {
      if (played[j]) {
        ++before;
        continue;
      }
      if (played[j + 1] || before >= need[j]) {
        const int card = talon[j];
        on_top[card] = true;
        if (reach[card & 3] >= card >> 2) return true;  // a stock card onto its foundation
        if (end[p1[card]] || end[p2[card]] || ((card >> 2) == 12 && empty_col)) {
          played[j] = end[card] = changed = true;
          ++before;
        }
      }
    }
    for (int k = 0; k < ncolumn; ++k) {
      const int card = column_cards[k];
      if (moved[card]) continue;
      const int below = under[card];
      const int a = p1[card], b = p2[card];
      if ((end[a] && a != below) || (end[b] && b != below) || ((card >> 2) == 12 && empty_col && below != -2) ||
          (end[card] && reach[card & 3] >= card >> 2)) {
        if (below == -1) return true;  // a face-down card turned up
        moved[card] = changed = true;
        if (below >= 0) {
          end[below] = true;
        } else {
          empty_col = true;
        }
      }
    }
    for (int s = 0; s < 4; ++s) {
      int r = reach[s];
      while (r < 13) {
        const int card = r * 4 + s;
        if (!(end[card] || on_top[card])) break;
        if (r + 1 > g.best[s]) return true;  // a foundation above its record
        ++r;
        changed = true;
      }
      reach[s] = r;
      if (r == 13 && *std::min_element(reach.begin(), reach.end()) == 13) return true;  // a win
      for (int card = s; card < r * 4; card += 4) {  // cards that can come down from the foundation
        if (!end[card] && (end[p1[card]] || end[p2[card]] || ((card >> 2) == 12 && empty_col))) {
          end[card] = changed = true;
        }
      }
    }
  }
  return false;
}

SearchKey search_key(const State& g, bool cycle) {
  // The columns in a canonical order: by their face-up cards (then the face-down marker).
  std::array<int, kColumns> order{};
  for (int c = 0; c < kColumns; ++c) order[c] = c;
  auto chunk_less = [&g](int a, int b) {
    const int ha = g.hidden[a], hb = g.hidden[b];
    const std::uint8_t* pa = g.col[a].data() + ha;
    const std::uint8_t* pb = g.col[b].data() + hb;
    const int na = g.len[a] - ha, nb = g.len[b] - hb;
    for (int i = 0; i < na && i < nb; ++i) {
      if (pa[i] != pb[i]) return pa[i] < pb[i];
    }
    if (na != nb) return na < nb;
    return (ha != 0) < (hb != 0);
  };
  for (int i = 1; i < kColumns; ++i) {  // insertion sort: seven columns
    const int c = order[i];
    int j = i;
    for (; j > 0 && chunk_less(c, order[j - 1]); --j) order[j] = order[j - 1];
    order[j] = c;
  }
  SearchKey key;
  std::uint8_t* out = key.bytes.data();
  int n = 0;
  for (int f = 0; f < 4; ++f) out[n++] = g.fnd[f];
  for (const int c : order) {
    for (int i = g.hidden[c]; i < g.len[c]; ++i) out[n++] = g.col[c][i];
    out[n++] = g.hidden[c] ? 65 : 64;
  }
  const int talon = g.nwaste + g.nstock;
  const bool on_cycle = cycle && (g.nwaste == talon || g.nwaste % g.draw == 0);
  out[n++] = static_cast<std::uint8_t>(on_cycle ? kOnCycle : g.nwaste);
  for (int i = 0; i < g.nwaste; ++i) out[n++] = g.waste[i];
  for (int i = g.nstock - 1; i >= 0; --i) out[n++] = g.stock[i];
  key.size = static_cast<std::uint8_t>(n);
  return key;
}

void ProgressMemo::clear() {
  good_.clear();
  bad_.clear();
  std::fill(std::begin(context_), std::end(context_), 255);
  last_valid_ = false;
}

void ProgressMemo::note_move(const State& before, const Move& move, int turned) {
  last_move_ = move;
  last_turned_ = turned != 0;
  last_suit_ = -1;
  if (move.kind == kColumnFoundation) last_suit_ = before.col[move.src][before.len[move.src] - 1] & 3;
}

void ProgressMemo::check_context(const State& s) {
  if (!std::equal(s.best.begin(), s.best.end(), std::begin(context_))) {
    good_.clear();
    bad_.clear();
    std::copy(s.best.begin(), s.best.end(), std::begin(context_));
    last_valid_ = false;
  } else if (good_.size() + bad_.size() > kMemoLimit) {
    good_.clear();
    bad_.clear();
  }
}

bool ProgressMemo::progress_possible(const State& s) {
  check_context(s);
  const bool result = answer(s);
  last_answer_ = result;
  last_valid_ = true;
  return result;
}

bool ProgressMemo::back_to_good(const State& s) const {
  if (!last_valid_ || !last_answer_) return false;
  const Move& m = last_move_;
  Move back{};
  if (m.kind == kColumnColumn && !last_turned_) {
    back = {kColumnColumn, m.dst, m.src, m.count};
  } else if (m.kind == kFoundationColumn) {
    back = {kColumnFoundation, m.dst, -1, 1};
  } else if (m.kind == kColumnFoundation && !last_turned_) {
    back = {kFoundationColumn, static_cast<std::int8_t>(last_suit_), m.src, 1};
  } else {
    return false;
  }
  return s.refusal(back) == Refusal::none;
}

bool ProgressMemo::answer(const State& s) {
  if (s.is_won()) return false;
  if (!s.all_stock_seen()) return true;
  Move moves[kMaxMoves];
  const int n = s.legal_moves(moves);
  if (!n) return false;
  for (int k = 0; k < n; ++k) {
    if (s.is_progress(moves[k])) return true;
  }
  if (back_to_good(s)) return true;
  const SearchKey key = search_key(s, true);
  if (good_.count(key)) return true;
  if (bad_.count(key)) return false;
  if (!relaxed_progress(s)) {
    bad_.insert(key);
    return false;
  }
  return search(s, key);
}

namespace {
struct Frame {
  State state;
  SearchKey key;
  Move moves[kMaxMoves];
  int count = 0;
  int next = 0;
};

// Fills a frame's moves; true if one of them makes progress.
bool expand(Frame& f) {
  f.count = f.state.legal_moves(f.moves);
  f.next = 0;
  for (int k = 0; k < f.count; ++k) {
    if (f.state.is_progress(f.moves[k])) return true;
  }
  return false;
}
}  // namespace

bool ProgressMemo::search(const State& root, const SearchKey& root_key) {
  std::vector<Frame> stack;
  stack.reserve(64);
  KeySet visited;                         // exact keys (the waste length as it is)
  std::vector<SearchKey> met{root_key};   // memo keys of the states visited
  visited.insert(search_key(root, false));
  stack.emplace_back();
  stack.back().state = root;
  stack.back().key = root_key;
  bool found = expand(stack.back());
  while (!found && !stack.empty()) {
    Frame& top = stack.back();
    if (top.next >= top.count) {
      stack.pop_back();
      continue;
    }
    const Move m = top.moves[top.next++];
    State child = top.state;
    child.apply(m);
    SearchKey key = search_key(child, true);
    if (good_.count(key)) {
      found = true;
      break;
    }
    if (bad_.count(key) || !visited.insert(search_key(child, false)).second) continue;
    met.push_back(key);
    if (!relaxed_progress(child)) {
      bad_.insert(key);
      continue;
    }
    stack.emplace_back();
    Frame& f = stack.back();  // `top` may have moved
    f.state = child;
    f.key = key;
    found = expand(f);
  }
  if (found) {
    for (const Frame& f : stack) good_.insert(f.key);
    return true;
  }
  for (const SearchKey& key : met) bad_.insert(key);
  return false;
}

}  // namespace solitaire::klondike::env
