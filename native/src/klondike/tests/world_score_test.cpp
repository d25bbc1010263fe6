// Standalone checks of the world scores (klondike/world_score.hpp), no framework. The CMake build
// makes them the target world_score_test with -DSOLITAIRE_NATIVE_TOOLS=ON and registers them with
// CTest; tests/test_world_score_native_tests.py compiles them with g++ on its own:
//
//   g++ -O2 -std=c++17 -Inative/src native/src/klondike/*.cpp
//       native/src/klondike/tests/world_score_test.cpp -o /tmp/world_score_test && /tmp/world_score_test
//
// What is checked:
//  * on reduced decks with a cap no search reaches, each position's worlds won equal the worlds an
//    exhaustive search (over the independent replayer) wins, world by world as the sampler deals them;
//  * won + lost + cut = K; a position's counts and seed are the same alone, in a batch, in another
//    order, over 1 or 3 threads, and with its hidden cards moved between the unknown places;
//  * a position with every card known, or one unknown card, has one world searched once;
//  * a won position scores K of K without a search, a lost one 0;
//  * a small cap cuts worlds that a large one decides;
//  * bad options and bad positions are refused, naming the option or the position's index.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <vector>

#include "common/random_deal.hpp"
#include "common/sample_loop.hpp"
#include "klondike/hop.hpp"
#include "klondike/position_text.hpp"
#include "klondike/replay.hpp"
#include "klondike/world_score.hpp"

namespace kl = solitaire::klondike;

namespace {

int g_failures = 0;
int g_checks = 0;

#define CHECK(cond, what)                                                                     \
  do {                                                                                        \
    ++g_checks;                                                                               \
    if (!(cond)) {                                                                            \
      ++g_failures;                                                                           \
      std::cerr << "FAIL " << __FILE__ << ":" << __LINE__ << ": " << (what) << std::endl;     \
    }                                                                                         \
  } while (0)

kl::Position parse_or_die(const std::string& text) {
  kl::Position p;
  std::string error;
  if (!kl::parse_position(text, p, error)) {
    std::cerr << "bad test position: " << error << "\n";
    std::exit(2);
  }
  return p;
}

// Whether any sequence of atomic actions wins (every full game state visited once); small decks.
bool brute_force_wins(const kl::Position& position, int draw) {
  std::unordered_set<std::string> seen;
  std::vector<kl::ReplayGame> stack{kl::ReplayGame(position, draw)};
  seen.insert(stack.back().state_text());
  while (!stack.empty()) {
    kl::ReplayGame game = stack.back();
    stack.pop_back();
    if (game.won()) return true;
    for (const kl::Action& a : game.legal_actions()) {
      kl::ReplayGame next = game;
      next.apply(a);
      if (seen.insert(next.state_text()).second) stack.push_back(next);
    }
  }
  return false;
}

// A reduced deal (ranks 1..max_rank of the suits in the bit mask `suits`, `ncols` columns of
// 1..ncols cards, the rest in the stock) with every face-down card unknown, and the stock's first
// `unseen` cards too.
kl::KnownPosition reduced(solitaire::SplitMix64& rng, int suits, int max_rank, int ncols, int unseen) {
  std::vector<kl::Card> deck;
  for (int s = 0; s < kl::kNumSuits; ++s) {
    if (((suits >> s) & 1) == 0) continue;
    for (int r = 1; r <= max_rank; ++r) deck.push_back(kl::make_card(r, s));
  }
  solitaire::shuffle(rng, deck);
  kl::KnownPosition known;
  known.base.max_rank = max_rank;
  known.base.columns.resize(static_cast<std::size_t>(ncols));
  std::size_t i = 0;
  for (int c = 0; c < ncols; ++c) {
    for (int k = 0; k <= c; ++k) {
      kl::ColumnCards& col = known.base.columns[static_cast<std::size_t>(c)];
      if (k == c) {
        col.face_up.push_back(deck[i++]);
      } else {
        known.unknown.push_back({c, static_cast<int>(col.face_down.size())});
        col.face_down.push_back(deck[i++]);
      }
    }
  }
  while (i < deck.size()) known.base.stock.push_back(deck[i++]);
  for (int s = 0; s < unseen && s < static_cast<int>(known.base.stock.size()); ++s) known.unknown.push_back({-1, s});
  return known;
}

kl::Card& slot_card(kl::Position& p, const kl::UnknownSlot& slot) {
  if (slot.column < 0) return p.stock[static_cast<std::size_t>(slot.index)];
  return p.columns[static_cast<std::size_t>(slot.column)].face_down[static_cast<std::size_t>(slot.index)];
}

// The hidden cards moved between the unknown places (rotated by one).
kl::KnownPosition moved(kl::KnownPosition known) {
  std::vector<kl::Card> cards;
  for (const kl::UnknownSlot& s : known.unknown) cards.push_back(slot_card(known.base, s));
  std::rotate(cards.begin(), cards.begin() + 1, cards.end());
  for (std::size_t i = 0; i < cards.size(); ++i) slot_card(known.base, known.unknown[i]) = cards[i];
  return known;
}

struct Counts {
  std::int32_t won, lost, cut;
  std::uint64_t seed;
  bool operator==(const Counts& o) const { return won == o.won && lost == o.lost && cut == o.cut && seed == o.seed; }
};

Counts at(const kl::WorldScores& s, std::size_t i) { return {s.won[i], s.lost[i], s.cut[i], s.seeds[i]}; }

bool refused(const std::vector<kl::KnownPosition>& batch, const kl::WorldScoreOptions& options,
             const std::string& words) {
  try {
    kl::world_scores(batch, options);
  } catch (const std::invalid_argument& e) {
    return std::string(e.what()).find(words) != std::string::npos;
  }
  return false;
}

void test_exact_against_brute_force() {
  solitaire::SplitMix64 rng(2024);
  kl::WorldScoreOptions options;
  options.worlds = 12;
  options.cap = 50000000;
  options.seed = 5;
  int wins = 0, losses = 0, mixed = 0;
  for (int round = 0; round < 12; ++round) {
    // all four suits, clubs and spades (nothing builds: many losses), clubs and hearts
    const int suits[] = {0xF, 0x9, 0x5};
    const kl::KnownPosition known = reduced(rng, suits[round % 3], round % 3 == 0 ? 3 : 5, 3, 1 + round % 4);
    const kl::WorldScores s = kl::world_scores({known}, options);
    CHECK(s.cut[0] == 0, "a cap no search reaches cuts no world");
    std::vector<kl::Card> cards;
    for (const kl::UnknownSlot& slot : known.unknown) {
      kl::Position copy = known.base;
      cards.push_back(slot_card(copy, slot));
    }
    std::sort(cards.begin(), cards.end());
    int won = 0;
    for (int w = 0; w < options.worlds; ++w) {
      kl::Position world = known.base;
      solitaire::SplitMix64 world_rng = solitaire::sample_rng(s.seeds[0], w);
      kl::deal_sample(world, known.unknown, cards, world_rng);
      won += brute_force_wins(world, options.draw_count) ? 1 : 0;
    }
    CHECK(s.won[0] == won, "round " + std::to_string(round) + ": " + std::to_string(s.won[0]) +
                               " worlds won, brute force " + std::to_string(won) + " on " +
                               kl::format_position(known.base));
    CHECK(s.won[0] + s.lost[0] + s.cut[0] == options.worlds, "won + lost + cut = K");
    wins += won;
    mixed += won > 0 && won < options.worlds ? 1 : 0;
    losses += options.worlds - won;
  }
  CHECK(wins > 10 && losses > 10, "both outcomes are exercised: " + std::to_string(wins) + " won, " + std::to_string(losses) + " lost");
  CHECK(mixed >= 2, "positions won in some worlds and lost in others: " + std::to_string(mixed));
}

void test_independent_of_batch_threads_and_hidden_places(const std::string& fixture_line) {
  solitaire::SplitMix64 rng(77);
  std::vector<kl::KnownPosition> batch;
  for (int i = 0; i < 5; ++i) batch.push_back(reduced(rng, 0xF, 5, 4, i % 2 == 0 ? 0 : 3));
  // A full deal: 21 face-down cards and 24 unseen stock cards.
  kl::KnownPosition deal{parse_or_die(fixture_line), {}};
  for (std::size_t c = 0; c < deal.base.columns.size(); ++c) {
    for (std::size_t k = 0; k < deal.base.columns[c].face_down.size(); ++k) {
      deal.unknown.push_back({static_cast<int>(c), static_cast<int>(k)});
    }
  }
  for (std::size_t k = 0; k < deal.base.stock.size(); ++k) deal.unknown.push_back({-1, static_cast<int>(k)});
  batch.push_back(deal);
  kl::WorldScoreOptions options;
  options.worlds = 40;
  options.cap = 300;
  options.seed = 9;
  const kl::WorldScores one = kl::world_scores(batch, options);
  options.threads = 3;
  const kl::WorldScores three = kl::world_scores(batch, options);
  std::vector<kl::KnownPosition> reversed(batch.rbegin(), batch.rend());
  const kl::WorldScores back = kl::world_scores(reversed, options);
  bool cut_seen = false;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    const std::string where = "position " + std::to_string(i);
    CHECK(at(one, i) == at(three, i), where + ": the same counts over 1 and 3 threads");
    CHECK(one.states[i] == three.states[i], where + ": the same states over 1 and 3 threads");
    CHECK(at(one, i) == at(back, batch.size() - 1 - i), where + ": the same counts in another order");
    CHECK(at(one, i) == at(kl::world_scores({batch[i]}, options), 0), where + ": the same counts alone");
    CHECK(at(one, i) == at(kl::world_scores({moved(batch[i])}, options), 0),
          where + ": the same counts with the hidden cards moved");
    CHECK(one.won[i] + one.lost[i] + one.cut[i] == 40, where + ": won + lost + cut = K");
    cut_seen = cut_seen || one.cut[i] > 0;
  }
  CHECK(one.searches == 40 * static_cast<std::int64_t>(batch.size()), "K searches a position");
  CHECK(cut_seen, "a full deal's worlds hit a cap of 300 states");
  options.seed = 10;
  const kl::WorldScores other = kl::world_scores(batch, options);
  CHECK(other.seeds[0] != one.seeds[0], "another seed, other worlds");
  CHECK(one.seeds[0] != one.seeds[1], "two positions, two seeds");
}

void test_known_and_trivial_positions() {
  kl::WorldScoreOptions options;
  options.worlds = 7;
  const kl::KnownPosition won{parse_or_die("t=- s=- w=- f=13,13,13,13"), {}};
  const kl::KnownPosition lost{parse_or_die("t=As,2S s=- w=- f=0,0,0,0 r=2"), {}};
  // One unknown card (the face-down ace): one world only.
  const kl::KnownPosition one_unknown{parse_or_die("t=As,2S/Ah,2H s=- w=- f=0,0,0,0 r=2"), {{0, 0}}};
  const kl::WorldScores s = kl::world_scores({won, lost, one_unknown}, options);
  CHECK(s.won[0] == 7 && s.lost[0] == 0 && s.cut[0] == 0 && s.states[0] == 0, "a won position: 7 of 7, no search");
  CHECK(s.won[1] == 0 && s.lost[1] == 7 && s.cut[1] == 0, "a lost position: 0 of 7, 7 proved lost");
  CHECK(s.won[2] + s.lost[2] == 7 && (s.won[2] == 7 || s.lost[2] == 7), "one unknown card: one world, counted 7 times");
  CHECK(s.searches == 3, "one search a position with at most one unknown card");
  CHECK(kl::world_scores({}, options).won.empty(), "an empty batch");
}

void test_cap_cuts(const std::string& fixture_line) {
  kl::KnownPosition deal{parse_or_die(fixture_line), {}};
  for (std::size_t c = 0; c < deal.base.columns.size(); ++c) {
    for (std::size_t k = 0; k < deal.base.columns[c].face_down.size(); ++k) {
      deal.unknown.push_back({static_cast<int>(c), static_cast<int>(k)});
    }
  }
  kl::WorldScoreOptions options;
  options.worlds = 10;
  options.cap = 1;
  const kl::WorldScores tiny = kl::world_scores({deal}, options);
  CHECK(tiny.cut[0] + tiny.lost[0] == 10 && tiny.cut[0] >= 5, "a cap of one state cuts most worlds");
  CHECK(tiny.states[0] <= 10, "at most one state a world");
}

void test_refusals() {
  const kl::KnownPosition good{parse_or_die("t=As,2S/Ah,2H s=- w=- f=0,0,0,0 r=2"), {{0, 0}}};
  kl::WorldScoreOptions options;
  options.worlds = 0;
  CHECK(refused({good}, options, "worlds must be at least 1"), "worlds 0");
  options = {};
  options.cap = 0;
  CHECK(refused({good}, options, "cap must be at least 1"), "cap 0");
  options = {};
  options.threads = 0;
  CHECK(refused({good}, options, "threads must be"), "threads 0");
  options = {};
  options.draw_count = 0;
  CHECK(refused({good}, options, "draw_count"), "draw 0");
  options = {};
  kl::KnownPosition outside = good;
  outside.unknown = {{0, 5}};
  CHECK(refused({good, outside}, options, "world scores: position 1: an unknown slot is outside the position"),
        "a slot outside its position, named by index");
  kl::KnownPosition twice = good;
  twice.unknown = {{0, 0}, {0, 0}};
  CHECK(refused({twice}, options, "position 0: an unknown slot is listed twice"), "a slot twice");
  kl::KnownPosition invalid{parse_or_die("t=As,2S/Ah,2H s=- w=- f=0,0,0,0 r=2"), {}};
  invalid.base.columns[0].face_up.push_back(invalid.base.columns[1].face_up[0]);
  CHECK(refused({good, invalid}, options, "world scores: position 1: "), "an invalid position, named by index");
}

}  // namespace

int main(int argc, char** argv) {
  // world_score_test [DATA_DIR]: the first deal of the Solvitaire fixture is a full deal to score.
  const std::string dir = argc > 1 ? argv[1] : "native/src/klondike/tests/data";
  std::ifstream in(dir + "/klondike_draw3_solvitaire.txt");
  std::string line, fixture;
  while (std::getline(in, line)) {
    if (line.rfind("fixture-0 ", 0) == 0) fixture = line.substr(line.find(' ') + 1);
  }
  if (fixture.empty()) {
    std::cerr << "fixture-0 not found in " << dir << "\n";
    return 2;
  }
  test_exact_against_brute_force();
  test_independent_of_batch_threads_and_hidden_places(fixture);
  test_known_and_trivial_positions();
  test_cap_cuts(fixture);
  test_refusals();
  std::cout << g_checks << " checks, " << g_failures << " failures" << std::endl;
  return g_failures == 0 ? 0 : 1;
}
