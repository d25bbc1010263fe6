// A flag another thread sets to stop a running search.
#pragma once

#include <atomic>

namespace solitaire {

// Shared between the searching thread and any thread that may cancel it. The search polls it;
// cancelling only sets the flag, so it is safe from any thread at any time.
class CancelToken {
 public:
  void cancel() noexcept { flag_.store(true, std::memory_order_relaxed); }
  void reset() noexcept { flag_.store(false, std::memory_order_relaxed); }
  bool is_cancelled() const noexcept { return flag_.load(std::memory_order_relaxed); }

 private:
  std::atomic<bool> flag_{false};
};

}  // namespace solitaire
