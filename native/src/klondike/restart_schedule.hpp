// How long each of the solver's restarted searches runs (SolveOptions::restarts).
#pragma once

#include <cstdint>

namespace solitaire::klondike {

// Luby, Sinclair and Zuckerman's sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ... at i >= 1: restart
// lengths within a log factor of the best fixed length for any distribution of search times.
inline std::uint64_t luby(std::uint64_t i) {
  while (true) {
    std::uint64_t size = 1;  // the smallest 2^k - 1 >= i
    while (size < i) size = 2 * size + 1;
    if (size == i) return (size + 1) / 2;
    i -= (size - 1) / 2;
  }
}

}  // namespace solitaire::klondike
