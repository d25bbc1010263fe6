// Standalone checks of the Klondike solver (no framework). The CMake build makes them the target
// klondike_solver_test with -DSOLITAIRE_NATIVE_TOOLS=ON and registers them with CTest
// (native/README.md); tests/test_klondike_solver_native_tests.py compiles them with g++ on its own:
//
//   g++ -O2 -std=c++17 -Inative/src native/src/klondike/*.cpp
//       native/src/klondike/tests/klondike_solver_test.cpp -o /tmp/klondike_solver_test
//   /tmp/klondike_solver_test native/src/klondike/tests/data          # all checks, ~15 s CPU
//   /tmp/klondike_solver_test native/src/klondike/tests/data 3000 1   # stress: 3000 bigger decks
//
// What is checked:
//  * cards, position text and validation: round trips and clear refusals of bad positions;
//  * the talon: the K+ cursors equal what a draw-by-draw simulation reaches;
//  * reduced decks (fewer ranks, suits and columns): the solver's verdict equals an exhaustive
//    search over atomic actions written on the independent replayer (brute force), with the
//    shortcuts on and off, under shuffled move orders, without restarts and with a restart every
//    few states (lost marks kept across restarts); every winning line replays to a win;
//  * full deals: shuffled move orders never change the verdict; draw-1 lines replay;
//  * the Solvitaire fixture: the same verdicts as Solvitaire where it decided;
//  * budgets: states, time, memory and cancellation stop with `unknown`, never `not_winnable`;
//  * the relaxed game (dead_end.hpp): its card-set version agrees with the card-by-card one;
//  * sleep sets (sleep_set.hpp): two moves with disjoint footprints commute;
//  * a position showing why the safe rule needs Keller's condition rather than "both cards of
//    the opposite colour one rank lower are up".
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "klondike/board.hpp"
#include "klondike/dead_end.hpp"
#include "klondike/line_expander.hpp"
#include "klondike/move_generator.hpp"
#include "klondike/position_text.hpp"
#include "klondike/replay.hpp"
#include "klondike/restart_schedule.hpp"
#include "klondike/sleep_set.hpp"
#include "klondike/solver.hpp"
#include "klondike/talon.hpp"
#include "klondike/visited_table.hpp"

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

struct Rng {
  std::uint64_t s;
  explicit Rng(std::uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ULL + 1) {}
  std::uint64_t next() {
    s += 0x9E3779B97F4A7C15ULL;
    std::uint64_t z = s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
};

kl::Position parse_or_die(const std::string& text) {
  kl::Position p;
  std::string error;
  if (!kl::parse_position(text, p, error)) {
    std::cerr << "bad test position: " << error << "\n";
    std::exit(2);
  }
  return p;
}

// ---------------------------------------------------------------------------------------------
// Brute force: every atomic action, a visited set of full game states. Slow; small decks only.

enum class Verdict { win, loss, unknown };

Verdict brute_force(const kl::Position& position, int draw, std::size_t max_states) {
  std::unordered_set<std::string> seen;
  std::vector<kl::ReplayGame> stack{kl::ReplayGame(position, draw)};
  seen.insert(stack.back().state_text());
  while (!stack.empty()) {
    kl::ReplayGame game = stack.back();
    stack.pop_back();
    if (game.won()) return Verdict::win;
    for (const kl::Action& a : game.legal_actions()) {
      kl::ReplayGame next = game;
      if (!next.apply(a).empty()) {
        std::cerr << "brute force: a listed action was refused\n";
        std::exit(2);
      }
      if (seen.insert(next.state_text()).second) {
        if (seen.size() > max_states) return Verdict::unknown;
        stack.push_back(next);
      }
    }
  }
  return Verdict::loss;
}

// A reduced deal: the suits in `suits` (bit mask) with ranks 1..max_rank, `ncols` columns of
// 1..ncols cards (last face up), the rest in the stock.
kl::Position random_deal(Rng& rng, int suits, int max_rank, int ncols) {
  std::vector<kl::Card> deck;
  for (int s = 0; s < kl::kNumSuits; ++s) {
    if ((suits >> s) & 1) {
      for (int r = 1; r <= max_rank; ++r) deck.push_back(kl::make_card(r, s));
    }
  }
  for (std::size_t i = deck.size(); i > 1; --i) std::swap(deck[i - 1], deck[static_cast<std::size_t>(rng.below(static_cast<int>(i)))]);
  kl::Position p;
  p.max_rank = max_rank;
  p.columns.resize(static_cast<std::size_t>(ncols));
  std::size_t i = 0;
  for (int c = 0; c < ncols; ++c) {
    for (int k = 0; k <= c && i + 1 < deck.size(); ++k) {
      auto& col = p.columns[static_cast<std::size_t>(c)];
      (k == c ? col.face_up : col.face_down).push_back(deck[i++]);
    }
  }
  while (i < deck.size()) p.stock.push_back(deck[i++]);
  return p;
}

// A deal played on for a few random legal actions: foundations, waste and runs appear.
kl::Position random_midgame(Rng& rng, int suits, int max_rank, int ncols, int draw, int steps) {
  kl::ReplayGame game(random_deal(rng, suits, max_rank, ncols), draw);
  for (int i = 0; i < steps && !game.won(); ++i) {
    const auto actions = game.legal_actions();
    if (actions.empty()) break;
    game.apply(actions[static_cast<std::size_t>(rng.below(static_cast<int>(actions.size())))]);
  }
  return game.position();
}

const char* verdict_name(kl::Status s) {
  return s == kl::Status::winnable ? "winnable" : s == kl::Status::not_winnable ? "not_winnable" : "unknown";
}

// ---------------------------------------------------------------------------------------------

void test_cards_and_text() {
  kl::Card c;
  bool up;
  CHECK(kl::parse_card("10h", c, up) && c == kl::make_card(10, 2) && !up, "10h parses face down");
  CHECK(kl::parse_card("TH", c, up) && c == kl::make_card(10, 2) && up, "TH parses face up");
  CHECK(kl::parse_card("As", c, up) && c == kl::make_card(1, 3) && !up, "As");
  CHECK(!kl::parse_card("1H", c, up) && !kl::parse_card("XH", c, up) && !kl::parse_card("AX", c, up), "junk");
  CHECK(kl::card_code(kl::make_card(13, 1)) == "KD", "card_code");
  CHECK(kl::builds_on(kl::make_card(7, 2), kl::make_card(8, 3)), "7H on 8S");
  CHECK(!kl::builds_on(kl::make_card(7, 2), kl::make_card(8, 1)), "7H not on 8D");

  const std::string text = "t=As,2H/-/Kd,QS,JH s=3C,4D w=5S f=0,1,0,0 r=5";
  kl::Position p;
  std::string error;
  CHECK(kl::parse_position(text, p, error), "parse " + error);
  CHECK(kl::format_position(p) == text, "format round trip: " + kl::format_position(p));
  CHECK(!kl::parse_position("t=AS,2h", p, error), "face-down card on a face-up card is refused");
  CHECK(!kl::parse_position("s=AS", p, error), "columns required");
  CHECK(!kl::parse_position("t=AS f=1,2", p, error), "f= needs 4 ranks");

  // The project's deal order: deal index 0 is column 1's face-up card, 28 the stock's top.
  std::vector<kl::Card> deal(52);
  for (int i = 0; i < 52; ++i) deal[static_cast<std::size_t>(i)] = i;
  const kl::Position d = kl::position_from_deal(deal);
  CHECK(d.columns[0].face_up == std::vector<kl::Card>{0}, "column 1");
  CHECK((d.columns[1].face_down == std::vector<kl::Card>{1} && d.columns[1].face_up == std::vector<kl::Card>{7}),
        "column 2");
  CHECK(d.columns[6].face_up == std::vector<kl::Card>{27} && d.columns[6].face_down.size() == 6, "column 7");
  CHECK(d.stock.back() == 28 && d.stock.front() == 51 && d.stock.size() == 24, "stock top is deal index 28");
  CHECK(kl::validate(d).empty(), "a deal is valid");
}

void test_validation() {
  auto error_of = [](const std::string& text) { return kl::validate(parse_or_die(text)); };
  CHECK(error_of("t=AS,2S/AH,2H s=- w=- f=0,0,0,0 r=2").empty(), "a valid reduced position");
  CHECK(error_of("t=AS,2S/AS,2H s=- w=- f=0,0,0,0 r=2").find("twice") != std::string::npos, "duplicate");
  CHECK(error_of("t=AS/AH,2H s=- w=- f=0,0,0,0 r=2").find("missing") != std::string::npos, "missing 2S");
  CHECK(error_of("t=AS,2S/2H s=- w=- f=0,0,1,0 r=2").empty(), "an ace on its foundation counts");
  CHECK(error_of("t=AS,2S/AH,2H s=- w=- f=0,0,1,0 r=2").find("foundation") != std::string::npos,
        "a card both up and on the table");
  CHECK(error_of("t=AS,2S,3S/AH,2H s=- w=- f=0,0,0,0 r=2").find("max_rank") != std::string::npos, "rank too high");
  CHECK(error_of("t=AS,2S/AH,2H s=- w=- f=0,0,0,0 r=14").find("max_rank") != std::string::npos, "max_rank 14");
  kl::Position p = parse_or_die("t=AS,2S/AH,2H s=- w=- f=0,0,0,0 r=2");
  p.foundation[0] = -1;
  CHECK(!kl::validate(p).empty(), "negative foundation");
  p = parse_or_die("t=AS,2S/AH,2H s=- w=- f=0,0,0,0 r=2");
  p.columns.resize(8);
  CHECK(!kl::validate(p).empty(), "8 columns");
  p.columns.clear();
  CHECK(!kl::validate(p).empty(), "no column");
  p = parse_or_die("t=AS,2S/AH,2H s=- w=- f=0,0,0,0 r=2");
  p.stock.push_back(60);
  CHECK(!kl::validate(p).empty(), "card 60");
  bool threw = false;
  try {
    kl::solve(p);
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  CHECK(threw, "solve refuses an invalid position");
  p = parse_or_die("t=AS,2S/AH,2H s=- w=- f=0,0,0,0 r=2");
  kl::SolveOptions bad;
  bad.draw_count = 0;
  threw = false;
  try {
    kl::solve(p, bad);
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  CHECK(threw, "solve refuses draw 0");
}

void test_restart_schedule() {
  const std::uint64_t expected[] = {1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, 16};
  for (std::uint64_t i = 1; i <= sizeof(expected) / sizeof(expected[0]); ++i) {
    CHECK(kl::luby(i) == expected[i - 1], "luby(" + std::to_string(i) + ")");
  }
  CHECK(kl::luby((std::uint64_t{1} << 40) - 1) == std::uint64_t{1} << 39, "luby(2^40 - 1)");
}

// Erasing some keys (a restart forgets the pending states) keeps every other key findable, with
// its lost mark, across the backward shifts of linear probing, on a table packed to three quarters.
void test_visited_table_erase() {
  kl::VisitedTable table(std::size_t{1} << 20);
  std::vector<kl::StateKey> keys;
  std::vector<bool> lost;
  std::uint64_t x = 88172645463325252ULL;
  for (int i = 0; i < 12000; ++i) {
    kl::StateKey key;
    for (auto& w : key.w) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      w = x;
    }
    key.w[3] = (key.w[3] & ~kl::StateKey::kLostBit) | (std::uint64_t{1} << 63);
    if (table.insert(key).result != kl::VisitedTable::Insert::added) continue;
    if (i % 3 == 0) table.mark_lost(table.find(key));
    keys.push_back(key);
    lost.push_back(i % 3 == 0);
  }
  for (std::size_t i = 0; i < keys.size(); i += 2) table.erase(keys[i]);
  bool ok = true;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::size_t slot = table.find(keys[i]);
    if (i % 2 == 0) {
      ok = ok && slot == kl::VisitedTable::npos;
    } else {
      ok = ok && slot != kl::VisitedTable::npos && table.is_lost(slot) == lost[i];
    }
  }
  CHECK(ok, "erased keys gone, the others found");
  CHECK(table.size() == keys.size() / 2, "table size after erasing half");
}

void test_talon_cursors() {
  for (int k = 1; k <= 4; ++k) {
    for (int n = 0; n <= 26; ++n) {
      for (int p = 0; p <= n; ++p) {
        // Simulate draws and recycles from cursor p; collect the waste tops seen.
        std::uint64_t seen = 0;
        std::uint64_t visited = 0;
        int cur = p;
        for (int step = 0; step < 4 * n + 8 && n > 0; ++step) {
          if (cur > 0) seen |= std::uint64_t{1} << cur;
          if ((visited >> cur) & 1 && step > 0) {
            // keep going one full cycle more; harmless
          }
          visited |= std::uint64_t{1} << cur;
          cur = (cur == n) ? 0 : std::min(cur + k, n);
        }
        const std::uint64_t got = kl::reachable_cursors(n, p, k);
        CHECK(got == seen, "reachable cursors n=" + std::to_string(n) + " p=" + std::to_string(p) +
                               " k=" + std::to_string(k));
        for (int q = 1; q <= n; ++q) {
          if (((got >> q) & 1) == 0) continue;
          int cursor = p;
          kl::walk_talon(
              n, p, q, k, [&](int d) { cursor += d; }, [&] { cursor = 0; });
          CHECK(cursor == q, "walk_talon reaches q");
        }
        // Cursors with the same reachable set share a canonical cursor.
        for (int p2 = 0; p2 <= n; ++p2) {
          const bool same_future = kl::reachable_cursors(n, p, k) == kl::reachable_cursors(n, p2, k);
          if (kl::canonical_cursor(n, p, k) == kl::canonical_cursor(n, p2, k)) {
            CHECK(same_future, "canonical cursors share their future");
          }
        }
      }
    }
  }
}

struct Tally {
  int positions = 0;
  int wins = 0;
  int losses = 0;
  int skipped = 0;
  int dead_ends = 0;  // losses the relaxed game proved at once
};

// The solver against brute force on one position, with every option mix the solver offers.
void compare_with_brute_force(const kl::Position& p, int draw, Tally& tally) {
  const Verdict truth = brute_force(p, draw, 400000);
  if (truth == Verdict::unknown) {
    ++tally.skipped;
    return;
  }
  ++tally.positions;
  (truth == Verdict::win ? tally.wins : tally.losses)++;
  const std::string where = kl::format_position(p) + " draw " + std::to_string(draw);
  // The relaxed game may only ever call lost what is lost.
  CHECK(kl::structurally_lost(kl::Board(p, draw)) == kl::structurally_lost_reference(kl::Board(p, draw)),
        "relaxed game versions agree on " + where);
  if (kl::structurally_lost(kl::Board(p, draw))) {
    ++tally.dead_ends;
    CHECK(truth == Verdict::loss, "dead end on a winnable position: " + where);
  }
  for (int variant = 0; variant < 18; ++variant) {
    kl::SolveOptions options;
    options.draw_count = draw;
    options.safe_foundation_moves = variant != 1 && variant != 3 && variant != 9;
    options.canonical_lifts = variant < 8;
    options.partial_run_rule = variant != 2 && variant != 3;
    options.order_seed = variant >= 4 ? static_cast<std::uint64_t>(variant * 7919) : 0;
    options.restarts = variant != 5;
    options.dead_end_check = variant != 10;
    options.kings_follow_emptying = variant != 11;  // rule 8 off: rule 5 only
    options.dead_end_in_search = variant != 4;
    options.sleep_sets = variant != 12;
    options.suit_symmetry = variant != 13;  // the exact arrangement named
    if (variant >= 14) {  // rule 11 (off by default) with every other rule on, in two orders
      options.talon_waits = true;
      options.canonical_lifts = true;
      options.order_seed = variant == 14 ? 0 : 104729;
    }
    // The draw-1 bound: at the root with the whole budget, or inside the search from 256 states on
    // with small budgets (variant 17: restarts every few states, so its lost marks are mixed in).
    if (variant == 16) options.draw1_after_states = 0;
    if (variant == 17) {
      options.draw1_after_states = 1;
      options.first_restart_states = 3;
    }
    options.draw1_bound = variant != 12 && variant != 13;  // off where sleep sets or rule 10 are off
    // Restart every few states: exercises the lost marks kept across restarts.
    if (variant == 6 || variant == 7) options.first_restart_states = static_cast<std::uint64_t>(variant - 4);
    const kl::SolveResult r = kl::solve(p, options);
    const kl::Status want = truth == Verdict::win ? kl::Status::winnable : kl::Status::not_winnable;
    CHECK(r.status == want, std::string("verdict ") + verdict_name(r.status) + " variant " +
                                std::to_string(variant) + " on " + where);
    if (r.status == kl::Status::winnable) {
      const std::string why = kl::check_winning_line(p, draw, r.line);
      CHECK(why.empty(), "line replays: " + why + " on " + where);
    }
  }
}

void test_reduced_against_brute_force(int rounds, int size, std::uint64_t seed) {
  Rng rng(seed);
  Tally tally;
  const int suit_sets[] = {0xF, 0x5, 0xA, 0x3, 0x9};  // all; C+H; D+S; C+D; C+S
  for (int i = 0; i < rounds; ++i) {
    const int suits = suit_sets[i % 5];
    const int nsuits = __builtin_popcount(static_cast<unsigned>(suits));
    // 8..16 cards (4 suits) or 6..12 (2 suits); with size 1, up to 24 or 16 cards.
    const int max_rank = nsuits == 4 ? 2 + rng.below(3 + size * 2) : 3 + rng.below(4 + size * 3);
    const int ncols = 2 + rng.below(3 + size * 2);
    const int draw = (i % 3 == 2) ? 1 : (i % 7 == 3 ? 2 : 3);
    kl::Position p = (i % 2 == 0) ? random_deal(rng, suits, max_rank, ncols)
                                  : random_midgame(rng, suits, max_rank, ncols, draw, rng.below(25));
    compare_with_brute_force(p, draw, tally);
  }
  std::cout << "reduced decks: " << tally.positions << " positions checked against brute force ("
            << tally.wins << " winnable, " << tally.losses << " not, " << tally.dead_ends
            << " of them dead ends), " << tally.skipped << " too big for brute force" << std::endl;
  CHECK(tally.wins > rounds / 10 && tally.losses > rounds / 10, "both verdicts are exercised");
}

// Why the safe rule is Keller's. Here both black sevens are up (F(C) = F(S) = 7), so "both cards
// of the opposite colour one rank lower are up" would send 8H up at once. But the win needs 8H
// on the table: 7C comes down onto it so that 6D can move and free 4D. With 8H up, nothing can
// hold a black seven and the game is lost. Keller's rule also asks F(D) >= 8 - 3, which fails.
void test_safe_rule_needs_keller() {
  const std::string keep = "t=8H/Th,Td,Tc,Ts,9h,9d,9c,9s,8c,8s,8d,7d,4d,6D s=5D w=- f=7,3,7,7 r=10";
  const std::string up = "t=-/Th,Td,Tc,Ts,9h,9d,9c,9s,8c,8s,8d,7d,4d,6D s=5D w=- f=7,3,8,7 r=10";
  const kl::Position p_keep = parse_or_die(keep);
  const kl::Position p_up = parse_or_die(up);
  CHECK(kl::validate(p_keep).empty() && kl::validate(p_up).empty(), "counterexample positions are valid");
  CHECK(brute_force(p_keep, 3, 2000000) == Verdict::win, "brute force wins with 8H kept");
  CHECK(brute_force(p_up, 3, 2000000) == Verdict::loss, "brute force loses with 8H up");
  const kl::SolveResult r = kl::solve(p_keep);
  CHECK(r.status == kl::Status::winnable, "the solver keeps 8H down and wins");
  CHECK(kl::check_winning_line(p_keep, 3, r.line).empty(), "and its line replays");
  CHECK(kl::solve(p_up).status == kl::Status::not_winnable, "the solver proves the other lost");
}

// Positions where lifting a card whose lower card is not safe loses the only win: the line needs
// the lower card down while the lifted one stays on the table (found by the stress test).
void test_canonical_lift_regressions() {
  const char* positions[] = {
      "t=5D/7d,8C/6c,4d,2D s=3D,5C,3C,9D,4C,AD,9C,8D,6D,AC,7C,2C w=- f=0,0,0,0 r=9",
      "t=AS/4d,2S/Ad,3d,2D/4s s=3S w=- f=0,0,0,0 r=4",
      "t=3H/Ah,2H,AC/4H/2C/-/4C s=- w=3C f=0,0,0,0 r=4",
  };
  for (const char* text : positions) {
    const kl::Position p = parse_or_die(text);
    CHECK(brute_force(p, 3, 2000000) == Verdict::win, std::string("brute force wins ") + text);
    const kl::SolveResult r = kl::solve(p);
    CHECK(r.status == kl::Status::winnable, std::string("solver wins ") + text);
    CHECK(kl::check_winning_line(p, 3, r.line).empty(), std::string("line replays ") + text);
  }
}

// Deal klondike-random-v1-103: the end cards of columns 6 and 7 (7H, 7D) each wait for a card
// buried under the other (8S or 2D under 7H, 8C or 5H under 7D). The relaxed game proves it at
// once; the search alone needs about 30 million states.
void test_dead_end_deal() {
  const kl::Position p = parse_or_die(
      "t=6S/Qc,2S/Ad,Qs,3C/Kh,Ts,3d,2H/Kc,Td,8d,6h,5D/2d,8s,6c,Th,5s,7H/8c,5h,7d,9s,Qd,2c,7S "
      "s=JC,KS,JD,5C,AH,9D,JH,4S,AS,6D,3S,9C,8H,3H,AC,JS,7C,KD,9H,QH,4H,4D,4C,TC w=- f=0,0,0,0");
  CHECK(kl::structurally_lost(kl::Board(p, 3)), "deal 103 is a dead end");
  const kl::SolveResult r = kl::solve(p);
  CHECK(r.status == kl::Status::not_winnable && r.states == 0, "deal 103 proved lost without search");
  kl::Position deal1 = parse_or_die(
      "t=TD/8d,8H/4d,Qd,KC/As,6s,4s,8S/2h,Qc,3c,7d,9S/3s,7h,6h,Jd,Ad,8C/9h,2d,5h,9d,3d,4c,AC "
      "s=JC,TS,JS,9C,2C,5D,6C,5C,JH,TH,TC,QS,7S,KS,KH,KD,2S,4H,5S,7C,AH,QH,6D,3H w=- f=0,0,0,0");
  CHECK(!kl::structurally_lost(kl::Board(deal1, 3)), "deal 1 (winnable) is no dead end");
}

// The relaxed game on card sets (structurally_lost, used in the search) against the card-by-card
// version it replaced (structurally_lost_reference): they must agree on every position. Random
// positions of full and reduced decks, played on by random legal actions.
void test_relaxed_game_versions() {
  Rng rng(2024);
  const int suit_sets[] = {0xF, 0xF, 0xF, 0x5, 0xA, 0x3, 0x9, 0xE};
  int lost = 0;
  int positions = 0;
  for (int i = 0; i < 4000; ++i) {
    const int suits = suit_sets[i % 8];
    const bool full = suits == 0xF && i % 2 == 0;
    const int max_rank = full ? kl::kMaxRank : 2 + rng.below(12);
    const int ncols = full ? kl::kMaxColumns : 1 + rng.below(kl::kMaxColumns);
    const int draw = i % 5 == 4 ? 1 : 3;
    const kl::Position p = random_midgame(rng, suits, max_rank, ncols, draw, rng.below(full ? 160 : 40));
    const kl::Board board(p, draw);
    const bool fast = kl::structurally_lost(board);
    CHECK(fast == kl::structurally_lost_reference(board),
          "relaxed game versions disagree on " + kl::format_position(p));
    lost += fast ? 1 : 0;
    ++positions;
  }
  std::cout << "relaxed game: " << positions << " positions, " << lost << " proved lost by both" << std::endl;
  CHECK(lost > positions / 50 && lost < positions - positions / 50, "both outcomes are exercised");
}

// What sleep sets rest on: when two one-step moves have disjoint footprints, each is still legal
// after the other (checked in the independent replayer, on the atomic actions the moves stand
// for) and the two orders reach the same state.
void test_disjoint_footprints_commute() {
  Rng rng(4711);
  kl::SolveOptions plain;  // every move the rules allow (but the standing rules), no forced steps
  plain.safe_foundation_moves = plain.partial_run_rule = plain.canonical_lifts = false;
  plain.kings_follow_emptying = false;
  kl::MoveGenerator generator(plain);
  // Plays `steps` from `board` in `game`; false when the replayer refuses an action.
  const auto play = [](kl::Board& board, kl::ReplayGame& game, const std::vector<kl::Step>& steps) {
    for (const kl::Action& action : kl::expand_line(board, steps)) {
      if (!game.apply(action).empty()) return false;
    }
    return true;
  };
  const int suit_sets[] = {0xF, 0xF, 0x5, 0xA};
  int pairs = 0;
  int dependent = 0;
  for (int i = 0; i < 800; ++i) {
    const int suits = suit_sets[i % 4];
    const bool full = suits == 0xF;
    const int max_rank = full ? kl::kMaxRank : 3 + rng.below(10);
    const int ncols = full ? kl::kMaxColumns : 2 + rng.below(kl::kMaxColumns - 1);
    const int draw = i % 5 == 4 ? 1 : 3;
    const kl::Position p = random_midgame(rng, suits, max_rank, ncols, draw, rng.below(full ? 160 : 40));
    kl::Board board(p, draw);
    std::vector<kl::Step> moves;
    generator.generate(board, moves);
    std::vector<kl::Step> single;  // one-step moves, played once to learn their footprints
    std::vector<std::uint32_t> prints;
    for (std::size_t k = 0; k < moves.size(); ++k) {
      if (moves[k].chained != 0 || (k > 0 && moves[k - 1].chained != 0)) continue;
      kl::Step played = moves[k];
      board.apply(played);
      board.undo(played);
      single.push_back(played);
      prints.push_back(kl::footprint(played));
    }
    for (std::size_t a = 0; a < single.size(); ++a) {
      for (std::size_t b = 0; b < single.size(); ++b) {
        if (a == b) continue;
        if ((prints[a] & prints[b]) != 0) {
          ++dependent;
          continue;
        }
        ++pairs;
        const std::string where = kl::format_position(p) + " draw " + std::to_string(draw) + " moves " +
                                  std::to_string(a) + ", " + std::to_string(b);
        kl::Board ab = board;
        kl::ReplayGame game_ab(p, draw);
        CHECK(play(ab, game_ab, {single[a]}), "a listed move is legal: " + where);
        CHECK(play(ab, game_ab, {single[b]}), "a move is legal after one that commutes with it: " + where);
        kl::Board ba = board;
        kl::ReplayGame game_ba(p, draw);
        CHECK(play(ba, game_ba, {single[b]}) && play(ba, game_ba, {single[a]}), "the other order is legal: " + where);
        CHECK(game_ab.state_text() == game_ba.state_text(), "both orders reach the same game: " + where);
        CHECK(ab.key() == ba.key(), "both orders reach the same search state: " + where);
      }
    }
  }
  std::cout << "sleep sets: " << pairs << " commuting pairs of moves checked, " << dependent << " dependent" << std::endl;
  CHECK(pairs > 5000 && dependent > 5000, "both kinds of pairs are exercised");
}

void test_fixture(const std::string& dir) {
  std::ifstream in(dir + "/klondike_draw3_solvitaire.txt");
  CHECK(in.good(), "fixture file " + dir + "/klondike_draw3_solvitaire.txt");
  std::string line;
  std::string verdict;
  int agreed = 0;
  int decided = 0;
  while (std::getline(in, line)) {
    if (line.rfind("# ", 0) == 0) {
      verdict = line.substr(2);
      continue;
    }
    if (verdict == "timed-out") continue;  // unknown to Solvitaire: nothing to compare
    const std::string name = line.substr(0, line.find(' '));
    const kl::Position p = parse_or_die(line.substr(line.find(' ') + 1));
    kl::SolveBudget budget;
    budget.max_states = 50000000;
    const kl::SolveResult r = kl::solve(p, {}, budget);
    if (r.status == kl::Status::winnable) {
      CHECK(kl::check_winning_line(p, 3, r.line).empty(), "fixture line replays: " + name);
    }
    ++decided;
    const kl::Status want = verdict == "solved" ? kl::Status::winnable : kl::Status::not_winnable;
    CHECK(r.status == want, name + ": Solvitaire says " + verdict + ", solver " + verdict_name(r.status));
    agreed += r.status == want;
  }
  std::cout << "fixture: " << agreed << "/" << decided << " Solvitaire verdicts matched" << std::endl;
}

void test_budgets(const std::string& dir) {
  // Fixture deal 19 needs millions of states to be proved lost.
  std::ifstream in(dir + "/klondike_draw3_solvitaire.txt");
  std::string line;
  kl::Position hard;
  while (std::getline(in, line)) {
    if (line.rfind("fixture-19 ", 0) == 0) hard = parse_or_die(line.substr(line.find(' ') + 1));
  }
  CHECK(!hard.columns.empty(), "fixture-19 found");
  kl::SolveBudget budget;
  budget.max_states = 1000;
  kl::SolveResult r = kl::solve(hard, {}, budget);
  CHECK(r.status == kl::Status::unknown && r.stop_reason == kl::StopReason::states && r.states == 1000,
        "state budget");
  budget = {};
  budget.time_limit_s = 0.05;
  r = kl::solve(hard, {}, budget);
  CHECK(r.status == kl::Status::unknown && r.stop_reason == kl::StopReason::time && r.seconds < 1.0,
        "time budget");
  solitaire::CancelToken cancel;
  cancel.cancel();
  budget = {};
  budget.cancel = &cancel;
  r = kl::solve(hard, {}, budget);
  CHECK(r.status == kl::Status::unknown && r.stop_reason == kl::StopReason::cancelled && r.states <= 256,
        "cancellation");
  // A tiny table saturates; the search stays exact (here: stopped by states, never wrong).
  budget = {};
  budget.max_memory_bytes = 64 * 1024;
  budget.max_states = 200000;
  r = kl::solve(hard, {}, budget);
  CHECK(r.tt_saturated && r.tt_bytes <= 64 * 1024 && r.status != kl::Status::not_winnable,
        "memory cap: saturated table, no false verdict");
  // Saturated table on a small position: still the exact verdict.
  Rng rng(99);
  int exact = 0;
  for (int i = 0; i < 40; ++i) {
    const kl::Position p = random_deal(rng, 0xF, 3, 3);
    const Verdict truth = brute_force(p, 3, 400000);
    if (truth == Verdict::unknown) continue;
    kl::SolveBudget tiny;
    tiny.max_memory_bytes = 1024;
    const kl::SolveResult s = kl::solve(p, {}, tiny);
    CHECK(s.status == (truth == Verdict::win ? kl::Status::winnable : kl::Status::not_winnable),
          "exact with a saturated table: " + kl::format_position(p));
    ++exact;
  }
  CHECK(exact > 20, "saturated-table positions checked");
  // An already won position and a trivially lost one.
  r = kl::solve(parse_or_die("t=- s=- w=- f=13,13,13,13"));
  CHECK(r.status == kl::Status::winnable && r.line.empty(), "won position: empty line");
  // One column, spades A-2: the 2 (the top rank, a "King") covers the ace for ever.
  r = kl::solve(parse_or_die("t=As,2S s=- w=- f=0,0,0,0 r=2"));
  CHECK(r.status == kl::Status::not_winnable && r.stop_reason == kl::StopReason::none, "trivially lost");
}

// Rule 10: states that differ only in which same-colour holder holds which card share the
// symmetric name (and keep apart in the exact one); a different base card or foundation keeps
// them apart in both (the face-down cards are named by their column's slot within one search). The swapped states are won or lost together.
void test_suit_symmetry_key() {
  const auto board = [](const std::string& text) { return kl::Board(parse_or_die(text), 3); };
  const std::string stock = " s=AC,AD,2D,AH,2H,4H,4D,AS,2S,3S w=- f=0,0,0,0 r=4";
  const std::string a = "t=2c,4S,3H/3c,4C,3D" + stock;
  const std::string b = "t=2c,4S,3D/3c,4C,3H" + stock;   // the red threes swapped
  const std::string c = "t=2c,4C,3H/3c,4S,3D" + stock;   // the black fours (bases) swapped
  CHECK(board(a).symmetric_key() == board(b).symmetric_key(), "a twin swap keeps the symmetric name");
  CHECK(!(board(a).key() == board(b).key()), "a twin swap changes the exact name");
  CHECK(!(board(a).symmetric_key() == board(c).symmetric_key()), "the bases are named");
  // The same tableau with AC on its foundation instead of in the stock: another name.
  const std::string e = "t=2c,4S,3H/3c,4C,3D s=AD,2D,AH,2H,4H,4D,AS,2S,3S w=- f=1,0,0,0 r=4";
  CHECK(!(board(a).symmetric_key() == board(e).symmetric_key()), "the foundations are named");
  // Found by the brute-force stress run: with rule 3 off (variants 2 and 3) the symmetric name
  // lost these wins (the detour of rule 10 (a) went through the state's own name), so rule 10 is
  // off with rule 3.
  Tally tally;
  for (const char* text : {"t=3D/4S,3H,2S/3C,2D,AC/Ah,4d,2h,3S s=- w=AD,4C,4H,2C f=0,0,0,1 r=4",
                           "t=4D,3C/4H/3d,Ah,4S,3H,2C/4c,Ad,2d,2H,AS s=- w=AC,3S,2S f=0,0,0,0 r=4"}) {
    compare_with_brute_force(parse_or_die(text), 3, tally);
  }
  CHECK(tally.wins == 2, "both regression positions are winnable");
  for (const std::string& text : {a, b}) {
    const kl::Position p = parse_or_die(text);
    const kl::SolveResult r = kl::solve(p);
    kl::SolveOptions exact;
    exact.suit_symmetry = false;
    CHECK(r.status == kl::solve(p, exact).status, "the symmetric name keeps the verdict on " + text);
    CHECK(r.status == (brute_force(p, 3, 400000) == Verdict::win ? kl::Status::winnable : kl::Status::not_winnable),
          "brute force agrees on " + text);
  }
}

// The 16-byte name (CompactKey) is the symmetric name packed: along random walks of search steps
// from full and reduced deals, two states share one compact name exactly when they share the
// symmetric one. A position too big for 128 bits keeps the 32-byte name, with the same verdict.
void test_compact_key_packs_the_symmetric_key() {
  Rng rng(2027);
  kl::SolveOptions options;
  kl::MoveGenerator generator(options);
  const int suit_sets[] = {0xF, 0x5, 0xA, 0xF};
  int states = 0;
  for (int walk = 0; walk < 120; ++walk) {
    const int suits = suit_sets[walk % 4];
    const bool full = suits == 0xF;
    const kl::Position p = random_deal(rng, suits, full ? kl::kMaxRank : 3 + rng.below(10),
                                       full ? kl::kMaxColumns : 2 + rng.below(kl::kMaxColumns - 1));
    const int draw = walk % 3 == 2 ? 1 : 3;
    kl::Board board(p, draw);
    CHECK(board.compact_key_fits(), "a deal fits the compact name");
    std::unordered_map<std::string, std::string> by_symmetric;
    std::unordered_map<std::string, std::string> by_compact;
    const auto text = [](const std::uint64_t* w, int n) {
      return std::string(reinterpret_cast<const char*>(w), static_cast<std::size_t>(n) * 8);
    };
    std::vector<kl::Step> path;
    for (int step = 0; step < 300; ++step) {
      const std::string sym = text(board.symmetric_key().w, 4);
      const std::string com = text(board.compact_key().w, 2);
      const auto a = by_symmetric.emplace(sym, com);
      const auto b = by_compact.emplace(com, sym);
      CHECK(a.first->second == com && b.first->second == sym, "compact and symmetric names agree");
      ++states;
      std::vector<kl::Step> moves;
      generator.generate(board, moves);
      if (moves.empty() || (rng.below(8) == 0 && !path.empty())) {  // back up a few steps
        for (int k = rng.below(4); k >= 0 && !path.empty(); --k) {
          board.undo(path.back());
          path.pop_back();
        }
        continue;
      }
      std::vector<std::size_t> starts;
      for (std::size_t k = 0; k < moves.size(); ++k) {
        if (k == 0 || moves[k - 1].chained == 0) starts.push_back(k);
      }
      std::size_t k = starts[static_cast<std::size_t>(rng.below(static_cast<int>(starts.size())))];
      bool chained = true;
      while (chained) {
        kl::Step played = moves[k++];
        chained = played.chained != 0;
        board.apply(played);
        path.push_back(played);
      }
    }
  }
  std::cout << "compact names: " << states << " states checked against the symmetric name" << std::endl;
  // 21 face-down cards in one column and 30 in the talon: 7 * 11 + 16 + 30 + 5 bits, over 126.
  const kl::Position big = parse_or_die(
      "t=2c,3c,4c,5c,6c,7c,8c,9c,Tc,Jc,Qc,Kc,2d,3d,4d,5d,6d,7d,8d,9d,Td,AC/-/-/-/-/-/- "
      "s=AD,JD,QD,KD,AH,2H,3H,4H,5H,6H,7H,8H,9H,TH,JH,QH,KH,AS,2S,3S,4S,5S,6S,7S,8S,9S,TS,JS,QS,KS "
      "w=- f=0,0,0,0");
  CHECK(!kl::Board(big, 3).compact_key_fits(), "a long face-down column and talon do not fit 128 bits");
  kl::SolveOptions exact;
  exact.suit_symmetry = false;
  const kl::SolveResult wide = kl::solve(big);
  CHECK(wide.status != kl::Status::unknown && wide.status == kl::solve(big, exact).status,
        "the 32-byte symmetric name decides as the exact one");
  if (wide.status == kl::Status::winnable) CHECK(kl::check_winning_line(big, 3, wide.line).empty(), "line replays");
}

// Move-order perturbation on full deals: the verdict is stable, lines replay.
void test_full_deals_order_stable(const std::string& dir) {
  std::ifstream in(dir + "/klondike_draw3_solvitaire.txt");
  std::string line;
  int checked = 0;
  while (std::getline(in, line) && checked < 12) {
    if (line.rfind("# ", 0) == 0) continue;
    const kl::Position p = parse_or_die(line.substr(line.find(' ') + 1));
    kl::SolveBudget budget;
    budget.max_states = 2000000;
    const kl::SolveResult base = kl::solve(p, {}, budget);
    if (base.status == kl::Status::unknown) continue;
    ++checked;
    for (std::uint64_t seed : {1ULL, 2ULL, 3ULL}) {
      kl::SolveOptions options;
      options.order_seed = seed;
      options.restarts = seed != 3;
      kl::SolveBudget big;
      big.max_states = 8000000;
      const kl::SolveResult r = kl::solve(p, options, big);
      CHECK(r.status == base.status || r.status == kl::Status::unknown,
            "order seed " + std::to_string(seed) + " flips the verdict of " + line.substr(0, line.find(' ')));
      if (r.status == kl::Status::winnable) CHECK(kl::check_winning_line(p, 3, r.line).empty(), "line replays");
    }
    // Draw 1 on the same deal: lines replay too.
    kl::SolveOptions one;
    one.draw_count = 1;
    const kl::SolveResult r1 = kl::solve(p, one, budget);
    if (r1.status == kl::Status::winnable) CHECK(kl::check_winning_line(p, 1, r1.line).empty(), "draw-1 line");
  }
  CHECK(checked >= 8, "full deals checked under shuffled orders");
}

}  // namespace

// The draw-1 bound: only a draw-1 proof of loss decides. Deal 1 is winnable; with the bound tried
// from 256 states on, its first draw-1 searches stop undecided (draw 1 needs about 20000 states)
// and must not count as proofs. Deal 2385 is lost with draw 3 and draw 1: tried at the root, the
// draw-1 search alone proves it (the states are exactly draw 1's); by default (from a million
// states on) the bound proves it too, in fewer states than the draw-3 search alone.
void test_draw1_bound() {
  const kl::Position deal1 = parse_or_die(
      "t=TD/8d,8H/4d,Qd,KC/As,6s,4s,8S/2h,Qc,3c,7d,9S/3s,7h,6h,Jd,Ad,8C/9h,2d,5h,9d,3d,4c,AC "
      "s=JC,TS,JS,9C,2C,5D,6C,5C,JH,TH,TC,QS,7S,KS,KH,KD,2S,4H,5S,7C,AH,QH,6D,3H w=- f=0,0,0,0");
  kl::SolveOptions early;
  early.draw1_after_states = 1;
  const kl::SolveResult won = kl::solve(deal1, early);
  CHECK(won.status == kl::Status::winnable, "deal 1 stays winnable with early draw-1 tries");
  CHECK(kl::check_winning_line(deal1, 3, won.line).empty(), "and its line replays");
  const kl::Position deal2385 = parse_or_die(
      "t=AH/7c,7D/4c,4h,6S/5c,7h,7s,QD/Qs,Qh,Kd,Td,JH/3d,4d,8c,2s,3c,JC/Ac,Qc,3h,9s,Tc,4s,9H "
      "s=6H,5S,3S,JS,5H,9C,AD,2H,AS,9D,8H,KH,JD,6D,TS,2D,KC,KS,TH,5D,6C,8D,8S,2C w=- f=0,0,0,0");
  kl::SolveOptions draw1;
  draw1.draw_count = 1;
  const kl::SolveResult one = kl::solve(deal2385, draw1);
  CHECK(one.status == kl::Status::not_winnable, "deal 2385 is lost with draw 1");
  kl::SolveOptions root;
  root.draw1_after_states = 0;
  const kl::SolveResult first = kl::solve(deal2385, root);
  CHECK(first.status == kl::Status::not_winnable && first.states == one.states,
        "draw 1 at the root proves deal 2385 lost in draw 1's states");
  kl::SolveOptions plain;
  plain.draw1_bound = false;
  plain.draw1_after_states = 1;  // ignored with the bound off
  const kl::SolveResult alone = kl::solve(deal2385, plain);
  const kl::SolveResult bound = kl::solve(deal2385);
  CHECK(alone.status == kl::Status::not_winnable && bound.status == kl::Status::not_winnable,
        "deal 2385 is lost with the bound and without");
  CHECK(bound.states < alone.states, "the default bound proves deal 2385 lost in fewer states");
  kl::SolveBudget small;
  small.max_states = 1500000;
  const kl::SolveResult capped = kl::solve(deal2385, kl::SolveOptions{}, small);
  CHECK(capped.states <= small.max_states, "the draw-1 states count in the budget");
}

int main(int argc, char** argv) {
  // klondike_solver_test [DATA_DIR [ROUNDS [SIZE [SEED]]]]: SIZE 1 draws bigger reduced decks;
  // with SIZE given only the brute-force comparison runs (a stress run).
  const std::string dir = argc > 1 ? argv[1] : "native/src/klondike/tests/data";
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 400;
  if (argc > 3) {
    const std::uint64_t seed = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 777;
    test_reduced_against_brute_force(rounds, std::atoi(argv[3]), seed);
    std::cout << g_checks << " checks, " << g_failures << " failures" << std::endl;
    return g_failures == 0 ? 0 : 1;
  }
  test_cards_and_text();
  test_validation();
  test_talon_cursors();
  test_restart_schedule();
  test_visited_table_erase();
  test_safe_rule_needs_keller();
  test_canonical_lift_regressions();
  test_dead_end_deal();
  test_draw1_bound();
  test_relaxed_game_versions();
  test_disjoint_footprints_commute();
  test_suit_symmetry_key();
  test_compact_key_packs_the_symmetric_key();
  test_reduced_against_brute_force(rounds, 0, 12345);
  test_budgets(dir);
  test_fixture(dir);
  test_full_deals_order_stable(dir);
  std::cout << g_checks << " checks, " << g_failures << " failures" << std::endl;
  return g_failures == 0 ? 0 : 1;
}
