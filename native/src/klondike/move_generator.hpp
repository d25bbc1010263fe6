// Which steps the search tries from a state, and in what order.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "klondike/board.hpp"
#include "klondike/solver.hpp"
#include "klondike/step.hpp"

namespace solitaire::klondike {

class MoveGenerator {
 public:
  explicit MoveGenerator(const SolveOptions& options);

  // 0: the default order; otherwise every list is shuffled by a generator seeded with `seed`.
  void reseed(std::uint64_t seed);

  // A forced step (a safe card going up, or a card that can come straight back), if any.
  // `columns` (bit c: column c) limits the search to those columns and skips the talon: right
  // when the board had no forced step and since then only cards moved between columns and from
  // the talon (no foundation changed), as only the columns they touched can have one now.
  static constexpr std::uint32_t kEverywhere = ~std::uint32_t{0};
  bool forced_step(const Board& board, Step& step, std::uint32_t columns = kEverywhere) const;

  // Appends the moves worth trying, best first: talon cards to foundations, moves that turn a
  // face-down card up, other foundation moves, partial runs that free a foundation card, talon
  // cards to columns, foundation cards coming back down, and last runs that empty a column.
  // A move is one step, or several chained ones (Step::chained).
  // `board` is changed while the moves are listed and left as it was.
  void generate(Board& board, std::vector<Step>& out);

 private:
  bool king_could_use_empty_column(const Board& board) const;
  // Where a King could come from to fill a column a whole run has just left (what rule 8 chains
  // to the run): bit c, column c's face-up run is headed by a King with cards under it; then a
  // King the talon can reach, and a King on its foundation that rule 2 allows down. A run moving
  // onto another column changes none of these but its own column's bit.
  static constexpr std::uint32_t kTalonKing = 1u << 7;
  static constexpr std::uint32_t kFoundationKing = 1u << 8;
  std::uint32_t king_sources(const Board& board) const;
  // Rule 8: emits `empty` (a whole run that leaves its column empty) chained with each move
  // that puts a King into that column next.
  void emit_king_into(Board& board, const Step& empty);
  // Whether the end card of `col` is a forced step (rules 1 and 6).
  bool lifted_at_once(const Board& board, int col) const;
  // Chains of foundation cards brought down, each onto the one before, the first onto the end of
  // column `col`, ended by a card from the talon or a column put on the last (canonical lifts).
  void extend_chain(Board& board, int col, std::vector<Step>& chain, int depth);
  void emit_chain(const std::vector<Step>& chain, const Step& last);
  // Rule 11: emits the talon card put on a column (`put`) chained with each next move that
  // depends on it (touches the talon, a foundation or `put`'s column), or alone where the card
  // would go up at once or is a King put into an empty column.
  void emit_talon_with_follow_up(Board& board, const Step& put);

  SolveOptions options_;
  bool shuffle_ = false;
  std::uint64_t rng_ = 0;
  std::vector<Step> buckets_[8];
  std::vector<Step> chain_;
  std::vector<std::size_t> starts_;
  std::vector<Step> shuffled_;
  std::unique_ptr<MoveGenerator> inner_;  // rule 11's follow-ups: this generator with rule 11 off
  std::vector<Step> follow_;
};

}  // namespace solitaire::klondike
