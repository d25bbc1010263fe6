#include "klondike/commit_planner.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <deque>
#include <limits>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "common/parallel_for.hpp"
#include "common/planner_options.hpp"
#include "common/sample_loop.hpp"
#include "klondike/replay.hpp"
#include "klondike/world_search.hpp"

namespace solitaire::klondike {

namespace {

using CardSet = std::uint64_t;

CardSet shown_cards(const Position& p) {
  CardSet shown = 0;
  for (const ColumnCards& col : p.columns) {
    for (Card c : col.face_up) shown |= CardSet{1} << c;
  }
  for (Card c : p.waste) shown |= CardSet{1} << c;
  return shown;
}

// A position's name: columns with face-down cards in their slots, the others sorted (they are
// interchangeable), the foundations, the talon in draw order and, with `cursor`, where the draws
// stand in it.
std::string position_key(const Position& p, bool cursor) {
  std::string key;
  std::vector<std::string> open;
  for (const ColumnCards& col : p.columns) {
    std::string text;
    text += static_cast<char>('A' + col.face_down.size());
    for (Card c : col.face_up) text += static_cast<char>('0' + c);
    text += '|';
    if (col.face_down.empty()) {
      open.push_back(text);
    } else {
      key += text;
    }
  }
  std::sort(open.begin(), open.end());
  key += '/';
  for (const std::string& text : open) key += text;
  for (int f : p.foundation) key += static_cast<char>('a' + f);
  key += '/';
  for (Card c : p.waste) key += static_cast<char>('0' + c);
  for (auto it = p.stock.rbegin(); it != p.stock.rend(); ++it) key += static_cast<char>('0' + *it);
  if (cursor) key += '@' + std::to_string(p.waste.size());
  return key;
}

// A King-headed run that is a whole column going to an empty column: the same position.
bool pointless(const Position& p, const Action& a) {
  if (a.kind != ActionKind::column_to_column) return false;
  const ColumnCards& from = p.columns[static_cast<std::size_t>(a.src)];
  const ColumnCards& to = p.columns[static_cast<std::size_t>(a.dst)];
  return from.face_down.empty() && a.count == static_cast<int>(from.face_up.size()) && to.face_up.empty() &&
         to.face_down.empty();
}

// What a commitment does, whatever was rearranged before it: which column it turns up (or that it
// draws unseen stock cards), or which talon card it plays onto what (a card, a foundation, an
// empty column). Candidates that do the same are one (the shortest line is kept): the world's
// search after it can rearrange the rest as well.
std::string essence(const Position& before, const Position& after, const Action& a) {
  std::string key;
  if (a.kind == ActionKind::draw) return "draw";
  if (a.kind == ActionKind::waste_to_column || a.kind == ActionKind::waste_to_foundation) {
    key = "t" + std::to_string(before.waste.back());
    if (a.kind == ActionKind::waste_to_foundation) return key + "f";
    const ColumnCards& to = before.columns[static_cast<std::size_t>(a.dst)];
    return key + (to.face_up.empty() ? std::string("e") : "c" + std::to_string(to.face_up.back()));
  }
  for (std::size_t c = 0; c < before.columns.size(); ++c) {
    if (after.columns[c].face_down.size() < before.columns[c].face_down.size()) key += "r" + std::to_string(c);
  }
  return key;
}

struct ClosureNode {
  ReplayGame game;
  int parent = -1;
  Action move;
};

std::vector<Action> path_to(const std::vector<ClosureNode>& nodes, int node) {
  std::vector<Action> line;
  for (int n = node; nodes[static_cast<std::size_t>(n)].parent >= 0; n = nodes[static_cast<std::size_t>(n)].parent) {
    line.push_back(nodes[static_cast<std::size_t>(n)].move);
  }
  std::reverse(line.begin(), line.end());
  return line;
}

// Breadth first through the closure: the candidates, each with its shortest line.
void explore(const Position& base, CardSet unknown_cards, const CommitOptions& options, CommitResult& result) {
  std::vector<ClosureNode> nodes;
  nodes.push_back({ReplayGame(base, options.draw_count), -1, Action{}});
  std::unordered_set<std::string> seen{position_key(base, true)};
  std::unordered_set<std::string> committed;
  for (std::size_t at = 0; at < nodes.size(); ++at) {
    const Position here = nodes[at].game.position();
    for (const Action& a : nodes[at].game.legal_actions()) {
      if (pointless(here, a)) continue;
      ReplayGame next = nodes[at].game;
      if (!next.apply(a).empty()) continue;
      const int node = static_cast<int>(at);
      if (next.won()) {
        if (result.win_line.empty()) {
          result.win_line = path_to(nodes, node);
          result.win_line.push_back(a);
        }
        continue;
      }
      const Position after = next.position();
      const bool reveals = (shown_cards(after) & unknown_cards) != 0;
      const bool takes = a.kind == ActionKind::waste_to_column || a.kind == ActionKind::waste_to_foundation;
      if (reveals || takes) {
        const std::string key = options.merge ? essence(here, after, a) : position_key(after, false);
        if (committed.insert(key).second) {
          CommitCandidate candidate;
          candidate.line = path_to(nodes, node);
          candidate.line.push_back(a);
          candidate.reveals = reveals;
          result.candidates.push_back(std::move(candidate));
        }
        continue;
      }
      if (!seen.insert(position_key(after, true)).second) continue;
      if (static_cast<int>(nodes.size()) >= options.max_closure) {
        result.closure_complete = false;
        continue;
      }
      nodes.push_back({std::move(next), node, a});
    }
  }
  result.closure = static_cast<int>(nodes.size());
}

}  // namespace

void check_options(const CommitOptions& options) {
  const char* who = "commitment planner";
  require_option(options.draw_count >= 1, who, "draw_count must be at least 1");
  require_option(options.cap >= 1, who, "cap must be at least 1");
  require_option(options.worlds_per_candidate >= 1 && options.worlds_per_candidate <= kMaxPlannerSamples, who,
                 "worlds_per_candidate must be at least 1 and at most 1048576");
  require_option(options.max_worlds >= 0, who, "max_worlds must be at least 0 (0: no limit)");
  require_option(std::isfinite(options.exploration) && options.exploration >= 0.0, who,
                 "exploration must be a finite number, at least 0");
  require_option(options.batch >= 1 && options.batch <= 100000, who, "batch must be at least 1 and at most 100000");
  require_option(options.hopeless_worlds >= 0, who, "hopeless_worlds must be at least 0 (0: never)");
  check_time_limit(options.time_limit_s, who);
  require_option(options.threads >= 1 && options.threads <= kMaxPlannerThreads, who,
                 "threads must be at least 1 and at most 256");
  require_option(options.max_closure >= 1, who, "max_closure must be at least 1");
  require_option(std::isfinite(options.race_z) && options.race_z > 0.0, who, "race_z must be a finite number above 0");
  require_option(options.race_min_worlds >= 1, who, "race_min_worlds must be at least 1");
  require_option(options.schedule == CommitSchedule::ucb || options.schedule == CommitSchedule::halving ||
                     options.schedule == CommitSchedule::race,
                 who, "schedule must be ucb, halving or race");
}

CommitResult commit_plan(const Position& base, const std::vector<UnknownSlot>& unknown,
                         const CommitOptions& options) {
  check_options(options);
  const PlannerInput input = check_planner_input(base, unknown, {}, options.draw_count, "commitment planner");
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  CommitResult result;
  CardSet unknown_cards = 0;
  for (Card c : input.cards) unknown_cards |= CardSet{1} << c;
  explore(base, unknown_cards, options, result);
  const int n = static_cast<int>(result.candidates.size());
  const std::uint64_t known_more = 21 - std::min<std::uint64_t>(21, input.cards.size());
  result.cap = options.cap + options.cap_per_known * known_more;
  if (n <= 1) {
    result.chosen = n - 1;
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return result;
  }

  CappedSearch capped;
  capped.draw_count = options.draw_count;
  capped.cap = result.cap;
  capped.surely_won_stops = options.surely_won_stops;
  capped.cancel = options.cancel;
  auto stopped = [&]() {
    if (options.cancel != nullptr && options.cancel->is_cancelled()) return StopReason::cancelled;
    if (options.time_limit_s > 0.0 &&
        std::chrono::duration<double>(Clock::now() - start).count() >= options.time_limit_s) {
      return StopReason::time;
    }
    return StopReason::none;
  };
  std::atomic<std::uint64_t> states{0};
  auto world = [&](int c, int w) {
    if (stopped() != StopReason::none) return WorldOutcome::skipped;
    const WorldSearch searched = search_world(base, unknown, input.cards, sample_rng(options.seed, w),
                                              result.candidates[static_cast<std::size_t>(c)].line, capped);
    states.fetch_add(searched.states, std::memory_order_relaxed);
    return searched.outcome;
  };
  // One round: each (candidate, first world) pair gets `batch` worlds from its next one on.
  std::vector<std::vector<char>> wins(static_cast<std::size_t>(n));  // per candidate, per world: won
  auto play = [&](const std::vector<int>& picks, int b) {
    std::vector<WorldOutcome> out(picks.size() * static_cast<std::size_t>(b), WorldOutcome::skipped);
    std::vector<int> first(picks.size());
    for (std::size_t k = 0; k < picks.size(); ++k) {
      first[k] = result.candidates[static_cast<std::size_t>(picks[k])].worlds();
    }
    parallel_for(static_cast<int>(out.size()), options.threads, [&](int i) {
      const std::size_t k = static_cast<std::size_t>(i / b);
      out[static_cast<std::size_t>(i)] = world(picks[k], first[k] + i % b);
    });
    for (std::size_t i = 0; i < out.size(); ++i) {
      const std::size_t k = i / static_cast<std::size_t>(b);
      CommitCandidate& c = result.candidates[static_cast<std::size_t>(picks[k])];
      std::vector<char>& won_at = wins[static_cast<std::size_t>(picks[k])];
      const std::size_t w = static_cast<std::size_t>(first[k]) + i % static_cast<std::size_t>(b);
      if (won_at.size() <= w) won_at.resize(w + 1, 0);
      won_at[w] = out[i] == WorldOutcome::won;
      switch (out[i]) {
        case WorldOutcome::won: ++c.won; break;
        case WorldOutcome::lost: ++c.lost; break;
        case WorldOutcome::cut: ++c.cut; break;
        case WorldOutcome::skipped: continue;
      }
      ++result.worlds;
    }
  };

  // The most sampled candidate (ties: more worlds won, then the first found).
  auto finish = [&](CommitResult& done) -> CommitResult {
    int chosen = 0;
    for (int c = 1; c < n; ++c) {
      const CommitCandidate& a = done.candidates[static_cast<std::size_t>(c)];
      const CommitCandidate& b = done.candidates[static_cast<std::size_t>(chosen)];
      if (a.worlds() > b.worlds() || (a.worlds() == b.worlds() && a.won > b.won)) chosen = c;
    }
    done.chosen = chosen;
    done.states = states.load();
    done.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return std::move(done);
  };
  // Sequential halving (Karnin, Koren and Somekh 2013) over the worlds budget: rounds in which every
  // candidate left gets the same worlds (the same for all: paired), the better half by worlds won
  // going on (ties: the first found), until one is left or a candidate has worlds_per_candidate.
  auto halve = [&](std::vector<int> alive) {
    int rounds = 0;
    for (std::size_t k = alive.size(); k > 1; k = (k + 1) / 2) ++rounds;
    const std::int64_t budget = options.max_worlds > 0 ? options.max_worlds
                                                       : static_cast<std::int64_t>(options.worlds_per_candidate) * n;
    for (int round = 0; alive.size() > 1; ++round) {
      const std::int64_t share = budget / (static_cast<std::int64_t>(alive.size()) * rounds);
      const int have = result.candidates[static_cast<std::size_t>(alive[0])].worlds();
      const int each = static_cast<int>(std::min<std::int64_t>(
          have + std::max<std::int64_t>(share, options.batch), options.worlds_per_candidate));
      if (each > have) play(alive, each - have);
      result.stop_reason = stopped();
      if (result.stop_reason != StopReason::none) break;
      int won = 0;
      for (const CommitCandidate& c : result.candidates) won += c.won;
      if (options.hopeless_worlds > 0 && won == 0 && result.worlds >= options.hopeless_worlds) {
        result.hopeless = true;
        break;
      }
      std::stable_sort(alive.begin(), alive.end(), [&](int a, int b) {
        return result.candidates[static_cast<std::size_t>(a)].won > result.candidates[static_cast<std::size_t>(b)].won;
      });
      if (each >= options.worlds_per_candidate) {
        alive.resize(1);
        break;
      }
      alive.resize((alive.size() + 1) / 2);
    }
    // the survivor gets one more batch so that it is the most sampled
    if (result.stop_reason == StopReason::none && !result.hopeless && !alive.empty()) play({alive[0]}, options.batch);
  };

  // Racing with paired sign tests: every candidate left gets the same next batch of worlds; one
  // is dropped once the leader (most worlds won) beats it on significantly more worlds than it
  // beats the leader, or once, after race_min_worlds, the two never differed (the same worlds
  // won: no reason to tell them apart). Stops when one is left or a budget is spent.
  auto race = [&](std::vector<int> alive) {
    for (;;) {
      play(alive, options.batch);
      result.stop_reason = stopped();
      if (result.stop_reason != StopReason::none) return;
      int won = 0;
      for (const CommitCandidate& c : result.candidates) won += c.won;
      if (options.hopeless_worlds > 0 && won == 0 && result.worlds >= options.hopeless_worlds) {
        result.hopeless = true;
        return;
      }
      int leader = alive[0];
      for (int c : alive) {
        if (result.candidates[static_cast<std::size_t>(c)].won > result.candidates[static_cast<std::size_t>(leader)].won) {
          leader = c;
        }
      }
      const int worlds = result.candidates[static_cast<std::size_t>(leader)].worlds();
      std::vector<int> kept;
      for (int c : alive) {
        if (c == leader) {
          kept.push_back(c);
          continue;
        }
        const std::vector<char>& a = wins[static_cast<std::size_t>(leader)];
        const std::vector<char>& b = wins[static_cast<std::size_t>(c)];
        int ahead = 0;
        int behind = 0;
        for (std::size_t w = 0; w < std::min(a.size(), b.size()); ++w) {
          ahead += a[w] && !b[w];
          behind += b[w] && !a[w];
        }
        const double differ = ahead + behind;
        const bool beaten = ahead - behind > options.race_z * std::sqrt(std::max(differ, 1.0));
        const bool same = differ == 0 && worlds >= options.race_min_worlds;
        if (!beaten && !same) kept.push_back(c);
      }
      alive = std::move(kept);
      if (alive.size() <= 1 || worlds >= options.worlds_per_candidate) return;
      if (options.max_worlds > 0 && result.worlds >= options.max_worlds) return;
    }
  };

  std::vector<int> all(static_cast<std::size_t>(n));
  for (int c = 0; c < n; ++c) all[static_cast<std::size_t>(c)] = c;
  if (options.schedule == CommitSchedule::halving) {
    halve(all);
    return finish(result);
  }
  if (options.schedule == CommitSchedule::race) {
    race(all);
    // the survivor is the leader: it gets the tie-break of the most sampled by one more batch
    return finish(result);
  }
  play(all, options.batch);
  for (;;) {
    result.stop_reason = stopped();
    if (result.stop_reason != StopReason::none) break;
    int most = 0;
    int won = 0;
    for (const CommitCandidate& c : result.candidates) {
      most = std::max(most, c.worlds());
      won += c.won;
    }
    if (most >= options.worlds_per_candidate) break;
    if (options.max_worlds > 0 && result.worlds >= options.max_worlds) break;
    if (options.hopeless_worlds > 0 && won == 0 && result.worlds >= options.hopeless_worlds) {
      result.hopeless = true;
      break;
    }
    int pick = 0;
    double best = -std::numeric_limits<double>::infinity();
    const double log_total = std::log(static_cast<double>(std::max<std::int64_t>(result.worlds, 1)));
    for (int c = 0; c < n; ++c) {
      const CommitCandidate& cand = result.candidates[static_cast<std::size_t>(c)];
      const double worlds = std::max(cand.worlds(), 1);
      const double score = cand.won / worlds + options.exploration * std::sqrt(log_total / worlds);
      if (score > best) {
        best = score;
        pick = c;
      }
    }
    play({pick}, options.batch);
  }
  return finish(result);
}

}  // namespace solitaire::klondike
