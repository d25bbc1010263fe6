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

template <class Key>
bool BasicVisitedTable<Key>::allocate(std::size_t capacity) {
  auto* slots = static_cast<Key*>(zeroed(capacity * sizeof(Key)));
  if (slots == nullptr) return false;
  slots_ = slots;
  capacity_ = capacity;
  ++generation_;
  return true;
}

template <class Key>
void BasicVisitedTable<Key>::release() {
  std::free(slots_);
  slots_ = nullptr;
}

template <class Key>
BasicVisitedTable<Key>::BasicVisitedTable(std::size_t max_bytes) : max_bytes_(max_bytes) {
  const std::size_t fit = max_bytes / kSlotBytes;
  if (!allocate(std::max(kMinSlots, std::min(kInitialSlots, fit)))) throw std::bad_alloc();
}

template <class Key>
BasicVisitedTable<Key>::~BasicVisitedTable() { release(); }

template <class Key>
std::size_t BasicVisitedTable<Key>::find(const Key& key) const {
  for (std::size_t i = home(key);; i = (i + 1 == capacity_) ? 0 : i + 1) {
    const Key& slot = slots_[i];
    if (slot.empty()) return npos;
    if (slot == key) return i;
  }
}

template <class Key>
void BasicVisitedTable<Key>::rehash_from(Key* old_slots, std::size_t old_capacity) {
  size_ = 0;
  for (std::size_t j = 0; j < old_capacity; ++j) {
    const Key& key = old_slots[j];
    if (key.empty()) continue;
    std::size_t i = home(key);
    while (!slots_[i].empty()) i = (i + 1 == capacity_) ? 0 : i + 1;
    slots_[i] = key;
    ++size_;
  }
}

template <class Key>
bool BasicVisitedTable<Key>::grow() {
  const std::size_t old_bytes = bytes();
  if (max_bytes_ <= old_bytes) return false;
  const std::size_t room = (max_bytes_ - old_bytes) / kSlotBytes;
  const std::size_t target = std::min({capacity_ * 2, room, kMaxSlots});
  if (target < capacity_ + capacity_ / 8) return false;
  Key* old_slots = slots_;
  const std::size_t old_capacity = capacity_;
  if (!allocate(target)) {
    slots_ = old_slots;
    return false;
  }
  rehash_from(old_slots, old_capacity);
  std::free(old_slots);
  return true;
}

template <class Key>
void BasicVisitedTable<Key>::erase(const Key& key) {
  const std::size_t slot = find(key);
  if (slot == npos) return;
  erase_slot(slot);
  ++generation_;
}

template <class Key>
void BasicVisitedTable<Key>::erase_slot(std::size_t hole) {
  slots_[hole] = Key{};
  --size_;
  for (std::size_t i = (hole + 1 == capacity_) ? 0 : hole + 1; !slots_[i].empty();
       i = (i + 1 == capacity_) ? 0 : i + 1) {
    const std::size_t h = home(slots_[i]);
    // The entry at i may fill the hole when its home is not in (hole, i] cyclically.
    const bool stays = hole <= i ? (hole < h && h <= i) : (hole < h || h <= i);
    if (stays) continue;
    slots_[hole] = slots_[i];
    slots_[i] = Key{};
    hole = i;
  }
}

template <class Key>
typename BasicVisitedTable<Key>::Probe BasicVisitedTable<Key>::insert(const Key& key) {
  std::size_t i = home(key);
  for (;; i = (i + 1 == capacity_) ? 0 : i + 1) {
    const Key& slot = slots_[i];
    if (slot.empty()) break;
    if (slot == key) return {Insert::present, i};
  }
  if ((size_ + 1) * 4 > capacity_ * 3) {
    if (grow()) return insert(key);
    if ((size_ + 1) * 10 > capacity_ * 9) {
      saturated_ = true;
      return {Insert::full, npos};
    }
  }
  slots_[i] = key;
  ++size_;
  return {Insert::added, i};
}

template class BasicVisitedTable<StateKey>;
template class BasicVisitedTable<CompactKey>;

}  // namespace solitaire::klondike
