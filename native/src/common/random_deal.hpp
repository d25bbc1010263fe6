// The project's random deals, `{game}-random-v1-{number}`, exactly as solitaire_rl/envs/rng.py and solitaire_rl/envs/deals.py
// deal them: SplitMix64 seeded with the 64-bit FNV-1a hash of the deal ID's text, then
// Fisher-Yates from the last card down to card 1, each index drawn without bias by rejection.
// tests/test_native_vec_pyramid.py holds this copy to the Python one.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace solitaire {

inline std::uint64_t fnv1a64(const std::string& text) {
  std::uint64_t h = 0xCBF29CE484222325ULL;
  for (const unsigned char byte : text) {
    h ^= byte;
    h *= 0x100000001B3ULL;
  }
  return h;
}

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    state_ += 0x9E3779B97F4A7C15ULL;
    std::uint64_t z = state_;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  // A uniform integer in [0, n): rejects the top partial block of 2**64, as solitaire_rl.envs.rng does.
  std::uint64_t below(std::uint64_t n) {
    // limit = 2**64 - (2**64 mod n); 2**64 mod n computed without 128-bit arithmetic.
    const std::uint64_t rem = (~std::uint64_t{0} % n + 1) % n;
    for (;;) {
      const std::uint64_t x = next();
      if (rem == 0 || x < 0 - rem) return x % n;  // 0 - rem wraps to 2**64 - rem
    }
  }

 private:
  std::uint64_t state_;
};

// The 52 cards (0..51, as solitaire_rl.envs.cards numbers them) of `{game}-random-v1-{number}` in deal order.
inline std::array<std::uint8_t, 52> random_deal(const std::string& game, std::uint64_t number) {
  std::array<std::uint8_t, 52> cards{};
  for (int i = 0; i < 52; ++i) cards[i] = static_cast<std::uint8_t>(i);
  SplitMix64 rng(fnv1a64(game + "-random-v1-" + std::to_string(number)));
  for (int i = 51; i > 0; --i) {
    const int j = static_cast<int>(rng.below(static_cast<std::uint64_t>(i) + 1));
    const std::uint8_t t = cards[i];
    cards[i] = cards[j];
    cards[j] = t;
  }
  return cards;
}

}  // namespace solitaire
