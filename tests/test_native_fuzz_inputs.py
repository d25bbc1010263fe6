"""Fuzzing the native entry points beyond positions (issue #39): the batch environments' constructors,
given positions, steps and buffers; the policy-input encoders; Pyramid positions; deal codes and
Solvitaire JSON. Every call gives the right answer or a clear Python exception, never a crash or a
write past an array. ``benchmarks/fuzz_native.py`` runs these harnesses long; ``benchmarks/sanitize.sh``
runs this file on the ASan/UBSan build. Each bug found has its regression test here, before the fuzzing."""

from __future__ import annotations

import os
from typing import Any

import gymnasium
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solitaire_rl  # noqa: F401  (registers the environments)
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike.game import KlondikeGame
from solitaire_rl.envs.klondike.rules import fits
from solitaire_rl.envs.klondike.vector import KlondikeBatch

solitaire_native = pytest.importorskip("solitaire_native")

from tests.native_fuzz_targets import (  # noqa: E402
    klondike_batch,
    klondike_state_valid,
    pyramid_batch,
)

EXAMPLES = int(os.environ.get("SOLITAIRE_FUZZ_EXAMPLES", "120"))
"""Examples per harness: the suite's few, or benchmarks/fuzz_native.py's many."""
FAST = settings(max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))
CLEAR = (ValueError, IndexError, TypeError, OverflowError)
"""The exceptions bad input may raise (a RuntimeError, MemoryError or crash is a finding)."""


def card(rank: int, suit: str) -> int:
    return (rank - 1) << 2 | "CDHS".index(suit)


def overfull_column_position() -> KlondikeGame:
    """Column 1 holds 12 face-down cards under a King, column 2 a Queen..Ace run that fits on it: a
    position the rules accept but no deal reaches (a column starts with at most 6 face-down cards),
    and the move c2:12>c1 would make a column of 25 cards, past the 19 the native state holds."""
    run = [card(r, "H" if r % 2 == 0 else "S") for r in range(12, 0, -1)]
    used = set(run) | {card(13, "S")}
    rest = [c for c in range(52) if c not in used]
    columns = [[*rest[:12], card(13, "S")], run, rest[12:15], [], [], [], []]
    return KlondikeGame.from_position(columns, [12, 0, 2, 0, 0, 0, 0], stock=rest[15:], waste=[])


# ------------------------------------------------------------------------------ regressions first
def test_an_overfull_column_position_is_refused_by_every_env_before_it_is_played() -> None:
    """Found by this harness: the native batch took the position (it checked each column's length
    only), and the 12-card move wrote 6 cards past column 1's array; the Python env applied the move
    and only then failed to observe it. Now both refuse the position at reset, and change nothing."""
    game = overfull_column_position()
    single = gymnasium.make("Solitaire/Klondike-v0", split="any")  # a position names no deal number
    single.reset(seed=1)
    before = single.unwrapped.game.copy()
    with pytest.raises(
        MalformedInputError, match="column 1 has 12 face-down cards; a Klondike column has at most 6"
    ):
        single.reset(options={"game": game})
    assert single.unwrapped.game.columns == before.columns
    vector = gymnasium.make_vec("Solitaire/Klondike-v0", num_envs=2, split="any")
    obs, _ = vector.reset(seed=1)
    with pytest.raises(MalformedInputError, match="at most 6"):
        vector.reset(options={"game": game})
    np.testing.assert_array_equal(vector.unwrapped.batch.obs, obs)


def _state(game: KlondikeGame) -> tuple:
    return (
        game.columns,
        game.hidden,
        game.stock,
        game.waste,
        game.foundations,
        game.best,
        game.seen,
        game.recycles,
        game.draw_count,
    )


def test_the_native_reset_state_refuses_what_no_deal_reaches() -> None:
    """The binding is public, so it checks what it takes itself (regressions of the same finding):
    at most 6 face-down cards a column, a face-up run that fits, its last card face up, 24 cards
    in the stock and waste together, and every card once."""
    batch = KlondikeBatch(1)

    def reset(columns: list, hidden: list, stock: list, waste: list) -> None:
        batch.core.reset_state(0, columns, hidden, stock, waste, [0] * 4, [0] * 4, 0, 0, 3, batch.buffers)

    over = overfull_column_position()
    with pytest.raises(ValueError, match="at most 6 face-down"):
        reset(over.columns, over.hidden, over.stock, over.waste)
    deal = KlondikeGame("klondike-random-v1-5")
    columns, hidden, stock = [list(c) for c in deal.columns], list(deal.hidden), list(deal.stock)
    reset(columns, hidden, stock, [])  # the deal itself is taken
    top = columns[6].pop()
    with pytest.raises(ValueError, match="24 cards in the stock and the waste together"):
        reset(columns, [*hidden[:6], 5], stock, [top])
    with pytest.raises(ValueError, match="its last card face up"):
        reset(columns, hidden, stock[1:], [top])
    columns[6].append(top)
    twice = [list(c) for c in columns]
    twice[6][-1] = twice[5][-1]
    with pytest.raises(ValueError, match="every card once"):
        reset(twice, hidden, stock, [])
    face_up_pair = [list(c) for c in columns]  # column 2's face-down card turned up: the deal's two
    assert not fits(face_up_pair[1][1], face_up_pair[1][0])  # cards do not make a run
    with pytest.raises(ValueError, match="cannot lie on the one below"):
        reset(face_up_pair, [0, 0, *hidden[2:]], stock, [])


def test_the_pyramid_batch_refuses_bad_constructor_arguments_as_klondikes_does() -> None:
    """Found by this harness: PyramidBatch took 0 or negative environments, a negative step limit and
    any thread count without a word (KlondikeBatch refused the first two)."""
    for Batch, game_arg in ((solitaire_native.PyramidBatch, True), (solitaire_native.KlondikeBatch, 3)):
        for num_envs in (0, -1, -(2**31)):
            with pytest.raises(ValueError, match="num_envs must be positive"):
                Batch(num_envs, game_arg, False, 0, 1)
        with pytest.raises(ValueError, match="num_envs must be at most"):
            Batch(2**31 - 1, game_arg, False, 0, 1)
        with pytest.raises(ValueError, match="max_episode_steps"):
            Batch(2, game_arg, False, -5, 1)
        for threads in (0, -3, 100_000):
            with pytest.raises(ValueError, match=r"num_threads must be 1\.\.256"):
                Batch(2, game_arg, False, 0, threads)
        assert Batch(2, game_arg, False, 0, 2).num_envs == 2


# ---------------------------------------------------------------------------- the batch envs fuzzed
int64s = st.integers(-(2**63), 2**63 - 1)


@FAST
@given(
    st.lists(st.one_of(st.integers(-3, 600), int64s), min_size=0, max_size=5),
    st.lists(st.one_of(st.integers(-3, 10**6), int64s), min_size=0, max_size=5),
    st.integers(-3, 5),
)
def test_batch_steps_take_legal_arrays_and_refuse_the_rest(
    actions: list, pending: list, autoreset: int
) -> None:
    """Both batches: actions and deal numbers of any length and value, and any autoreset code; a step
    of the right shape and range plays, anything else is a ValueError and changes nothing."""
    for batch, num_actions in ((klondike_batch(), 590), (pyramid_batch(), 467)):
        before = batch.obs.copy()
        ok = (
            len(actions) == len(pending) == 3
            and all(0 <= a < num_actions for a in actions)
            and all(p >= 0 for p in pending)
            and 0 <= autoreset <= 2
        )
        step = (np.asarray(actions, np.int64), np.asarray(pending, np.int64), autoreset, batch.buffers)
        if ok:
            batch.core.step(*step)
        else:
            with pytest.raises(ValueError):
                batch.core.step(*step)
            np.testing.assert_array_equal(batch.obs, before)


@FAST
@given(st.lists(st.integers(-3, 300), min_size=0, max_size=60), st.integers(-2, 4))
def test_reset_cards_takes_a_deck_and_refuses_the_rest(cards: list, index: int) -> None:
    batch = klondike_batch()
    deck = np.asarray([c % 256 for c in cards], np.uint8)
    if sorted(cards) == list(range(52)) and 0 <= index < 3:
        batch.core.reset_cards(index, deck, batch.buffers)
    else:
        with pytest.raises(CLEAR):
            batch.core.reset_cards(index, deck, batch.buffers)


@st.composite
def klondike_states(draw: st.DrawFn) -> tuple:
    """A position built from a real game's (after random moves), maybe mutated once."""
    game = KlondikeGame(f"klondike-random-v1-{draw(st.integers(0, 10**6))}")
    for _ in range(draw(st.integers(0, 40))):
        moves = game.legal_moves()
        if not moves:
            break
        game.push(moves[draw(st.integers(0, len(moves) - 1))])
    columns, hidden = [list(c) for c in game.columns], list(game.hidden)
    stock, waste, fnd = list(game.stock), list(game.waste), list(game.foundations)
    kind = draw(st.integers(0, 7))
    places = [*columns, stock, waste]
    value = draw(st.sampled_from([-1, 52, 255, *range(52)]))
    if kind == 1:
        draw(st.sampled_from(places)).append(value)
    elif kind == 2 and any(places):
        place = draw(st.sampled_from([p for p in places if p]))
        place[draw(st.integers(0, len(place) - 1))] = value
    elif kind == 3 and any(places):
        draw(st.sampled_from([p for p in places if p])).pop()
    elif kind == 4:
        hidden[draw(st.integers(0, 6))] = draw(st.integers(-2, 20))
    elif kind == 5:
        fnd[draw(st.integers(0, 3))] = draw(st.integers(-1, 14))
    elif kind == 6:
        stock, waste = stock + waste, stock
    return columns, hidden, stock, waste, fnd


@FAST
@given(klondike_states(), st.lists(st.integers(0, 589), max_size=30))
def test_reset_state_takes_what_a_game_reaches_refuses_the_rest_and_never_overflows(
    state: tuple, actions: list
) -> None:
    """reset_state agrees with :func:`tests.native_fuzz_targets.klondike_state_valid`; a position it
    took then plays any actions (refused ones change nothing) and every observation stays inside its
    space."""
    from solitaire_rl.envs.klondike.observer import OBS_NVEC

    columns, hidden, stock, waste, fnd = state
    batch = klondike_batch(1)
    position = (0, columns, hidden, stock, waste, fnd, fnd, 0, 0, 3, batch.buffers)
    valid = klondike_state_valid(columns, hidden, stock, waste, fnd)
    if not valid:
        with pytest.raises(CLEAR):
            batch.core.reset_state(*position)
        return
    batch.core.reset_state(*position)
    for action in actions:
        batch.core.step(np.asarray([action], np.int64), np.asarray([1], np.int64), 2, batch.buffers)
        assert np.all((batch.obs >= 0) & (batch.obs < OBS_NVEC)), action


# ------------------------------------------------------------------------------ the encoders fuzzed
@FAST
@given(
    st.integers(0, 4),
    st.integers(-(2**40), 2**40),
    st.integers(0, 3),
    st.booleans(),
    st.integers(0, 2**32 - 1),
)
def test_the_klondike_encoders_answer_garbage_rows_with_a_row_and_code_or_refuse_bad_shapes(
    rows: int, scale: int, shape_error: int, with_mask: bool, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    width = 190 + (shape_error == 1)
    obs = rng.integers(-abs(scale) - 1, abs(scale) + 1, size=(rows, width), dtype=np.int64)
    mask = (
        rng.integers(-128, 128, size=(rows + (shape_error == 2), 590), dtype=np.int8) if with_mask else None
    )
    out = np.zeros((rows + (shape_error == 3), 1435 if with_mask else 709), np.float32)
    if shape_error == 1 or (shape_error == 2 and with_mask) or shape_error == 3:
        with pytest.raises(ValueError):
            solitaire_native.klondike_policy_inputs(obs, mask, out)
        return
    result = solitaire_native.klondike_policy_inputs(obs, mask, out)
    assert result is None or (0 <= result[0] < rows and result[1] != 0)
    assert np.all(np.isfinite(out))


@FAST
@given(
    st.integers(0, 4),
    st.sampled_from([0.0, 1.0, 1e30, -1e30, np.nan, np.inf, -np.inf, 0.5]),
    st.booleans(),
    st.integers(0, 2**32 - 1),
)
def test_the_pyramid_encoders_answer_garbage_rows(rows: int, fill: float, relaxed: bool, seed: int) -> None:
    rng = np.random.default_rng(seed)
    obs = rng.random((rows, 883)).astype(np.float32)
    obs[rng.random((rows, 883)) < 0.1] = fill
    mask = rng.integers(-128, 128, size=(rows, 467), dtype=np.int8)
    out = np.zeros((rows, 1605 if relaxed else 1567), np.float32)
    result = solitaire_native.pyramid_policy_inputs(obs, mask, relaxed, out)
    assert result is None or (0 <= result[0] < rows and result[1] != 0)


# ------------------------------------------------------------------------------ Pyramid positions
@st.composite
def pyramid_positions(draw: st.DrawFn) -> object:
    """A position of a real Pyramid game (after random moves), maybe with one field mutated."""
    from solitaire_rl.agents.solver.pyramid import PyramidPosition
    from solitaire_rl.envs.pyramid.game import PyramidGame

    game = PyramidGame(f"pyramid-random-v1-{draw(st.integers(0, 10**6))}")
    for _ in range(draw(st.integers(0, 30))):
        moves = game.legal_moves()
        if not moves:
            break
        game.push(moves[draw(st.integers(0, len(moves) - 1))])
    position = PyramidPosition.from_game(game).to_native()
    kind = draw(st.integers(0, 8))
    if kind == 1:
        position.rows = draw(st.integers(-2, 9))
    elif kind == 2:
        position.pyramid = draw(st.lists(st.integers(-3, 16), max_size=40))
    elif kind == 3:
        position.removed = draw(st.integers(0, 2**32 - 1))
    elif kind == 4:
        position.stock = draw(st.lists(st.integers(-3, 16), max_size=60))
    elif kind == 5:
        position.waste_count = draw(st.integers(-3, 60))
    elif kind == 6:
        position.pass_number = draw(st.integers(-3, 6))
    elif kind == 7:
        position.max_passes = draw(st.integers(-3, 6))
    return position


@FAST
@given(
    pyramid_positions(),
    st.lists(st.tuples(st.integers(-2, 8), st.integers(-3, 30), st.integers(-3, 30)), max_size=4),
    st.lists(st.integers(-3, 30), max_size=5),
)
def test_pyramid_positions_are_solved_or_refused_and_pimc_checks_its_candidates(
    position: object, candidates: list, unknown: list
) -> None:
    limits = solitaire_native.Limits()
    limits.max_states = 2000
    limits.time_limit_s = 2.0
    try:
        result = solitaire_native.pyramid_solve(position, limits)
    except CLEAR:
        valid = False
    else:
        valid = True
        assert result.status in set(solitaire_native.Status) and result.seconds < 10
    try:
        options = solitaire_native.PyramidPimcOptions(seed=1, states_per_solve=500, max_samples=2,
                                                      max_states=5000, time_limit_s=2.0)
        tally = solitaire_native.pyramid_pimc(position, unknown, candidates, options)
    except CLEAR:
        return
    assert valid, "pimc took a position the solver refused"
    assert len(tally.won) == len(candidates) and tally.samples <= 2


# ------------------------------------------------------------------------------ Klondike planners
@FAST
@given(
    st.integers(0, 10**6),
    st.integers(0, 30),
    st.lists(
        st.tuples(
            st.integers(-2, 20),
            st.integers(-2, 30),
            st.integers(-2, 30),
            st.integers(-2, 30),
            st.integers(-2, 60),
        ),
        max_size=3,
    ),
    st.lists(st.tuples(st.integers(-2, 8), st.integers(-2, 30)), max_size=4),
    st.sampled_from([1, 3, 0, 7]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(-3, 40),
)
def test_klondike_planners_answer_or_refuse_any_candidates_and_unknown_places(
    deal: int,
    moves: int,
    candidates: list,
    unknown: list,
    draw_count: int,
    exploration: float,
    max_depth: int,
) -> None:
    from solitaire_rl.agents.planner.knowledge import klondike_knowledge
    from solitaire_rl.envs.klondike.observer import observe

    game = KlondikeGame(f"klondike-random-v1-{deal}")
    for i in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        game.push(legal[i % len(legal)])
    knowledge = klondike_knowledge(observe(game), game.draw_count)
    position = knowledge.position.to_native()
    def hop(u: list) -> Any:
        options = solitaire_native.KlondikeHopOptions(draw_count=draw_count, seed=1, states_per_solve=500,
                                                      max_samples=2, max_states=5000, time_limit_s=2.0)
        return solitaire_native.klondike_hop(position, u, candidates, options)

    def ismcts(u: list) -> Any:
        options = solitaire_native.KlondikeIsmctsOptions(
            draw_count=draw_count, seed=1, states_per_solve=500, max_iterations=8, max_states=5000,
            time_limit_s=2.0, exploration=exploration, max_depth=max_depth)
        return solitaire_native.klondike_ismcts(position, u, candidates, options)

    for call in (hop, ismcts):
        for places in (list(knowledge.unknown), unknown):
            try:
                result = call(places)
            except CLEAR:
                continue
            got = len(result.tally.won) if hasattr(result, "tally") else len(result.visits)
            assert got == len(candidates)


# ------------------------------------------------------------------ deal codes and Solvitaire JSON
def _valid_texts() -> list[str]:
    from solitaire_rl.envs.deals import encode_deal_code
    from solitaire_rl.envs.klondike.solvitaire import to_solvitaire_json

    deck = list(KlondikeGame("klondike-random-v1-3").deal.cards)
    return [
        encode_deal_code(deck),
        to_solvitaire_json(deck),
        "klondike-random-v1-3",
        "pyramid-random-v1-9",
        "pyramid-winnable-v1-4",
        "klondike-winnable-v1-2",
    ]


@st.composite
def deal_texts(draw: st.DrawFn) -> str:
    """A valid deal text (a code, Solvitaire JSON, a deal ID), one edit away from it, or garbage."""
    kind = draw(st.integers(0, 2))
    if kind == 0:
        return draw(st.text(max_size=300))
    text = draw(st.sampled_from(_valid_texts()))
    if kind == 1 or not text:
        return text
    i = draw(st.integers(0, len(text) - 1))
    edit = draw(st.integers(0, 2))
    piece = draw(st.text(min_size=1, max_size=3))
    return (
        text[:i] + piece + text[i + 1 :]
        if edit == 0
        else text[:i] + text[i + 1 :]
        if edit == 1
        else (text[:i] + piece + text[i:])
    )


@FAST
@given(deal_texts(), st.sampled_from(["klondike", "pyramid"]))
def test_deal_texts_reach_the_solver_or_are_refused_with_a_clear_error(text: str, game: str) -> None:
    """A deal ID, deal code or Solvitaire JSON with any edit: the solver decides it (within its
    budget) or :class:`MalformedInputError` says why; nothing else is raised."""
    from solitaire_rl.agents.solver.klondike import solve_klondike
    from solitaire_rl.agents.solver.pyramid import solve_pyramid
    from solitaire_rl.agents.solver.result import NOT_WINNABLE, UNKNOWN, WINNABLE

    solve = solve_klondike if game == "klondike" else solve_pyramid
    try:
        result = solve(text, max_states=3000, time_limit=2.0)
    except MalformedInputError:
        return
    assert result.status in (WINNABLE, NOT_WINNABLE, UNKNOWN)



def test_a_step_refuses_buffers_of_the_wrong_shape_and_changes_nothing() -> None:
    """Each of a step's 12 arrays one row too long, and each row array one column too wide: a
    ValueError naming the array before any game changes."""
    zeros = np.zeros(3, np.int64)
    for batch, buffers in ((klondike_batch(), solitaire_native.KlondikeBuffers),
                           (pyramid_batch(), solitaire_native.PyramidBuffers)):
        names = buffers.counter_names
        fields = ["obs", "mask", "reward", "terminated", "truncated", "refusal", "outcome", *names,
                  "was_reset", "final_obs", "final_mask"]
        arrays = [getattr(batch, f) for f in fields]

        def made(given: list[np.ndarray], names: tuple[str, ...] = names, fields: list[str] = fields,
                 buffers: type = buffers) -> object:
            named = dict(zip(fields, given, strict=True))
            return buffers(**{f: a for f, a in named.items() if f not in names},
                           counters={n: named[n] for n in names})

        before = batch.obs.copy()
        for i, (name, array) in enumerate(zip(fields, arrays, strict=True)):
            rows = array.ndim == 2
            shapes = [(len(array) + 1, *array.shape[1:])]
            if rows:
                shapes.append((len(array), array.shape[1] + 1))
            words = f"{name} has the wrong shape" if rows else f"{name} has the wrong length"
            for shape in shapes:
                bad = [np.zeros(shape, a.dtype) if k == i else a.copy() for k, a in enumerate(arrays)]
                with pytest.raises(ValueError, match=words):
                    batch.core.step(zeros, zeros, 0, made(bad))
        np.testing.assert_array_equal(batch.obs, before)
        batch.core.step(zeros, zeros, 0, made(arrays))  # the right arrays play
