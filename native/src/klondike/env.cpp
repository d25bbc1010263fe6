#include "klondike/env.hpp"

namespace solitaire::klondike::env {

namespace {

constexpr int kWasteColumnBase = 2;
constexpr int kColumnFoundationBase = 9;
constexpr int kRunBase = 16;
constexpr int kFoundationColumnBase = 562;
constexpr int kMaxRun = 13;

inline int rank_of(int card) { return card >> 2; }  // 0 (Ace) .. 12 (King)
inline int suit_of(int card) { return card & 3; }
inline bool is_red(int card) { return suit_of(card) == 1 || suit_of(card) == 2; }
// solitaire_rl.envs.klondike.rules.fits: card one rank below target, the other colour.
inline bool fits(int card, int target) {
  return rank_of(target) == rank_of(card) + 1 && is_red(target) != is_red(card);
}

struct ActionTable {
  std::array<Move, kNumActions> moves{};
  ActionTable() {
    int i = 0;
    moves[i++] = {kDraw, -1, -1, 1};
    moves[i++] = {kWasteFoundation, -1, -1, 1};
    for (int t = 0; t < kColumns; ++t) moves[i++] = {kWasteColumn, -1, static_cast<std::int8_t>(t), 1};
    for (int s = 0; s < kColumns; ++s) moves[i++] = {kColumnFoundation, static_cast<std::int8_t>(s), -1, 1};
    for (int s = 0; s < kColumns; ++s) {
      for (int t = 0; t < kColumns; ++t) {
        if (t == s) continue;
        for (int n = 1; n <= kMaxRun; ++n) {
          moves[i++] = {kColumnColumn, static_cast<std::int8_t>(s), static_cast<std::int8_t>(t),
                        static_cast<std::uint8_t>(n)};
        }
      }
    }
    for (int f = 0; f < 4; ++f) {
      for (int t = 0; t < kColumns; ++t) {
        moves[i++] = {kFoundationColumn, static_cast<std::int8_t>(f), static_cast<std::int8_t>(t), 1};
      }
    }
  }
};

const ActionTable& table() {
  static const ActionTable t;
  return t;
}

}  // namespace

Move action_move(int action) { return table().moves[static_cast<std::size_t>(action)]; }

int action_index(const Move& m) {
  switch (m.kind) {
    case kDraw:
    case kRecycle:
      return 0;
    case kWasteFoundation:
      return 1;
    case kWasteColumn:
      return kWasteColumnBase + m.dst;
    case kColumnFoundation:
      return kColumnFoundationBase + m.src;
    case kColumnColumn: {
      const int t = m.dst < m.src ? m.dst : m.dst - 1;
      return kRunBase + (m.src * 6 + t) * kMaxRun + (m.count - 1);
    }
    default:
      return kFoundationColumnBase + m.src * 7 + m.dst;
  }
}

Move State::stock_move() const {
  if (nstock || !nwaste) return {kDraw, -1, -1, 1};
  return {kRecycle, -1, -1, 1};
}

bool State::all_stock_seen() const {
  for (int i = 0; i < nstock; ++i) {
    if (!((seen >> stock[i]) & 1U)) return false;
  }
  return true;
}

int State::legal_moves(Move* out) const {
  int n = 0;
  if (is_won()) return 0;
  if (nstock) {
    out[n++] = {kDraw, -1, -1, 1};
  } else if (nwaste) {
    out[n++] = {kRecycle, -1, -1, 1};
  }
  // Each column's end card, and which columns are empty.
  std::array<std::int8_t, 52> end_col;
  end_col.fill(-1);
  bool any_empty = false;
  for (int t = 0; t < kColumns; ++t) {
    if (len[t]) {
      end_col[col[t][len[t] - 1]] = static_cast<std::int8_t>(t);
    } else {
      any_empty = true;
    }
  }
  // The columns that may take `card`: the empty ones for a King, else those ending one rank higher
  // in the other colour.
  auto targets = [&](int card, auto&& emit) {
    if (rank_of(card) == 12) {
      if (any_empty) {
        for (int t = 0; t < kColumns; ++t) {
          if (!len[t]) emit(t);
        }
      }
      return;
    }
    const int r = rank_of(card) + 1;
    const bool red = is_red(card);
    for (int s = 0; s < 4; ++s) {
      const int p = r * 4 + s;
      const bool pred = s == 1 || s == 2;
      if (pred != red && end_col[p] >= 0) emit(end_col[p]);
    }
  };
  if (nwaste) {
    const int w = waste[nwaste - 1];
    if (fnd[suit_of(w)] == rank_of(w)) out[n++] = {kWasteFoundation, -1, -1, 1};
    targets(w, [&](int t) { out[n++] = {kWasteColumn, -1, static_cast<std::int8_t>(t), 1}; });
  }
  for (int s = 0; s < kColumns; ++s) {
    if (!len[s]) continue;
    const int e = col[s][len[s] - 1];
    if (fnd[suit_of(e)] == rank_of(e)) out[n++] = {kColumnFoundation, static_cast<std::int8_t>(s), -1, 1};
  }
  for (int s = 0; s < kColumns; ++s) {
    const int size = len[s];
    for (int i = hidden[s]; i < size; ++i) {
      const auto count = static_cast<std::uint8_t>(size - i);
      targets(col[s][i], [&](int t) {
        if (t != s) out[n++] = {kColumnColumn, static_cast<std::int8_t>(s), static_cast<std::int8_t>(t), count};
      });
    }
  }
  for (int f = 0; f < 4; ++f) {
    const int r = fnd[f];
    if (!r) continue;
    targets((r - 1) * 4 + f, [&](int t) {
      out[n++] = {kFoundationColumn, static_cast<std::int8_t>(f), static_cast<std::int8_t>(t), 1};
    });
  }
  return n;
}

Refusal State::column_refusal(int card, int dst) const {
  if (!len[dst]) return rank_of(card) == 12 ? Refusal::none : Refusal::king_only;
  return fits(card, col[dst][len[dst] - 1]) ? Refusal::none : Refusal::build_down;
}

Refusal State::refusal(const Move& m) const {
  if (is_won()) return Refusal::game_won;
  switch (m.kind) {
    case kDraw:
      return nstock ? Refusal::none : nwaste ? Refusal::stock_empty : Refusal::nothing_to_draw;
    case kRecycle:
      if (nstock) return Refusal::stock_not_empty;
      return nwaste ? Refusal::none : Refusal::nothing_to_draw;
    case kWasteFoundation:
    case kWasteColumn: {
      if (!nwaste) return Refusal::waste_empty;
      const int card = waste[nwaste - 1];
      if (m.kind == kWasteFoundation) {
        return fnd[suit_of(card)] == rank_of(card) ? Refusal::none : Refusal::foundation_order;
      }
      return column_refusal(card, m.dst);
    }
    case kColumnFoundation: {
      if (!len[m.src]) return Refusal::no_card;
      const int card = col[m.src][len[m.src] - 1];
      return fnd[suit_of(card)] == rank_of(card) ? Refusal::none : Refusal::foundation_order;
    }
    case kColumnColumn: {
      if (m.src == m.dst) return Refusal::same_column;
      const int size = len[m.src];
      if (m.count > size) return Refusal::no_card;
      if (m.count > size - hidden[m.src]) return Refusal::face_down;
      return column_refusal(col[m.src][size - m.count], m.dst);
    }
    default: {
      const int r = fnd[m.src];
      if (!r) return Refusal::no_card;
      return column_refusal((r - 1) * 4 + m.src, m.dst);
    }
  }
}

bool State::is_progress(const Move& m) const {
  switch (m.kind) {
    case kDraw: {
      const int lo = nstock > draw ? nstock - draw : 0;
      for (int i = lo; i < nstock; ++i) {
        if (!((seen >> stock[i]) & 1U)) return true;
      }
      return false;
    }
    case kWasteFoundation: {
      const int card = waste[nwaste - 1];
      return rank_of(card) + 1 > best[suit_of(card)] || cards_up() == 51;
    }
    case kColumnFoundation: {
      const int size = len[m.src];
      const int card = col[m.src][size - 1];
      const int h = hidden[m.src];
      return rank_of(card) + 1 > best[suit_of(card)] || (h > 0 && size - 1 == h) || cards_up() == 51;
    }
    case kColumnColumn: {
      const int h = hidden[m.src];
      return h > 0 && len[m.src] - m.count == h;
    }
    default:
      return false;
  }
}

int State::turn_up(int c) {
  const int h = hidden[c];
  if (h && len[c] == h) {
    hidden[c] = static_cast<std::uint8_t>(h - 1);
    seen |= std::uint64_t{1} << col[c][len[c] - 1];
    return 1;
  }
  return 0;
}

int State::apply(const Move& m) {
  switch (m.kind) {
    case kDraw: {
      const int n = nstock < draw ? nstock : draw;
      for (int k = 0; k < n; ++k) {
        const std::uint8_t card = stock[--nstock];
        waste[nwaste++] = card;
        seen |= std::uint64_t{1} << card;
      }
      return 0;
    }
    case kRecycle:
      for (int k = 0; k < nwaste; ++k) stock[k] = waste[nwaste - 1 - k];
      nstock = nwaste;
      nwaste = 0;
      ++recycles;
      return 0;
    case kWasteColumn:
      col[m.dst][len[m.dst]++] = waste[--nwaste];
      return 0;
    case kFoundationColumn: {
      const int f = m.src;
      col[m.dst][len[m.dst]++] = static_cast<std::uint8_t>((fnd[f] - 1) * 4 + f);
      --fnd[f];
      return 0;
    }
    case kColumnColumn: {
      const int s = m.src, t = m.dst, n = m.count;
      const int from = len[s] - n;
      for (int k = 0; k < n; ++k) col[t][len[t] + k] = col[s][from + k];
      len[t] = static_cast<std::uint8_t>(len[t] + n);
      len[s] = static_cast<std::uint8_t>(from);
      return turn_up(s);
    }
    default: {  // to a foundation
      const int card = m.kind == kWasteFoundation ? waste[--nwaste] : col[m.src][--len[m.src]];
      const int s = suit_of(card);
      ++fnd[s];
      if (fnd[s] > best[s]) best[s] = fnd[s];
      return m.kind == kColumnFoundation ? turn_up(m.src) : 0;
    }
  }
}

}  // namespace solitaire::klondike::env
