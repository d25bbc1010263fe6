#include "pyramid/batch.hpp"

#include <algorithm>

#include "common/random_deal.hpp"
#include "common/split_range.hpp"

namespace solitaire::pyramid::env {

namespace {
constexpr double kWinReward = 1.0;         // solitaire_rl.envs.pyramid.env.WIN_REWARD
constexpr double kShapingPerCard = 0.02;   // solitaire_rl.envs.pyramid.env.SHAPING_PER_CARD
}  // namespace

Batch::Batch(int num_envs, bool stock_top_playable, bool reward_shaping, int max_episode_steps,
             int num_threads)
    : games_(static_cast<std::size_t>(num_envs)),
      elapsed_(static_cast<std::size_t>(num_envs), 0),
      needs_reset_(static_cast<std::size_t>(num_envs), 0),
      stock_top_playable_(stock_top_playable),
      reward_shaping_(reward_shaping),
      max_episode_steps_(max_episode_steps),
      num_threads_(std::max(1, num_threads)) {}

void Batch::write_row(int i, const Outputs& out) const {
  const Game& g = games_[i];
  g.write_observation(out.obs + static_cast<std::ptrdiff_t>(i) * kObservationSize);
  g.write_mask(out.mask + static_cast<std::ptrdiff_t>(i) * kNumActions);
  write_counters(i, out);
}

void Batch::write_counters(int i, const Outputs& out) const {
  const Game& g = games_[i];
  out.counter(Counter::pass_number)[i] = g.pass_number();
  out.counter(Counter::cards_left)[i] = g.cards_left();
}

void Batch::reset_one(int i, const std::uint8_t* cards, const Outputs& out) {
  games_[i].reset(cards, stock_top_playable_);
  elapsed_[i] = 0;
  needs_reset_[i] = 0;
  write_row(i, out);
}

Saved Batch::saved(int i) const { return {games_[i].snapshot(), elapsed_[i], needs_reset_[i] != 0}; }

void Batch::restore(int i, const Saved& saved, const Outputs& out) {
  games_[i].restore(saved.game, stock_top_playable_);
  elapsed_[i] = saved.elapsed;
  needs_reset_[i] = saved.needs_reset ? 1 : 0;
  write_row(i, out);
}

void Batch::deal(int i, std::int64_t number) {
  const auto cards = random_deal("pyramid", static_cast<std::uint64_t>(number));
  games_[i].reset(cards.data(), stock_top_playable_);
  elapsed_[i] = 0;
  needs_reset_[i] = 0;
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
    const Refusal why = g.refusal(action);
    std::int8_t* mask = out.mask + static_cast<std::ptrdiff_t>(i) * kNumActions;
    bool terminated;
    if (why != Refusal::none) {
      out.refusal[i] = static_cast<std::uint8_t>(why);
      g.write_observation(out.obs + static_cast<std::ptrdiff_t>(i) * kObservationSize);
      terminated = g.write_mask(mask) == 0;
    } else {
      const int removed = g.apply(action);
      double reward = reward_shaping_ ? kShapingPerCard * removed : 0.0;
      g.write_observation(out.obs + static_cast<std::ptrdiff_t>(i) * kObservationSize);
      terminated = g.write_mask(mask) == 0;
      if (terminated) {
        if (g.is_won()) reward += kWinReward;
        out.outcome[i] = static_cast<std::uint8_t>(g.is_won() ? Outcome::win : Outcome::dead_end);
      }
      out.reward[i] = reward;
    }
    write_counters(i, out);
    const bool truncated = max_episode_steps_ > 0 && elapsed_[i] >= max_episode_steps_;
    out.terminated[i] = terminated;
    out.truncated[i] = truncated;
    if (terminated || truncated) {
      if (mode == Autoreset::next_step) {
        needs_reset_[i] = 1;
      } else if (mode == Autoreset::same_step) {
        float* final_row = out.final_obs + static_cast<std::ptrdiff_t>(i) * kObservationSize;
        std::copy_n(out.obs + static_cast<std::ptrdiff_t>(i) * kObservationSize, kObservationSize, final_row);
        std::copy_n(mask, kNumActions, out.final_mask + static_cast<std::ptrdiff_t>(i) * kNumActions);
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

}  // namespace solitaire::pyramid::env
