"""
Native core of solitaire-rl: the exact Pyramid and Klondike solvers (see solitaire_rl.agents.solver).
"""

from collections.abc import Sequence
import enum
from typing import Annotated

import numpy
from numpy.typing import NDArray


DEFAULT_MAX_MEMORY_BYTES: int = 536870912

MIN_MAX_MEMORY_BYTES: int = 65536

class Status(enum.Enum):
    winnable = 0

    not_winnable = 1

    unknown = 2

class StopReason(enum.Enum):
    none = 0

    time = 1

    states = 2

    memory = 3

    cancelled = 4

class CancelToken:
    def __init__(self) -> None: ...

    def cancel(self) -> None: ...

    def reset(self) -> None: ...

    @property
    def cancelled(self) -> bool: ...

class Limits:
    def __init__(self) -> None: ...

    @property
    def time_limit_s(self) -> float: ...

    @time_limit_s.setter
    def time_limit_s(self, arg: float, /) -> None: ...

    @property
    def max_states(self) -> int: ...

    @max_states.setter
    def max_states(self, arg: int, /) -> None: ...

    @property
    def max_memory_bytes(self) -> int: ...

    @max_memory_bytes.setter
    def max_memory_bytes(self, arg: int, /) -> None: ...

class SampleTally:
    @property
    def won(self) -> list[int]: ...

    @property
    def lost(self) -> list[int]: ...

    @property
    def unknown(self) -> list[int]: ...

    @property
    def first(self) -> list[int]: ...

    @property
    def samples(self) -> int: ...

    @property
    def states(self) -> int: ...

    @property
    def seconds(self) -> float: ...

    @property
    def stop_reason(self) -> StopReason: ...

class PyramidPruneRule(enum.Enum):
    none = 0

    rank_count = 1

    buried_partner = 2

    partner_matching = 3

    relaxation = 4

class PyramidMoveKind(enum.Enum):
    remove = 0

    draw = 1

    recycle = 2

class PyramidPimcOptions:
    def __init__(self, *, seed: int = 0, states_per_solve: int = 20000, max_samples: int = 32, max_states: int = 0, time_limit_s: float = 0.0, threads: int = 1) -> None: ...

    @property
    def seed(self) -> int: ...

    @property
    def states_per_solve(self) -> int: ...

    @property
    def max_samples(self) -> int: ...

    @property
    def max_states(self) -> int: ...

    @property
    def time_limit_s(self) -> float: ...

    @property
    def threads(self) -> int: ...

class PyramidPosition:
    def __init__(self) -> None: ...

    @property
    def rows(self) -> int: ...

    @rows.setter
    def rows(self, arg: int, /) -> None: ...

    @property
    def pyramid(self) -> list[int]: ...

    @pyramid.setter
    def pyramid(self, arg: Sequence[int], /) -> None: ...

    @property
    def removed(self) -> int: ...

    @removed.setter
    def removed(self, arg: int, /) -> None: ...

    @property
    def stock(self) -> list[int]: ...

    @stock.setter
    def stock(self, arg: Sequence[int], /) -> None: ...

    @property
    def waste_count(self) -> int: ...

    @waste_count.setter
    def waste_count(self, arg: int, /) -> None: ...

    @property
    def pass_number(self) -> int: ...

    @pass_number.setter
    def pass_number(self, arg: int, /) -> None: ...

    @property
    def max_passes(self) -> int: ...

    @max_passes.setter
    def max_passes(self, arg: int, /) -> None: ...

    @property
    def stock_top_playable(self) -> bool: ...

    @stock_top_playable.setter
    def stock_top_playable(self, arg: bool, /) -> None: ...

class PyramidResult:
    @property
    def status(self) -> Status: ...

    @property
    def stop_reason(self) -> StopReason: ...

    @property
    def line(self) -> list[tuple[int, int, int]]: ...

    @property
    def states(self) -> int: ...

    @property
    def seconds(self) -> float: ...

    @property
    def tt_entries(self) -> int: ...

    @property
    def tt_bytes(self) -> int: ...

def pyramid_solve(position: PyramidPosition, limits: Limits, cancel: CancelToken | None = None) -> PyramidResult: ...

def pyramid_pimc(position: PyramidPosition, unknown: Sequence[int], candidates: Sequence[tuple[int, int, int]], options: PyramidPimcOptions, cancel: CancelToken | None = None) -> SampleTally: ...

def pyramid_legal_moves(position: PyramidPosition) -> list[tuple[int, int, int]]: ...

def pyramid_prune_rule(position: PyramidPosition) -> PyramidPruneRule: ...

def pyramid_forced_moves(position: PyramidPosition) -> list[tuple[int, int, int]]: ...

class KlondikeActionKind(enum.Enum):
    draw = 0

    recycle = 1

    waste_to_foundation = 2

    waste_to_column = 3

    column_to_foundation = 4

    column_to_column = 5

    foundation_to_column = 6

class KlondikePosition:
    def __init__(self, face_down: Sequence[Sequence[int]], face_up: Sequence[Sequence[int]], stock: Sequence[int], waste: Sequence[int], foundation: Sequence[int], max_rank: int) -> None: ...

class KlondikeOptions:
    def __init__(self) -> None: ...

    @property
    def draw_count(self) -> int: ...

    @draw_count.setter
    def draw_count(self, arg: int, /) -> None: ...

    @property
    def safe_foundation_moves(self) -> bool: ...

    @safe_foundation_moves.setter
    def safe_foundation_moves(self, arg: bool, /) -> None: ...

    @property
    def partial_run_rule(self) -> bool: ...

    @partial_run_rule.setter
    def partial_run_rule(self, arg: bool, /) -> None: ...

    @property
    def canonical_lifts(self) -> bool: ...

    @canonical_lifts.setter
    def canonical_lifts(self, arg: bool, /) -> None: ...

    @property
    def dead_end_check(self) -> bool: ...

    @dead_end_check.setter
    def dead_end_check(self, arg: bool, /) -> None: ...

    @property
    def dead_end_in_search(self) -> bool: ...

    @dead_end_in_search.setter
    def dead_end_in_search(self, arg: bool, /) -> None: ...

    @property
    def order_seed(self) -> int: ...

    @order_seed.setter
    def order_seed(self, arg: int, /) -> None: ...

    @property
    def restarts(self) -> bool: ...

    @restarts.setter
    def restarts(self, arg: bool, /) -> None: ...

    @property
    def surely_won_stops(self) -> bool: ...

    @surely_won_stops.setter
    def surely_won_stops(self, arg: bool, /) -> None: ...

class KlondikeResult:
    @property
    def status(self) -> Status: ...

    @property
    def stop_reason(self) -> StopReason: ...

    @property
    def line(self) -> list[tuple[int, int, int, int, int]]: ...

    @property
    def states(self) -> int: ...

    @property
    def seconds(self) -> float: ...

    @property
    def tt_entries(self) -> int: ...

    @property
    def tt_bytes(self) -> int: ...

    @property
    def restarts(self) -> int: ...

    @property
    def tt_saturated(self) -> bool: ...

def klondike_validate(position: KlondikePosition) -> str: ...

def klondike_solve(position: KlondikePosition, options: KlondikeOptions, limits: Limits, cancel: CancelToken | None = None) -> KlondikeResult: ...

def klondike_generated_moves(position: KlondikePosition, draw_count: int, order_seed: int = 0, dominances: bool = True) -> list[list[tuple[int, int, int, int, int]]]: ...

def klondike_forced_move(position: KlondikePosition, draw_count: int) -> list[tuple[int, int, int, int, int]]: ...

def klondike_legal_actions(position: KlondikePosition, draw_count: int) -> list[tuple[int, int, int, int, int]]: ...

def klondike_proved_lost_without_search(position: KlondikePosition, draw_count: int) -> bool: ...

class KlondikeHopOptions:
    def __init__(self, *, draw_count: int = 3, seed: int = 0, states_per_solve: int = 2000, max_samples: int = 32, max_states: int = 0, time_limit_s: float = 0.0, threads: int = 1) -> None: ...

    @property
    def draw_count(self) -> int: ...

    @property
    def seed(self) -> int: ...

    @property
    def states_per_solve(self) -> int: ...

    @property
    def max_samples(self) -> int: ...

    @property
    def max_states(self) -> int: ...

    @property
    def time_limit_s(self) -> float: ...

    @property
    def threads(self) -> int: ...

class KlondikeIsmctsOptions:
    def __init__(self, *, draw_count: int = 3, seed: int = 0, states_per_solve: int = 2000, max_iterations: int = 400, max_states: int = 0, time_limit_s: float = 0.0, exploration: float = 0.5, max_depth: int = 8) -> None: ...

    @property
    def draw_count(self) -> int: ...

    @property
    def seed(self) -> int: ...

    @property
    def states_per_solve(self) -> int: ...

    @property
    def max_iterations(self) -> int: ...

    @property
    def max_states(self) -> int: ...

    @property
    def time_limit_s(self) -> float: ...

    @property
    def exploration(self) -> float: ...

    @property
    def max_depth(self) -> int: ...

class KlondikeHopResult:
    @property
    def tally(self) -> SampleTally: ...

    @property
    def lines(self) -> list[list[tuple[int, int, int, int, int]]]: ...

def klondike_hop(position: KlondikePosition, unknown: Sequence[tuple[int, int]], candidates: Sequence[tuple[int, int, int, int, int]], options: KlondikeHopOptions, cancel: CancelToken | None = None) -> KlondikeHopResult: ...

class KlondikeIsmctsResult:
    @property
    def visits(self) -> list[int]: ...

    @property
    def value_sum(self) -> list[float]: ...

    @property
    def iterations(self) -> int: ...

    @property
    def states(self) -> int: ...

    @property
    def nodes(self) -> int: ...

    @property
    def seconds(self) -> float: ...

    @property
    def stop_reason(self) -> StopReason: ...

def klondike_ismcts(position: KlondikePosition, unknown: Sequence[tuple[int, int]], candidates: Sequence[tuple[int, int, int, int, int]], options: KlondikeIsmctsOptions, cancel: CancelToken | None = None) -> KlondikeIsmctsResult: ...

class KlondikeCommitSchedule(enum.Enum):
    ucb = 0

    halving = 1

    race = 2

class KlondikeCommitOptions:
    def __init__(self, *, draw_count: int = 3, seed: int = 0, cap: int = 1000, cap_per_known: int = 0, worlds_per_candidate: int = 3000, max_worlds: int = 0, exploration: float = 1.0, batch: int = 10, hopeless_worlds: int = 0, time_limit_s: float = 0.0, threads: int = 1, max_closure: int = 4096, schedule: KlondikeCommitSchedule = KlondikeCommitSchedule.ucb, merge: bool = True, race_z: float = 2.0, race_min_worlds: int = 40, surely_won_stops: bool = False) -> None: ...

    @property
    def draw_count(self) -> int: ...

    @property
    def seed(self) -> int: ...

    @property
    def cap(self) -> int: ...

    @property
    def cap_per_known(self) -> int: ...

    @property
    def worlds_per_candidate(self) -> int: ...

    @property
    def max_worlds(self) -> int: ...

    @property
    def exploration(self) -> float: ...

    @property
    def batch(self) -> int: ...

    @property
    def hopeless_worlds(self) -> int: ...

    @property
    def time_limit_s(self) -> float: ...

    @property
    def threads(self) -> int: ...

    @property
    def max_closure(self) -> int: ...

    @property
    def schedule(self) -> KlondikeCommitSchedule: ...

    @property
    def merge(self) -> bool: ...

    @property
    def race_z(self) -> float: ...

    @property
    def race_min_worlds(self) -> int: ...

    @property
    def surely_won_stops(self) -> bool: ...

class KlondikeCommitCandidate:
    @property
    def line(self) -> list[tuple[int, int, int, int, int]]: ...

    @property
    def reveals(self) -> bool: ...

    @property
    def won(self) -> int: ...

    @property
    def lost(self) -> int: ...

    @property
    def cut(self) -> int: ...

class KlondikeCommitResult:
    @property
    def candidates(self) -> list[KlondikeCommitCandidate]: ...

    @property
    def chosen(self) -> int: ...

    @property
    def win_line(self) -> list[tuple[int, int, int, int, int]]: ...

    @property
    def closure(self) -> int: ...

    @property
    def closure_complete(self) -> bool: ...

    @property
    def worlds(self) -> int: ...

    @property
    def states(self) -> int: ...

    @property
    def cap(self) -> int: ...

    @property
    def seconds(self) -> float: ...

    @property
    def stop_reason(self) -> StopReason: ...

    @property
    def hopeless(self) -> bool: ...

def klondike_commit_plan(position: KlondikePosition, unknown: Sequence[tuple[int, int]], options: KlondikeCommitOptions, cancel: CancelToken | None = None) -> KlondikeCommitResult: ...

class KlondikeWorldScoreOptions:
    def __init__(self, *, draw_count: int = 3, seed: int = 0, worlds: int = 200, cap: int = 600, surely_won_stops: bool = True, threads: int = 1) -> None: ...

    @property
    def draw_count(self) -> int: ...

    @property
    def seed(self) -> int: ...

    @property
    def worlds(self) -> int: ...

    @property
    def cap(self) -> int: ...

    @property
    def surely_won_stops(self) -> bool: ...

    @property
    def threads(self) -> int: ...

class KlondikeWorldScores:
    @property
    def won(self) -> list[int]: ...

    @property
    def lost(self) -> list[int]: ...

    @property
    def cut(self) -> list[int]: ...

    @property
    def states(self) -> list[int]: ...

    @property
    def seeds(self) -> list[int]: ...

    @property
    def searches(self) -> int: ...

    @property
    def seconds(self) -> float: ...

def klondike_world_scores(positions: Sequence[KlondikePosition], unknown: Sequence[Sequence[tuple[int, int]]], options: KlondikeWorldScoreOptions) -> KlondikeWorldScores: ...

class KlondikeRefusal(enum.Enum):
    none = 0

    nothing_to_draw = 1

    stock_empty = 2

    stock_not_empty = 3

    waste_empty = 4

    no_card = 5

    face_down = 6

    same_column = 7

    build_down = 8

    king_only = 9

    foundation_order = 10

    game_won = 11

    not_legal_now = 12

class KlondikeOutcome(enum.Enum):
    none = 0

    win = 1

    no_progress = 2

    dead_end = 3

class PyramidRefusal(enum.Enum):
    none = 0

    game_won = 1

    nothing_to_draw = 2

    stock_not_empty = 3

    no_recycles_left = 4

    waste_empty = 5

    no_card = 6

    stock_top_unusable = 7

    covered = 8

    needs_partner = 9

    not_thirteen = 10

class PyramidOutcome(enum.Enum):
    none = 0

    win = 1

    dead_end = 2

class PyramidBuffers:
    def __init__(self, *, obs: Annotated[NDArray[numpy.float32], dict(shape=(None, None), order='C', device='cpu')], mask: Annotated[NDArray[numpy.int8], dict(shape=(None, None), order='C', device='cpu')], reward: Annotated[NDArray[numpy.float64], dict(shape=(None,), order='C', device='cpu')], terminated: Annotated[NDArray[numpy.bool_], dict(shape=(None,), order='C', device='cpu')], truncated: Annotated[NDArray[numpy.bool_], dict(shape=(None,), order='C', device='cpu')], refusal: Annotated[NDArray[numpy.uint8], dict(shape=(None,), order='C', device='cpu')], outcome: Annotated[NDArray[numpy.uint8], dict(shape=(None,), order='C', device='cpu')], was_reset: Annotated[NDArray[numpy.bool_], dict(shape=(None,), order='C', device='cpu')], final_obs: Annotated[NDArray[numpy.float32], dict(shape=(None, None), order='C', device='cpu')], final_mask: Annotated[NDArray[numpy.int8], dict(shape=(None, None), order='C', device='cpu')], counters: dict) -> None: ...

    counter_names: tuple = ('pass_number', 'cards_left')

class PyramidBatch:
    def __init__(self, num_envs: int, stock_top_playable: bool, reward_shaping: bool, max_episode_steps: int, num_threads: int = 1) -> None: ...

    @property
    def num_envs(self) -> int: ...

    def reset_cards(self, index: int, cards: Annotated[NDArray[numpy.uint8], dict(shape=(None,), order='C', device='cpu', writable=False)], buffers: PyramidBuffers) -> None: ...

    def reset_random(self, indices: Annotated[NDArray[numpy.int64], dict(shape=(None,), order='C', device='cpu', writable=False)], numbers: Annotated[NDArray[numpy.int64], dict(shape=(None,), order='C', device='cpu', writable=False)], buffers: PyramidBuffers) -> None: ...

    def step(self, actions: Annotated[NDArray[numpy.int64], dict(shape=(None,), order='C', device='cpu', writable=False)], pending: Annotated[NDArray[numpy.int64], dict(shape=(None,), order='C', device='cpu', writable=False)], autoreset: int, buffers: PyramidBuffers) -> None: ...

    def get_state(self, index: int) -> dict: ...

    def set_state(self, index: int, pyramid_ranks: Sequence[int], stock_ranks: Sequence[int], removed: int, present: int, seen: int, cursor: int, pass_number: int, elapsed: int, needs_reset: bool, buffers: PyramidBuffers) -> None: ...

def random_deal(game: str, number: int) -> list[int]: ...

class KlondikeBuffers:
    def __init__(self, *, obs: Annotated[NDArray[numpy.int64], dict(shape=(None, None), order='C', device='cpu')], mask: Annotated[NDArray[numpy.int8], dict(shape=(None, None), order='C', device='cpu')], reward: Annotated[NDArray[numpy.float64], dict(shape=(None,), order='C', device='cpu')], terminated: Annotated[NDArray[numpy.bool_], dict(shape=(None,), order='C', device='cpu')], truncated: Annotated[NDArray[numpy.bool_], dict(shape=(None,), order='C', device='cpu')], refusal: Annotated[NDArray[numpy.uint8], dict(shape=(None,), order='C', device='cpu')], outcome: Annotated[NDArray[numpy.uint8], dict(shape=(None,), order='C', device='cpu')], was_reset: Annotated[NDArray[numpy.bool_], dict(shape=(None,), order='C', device='cpu')], final_obs: Annotated[NDArray[numpy.int64], dict(shape=(None, None), order='C', device='cpu')], final_mask: Annotated[NDArray[numpy.int8], dict(shape=(None, None), order='C', device='cpu')], counters: dict) -> None: ...

    counter_names: tuple = ('cards_up', 'recycles')

class KlondikeBatch:
    def __init__(self, num_envs: int, draw_count: int, reward_shaping: bool, max_episode_steps: int, num_threads: int = 1) -> None: ...

    @property
    def num_envs(self) -> int: ...

    def reset_cards(self, index: int, cards: Annotated[NDArray[numpy.uint8], dict(shape=(None,), order='C', device='cpu', writable=False)], buffers: KlondikeBuffers) -> None: ...

    def reset_state(self, index: int, columns: Sequence[Sequence[int]], hidden: Sequence[int], stock: Sequence[int], waste: Sequence[int], foundations: Sequence[int], best: Sequence[int], seen: int, recycles: int, draw_count: int, buffers: KlondikeBuffers) -> None: ...

    def reset_random(self, indices: Annotated[NDArray[numpy.int64], dict(shape=(None,), order='C', device='cpu', writable=False)], numbers: Annotated[NDArray[numpy.int64], dict(shape=(None,), order='C', device='cpu', writable=False)], buffers: KlondikeBuffers) -> None: ...

    def step(self, actions: Annotated[NDArray[numpy.int64], dict(shape=(None,), order='C', device='cpu', writable=False)], pending: Annotated[NDArray[numpy.int64], dict(shape=(None,), order='C', device='cpu', writable=False)], autoreset: int, buffers: KlondikeBuffers) -> None: ...

    def get_state(self, index: int) -> dict: ...

    def set_state(self, index: int, columns: Sequence[Sequence[int]], hidden: Sequence[int], stock: Sequence[int], waste: Sequence[int], foundations: Sequence[int], best: Sequence[int], seen: int, recycles: int, draw_count: int, elapsed: int, ended: bool, needs_reset: bool, buffers: KlondikeBuffers) -> None: ...

class InputError(enum.Enum):
    none = 0

    bad_observation = 1

    too_many_actions = 2

    bad_mask = 3

def klondike_policy_inputs(obs: Annotated[NDArray[numpy.int64], dict(shape=(None, None), order='C', device='cpu', writable=False)], mask: Annotated[NDArray[numpy.int8], dict(shape=(None, None), order='C', device='cpu', writable=False)] | None, out: Annotated[NDArray[numpy.float32], dict(shape=(None, None), order='C', device='cpu')]) -> object: ...

def pyramid_policy_inputs(obs: Annotated[NDArray[numpy.float32], dict(shape=(None, None), order='C', device='cpu', writable=False)], mask: Annotated[NDArray[numpy.int8], dict(shape=(None, None), order='C', device='cpu', writable=False)], relaxed: bool, out: Annotated[NDArray[numpy.float32], dict(shape=(None, None), order='C', device='cpu')]) -> object: ...
