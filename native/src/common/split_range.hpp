// Splits 0..n into up to `threads` contiguous ranges and runs `work(begin, end)` on each, the
// first on the calling thread: how the native batches step their games (klondike/batch.cpp,
// pyramid/batch.cpp). Ranges are at least `min_per_thread` long, so small batches stay on one
// thread.
#pragma once

#include <algorithm>
#include <thread>
#include <vector>

namespace solitaire {

template <class Work>
void split_range(int n, int threads, int min_per_thread, const Work& work) {
  threads = std::min(threads, std::max(1, n / std::max(1, min_per_thread)));
  if (threads <= 1) {
    work(0, n);
    return;
  }
  std::vector<std::thread> workers;
  workers.reserve(static_cast<std::size_t>(threads - 1));
  const int chunk = (n + threads - 1) / threads;
  for (int t = 1; t < threads; ++t) {
    const int begin = t * chunk, end = std::min(n, begin + chunk);
    if (begin >= end) break;
    workers.emplace_back([&work, begin, end] { work(begin, end); });
  }
  work(0, std::min(n, chunk));
  for (std::thread& w : workers) w.join();
}

}  // namespace solitaire
