#include "klondike/policy_inputs.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "klondike/env.hpp"

namespace solitaire::klondike::inputs {
namespace {

using env::Kind;

constexpr int kFaceDown = 52;  // solitaire_rl.envs.klondike.observer.FACE_DOWN (and UNSEEN in the stock)
constexpr int kUnseen = 52;
constexpr int kEmpty = 53;
constexpr int kMaxColumn = env::kMaxColumn;
constexpr int kTalon = env::kMaxTalon;
constexpr int kWaste0 = 7 * kMaxColumn;  // observer.VIEWS
constexpr int kStock0 = kWaste0 + kTalon;
constexpr int kFoundations0 = kStock0 + kTalon;
constexpr int kBest0 = kFoundations0 + 4;
constexpr int kRecycles = kBest0 + 4;

// klondike_compact's per-card features.
constexpr int kWasteTop = 7, kWasteRest = 8, kStockSeen = 9, kFoundation = 10, kUnknown = 11, kDepth = 12;

// klondike_actions's slot: 0 is the action, then ACTION_FEATURES in order.
enum Feature : int {
  fDraw = 1, fRecycle, fWasteToFoundation, fWasteToColumn, fColumnToFoundation, fColumnToColumn,
  fFoundationToColumn, fTurnsUp, fSourceFaceDown, fEmptiesColumn, fToEmptyColumn, fTargetFaceDown,
  fCardsMoved, fRank, fSafeUp, fNextCardKnown, fNextCardPlays, fGreedyScore, fGreedyChoice, fSourceColumn,
  fTargetColumn,
};
static_assert(fTargetColumn == kActionFeatures);

// solitaire_rl.agents.greedy.klondike's scores.
constexpr double kTurnUp = 50.0, kPerFaceDown = 5.0, kSafeFoundation = 40.0, kEarlyFoundation = 0.5,
                 kWasteToColumn = 10.0, kEmptyForKing = 3.0, kShuffle = -1.0, kFromFoundation = -2.0, kStock = 1.0;

constexpr bool red(int card) { return (card & 3) == 1 || (card & 3) == 2; }

float value(double v) { return static_cast<float>(v); }  // as NumPy stores a Python float in float32

// What the player sees, decoded as solitaire_rl.agents.greedy.klondike.KlondikeView decodes it.
struct View {
  std::array<int, 7> down{};
  std::array<int, 7> nup{};
  std::array<std::array<int, kMaxColumn>, 7> up{};  // from the card on the face-down ones to the end
  int nwaste = 0;
  std::array<int, kTalon> waste{};  // from the top
  int nstock = 0;
  std::array<int, kTalon> stock{};  // in draw order, kUnseen if never seen
  std::array<int, 4> fnd{};
  std::array<int, 4> best{};
  int recycles = 0;

  // False for a vector no environment writes (a slot out of its range or out of its order).
  bool decode(const std::int64_t* obs) {
    for (int c = 0; c < 7; ++c) {
      const std::int64_t* col = obs + c * kMaxColumn;
      int i = 0;
      while (i < kMaxColumn && col[i] == kFaceDown) ++i;
      down[c] = i;
      while (i < kMaxColumn && col[i] >= 0 && col[i] < 52) up[c][nup[c]++] = static_cast<int>(col[i++]);
      while (i < kMaxColumn && col[i] == kEmpty) ++i;
      if (i != kMaxColumn) return false;
    }
    auto talon = [obs](int start, int top, std::array<int, kTalon>& cards, int& n) {
      int i = 0;
      while (i < kTalon && obs[start + i] >= 0 && obs[start + i] <= top) cards[n++] = static_cast<int>(obs[start + i++]);
      while (i < kTalon && obs[start + i] == kEmpty) ++i;
      return i == kTalon;
    };
    if (!talon(kWaste0, 51, waste, nwaste) || !talon(kStock0, kUnseen, stock, nstock)) return false;
    for (int s = 0; s < 4; ++s) {
      const std::int64_t f = obs[kFoundations0 + s], b = obs[kBest0 + s];
      if (f < 0 || f > 13 || b < 0 || b > 13) return false;
      fnd[s] = static_cast<int>(f);
      best[s] = static_cast<int>(b);
    }
    if (obs[kRecycles] < 0 || obs[kRecycles] > env::kMaxRecyclesShown) return false;
    recycles = static_cast<int>(obs[kRecycles]);
    return true;
  }

  bool safe_to_foundation(int card) const {
    const int rank = (card >> 2) + 1;
    if (rank <= 2) return true;
    int lowest = 13;
    for (int s = 0; s < 4; ++s) {
      if (red(s) != red(card)) lowest = std::min(lowest, fnd[s]);
    }
    return lowest >= rank - 1;
  }

  bool king_waiting() const {
    if (nwaste > 0 && waste[0] >> 2 == 12) return true;
    for (int c = 0; c < 7; ++c) {
      if (nup[c] > 0 && up[c][0] >> 2 == 12 && down[c] > 0) return true;
    }
    return false;
  }
};

void write_compact(const View& v, float* out) {
  std::fill(out, out + kCompactSize, 0.0f);
  for (int card = 0; card < 52; ++card) out[card * kCardFeatures + kUnknown] = 1.0f;
  auto place = [out](int card, int flag, double depth) {
    float* row = out + card * kCardFeatures;
    row[kUnknown] = 0.0f;
    row[flag] = 1.0f;
    row[kDepth] = value(depth);
  };
  for (int c = 0; c < 7; ++c) {
    for (int i = 0; i < v.nup[c]; ++i) place(v.up[c][i], c, (v.nup[c] - 1 - i) / 12.0);
  }
  for (int i = 0; i < v.nwaste; ++i) place(v.waste[i], i ? kWasteRest : kWasteTop, i / 23.0);
  int unseen = 0;
  for (int i = 0; i < v.nstock; ++i) {
    if (v.stock[i] == kUnseen) {
      ++unseen;
    } else {
      place(v.stock[i], kStockSeen, i / 23.0);
    }
  }
  for (int s = 0; s < 4; ++s) {
    for (int rank = 0; rank < v.fnd[s]; ++rank) {
      float* row = out + (rank * 4 + s) * kCardFeatures;
      row[kUnknown] = 0.0f;
      row[kFoundation] = 1.0f;
    }
  }
  float* g = out + 52 * kCardFeatures;
  for (int c = 0; c < 7; ++c) {
    g[c] = value(v.down[c] / 6.0);
    g[7 + c] = value(v.nup[c] / 13.0);
    g[14 + c] = (v.nup[c] == 0 && v.down[c] == 0) ? 1.0f : 0.0f;
  }
  g[21] = value(v.nstock / 24.0);
  g[22] = value(v.nwaste / 24.0);
  g[23] = value(unseen / 24.0);
  for (int s = 0; s < 4; ++s) {
    g[24 + s] = value(v.fnd[s] / 13.0);
    g[28 + s] = value(v.best[s] / 13.0);
  }
  g[32] = value(v.recycles / 31.0);
}

// klondike_actions._Table: the view, each column's end card and the empty columns.
struct Table {
  const View& v;
  std::array<int, 7> end{};  // each column's end card, -1 if none (the dict `ends`, inverted)
  std::array<bool, 7> empty{};

  explicit Table(const View& view) : v(view) {
    for (int c = 0; c < 7; ++c) {
      end[c] = -1;
      if (v.nup[c] > 0) set_end(end, v.up[c][v.nup[c] - 1], c);
      empty[c] = v.nup[c] == 0 && v.down[c] == 0;
    }
  }

  // ends[card] = col in the dict: the card leaves any other column's key.
  static void set_end(std::array<int, 7>& ends, int card, int col) {
    for (int& e : ends) {
      if (e == card) e = -1;
    }
    ends[col] = card;
  }

  // _Table.plays_after: whether `card`, which `move` (taking `moved`; null: a draw) leaves on the
  // waste top (own = -1) or at the end of column `own`, can then go anywhere.
  bool plays_after(int card, const env::Move* move, int moved, int own) const {
    std::array<int, 4> fnd = v.fnd;
    std::array<int, 7> ends = end;
    std::array<bool, 7> free = empty;
    if (move != nullptr) {
      const int kind = move->kind;
      if (kind == Kind::kWasteFoundation || kind == Kind::kColumnFoundation) {
        ++fnd[moved & 3];
      } else {  // onto a column: the run's last card becomes that column's end
        ends[move->dst] = -1;
        const int last = kind == Kind::kWasteColumn ? v.waste[0] : v.up[move->src][v.nup[move->src] - 1];
        set_end(ends, last, move->dst);
        free[move->dst] = false;
      }
      if (own >= 0) {
        ends[own] = -1;
        set_end(ends, card, own);
      }
    }
    if (fnd[card & 3] == card >> 2) return true;
    if (card >> 2 == 12) {
      for (int c = 0; c < 7; ++c) {
        if (free[c] && c != own) return true;
      }
      return false;
    }
    for (int c = 0; c < 7; ++c) {
      const int e = ends[c];
      if (e >= 0 && c != own && e >> 2 == (card >> 2) + 1 && red(e) != red(card)) return true;
    }
    return false;
  }
};

// solitaire_rl.agents.greedy.klondike.MoveTerms.
struct Terms {
  int card = -1;
  int count = 0;
  int source_face_down = 0;
  bool turns_up = false;
  bool empties_column = false;
};

// move_terms of a legal action; false if the view cannot play it (a mask no environment writes).
bool move_terms(const View& v, const env::Move& m, Terms& t) {
  switch (m.kind) {
    case Kind::kWasteFoundation:
    case Kind::kWasteColumn:
      if (v.nwaste == 0) return false;
      t.card = v.waste[0];
      return true;
    case Kind::kFoundationColumn:
      if (v.fnd[m.src] == 0) return false;
      t.card = (v.fnd[m.src] - 1) * 4 + m.src;
      return true;
    default: {
      const int nup = v.nup[m.src], down = v.down[m.src];
      t.count = m.kind == Kind::kColumnFoundation ? 1 : m.count;
      if (t.count > nup) return false;
      const bool whole = t.count == nup;
      t.card = v.up[m.src][nup - t.count];
      t.source_face_down = down;
      t.turns_up = whole && down > 0;
      t.empties_column = whole && down == 0;
      return true;
    }
  }
}

double greedy_score(const View& v, const env::Move& m, const Terms& t) {  // terms_score, not stuck
  if (t.turns_up) return kTurnUp + kPerFaceDown * t.source_face_down;
  switch (m.kind) {
    case Kind::kWasteFoundation:
    case Kind::kColumnFoundation:
      return v.safe_to_foundation(t.card) ? kSafeFoundation : kEarlyFoundation;
    case Kind::kWasteColumn:
      return kWasteToColumn;
    case Kind::kColumnColumn:
      return t.empties_column && v.king_waiting() ? kEmptyForKing : kShuffle;
    default:
      return kFromFoundation;
  }
}

double squash(double score) { return 0.5 + 0.5 * std::tanh(score / 30.0); }

// action_slot: writes the slot of a legal action into `slot` (zeros); false if the view cannot play it.
bool action_slot(const Table& table, int action, float* slot, double& score) {
  const View& v = table.v;
  slot[0] = value((action + 1) / static_cast<double>(env::kNumActions));
  if (action == 0) {  // the stock
    score = kStock;
    slot[fGreedyScore] = value(squash(score));
    if (v.nstock == 0) {
      slot[fRecycle] = 1.0f;
      return true;
    }
    slot[fDraw] = 1.0f;
    const int next = v.stock[std::min(2, v.nstock - 1)];  // the last of the (up to) three drawn
    if (next != kUnseen) {
      slot[fNextCardKnown] = 1.0f;
      slot[fNextCardPlays] = table.plays_after(next, nullptr, -1, -1) ? 1.0f : 0.0f;
    }
    return true;
  }
  const env::Move m = env::action_move(action);
  Terms t;
  if (!move_terms(v, m, t)) return false;
  score = greedy_score(v, m, t);
  slot[fGreedyScore] = value(squash(score));
  const int kind = m.kind;
  static constexpr std::array<int, 7> kKindFeature = {0, 0, fWasteToFoundation, fWasteToColumn,
                                                      fColumnToFoundation, fColumnToColumn, fFoundationToColumn};
  slot[kKindFeature[kind]] = 1.0f;
  int next = -1, own = -1;
  if (kind == Kind::kWasteFoundation || kind == Kind::kWasteColumn) {
    if (v.nwaste > 1) next = v.waste[1];
  } else if (kind != Kind::kFoundationColumn) {
    slot[fCardsMoved] = value(t.count / 13.0);
    slot[fSourceFaceDown] = value(t.source_face_down / 6.0);
    slot[fSourceColumn] = value((m.src + 1) / 7.0);
    slot[fTurnsUp] = t.turns_up ? 1.0f : 0.0f;
    slot[fEmptiesColumn] = t.empties_column ? 1.0f : 0.0f;
    if (!(t.turns_up || t.empties_column)) {
      next = v.up[m.src][v.nup[m.src] - t.count - 1];
      own = m.src;
    }
  }
  if (kind == Kind::kWasteFoundation || kind == Kind::kColumnFoundation) {
    slot[fSafeUp] = v.safe_to_foundation(t.card) ? 1.0f : 0.0f;
  } else {
    slot[fTargetColumn] = value((m.dst + 1) / 7.0);
    slot[fTargetFaceDown] = value(v.down[m.dst] / 6.0);
    slot[fToEmptyColumn] = table.empty[m.dst] ? 1.0f : 0.0f;
  }
  slot[fRank] = value(((t.card >> 2) + 1) / 13.0);
  if (next >= 0) {
    slot[fNextCardKnown] = 1.0f;
    slot[fNextCardPlays] = table.plays_after(next, &m, t.card, own) ? 1.0f : 0.0f;
  }
  return true;
}

}  // namespace

InputError compact(const std::int64_t* obs, float* out) {
  View v;
  if (!v.decode(obs)) return InputError::bad_observation;
  write_compact(v, out);
  return InputError::none;
}

InputError actions(const std::int64_t* obs, const std::int8_t* mask, float* out) {
  View v;
  if (!v.decode(obs)) return InputError::bad_observation;
  std::array<int, kSlots> legal{};
  int n = 0;
  for (int a = 0; a < env::kNumActions; ++a) {
    if (mask[a] == 0) continue;
    if (n == kSlots) return InputError::too_many_actions;  // cannot happen (klondike_actions.py)
    legal[n++] = a;
  }
  write_compact(v, out);
  float* slots = out + kCompactSize;
  std::fill(slots, slots + kSlots * kSlotWidth, 0.0f);
  const Table table(v);
  int choice = -1;
  double best = 0.0;
  for (int j = 0; j < n; ++j) {
    double score = 0.0;
    if (!action_slot(table, legal[j], slots + j * kSlotWidth, score)) return InputError::bad_mask;
    if (choice < 0 || score > best) choice = j, best = score;  // ties to the lowest index, as greedy
  }
  if (choice >= 0) slots[choice * kSlotWidth + fGreedyChoice] = 1.0f;
  return InputError::none;
}

}  // namespace solitaire::klondike::inputs
