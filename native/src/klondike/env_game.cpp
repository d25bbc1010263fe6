#include "klondike/env_game.hpp"

#include <algorithm>

namespace solitaire::klondike::env {

namespace {
constexpr std::int64_t kFaceDown = 52;  // solitaire_rl.envs.klondike.observer.FACE_DOWN (and UNSEEN)
constexpr std::int64_t kEmpty = 53;     // solitaire_rl.envs.klondike.observer.EMPTY
}  // namespace

void Game::reset_deal(const std::uint8_t* cards, int draw_count) {
  State s;
  s.draw = static_cast<std::uint8_t>(draw_count);
  int i = 0;
  for (int depth = 0; depth < kColumns; ++depth) {  // layout.DEAL_SLOTS
    for (int c = depth; c < kColumns; ++c) s.col[c][depth] = cards[i++];
  }
  for (int c = 0; c < kColumns; ++c) {
    s.len[c] = static_cast<std::uint8_t>(c + 1);
    s.hidden[c] = static_cast<std::uint8_t>(c);
    s.seen |= std::uint64_t{1} << s.col[c][c];
  }
  s.nstock = kMaxTalon;
  for (int k = 0; k < kMaxTalon; ++k) s.stock[k] = cards[51 - k];  // top card last
  reset_state(s);
}

void Game::reset_state(const State& state) {
  s_ = state;
  memo_.clear();
  refresh_mask();
}

void Game::refresh_mask() {
  std::fill(std::begin(mask_), std::end(mask_), 0);
  Move moves[kMaxMoves];
  const int n = s_.legal_moves(moves);
  for (int k = 0; k < n; ++k) {
    const int a = action_index(moves[k]);
    mask_[a >> 6] |= std::uint64_t{1} << (a & 63);
    legal_[k] = static_cast<std::int16_t>(a);
  }
  num_legal_ = n;
}

bool Game::is_legal(int action) const { return (mask_[action >> 6] >> (action & 63)) & 1U; }

Refusal Game::refusal(int action) const {
  const Move m = action == 0 ? s_.stock_move() : action_move(action);
  const Refusal why = s_.refusal(m);
  return why == Refusal::none ? Refusal::not_legal_now : why;
}

StepResult Game::play(int action, bool shaped_reward) {
  const Move m = action == 0 ? s_.stock_move() : action_move(action);
  auto hidden_sum = [this] {
    int h = 0;
    for (int c = 0; c < kColumns; ++c) h += s_.hidden[c];
    return h;
  };
  auto best_sum = [this] { return s_.best[0] + s_.best[1] + s_.best[2] + s_.best[3]; };
  // The same floating-point operations, in the same order, as KlondikeEnv.step.
  double records = 0.0;
  if (shaped_reward) {
    records = static_cast<double>(best_sum()) * kFoundationBonus - static_cast<double>(hidden_sum()) * kTurnUpBonus;
  }
  const State before = s_;
  const int turned = s_.apply(m);
  memo_.note_move(before, m, turned);
  refresh_mask();
  const bool won = s_.is_won();
  StepResult r{won ? 1.0 : 0.0, won, Outcome::none};
  if (!won) r.terminated = !memo_.progress_possible(s_);
  if (shaped_reward) {
    r.reward += static_cast<double>(best_sum()) * kFoundationBonus - static_cast<double>(hidden_sum()) * kTurnUpBonus -
                records;
  }
  if (r.terminated) {
    r.outcome = won ? Outcome::win : num_legal_ ? Outcome::no_progress : Outcome::dead_end;
  }
  return r;
}

void Game::write_mask(std::int8_t* out) const {
  std::fill_n(out, kNumActions, std::int8_t{0});
  for (int k = 0; k < num_legal_; ++k) out[legal_[k]] = 1;
}

void Game::write_observation(std::int64_t* out) const {
  std::int64_t* p = out;
  for (int c = 0; c < kColumns; ++c) {
    const int h = s_.hidden[c], size = s_.len[c];
    for (int i = 0; i < kMaxColumn; ++i) p[i] = i < h ? kFaceDown : i < size ? s_.col[c][i] : kEmpty;
    p += kMaxColumn;
  }
  for (int i = 0; i < kMaxTalon; ++i) p[i] = i < s_.nwaste ? s_.waste[s_.nwaste - 1 - i] : kEmpty;
  p += kMaxTalon;
  for (int i = 0; i < kMaxTalon; ++i) {
    if (i < s_.nstock) {
      const int card = s_.stock[s_.nstock - 1 - i];
      p[i] = ((s_.seen >> card) & 1U) ? card : kFaceDown;
    } else {
      p[i] = kEmpty;
    }
  }
  p += kMaxTalon;
  for (int s = 0; s < 4; ++s) *p++ = s_.fnd[s];
  for (int s = 0; s < 4; ++s) *p++ = s_.best[s];
  *p = std::min(s_.recycles, kMaxRecyclesShown);
}

}  // namespace solitaire::klondike::env
