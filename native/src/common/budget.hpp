// Counts the states a search visits and says when it must stop (states, time, cancellation).
#pragma once

#include <chrono>
#include <cstdint>

#include "common/cancel_token.hpp"
#include "common/limits.hpp"
#include "common/search_status.hpp"

namespace solitaire {

class Budget {
 public:
  Budget(const Limits& limits, const CancelToken* cancel);

  // Charge one visited state; true when the search must stop now (see reason()).
  bool charge() {
    ++states_;
    if (stop_ != StopReason::none) return true;
    if (max_states_ != 0 && states_ > max_states_) return stop(StopReason::states);
    if (cancel_ != nullptr && cancel_->is_cancelled()) return stop(StopReason::cancelled);
    if (has_deadline_ && (states_ & kClockMask) == 0 && Clock::now() >= deadline_) {
      return stop(StopReason::time);
    }
    return false;
  }

  // Stop for a reason found elsewhere (e.g. memory).
  bool stop(StopReason reason) {
    if (stop_ == StopReason::none) stop_ = reason;
    return true;
  }

  StopReason reason() const { return stop_; }
  // States charged, not counting one refused by a spent state budget.
  std::uint64_t states() const { return stop_ == StopReason::states ? max_states_ : states_; }
  double elapsed_seconds() const;

 private:
  using Clock = std::chrono::steady_clock;
  static constexpr std::uint64_t kClockMask = 255;  // read the clock every 256 states

  Clock::time_point start_;
  Clock::time_point deadline_;
  bool has_deadline_ = false;
  std::uint64_t max_states_ = 0;
  std::uint64_t states_ = 0;
  const CancelToken* cancel_ = nullptr;
  StopReason stop_ = StopReason::none;
};

}  // namespace solitaire
