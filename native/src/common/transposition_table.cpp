#include "common/transposition_table.hpp"

#include <algorithm>
#include <new>

namespace solitaire {

namespace {
constexpr std::size_t kInitialSlots = std::size_t{1} << 9;  // 8 KiB
}

TranspositionTable::TranspositionTable(std::size_t max_bytes) {
  // The largest power of two P with P + P/2 slots (the last doubling's peak) within max_bytes.
  const std::size_t budget_slots = max_bytes / sizeof(Slot);
  std::size_t slots = kBucketSlots;
  while (slots * 2 + slots <= budget_slots) slots *= 2;
  max_slots_ = slots;
  slots_.resize(std::min(kInitialSlots, max_slots_));
  bucket_mask_ = slots_.size() / kBucketSlots - 1;
}

std::uint64_t TranspositionTable::mix(std::uint64_t key) {
  // SplitMix64's finaliser: fixed integer arithmetic, the same on every platform.
  key ^= key >> 30;
  key *= 0xBF58476D1CE4E5B9ULL;
  key ^= key >> 27;
  key *= 0x94D049BB133111EBULL;
  key ^= key >> 31;
  return key;
}

void TranspositionTable::put(std::uint64_t key, std::int32_t value, bool keep_smaller) {
  if (entries_ * 2 >= slots_.size() && slots_.size() < max_slots_) grow();
  Slot* bucket = &slots_[bucket_index(key)];
  for (std::size_t i = 0; i < kBucketSlots; ++i) {
    if (!bucket[i].used) {
      bucket[i] = Slot{key, value, 1};
      ++entries_;
      return;
    }
    if (bucket[i].key == key) {
      if (!keep_smaller || value < bucket[i].value) bucket[i].value = value;
      return;
    }
  }
  bucket[(mix(key) >> 62) & (kBucketSlots - 1)] = Slot{key, value, 1};
  ++replacements_;
}

void TranspositionTable::grow() {
  std::vector<Slot> bigger;
  try {
    bigger.resize(slots_.size() * 2);
  } catch (const std::bad_alloc&) {
    max_slots_ = slots_.size();  // no memory for more: stay at this size
    return;
  }
  bigger.swap(slots_);
  bucket_mask_ = slots_.size() / kBucketSlots - 1;
  entries_ = 0;
  for (const Slot& slot : bigger) {
    if (slot.used) put(slot.key, slot.value, false);
  }
}

void TranspositionTable::clear() {
  std::fill(slots_.begin(), slots_.end(), Slot{});
  entries_ = 0;
}

}  // namespace solitaire
