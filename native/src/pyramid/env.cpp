#include "pyramid/env.hpp"

#include <cstring>

#include "common/bits.hpp"

namespace solitaire::pyramid::env {

namespace {

struct ActionTable {
  std::array<ActionPlaces, kNumActions> places{};
  std::array<std::array<std::int16_t, kPlaces>, kPlaces> pair{};
  ActionTable() {
    for (int p = 0; p < kPlaces; ++p) places[p] = {static_cast<std::int8_t>(p), -1};
    int index = kPlaces;
    for (int a = 0; a < kPlaces; ++a) {
      for (int b = a + 1; b < kPlaces; ++b) {
        places[index] = {static_cast<std::int8_t>(a), static_cast<std::int8_t>(b)};
        pair[a][b] = pair[b][a] = static_cast<std::int16_t>(index);
        ++index;
      }
    }
    places[kDrawAction] = places[kRecycleAction] = {-1, -1};
  }
};

const ActionTable& table() {
  static const ActionTable t;
  return t;
}

constexpr int kStockBase = 28 * kPyramidFeatures;
constexpr int kGlobalBase = kStockBase + 24 * kStockFeatures;
constexpr int kOnTable = 13, kAvailable = 14;
constexpr int kSeen = 13, kInStock = 14, kInWaste = 15, kGone = 16, kStockTop = 17, kWasteTop = 18;

}  // namespace

ActionPlaces action_places(int action) { return table().places[action]; }
int pair_action(int a, int b) { return table().pair[a][b]; }

const Geometry& Game::geometry() {
  static const Geometry g(7);
  return g;
}

void Game::reset(const std::uint8_t* cards, bool stock_top_playable) {
  for (int p = 0; p < 28; ++p) pyramid_rank_[p] = static_cast<std::uint8_t>(cards[p] / 4 + 1);
  for (int s = 0; s < 24; ++s) stock_rank_[s] = static_cast<std::uint8_t>(cards[28 + s] / 4 + 1);
  removed_ = 0;
  present_ = (1U << 24) - 1;
  seen_ = 0;
  cursor_ = 0;
  pass_ = 1;
  stock_top_playable_ = stock_top_playable;
  note_seen();
}

Snapshot Game::snapshot() const {
  return {pyramid_rank_, stock_rank_, removed_, present_, seen_, cursor_, pass_};
}

void Game::restore(const Snapshot& snap, bool stock_top_playable) {
  pyramid_rank_ = snap.pyramid_rank;
  stock_rank_ = snap.stock_rank;
  removed_ = snap.removed;
  present_ = snap.present;
  seen_ = snap.seen;
  cursor_ = snap.cursor;
  pass_ = snap.pass;
  stock_top_playable_ = stock_top_playable;
}

int Game::stock_top() const {
  const std::uint32_t rest = present_ & ~low_mask(cursor_);
  return rest == 0 ? -1 : lowest_bit(rest);
}

int Game::waste_top() const {
  const std::uint32_t waste = present_ & low_mask(cursor_);
  return waste == 0 ? -1 : highest_bit(waste);
}

int Game::cards_left() const { return 28 - popcount(removed_); }

int Game::rank_at(int place) const {
  if (place == kStockPlace) {
    const int s = stock_top();
    return s < 0 ? 0 : stock_rank_[s];
  }
  if (place == kWastePlace) {
    const int w = waste_top();
    return w < 0 ? 0 : stock_rank_[w];
  }
  return ((removed_ >> place) & 1U) ? 0 : pyramid_rank_[place];
}

void Game::note_seen() {
  if (stock_top_playable_) {
    const int s = stock_top();
    if (s >= 0) seen_ |= 1U << s;
  }
  const int w = waste_top();
  if (w >= 0) seen_ |= 1U << w;
}

Refusal Game::refusal(int action) const {
  if (is_won()) return Refusal::game_won;
  const bool stock_empty = stock_top() < 0;
  if (action == kDrawAction) return stock_empty ? Refusal::nothing_to_draw : Refusal::none;
  if (action == kRecycleAction) {
    if (!stock_empty) return Refusal::stock_not_empty;
    if (pass_ >= kMaxPassesPlayed) return Refusal::no_recycles_left;
    return waste_top() < 0 ? Refusal::waste_empty : Refusal::none;
  }
  const ActionPlaces places = table().places[action];
  int total = 0;
  for (const int p : {static_cast<int>(places.a), static_cast<int>(places.b)}) {
    if (p < 0) continue;
    const int r = rank_at(p);
    if (r == 0) return Refusal::no_card;
    if (p == kStockPlace && !stock_top_playable_) return Refusal::stock_top_unusable;
    if (p < 28 && !geometry().is_available(removed_, p)) return Refusal::covered;
    total += r;
  }
  if (total == 13) return Refusal::none;
  return places.b < 0 ? Refusal::needs_partner : Refusal::not_thirteen;
}

int Game::apply(int action) {
  int removed_cards = 0;
  if (action == kDrawAction) {
    cursor_ = static_cast<std::uint8_t>(stock_top() + 1);
  } else if (action == kRecycleAction) {
    cursor_ = 0;
    ++pass_;
  } else {
    const ActionPlaces places = table().places[action];
    // Both places are read before either card goes: removing the stock top can change the waste
    // top's slot test only through the cursor, which a removal never moves.
    const int stock = stock_top(), waste = waste_top();
    for (const int p : {static_cast<int>(places.a), static_cast<int>(places.b)}) {
      if (p < 0) continue;
      if (p == kStockPlace) {
        present_ &= ~(1U << stock);
      } else if (p == kWastePlace) {
        present_ &= ~(1U << waste);
      } else {
        removed_ |= 1U << p;
        ++removed_cards;
      }
    }
  }
  note_seen();
  return removed_cards;
}

int Game::write_mask(std::int8_t* out) const {
  std::memset(out, 0, kNumActions);
  if (is_won()) return 0;
  int places[kPlaces];
  int ranks[kPlaces];
  int n = 0;
  std::uint32_t available = geometry().available(removed_);
  while (available != 0) {
    const int p = lowest_bit(available);
    available &= available - 1;
    places[n] = p;
    ranks[n++] = pyramid_rank_[p];
  }
  const int stock = stock_top(), waste = waste_top();
  if (stock_top_playable_ && stock >= 0) {
    places[n] = kStockPlace;
    ranks[n++] = stock_rank_[stock];
  }
  if (waste >= 0) {
    places[n] = kWastePlace;
    ranks[n++] = stock_rank_[waste];
  }
  int legal = 0;
  const auto& pair = table().pair;
  for (int i = 0; i < n; ++i) {
    if (ranks[i] == 13) {
      out[places[i]] = 1;
      ++legal;
      continue;
    }
    for (int j = i + 1; j < n; ++j) {
      if (ranks[i] + ranks[j] == 13) {
        out[pair[places[i]][places[j]]] = 1;
        ++legal;
      }
    }
  }
  if (stock >= 0) {
    out[kDrawAction] = 1;
    ++legal;
  } else if (waste >= 0 && pass_ < kMaxPassesPlayed) {
    out[kRecycleAction] = 1;
    ++legal;
  }
  return legal;
}

void Game::write_observation(float* out) const {
  std::memset(out, 0, sizeof(float) * kObservationSize);
  const std::uint32_t available = geometry().available(removed_);
  for (int p = 0; p < 28; ++p) {
    float* row = out + p * kPyramidFeatures;
    row[pyramid_rank_[p] - 1] = 1.0F;
    if (!((removed_ >> p) & 1U)) row[kOnTable] = 1.0F;
    if ((available >> p) & 1U) row[kAvailable] = 1.0F;
  }
  const int stock = stock_top(), waste = waste_top();
  for (int s = 0; s < 24; ++s) {
    float* row = out + kStockBase + s * kStockFeatures;
    if ((seen_ >> s) & 1U) {
      row[stock_rank_[s] - 1] = 1.0F;
      row[kSeen] = 1.0F;
    }
    if (!((present_ >> s) & 1U)) {
      row[kGone] = 1.0F;
    } else if (s >= cursor_) {
      row[kInStock] = 1.0F;
      if (s == stock) row[kStockTop] = 1.0F;
    } else {
      row[kInWaste] = 1.0F;
      if (s == waste) row[kWasteTop] = 1.0F;
    }
  }
  float* g = out + kGlobalBase;
  g[pass_ - 1] = 1.0F;
  const int in_stock = popcount(present_ & ~low_mask(cursor_));
  const int in_waste = popcount(present_ & low_mask(cursor_));
  g[3] = static_cast<float>(in_stock / 24.0);
  g[4] = static_cast<float>(in_waste / 24.0);
  g[5] = static_cast<float>(cards_left() / 28.0);
  g[6] = stock_top_playable_ ? 1.0F : 0.0F;
}

}  // namespace solitaire::pyramid::env
