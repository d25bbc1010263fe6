#include "klondike/visited_table.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace solitaire::klondike {

namespace {

constexpr std::size_t kInitialSlots = std::size_t{1} << 14;
constexpr std::size_t kMinSlots = 16;
constexpr std::size_t kMaxSlots = std::size_t{1} << 32;  // home() scales a 32-bit hash
[[maybe_unused]] constexpr std::size_t kHugePage = std::size_t{2} << 20;

// Zeroed memory; huge pages on Linux for large blocks. Freed with std::free.
void* zeroed(std::size_t bytes) {
  void* memory = nullptr;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (bytes >= kHugePage) {
    const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    memory = std::aligned_alloc(kHugePage, rounded);
    if (memory != nullptr) madvise(memory, rounded, MADV_HUGEPAGE);
  }
#endif
  if (memory == nullptr) memory = std::malloc(bytes);
  if (memory != nullptr) std::memset(memory, 0, bytes);
  return memory;
}

}  // namespace

bool VisitedTable::allocate(std::size_t capacity) {
  auto* slots = static_cast<StateKey*>(zeroed(capacity * sizeof(StateKey)));
  auto* tags = static_cast<std::uint32_t*>(zeroed(capacity * sizeof(std::uint32_t)));
  if (slots == nullptr || tags == nullptr) {
    std::free(slots);
    std::free(tags);
    return false;
  }
  slots_ = slots;
  tags_ = tags;
  capacity_ = capacity;
  ++generation_;
  return true;
}

void VisitedTable::release() {
  std::free(slots_);
  std::free(tags_);
  slots_ = nullptr;
  tags_ = nullptr;
}

VisitedTable::VisitedTable(std::size_t max_bytes) : max_bytes_(max_bytes) {
  const std::size_t fit = max_bytes / kSlotBytes;
  if (!allocate(std::max(kMinSlots, std::min(kInitialSlots, fit)))) throw std::bad_alloc();
}

VisitedTable::~VisitedTable() { release(); }

std::size_t VisitedTable::find(const StateKey& key) const {
  for (std::size_t i = home(key);; i = (i + 1 == capacity_) ? 0 : i + 1) {
    const StateKey& slot = slots_[i];
    if (slot.empty()) return npos;
    if (slot == key) return i;
  }
}

void VisitedTable::rehash_from(StateKey* old_slots, std::uint32_t* old_tags, std::size_t old_capacity,
                               bool lost_only) {
  size_ = 0;
  for (std::size_t j = 0; j < old_capacity; ++j) {
    const StateKey& key = old_slots[j];
    if (key.empty() || (lost_only && (key.w[3] & StateKey::kLostBit) == 0)) continue;
    std::size_t i = home(key);
    while (!slots_[i].empty()) i = (i + 1 == capacity_) ? 0 : i + 1;
    slots_[i] = key;
    tags_[i] = old_tags[j];
    ++size_;
  }
}

bool VisitedTable::grow() {
  const std::size_t old_bytes = bytes();
  if (max_bytes_ <= old_bytes) return false;
  const std::size_t room = (max_bytes_ - old_bytes) / kSlotBytes;
  const std::size_t target = std::min({capacity_ * 2, room, kMaxSlots});
  if (target < capacity_ + capacity_ / 8) return false;
  StateKey* old_slots = slots_;
  std::uint32_t* old_tags = tags_;
  const std::size_t old_capacity = capacity_;
  if (!allocate(target)) {
    slots_ = old_slots;
    tags_ = old_tags;
    return false;
  }
  rehash_from(old_slots, old_tags, old_capacity, false);
  std::free(old_slots);
  std::free(old_tags);
  return true;
}

void VisitedTable::purge_unproven() {
  // Compact in place through a copy of the lost entries (they are few next to the table).
  std::size_t lost = 0;
  for (std::size_t j = 0; j < capacity_; ++j) lost += (slots_[j].w[3] & StateKey::kLostBit) != 0;
  StateKey* keep = static_cast<StateKey*>(std::malloc(std::max<std::size_t>(lost, 1) * sizeof(StateKey)));
  std::uint32_t* keep_tags =
      static_cast<std::uint32_t*>(std::malloc(std::max<std::size_t>(lost, 1) * sizeof(std::uint32_t)));
  if (keep == nullptr || keep_tags == nullptr) {  // no room to keep them: forget everything
    std::free(keep);
    std::free(keep_tags);
    lost = 0;
    keep = nullptr;
    keep_tags = nullptr;
  } else {
    std::size_t k = 0;
    for (std::size_t j = 0; j < capacity_; ++j) {
      if ((slots_[j].w[3] & StateKey::kLostBit) != 0) {
        keep[k] = slots_[j];
        keep_tags[k++] = tags_[j];
      }
    }
  }
  std::memset(static_cast<void*>(slots_), 0, capacity_ * sizeof(StateKey));
  std::memset(tags_, 0, capacity_ * sizeof(std::uint32_t));
  ++generation_;
  if (keep != nullptr) rehash_from(keep, keep_tags, lost, false);
  else size_ = 0;
  std::free(keep);
  std::free(keep_tags);
  saturated_ = false;
}

VisitedTable::Probe VisitedTable::insert(const StateKey& key, std::uint32_t tag) {
  std::size_t i = home(key);
  for (;; i = (i + 1 == capacity_) ? 0 : i + 1) {
    const StateKey& slot = slots_[i];
    if (slot.empty()) break;
    if (slot == key) return {Insert::present, i};
  }
  if ((size_ + 1) * 4 > capacity_ * 3) {
    if (grow()) return insert(key, tag);
    if ((size_ + 1) * 10 > capacity_ * 9) {
      saturated_ = true;
      return {Insert::full, npos};
    }
  }
  slots_[i] = key;
  tags_[i] = tag;
  ++size_;
  return {Insert::added, i};
}

}  // namespace solitaire::klondike
