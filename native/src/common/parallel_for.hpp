// Runs jobs 0..count-1 over up to `threads` threads, each thread taking the next job left: how the
// Klondike commitment planner and world scores spread their world searches. `job(i)` must touch
// only its own outputs. The first exception a job throws is rethrown on the calling thread once
// every thread has stopped (the jobs not yet started are then skipped).
#pragma once

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace solitaire {

template <class Job>
void parallel_for(int count, int threads, const Job& job) {
  const int workers = std::min(threads, count);
  if (workers <= 1) {
    for (int i = 0; i < count; ++i) job(i);
    return;
  }
  std::atomic<int> next{0};
  std::mutex mutex;
  std::exception_ptr failure;
  auto work = [&]() {
    for (int i = next.fetch_add(1); i < count; i = next.fetch_add(1)) {
      try {
        job(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex);
        if (!failure) failure = std::current_exception();
        next.store(count);
        return;
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < workers; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace solitaire
