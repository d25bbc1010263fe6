"""One fuzz target per native entry point (issue #39), for long runs: libFuzzer's model in Python.

Each target takes a ``random.Random`` and makes one input for its entry point: a valid one from a
seed corpus of real positions (built once per process from real deals played a few random moves),
one or two mutations away from valid, or garbage. It calls the entry point and checks the answer:
right where the rules say what is right (a position the constraints allow is accepted, one they
refuse is refused), else a well-formed answer or a clear Python exception (``CLEAR``). A crash, a
hang past :data:`SLOW`, a sanitizer report or any other exception is a finding.

``benchmarks/fuzz_entry_points.py`` runs these by the million (on the ASan/UBSan build with
``--sanitize``); ``tests/test_native_fuzz_targets.py`` runs each a few hundred times in the suite.
The Hypothesis harnesses (tests/test_native_fuzz*.py) shrink what they find; these are cheap
enough per input (no shrinking, a corpus built once) to reach a million inputs per entry point.
"""

from __future__ import annotations

import functools
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import solitaire_native as native

CLEAR = (ValueError, IndexError, TypeError, OverflowError)
"""The exceptions bad input may raise (a RuntimeError, MemoryError or crash is a finding)."""
SLOW = 5.0
"""Seconds one call may take; every budget below is far smaller."""
INTERESTING = (-1, 0, 1, 12, 13, 14, 51, 52, 53, 255, 256, -(2**31), 2**31 - 1, 2**31, 2**63 - 1, -(2**63))


def odd_int(rng: random.Random, low: int = -3, high: int = 60) -> int:
    """Mostly small values near the valid range, sometimes a boundary of C's integer types."""
    return rng.choice(INTERESTING) if rng.random() < 0.2 else rng.randint(low, high)


def mutate_list(values: list, rng: random.Random, item: Callable[[], Any]) -> list:
    """One edit of a list: append, replace, remove, duplicate, swap, empty, or a garbage tail."""
    out = list(values)
    kind = rng.randrange(7)
    if kind == 0 or not out:
        out.insert(rng.randint(0, len(out)), item())
    elif kind == 1:
        out[rng.randrange(len(out))] = item()
    elif kind == 2:
        out.pop(rng.randrange(len(out)))
    elif kind == 3:
        out.append(out[rng.randrange(len(out))])
    elif kind == 4:
        i, j = rng.randrange(len(out)), rng.randrange(len(out))
        out[i], out[j] = out[j], out[i]
    elif kind == 5:
        out = []
    else:
        out += [item() for _ in range(rng.randint(1, 40))]
    return out


def timed(call: Callable[[], Any]) -> Any:
    """The call's answer, or its exception passed on; a call past :data:`SLOW` is a finding."""
    start = time.perf_counter()
    try:
        return call()
    finally:
        seconds = time.perf_counter() - start
        assert seconds < SLOW, f"a call took {seconds:.1f} s"


TALLY: Counter[str] = Counter()
"""Calls answered and refused since the process started (a run shows that it reached both)."""


def answered_or_refused(call: Callable[[], Any], valid: bool | None) -> Any:
    """The call's answer. ``valid`` True: it must answer; False: it must refuse with a clear
    exception (then None); None: either, as long as a refusal is clear."""
    try:
        answer = timed(call)
    except CLEAR as error:
        assert valid is not True, f"a valid input was refused: {error!r}"
        TALLY["refused"] += 1
        return None
    assert valid is not False, "an invalid input was answered"
    TALLY["answered"] += 1
    return answer


# ------------------------------------------------------------------------------------- corpora
@functools.cache
def klondike_games() -> tuple:
    """Real Klondike games a few random moves in, and the player's knowledge of each."""
    from solitaire_rl.agents.planner.knowledge import klondike_knowledge
    from solitaire_rl.envs.klondike.game import KlondikeGame
    from solitaire_rl.envs.klondike.observer import observe

    rng = random.Random(2026)
    out = []
    for deal in range(48):
        game = KlondikeGame(f"klondike-random-v1-{deal}", draw_count=rng.choice((1, 3)))
        for _ in range(rng.randint(0, 60)):
            moves = game.legal_moves()
            if not moves:
                break
            game.push(rng.choice(moves))
        out.append((game, klondike_knowledge(observe(game), game.draw_count)))
    return tuple(out)


@functools.cache
def pyramid_games() -> tuple:
    from solitaire_rl.envs.pyramid.game import PyramidGame

    rng = random.Random(2026)
    out = []
    for deal in range(48):
        game = PyramidGame(f"pyramid-random-v1-{deal}", stock_top_playable=deal % 2 == 0)
        for _ in range(rng.randint(0, 40)):
            moves = game.legal_moves()
            if not moves:
                break
            game.push(rng.choice(moves))
        out.append(game)
    return tuple(out)


# ---------------------------------------------------------------------- Klondike solver positions
def klondike_valid(
    face_down: list, face_up: list, stock: list, waste: list, foundation: list, max_rank: int
) -> bool:
    """The constraints of native ``klondike::validate``, stated independently."""
    if not 1 <= max_rank <= 13 or not 1 <= len(face_up) <= 7 or len(face_down) != len(face_up):
        return False
    if len(foundation) != 4:
        return False
    cards = [c for col in face_down + face_up for c in col] + stock + waste
    if any(not 0 <= c < 52 or (c >> 2) + 1 > max_rank for c in cards) or len(set(cards)) != len(cards):
        return False
    if any(not 0 <= f <= max_rank for f in foundation):
        return False
    seen = set(cards)
    for s, top in enumerate(foundation):
        for r in range(1, top + 1):
            card = (r - 1) << 2 | s
            if card in seen:
                return False
            seen.add(card)
    suits = {c & 3 for c in cards} | {s for s, top in enumerate(foundation) if top > 0}
    return all(((r - 1) << 2 | s) in seen for s in suits for r in range(1, max_rank + 1))


def klondike_case(rng: random.Random) -> list:
    """[face_down, face_up, stock, waste, foundation, max_rank]: real, mutated, or garbage."""
    from solitaire_rl.agents.solver.klondike import KlondikePosition

    mode = rng.random()
    if mode < 0.15:
        cards = lambda: [odd_int(rng) for _ in range(rng.randint(0, 12))]  # noqa: E731
        n = rng.randint(0, 9)
        return [
            [cards() for _ in range(n)],
            [cards() for _ in range(n + (rng.random() < 0.1))],
            cards(),
            cards(),
            [odd_int(rng, -2, 15) for _ in range(rng.choice((4, 4, 4, 3, 5)))],
            odd_int(rng, -2, 15),
        ]
    game, _ = rng.choice(klondike_games())
    p = KlondikePosition.from_game(game)
    case = [
        [list(c) for c in p.face_down],
        [list(c) for c in p.face_up],
        list(p.stock),
        list(p.waste),
        list(p.foundations),
        p.max_rank,
    ]
    for _ in range(0 if mode < 0.4 else rng.randint(1, 2)):
        field = rng.randrange(6)
        if field < 2 and case[field]:
            col = rng.randrange(len(case[field]))
            case[field][col] = mutate_list(case[field][col], rng, lambda: odd_int(rng))
        elif field < 2:
            case[field] = [[odd_int(rng)]]
        elif field < 5:
            case[field] = mutate_list(case[field], rng, lambda: odd_int(rng, -2, 53))
        else:
            case[5] = odd_int(rng, -1, 14)
    return case


def klondike_position(rng: random.Random) -> tuple[Any, bool | None]:
    """A native position and whether it is valid; None when the binding refused its values."""
    case = klondike_case(rng)
    try:
        position = native.KlondikePosition(*case)
    except CLEAR:  # values outside a C int, or not a list
        return None, None
    valid = klondike_valid(*case)
    assert (native.klondike_validate(position) == "") == valid, case
    TALLY["validated" if valid else "invalid"] += 1
    return position, valid


def draw_count(rng: random.Random) -> int:
    return rng.choice((1, 3, 3, 1, 0, -1, 53, 2, odd_int(rng)))


def _klondike_query(name: str) -> Callable[[random.Random], None]:
    def target(rng: random.Random) -> None:
        position, valid = klondike_position(rng)
        if position is None:
            return
        if name == "klondike_validate":  # checked in klondike_position
            return
        dc = draw_count(rng)
        ok = valid and 1 <= dc <= 52
        if name == "klondike_solve":
            limits = native.Limits()
            limits.max_states = rng.choice((50, 300, 2000))
            limits.time_limit_s = 1.0
            options = native.KlondikeOptions()
            if -(2**31) <= dc < 2**31:
                options.draw_count = dc
                options.order_seed = rng.randrange(2**32)
                result = answered_or_refused(lambda: native.klondike_solve(position, options, limits), ok)
                assert result is None or result.status in set(native.Status)
            return
        call = getattr(native, name)
        answered_or_refused(lambda: call(position, dc), ok if -(2**31) <= dc < 2**31 else None)

    return target


# ----------------------------------------------------------------------------- Klondike planners
def action_tuple(rng: random.Random) -> tuple:
    return tuple(odd_int(rng, -2, 30) for _ in range(5))


def _klondike_planner(name: str) -> Callable[[random.Random], None]:
    def target(rng: random.Random) -> None:
        game, knowledge = rng.choice(klondike_games())
        position = knowledge.position.to_native()
        unknown = [list(u) for u in knowledge.unknown]
        candidates = [list(a) for a in native.klondike_legal_actions(position, game.draw_count)]
        if rng.random() < 0.5:
            unknown = mutate_list(unknown, rng, lambda: [odd_int(rng, -2, 8), odd_int(rng, -2, 30)])
        if rng.random() < 0.5 or not candidates:
            candidates = mutate_list(candidates, rng, lambda: list(action_tuple(rng)))
        if rng.random() < 0.1:
            position, _ = klondike_position(rng)
            if position is None:
                return
        unknown_t = [tuple(u) for u in unknown]
        candidates_t = [tuple(c) for c in candidates]
        common = dict(
            draw_count=draw_count(rng),
            seed=rng.randrange(2**32),
            states_per_solve=rng.choice((20, 100)),
            max_states=2000,
            time_limit_s=1.0,
        )
        try:
            if name == "klondike_hop":
                options = native.KlondikeHopOptions(max_samples=rng.randint(1, 2), **common)
            else:
                options = native.KlondikeIsmctsOptions(
                    max_iterations=rng.randint(1, 4),
                    exploration=rng.choice((0.7, 0.0, -1.0, float("nan"), 1e300)),
                    max_depth=rng.randint(-2, 30),
                    **common,
                )
        except CLEAR:
            return
        call = getattr(native, name)
        result = answered_or_refused(lambda: call(position, unknown_t, candidates_t, options), None)
        if result is not None:
            got = len(result.tally.won) if name == "klondike_hop" else len(result.visits)
            assert got == len(candidates_t)

    return target


def _klondike_commit_plan(rng: random.Random) -> None:
    """The commitment planner (world-bandit): a real position or a mutated one, a mutated list of
    unknown slots, odd option values (caps, batches, schedules, a NaN exploration)."""
    _game, knowledge = rng.choice(klondike_games())
    position = knowledge.position.to_native()
    unknown = [list(u) for u in knowledge.unknown]
    if rng.random() < 0.5:
        unknown = mutate_list(unknown, rng, lambda: [odd_int(rng, -2, 8), odd_int(rng, -2, 30)])
    if rng.random() < 0.1:
        position, _ = klondike_position(rng)
        if position is None:
            return
    try:
        options = native.KlondikeCommitOptions(
            draw_count=draw_count(rng),
            seed=rng.randrange(2**32),
            cap=rng.choice((1, 20, 100, odd_int(rng, -2, 300))),
            cap_per_known=rng.choice((0, 0, 5, odd_int(rng, -2, 20))),
            worlds_per_candidate=rng.choice((1, 4, 20, odd_int(rng, -2, 40))),
            max_worlds=rng.choice((0, 40, odd_int(rng, -2, 200))),
            exploration=rng.choice((1.0, 0.0, -1.0, float("nan"), 1e300)),
            batch=rng.choice((1, 10, odd_int(rng, -2, 20))),
            hopeless_worlds=rng.choice((0, 5, odd_int(rng, -2, 20))),
            time_limit_s=1.0,
            max_closure=rng.choice((1, 64, 4096, odd_int(rng, -2, 100))),
            schedule=rng.choice(list(native.KlondikeCommitSchedule)),
            merge=rng.random() < 0.5,
            race_z=rng.choice((2.0, 0.0, -1.0, float("nan"))),
            race_min_worlds=rng.choice((1, 40, odd_int(rng, -2, 50))),
            surely_won_stops=rng.random() < 0.5,
        )
    except CLEAR:
        return
    unknown_t = [tuple(u) for u in unknown]
    result = answered_or_refused(lambda: native.klondike_commit_plan(position, unknown_t, options), None)
    if result is not None:
        assert result.candidates or result.chosen < 0 or result.win_line
        assert -1 <= result.chosen < max(1, len(result.candidates))


def _klondike_world_scores(rng: random.Random) -> None:
    """World scores (the dense labels of issue 53): a batch of real or mutated positions, each with a
    possibly mutated list of unknown slots, the lists' lengths sometimes apart, odd options."""
    count = rng.choice((0, 1, 2, 3))
    positions, unknowns = [], []
    for _ in range(count):
        _game, knowledge = rng.choice(klondike_games())
        position = knowledge.position.to_native()
        unknown = [tuple(u) for u in knowledge.unknown]
        if rng.random() < 0.3:
            unknown = [tuple(u) for u in mutate_list([list(u) for u in unknown], rng,
                                                     lambda: [odd_int(rng, -2, 8), odd_int(rng, -2, 30)])]
        if rng.random() < 0.1:
            mutated, _ = klondike_position(rng)
            if mutated is not None:
                position = mutated
        positions.append(position)
        unknowns.append(unknown)
    if rng.random() < 0.1:
        unknowns = mutate_list(unknowns, rng, list)
    try:
        options = native.KlondikeWorldScoreOptions(
            draw_count=draw_count(rng),
            seed=rng.randrange(2**32),
            worlds=rng.choice((1, 4, 10, odd_int(rng, -2, 12))),
            cap=rng.choice((1, 20, 100, odd_int(rng, -2, 300))),
            surely_won_stops=rng.random() < 0.5,
            threads=rng.choice((1, 2, odd_int(rng, -2, 4))),
        )
    except CLEAR:
        return
    result = answered_or_refused(lambda: native.klondike_world_scores(positions, unknowns, options), None)
    if result is not None:
        assert len(result.won) == len(result.lost) == len(result.cut) == len(positions)
        for won, lost, cut in zip(result.won, result.lost, result.cut, strict=True):
            assert won >= 0 and lost >= 0 and cut >= 0 and won + lost + cut == options.worlds


# ---------------------------------------------------------------------------- Pyramid positions
def pyramid_position(rng: random.Random) -> Any:
    from solitaire_rl.agents.solver.pyramid import PyramidPosition

    position = PyramidPosition.from_game(rng.choice(pyramid_games())).to_native()
    for _ in range(0 if rng.random() < 0.35 else rng.randint(1, 2)):
        field = rng.randrange(7)
        try:
            if field == 0:
                position.rows = odd_int(rng, -2, 9)
            elif field == 1:
                position.pyramid = mutate_list(list(position.pyramid), rng, lambda: odd_int(rng, -3, 16))
            elif field == 2:
                position.removed = rng.choice((0, 2**32 - 1, rng.randrange(2**32), 1 << rng.randrange(32)))
            elif field == 3:
                position.stock = mutate_list(list(position.stock), rng, lambda: odd_int(rng, -3, 16))
            elif field == 4:
                position.waste_count = odd_int(rng, -3, 60)
            elif field == 5:
                position.pass_number = odd_int(rng, -3, 6)
            else:
                position.max_passes = odd_int(rng, -3, 6)
        except CLEAR:  # a value the field's C type cannot hold
            pass
    return position


def _pyramid_query(name: str) -> Callable[[random.Random], None]:
    def target(rng: random.Random) -> None:
        position = pyramid_position(rng)
        if name == "pyramid_solve":
            limits = native.Limits()
            limits.max_states = rng.choice((50, 300, 2000))
            limits.time_limit_s = 1.0
            result = answered_or_refused(lambda: native.pyramid_solve(position, limits), None)
            assert result is None or result.status in set(native.Status)
        elif name == "pyramid_pimc":
            try:
                legal = [tuple(m) for m in native.pyramid_legal_moves(position)]
            except ValueError:
                legal = []
            candidates = (
                mutate_list(legal, rng, lambda: tuple(odd_int(rng, -2, 30) for _ in range(3)))
                if rng.random() < 0.5 or not legal
                else legal
            )
            unknown = [odd_int(rng, -3, 30) for _ in range(rng.randint(0, 6))]
            options = native.PyramidPimcOptions(
                seed=rng.randrange(2**32),
                states_per_solve=rng.choice((20, 100)),
                max_samples=rng.randint(1, 2),
                max_states=2000,
                time_limit_s=1.0,
            )
            tally = answered_or_refused(
                lambda: native.pyramid_pimc(position, unknown, candidates, options), None
            )
            assert tally is None or (len(tally.won) == len(candidates) and tally.samples <= 2)
        else:
            answered_or_refused(lambda: getattr(native, name)(position), None)

    return target


# ---------------------------------------------------------------------------- the batch envs
def klondike_batch(n: int = 3) -> Any:
    """A new native Klondike batch of ``n`` games (solitaire_rl.envs.klondike.vector.KlondikeBatch), dealt."""
    from solitaire_rl.envs.klondike.vector import KlondikeBatch

    batch = KlondikeBatch(n)
    batch.reset(list(range(n)), [7] * n, None)
    return batch


def pyramid_batch(n: int = 3) -> Any:
    """A new native Pyramid batch of ``n`` games (variant 000, next-step autoreset), dealt."""
    from gymnasium.vector import AutoresetMode

    from solitaire_rl.envs.pyramid.vector import PyramidBatch

    batch = PyramidBatch(
        n,
        stock_top_playable=True,
        reward_shaping=False,
        max_episode_steps=None,
        autoreset=AutoresetMode.NEXT_STEP,
    )
    batch.reset(list(range(n)), [7] * n, None)
    return batch


@functools.cache
def batches() -> dict[str, Any]:
    """One native batch of 3 games per game (state carries over between inputs, as in training)."""
    return {"klondike": (klondike_batch(), 590), "pyramid": (pyramid_batch(), 467)}


def _batch_constructor(rng: random.Random) -> None:
    cls = rng.choice((native.KlondikeBatch, native.PyramidBatch))
    num = rng.choice((1, 2, 3, 0, -1, odd_int(rng), 2**31 - 1))
    game_arg = (
        rng.choice((1, 3, True, False, 0, 7, -1)) if cls is native.KlondikeBatch else rng.random() < 0.5
    )
    steps, threads = rng.choice((0, 50, -5, odd_int(rng))), rng.choice((1, 2, 0, -3, 257, odd_int(rng)))
    refused = num <= 0 or steps < 0 or not 1 <= threads <= 256
    valid = (
        not refused
        and num <= 64
        and steps < 2**31
        and (cls is native.PyramidBatch or (game_arg in (1, 3) and game_arg is not True))
    )
    answered_or_refused(
        lambda: cls(num, game_arg, rng.random() < 0.5, steps, threads),
        False if refused else True if valid else None,
    )


def _int64s(rng: random.Random, n: int, low: int, high: int) -> np.ndarray:
    values = [odd_int(rng, low, high) for _ in range(n)]
    return np.asarray([min(max(v, -(2**63)), 2**63 - 1) for v in values], np.int64)


def _batch_step(game: str) -> Callable[[random.Random], None]:
    def target(rng: random.Random) -> None:
        batch, num_actions = batches()[game]
        n = 3 if rng.random() < 0.8 else rng.randint(0, 5)
        if rng.random() < 0.7:  # mostly legal actions, so that games go on
            actions = np.asarray(
                [rng.choice(np.flatnonzero(m) if m.any() else [0]) for m in batch.mask[:n]]
                + [0] * max(0, n - 3),
                np.int64,
            )
        else:
            actions = _int64s(rng, n, -2, num_actions + 2)
        pending = (
            _int64s(rng, n, -1, 10**6)
            if rng.random() < 0.2
            else np.asarray([rng.randrange(10**6) for _ in range(n)], np.int64)
        )
        autoreset = rng.choice((0, 1, 2, 2, -1, 3))
        ok = (
            n == 3
            and all(0 <= a < num_actions for a in actions)
            and all(p >= 0 for p in pending)
            and 0 <= autoreset <= 2
        )
        before = batch.obs.copy()
        answered_or_refused(lambda: batch.core.step(actions, pending, autoreset, batch.buffers), ok)
        if not ok:
            np.testing.assert_array_equal(batch.obs, before)

    return target


def _batch_reset_cards(game: str) -> Callable[[random.Random], None]:
    def target(rng: random.Random) -> None:
        batch, _ = batches()[game]
        deck = list(range(52))
        rng.shuffle(deck)
        if rng.random() < 0.6:
            deck = mutate_list(deck, rng, lambda: odd_int(rng, 0, 255) % 256)
        index = rng.choice((0, 1, 2, -1, 3, odd_int(rng)))
        ok = sorted(deck) == list(range(52)) and 0 <= index < 3
        array = np.asarray([c % 256 for c in deck], np.uint8)
        answered_or_refused(lambda: batch.core.reset_cards(index, array, batch.buffers), ok)

    return target


def _batch_reset_random(game: str) -> Callable[[random.Random], None]:
    def target(rng: random.Random) -> None:
        batch, _ = batches()[game]
        n = rng.randint(0, 4)
        indices = (
            _int64s(rng, n, -1, 3)
            if rng.random() < 0.3
            else np.asarray(rng.sample(range(3), min(n, 3)), np.int64)
        )
        numbers = _int64s(rng, len(indices) + (rng.random() < 0.1), -1, 10**9)
        ok = (
            len(numbers) == len(indices) and all(0 <= i < 3 for i in indices) and all(x >= 0 for x in numbers)
        )
        answered_or_refused(lambda: batch.core.reset_random(indices, numbers, batch.buffers), ok)

    return target


def klondike_state_valid(columns: list, hidden: list, stock: list, waste: list, foundations: list) -> bool:
    """What the native ``reset_state`` accepts, stated again in Python (runs by the rules' ``fits``)."""
    from solitaire_rl.envs.klondike.rules import fits

    if len(columns) != 7 or len(hidden) != 7 or len(stock) + len(waste) > 24 or len(foundations) != 4:
        return False
    if any(not 0 <= f <= 13 for f in foundations):
        return False
    if any(not 0 <= c < 52 for p in (*columns, stock, waste) for c in p):
        return False
    if any(
        len(c) > 19 or not 0 <= h <= 6 or (c and h >= len(c)) or (not c and h != 0)
        for c, h in zip(columns, hidden, strict=True)
    ):
        return False
    if any(
        not fits(c[i], c[i - 1]) for c, h in zip(columns, hidden, strict=True) for i in range(h + 1, len(c))
    ):
        return False
    cards = (
        [x for c in columns for x in c]
        + stock
        + waste
        + [(r - 1) << 2 | f for f, top in enumerate(foundations) for r in range(1, top + 1)]
    )
    return sorted(cards) == list(range(52))


def _klondike_reset_state(rng: random.Random) -> None:
    from solitaire_rl.envs.klondike.observer import OBS_NVEC

    batch, _ = batches()["klondike"]
    game, _ = rng.choice(klondike_games())
    state = [
        [list(c) for c in game.columns],
        list(game.hidden),
        list(game.stock),
        list(game.waste),
        list(game.foundations),
    ]
    for _ in range(0 if rng.random() < 0.4 else rng.randint(1, 2)):
        field = rng.randrange(5)
        if field == 0:
            col = rng.randrange(7)
            state[0][col] = mutate_list(state[0][col], rng, lambda: odd_int(rng, -1, 53))
        elif field == 1:
            state[1] = mutate_list(state[1], rng, lambda: odd_int(rng, -2, 20))
        elif field < 4:
            state[field] = mutate_list(state[field], rng, lambda: odd_int(rng, -1, 53))
        else:
            state[4] = mutate_list(state[4], rng, lambda: odd_int(rng, -1, 14))
    columns, hidden, stock, waste, fnd = state
    ok = klondike_state_valid(columns, hidden, stock, waste, fnd)
    seen = rng.choice((0, 2**64 - 1, rng.randrange(2**64)))
    answered_or_refused(
        lambda: batch.core.reset_state(
            0,
            columns,
            hidden,
            stock,
            waste,
            fnd,
            fnd,
            seen,
            rng.randint(0, 3),
            game.draw_count,
            batch.buffers,
        ),
        ok,
    )
    if ok:
        assert np.all((batch.obs[0] >= 0) & (batch.obs[0] < OBS_NVEC))


def _batch_get_state(game: str) -> Callable[[random.Random], None]:
    def target(rng: random.Random) -> None:
        batch, _ = batches()[game]
        index = rng.choice((0, 1, 2, -1, 3, odd_int(rng)))
        state = answered_or_refused(lambda: batch.core.get_state(index), 0 <= index < 3)
        if state is not None:  # what get_state gives, set_state takes back, and nothing changes
            before = batch.obs[index].copy()
            batch.core.set_state(index, **state, buffers=batch.buffers)
            np.testing.assert_array_equal(batch.obs[index], before)

    return target


def _klondike_set_state(rng: random.Random) -> None:
    """A saved Klondike state with one or two fields mutated: refused exactly when reset_state's
    rules (or a negative count, a draw count but 1 and 3) refuse it."""
    from solitaire_rl.envs.klondike.observer import OBS_NVEC

    batch, _ = batches()["klondike"]
    index = rng.randrange(3)
    state = batch.core.get_state(index)
    lists = ("columns", "hidden", "stock", "waste", "foundations", "best")
    for _ in range(0 if rng.random() < 0.4 else rng.randint(1, 2)):
        field = rng.choice((*lists, "recycles", "elapsed", "draw_count", "ended"))
        if field == "columns":
            col = rng.randrange(7)
            state["columns"][col] = mutate_list(state["columns"][col], rng, lambda: odd_int(rng, -1, 53))
        elif field in lists:
            state[field] = mutate_list(state[field], rng, lambda: odd_int(rng, -2, 53))
        elif field == "ended":
            state["ended"] = rng.random() < 0.5
        else:
            state[field] = odd_int(rng, -2, 5)
    fnd, best = state["foundations"], state["best"]
    ok = (
        klondike_state_valid(state["columns"], state["hidden"], state["stock"], state["waste"], fnd)
        and len(best) == 4 and all(f <= b <= 13 for f, b in zip(fnd, best, strict=True))
        and state["draw_count"] in (1, 3) and 0 <= state["recycles"] < 2**31 and 0 <= state["elapsed"] < 2**31
    )
    answered_or_refused(lambda: batch.core.set_state(index, **state, buffers=batch.buffers), ok)
    if ok:
        assert np.all((batch.obs[index] >= 0) & (batch.obs[index] < OBS_NVEC))


def _pyramid_set_state(rng: random.Random) -> None:
    """A saved Pyramid state with one or two fields mutated: refused exactly when a rank leaves
    1..13 or a rank is not there four times, a bit set leaves its places, the cursor leaves 0..24,
    the pass 1..3, or a count goes negative."""
    batch, _ = batches()["pyramid"]
    index = rng.randrange(3)
    state = batch.core.get_state(index)
    for _ in range(0 if rng.random() < 0.4 else rng.randint(1, 2)):
        field = rng.choice(("pyramid_ranks", "stock_ranks", "removed", "present", "seen", "cursor",
                            "pass_number", "elapsed", "needs_reset"))
        if field.endswith("ranks"):
            state[field] = mutate_list(state[field], rng, lambda: odd_int(rng, -1, 14))
        elif field == "needs_reset":
            state[field] = rng.random() < 0.5
        elif field in ("removed", "present", "seen"):
            state[field] = rng.choice((0, 2**24 - 1, 2**28 - 1, 2**28, 2**32 - 1, rng.randrange(2**28), -1))
        else:
            state[field] = odd_int(rng, -2, 26)
    ranks = state["pyramid_ranks"] + state["stock_ranks"]
    ok = (
        len(state["pyramid_ranks"]) == 28 and len(state["stock_ranks"]) == 24
        and sorted(ranks) == sorted(list(range(1, 14)) * 4)
        and 0 <= state["removed"] < 2**28 and 0 <= state["present"] < 2**24 and 0 <= state["seen"] < 2**24
        and 0 <= state["cursor"] <= 24 and 1 <= state["pass_number"] <= 3 and 0 <= state["elapsed"] < 2**31
    )
    answered_or_refused(lambda: batch.core.set_state(index, **state, buffers=batch.buffers), ok)
    if ok:
        assert np.all((batch.obs[index] >= 0) & (batch.obs[index] <= 1))


# ---------------------------------------------------------------------------- the encoders
def random_mask(rng: random.Random, rows: int, width: int) -> np.ndarray:
    """0/1 rows with a few bytes of any value."""
    gen = np.random.default_rng(rng.randrange(2**32))
    mask = gen.integers(0, 2, (rows, width), np.int8)
    odd = gen.random((rows, width)) < 0.05
    mask[odd] = gen.integers(-128, 128, int(odd.sum()), np.int8)
    return mask


def _klondike_policy_inputs(rng: random.Random) -> None:
    batch, _ = batches()["klondike"]
    rows = rng.randint(0, 4)
    shape_error = rng.choice((0, 0, 0, 1, 2, 3))
    with_mask = rng.random() < 0.7
    if rng.random() < 0.5 and rows <= 3:
        obs = batch.obs[:rows].astype(np.int64)
        if rng.random() < 0.5 and rows:
            obs[rng.randrange(rows), rng.randrange(obs.shape[1])] = odd_int(rng, -5, 60)
    else:
        scale = rng.choice((1, 60, 2**40))
        obs = np.random.default_rng(rng.randrange(2**32)).integers(-scale, scale + 1, (rows, 190), np.int64)
    if shape_error == 1:
        obs = np.zeros((rows, 191), np.int64)
    mask = random_mask(rng, rows + (shape_error == 2), 590) if with_mask else None
    out = np.zeros((rows + (shape_error == 3), 1435 if with_mask else 709), np.float32)
    bad = shape_error == 1 or (shape_error == 2 and with_mask) or shape_error == 3
    result = answered_or_refused(
        lambda: native.klondike_policy_inputs(obs, mask, out), None if not bad else False
    )
    if not bad:
        assert result is None or (0 <= result[0] < rows and result[1] != 0)
        assert np.all(np.isfinite(out))


def _pyramid_policy_inputs(rng: random.Random) -> None:
    batch, _ = batches()["pyramid"]
    rows = rng.randint(0, 4)
    relaxed = rng.random() < 0.5
    if rng.random() < 0.5 and rows <= 3:
        obs = batch.obs[:rows].astype(np.float32)
    else:
        obs = np.random.default_rng(rng.randrange(2**32)).random((rows, 883)).astype(np.float32)
    if rows and rng.random() < 0.3:
        obs[rng.randrange(rows), rng.randrange(883)] = rng.choice((np.nan, np.inf, -np.inf, 1e30, -1e30, 0.5))
    mask = random_mask(rng, rows, 467)
    width = (1605 if relaxed else 1567) + rng.choice((0, 0, 0, 1, -1))
    out = np.zeros((rows, width), np.float32)
    ok = width == (1605 if relaxed else 1567)
    result = answered_or_refused(lambda: native.pyramid_policy_inputs(obs, mask, relaxed, out), ok or None)
    if ok:
        assert result is None or (0 <= result[0] < rows and result[1] != 0)


# ---------------------------------------------------------------------------- deal texts, deals
@functools.cache
def deal_texts() -> tuple[str, ...]:
    from solitaire_rl.envs.deals import encode_deal_code
    from solitaire_rl.envs.klondike.game import KlondikeGame
    from solitaire_rl.envs.klondike.solvitaire import to_solvitaire_json

    deck = list(KlondikeGame("klondike-random-v1-3").deal.cards)
    return (
        encode_deal_code(deck),
        to_solvitaire_json(deck),
        "klondike-random-v1-3",
        "pyramid-random-v1-9",
        "pyramid-winnable-v1-4",
        "klondike-winnable-v1-2",
        "klondike-random-v1-99999999",
    )


def _deal_text(rng: random.Random) -> None:
    from solitaire_rl.agents.solver.klondike import solve_klondike
    from solitaire_rl.agents.solver.pyramid import solve_pyramid
    from solitaire_rl.envs.errors import MalformedInputError

    text = rng.choice(deal_texts())
    for _ in range(rng.choice((0, 1, 1, 2, 3))):
        i = rng.randrange(len(text) + 1)
        piece = "".join(
            rng.choice("0123456789-,:[]{}\"' ACDHSKQJTakqjt\x00é\u3000") for _ in range(rng.randint(1, 3))
        )
        text = rng.choice(
            (text[:i] + piece + text[i + 1 :], text[:i] + text[i + 1 :], text[:i] + piece + text[i:])
        )
    solve = rng.choice((solve_klondike, solve_pyramid))
    try:
        timed(lambda: solve(text, max_states=300, time_limit=1.0))
    except MalformedInputError:
        TALLY["refused"] += 1
    else:
        TALLY["answered"] += 1


def _random_deal(rng: random.Random) -> None:
    game = rng.choice(("pyramid", "klondike", "", "x" * 300, "\x00", "é"))
    number = rng.choice((rng.randrange(2**64), rng.randrange(10**6), 0, 2**64 - 1, -1, 2**64))
    deck = answered_or_refused(lambda: native.random_deal(game, number), 0 <= number < 2**64)
    assert deck is None or sorted(deck) == list(range(52))


@dataclass(frozen=True)
class Target:
    """One native entry point and the function that makes, plays and checks one input for it."""

    name: str
    run: Callable[[random.Random], None]


TARGETS: tuple[Target, ...] = (
    Target("random_deal", _random_deal),
    *(
        Target(name, _klondike_query(name))
        for name in (
            "klondike_validate",
            "klondike_solve",
            "klondike_legal_actions",
            "klondike_generated_moves",
            "klondike_forced_move",
            "klondike_proved_lost_without_search",
        )
    ),
    Target("klondike_hop", _klondike_planner("klondike_hop")),
    Target("klondike_ismcts", _klondike_planner("klondike_ismcts")),
    Target("klondike_commit_plan", _klondike_commit_plan),
    Target("klondike_world_scores", _klondike_world_scores),
    *(
        Target(name, _pyramid_query(name))
        for name in (
            "pyramid_solve",
            "pyramid_legal_moves",
            "pyramid_forced_moves",
            "pyramid_prune_rule",
            "pyramid_pimc",
        )
    ),
    Target("Batch.__init__", _batch_constructor),
    *(
        Target(f"{game.title()}Batch.{part}", make(game))
        for game in ("klondike", "pyramid")
        for part, make in (
            ("step", _batch_step),
            ("reset_cards", _batch_reset_cards),
            ("reset_random", _batch_reset_random),
            ("get_state", _batch_get_state),
        )
    ),
    Target("KlondikeBatch.set_state", _klondike_set_state),
    Target("PyramidBatch.set_state", _pyramid_set_state),
    Target("KlondikeBatch.reset_state", _klondike_reset_state),
    Target("klondike_policy_inputs", _klondike_policy_inputs),
    Target("pyramid_policy_inputs", _pyramid_policy_inputs),
    Target("deal texts (solve_klondike, solve_pyramid)", _deal_text),
)
"""Every native entry point that takes outside data (klondike_validate also runs inside each
Klondike query's input, as the Python side calls it before them)."""
BY_NAME = {t.name: t for t in TARGETS}


def run_target(name: str, seed: int, inputs: int) -> dict[str, int]:
    """``inputs`` inputs of one target from one seed (the same seed makes the same inputs); how
    many of its calls were answered and how many refused."""
    rng = random.Random(f"{name}:{seed}")
    target = BY_NAME[name].run
    TALLY.clear()
    for i in range(inputs):
        try:
            target(rng)
        except AssertionError as error:
            raise AssertionError(f"{name} seed {seed} input {i}: {error}") from error
    return dict(TALLY)
