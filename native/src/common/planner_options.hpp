// The checks the planners' options share (klondike/hop, klondike/ismcts, pyramid/pimc): each
// throws std::invalid_argument naming the planner and the option, before any work is done.
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "common/sample_loop.hpp"

namespace solitaire {

inline constexpr int kMaxPlannerThreads = 256;
inline constexpr int kMaxPlannerSamples = 1 << 20;

inline void require_option(bool ok, const char* who, const char* what) {
  if (!ok) throw std::invalid_argument(std::string(who) + ": " + what);
}

inline void check_time_limit(double time_limit_s, const char* who) {
  require_option(std::isfinite(time_limit_s), who, "time_limit_s must be a finite number of seconds (0 or less: none)");
}

inline void check_states_per_solve(std::uint64_t states_per_solve, const char* who) {
  require_option(states_per_solve >= 1, who, "states_per_solve must be at least 1");
}

inline void check_sample_budget(const SampleBudget& budget, const char* who) {
  require_option(budget.max_samples >= 1 && budget.max_samples <= kMaxPlannerSamples, who,
                 "max_samples must be at least 1 and at most 1048576");
  require_option(budget.threads >= 1 && budget.threads <= kMaxPlannerThreads, who,
                 "threads must be at least 1 and at most 256");
  check_time_limit(budget.time_limit_s, who);
}

}  // namespace solitaire
