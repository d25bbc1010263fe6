#include "pyramid/geometry.hpp"

#include <stdexcept>
#include <string>

namespace solitaire::pyramid {

Geometry::Geometry(int rows) : rows_(rows) {
  if (rows < 1 || rows > kMaxRows) {
    throw std::invalid_argument("a pyramid has 1 to 7 rows, not " + std::to_string(rows));
  }
  size_ = rows * (rows + 1) / 2;
  all_mask_ = (std::uint32_t{1} << size_) - 1;
  for (int r = rows; r >= 1; --r) {  // bottom up, so below_ of the covering cards is ready
    for (int c = 1; c <= r; ++c) {
      const int p = r * (r - 1) / 2 + c - 1;
      if (r == rows) continue;
      const int left = (r + 1) * r / 2 + c - 1;
      const int right = left + 1;
      cover_[p] = (std::uint32_t{1} << left) | (std::uint32_t{1} << right);
      below_[p] = cover_[p] | below_[left] | below_[right];
    }
  }
  for (int p = 0; p < size_; ++p) {
    for (int q = 0; q < size_; ++q) {
      if ((below_[q] >> p) & 1U) above_[p] |= std::uint32_t{1} << q;
    }
  }
}

bool Geometry::is_reachable_removed_set(std::uint32_t removed) const {
  if ((removed & ~all_mask_) != 0) return false;
  for (int p = 0; p < size_; ++p) {
    if (((removed >> p) & 1U) && (removed & cover_[p]) != cover_[p]) return false;
  }
  return true;
}

}  // namespace solitaire::pyramid
