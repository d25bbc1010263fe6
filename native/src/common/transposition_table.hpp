// A capped hash map from 64-bit state keys to small values: what a search proved about states.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace solitaire {

// Open addressing in buckets of four 16-byte slots (one cache line). The table starts small and
// doubles while it is more than half full, as long as the old and the new table together fit
// in `max_bytes`; after that it keeps its size and a full bucket gives up one entry (chosen by
// the key's hash, so searches stay deterministic). A solver must only store facts whose loss
// costs time, never correctness.
class TranspositionTable {
 public:
  explicit TranspositionTable(std::size_t max_bytes);

  // The value stored for `key`, or -1.
  std::int32_t find(std::uint64_t key) const {
    const Slot* bucket = &slots_[bucket_index(key)];
    for (std::size_t i = 0; i < kBucketSlots; ++i) {
      if (!bucket[i].used) return -1;
      if (bucket[i].key == key) return bucket[i].value;
    }
    return -1;
  }

  // Start loading the bucket of `key` into the cache, for a find() soon after.
  void prefetch(std::uint64_t key) const {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(&slots_[bucket_index(key)]);
#else
    (void)key;
#endif
  }

  // Store `value` (0 .. 2**31 - 1) for `key`, replacing what was there.
  void store(std::uint64_t key, std::int32_t value) { put(key, value, false); }
  // Store `value` for `key`, or keep the stored value if it is smaller.
  void store_min(std::uint64_t key, std::int32_t value) { put(key, value, true); }
  void clear();

  std::size_t entries() const { return entries_; }
  std::size_t capacity() const { return slots_.size(); }
  std::size_t bytes() const { return slots_.size() * sizeof(Slot); }
  std::size_t max_slots() const { return max_slots_; }
  std::uint64_t replacements() const { return replacements_; }

 private:
  struct Slot {
    std::uint64_t key = 0;
    std::int32_t value = 0;
    std::int32_t used = 0;
  };
  static constexpr std::size_t kBucketSlots = 4;
  static std::uint64_t mix(std::uint64_t key);
  std::size_t bucket_index(std::uint64_t key) const {
    return static_cast<std::size_t>(mix(key) & bucket_mask_) * kBucketSlots;
  }
  void put(std::uint64_t key, std::int32_t value, bool keep_smaller);
  void grow();

  std::vector<Slot> slots_;
  std::size_t max_slots_ = kBucketSlots;
  std::uint64_t bucket_mask_ = 0;
  std::size_t entries_ = 0;
  std::uint64_t replacements_ = 0;
};

}  // namespace solitaire
