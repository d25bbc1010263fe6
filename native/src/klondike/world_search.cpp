#include "klondike/world_search.hpp"

#include "klondike/replay.hpp"
#include "klondike/solver.hpp"

namespace solitaire::klondike {

WorldSearch search_world(const Position& base, const std::vector<UnknownSlot>& unknown,
                         const std::vector<Card>& cards, SplitMix64 rng, const std::vector<Action>& line,
                         const CappedSearch& search) {
  Position deal = base;
  deal_sample(deal, unknown, cards, rng);
  ReplayGame game(deal, search.draw_count);
  for (const Action& a : line) game.apply(a);
  WorldSearch out;
  if (game.won()) {
    out.outcome = WorldOutcome::won;
    return out;
  }
  SolveOptions options;
  options.draw_count = search.draw_count;
  options.surely_won_stops = search.surely_won_stops;
  SolveBudget budget;
  budget.max_states = search.cap;
  budget.cancel = search.cancel;
  const SolveResult solved = solve(game.position(), options, budget);
  out.states = solved.states;
  if (solved.status == Status::winnable) {
    out.outcome = WorldOutcome::won;
  } else if (solved.status == Status::not_winnable) {
    out.outcome = WorldOutcome::lost;
  } else {
    out.outcome = solved.stop_reason == StopReason::cancelled ? WorldOutcome::skipped : WorldOutcome::cut;
  }
  return out;
}

}  // namespace solitaire::klondike
