"""Typed stub of the compiled module ``solitaire_native`` (built from ``native/bindings.cpp``)."""

import enum

import numpy as np
import numpy.typing as npt

DEFAULT_MAX_MEMORY_BYTES: int
MIN_MAX_MEMORY_BYTES: int

MoveTuple = tuple[int, int, int]
"""``(kind, a, b)``, the fields of :class:`solitaire_rl.envs.pyramid.Move`."""

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

class PyramidPruneRule(enum.Enum):
    none = 0
    rank_count = 1
    buried_partner = 2
    partner_matching = 3
    relaxation = 4

class KlondikeActionKind(enum.Enum):
    draw = 0
    recycle = 1
    waste_to_foundation = 2
    waste_to_column = 3
    column_to_foundation = 4
    column_to_column = 5
    foundation_to_column = 6

class PyramidMoveKind(enum.Enum):
    remove = 0
    draw = 1
    recycle = 2

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

class CancelToken:
    """A flag any thread may set to stop the searches it was passed to."""

    def __init__(self) -> None: ...
    def cancel(self) -> None: ...
    def reset(self) -> None: ...
    @property
    def cancelled(self) -> bool: ...

class Limits:
    time_limit_s: float
    """Wall-clock seconds; 0 or less: none."""
    max_states: int
    """States visited; 0: none."""
    max_memory_bytes: int
    """Peak size of the search's tables."""
    def __init__(self) -> None: ...

class PyramidPosition:
    rows: int
    pyramid: list[int]
    """Rank 1..13 at each position, removed ones included."""
    removed: int
    stock: list[int]
    """Ranks of the stock and waste cards in draw order: waste bottom..top, stock top..bottom."""
    waste_count: int
    pass_number: int
    max_passes: int
    stock_top_playable: bool
    def __init__(self) -> None: ...

class PyramidResult:
    @property
    def status(self) -> Status: ...
    @property
    def stop_reason(self) -> StopReason: ...
    @property
    def line(self) -> list[MoveTuple]: ...
    @property
    def states(self) -> int: ...
    @property
    def seconds(self) -> float: ...
    @property
    def tt_entries(self) -> int: ...
    @property
    def tt_bytes(self) -> int: ...

def pyramid_solve(
    position: PyramidPosition, limits: Limits, cancel: CancelToken | None = None
) -> PyramidResult:
    """Decide a position; releases the GIL while it searches. Raises ValueError if invalid."""

def pyramid_legal_moves(position: PyramidPosition) -> list[MoveTuple]:
    """Every legal move, in the order of ``PyramidGame.legal_moves``."""

def pyramid_prune_rule(position: PyramidPosition) -> PyramidPruneRule:
    """The first pruning rule that proves the position lost, or ``none``."""

def pyramid_forced_moves(position: PyramidPosition) -> list[MoveTuple]:
    """The moves the solver plays at once from the position (Kings, forced pairs)."""

ActionTuple = tuple[int, int, int, int, int]
"""``(kind, src, dst, count, card)``: kinds and fields as :class:`solitaire_rl.envs.klondike.Move` (count of a
draw: cards turned; card: the card moved, or the new waste top of a draw, -1 where unknown)."""

class KlondikePosition:
    """Columns (bottom to end), stock and waste (bottom to top), foundation ranks, max rank."""

    def __init__(
        self,
        face_down: list[list[int]],
        face_up: list[list[int]],
        stock: list[int],
        waste: list[int],
        foundation: list[int],
        max_rank: int,
    ) -> None: ...

class KlondikeOptions:
    draw_count: int
    safe_foundation_moves: bool
    partial_run_rule: bool
    canonical_lifts: bool
    dead_end_check: bool
    dead_end_in_search: bool
    order_seed: int
    """0: the default move order; otherwise shuffled with this seed."""
    restarts: bool
    def __init__(self) -> None: ...

class KlondikeResult:
    @property
    def status(self) -> Status: ...
    @property
    def stop_reason(self) -> StopReason: ...
    @property
    def line(self) -> list[ActionTuple]: ...
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

def klondike_validate(position: KlondikePosition) -> str:
    """Empty when the solver accepts the position, else what is wrong."""

def klondike_solve(
    position: KlondikePosition, options: KlondikeOptions, limits: Limits, cancel: CancelToken | None = None
) -> KlondikeResult:
    """Decide a position; releases the GIL while it searches. Raises ValueError if invalid."""

def klondike_generated_moves(
    position: KlondikePosition, draw_count: int, order_seed: int = 0, dominances: bool = True
) -> list[list[ActionTuple]]:
    """The moves the search tries, in its order, each as atomic actions."""

class SampleTally:
    """What the samples of a planner's decision said of each candidate move."""

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

class KlondikeHopOptions:
    """The options of :func:`klondike_hop`: keywords only, checked when built (ValueError naming
    the option), then read-only."""

    def __init__(
        self, *, draw_count: int = 3, seed: int = 0, states_per_solve: int = 2000, max_samples: int = 32,
        max_states: int = 0, time_limit_s: float = 0.0, threads: int = 1,
    ) -> None: ...
    @property
    def draw_count(self) -> int: ...
    @property
    def seed(self) -> int:
        """0 .. 2**64 - 1."""
    @property
    def states_per_solve(self) -> int:
        """States each sample's solve may enter (>= 1)."""
    @property
    def max_samples(self) -> int:
        """1 .. 2**20."""
    @property
    def max_states(self) -> int:
        """States of the whole decision, 0 for none."""
    @property
    def time_limit_s(self) -> float:
        """Seconds of the whole decision, 0 or less for none (finite)."""
    @property
    def threads(self) -> int:
        """1 .. 256."""

class KlondikeHopResult:
    """A Klondike planner decision: the tallies and each kept sample's winning line."""

    @property
    def tally(self) -> SampleTally: ...
    @property
    def lines(self) -> list[list[ActionTuple]]: ...

def klondike_hop(
    position: KlondikePosition, unknown: list[tuple[int, int]], candidates: list[ActionTuple],
    options: KlondikeHopOptions, cancel: CancelToken | None = None,
) -> KlondikeHopResult:
    """Hindsight-optimisation tallies of the candidates over samples of the unknown places
    (``(column, index)`` of a face-down card, ``(-1, index)`` of a stock card), and each kept
    sample's winning line from the position (empty when not won in budget); releases the GIL."""

class KlondikeIsmctsOptions:
    """The options of :func:`klondike_ismcts`: keywords only, checked when built (ValueError naming
    the option), then read-only."""

    def __init__(
        self, *, draw_count: int = 3, seed: int = 0, states_per_solve: int = 2000, max_iterations: int = 400,
        max_states: int = 0, time_limit_s: float = 0.0, exploration: float = 0.5, max_depth: int = 8,
    ) -> None: ...
    @property
    def draw_count(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def states_per_solve(self) -> int: ...
    @property
    def max_iterations(self) -> int:
        """>= 1."""
    @property
    def max_states(self) -> int:
        """States the leaves' solves may enter, 0 for none."""
    @property
    def time_limit_s(self) -> float: ...
    @property
    def exploration(self) -> float:
        """UCB1's constant (finite, >= 0)."""
    @property
    def max_depth(self) -> int:
        """Moves from the root before a leaf is solved (>= 1)."""

class KlondikeIsmctsResult:
    """An information-set tree search's root statistics."""

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

def klondike_ismcts(
    position: KlondikePosition, unknown: list[tuple[int, int]], candidates: list[ActionTuple],
    options: KlondikeIsmctsOptions, cancel: CancelToken | None = None,
) -> KlondikeIsmctsResult:
    """Information-set Monte-Carlo tree search over the candidates, the solver at the leaves;
    releases the GIL."""

class KlondikeCommitSchedule(enum.Enum):
    """How the commitment planner spends its worlds: UCB1 batch by batch (anytime, for time limits),
    sequential halving over the worlds budget, or a race with paired sign tests."""

    ucb = 0
    halving = 1
    race = 2

class KlondikeCommitOptions:
    """The options of :func:`klondike_commit_plan`: keywords only, checked when built (ValueError
    naming the option), then read-only."""

    def __init__(
        self, *, draw_count: int = 3, seed: int = 0, cap: int = 1000, cap_per_known: int = 0,
        worlds_per_candidate: int = 3000, max_worlds: int = 0, exploration: float = 1.0, batch: int = 10,
        hopeless_worlds: int = 0, time_limit_s: float = 0.0, threads: int = 1, max_closure: int = 4096,
        schedule: KlondikeCommitSchedule = KlondikeCommitSchedule.ucb, merge: bool = True,
        race_z: float = 2.0, race_min_worlds: int = 40,
    ) -> None: ...
    @property
    def draw_count(self) -> int: ...
    @property
    def seed(self) -> int: ...
    @property
    def cap(self) -> int:
        """States each world's search may enter (>= 1); a search cut off there counts as a loss."""
    @property
    def cap_per_known(self) -> int:
        """States added to the cap for each unknown card fewer than 21 (>= 0)."""
    @property
    def worlds_per_candidate(self) -> int:
        """Stop once one candidate has this many worlds (>= 1)."""
    @property
    def max_worlds(self) -> int:
        """Worlds of one decision at most, 0 for none (deterministic budget)."""
    @property
    def exploration(self) -> float:
        """UCB1's constant (finite, >= 0)."""
    @property
    def batch(self) -> int:
        """Worlds a candidate gets each time it is picked (>= 1)."""
    @property
    def hopeless_worlds(self) -> int:
        """Stop once this many worlds were searched without a win (0: never)."""
    @property
    def time_limit_s(self) -> float: ...
    @property
    def threads(self) -> int: ...
    @property
    def max_closure(self) -> int:
        """Positions reachable without a commitment explored at most (>= 1)."""
    @property
    def schedule(self) -> KlondikeCommitSchedule: ...
    @property
    def merge(self) -> bool:
        """Candidates doing the same commitment after other rearrangements are one."""
    @property
    def race_z(self) -> float:
        """The race drops a candidate the leader beats by more than this many standard deviations."""
    @property
    def race_min_worlds(self) -> int:
        """The race drops a candidate that never differed from the leader after this many worlds."""

class KlondikeCommitCandidate:
    """One commitment: its line (moves that take nothing back, then the commitment) and its worlds."""

    @property
    def line(self) -> list[ActionTuple]: ...
    @property
    def reveals(self) -> bool: ...
    @property
    def won(self) -> int: ...
    @property
    def lost(self) -> int: ...
    @property
    def cut(self) -> int:
        """Worlds whose search hit the cap (scored as losses)."""

class KlondikeCommitResult:
    """The commitment planner's candidates, its choice and its counters."""

    @property
    def candidates(self) -> list[KlondikeCommitCandidate]: ...
    @property
    def chosen(self) -> int:
        """Index of the chosen candidate, -1 when there is none."""
    @property
    def win_line(self) -> list[ActionTuple]:
        """A win through moves that show nothing (empty when none was found)."""
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

def klondike_commit_plan(
    position: KlondikePosition, unknown: list[tuple[int, int]], options: KlondikeCommitOptions,
    cancel: CancelToken | None = None,
) -> KlondikeCommitResult:
    """The commitment planner (native/src/klondike/commit_planner.hpp) on the known position, the
    unknown places as for :func:`klondike_hop`; releases the GIL."""

class PyramidPimcOptions:
    """The options of :func:`pyramid_pimc`: keywords only, checked when built (ValueError naming
    the option), then read-only."""

    def __init__(
        self, *, seed: int = 0, states_per_solve: int = 20000, max_samples: int = 32, max_states: int = 0,
        time_limit_s: float = 0.0, threads: int = 1,
    ) -> None: ...
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

def pyramid_pimc(
    position: PyramidPosition, unknown: list[int], candidates: list[MoveTuple], options: PyramidPimcOptions,
    cancel: CancelToken | None = None,
) -> SampleTally:
    """Sample-and-solve tallies of the candidate moves over samples of the unseen stock places
    (indices into the draw order); releases the GIL."""

def klondike_forced_move(position: KlondikePosition, draw_count: int) -> list[ActionTuple]:
    """The step the search plays at once (atomic actions), or an empty list."""

def klondike_legal_actions(position: KlondikePosition, draw_count: int) -> list[ActionTuple]:
    """Every legal atomic action, from the native replayer."""

def klondike_proved_lost_without_search(position: KlondikePosition, draw_count: int) -> bool:
    """Whether the relaxed game proves the position lost."""

# Native batched environments (native/src/pyramid/batch.hpp; used by solitaire_rl.envs.pyramid.vector).

class PyramidBuffers:
    """The caller-owned arrays one batch call writes (C-contiguous, one row per game)."""

    def __init__(
        self,
        obs: npt.NDArray[np.float32],
        mask: npt.NDArray[np.int8],
        reward: npt.NDArray[np.float64],
        terminated: npt.NDArray[np.bool_],
        truncated: npt.NDArray[np.bool_],
        refusal: npt.NDArray[np.uint8],
        outcome: npt.NDArray[np.uint8],
        pass_: npt.NDArray[np.int32],
        cards_left: npt.NDArray[np.int32],
        was_reset: npt.NDArray[np.bool_],
        final_obs: npt.NDArray[np.float32],
        final_mask: npt.NDArray[np.int8],
    ) -> None: ...

class PyramidBatch:
    """``num_envs`` Pyramid games as the Gymnasium env plays them; every call releases the GIL."""

    def __init__(
        self, num_envs: int, stock_top_playable: bool, reward_shaping: bool, max_episode_steps: int,
        num_threads: int = 1,
    ) -> None: ...
    @property
    def num_envs(self) -> int: ...
    def reset_cards(self, index: int, cards: npt.NDArray[np.uint8], buffers: PyramidBuffers) -> None:
        """Deal 52 cards (Pyramid deal order) to one game; ValueError if they are not a deck."""
    def reset_random(
        self, indices: npt.NDArray[np.int64], numbers: npt.NDArray[np.int64], buffers: PyramidBuffers
    ) -> None:
        """Deal ``pyramid-random-v1-{numbers[k]}`` to game ``indices[k]``."""
    def step(
        self, actions: npt.NDArray[np.int64], pending: npt.NDArray[np.int64], autoreset: int,
        buffers: PyramidBuffers,
    ) -> None:
        """One step of every game (autoreset 0: next step, 1: same step, 2: disabled); ValueError on a
        bad action, before any game changes."""

def pyramid_policy_inputs(
    obs: npt.NDArray[np.float32], mask: npt.NDArray[np.int8], relaxed: bool, out: npt.NDArray[np.float32]
) -> tuple[int, int] | None:
    """Write the pyramid-actions rows (``relaxed``: pyramid-actions-relaxed) of ``obs`` and ``mask``
    into ``out``; ``(row, error)`` of the first row refused (1: bad observation, 2: too many legal
    actions, 3: bad mask), else None (native/src/pyramid/policy_inputs.hpp)."""

def random_deal(game: str, number: int) -> list[int]:
    """The 52 cards of ``{game}-random-v1-{number}``, dealt as solitaire_rl.envs.deals deals them."""
