// The Python module solitaire_native: type conversions only, no game logic.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <tuple>
#include <vector>

#include "common/cancel_token.hpp"
#include "common/limits.hpp"
#include "common/random_deal.hpp"
#include "common/sample_loop.hpp"
#include "common/search_status.hpp"
#include "klondike/batch.hpp"
#include "klondike/hop.hpp"
#include "klondike/policy_inputs.hpp"
#include "klondike/ismcts.hpp"
#include "klondike/position.hpp"
#include "klondike/queries.hpp"
#include "klondike/solver.hpp"
#include "pyramid/batch.hpp"
#include "pyramid/pimc.hpp"
#include "pyramid/policy_inputs.hpp"
#include "pyramid/position.hpp"
#include "pyramid/pruning.hpp"
#include "pyramid/queries.hpp"
#include "pyramid/solver.hpp"

namespace nb = nanobind;
using namespace nb::literals;
using solitaire::CancelToken;
using solitaire::Limits;
using solitaire::Status;
using solitaire::StopReason;
namespace pyr = solitaire::pyramid;
namespace kl = solitaire::klondike;

namespace {

using MoveTuple = std::tuple<int, int, int>;  // (kind, a, b) as envs.pyramid.Move

std::vector<MoveTuple> to_tuples(const std::vector<pyr::Move>& moves) {
  std::vector<MoveTuple> out;
  out.reserve(moves.size());
  for (const pyr::Move& m : moves) out.emplace_back(static_cast<int>(m.kind), m.a, m.b);
  return out;
}

using ActionTuple = std::tuple<int, int, int, int, int>;  // (kind, src, dst, count, card)

std::vector<ActionTuple> to_tuples(const std::vector<kl::Action>& actions) {
  std::vector<ActionTuple> out;
  out.reserve(actions.size());
  for (const kl::Action& a : actions) out.emplace_back(static_cast<int>(a.kind), a.src, a.dst, a.count, a.card);
  return out;
}

kl::Position make_klondike_position(const std::vector<std::vector<int>>& face_down,
                                    const std::vector<std::vector<int>>& face_up, const std::vector<int>& stock,
                                    const std::vector<int>& waste, const std::array<int, 4>& foundation,
                                    int max_rank) {
  if (face_down.size() != face_up.size()) throw nb::value_error("face_down and face_up need one list per column");
  kl::Position p;
  for (std::size_t c = 0; c < face_down.size(); ++c) p.columns.push_back({face_down[c], face_up[c]});
  p.stock = stock;
  p.waste = waste;
  p.foundation = foundation;
  p.max_rank = max_rank;
  return p;
}

kl::Action action_of(const ActionTuple& t) {
  kl::Action a;
  a.kind = static_cast<kl::ActionKind>(std::get<0>(t));
  a.src = std::get<1>(t);
  a.dst = std::get<2>(t);
  a.count = std::get<3>(t);
  a.card = std::get<4>(t);
  return a;
}

// The planners' arguments: the unknown places as (column, index) and the candidate moves as tuples.
std::vector<kl::UnknownSlot> unknown_slots(const std::vector<std::tuple<int, int>>& unknown) {
  std::vector<kl::UnknownSlot> slots;
  for (const auto& [column, index] : unknown) slots.push_back({column, index});
  return slots;
}

std::vector<kl::Action> candidate_actions(const std::vector<ActionTuple>& candidates) {
  std::vector<kl::Action> moves;
  for (const ActionTuple& t : candidates) moves.push_back(action_of(t));
  return moves;
}

solitaire::SampleBudget sample_budget(int max_samples, std::uint64_t max_states, double time_limit_s, int threads) {
  solitaire::SampleBudget budget;
  budget.max_samples = max_samples;
  budget.max_states = max_states;
  budget.time_limit_s = time_limit_s;
  budget.threads = threads;
  return budget;
}

// The read-only fields of a sample loop's budget, on the options class `cls` of a planner whose
// options hold it as `budget` (the cancel token is an argument of the call, not an option).
template <class Options>
void def_budget_fields(nb::class_<Options>& cls) {
  cls.def_prop_ro("max_samples", [](const Options& o) { return o.budget.max_samples; })
      .def_prop_ro("max_states", [](const Options& o) { return o.budget.max_states; })
      .def_prop_ro("time_limit_s", [](const Options& o) { return o.budget.time_limit_s; })
      .def_prop_ro("threads", [](const Options& o) { return o.budget.threads; });
}

// The planners' options: built with keywords only (the C++ defaults), checked at once, then read-only.
void bind_planner_options(nb::module_& m) {
  const kl::HopOptions hop;
  nb::class_<kl::HopOptions> hop_options(m, "KlondikeHopOptions");
  hop_options
      .def("__init__",
           [](kl::HopOptions* self, int draw_count, std::uint64_t seed, std::uint64_t states_per_solve,
              int max_samples, std::uint64_t max_states, double time_limit_s, int threads) {
             kl::HopOptions o;
             o.draw_count = draw_count;
             o.seed = seed;
             o.states_per_solve = states_per_solve;
             o.budget = sample_budget(max_samples, max_states, time_limit_s, threads);
             kl::check_options(o);
             new (self) kl::HopOptions(o);
           },
           nb::kw_only(), "draw_count"_a = hop.draw_count, "seed"_a = hop.seed,
           "states_per_solve"_a = hop.states_per_solve, "max_samples"_a = hop.budget.max_samples,
           "max_states"_a = hop.budget.max_states, "time_limit_s"_a = hop.budget.time_limit_s,
           "threads"_a = hop.budget.threads)
      .def_ro("draw_count", &kl::HopOptions::draw_count)
      .def_ro("seed", &kl::HopOptions::seed)
      .def_ro("states_per_solve", &kl::HopOptions::states_per_solve);
  def_budget_fields(hop_options);

  const kl::IsmctsOptions tree;
  nb::class_<kl::IsmctsOptions>(m, "KlondikeIsmctsOptions")
      .def("__init__",
           [](kl::IsmctsOptions* self, int draw_count, std::uint64_t seed, std::uint64_t states_per_solve,
              int max_iterations, std::uint64_t max_states, double time_limit_s, double exploration, int max_depth) {
             kl::IsmctsOptions o;
             o.draw_count = draw_count;
             o.seed = seed;
             o.states_per_solve = states_per_solve;
             o.max_iterations = max_iterations;
             o.max_states = max_states;
             o.time_limit_s = time_limit_s;
             o.exploration = exploration;
             o.max_depth = max_depth;
             kl::check_options(o);
             new (self) kl::IsmctsOptions(o);
           },
           nb::kw_only(), "draw_count"_a = tree.draw_count, "seed"_a = tree.seed,
           "states_per_solve"_a = tree.states_per_solve, "max_iterations"_a = tree.max_iterations,
           "max_states"_a = tree.max_states, "time_limit_s"_a = tree.time_limit_s,
           "exploration"_a = tree.exploration, "max_depth"_a = tree.max_depth)
      .def_ro("draw_count", &kl::IsmctsOptions::draw_count)
      .def_ro("seed", &kl::IsmctsOptions::seed)
      .def_ro("states_per_solve", &kl::IsmctsOptions::states_per_solve)
      .def_ro("max_iterations", &kl::IsmctsOptions::max_iterations)
      .def_ro("max_states", &kl::IsmctsOptions::max_states)
      .def_ro("time_limit_s", &kl::IsmctsOptions::time_limit_s)
      .def_ro("exploration", &kl::IsmctsOptions::exploration)
      .def_ro("max_depth", &kl::IsmctsOptions::max_depth);

  const pyr::PimcOptions pimc;
  nb::class_<pyr::PimcOptions> pimc_options(m, "PyramidPimcOptions");
  pimc_options
      .def("__init__",
           [](pyr::PimcOptions* self, std::uint64_t seed, std::uint64_t states_per_solve, int max_samples,
              std::uint64_t max_states, double time_limit_s, int threads) {
             pyr::PimcOptions o;
             o.seed = seed;
             o.states_per_solve = states_per_solve;
             o.budget = sample_budget(max_samples, max_states, time_limit_s, threads);
             pyr::check_options(o);
             new (self) pyr::PimcOptions(o);
           },
           nb::kw_only(), "seed"_a = pimc.seed, "states_per_solve"_a = pimc.states_per_solve,
           "max_samples"_a = pimc.budget.max_samples, "max_states"_a = pimc.budget.max_states,
           "time_limit_s"_a = pimc.budget.time_limit_s, "threads"_a = pimc.budget.threads)
      .def_ro("seed", &pyr::PimcOptions::seed)
      .def_ro("states_per_solve", &pyr::PimcOptions::states_per_solve);
  def_budget_fields(pimc_options);
}

kl::SolveOptions klondike_options(int draw_count, std::uint64_t order_seed, bool dominances) {
  kl::SolveOptions options;
  options.draw_count = draw_count;
  options.order_seed = order_seed;
  options.safe_foundation_moves = options.partial_run_rule = options.canonical_lifts = dominances;
  options.kings_follow_emptying = dominances;
  return options;
}

}  // namespace

// ---- Native batched Pyramid environments (native/src/pyramid/batch.hpp) ----
namespace pyrenv = solitaire::pyramid::env;

namespace {

template <typename T>
using Rows = nb::ndarray<T, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
template <typename T>
using Column = nb::ndarray<T, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

// The checks both games' batches make before any game changes.
void check_deck(const Column<const std::uint8_t>& cards) {
  if (cards.shape(0) != 52) throw nb::value_error("a deal has 52 cards");
  std::uint64_t seen = 0;
  for (std::size_t k = 0; k < 52; ++k) {
    if (cards(k) >= 52 || ((seen >> cards(k)) & 1U)) throw nb::value_error("not a deck of 52 cards");
    seen |= std::uint64_t{1} << cards(k);
  }
}

void check_random_resets(const Column<const std::int64_t>& indices, const Column<const std::int64_t>& numbers,
                         int num_envs) {
  if (indices.shape(0) != numbers.shape(0)) throw nb::value_error("one deal number per index");
  for (std::size_t k = 0; k < indices.shape(0); ++k) {
    if (indices(k) < 0 || indices(k) >= num_envs) throw nb::index_error("no such environment");
    if (numbers(k) < 0) throw nb::value_error("deal numbers are not negative");
  }
}

// The sizes both batch constructors take: 1..kMaxBatch games, a step limit of 0 (never) or more,
// and 1..kMaxBatchThreads threads.
constexpr int kMaxBatch = 1 << 20;
constexpr int kMaxBatchThreads = 256;
void check_batch_arguments(int num_envs, int max_episode_steps, int num_threads) {
  if (num_envs < 1) throw nb::value_error("num_envs must be positive");
  if (num_envs > kMaxBatch) throw nb::value_error("num_envs must be at most 1048576");
  if (max_episode_steps < 0) throw nb::value_error("max_episode_steps must be 0 (never) or positive");
  if (num_threads < 1 || num_threads > kMaxBatchThreads) throw nb::value_error("num_threads must be 1..256");
}

void check_step(const Column<const std::int64_t>& actions, const Column<const std::int64_t>& pending, int autoreset,
                std::size_t num_envs, int num_actions) {
  if (actions.shape(0) != num_envs || pending.shape(0) != num_envs) {
    throw nb::value_error("one action and deal per env");
  }
  for (std::size_t k = 0; k < num_envs; ++k) {
    if (actions(k) < 0 || actions(k) >= num_actions) {
      throw nb::value_error(
          ("action " + std::to_string(actions(k)) + " is not 0.." + std::to_string(num_actions - 1)).c_str());
    }
    if (pending(k) < 0) throw nb::value_error("deal numbers are not negative");
  }
  if (autoreset < 0 || autoreset > 2) throw nb::value_error("autoreset is 0 (next step), 1 (same step) or 2 (disabled)");
}

// The arrays of one step, checked against the batch's size before any game changes.
struct PyramidBuffers {
  Rows<float> obs;
  Rows<std::int8_t> mask;
  Column<double> reward;
  Column<bool> terminated;
  Column<bool> truncated;
  Column<std::uint8_t> refusal;
  Column<std::uint8_t> outcome;
  Column<std::int32_t> pass;
  Column<std::int32_t> cards_left;
  Column<bool> was_reset;
  Rows<float> final_obs;
  Rows<std::int8_t> final_mask;

  pyrenv::Outputs outputs(std::size_t n) const {
    auto rows = [n](std::size_t r, std::size_t width, std::size_t want, const char* name) {
      if (r != n || width != want) throw nb::value_error((std::string(name) + " has the wrong shape").c_str());
    };
    rows(obs.shape(0), obs.shape(1), pyrenv::kObservationSize, "obs");
    rows(final_obs.shape(0), final_obs.shape(1), pyrenv::kObservationSize, "final_obs");
    rows(mask.shape(0), mask.shape(1), pyrenv::kNumActions, "mask");
    rows(final_mask.shape(0), final_mask.shape(1), pyrenv::kNumActions, "final_mask");
    for (std::size_t len : {reward.shape(0), terminated.shape(0), truncated.shape(0), refusal.shape(0),
                            outcome.shape(0), pass.shape(0), cards_left.shape(0), was_reset.shape(0)}) {
      if (len != n) throw nb::value_error("an output column has the wrong length");
    }
    return {obs.data(),     mask.data(),    reward.data(),     terminated.data(),
            truncated.data(), refusal.data(), outcome.data(),  pass.data(),
            cards_left.data(), was_reset.data(), final_obs.data(), final_mask.data()};
  }
};

}  // namespace

static void bind_pyramid_batch(nb::module_& m) {
  nb::class_<PyramidBuffers>(m, "PyramidBuffers")
      .def(nb::init<Rows<float>, Rows<std::int8_t>, Column<double>, Column<bool>, Column<bool>,
                    Column<std::uint8_t>, Column<std::uint8_t>, Column<std::int32_t>, Column<std::int32_t>,
                    Column<bool>, Rows<float>, Rows<std::int8_t>>(),
           "obs"_a, "mask"_a, "reward"_a, "terminated"_a, "truncated"_a, "refusal"_a, "outcome"_a, "pass_"_a,
           "cards_left"_a, "was_reset"_a, "final_obs"_a, "final_mask"_a);

  nb::class_<pyrenv::Batch>(m, "PyramidBatch")
      .def("__init__",
           [](pyrenv::Batch* self, int num_envs, bool stock_top_playable, bool reward_shaping,
              int max_episode_steps, int num_threads) {
             check_batch_arguments(num_envs, max_episode_steps, num_threads);
             new (self) pyrenv::Batch(num_envs, stock_top_playable, reward_shaping, max_episode_steps, num_threads);
           },
           "num_envs"_a, "stock_top_playable"_a, "reward_shaping"_a, "max_episode_steps"_a, "num_threads"_a = 1)
      .def_prop_ro("num_envs", &pyrenv::Batch::num_envs)
      .def(
          "reset_cards",
          [](pyrenv::Batch& b, int i, Column<const std::uint8_t> cards, const PyramidBuffers& bufs) {
            const auto out = bufs.outputs(static_cast<std::size_t>(b.num_envs()));
            if (i < 0 || i >= b.num_envs()) throw nb::index_error("no such environment");
            check_deck(cards);
            b.reset_one(i, cards.data(), out);
          },
          "index"_a, "cards"_a, "buffers"_a)
      .def(
          "reset_random",
          [](pyrenv::Batch& b, Column<const std::int64_t> indices, Column<const std::int64_t> numbers,
             const PyramidBuffers& bufs) {
            const auto out = bufs.outputs(static_cast<std::size_t>(b.num_envs()));
            check_random_resets(indices, numbers, b.num_envs());
            nb::gil_scoped_release release;
            b.reset_random(indices.data(), numbers.data(), static_cast<int>(indices.shape(0)), out);
          },
          "indices"_a, "numbers"_a, "buffers"_a)
      .def(
          "step",
          [](pyrenv::Batch& b, Column<const std::int64_t> actions, Column<const std::int64_t> pending,
             int autoreset, const PyramidBuffers& bufs) {
            const auto n = static_cast<std::size_t>(b.num_envs());
            const auto out = bufs.outputs(n);
            check_step(actions, pending, autoreset, n, pyrenv::kNumActions);
            nb::gil_scoped_release release;
            b.step(actions.data(), pending.data(), static_cast<pyrenv::Autoreset>(autoreset), out);
          },
          "actions"_a, "pending"_a, "autoreset"_a, "buffers"_a);

  m.def(
      "random_deal",
      [](const std::string& game, std::uint64_t number) {
        const auto cards = solitaire::random_deal(game, number);
        return std::vector<int>(cards.begin(), cards.end());
      },
      "game"_a, "number"_a);
}
// ---- end of the native batched Pyramid environments ----

// ---- Native batched Klondike environments (native/src/klondike/batch.hpp) ----
namespace klenv = solitaire::klondike::env;

namespace {

// The arrays of one step, checked against the batch's size before any game changes.
struct KlondikeBuffers {
  Rows<std::int64_t> obs;
  Rows<std::int8_t> mask;
  Column<double> reward;
  Column<bool> terminated;
  Column<bool> truncated;
  Column<std::uint8_t> refusal;
  Column<std::uint8_t> outcome;
  Column<std::int32_t> cards_up;
  Column<std::int32_t> recycles;
  Column<bool> was_reset;
  Rows<std::int64_t> final_obs;
  Rows<std::int8_t> final_mask;

  klenv::Outputs outputs(std::size_t n) const {
    auto rows = [n](std::size_t r, std::size_t width, std::size_t want, const char* name) {
      if (r != n || width != want) throw nb::value_error((std::string(name) + " has the wrong shape").c_str());
    };
    rows(obs.shape(0), obs.shape(1), klenv::kObservationSize, "obs");
    rows(final_obs.shape(0), final_obs.shape(1), klenv::kObservationSize, "final_obs");
    rows(mask.shape(0), mask.shape(1), klenv::kNumActions, "mask");
    rows(final_mask.shape(0), final_mask.shape(1), klenv::kNumActions, "final_mask");
    for (std::size_t len : {reward.shape(0), terminated.shape(0), truncated.shape(0), refusal.shape(0),
                            outcome.shape(0), cards_up.shape(0), recycles.shape(0), was_reset.shape(0)}) {
      if (len != n) throw nb::value_error("an output column has the wrong length");
    }
    return {obs.data(),      mask.data(),     reward.data(),   terminated.data(),
            truncated.data(), refusal.data(),  outcome.data(),  cards_up.data(),
            recycles.data(),  was_reset.data(), final_obs.data(), final_mask.data()};
  }
};

// A position as envs.klondike.game.KlondikeGame holds it, checked again here (the binding is public):
// every card once (the foundations' too), at most 6 face-down cards a column under a face-up run
// that fits, its last card face up, and at most 24 cards in the stock and the waste together, so
// that no move can ever take a column past kMaxColumn or the waste past kMaxTalon.
klenv::State klondike_state(const std::vector<std::vector<int>>& columns, const std::vector<int>& hidden,
                            const std::vector<int>& stock, const std::vector<int>& waste,
                            const std::array<int, 4>& foundations, const std::array<int, 4>& best,
                            std::uint64_t seen, int recycles, int draw_count) {
  if (columns.size() != 7 || hidden.size() != 7) throw nb::value_error("a position has 7 columns");
  if (stock.size() > 24 || waste.size() > 24) throw nb::value_error("the stock and the waste hold at most 24 cards");
  auto card = [](int c) {
    if (c < 0 || c >= 52) throw nb::value_error("cards are 0..51");
    return static_cast<std::uint8_t>(c);
  };
  klenv::State s;
  s.draw = static_cast<std::uint8_t>(draw_count);
  for (int c = 0; c < 7; ++c) {
    if (columns[c].size() > 19) throw nb::value_error("a column holds at most 19 cards");
    if (hidden[c] < 0 || hidden[c] > static_cast<int>(columns[c].size())) throw nb::value_error("bad face-down count");
    s.len[c] = static_cast<std::uint8_t>(columns[c].size());
    s.hidden[c] = static_cast<std::uint8_t>(hidden[c]);
    for (std::size_t i = 0; i < columns[c].size(); ++i) s.col[c][i] = card(columns[c][i]);
  }
  s.nstock = static_cast<std::uint8_t>(stock.size());
  for (std::size_t i = 0; i < stock.size(); ++i) s.stock[i] = card(stock[i]);
  s.nwaste = static_cast<std::uint8_t>(waste.size());
  for (std::size_t i = 0; i < waste.size(); ++i) s.waste[i] = card(waste[i]);
  for (int f = 0; f < 4; ++f) {
    if (foundations[f] < 0 || foundations[f] > 13 || best[f] < foundations[f] || best[f] > 13) {
      throw nb::value_error("foundation ranks are 0..13, at most their records");
    }
    s.fnd[f] = static_cast<std::uint8_t>(foundations[f]);
    s.best[f] = static_cast<std::uint8_t>(best[f]);
  }
  if (recycles < 0) throw nb::value_error("recycles cannot be negative");
  if (stock.size() + waste.size() > static_cast<std::size_t>(klenv::kMaxTalon)) {
    throw nb::value_error("at most 24 cards in the stock and the waste together");
  }
  auto fits = [](int card, int target) {  // envs.klondike.rules.fits
    const bool red_card = (card & 3) == 1 || (card & 3) == 2, red_target = (target & 3) == 1 || (target & 3) == 2;
    return (target >> 2) == (card >> 2) + 1 && red_card != red_target;
  };
  std::uint64_t placed = 0;
  auto place = [&placed](int c) {
    if ((placed >> c) & 1U) throw nb::value_error("a position holds every card once");
    placed |= std::uint64_t{1} << c;
  };
  for (int c = 0; c < 7; ++c) {
    const int n = static_cast<int>(columns[c].size());
    if (hidden[c] > klenv::kMaxColumn - 13) throw nb::value_error("a column holds at most 6 face-down cards");
    if (n > 0 && hidden[c] >= n) throw nb::value_error("a column has its last card face up");
    for (int i = hidden[c] + 1; i < n; ++i) {
      if (!fits(columns[c][i], columns[c][i - 1])) {
        throw nb::value_error("a face-up card cannot lie on the one below it");
      }
    }
    for (int x : columns[c]) place(x);
  }
  for (int x : stock) place(x);
  for (int x : waste) place(x);
  for (int f = 0; f < 4; ++f) {
    for (int r = 1; r <= foundations[f]; ++r) place((r - 1) << 2 | f);
  }
  if (placed != (std::uint64_t{1} << 52) - 1) throw nb::value_error("a position holds every card once");
  s.seen = seen;
  s.recycles = recycles;
  return s;
}

}  // namespace

static void bind_klondike_batch(nb::module_& m) {
  nb::class_<KlondikeBuffers>(m, "KlondikeBuffers")
      .def(nb::init<Rows<std::int64_t>, Rows<std::int8_t>, Column<double>, Column<bool>, Column<bool>,
                    Column<std::uint8_t>, Column<std::uint8_t>, Column<std::int32_t>, Column<std::int32_t>,
                    Column<bool>, Rows<std::int64_t>, Rows<std::int8_t>>(),
           "obs"_a, "mask"_a, "reward"_a, "terminated"_a, "truncated"_a, "refusal"_a, "outcome"_a, "cards_up"_a,
           "recycles"_a, "was_reset"_a, "final_obs"_a, "final_mask"_a);

  nb::class_<klenv::Batch>(m, "KlondikeBatch")
      .def("__init__",
           [](klenv::Batch* self, int num_envs, int draw_count, bool reward_shaping, int max_episode_steps,
              int num_threads) {
             if (draw_count != 1 && draw_count != 3) throw nb::value_error("draw_count must be 1 or 3");
             check_batch_arguments(num_envs, max_episode_steps, num_threads);
             new (self) klenv::Batch(num_envs, draw_count, reward_shaping, max_episode_steps, num_threads);
           },
           "num_envs"_a, "draw_count"_a, "reward_shaping"_a, "max_episode_steps"_a, "num_threads"_a = 1)
      .def_prop_ro("num_envs", &klenv::Batch::num_envs)
      .def(
          "reset_cards",
          [](klenv::Batch& b, int i, Column<const std::uint8_t> cards, const KlondikeBuffers& bufs) {
            const auto out = bufs.outputs(static_cast<std::size_t>(b.num_envs()));
            if (i < 0 || i >= b.num_envs()) throw nb::index_error("no such environment");
            check_deck(cards);
            b.reset_cards(i, cards.data(), out);
          },
          "index"_a, "cards"_a, "buffers"_a)
      .def(
          "reset_state",
          [](klenv::Batch& b, int i, const std::vector<std::vector<int>>& columns, const std::vector<int>& hidden,
             const std::vector<int>& stock, const std::vector<int>& waste, const std::array<int, 4>& foundations,
             const std::array<int, 4>& best, std::uint64_t seen, int recycles, int draw_count,
             const KlondikeBuffers& bufs) {
            const auto out = bufs.outputs(static_cast<std::size_t>(b.num_envs()));
            if (i < 0 || i >= b.num_envs()) throw nb::index_error("no such environment");
            if (draw_count != 1 && draw_count != 3) throw nb::value_error("draw_count must be 1 or 3");
            b.reset_state(i, klondike_state(columns, hidden, stock, waste, foundations, best, seen, recycles, draw_count),
                          out);
          },
          "index"_a, "columns"_a, "hidden"_a, "stock"_a, "waste"_a, "foundations"_a, "best"_a, "seen"_a,
          "recycles"_a, "draw_count"_a, "buffers"_a)
      .def(
          "reset_random",
          [](klenv::Batch& b, Column<const std::int64_t> indices, Column<const std::int64_t> numbers,
             const KlondikeBuffers& bufs) {
            const auto out = bufs.outputs(static_cast<std::size_t>(b.num_envs()));
            check_random_resets(indices, numbers, b.num_envs());
            nb::gil_scoped_release release;
            b.reset_random(indices.data(), numbers.data(), static_cast<int>(indices.shape(0)), out);
          },
          "indices"_a, "numbers"_a, "buffers"_a)
      .def(
          "step",
          [](klenv::Batch& b, Column<const std::int64_t> actions, Column<const std::int64_t> pending, int autoreset,
             const KlondikeBuffers& bufs) {
            const auto n = static_cast<std::size_t>(b.num_envs());
            const auto out = bufs.outputs(n);
            check_step(actions, pending, autoreset, n, klenv::kNumActions);
            nb::gil_scoped_release release;
            b.step(actions.data(), pending.data(), static_cast<klenv::Autoreset>(autoreset), out);
          },
          "actions"_a, "pending"_a, "autoreset"_a, "buffers"_a);
}
// ---- end of the native batched Klondike environments ----

// ---- Klondike policy inputs of a batch (native/src/klondike/policy_inputs.hpp) ----
namespace klin = solitaire::klondike::inputs;

// Runs `encode(row)` (an error code, 0 when the row was written) on rows 0..n-1 with the GIL
// released, stopping at the first row that could not be encoded; returns (row, error) of that
// row, or None. Both games' policy inputs below.
template <class Encode>
static nb::object encode_rows(std::size_t n, const Encode& encode) {
  std::size_t row = 0;
  int error = 0;
  {
    nb::gil_scoped_release release;
    for (; row < n; ++row) {
      error = encode(row);
      if (error != 0) break;
    }
  }
  if (error == 0) return nb::none();
  return nb::make_tuple(row, error);
}

// Encodes every row of `obs` (and `mask`) into `out`; returns (row, error) of the first row that
// could not be encoded (the rows before it are written), or None.
static nb::object klondike_policy_inputs(Rows<const std::int64_t> obs, std::optional<Rows<const std::int8_t>> mask,
                                         Rows<float> out) {
  const std::size_t n = obs.shape(0);
  const std::size_t width = mask ? klin::kActionsSize : klin::kCompactSize;
  if (obs.shape(1) != klenv::kObservationSize) throw nb::value_error("obs must have 190 values a row");
  if (mask && (mask->shape(0) != n || mask->shape(1) != klenv::kNumActions)) {
    throw nb::value_error("mask must have 590 values for each row of obs");
  }
  if (out.shape(0) != n || out.shape(1) != width) throw nb::value_error("out has the wrong shape");
  return encode_rows(n, [&](std::size_t row) {
    const std::int64_t* o = obs.data() + row * klenv::kObservationSize;
    float* dst = out.data() + row * width;
    return static_cast<int>(mask ? klin::actions(o, mask->data() + row * klenv::kNumActions, dst)
                                 : klin::compact(o, dst));
  });
}
// ---- end of the Klondike policy inputs ----

// ---- Pyramid policy inputs of a batch (native/src/pyramid/policy_inputs.hpp) ----
namespace pyin = solitaire::pyramid::inputs;

// Encodes every row of `obs` and `mask` into `out` (`relaxed`: pyramid-actions-relaxed); returns
// (row, error) of the first row that could not be encoded (the rows before it are written), or None.
static nb::object pyramid_policy_inputs(Rows<const float> obs, Rows<const std::int8_t> mask, bool relaxed,
                                        Rows<float> out) {
  const std::size_t n = obs.shape(0);
  const std::size_t width = relaxed ? pyin::kRelaxedSize : pyin::kActionsSize;
  if (obs.shape(1) != pyin::kObservationSize) throw nb::value_error("obs must have 883 values a row");
  if (mask.shape(0) != n || mask.shape(1) != pyin::kNumActions) {
    throw nb::value_error("mask must have 467 values for each row of obs");
  }
  if (out.shape(0) != n || out.shape(1) != width) throw nb::value_error("out has the wrong shape");
  return encode_rows(n, [&](std::size_t row) {
    return static_cast<int>(pyin::actions(obs.data() + row * pyin::kObservationSize,
                                          mask.data() + row * pyin::kNumActions, relaxed, out.data() + row * width));
  });
}
// ---- end of the Pyramid policy inputs ----

NB_MODULE(solitaire_native, m) {
  m.doc() = "Native core of solitaire-rl: the exact Pyramid and Klondike solvers (see agents.solver).";
  m.attr("DEFAULT_MAX_MEMORY_BYTES") = solitaire::kDefaultMaxMemoryBytes;
  m.attr("MIN_MAX_MEMORY_BYTES") = solitaire::kMinMaxMemoryBytes;

  nb::enum_<Status>(m, "Status")
      .value("winnable", Status::winnable)
      .value("not_winnable", Status::not_winnable)
      .value("unknown", Status::unknown);
  nb::enum_<StopReason>(m, "StopReason")
      .value("none", StopReason::none)
      .value("time", StopReason::time)
      .value("states", StopReason::states)
      .value("memory", StopReason::memory)
      .value("cancelled", StopReason::cancelled);
  nb::enum_<pyr::PruneRule>(m, "PyramidPruneRule")
      .value("none", pyr::PruneRule::none)
      .value("rank_count", pyr::PruneRule::rank_count)
      .value("buried_partner", pyr::PruneRule::buried_partner)
      .value("partner_matching", pyr::PruneRule::partner_matching)
      .value("relaxation", pyr::PruneRule::relaxation);

  // The codes the native side writes into Python's arrays and tuples, by name: the Python side maps
  // them by name (envs.native_batch.codes_by_name; tests/test_native_enums.py holds the names to
  // the Python engines').
  nb::enum_<kl::ActionKind>(m, "KlondikeActionKind")
      .value("draw", kl::ActionKind::draw)
      .value("recycle", kl::ActionKind::recycle)
      .value("waste_to_foundation", kl::ActionKind::waste_to_foundation)
      .value("waste_to_column", kl::ActionKind::waste_to_column)
      .value("column_to_foundation", kl::ActionKind::column_to_foundation)
      .value("column_to_column", kl::ActionKind::column_to_column)
      .value("foundation_to_column", kl::ActionKind::foundation_to_column);
  nb::enum_<pyr::MoveKind>(m, "PyramidMoveKind")
      .value("remove", pyr::MoveKind::remove)
      .value("draw", pyr::MoveKind::draw)
      .value("recycle", pyr::MoveKind::recycle);
  nb::enum_<klenv::Refusal>(m, "KlondikeRefusal")
      .value("none", klenv::Refusal::none)
      .value("nothing_to_draw", klenv::Refusal::nothing_to_draw)
      .value("stock_empty", klenv::Refusal::stock_empty)
      .value("stock_not_empty", klenv::Refusal::stock_not_empty)
      .value("waste_empty", klenv::Refusal::waste_empty)
      .value("no_card", klenv::Refusal::no_card)
      .value("face_down", klenv::Refusal::face_down)
      .value("same_column", klenv::Refusal::same_column)
      .value("build_down", klenv::Refusal::build_down)
      .value("king_only", klenv::Refusal::king_only)
      .value("foundation_order", klenv::Refusal::foundation_order)
      .value("game_won", klenv::Refusal::game_won)
      .value("not_legal_now", klenv::Refusal::not_legal_now);
  nb::enum_<klenv::Outcome>(m, "KlondikeOutcome")
      .value("none", klenv::Outcome::none)
      .value("win", klenv::Outcome::win)
      .value("no_progress", klenv::Outcome::no_progress)
      .value("dead_end", klenv::Outcome::dead_end);
  nb::enum_<pyrenv::Refusal>(m, "PyramidRefusal")
      .value("none", pyrenv::Refusal::none)
      .value("game_won", pyrenv::Refusal::game_won)
      .value("nothing_to_draw", pyrenv::Refusal::nothing_to_draw)
      .value("stock_not_empty", pyrenv::Refusal::stock_not_empty)
      .value("no_recycles_left", pyrenv::Refusal::no_recycles_left)
      .value("waste_empty", pyrenv::Refusal::waste_empty)
      .value("no_card", pyrenv::Refusal::no_card)
      .value("stock_top_unusable", pyrenv::Refusal::stock_top_unusable)
      .value("covered", pyrenv::Refusal::covered)
      .value("needs_partner", pyrenv::Refusal::needs_partner)
      .value("not_thirteen", pyrenv::Refusal::not_thirteen);
  nb::enum_<pyrenv::Outcome>(m, "PyramidOutcome")
      .value("none", pyrenv::Outcome::none)
      .value("win", pyrenv::Outcome::win)
      .value("dead_end", pyrenv::Outcome::dead_end);

  nb::class_<CancelToken>(m, "CancelToken")
      .def(nb::init<>())
      .def("cancel", &CancelToken::cancel)
      .def("reset", &CancelToken::reset)
      .def_prop_ro("cancelled", &CancelToken::is_cancelled);

  nb::class_<Limits>(m, "Limits")
      .def(nb::init<>())
      .def_rw("time_limit_s", &Limits::time_limit_s)
      .def_rw("max_states", &Limits::max_states)
      .def_rw("max_memory_bytes", &Limits::max_memory_bytes);

  bind_planner_options(m);

  nb::class_<solitaire::SampleTally>(m, "SampleTally")
      .def_ro("won", &solitaire::SampleTally::won)
      .def_ro("lost", &solitaire::SampleTally::lost)
      .def_ro("unknown", &solitaire::SampleTally::unknown)
      .def_ro("first", &solitaire::SampleTally::first)
      .def_ro("samples", &solitaire::SampleTally::samples)
      .def_ro("states", &solitaire::SampleTally::states)
      .def_ro("seconds", &solitaire::SampleTally::seconds)
      .def_ro("stop_reason", &solitaire::SampleTally::stop_reason);

  nb::class_<kl::HopResult>(m, "KlondikeHopResult")
      .def_ro("tally", &kl::HopResult::tally)
      .def_prop_ro("lines", [](const kl::HopResult& r) {
        std::vector<std::vector<ActionTuple>> lines;
        for (const auto& line : r.lines) lines.push_back(to_tuples(line));
        return lines;
      });

  nb::class_<pyr::Position>(m, "PyramidPosition")
      .def(nb::init<>())
      .def_rw("rows", &pyr::Position::rows)
      .def_rw("pyramid", &pyr::Position::pyramid)
      .def_rw("removed", &pyr::Position::removed)
      .def_rw("stock", &pyr::Position::stock)
      .def_rw("waste_count", &pyr::Position::waste_count)
      .def_rw("pass_number", &pyr::Position::pass_number)
      .def_rw("max_passes", &pyr::Position::max_passes)
      .def_rw("stock_top_playable", &pyr::Position::stock_top_playable);

  nb::class_<pyr::SearchResult>(m, "PyramidResult")
      .def_ro("status", &pyr::SearchResult::status)
      .def_ro("stop_reason", &pyr::SearchResult::stop_reason)
      .def_prop_ro("line", [](const pyr::SearchResult& r) { return to_tuples(r.line); })
      .def_ro("states", &pyr::SearchResult::states)
      .def_ro("seconds", &pyr::SearchResult::seconds)
      .def_ro("tt_entries", &pyr::SearchResult::tt_entries)
      .def_ro("tt_bytes", &pyr::SearchResult::tt_bytes);

  m.def(
      "pyramid_solve",
      [](const pyr::Position& position, const Limits& limits, const CancelToken* cancel) {
        const pyr::Position own = position;  // copied while the GIL is held
        const Limits own_limits = limits;
        nb::gil_scoped_release release;
        return pyr::solve(own, own_limits, cancel);
      },
      "position"_a, "limits"_a, "cancel"_a.none() = nb::none());

  m.def(
      "pyramid_pimc",
      [](const pyr::Position& position, const std::vector<int>& unknown, const std::vector<MoveTuple>& candidates,
         const pyr::PimcOptions& options, const CancelToken* cancel) {
        pyr::PimcOptions own_options = options;
        own_options.budget.cancel = cancel;
        std::vector<pyr::Move> moves;
        for (const auto& [kind, a, b] : candidates) {
          if (kind == static_cast<int>(pyr::MoveKind::remove)) {
            moves.push_back(pyr::Move::remove(a, b));
          } else {
            moves.push_back(pyr::Move{static_cast<pyr::MoveKind>(kind), -1, -1});
          }
        }
        const pyr::Position own = position;
        nb::gil_scoped_release release;
        return pyr::pimc_evaluate(own, unknown, moves, own_options);
      },
      "position"_a, "unknown"_a, "candidates"_a, "options"_a, "cancel"_a.none() = nb::none());

  m.def(
      "pyramid_legal_moves",
      [](const pyr::Position& position) { return to_tuples(pyr::legal_moves(position)); },
      "position"_a);
  m.def("pyramid_prune_rule", &pyr::prune_rule, "position"_a);
  m.def(
      "pyramid_forced_moves",
      [](const pyr::Position& position) { return to_tuples(pyr::forced_moves(position)); },
      "position"_a);

  // Klondike (native/src/klondike/solver.hpp).
  nb::class_<kl::Position>(m, "KlondikePosition")
      .def("__init__",
           [](kl::Position* self, const std::vector<std::vector<int>>& face_down,
              const std::vector<std::vector<int>>& face_up, const std::vector<int>& stock,
              const std::vector<int>& waste, const std::array<int, 4>& foundation, int max_rank) {
             new (self) kl::Position(make_klondike_position(face_down, face_up, stock, waste, foundation, max_rank));
           },
           "face_down"_a, "face_up"_a, "stock"_a, "waste"_a, "foundation"_a, "max_rank"_a);

  nb::class_<kl::SolveOptions>(m, "KlondikeOptions")
      .def(nb::init<>())
      .def_rw("draw_count", &kl::SolveOptions::draw_count)
      .def_rw("safe_foundation_moves", &kl::SolveOptions::safe_foundation_moves)
      .def_rw("partial_run_rule", &kl::SolveOptions::partial_run_rule)
      .def_rw("canonical_lifts", &kl::SolveOptions::canonical_lifts)
      .def_rw("dead_end_check", &kl::SolveOptions::dead_end_check)
      .def_rw("dead_end_in_search", &kl::SolveOptions::dead_end_in_search)
      .def_rw("order_seed", &kl::SolveOptions::order_seed)
      .def_rw("restarts", &kl::SolveOptions::restarts);

  nb::class_<kl::SolveResult>(m, "KlondikeResult")
      .def_ro("status", &kl::SolveResult::status)
      .def_ro("stop_reason", &kl::SolveResult::stop_reason)
      .def_prop_ro("line", [](const kl::SolveResult& r) { return to_tuples(r.line); })
      .def_ro("states", &kl::SolveResult::states)
      .def_ro("seconds", &kl::SolveResult::seconds)
      .def_ro("tt_entries", &kl::SolveResult::tt_entries)
      .def_ro("tt_bytes", &kl::SolveResult::tt_bytes)
      .def_ro("restarts", &kl::SolveResult::restarts)
      .def_ro("tt_saturated", &kl::SolveResult::tt_saturated);

  m.def("klondike_validate", &kl::validate, "position"_a);
  m.def(
      "klondike_solve",
      [](const kl::Position& position, const kl::SolveOptions& options, const Limits& limits,
         const CancelToken* cancel) {
        const kl::Position own = position;  // copied while the GIL is held
        kl::SolveBudget budget;
        budget.time_limit_s = limits.time_limit_s;
        budget.max_states = limits.max_states;
        budget.max_memory_bytes = limits.max_memory_bytes;
        budget.cancel = cancel;
        const kl::SolveOptions own_options = options;
        nb::gil_scoped_release release;
        return kl::solve(own, own_options, budget);
      },
      "position"_a, "options"_a, "limits"_a, "cancel"_a.none() = nb::none());
  m.def(
      "klondike_generated_moves",
      [](const kl::Position& position, int draw_count, std::uint64_t order_seed, bool dominances) {
        std::vector<std::vector<ActionTuple>> out;
        for (const auto& move : kl::generated_moves(position, klondike_options(draw_count, order_seed, dominances))) {
          out.push_back(to_tuples(move));
        }
        return out;
      },
      "position"_a, "draw_count"_a, "order_seed"_a = 0, "dominances"_a = true);
  m.def(
      "klondike_forced_move",
      [](const kl::Position& position, int draw_count) {
        return to_tuples(kl::forced_move(position, klondike_options(draw_count, 0, true)));
      },
      "position"_a, "draw_count"_a);
  m.def(
      "klondike_legal_actions",
      [](const kl::Position& position, int draw_count) { return to_tuples(kl::legal_actions(position, draw_count)); },
      "position"_a, "draw_count"_a);
  m.def(
      "klondike_hop",
      [](const kl::Position& position, const std::vector<std::tuple<int, int>>& unknown,
         const std::vector<ActionTuple>& candidates, const kl::HopOptions& options, const CancelToken* cancel) {
        kl::HopOptions own_options = options;
        own_options.budget.cancel = cancel;
        const std::vector<kl::UnknownSlot> slots = unknown_slots(unknown);
        const std::vector<kl::Action> moves = candidate_actions(candidates);
        const kl::Position own = position;
        nb::gil_scoped_release release;
        return kl::hop_evaluate(own, slots, moves, own_options);
      },
      "position"_a, "unknown"_a, "candidates"_a, "options"_a, "cancel"_a.none() = nb::none());
  nb::class_<kl::IsmctsResult>(m, "KlondikeIsmctsResult")
      .def_ro("visits", &kl::IsmctsResult::visits)
      .def_ro("value_sum", &kl::IsmctsResult::value_sum)
      .def_ro("iterations", &kl::IsmctsResult::iterations)
      .def_ro("states", &kl::IsmctsResult::states)
      .def_ro("nodes", &kl::IsmctsResult::nodes)
      .def_ro("seconds", &kl::IsmctsResult::seconds)
      .def_ro("stop_reason", &kl::IsmctsResult::stop_reason);
  m.def(
      "klondike_ismcts",
      [](const kl::Position& position, const std::vector<std::tuple<int, int>>& unknown,
         const std::vector<ActionTuple>& candidates, const kl::IsmctsOptions& options, const CancelToken* cancel) {
        kl::IsmctsOptions own_options = options;
        own_options.cancel = cancel;
        const std::vector<kl::UnknownSlot> slots = unknown_slots(unknown);
        const std::vector<kl::Action> moves = candidate_actions(candidates);
        const kl::Position own = position;
        nb::gil_scoped_release release;
        return kl::ismcts_evaluate(own, slots, moves, own_options);
      },
      "position"_a, "unknown"_a, "candidates"_a, "options"_a, "cancel"_a.none() = nb::none());
  m.def("klondike_proved_lost_without_search", &kl::proved_lost_without_search, "position"_a, "draw_count"_a);

  // Native batched environments (envs.pyramid.vector).
  bind_pyramid_batch(m);
  bind_klondike_batch(m);
  m.def("klondike_policy_inputs", &klondike_policy_inputs, "obs"_a, "mask"_a.none(), "out"_a);
  m.def("pyramid_policy_inputs", &pyramid_policy_inputs, "obs"_a, "mask"_a, "relaxed"_a, "out"_a);
}
