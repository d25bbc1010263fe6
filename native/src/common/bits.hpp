// Bit tricks on 32-bit (and a 64-bit) masks, portable across GCC, Clang and MSVC.
#pragma once

#include <cstdint>

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#endif

namespace solitaire {

// Number of set bits: the POPCNT instruction where the build enables it (see CMakeLists.txt),
// else a few shifts and adds rather than a library call.
inline int popcount(std::uint32_t x) {
#if defined(__POPCNT__) || defined(__ARM_NEON) || defined(__aarch64__)
  return __builtin_popcount(x);
#else
  x = x - ((x >> 1) & 0x55555555U);
  x = (x & 0x33333333U) + ((x >> 2) & 0x33333333U);
  x = (x + (x >> 4)) & 0x0F0F0F0FU;
  return static_cast<int>((x * 0x01010101U) >> 24);
#endif
}

// Index of the lowest set bit; x must not be 0.
inline int lowest_bit(std::uint32_t x) {
#if defined(_MSC_VER) && !defined(__clang__)
  unsigned long index;
  _BitScanForward(&index, x);
  return static_cast<int>(index);
#else
  return __builtin_ctz(x);
#endif
}

// The same on a 64-bit mask.
inline int lowest_bit64(std::uint64_t x) {
#if defined(_MSC_VER) && !defined(__clang__)
  unsigned long index;
  _BitScanForward64(&index, x);
  return static_cast<int>(index);
#else
  return __builtin_ctzll(x);
#endif
}

// Index of the highest set bit; x must not be 0.
inline int highest_bit(std::uint32_t x) {
#if defined(_MSC_VER) && !defined(__clang__)
  unsigned long index;
  _BitScanReverse(&index, x);
  return static_cast<int>(index);
#else
  return 31 - __builtin_clz(x);
#endif
}

// Mask of bits 0..n-1 (n in 0..32).
inline std::uint32_t low_mask(int n) {
  return n >= 32 ? ~std::uint32_t{0} : (std::uint32_t{1} << n) - 1;
}

}  // namespace solitaire
