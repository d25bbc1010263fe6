// The stock and the waste seen as one sequence, and which cards draws alone can bring up.
//
// Write the talon as T = waste (bottom -> top) followed by the stock (top -> bottom), with a
// cursor p = the number of waste cards, so T[p-1] is the playable waste top. Drawing k moves p to
// min(p + k, n); recycling (stock empty, p == n > 0) sets p = 0 and leaves T unchanged, because
// the waste turns over into a stock dealt in the same order; playing the waste top removes
// T[p-1] and leaves p - 1. So T only ever loses cards, keeping its order.
//
// K+ moves: the cards that draws and recycles alone can make the waste top are T[q-1] for the
// cursors q below; the solver treats "reach q, play T[q-1]" as one move and expands the draws
// when it reports a line. From p the draws reach p + k, p + 2k, ... and n; after a recycle, k,
// 2k, ... and n. Only which cursor a play leaves (q - 1) matters for the future, never the
// cursor it started from, so two cursors with the same reachable set are the same state:
// every cursor that is a multiple of k, or n, reaches exactly what cursor 0 reaches.
#pragma once

#include <cstdint>

namespace solitaire::klondike {

// Bit q (1 <= q <= n) is set when draws and recycles alone can make T[q-1] the waste top.
inline std::uint64_t reachable_cursors(int n, int p, int k) {
  if (n <= 0) return 0;
  std::uint64_t bits = 0;
  if (p > 0) bits |= std::uint64_t{1} << p;
  for (int q = p + k; q < n; q += k) bits |= std::uint64_t{1} << q;
  for (int q = k; q < n; q += k) bits |= std::uint64_t{1} << q;
  bits |= std::uint64_t{1} << n;
  return bits;
}

// A cursor with the same future as p, the same for all cursors that reach the same cards.
inline int canonical_cursor(int n, int p, int k) {
  return (k == 1 || p % k == 0 || p >= n) ? 0 : p;
}

// Calls on_draw(cards) and on_recycle() for the shortest way from cursor p to cursor q
// (q must be in reachable_cursors(n, p, k)).
template <typename OnDraw, typename OnRecycle>
void walk_talon(int n, int p, int q, int k, OnDraw on_draw, OnRecycle on_recycle) {
  const bool forward = q == p || (q > p && ((q - p) % k == 0 || q == n));
  if (!forward) {
    while (p < n) {
      const int d = (n - p < k) ? n - p : k;
      on_draw(d);
      p += d;
    }
    on_recycle();
    p = 0;
  }
  while (p < q) {
    const int d = (n - p < k) ? n - p : k;
    on_draw(d);
    p += d;
  }
}

}  // namespace solitaire::klondike
