// Both games' native batched environments (native/src/pyramid/batch.hpp,
// native/src/klondike/batch.hpp; solitaire_rl/envs/pyramid/vector.py, solitaire_rl/envs/klondike/vector.py): the codes of
// their refusals and outcomes, the arrays of one step, the batches, and the random deals they use.
#include "bindings.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "common/random_deal.hpp"
#include "klondike/batch.hpp"
#include "pyramid/batch.hpp"

namespace solitaire::bindings {

using namespace nb::literals;
namespace pyrenv = solitaire::pyramid::env;
namespace klenv = solitaire::klondike::env;

namespace {

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

// The arrays of one call of either game's batch as Python hands them over, each by name
// (common/step_buffer.hpp; `Out` is the game's Outputs): obs and final_obs n x ObsWidth, mask and
// final_mask n x NumActions, every column n long, checked against the batch's size before any game
// changes. The game's counters come in a dict keyed by its kCounterNames.
template <class Out, std::size_t ObsWidth, std::size_t NumActions>
struct Buffers {
  using Obs = typename Out::ObsType;

  Rows<Obs> obs;
  Rows<std::int8_t> mask;
  Column<double> reward;
  Column<bool> terminated;
  Column<bool> truncated;
  Column<std::uint8_t> refusal;
  Column<std::uint8_t> outcome;
  Column<bool> was_reset;
  Rows<Obs> final_obs;
  Rows<std::int8_t> final_mask;
  std::array<Column<std::int32_t>, Out::kNumCounters> counters;
  std::array<const char*, Out::kNumCounters> counter_names;

  Out outputs(std::size_t n) const {
    auto rows = [n](std::size_t r, std::size_t width, std::size_t want, const char* name) {
      if (r != n || width != want) throw nb::value_error((std::string(name) + " has the wrong shape").c_str());
    };
    rows(obs.shape(0), obs.shape(1), ObsWidth, "obs");
    rows(final_obs.shape(0), final_obs.shape(1), ObsWidth, "final_obs");
    rows(mask.shape(0), mask.shape(1), NumActions, "mask");
    rows(final_mask.shape(0), final_mask.shape(1), NumActions, "final_mask");
    auto column = [n](std::size_t len, const char* name) {
      if (len != n) throw nb::value_error((std::string(name) + " has the wrong length").c_str());
    };
    column(reward.shape(0), "reward");
    column(terminated.shape(0), "terminated");
    column(truncated.shape(0), "truncated");
    column(refusal.shape(0), "refusal");
    column(outcome.shape(0), "outcome");
    column(was_reset.shape(0), "was_reset");
    Out out;
    for (std::size_t k = 0; k < Out::kNumCounters; ++k) {
      column(counters[k].shape(0), counter_names[k]);
      out.counters[k] = counters[k].data();
    }
    out.obs = obs.data();
    out.mask = mask.data();
    out.reward = reward.data();
    out.terminated = terminated.data();
    out.truncated = truncated.data();
    out.refusal = refusal.data();
    out.outcome = outcome.data();
    out.was_reset = was_reset.data();
    out.final_obs = final_obs.data();
    out.final_mask = final_mask.data();
    return out;
  }
};

using PyramidBuffers = Buffers<pyrenv::Outputs, pyrenv::kObservationSize, pyrenv::kNumActions>;
using KlondikeBuffers = Buffers<klenv::Outputs, klenv::kObservationSize, klenv::kNumActions>;

// Binds a game's Buffers as `name`: made by keyword (obs=..., counters={name: column}), the counters'
// names in the class attribute `counter_names` (the Python batch allocates one int32 column for each).
template <class B, std::size_t N>
void bind_buffers(nb::module_& m, const char* name, const std::array<const char*, N>& names) {
  using Obs = typename B::Obs;
  nb::class_<B> cls(m, name);
  cls.def(
      "__init__",
      [names](B* self, Rows<Obs> obs, Rows<std::int8_t> mask, Column<double> reward, Column<bool> terminated,
              Column<bool> truncated, Column<std::uint8_t> refusal, Column<std::uint8_t> outcome,
              Column<bool> was_reset, Rows<Obs> final_obs, Rows<std::int8_t> final_mask, nb::dict counters) {
        std::array<Column<std::int32_t>, N> columns;
        for (std::size_t k = 0; k < N; ++k) {
          if (!counters.contains(names[k])) {
            throw nb::value_error((std::string("counters has no ") + names[k]).c_str());
          }
          if (!nb::try_cast(counters[names[k]], columns[k], /*convert=*/false)) {
            throw nb::value_error((std::string("counter ") + names[k] + " is not a C-contiguous int32 column").c_str());
          }
        }
        if (counters.size() != N) throw nb::value_error("counters names a counter this game does not keep");
        new (self) B{obs, mask, reward, terminated, truncated, refusal, outcome, was_reset, final_obs, final_mask,
                     columns, names};
      },
      // no conversion: a converted copy would take the writes meant for the caller's array
      nb::kw_only(), "obs"_a.noconvert(), "mask"_a.noconvert(), "reward"_a.noconvert(), "terminated"_a.noconvert(),
      "truncated"_a.noconvert(), "refusal"_a.noconvert(), "outcome"_a.noconvert(), "was_reset"_a.noconvert(),
      "final_obs"_a.noconvert(), "final_mask"_a.noconvert(), "counters"_a);
  nb::list counter_names;
  for (const char* n : names) counter_names.append(nb::str(n));
  cls.attr("counter_names") = nb::tuple(counter_names);
}

// A position as solitaire_rl.envs.klondike.game.KlondikeGame holds it, checked again here (the binding is public):
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
  auto fits = [](int card, int target) {  // solitaire_rl.envs.klondike.rules.fits
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

// One Pyramid game's saved state as Python sees it (solitaire_rl.envs.pyramid.vector.PyramidBatch.get_state), and
// back, checked: ranks 1..13, each four times; bit sets within their 28 or 24 places; a cursor within
// the stock slots; a pass 1..3; a step count not negative.
nb::dict pyramid_saved_dict(const pyrenv::Saved& saved) {
  nb::dict d;
  d["pyramid_ranks"] = std::vector<int>(saved.game.pyramid_rank.begin(), saved.game.pyramid_rank.end());
  d["stock_ranks"] = std::vector<int>(saved.game.stock_rank.begin(), saved.game.stock_rank.end());
  d["removed"] = saved.game.removed;
  d["present"] = saved.game.present;
  d["seen"] = saved.game.seen;
  d["cursor"] = static_cast<int>(saved.game.cursor);
  d["pass_number"] = static_cast<int>(saved.game.pass);
  d["elapsed"] = saved.elapsed;
  d["needs_reset"] = saved.needs_reset;
  return d;
}

pyrenv::Saved pyramid_saved(const std::vector<int>& pyramid_ranks, const std::vector<int>& stock_ranks,
                            std::uint32_t removed, std::uint32_t present, std::uint32_t seen, int cursor,
                            int pass_number, int elapsed, bool needs_reset) {
  if (pyramid_ranks.size() != 28 || stock_ranks.size() != 24) {
    throw nb::value_error("a Pyramid state has 28 pyramid ranks and 24 stock ranks");
  }
  std::array<int, 14> count{};
  pyrenv::Saved saved;
  for (std::size_t k = 0; k < 52; ++k) {
    const int r = k < 28 ? pyramid_ranks[k] : stock_ranks[k - 28];
    if (r < 1 || r > 13) throw nb::value_error("ranks are 1..13");
    ++count[r];
    (k < 28 ? saved.game.pyramid_rank[k] : saved.game.stock_rank[k - 28]) = static_cast<std::uint8_t>(r);
  }
  for (int r = 1; r <= 13; ++r) {
    if (count[r] != 4) throw nb::value_error("a deal holds each rank four times");
  }
  if (removed >> 28 != 0) throw nb::value_error("removed is a set of the 28 pyramid positions");
  if (present >> 24 != 0 || seen >> 24 != 0) throw nb::value_error("present and seen are sets of the 24 stock slots");
  if (cursor < 0 || cursor > 24) throw nb::value_error("the cursor is 0..24");
  if (pass_number < 1 || pass_number > pyrenv::kMaxPassesPlayed) throw nb::value_error("the pass is 1..3");
  if (elapsed < 0) throw nb::value_error("elapsed steps cannot be negative");
  saved.game.removed = removed;
  saved.game.present = present;
  saved.game.seen = seen;
  saved.game.cursor = static_cast<std::uint8_t>(cursor);
  saved.game.pass = static_cast<std::uint8_t>(pass_number);
  saved.elapsed = elapsed;
  saved.needs_reset = needs_reset;
  return saved;
}

// One Klondike game's saved state as Python sees it (solitaire_rl.envs.klondike.vector.KlondikeBatch.get_state): the
// arguments of reset_state, plus the batch's counters; set_state checks the position as reset_state does.
nb::dict klondike_saved_dict(const klenv::Saved& saved) {
  const klenv::State& s = saved.state;
  std::vector<std::vector<int>> columns(klenv::kColumns);
  std::vector<int> hidden(klenv::kColumns);
  for (int c = 0; c < klenv::kColumns; ++c) {
    columns[c].assign(s.col[c].begin(), s.col[c].begin() + s.len[c]);
    hidden[c] = s.hidden[c];
  }
  nb::dict d;
  d["columns"] = columns;
  d["hidden"] = hidden;
  d["stock"] = std::vector<int>(s.stock.begin(), s.stock.begin() + s.nstock);
  d["waste"] = std::vector<int>(s.waste.begin(), s.waste.begin() + s.nwaste);
  d["foundations"] = std::vector<int>(s.fnd.begin(), s.fnd.end());
  d["best"] = std::vector<int>(s.best.begin(), s.best.end());
  d["seen"] = s.seen;
  d["recycles"] = s.recycles;
  d["draw_count"] = static_cast<int>(s.draw);
  d["elapsed"] = saved.elapsed;
  d["ended"] = saved.ended;
  d["needs_reset"] = saved.needs_reset;
  return d;
}

void bind_pyramid_batch(nb::module_& m) {
  bind_buffers<PyramidBuffers>(m, "PyramidBuffers", pyrenv::kCounterNames);

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
          "actions"_a, "pending"_a, "autoreset"_a, "buffers"_a)
      .def(
          "get_state",
          [](const pyrenv::Batch& b, int i) {
            if (i < 0 || i >= b.num_envs()) throw nb::index_error("no such environment");
            return pyramid_saved_dict(b.saved(i));
          },
          "index"_a)
      .def(
          "set_state",
          [](pyrenv::Batch& b, int i, const std::vector<int>& pyramid_ranks, const std::vector<int>& stock_ranks,
             std::uint32_t removed, std::uint32_t present, std::uint32_t seen, int cursor, int pass_number,
             int elapsed, bool needs_reset, const PyramidBuffers& bufs) {
            const auto out = bufs.outputs(static_cast<std::size_t>(b.num_envs()));
            if (i < 0 || i >= b.num_envs()) throw nb::index_error("no such environment");
            b.restore(i, pyramid_saved(pyramid_ranks, stock_ranks, removed, present, seen, cursor, pass_number,
                                       elapsed, needs_reset),
                      out);
          },
          "index"_a, "pyramid_ranks"_a, "stock_ranks"_a, "removed"_a, "present"_a, "seen"_a, "cursor"_a,
          "pass_number"_a, "elapsed"_a, "needs_reset"_a, "buffers"_a);

  m.def(
      "random_deal",
      [](const std::string& game, std::uint64_t number) {
        const auto cards = solitaire::random_deal(game, number);
        return std::vector<int>(cards.begin(), cards.end());
      },
      "game"_a, "number"_a);
}

void bind_klondike_batch(nb::module_& m) {
  bind_buffers<KlondikeBuffers>(m, "KlondikeBuffers", klenv::kCounterNames);

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
          "actions"_a, "pending"_a, "autoreset"_a, "buffers"_a)
      .def(
          "get_state",
          [](const klenv::Batch& b, int i) {
            if (i < 0 || i >= b.num_envs()) throw nb::index_error("no such environment");
            return klondike_saved_dict(b.saved(i));
          },
          "index"_a)
      .def(
          "set_state",
          [](klenv::Batch& b, int i, const std::vector<std::vector<int>>& columns, const std::vector<int>& hidden,
             const std::vector<int>& stock, const std::vector<int>& waste, const std::array<int, 4>& foundations,
             const std::array<int, 4>& best, std::uint64_t seen, int recycles, int draw_count, int elapsed, bool ended,
             bool needs_reset, const KlondikeBuffers& bufs) {
            const auto out = bufs.outputs(static_cast<std::size_t>(b.num_envs()));
            if (i < 0 || i >= b.num_envs()) throw nb::index_error("no such environment");
            if (draw_count != 1 && draw_count != 3) throw nb::value_error("draw_count must be 1 or 3");
            if (elapsed < 0) throw nb::value_error("elapsed steps cannot be negative");
            klenv::Saved saved;
            saved.state = klondike_state(columns, hidden, stock, waste, foundations, best, seen, recycles, draw_count);
            saved.elapsed = elapsed;
            saved.ended = ended;
            saved.needs_reset = needs_reset;
            b.restore(i, saved, out);
          },
          "index"_a, "columns"_a, "hidden"_a, "stock"_a, "waste"_a, "foundations"_a, "best"_a, "seen"_a,
          "recycles"_a, "draw_count"_a, "elapsed"_a, "ended"_a, "needs_reset"_a, "buffers"_a);
}

}  // namespace

void bind_batch_envs(nb::module_& m) {
  // The codes the native side writes into Python's arrays and tuples, by name: the Python side maps
  // them by name (solitaire_rl.envs.native_batch.codes_by_name; tests/test_native_enums.py holds the names to
  // the Python engines'). KlondikeActionKind and PyramidMoveKind, bound with their solvers, too.
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

  bind_pyramid_batch(m);
  bind_klondike_batch(m);
}

}  // namespace solitaire::bindings
