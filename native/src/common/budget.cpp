#include "common/budget.hpp"

namespace solitaire {

Budget::Budget(const Limits& limits, const CancelToken* cancel)
    : start_(Clock::now()), max_states_(limits.max_states), cancel_(cancel) {
  if (limits.time_limit_s > 0.0) {  // false for NaN too
    // Beyond about 30 years the limit is no limit (and the clock arithmetic cannot overflow).
    constexpr double kForever = 1e9;
    if (limits.time_limit_s < kForever) {
      has_deadline_ = true;
      deadline_ = start_ + std::chrono::duration_cast<Clock::duration>(
                               std::chrono::duration<double>(limits.time_limit_s));
    }
  }
}

double Budget::elapsed_seconds() const {
  return std::chrono::duration<double>(Clock::now() - start_).count();
}

}  // namespace solitaire
