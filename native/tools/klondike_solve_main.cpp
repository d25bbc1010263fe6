// Development driver for the Klondike solver: solves positions read one per line.
//
//   klondike_solve [--draw N] [--time S] [--cpu-time] [--states N] [--memory MIB] [--seed N]
//                  [--no-safe] [--no-partial] [--no-lifts] [--no-king-chains] [--talon-wait]
//                  [--no-dead-end] [--no-dead-end-in-search] [--no-sleep-sets]
//                  [--no-symmetry] [--no-restarts] [--line] [--check] < positions.txt
//
// Each input line is "NAME FIELDS...", FIELDS being a position in the text form of
// klondike/position_text.hpp (blank lines and lines starting with '#' are skipped). Each output
// line is tab-separated: name, status (winnable / not_winnable / unknown), stop reason, seconds,
// states, table entries, line length, check (ok / FAIL: ... / -), and the line with --line.
// The --no-* flags turn off the solver's shortcuts one by one (SolveOptions), for cross-checks;
// --talon-wait turns on rule 11 (SolveOptions::talon_waits, off by default).
// --check replays every winning line in the independent replayer (klondike/replay.hpp).
// --cpu-time counts --time (and the reported seconds) in CPU time rather than wall-clock time.
// --memory caps the visited-state table in MiB; unset, it is every native search's default
// (solitaire::kDefaultMaxMemoryBytes, 512 MiB; benchmarks/klondike_solver_native.py passes 1024).
//
// Built by the top-level CMakeLists.txt as the target klondike_solve with -DSOLITAIRE_NATIVE_TOOLS=ON
// (native/README.md); benchmarks/klondike_solver_native.py still compiles it with g++ on its own.
#include <cstdlib>
#include <iostream>
#include <string>

#include "klondike/position_text.hpp"
#include "klondike/replay.hpp"
#include "klondike/solver.hpp"

namespace kl = solitaire::klondike;

namespace {

const char* status_name(kl::Status s) {
  switch (s) {
    case kl::Status::winnable:
      return "winnable";
    case kl::Status::not_winnable:
      return "not_winnable";
    case kl::Status::unknown:
      return "unknown";
  }
  return "?";
}

const char* stop_name(kl::StopReason r) {
  switch (r) {
    case kl::StopReason::none:
      return "none";
    case kl::StopReason::time:
      return "time";
    case kl::StopReason::states:
      return "states";
    case kl::StopReason::memory:
      return "memory";
    case kl::StopReason::cancelled:
      return "cancelled";
  }
  return "?";
}

int usage() {
  std::cerr << "usage: klondike_solve [--draw N] [--time S] [--cpu-time] [--states N] [--memory MIB]\n"
               "                      [--seed N] [--no-safe] [--no-partial] [--no-lifts] [--no-king-chains] [--talon-wait]\n"
               "                      [--no-dead-end] [--no-dead-end-in-search]\n"
               "                      [--no-sleep-sets] [--no-symmetry] [--no-restarts] [--line] [--check] < positions\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  kl::SolveOptions options;
  kl::SolveBudget budget;
  bool print_line = false;
  bool check = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    const char* v = nullptr;
    if (arg == "--draw" && (v = value())) {
      options.draw_count = std::atoi(v);
    } else if (arg == "--time" && (v = value())) {
      budget.time_limit_s = std::atof(v);
    } else if (arg == "--states" && (v = value())) {
      budget.max_states = std::strtoull(v, nullptr, 10);
    } else if (arg == "--memory" && (v = value())) {
      budget.max_memory_bytes = static_cast<std::size_t>(std::atof(v) * 1024 * 1024);
    } else if (arg == "--seed" && (v = value())) {
      options.order_seed = std::strtoull(v, nullptr, 10);
    } else if (arg == "--no-safe") {
      options.safe_foundation_moves = false;
    } else if (arg == "--no-partial") {
      options.partial_run_rule = false;
    } else if (arg == "--no-lifts") {
      options.canonical_lifts = false;
    } else if (arg == "--no-sleep-sets") {
      options.sleep_sets = false;
    } else if (arg == "--no-symmetry") {
      options.suit_symmetry = false;
    } else if (arg == "--no-king-chains") {
      options.kings_follow_emptying = false;
    } else if (arg == "--talon-wait") {
      options.talon_waits = true;
    } else if (arg == "--no-dead-end") {
      options.dead_end_check = false;
    } else if (arg == "--dead-end-in-search") {
      options.dead_end_in_search = true;  // the default now; kept for old command lines
    } else if (arg == "--no-dead-end-in-search") {
      options.dead_end_in_search = false;
    } else if (arg == "--no-restarts") {
      options.restarts = false;
    } else if (arg == "--cpu-time") {
      budget.cpu_clock = true;
    } else if (arg == "--line") {
      print_line = true;
    } else if (arg == "--check") {
      check = true;
    } else {
      return usage();
    }
  }
  std::string text;
  int failures = 0;
  while (std::getline(std::cin, text)) {
    if (text.empty() || text[0] == '#') continue;
    const std::size_t space = text.find(' ');
    const std::string name = text.substr(0, space);
    const std::string fields = space == std::string::npos ? std::string() : text.substr(space + 1);
    kl::Position position;
    std::string error;
    if (!kl::parse_position(fields, position, error)) {
      std::cout << name << "\terror\t" << error << "\n";
      ++failures;
      continue;
    }
    kl::SolveResult result;
    try {
      result = kl::solve(position, options, budget);
    } catch (const std::invalid_argument& e) {
      std::cout << name << "\terror\t" << e.what() << "\n";
      ++failures;
      continue;
    }
    std::string verdict = "-";
    if (check && result.status == kl::Status::winnable) {
      const std::string why = kl::check_winning_line(position, options.draw_count, result.line);
      verdict = why.empty() ? "ok" : "FAIL: " + why;
      if (!why.empty()) ++failures;
    }
    std::cout << name << '\t' << status_name(result.status) << '\t' << stop_name(result.stop_reason) << '\t'
              << result.seconds << '\t' << result.states << '\t' << result.tt_entries << '\t'
              << result.line.size() << '\t' << verdict;
    if (print_line) std::cout << '\t' << kl::line_text(result.line);
    std::cout << std::endl;
  }
  return failures == 0 ? 0 : 1;
}
