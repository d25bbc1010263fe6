#include "pyramid/position.hpp"

#include <stdexcept>
#include <string>

#include "pyramid/geometry.hpp"

namespace solitaire::pyramid {

namespace {
void require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument(message);
}
}  // namespace

void validate(const Position& position) {
  const Geometry geometry(position.rows);  // checks rows
  require(static_cast<int>(position.pyramid.size()) == geometry.size(),
          "a pyramid of " + std::to_string(position.rows) + " rows holds " +
              std::to_string(geometry.size()) + " cards, not " +
              std::to_string(position.pyramid.size()));
  for (int r : position.pyramid) require(r >= 1 && r <= 13, "rank out of range 1..13");
  require(geometry.is_reachable_removed_set(position.removed),
          "impossible removed set: a card cannot be removed while a card covers it");
  require(position.stock.size() <= static_cast<std::size_t>(kMaxStock),
          "at most 24 stock and waste cards");
  for (int r : position.stock) require(r >= 1 && r <= 13, "rank out of range 1..13");
  require(position.waste_count >= 0 &&
              position.waste_count <= static_cast<int>(position.stock.size()),
          "waste_count must be between 0 and the number of stock and waste cards");
  require(position.max_passes >= 1 && position.max_passes <= kMaxPasses,
          "max_passes must be 1..4");
  require(position.pass_number >= 1 && position.pass_number <= position.max_passes,
          "pass_number must be 1..max_passes");
}

}  // namespace solitaire::pyramid
