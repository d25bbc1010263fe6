// What a search concluded, and why it stopped early when it did.
#pragma once

#include <cstdint>

namespace solitaire {

enum class Status : std::uint8_t {
  winnable = 0,      // a winning line was found (and is returned)
  not_winnable = 1,  // the search was exhaustive: no line wins
  unknown = 2,       // the budget ran out first; never to be read as "not winnable"
};

enum class StopReason : std::uint8_t {
  none = 0,       // the search finished (status is winnable or not_winnable)
  time = 1,       // the time limit was reached
  states = 2,     // the state budget was spent
  memory = 3,     // memory for the search could not be had
  cancelled = 4,  // a CancelToken was set
};

}  // namespace solitaire
