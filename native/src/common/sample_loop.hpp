// The sample-and-solve loop that the planners share (klondike/hop.hpp, pyramid/pimc.hpp): samples
// 0, 1, 2, ... of the unknown cards are each evaluated for every candidate move, spread over
// threads, until a budget is spent.
//
// Reproducible by construction: sample i depends only on (seed, i), and the samples kept are
// always a prefix 0..k-1 of the sample numbers. With a state budget, k is the first count whose
// samples together entered at least that many states, so the answer is the same for any number of
// threads and on any machine. A time limit or a cancel stops the loop early (the answer then
// depends on the machine's pace); the samples finished by then in an unbroken prefix are kept.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "common/cancel_token.hpp"
#include "common/random_deal.hpp"
#include "common/search_status.hpp"

namespace solitaire {

// What one candidate move came to in one sample: `first` is a win that is also the first move of
// the winning line the solver found from the position before it (a vote for it).
enum class SampleOutcome : std::int8_t { lost = 0, won = 1, unknown = 2, first = 3 };

// A solve's verdict as a sample's outcome (a search out of budget is unknown, never lost).
inline SampleOutcome outcome_of(Status status) {
  if (status == Status::winnable) return SampleOutcome::won;
  if (status == Status::not_winnable) return SampleOutcome::lost;
  return SampleOutcome::unknown;
}

struct SampleBudget {
  int max_samples = 32;           // at most this many samples (>= 1)
  std::uint64_t max_states = 0;   // 0: none; else stop once the kept samples entered this many
  double time_limit_s = 0.0;      // <= 0: none; wall-clock seconds for the whole loop
  int threads = 1;                // worker threads (>= 1)
  const CancelToken* cancel = nullptr;
};

struct SampleTally {
  std::vector<int> won, lost, unknown;  // per candidate, over the kept samples
  std::vector<int> first;               // per candidate: kept samples whose winning line starts with it
  int samples = 0;                      // samples kept
  std::uint64_t states = 0;             // states entered by the kept samples
  double seconds = 0.0;
  StopReason stop_reason = StopReason::none;  // why the loop stopped before max_samples
};

// Fisher-Yates from the last element down, each index drawn without bias (random_deal.hpp's
// generator, the one solitaire_rl/envs/rng.py deals with).
template <class T>
void shuffle(SplitMix64& rng, std::vector<T>& items) {
  for (std::size_t i = items.size(); i > 1; --i) {
    std::swap(items[i - 1], items[static_cast<std::size_t>(rng.below(i))]);
  }
}

// The generator of sample `sample` of a loop seeded with `seed`.
inline SplitMix64 sample_rng(std::uint64_t seed, int sample) {
  SplitMix64 mix(seed ^ (0xD1B54A32D192ED03ULL * (static_cast<std::uint64_t>(sample) + 1)));
  return SplitMix64(mix.next());
}

// What every candidate comes to in one sample (`deal`, every card known), the work shared between
// them: the position before the move is solved first; lost means every candidate is lost, won
// makes the candidate that starts its winning line `first` without a search of its own. The rest
// are played and solved one by one. `solve(position)` returns a result with `status`, `states`
// and `line`; `is_first(move, c)` says whether `move` is candidate c; `after(c, won)` returns the
// position after candidate c and sets `won` when that position is won already; `on_root(result)`
// sees the root's result (its winning line, say). Returns the states entered, or -1 when `stop()`
// turned true before every candidate was done.
template <class Position, class Solve, class IsFirst, class After, class Stop, class OnRoot>
std::int64_t solve_candidates(const Position& deal, int num_candidates, Solve solve, IsFirst is_first,
                              After after, const Stop& stop, std::vector<SampleOutcome>& out, OnRoot on_root) {
  const auto root = solve(deal);
  on_root(root);
  std::int64_t states = static_cast<std::int64_t>(root.states);
  if (root.status == Status::not_winnable) {
    out.assign(out.size(), SampleOutcome::lost);
    return states;
  }
  for (int c = 0; c < num_candidates; ++c) {
    if (root.status == Status::winnable && !root.line.empty() && is_first(root.line.front(), c)) {
      out[static_cast<std::size_t>(c)] = SampleOutcome::first;
      continue;
    }
    if (stop()) return -1;
    bool won = false;
    const Position next = after(c, won);
    if (won) {
      out[static_cast<std::size_t>(c)] = SampleOutcome::won;
      continue;
    }
    const auto result = solve(next);
    states += static_cast<std::int64_t>(result.states);
    out[static_cast<std::size_t>(c)] = outcome_of(result.status);
  }
  return states;
}

template <class Position, class Solve, class IsFirst, class After, class Stop>
std::int64_t solve_candidates(const Position& deal, int num_candidates, Solve solve, IsFirst is_first,
                              After after, const Stop& stop, std::vector<SampleOutcome>& out) {
  return solve_candidates(deal, num_candidates, solve, is_first, after, stop, out, [](const auto&) {});
}

// Runs `evaluate(sample, outcomes, stop)` for samples 0, 1, 2, ...: it fills `outcomes` (one per
// candidate) and returns the states it entered, or returns -1 when it gave up because `stop()`
// turned true (the sample is then not kept). `evaluate` must be safe to call from several threads.
template <class Evaluate>
SampleTally run_samples(int num_candidates, const SampleBudget& budget, Evaluate evaluate) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const int max_samples = std::max(1, budget.max_samples);
  const int threads = std::max(1, std::min(budget.threads, max_samples));

  std::vector<std::vector<SampleOutcome>> outcomes(static_cast<std::size_t>(max_samples));
  std::vector<std::int64_t> states(static_cast<std::size_t>(max_samples), -1);  // -1: not done
  std::atomic<int> next_sample{0};
  std::atomic<bool> stop{false};
  std::mutex mutex;
  int prefix = 0;                 // samples 0..prefix-1 are done
  std::uint64_t prefix_states = 0;
  int kept = -1;                  // set once the state budget is reached
  StopReason reason = StopReason::none;
  std::exception_ptr failure;

  auto out_of_time = [&]() {
    if (budget.cancel != nullptr && budget.cancel->is_cancelled()) return true;
    if (budget.time_limit_s <= 0.0) return false;
    return std::chrono::duration<double>(Clock::now() - start).count() >= budget.time_limit_s;
  };
  auto should_stop = [&]() { return stop.load(std::memory_order_relaxed) || out_of_time(); };

  auto worker = [&]() {
    std::vector<SampleOutcome> mine;
    while (!should_stop()) {
      const int sample = next_sample.fetch_add(1);
      if (sample >= max_samples) break;
      mine.assign(static_cast<std::size_t>(num_candidates), SampleOutcome::unknown);
      std::int64_t entered = -1;
      try {
        entered = evaluate(sample, mine, should_stop);
      } catch (...) {  // handed to the caller's thread once every worker is done
        std::lock_guard<std::mutex> lock(mutex);
        if (!failure) failure = std::current_exception();
        stop.store(true, std::memory_order_relaxed);
        break;
      }
      if (entered < 0) break;
      std::lock_guard<std::mutex> lock(mutex);
      outcomes[static_cast<std::size_t>(sample)] = mine;
      states[static_cast<std::size_t>(sample)] = entered;
      while (kept < 0 && prefix < max_samples && states[static_cast<std::size_t>(prefix)] >= 0) {
        prefix_states += static_cast<std::uint64_t>(states[static_cast<std::size_t>(prefix)]);
        ++prefix;
        if (budget.max_states > 0 && prefix_states >= budget.max_states) {
          kept = prefix;
          reason = StopReason::states;
          stop.store(true, std::memory_order_relaxed);
        }
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);

  SampleTally tally;
  tally.won.assign(static_cast<std::size_t>(num_candidates), 0);
  tally.lost.assign(static_cast<std::size_t>(num_candidates), 0);
  tally.unknown.assign(static_cast<std::size_t>(num_candidates), 0);
  tally.first.assign(static_cast<std::size_t>(num_candidates), 0);
  tally.samples = kept >= 0 ? kept : prefix;
  if (kept < 0 && prefix < max_samples) {
    reason = budget.cancel != nullptr && budget.cancel->is_cancelled() ? StopReason::cancelled : StopReason::time;
  }
  tally.stop_reason = reason;
  for (int s = 0; s < tally.samples; ++s) {
    tally.states += static_cast<std::uint64_t>(states[static_cast<std::size_t>(s)]);
    const std::vector<SampleOutcome>& row = outcomes[static_cast<std::size_t>(s)];
    for (int c = 0; c < num_candidates; ++c) {
      switch (row[static_cast<std::size_t>(c)]) {
        case SampleOutcome::first: ++tally.first[static_cast<std::size_t>(c)]; [[fallthrough]];
        case SampleOutcome::won: ++tally.won[static_cast<std::size_t>(c)]; break;
        case SampleOutcome::lost: ++tally.lost[static_cast<std::size_t>(c)]; break;
        case SampleOutcome::unknown: ++tally.unknown[static_cast<std::size_t>(c)]; break;
      }
    }
  }
  tally.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return tally;
}

}  // namespace solitaire
