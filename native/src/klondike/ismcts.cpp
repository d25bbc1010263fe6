#include "klondike/ismcts.hpp"

#include <chrono>
#include <cmath>
#include <ctime>
#include <limits>
#include <stdexcept>

#include "common/planner_options.hpp"
#include "common/random_deal.hpp"
#include "common/sample_loop.hpp"
#include "klondike/replay.hpp"
#include "klondike/solver.hpp"

namespace solitaire::klondike {

namespace {

// What the player knows of the cards: bit c set when card c has been seen.
using CardSet = std::uint64_t;

CardSet shown_cards(const Position& p) {
  CardSet shown = 0;
  for (const ColumnCards& col : p.columns) {
    for (Card c : col.face_up) shown |= CardSet{1} << c;
  }
  for (Card c : p.waste) shown |= CardSet{1} << c;
  return shown;
}

struct Child {
  int action = 0;     // index into the node's moves
  CardSet shown = 0;  // the unknown cards the move turned up (0: none)
  int node = -1;
};

struct Node {
  std::vector<Action> moves;  // legal in every sample of this node (legality needs known cards only)
  std::vector<int> visits;
  std::vector<double> value_sum;
  std::vector<Child> children;
  int total = 0;
  bool expanded = false;
};

double leaf_value(Status status) {
  if (status == Status::winnable) return 1.0;
  if (status == Status::not_winnable) return 0.0;
  return 0.5;
}

}  // namespace

void check_options(const IsmctsOptions& options) {
  require_option(options.draw_count >= 1, "ismcts", "draw_count must be at least 1");
  check_states_per_solve(options.states_per_solve, "ismcts");
  require_option(options.max_iterations >= 1, "ismcts", "max_iterations must be at least 1");
  check_time_limit(options.time_limit_s, "ismcts");
  require_option(std::isfinite(options.exploration) && options.exploration >= 0.0, "ismcts",
                 "exploration must be a finite number, at least 0");
  require_option(options.max_depth >= 1, "ismcts", "max_depth must be at least 1");
}

IsmctsResult ismcts_evaluate(const Position& base, const std::vector<UnknownSlot>& unknown,
                             const std::vector<Action>& candidates, const IsmctsOptions& options) {
  check_options(options);
  const PlannerInput input = check_planner_input(base, unknown, candidates, options.draw_count, "ismcts");
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();

  SolveOptions solve_options;
  solve_options.draw_count = options.draw_count;
  SolveBudget per_solve;
  per_solve.max_states = options.states_per_solve;
  per_solve.cancel = options.cancel;

  CardSet known_at_root = ~CardSet{0};
  for (Card c : input.cards) known_at_root &= ~(CardSet{1} << c);

  std::vector<Node> nodes(1);
  nodes[0].moves = input.moves;
  nodes[0].visits.assign(input.moves.size(), 0);
  nodes[0].value_sum.assign(input.moves.size(), 0.0);
  nodes[0].expanded = true;

  IsmctsResult result;
  SplitMix64 rng(options.seed ^ 0x9E3779B97F4A7C15ULL);
  std::vector<std::pair<int, int>> path;  // (node, move index)
  for (int iteration = 0; iteration < options.max_iterations; ++iteration) {
    if (options.cancel != nullptr && options.cancel->is_cancelled()) {
      result.stop_reason = StopReason::cancelled;
      break;
    }
    if (options.time_limit_s > 0.0 &&
        std::chrono::duration<double>(Clock::now() - start).count() >= options.time_limit_s) {
      result.stop_reason = StopReason::time;
      break;
    }
    if (options.max_states > 0 && result.states >= options.max_states) {
      result.stop_reason = StopReason::states;
      break;
    }
    Position deal = base;
    deal_sample(deal, unknown, input.cards, rng);
    ReplayGame game(deal, options.draw_count);
    CardSet known = known_at_root;
    path.clear();
    int node = 0;
    double value = -1.0;
    for (int depth = 0;; ++depth) {
      Node& here = nodes[static_cast<std::size_t>(node)];
      if (!here.expanded) {
        here.moves = game.legal_actions();
        here.visits.assign(here.moves.size(), 0);
        here.value_sum.assign(here.moves.size(), 0.0);
        here.expanded = true;
      }
      if (here.moves.empty()) {
        value = game.won() ? 1.0 : 0.0;
        break;
      }
      // UCB1; a move not tried yet first, in the order given.
      int pick = -1;
      double best = -std::numeric_limits<double>::infinity();
      const double log_total = std::log(static_cast<double>(here.total) + 1.0);
      for (std::size_t m = 0; m < here.moves.size(); ++m) {
        if (here.visits[m] == 0) {
          pick = static_cast<int>(m);
          break;
        }
        const double n = here.visits[m];
        const double score = here.value_sum[m] / n + options.exploration * std::sqrt(log_total / n);
        if (score > best) {
          best = score;
          pick = static_cast<int>(m);
        }
      }
      path.emplace_back(node, pick);
      game.apply(here.moves[static_cast<std::size_t>(pick)]);
      if (game.won()) {
        value = 1.0;
        break;
      }
      const Position now = game.position();
      const CardSet shown = shown_cards(now) & ~known;
      known |= shown;
      int child = -1;
      for (const Child& c : nodes[static_cast<std::size_t>(node)].children) {
        if (c.action == pick && c.shown == shown) {
          child = c.node;
          break;
        }
      }
      const bool fresh = child < 0;
      if (fresh) {
        child = static_cast<int>(nodes.size());
        nodes[static_cast<std::size_t>(node)].children.push_back({pick, shown, child});
        nodes.emplace_back();
      }
      if (fresh || depth + 1 >= options.max_depth) {
        const SolveResult solved = solve(now, solve_options, per_solve);
        result.states += solved.states;
        value = leaf_value(solved.status);
        break;
      }
      node = child;
    }
    for (const auto& [n, m] : path) {
      Node& on = nodes[static_cast<std::size_t>(n)];
      on.visits[static_cast<std::size_t>(m)] += 1;
      on.value_sum[static_cast<std::size_t>(m)] += value;
      on.total += 1;
    }
    result.iterations = iteration + 1;
  }
  result.visits = nodes[0].visits;
  result.value_sum = nodes[0].value_sum;
  result.nodes = static_cast<int>(nodes.size());
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

}  // namespace solitaire::klondike
