#include "klondike/world_score.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <stdexcept>
#include <string>

#include "common/parallel_for.hpp"
#include "common/planner_options.hpp"
#include "common/random_deal.hpp"
#include "common/sample_loop.hpp"
#include "klondike/world_search.hpp"

namespace solitaire::klondike {

namespace {

constexpr char kUnknown = '\xff';

// What the player knows of a position, as bytes: each column's face-down places (a card where it
// is known, else the unknown mark) and face-up cards, the stock likewise, the waste, the
// foundations and the deck's ranks.
std::string known_text(const Position& base, const std::vector<UnknownSlot>& unknown) {
  std::vector<std::vector<bool>> down_unknown;
  for (const ColumnCards& col : base.columns) down_unknown.emplace_back(col.face_down.size(), false);
  std::vector<bool> stock_unknown(base.stock.size(), false);
  for (const UnknownSlot& slot : unknown) {
    if (slot.column < 0) {
      stock_unknown[static_cast<std::size_t>(slot.index)] = true;
    } else {
      down_unknown[static_cast<std::size_t>(slot.column)][static_cast<std::size_t>(slot.index)] = true;
    }
  }
  std::string text;
  for (std::size_t c = 0; c < base.columns.size(); ++c) {
    const ColumnCards& col = base.columns[c];
    text += 'c';
    for (std::size_t i = 0; i < col.face_down.size(); ++i) {
      text += down_unknown[c][i] ? kUnknown : static_cast<char>(col.face_down[i]);
    }
    text += 'u';
    for (Card card : col.face_up) text += static_cast<char>(card);
  }
  text += 's';
  for (std::size_t i = 0; i < base.stock.size(); ++i) {
    text += stock_unknown[i] ? kUnknown : static_cast<char>(base.stock[i]);
  }
  text += 'w';
  for (Card card : base.waste) text += static_cast<char>(card);
  text += 'f';
  for (int f : base.foundation) text += static_cast<char>(f);
  text += 'r';
  text += static_cast<char>(base.max_rank);
  return text;
}

}  // namespace

void check_options(const WorldScoreOptions& options) {
  const char* who = "world scores";
  require_option(options.draw_count >= 1, who, "draw_count must be at least 1");
  require_option(options.worlds >= 1 && options.worlds <= kMaxPlannerSamples, who,
                 "worlds must be at least 1 and at most 1048576");
  require_option(options.cap >= 1, who, "cap must be at least 1");
  require_option(options.threads >= 1 && options.threads <= kMaxPlannerThreads, who,
                 "threads must be at least 1 and at most 256");
}

std::uint64_t position_seed(const Position& base, const std::vector<UnknownSlot>& unknown, std::uint64_t seed) {
  SplitMix64 mix(seed ^ 0x5851F42D4C957F2DULL);
  SplitMix64 seeded(mix.next() ^ fnv1a64(known_text(base, unknown)));
  return seeded.next();
}

WorldScores world_scores(const std::vector<KnownPosition>& positions, const WorldScoreOptions& options) {
  check_options(options);
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  const std::size_t n = positions.size();
  // Every position checked before any search: a bad one changes nothing.
  std::vector<std::vector<Card>> cards(n);
  std::vector<int> first_job(n + 1, 0);
  std::int64_t jobs = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string who = "world scores: position " + std::to_string(i);
    cards[i] = check_planner_input(positions[i].base, positions[i].unknown, {}, options.draw_count, who.c_str()).cards;
    std::sort(cards[i].begin(), cards[i].end());  // where the hidden cards lie plays no part
    first_job[i] = static_cast<int>(jobs);
    jobs += cards[i].size() <= 1 ? 1 : options.worlds;
    if (jobs > std::numeric_limits<int>::max()) {
      throw std::invalid_argument("world scores: the batch has too many worlds (positions x worlds above 2^31 - 1)");
    }
  }
  first_job[n] = static_cast<int>(jobs);

  WorldScores scores;
  scores.seeds.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    scores.seeds[i] = position_seed(positions[i].base, positions[i].unknown, options.seed);
  }
  CappedSearch capped;
  capped.draw_count = options.draw_count;
  capped.cap = options.cap;
  capped.surely_won_stops = options.surely_won_stops;
  std::vector<int> owner(static_cast<std::size_t>(jobs));
  for (std::size_t i = 0; i < n; ++i) {
    std::fill(owner.begin() + first_job[i], owner.begin() + first_job[i + 1], static_cast<int>(i));
  }
  std::vector<WorldSearch> searched(static_cast<std::size_t>(jobs));
  static const std::vector<Action> no_line;
  parallel_for(static_cast<int>(jobs), options.threads, [&](int job) {
    const std::size_t i = static_cast<std::size_t>(owner[static_cast<std::size_t>(job)]);
    const int world = job - first_job[i];
    searched[static_cast<std::size_t>(job)] = search_world(positions[i].base, positions[i].unknown, cards[i],
                                                           sample_rng(scores.seeds[i], world), no_line, capped);
  });

  scores.won.assign(n, 0);
  scores.lost.assign(n, 0);
  scores.cut.assign(n, 0);
  scores.states.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const int count = first_job[i + 1] - first_job[i];
    const int weight = count == 1 ? options.worlds : 1;  // one world stands for all K
    for (int job = first_job[i]; job < first_job[i + 1]; ++job) {
      const WorldSearch& s = searched[static_cast<std::size_t>(job)];
      scores.states[i] += s.states;
      switch (s.outcome) {
        case WorldOutcome::won: scores.won[i] += weight; break;
        case WorldOutcome::lost: scores.lost[i] += weight; break;
        case WorldOutcome::cut: scores.cut[i] += weight; break;
        case WorldOutcome::skipped: throw std::logic_error("world scores: a world search was cancelled");
      }
    }
  }
  scores.searches = jobs;
  scores.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return scores;
}

}  // namespace solitaire::klondike
