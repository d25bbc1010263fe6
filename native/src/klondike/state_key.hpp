// An exact 256-bit name for a search state, equal for states with the same future.
#pragma once

#include <cstdint>

namespace solitaire::klondike {

// Layout (see Board::key): 7 column fields of 28 bits (face-down count 6, run length 4, run's
// first card 6, one bit per further run card saying which suit of its colour it is), then the
// talon's remaining-card mask over its starting order (52 bits) and its canonical cursor (6 bits).
// The foundations follow from the rest: every card not on the table is on its foundation.
// Bit 255 is always set, so an all-zero key marks an empty slot. Bit 254 is not part of the
// name: the visited table uses it to flag a state proved lost (kLostBit).
struct StateKey {
  static constexpr std::uint64_t kLostBit = std::uint64_t{1} << 62;  // bit 254 (in w[3])
  static constexpr int kWords = 4;

  std::uint64_t w[4] = {0, 0, 0, 0};

  // Equal names (the lost flag is ignored).
  bool operator==(const StateKey& o) const {
    return w[0] == o.w[0] && w[1] == o.w[1] && w[2] == o.w[2] && ((w[3] ^ o.w[3]) & ~kLostBit) == 0;
  }
  bool empty() const { return (w[0] | w[1] | w[2] | w[3]) == 0; }

  // Writes `bits` bits of `value` at bit `offset` (the field must be zero before).
  void put(int offset, int bits, std::uint64_t value) {
    const int word = offset >> 6;
    const int shift = offset & 63;
    w[word] |= value << shift;
    if (shift + bits > 64) w[word + 1] |= value >> (64 - shift);
  }

  std::uint64_t hash() const {
    std::uint64_t h = w[0] * 0x9E3779B97F4A7C15ULL;
    h ^= (w[1] + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h = (h ^ (h >> 29)) * 0xBF58476D1CE4E5B9ULL;
    h ^= (w[2] + 0x85EBCA77C2B2AE63ULL) * 0x94D049BB133111EBULL;
    h ^= ((w[3] & ~kLostBit) + 0x27D4EB2F165667C5ULL) * 0x9E3779B97F4A7C15ULL;
    h ^= h >> 31;
    h *= 0xD6E8FEB86659FD93ULL;
    h ^= h >> 32;
    return h;
  }
};

// The symmetric name (Board::symmetric_key) packed into 128 bits, for positions whose fields fit
// (Board::compact_key_fits; every deal does): the visited table's slots are then 16 bytes, half
// the memory a state. Same conventions: bit 127 always set, bit 126 the lost flag.
struct CompactKey {
  static constexpr std::uint64_t kLostBit = std::uint64_t{1} << 62;  // bit 126 (in w[1])
  static constexpr int kWords = 2;

  std::uint64_t w[2] = {0, 0};

  bool operator==(const CompactKey& o) const { return w[0] == o.w[0] && ((w[1] ^ o.w[1]) & ~kLostBit) == 0; }
  bool empty() const { return (w[0] | w[1]) == 0; }

  std::uint64_t hash() const {
    std::uint64_t h = w[0] * 0x9E3779B97F4A7C15ULL;
    h ^= ((w[1] & ~kLostBit) + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h = (h ^ (h >> 29)) * 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 31;
    h *= 0xD6E8FEB86659FD93ULL;
    h ^= h >> 32;
    return h;
  }
};

}  // namespace solitaire::klondike
