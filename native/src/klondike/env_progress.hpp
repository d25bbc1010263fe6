// The exact "no progress possible" check of solitaire_rl/envs/klondike/progress.py, computed natively.
//
// The answer is the Python module's (its definition is the reference: some sequence of legal moves
// that make no progress, followed by one that does); the way there is simpler. In order:
//   1. cheap exits: won (no); an unseen stock card (yes); no legal move (no); a legal move makes
//      progress (yes); the last move can be played backwards and the position before it could
//      progress, under the same foundation records (yes);
//   2. the memo of search keys known good or bad under the present records;
//   3. the relaxation of progress.py (_relaxed_rounds, ported as it is): when even it reaches no
//      progress, nothing does (no);
//   4. a depth-first search over the positions reachable without progress, each relaxation-checked,
//      until a move that makes progress (yes) or none is left (no).
// Search keys (every stock card is seen there): the foundations, the columns sorted (each as its
// face-up cards and whether face-down cards lie below), the waste length and the talon in draw
// order. Nothing in a key depends on a hidden card, and the search never turns one up. The memo's
// keys write the waste length as 255 when it lies on the stock cycle (drawing on and recycling
// comes back to it: progress.py's ON_CYCLE), since all such positions reach one another without
// progress; the search itself tells visited positions apart by their exact waste length.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <unordered_set>

#include "klondike/env.hpp"

namespace solitaire::klondike::env {

// A search key: at most 4 foundations + 7 column markers + 1 waste byte + 52 cards = 64 bytes,
// zero-padded, with its length.
struct SearchKey {
  std::array<std::uint8_t, 64> bytes{};
  std::uint8_t size = 0;
  bool operator==(const SearchKey& o) const {
    return size == o.size && std::memcmp(bytes.data(), o.bytes.data(), bytes.size()) == 0;
  }
};

struct SearchKeyHash {
  std::size_t operator()(const SearchKey& k) const {
    std::uint64_t h = 0x9E3779B97F4A7C15ULL ^ k.size;
    for (int w = 0; w < 8; ++w) {
      std::uint64_t x;
      std::memcpy(&x, k.bytes.data() + 8 * w, 8);
      h = (h ^ x) * 0xBF58476D1CE4E5B9ULL;
      h ^= h >> 31;
    }
    return static_cast<std::size_t>(h);
  }
};

using KeySet = std::unordered_set<SearchKey, SearchKeyHash>;

class ProgressMemo {
 public:
  // Forgets everything (a new game).
  void clear();
  // Notes the move just played (from `before`, which it left with `turned` face-down cards turned up).
  void note_move(const State& before, const Move& move, int turned);
  // Whether progress is possible from `s`, the position after the last noted move (or a new game).
  bool progress_possible(const State& s);

 private:
  bool answer(const State& s);
  bool back_to_good(const State& s) const;
  bool search(const State& root, const SearchKey& root_key);
  void check_context(const State& s);

  KeySet good_;
  KeySet bad_;
  std::uint8_t context_[4] = {255, 255, 255, 255};  // the records the memo holds for
  bool last_answer_ = false;  // the answer for the position before the last move, same records
  bool last_valid_ = false;
  Move last_move_{};
  bool last_turned_ = false;
  int last_suit_ = -1;  // suit of a foundation move's card
};

// progress.py's relaxation: false proves that no progress is possible from `s`.
bool relaxed_progress(const State& s);
// The search key of `s` (see the file comment); `cycle`: the memo's, with the stock-cycle marker.
SearchKey search_key(const State& s, bool cycle);

}  // namespace solitaire::klondike::env
