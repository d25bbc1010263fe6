// The exact Klondike solver: "thoughtful" Klondike (every card known, face down or not), draw 3
// or draw 1, unlimited recycles, from any position.
//
// Design note: what is proved, and why each shortcut is sound
// -----------------------------------------------------------
// Model. The talon (waste + stock) is one sequence T with a cursor (talon.hpp): draws and
// recycles only move the cursor, and plays only remove cards, so T keeps its order. Draws commute
// with every other move, so a line can always be rearranged to draw just before the waste card
// it plays: the search's talon move "reach T[q-1] by draws (and recycles), play it" (the K+
// move) loses nothing, and the draws are written out when a line is reported (line_expander).
// What a talon play leaves depends on q only, never on the cursor it started from, so two
// cursors that reach the same cards name the same state (canonical_cursor).
//
// States. The key (Board::key) is exact: each column's face-down count, run and suits, the
// talon's remaining cards and canonical cursor; the foundations follow (every other card is up).
// Columns with nothing face down are interchangeable and sorted; a column with face-down cards
// keeps its slot, which names those cards. Face-up cards that are cut off from the column's end
// run (only possible in a given position) can move no sooner than face-down ones and are
// treated as such.
//
// Search. Depth-first over the steps below with a table of entered states. On a finite graph
// that decides reachability of a won state exactly. A state is marked lost only when its
// strongly connected component closes with no win (Tarjan; see solver.cpp): that is the only
// mark that survives a restart, so restarts in other orders never lose exactness (their lengths
// follow Luby's sequence, see SolveOptions::restarts). A search that runs out of budget says
// `unknown`, never `not_winnable`. A full table stops recording (cycles are still caught through
// the pending states), which costs time, not correctness.
//
// Shortcuts, each keeping a winning line whenever there is one:
//  1. Safe foundation moves are played at once, as forced steps (dominance.hpp). Keller's rule
//     for games whose foundation cards may come back down: card of rank r goes up when both
//     opposite-colour foundations hold r-2 or more and the other same-colour one r-3 or more
//     (Blake & Gent prove it, Appendix B.1). The plainer rule "both opposite-colour cards of
//     rank r-1 are up" is not safe here: a card brought back down from a foundation may need the
//     card as its holder (tests: test_safe_rule_needs_keller). Played from columns always, from
//     the talon only with draw 1, where every talon card stays in reach whatever is taken (the
//     talon is then a reserve, B&G's stock exception); with draw 3 taking a card out shifts the
//     groups of three of later passes, so no talon play is forced.
//  2. A card that rule 1 would send straight back up is never brought down from its foundation
//     (B&G), and a safe talon card is never put on a column: the forced step would then move it
//     up, which is exactly the state of playing it up directly.
//  3. Part of a run moves only when the card it uncovers then goes to its foundation, and the
//     two are one step (Blake & Gent, Appendix B.2, after Wolter and Birrell).
//  4. A King at the bottom of a column never moves: it could only go to another empty column,
//     the same state up to column order. One empty column stands for all as a target.
//  5. A whole run that would leave its column empty (nothing face down under it) moves only if
//     some King could ever use an empty column (one in the talon, on a foundation, or anywhere
//     in a column but its bottom). Otherwise the emptied column is never used, and every line
//     after the move can be played with the run left where it was.
//  6. Canonical lifts. A column's end card X that can go up while it lies on a face-up card (or
//     is a King alone in its column) can come straight back down where it was, so the states
//     with X up and X down reach each other and are won or lost together. X goes up at once
//     when, moreover, the card under it on the foundation is safe by rule 1: by rule 2
//     X-1 never comes back down, so X up hides nothing that a line may need. Lifting such cards
//     in any order ends in the same state. A foundation card brought down where rule 6 would lift
//     it again comes down only in a chain that ends with a card put on it: a talon card, a whole
//     run, a partial run whose uncovered card then goes up (rules 3, 5 apply), or another
//     foundation card (the chain goes on, or stops where that card would stay down). Alone it
//     would go straight back up: the same state. Without the X-1 condition the rule is wrong: a
//     line may need X-1 down while X stays on the table, and X up would first have to come down
//     somewhere as well (found by the brute-force tests; tests/ keeps those positions).
//  7. (Withdrawn: "a foundation card comes down only in a move that puts a card on it, or with
//     the card under it coming down next" is wrong. Descents may have to interleave: deal 675
//     needs 4C down onto 5D, 4D down onto 5C, 3C down onto 4D, 2H onto 3C; 4C is used only by
//     3C coming down after 4D. The brute-force tests did not find it; the winning line's
//     positions did, see test_klondike_solver.py.)
//  8. Emptying runs wait for a King. A whole run R that leaves its column c empty (rule 5) moves
//     only in a chain whose next step puts a King into c: a King from the talon, a King-headed
//     run from another column (rule 4), or a King from its foundation (a move of its own, or
//     rule 6's chain). Why: in a winning line, let u be the first later step that puts a King
//     into c. Until u nothing enters c (only Kings may), so leaving R in c changes only the
//     steps that touch R: a card put on R's end, R's cards going up, or a part of R moving are
//     the same steps from c; R moving off x (uncovering x) is then R moving from c, again an
//     emptying run, which waits in turn; a run carrying R along moves without it (its first card
//     is unchanged), and nothing lands on x meanwhile (R covered it). So R's move can wait until
//     just before u, onto x wherever x's run is: the chain. If no King ever enters c, it is
//     never needed. Several emptying runs wait each for its own King, independently: no step
//     needs another run's column empty. On deal 778 it cuts the states entered by 39%.
//  9. Sleep sets (sleep_set.hpp; Godefroid's partial-order reduction). A move b proved
//     lost from a state X is not tried again below X while every step made since (forced steps
//     included) touches none of the columns, talon and foundations that b touches: b is then
//     still legal and leads to a state reachable from X.b, so lost as well. Only proofs put a
//     move to sleep: a child still pending in an open component may yet win. A move that leads
//     only to lost states is in no winning line, so a win is found exactly when it was before,
//     and a state is proved lost only when every move it skipped was lost too.
//     Moves of one or two steps sleep (longer chains are rare). On the five hardest lost deals
//     of 1-1000 (96, 352, 711, 903, 928) the states entered fall by 26-35%; the distinct states
//     hardly change: the skipped moves mostly led to states the other order had reached.
// 10. Suit symmetry (Board::symmetric_key; after lonelybot's idea). The table names a state by
//     each column's face-down cards and first face-up card (its base), the foundations and the
//     talon, not by the cards above the bases. Those follow from the rest as a set V (every card
//     neither face down, nor in the talon, nor on a foundation), and each card of V that is no base
//     lies on one of the two cards of V one rank higher of the other colour: states with one name
//     differ only in which of two same-colour holders x, x' holds which card. Any such matching is
//     a legal arrangement (ranks rise towards the holders, so every chain ends at a base). Claim:
//     states A and B with one name are won or lost together; every search step from A has a step
//     from B to a state with the same name as A's result (and back, by symmetry). The children of
//     {x, x'} are the same cards in A and B, at most two. (a) An end card c goes up: if c holds a
//     card d in B, c holds nothing in A, so d is the only child of {c, c'}, on c' in A; in B, c'
//     is free and rule 3's step (d's run onto c', c up) gives A's result. (b) A card or run
//     headed h (from a column, the talon or a foundation) goes onto an end y: if y is covered in
//     B, its only child sits on y' in A, so y' is free in B: h goes there; if that child is h
//     itself, A's step keeps A's name and B needs none. A King into an empty column, a talon card
//     going up: the same step. Bases and face-down cards, and so the cards turned over, change
//     alike. So by induction on the length of a winning line, B wins when A does, in as many
//     steps. The single step in (a) is rule 3's; with rule 3 off the detour (d over, then c up)
//     passes through A's own name, where the search stops, so the rule is then off too (the
//     brute-force tests found such a position, tests/). It names fewer states: on deals 711 and
//     928 the states entered fall from 11.2 and 15.8 million to 3.6 and 4.6 million. The name is
//     short enough to pack into 16 bytes (CompactKey; Board::compact_key) wherever the face-down
//     counts, foundations and talon fit 126 bits (every deal): the visited table then holds
//     twice the states in the same memory. The packing is checked against the 32-byte name along
//     random walks (tests/), and deals 1-1000 at 200000 states each give the same verdicts, states
//     and table entries with either.
// 11. Talon cards wait for a move that needs them (SolveOptions::talon_waits; off by default, see
//     below). A talon card c put on a column end y moves only chained with a next move that
//     depends on it: one with a step that touches the talon or a foundation or column y (c goes
//     up, moves, or takes a card). Not chained: a King put into an empty column (it changes
//     where rules 5 and 8 see Kings) and a card that rule 6 lifts straight back. Why: in a
//     winning line let M put c on y and let the next move Z move cards only between columns
//     other than y. Z leaves the talon and its cursor alone (c is still reached the same way),
//     leaves y's column alone (its end is c), and changes no foundation (so no forced step, no
//     condition of rules 1, 2, 5, 6 or 8 changes); so Z is a move before M, M is one after Z,
//     and both orders reach the same state. Moving M past such moves one by one, it comes just
//     before a move that depends on it, and there is one: c is on a foundation once the game is
//     won. Checked in the brute-force tests (two variants, two orders). Measured: the distinct
//     states fall on some winnable deals (6441: 864,417 to 564,315 table entries; 3974: 1.04
//     million to 0.30 million), but the states entered rise 1.3-2.5x on the slow lost deals:
//     the state after M is no longer recorded, so its chains are entered again from every
//     state that reaches it, and the table gains little (the states after M mostly lead on).
//     Pruning M only where no dependent move follows (and otherwise playing it alone) hardly
//     ever fires (-0.5% states, +30-50% time from the extra move lists). Figures and commands:
//     benchmarks/results/klondike_issue25_tail.md.
// Lower bound. Before searching, a relaxed game (dead_end.hpp: draw order ignored, cards that left
// their columns hold any number of cards) is played greedily; every real line is a relaxed line, so
// if the relaxed game is lost the position is lost. It settles at once deals whose tableau blocks
// itself: 46 of deals 1-1000, a third of those the search alone cannot decide in 10 s. It also runs
// in the search (dead_end_in_search, on by default), after moves that put a card on a column: a
// state it proves lost gets no moves, so it closes at once as lost (exact: the proof is the same as
// at the root). After foundation moves it is skipped: the state after one is the relaxed game's own
// state after the same move, with at most more options (the card may come back down), so it cannot
// be lost where the relaxed game from the state before was not. It is also skipped, for speed only,
// after partial runs and chains that bring foundation cards down (on deals 1-1000 they almost never
// made it lose); after a single card or run put on a column end y whose first card h can leave
// again at once (h goes up, or the other card that holds h ends a column: then the relaxed game
// from here can first undo the move and do all it did from the state before, which was not proved
// lost); and where, after one kind of move (talon card put on a column, or run), it has proved
// fewer than one state in 1000 lost after its first 30000 plays, it is played after one such move
// in 32 only until its rate is back. Every skip is exact: a state not checked is simply searched.
// The relaxed game is played on 64-bit card sets (all holders of a round found by shifts); its
// rules only ever add holders, shorten columns and raise foundations, so it ends in the same state
// whatever order its steps take, and it is checked against the card-by-card version on every
// position of the tests. Measured (10 s CPU, deals 1-1000): it decides deals 96, 118, 258, 495 and
// 886 (the search alone needed 24 to 208 million states for them, the search with the check 0.7 to
// 20 million) and cuts deals 432 and 507 from 19 and 13 million states to 1.4 and 4.5 million; over
// deals 1-1000 the states entered fall from 595 to 472 million (the unknown deals, stopped at 10 s,
// included). On deals where it never proves anything (928, 248, 352, 711) the states are unchanged
// and the cost is its first 30000 plays. Its price shows where it proves states lost often but
// uselessly: on deal 903 (2% fewer states) it adds about a quarter to the instructions executed,
// which may push it past 10 s.
//
// Draw-1 bound (SolveOptions::draw1_bound, with draw 2 or more). Every line of the game with draw
// k is a line of the same position with draw 1: a talon play takes a card the draws can reach and
// leaves the talon's other cards in their order, and with draw 1 and unlimited recycles every
// talon card can be reached, whatever was taken before; the other moves do not depend on the draw.
// So a position lost with draw 1 is lost with draw k (never the other way round: a draw-1 win
// says nothing, nor does an undecided draw-1 search). The search tries it once it has entered
// draw1_after_states states (a million: the deals that take less never see it), with as many
// states as it has entered so far, again each time the states entered (both searches' together)
// have grown eightfold, and never again once draw 1 wins. Of the 174 draw-3 deals of 1-10000
// that took over 1 s, 110 are lost with draw 1 too, and draw 1 proves 91 of them in fewer
// states than draw 3 (median 27% of them). Measured side by side on 27 of them: 68.5 s before,
// 64.6 s with it, 23 over 1 s before, 16 after (states from 0.19x, deal 1151, to 2.01x: tries
// that stop undecided, deals lost with draw 1 in more states than draw 3 needs); draw-1 states
// come cheaper, so the time falls where the states rise a little (+4% in all). Over all 174,
// from their rows and the draw-1 searches (benchmarks/klondike_draw1_bound_estimate.py): about
// 1098 s to 932 s, 150 deals over 1 s; even knowing draw 1's verdicts beforehand would leave 130.
// Tests: the brute-force variants 16 (at the root) and 17 (from 256 states on, small budgets), and
// test_draw1_bound (an undecided draw-1 try must not count: deal 1). Figures and commands:
// benchmarks/results/klondike_issue25_tail.md.
// Each rule has its own argument; their combination is not proved here. It is checked against
// an exhaustive search over plain atomic actions on reduced decks (tests/), with rules 1-3, 6 and
// 8-11, the lower bound and the draw-1 bound on and off, shuffled move orders and restarts, and
// against Solvitaire's verdicts; winning lines are replayed by an independent replayer (replay.hpp). From Python
// (tests/test_klondike_solver*.py): a brute force written apart on reduced Solvitaire deals,
// the move generation against the Python engine's legal moves (queries.hpp; rules 4, 5 and the
// one-empty-column rule applied to the engine's list, the others switched off), and every
// winning line replayed in the Python engine.
//
// Measured with rule 10 (one core, CPU time, on a 2-core machine shared with other jobs; rows and
// summaries in benchmarks/results/, klondike_rule10_summary.md collects them and the commands):
//   python benchmarks/klondike_solver_native.py --name draw3_1-10000 --first 1 --last 10000
//       --time 10 --cpu-time --python-check
//   python benchmarks/klondike_solver_native.py --name draw1_1-2000_symmetric --draw 1 --first 1
//       --last 2000 --time 10 --cpu-time --python-check
// Draw 3, deals 1-10000: 31 unknown at 10 s (141 of deals 1-11000 before rule 10), median
// 0.088 ms, 98.26% within 1 s, 99th percentile 2.6 s; the 31 retried with 60 s each
// (klondike_solve --time 60 --cpu-time --check --line, merged with --merge) are all decided,
// the last four (3124, 4026, 4365, 4813: they filled the 32-byte table) with the 16-byte one in
// 28-47 s. 8195 winnable (every line replayed in solitaire_rl.envs.klondike), 1805 not: 81.950% (95% Wilson
// 81.184% .. 82.691%), against Blake & Gent's 81.945% +/- 0.084 and lonelybot's 81.95% +/- 0.03.
// None of the 9868 verdicts reached both with and without rule 10 differs. Draw 1, deals 1-2000:
// all decided within 10 s (11 unknown before), longest 4.4 s, 99.55% within 1 s, median 0.053 ms.
// Not reached: 99.9% of deals within 1 s (174 of 10000 draw-3 deals take longer, 9 of 2000 draw 1).
// Deals 1-100000 (draw 3; 10001-100000 with the draw-1 bound, 1 s first, the 1305 left unknown
// retried with 60 s, three of them, which filled the 1 GiB table, with 600 s and 4 GiB): none left
// undecided, 82054 winnable, 82.054% (95% Wilson 81.815% .. 82.291%; both figures above inside),
// 98.52% within 1 s, 99th percentile 1.7 s, longest 78 s; klondike_rule10_summary.md has the rest.
// Peak memory (/usr/bin/time, resident set): 790 MB on deals 148, 251, 461 (the hardest of 1-1000,
// 10.6-15.9 s, 32-byte table: 512 MiB plus the old 256 MiB one while it moves over); 821 MB on
// 3124, 4026, 4365, 4813 (16-byte table, up to 27.5 million states). The table's cap
// (SolveBudget::max_memory_bytes; 1 GiB in these runs, the --memory-mib default of
// benchmarks/klondike_solver_native.py) holds: a search that fills it goes on without recording
// and ends unknown when its time runs out.
//
// Move order (speed only; tuned on deals 1-1000): talon cards to foundations, moves that turn a
// face-down card up (from the column with most face-down cards first), column cards to
// foundations, partial runs, talon cards to columns, chains of cards back from foundations, runs
// that empty a column (each with its King, rule 8).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/cancel_token.hpp"
#include "common/limits.hpp"
#include "common/search_status.hpp"
#include "klondike/action.hpp"
#include "klondike/position.hpp"

namespace solitaire::klondike {

// What a search concluded and why it stopped: the enums every native solver shares.
using Status = solitaire::Status;
using StopReason = solitaire::StopReason;

struct SolveOptions {
  int draw_count = 3;  // cards a draw turns (1..52); 3 and 1 are the usual games
  // Forced safe foundation moves and what they make pointless (rules 1-2 below). Off only to
  // cross-check the shortcuts against a plainer search.
  bool safe_foundation_moves = true;
  // Part of a run moves only when the card it uncovers goes up at once (rule 3).
  bool partial_run_rule = true;
  // Cards that can go up and straight back down go up at once; cards come down from the
  // foundations only in chains that end with a card put on them (rule 6). Off: plain single
  // foundation-to-column moves.
  bool canonical_lifts = true;
  // A whole run that leaves its column empty moves only in a chain with a King put into that
  // column next (rule 8). Off: such runs move alone (rule 5 only).
  bool kings_follow_emptying = true;
  // A talon card put on a column is played only in a chain with a next move that depends on it:
  // one that touches the talon or a foundation, or the column it went to (rule 11). Off by
  // default: exact, but on the slow lost deals it doubles the states entered (design note).
  bool talon_waits = false;
  // Draw 2 or more: once the search has entered draw1_after_states states, try to prove the
  // position lost with draw 1, which only adds lines (see the design note, "Draw-1 bound"). The
  // draw-1 search gets as many states as entered so far; left undecided, it is tried again, with
  // as many, when the states entered have grown eightfold. Off: draw 1 is never tried.
  bool draw1_bound = true;
  std::uint64_t draw1_after_states = 1000000;
  // Before searching, try to prove the position lost in a relaxed game (dead_end.hpp).
  bool dead_end_check = true;
  // With dead_end_check, also after moves that put a talon card or a whole run on a column
  // (see the design note for which, and when it is played less often).
  bool dead_end_in_search = true;
  // Sleep sets: a move proved lost from a state is not tried again below it while the moves made
  // since commute with it (sleep_set.hpp). Off only for cross-checks.
  bool sleep_sets = true;
  // States that differ only in which of two same-colour cards of a rank holds which card above
  // it share one name (Board::symmetric_key; the suit symmetry, rule 10). Off: the exact
  // arrangement is named (Board::key), for cross-checks.
  bool suit_symmetry = true;
  // 0: the default move order. Otherwise the moves of every state are shuffled with this seed:
  // the verdict must not change, only the time and the line.
  std::uint64_t order_seed = 0;
  // Restart the depth-first search now and then, alternating the order above with shuffled
  // ones and keeping every state already proved lost, so that one unlucky order does not hold
  // up a winnable deal. The searches get first_restart_states times Luby's sequence
  // 1 1 2 1 1 2 4 1 1 2 ... states each (the longest so far always in the order above): many
  // short tries in other orders, and ever longer ones, which an unwinnable deal needs. Off: one
  // search in one order.
  bool restarts = true;
  std::uint64_t first_restart_states = 20000;  // the unit of the restart schedule
  // A state where Board::surely_won() holds counts as won at once (the line found then ends
  // there, not with every card up). Off by default: the planners' capped world searches turn it
  // on, so that their cap is spent before the last cards are certain rather than after.
  bool surely_won_stops = false;
};

struct SolveBudget {
  double time_limit_s = 0.0;     // <= 0: no time limit
  std::uint64_t max_states = 0;  // 0: no limit on states entered
  // Cap on the visited-state table: by default the one every native search has (common/limits.hpp).
  std::size_t max_memory_bytes = solitaire::kDefaultMaxMemoryBytes;
  const CancelToken* cancel = nullptr;  // polled every 256 states
  // Count time_limit_s in the process's CPU time (std::clock) instead of wall-clock time: for
  // benchmarks on a shared machine. Leave false where other threads of the process are busy.
  bool cpu_clock = false;
};

struct SolveResult {
  Status status = Status::unknown;
  StopReason stop_reason = StopReason::none;
  std::vector<Action> line;      // a winning line of atomic actions when status is winnable
  std::uint64_t states = 0;      // states entered (after forced moves)
  double seconds = 0.0;          // wall-clock time of the search
  std::uint64_t tt_entries = 0;  // states recorded in the visited table
  std::uint32_t restarts = 0;    // searches restarted (see SolveOptions::restarts)
  std::uint64_t tt_bytes = 0;    // size of the visited table
  bool tt_saturated = false;     // the table hit its memory cap and stopped recording
};

// Decide `position`. Throws std::invalid_argument when the position or the options are
// invalid (validate() says why). Never prints, never touches signals.
SolveResult solve(const Position& position, const SolveOptions& options = {},
                  const SolveBudget& budget = {});

}  // namespace solitaire::klondike
