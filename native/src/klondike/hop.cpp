#include "klondike/hop.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "common/planner_options.hpp"
#include "klondike/replay.hpp"
#include "klondike/solver.hpp"

namespace solitaire::klondike {

namespace {

Card& slot_card(Position& p, const UnknownSlot& slot) {
  if (slot.column < 0) return p.stock[static_cast<std::size_t>(slot.index)];
  return p.columns[static_cast<std::size_t>(slot.column)].face_down[static_cast<std::size_t>(slot.index)];
}

}  // namespace

void check_options(const HopOptions& options) {
  require_option(options.draw_count >= 1, "hop", "draw_count must be at least 1");
  check_states_per_solve(options.states_per_solve, "hop");
  check_sample_budget(options.budget, "hop");
}

PlannerInput check_planner_input(const Position& base, const std::vector<UnknownSlot>& unknown,
                                 const std::vector<Action>& candidates, int draw_count, const char* who) {
  const std::string name(who);
  const std::string error = validate(base);
  if (!error.empty()) throw std::invalid_argument(name + ": " + error);
  std::vector<bool> used_stock(base.stock.size(), false);
  std::vector<std::vector<bool>> used_down;
  for (const ColumnCards& col : base.columns) used_down.emplace_back(col.face_down.size(), false);
  for (const UnknownSlot& slot : unknown) {
    const bool ok = slot.column < 0
        ? slot.column == -1 && slot.index >= 0 && slot.index < static_cast<int>(base.stock.size())
        : slot.column < static_cast<int>(base.columns.size()) && slot.index >= 0 &&
              slot.index < static_cast<int>(base.columns[static_cast<std::size_t>(slot.column)].face_down.size());
    if (!ok) throw std::invalid_argument(name + ": an unknown slot is outside the position");
    std::vector<bool>::reference used = slot.column < 0
        ? used_stock[static_cast<std::size_t>(slot.index)]
        : used_down[static_cast<std::size_t>(slot.column)][static_cast<std::size_t>(slot.index)];
    if (used) throw std::invalid_argument(name + ": an unknown slot is listed twice");
    used = true;
  }
  PlannerInput input;
  input.moves = candidates;
  for (Action& move : input.moves) {
    if (move.kind == ActionKind::draw) {
      move.count = std::min(draw_count, static_cast<int>(base.stock.size()));
    }
    ReplayGame check(base, draw_count);
    const std::string why = check.apply(move);
    if (!why.empty()) throw std::invalid_argument(name + ": a candidate is not legal: " + why);
  }
  Position copy = base;
  for (const UnknownSlot& slot : unknown) input.cards.push_back(slot_card(copy, slot));
  return input;
}

void deal_sample(Position& deal, const std::vector<UnknownSlot>& unknown, std::vector<Card> cards,
                 SplitMix64& rng) {
  shuffle(rng, cards);
  for (std::size_t i = 0; i < unknown.size(); ++i) slot_card(deal, unknown[i]) = cards[i];
}

bool same_move(const Action& a, const Action& b) {
  if (a.kind != b.kind) return false;
  if (a.kind == ActionKind::draw || a.kind == ActionKind::recycle) return true;
  return a.src == b.src && a.dst == b.dst && a.count == b.count;
}

HopResult hop_evaluate(const Position& base, const std::vector<UnknownSlot>& unknown,
                       const std::vector<Action>& candidates, const HopOptions& options) {
  check_options(options);
  const PlannerInput input = check_planner_input(base, unknown, candidates, options.draw_count, "hop");
  const std::vector<Action>& moves = input.moves;
  const std::vector<Card>& cards = input.cards;

  SolveOptions solve_options;
  solve_options.draw_count = options.draw_count;
  const int n = static_cast<int>(moves.size());
  // One slot per sample number, written only by the thread that evaluates that sample.
  std::vector<std::vector<Action>> lines(static_cast<std::size_t>(std::max(1, options.budget.max_samples)));

  auto evaluate = [&](int sample, std::vector<SampleOutcome>& out, const auto& stop) -> std::int64_t {
    Position deal = base;
    SplitMix64 rng = sample_rng(options.seed, sample);
    deal_sample(deal, unknown, cards, rng);
    SolveBudget per_solve;
    per_solve.max_states = options.states_per_solve;
    per_solve.cancel = options.budget.cancel;
    return solve_candidates(
        deal, n, [&](const Position& p) { return solve(p, solve_options, per_solve); },
        [&](const Action& first, int c) { return same_move(first, moves[static_cast<std::size_t>(c)]); },
        [&](int c, bool& won) {
          ReplayGame game(deal, options.draw_count);
          game.apply(moves[static_cast<std::size_t>(c)]);
          won = game.won();
          return game.position();
        },
        stop, out,
        [&](const SolveResult& root) {
          if (root.status == Status::winnable) lines[static_cast<std::size_t>(sample)] = root.line;
        });
  };
  HopResult result;
  result.tally = run_samples(n, options.budget, evaluate);
  lines.resize(static_cast<std::size_t>(result.tally.samples));
  result.lines = std::move(lines);
  return result;
}

}  // namespace solitaire::klondike
