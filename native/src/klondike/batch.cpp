#include "klondike/batch.hpp"

#include <algorithm>

#include "common/random_deal.hpp"
#include "common/split_range.hpp"

namespace solitaire::klondike::env {

Batch::Batch(int num_envs, int draw_count, bool shaped_reward, int max_steps, int num_threads)
    : games_(static_cast<std::size_t>(num_envs)),
      elapsed_(static_cast<std::size_t>(num_envs), 0),
      needs_reset_(static_cast<std::size_t>(num_envs), 0),
      ended_(static_cast<std::size_t>(num_envs), 0),
      draw_count_(draw_count),
      shaped_reward_(shaped_reward),
      max_steps_(max_steps),
      num_threads_(std::max(1, num_threads)) {}

void Batch::write_row(int i, const Outputs& out) const {
  const Game& g = games_[i];
  g.write_observation(out.obs + static_cast<std::ptrdiff_t>(i) * kObservationSize);
  g.write_mask(out.mask + static_cast<std::ptrdiff_t>(i) * kNumActions);
  write_counters(i, out);
}

void Batch::write_counters(int i, const Outputs& out) const {
  const Game& g = games_[i];
  out.counter(Counter::cards_up)[i] = g.cards_up();
  out.counter(Counter::recycles)[i] = g.recycles();
}

void Batch::reset_cards(int i, const std::uint8_t* cards, const Outputs& out) {
  games_[i].reset_deal(cards, draw_count_);
  elapsed_[i] = 0;
  needs_reset_[i] = 0;
  ended_[i] = games_[i].cards_up() == 52;  // a won position given by the caller has ended already
  write_row(i, out);
}

void Batch::reset_state(int i, const State& state, const Outputs& out) {
  games_[i].reset_state(state);
  elapsed_[i] = 0;
  needs_reset_[i] = 0;
  ended_[i] = games_[i].cards_up() == 52;  // a won position given by the caller has ended already
  write_row(i, out);
}

Saved Batch::saved(int i) const {
  return {games_[i].state(), elapsed_[i], ended_[i] != 0, needs_reset_[i] != 0};
}

void Batch::restore(int i, const Saved& saved, const Outputs& out) {
  games_[i].reset_state(saved.state);
  elapsed_[i] = saved.elapsed;
  ended_[i] = saved.ended ? 1 : 0;
  needs_reset_[i] = saved.needs_reset ? 1 : 0;
  write_row(i, out);
}

void Batch::deal(int i, std::int64_t number) {
  const auto cards = random_deal("klondike", static_cast<std::uint64_t>(number));
  games_[i].reset_deal(cards.data(), draw_count_);
  elapsed_[i] = 0;
  needs_reset_[i] = 0;
  ended_[i] = games_[i].cards_up() == 52;  // a won position given by the caller has ended already
}

void Batch::reset_random(const std::int64_t* indices, const std::int64_t* numbers, int count, const Outputs& out) {
  for (int k = 0; k < count; ++k) {
    const int i = static_cast<int>(indices[k]);
    deal(i, numbers[k]);
    write_row(i, out);
  }
}

void Batch::step_range(int begin, int end, const std::int64_t* actions, const std::int64_t* pending,
                       Autoreset mode, const Outputs& out) {
  for (int i = begin; i < end; ++i) {
    out.refusal[i] = 0;
    out.outcome[i] = 0;
    out.was_reset[i] = false;
    out.reward[i] = 0.0;
    out.terminated[i] = out.truncated[i] = false;
    if (needs_reset_[i]) {  // next_step mode: this step is the reset; the action is ignored
      deal(i, pending[i]);
      out.was_reset[i] = true;
      write_row(i, out);
      continue;
    }
    Game& g = games_[i];
    const int action = static_cast<int>(actions[i]);
    ++elapsed_[i];
    const bool truncated = max_steps_ > 0 && elapsed_[i] >= max_steps_;
    bool terminated = ended_[i] != 0;  // an ended game stays ended (autoreset disabled)
    if (!g.is_legal(action)) {  // nothing changes: the observation and the mask stay as they are
      out.refusal[i] = static_cast<std::uint8_t>(g.refusal(action));
    } else {
      const StepResult r = g.play(action, shaped_reward_);
      terminated = terminated || r.terminated;
      ended_[i] = terminated ? 1 : 0;
      out.reward[i] = r.reward;
      out.outcome[i] = static_cast<std::uint8_t>(r.outcome);
      write_row(i, out);
    }
    out.terminated[i] = terminated;
    out.truncated[i] = truncated;
    if (terminated || truncated) {
      if (mode == Autoreset::next_step) {
        needs_reset_[i] = 1;
      } else if (mode == Autoreset::same_step) {
        write_row(i, out);  // an illegal last action wrote nothing yet
        std::int64_t* final_row = out.final_obs + static_cast<std::ptrdiff_t>(i) * kObservationSize;
        std::copy_n(out.obs + static_cast<std::ptrdiff_t>(i) * kObservationSize, kObservationSize, final_row);
        std::copy_n(out.mask + static_cast<std::ptrdiff_t>(i) * kNumActions, kNumActions,
                    out.final_mask + static_cast<std::ptrdiff_t>(i) * kNumActions);
        deal(i, pending[i]);
        out.was_reset[i] = true;
        write_row(i, out);
      }
    }
  }
}

void Batch::step(const std::int64_t* actions, const std::int64_t* pending, Autoreset mode, const Outputs& out) {
  split_range(num_envs(), num_threads_, 64, [&](int begin, int end) {
    step_range(begin, end, actions, pending, mode, out);
  });
}

}  // namespace solitaire::klondike::env
