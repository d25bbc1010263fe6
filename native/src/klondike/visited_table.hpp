// The states a search has entered, each marked "proved lost" or not (then it is pending: the search
// keeps its depth-first index, see solver.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "klondike/state_key.hpp"

namespace solitaire::klondike {

// Open addressing with linear probing over exact keys (StateKey: 32 bytes a slot; CompactKey: 16;
// one cache line per probe; the lost mark is a spare bit of the key). The table starts small and grows while it is
// three-quarters full, to at most twice its size and never so far that the old and the new
// table together would pass `max_bytes`. When it can grow no more it fills to 90% and then
// refuses keys (insert() returns full): the search goes on without recording new states, which
// costs time, never correctness. Large tables ask the OS for huge pages where it has them.
template <class Key>  // StateKey or CompactKey
class BasicVisitedTable {
 public:
  enum class Insert { added, present, full };
  struct Probe {
    Insert result;
    std::size_t slot;  // where the key is (added or present)
  };
  static constexpr std::size_t kSlotBytes = sizeof(Key);

  explicit BasicVisitedTable(std::size_t max_bytes);
  ~BasicVisitedTable();
  BasicVisitedTable(const BasicVisitedTable&) = delete;
  BasicVisitedTable& operator=(const BasicVisitedTable&) = delete;

  // Adds `key`, or finds it. Slots stay valid until the next insert that grows the table or the
  // next erase (see generation()).
  Probe insert(const Key& key);
  std::size_t find(const Key& key) const;  // a slot, or npos
  static constexpr std::size_t npos = ~std::size_t{0};

  bool is_lost(std::size_t slot) const { return (slots_[slot].w[Key::kWords - 1] & Key::kLostBit) != 0; }
  void mark_lost(std::size_t slot) { slots_[slot].w[Key::kWords - 1] |= Key::kLostBit; }
  // Forgets `key` if the table holds it (other entries may move).
  void erase(const Key& key);
  // Lets a full table record states again (after entries were erased).
  void reopen() { saturated_ = false; }
  // Changes whenever slots move (growth, erase).
  std::uint64_t generation() const { return generation_; }

  std::size_t size() const { return size_; }
  std::size_t bytes() const { return capacity_ * kSlotBytes; }
  bool saturated() const { return saturated_; }

 private:
  std::size_t home(const Key& key) const {  // maps the hash's top 32 bits onto 0..capacity-1
    return static_cast<std::size_t>(((key.hash() >> 32) * static_cast<std::uint64_t>(capacity_)) >> 32);
  }
  bool allocate(std::size_t capacity);  // fresh zeroed arrays; false when memory is short
  void release();
  bool grow();
  void erase_slot(std::size_t slot);  // removes the entry there; later entries shift back
  void rehash_from(Key* old_slots, std::size_t old_capacity);

  Key* slots_ = nullptr;
  std::size_t capacity_ = 0;
  std::size_t size_ = 0;
  std::size_t max_bytes_ = 0;
  std::uint64_t generation_ = 0;
  bool saturated_ = false;
};

using VisitedTable = BasicVisitedTable<StateKey>;
using CompactVisitedTable = BasicVisitedTable<CompactKey>;

}  // namespace solitaire::klondike
