"""``world-bandit``: the Klondike commitment planner as one bot (issue 49).

Decisions are taken only at *commitments*: moves that cannot be taken back (turning up a
face-down card, playing a talon card). Every other move (column and foundation moves, draws and
recycles once the stock is known) only rearranges what the player already sees, so the planner
searches through them: each candidate is a commitment with the shortest line of such moves
leading to it. Each candidate is scored over sampled worlds (the unknown cards dealt at random
over their places) by the exact solver capped at a few hundred states per world, a win counting
only if found within the cap; a UCB1 bandit spends the worlds and the most sampled candidate is
played (:func:`solitaire_native.klondike_commit_plan`, native/src/klondike/commit_planner.hpp). The
budget is fixed: escalating the cap where no candidate wins any world was tried and changed no game
(docs/planners.md: such positions are lost).

The bot follows the chosen line move by move and plans again after the commitment, when a new
card may be known. Before anything else it takes the free pass through the stock (draw until no
stock card is unseen: with unlimited recycles in the same order this costs nothing and shows
every stock card). Once no card is unknown the exact solver's winning line is followed, with every
stretch that comes back to a table cut out and never back to a position the bot has met while
another first move wins (:mod:`solitaire_rl.agents.planner.endgame`; issue 37).

On OpenSpiel's ``Bot`` model: :meth:`CommitmentBot.restart_at` (a new game or a position to take
up), :meth:`CommitmentBot.inform` (a move someone else played), :meth:`CommitmentBot.step`
(observation and legal mask in, a typed :class:`Decision` out; the bot assumes its move is
played). It is also a :class:`~solitaire_rl.agents.base.Player`, so the benchmark plays it.
It never reads a hidden card: what it knows comes from the observation alone
(:mod:`solitaire_rl.agents.planner.knowledge`).
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any, Literal

import gymnasium
import numpy as np

from solitaire_rl.agents.base import Choice, Player, legal_actions
from solitaire_rl.agents.planner.knowledge import (
    KlondikeKnowledge,
    klondike_knowledge,
    visible_after,
    visible_key,
)
from solitaire_rl.agents.registry import require_game
from solitaire_rl.agents.seeding import Seed, new_generator
from solitaire_rl.envs.errors import IllegalMoveError, MalformedInputError
from solitaire_rl.envs.klondike import DRAW_MOVE, KlondikeGame, Move
from solitaire_rl.envs.klondike.actions import ACTION_INDEX, move_of
from solitaire_rl.envs.klondike.observer import observe
from solitaire_rl.envs.spec import GameSpec

DecisionKind = Literal["planned", "following", "stock-pass", "endgame-solved", "forced", "only-move",
                       "no-progress"]
"""What kind of answer a :class:`Decision` is:

* ``planned``: the bandit chose among several commitments (``candidates`` holds their worlds);
* ``following``: the next move of the line chosen at an earlier decision;
* ``stock-pass``: a draw of the free pass through the stock (stock cards still unseen);
* ``endgame-solved``: a move of a line the exact solver proved to win (every card known, or a win
  reachable without turning anything up);
* ``forced``: one commitment only is reachable: no worlds needed;
* ``only-move``: one legal move;
* ``no-progress``: no commitment is reachable and no line wins: any move that can still make progress.
"""

# The shipped budget (docs/planners.md, tuning rows J against D on eval deals 100001-100300): a cap of
# 600 states, 3000 worlds a decision, a world won once surely won; 147 wins against 137 for cap 300
# and 1500 worlds, at 1.75x the CPU time (3.9 s a deal).
DEFAULT_CAP = 600
DEFAULT_WORLDS_PER_CANDIDATE = 3000
DEFAULT_MAX_WORLDS = 3000
DEFAULT_EXPLORATION = 1.0
DEFAULT_BATCH = 10
DEFAULT_HOPELESS_WORLDS = 200
DEFAULT_MAX_CLOSURE = 4096
DEFAULT_SCHEDULE = "race"
ENDGAME_STATES = 1_000_000
"""Budget of the exact solve once no card is unknown."""


@dataclass(frozen=True)
class CandidateReport:
    """One commitment the planner weighed: its line and what the worlds said of it."""

    line: tuple[Move, ...]
    """Moves that take nothing back, then the commitment (the last move)."""
    reveals: bool
    """Whether the commitment shows a card not known before (else it plays a talon card)."""
    won: int
    """Worlds where the capped search found a win after the line."""
    lost: int
    """Worlds proved lost after the line."""
    cut: int
    """Worlds whose search hit the cap (scored as losses)."""

    @property
    def worlds(self) -> int:
        return self.won + self.lost + self.cut

    @property
    def win_share(self) -> float:
        """Share of its worlds won (0 when it has none)."""
        return self.won / self.worlds if self.worlds else 0.0


@dataclass(frozen=True)
class Decision:
    """The bot's answer at one position: the move, why, and the line it follows from here."""

    move: Move
    action: int
    """``move``'s action index in the environment."""
    kind: DecisionKind
    line: tuple[Move, ...]
    """The moves the bot means to play from here, ``move`` first (a single move where it plans
    again next time)."""
    candidates: tuple[CandidateReport, ...] = ()
    """The commitments weighed at the decision that chose ``line`` (empty where none were)."""
    chosen: int | None = None
    """Index of the chosen one in ``candidates``."""
    worlds: int = 0
    """Worlds searched at that decision."""
    cap: int = 0
    """States each world's search could enter there."""
    seconds: float = 0.0
    """Time the decision took (0 for a move of a line already chosen)."""

    @property
    def chosen_candidate(self) -> CandidateReport | None:
        return None if self.chosen is None else self.candidates[self.chosen]


@dataclass(frozen=True)
class _Plan:
    """The rest of a line being followed, and what the player sees where ``moves[0]`` is due."""

    moves: tuple[Move, ...]
    at: bytes
    source: Decision


def _int_option(name: str, value: object, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < low:
        raise MalformedInputError(f"{name} must be an integer of at least {low}, not {value!r}")
    return int(value)


class CommitmentBot(Player):
    """Plays Klondike by commitments scored over capped world searches (module docstring)."""

    name = "world-bandit"

    def __init__(self, variant: GameSpec, *, seed: int = 0, cap: int = DEFAULT_CAP, cap_per_known: int = 0,
                 worlds_per_candidate: int = DEFAULT_WORLDS_PER_CANDIDATE,
                 max_worlds: int | None = DEFAULT_MAX_WORLDS, exploration: float = DEFAULT_EXPLORATION,
                 batch: int = DEFAULT_BATCH, hopeless_worlds: int = DEFAULT_HOPELESS_WORLDS,
                 time_limit: float | None = None, threads: int = 1,
                 max_closure: int = DEFAULT_MAX_CLOSURE, endgame_states: int = ENDGAME_STATES,
                 schedule: str = DEFAULT_SCHEDULE, merge: bool = True, race_z: float = 2.0,
                 race_min_worlds: int = 40, surely_won_stops: bool = True) -> None:
        require_game(self.name, variant)
        self.variant = variant
        self.draw_count = int(variant.env_kwargs.get("draw_count", 3))
        self.seed = _int_option("seed", seed, 0)
        self.endgame_states = _int_option("endgame_states", endgame_states, 1)
        if max_worlds is None and time_limit is None:
            raise MalformedInputError("give the bot a budget: max_worlds, time_limit or both")
        if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, int | float)
                                       or not 0 < time_limit < float("inf")):
            raise MalformedInputError(f"time_limit must be a positive number of seconds, not {time_limit!r}")
        self.time_limit = None if time_limit is None else float(time_limit)
        from solitaire_rl.agents.solver import _native

        if schedule not in ("ucb", "halving", "race"):
            raise MalformedInputError(f"schedule must be 'ucb', 'halving' or 'race', not {schedule!r}")
        try:  # the native options check every range (ValueError naming the option)
            self.options = _native.KlondikeCommitOptions(
                draw_count=self.draw_count, cap=cap, cap_per_known=cap_per_known,
                worlds_per_candidate=worlds_per_candidate, max_worlds=max_worlds or 0,
                exploration=exploration, batch=batch, hopeless_worlds=hopeless_worlds, threads=threads,
                max_closure=max_closure,
                schedule=getattr(_native.KlondikeCommitSchedule, schedule), merge=bool(merge), race_z=race_z,
                race_min_worlds=race_min_worlds, surely_won_stops=bool(surely_won_stops))
        except (TypeError, ValueError) as exc:
            raise MalformedInputError(str(exc)) from None
        self._next_rng: np.random.Generator | None = None
        self.restart()

    # ------------------------------------------------------------------ OpenSpiel's Bot model
    def restart(self) -> None:
        """Forget the game: the line followed, the positions met, the generator."""
        self._plan: _Plan | None = None
        self._endgame: tuple[Move, ...] = ()
        self._rng: np.random.Generator | None = self._next_rng
        self._next_rng = None
        self.visits: Counter[bytes] = Counter()
        self.decision_seconds: list[float] = []
        self.last_decision: Decision | None = None

    def restart_at(self, game: KlondikeGame) -> None:
        """Take up ``game`` where it stands (only what a player sees of it is read, now and at each
        earlier position of its line: those count as met, so the endgame's line never leads back to
        one, also after an undo)."""
        if not isinstance(game, KlondikeGame):
            raise MalformedInputError(f"restart_at takes a KlondikeGame, not {type(game).__name__}")
        if game.draw_count != self.draw_count:
            raise MalformedInputError(
                f"the bot plays draw {self.draw_count}, the game draw {game.draw_count}")
        self.restart()
        walk = game.copy()
        while walk.moves_played:  # the positions the player met on the way here (step counts this one)
            walk.pop()
            self.visits[visible_key(observe(walk))] += 1
        deal = game.deal
        if self._rng is None and game.moves_played == 0 and deal is not None and deal.deal_id is not None \
                and deal.deal_id.kind == "random":
            # Deal N from its start: the worlds the benchmark's deal N gets (it reseeds with
            # [seed, N]), so that the page's hints are the benchmark bot's moves.
            self._rng = new_generator([self.seed, deal.deal_id.number])

    def inform(self, move: Move) -> None:
        """``move`` was played by someone else: the line followed holds only if it was its next move."""
        if not isinstance(move, Move):
            raise MalformedInputError(f"inform takes a Move, not {type(move).__name__}")
        plan = self._plan
        if plan is None or plan.moves[0] != move:
            self._plan = None
            return
        self._plan = None  # step() takes the rest up again where the position matches
        if len(plan.moves) > 1:
            self._plan = _Plan(plan.moves[1:], b"", plan.source)

    def reseed(self, seed: Seed) -> None:
        """Draw the worlds' seeds of the next game from ``numpy.random.default_rng(seed)``."""
        self._next_rng = new_generator(seed)
        self._rng = new_generator(seed)

    def step(self, observation: np.ndarray, mask: np.ndarray, *, cancel: Any = None,
             time_limit: float | None = None) -> Decision:
        """The move for the position of ``observation`` (``mask``: the legal actions); the bot then
        assumes it is played. ``time_limit`` overrides the bot's own for this decision."""
        start = time.perf_counter()
        mask = np.asarray(mask, dtype=bool)
        legal = legal_actions(mask)
        knowledge = klondike_knowledge(observation, self.draw_count)
        here = visible_key(observation)
        self.visits[here] += 1
        if self._rng is None:  # one generator per game, from the seed and what the deal shows
            digest = hashlib.sha256(here).digest()
            self._rng = new_generator([self.seed, int.from_bytes(digest[:8], "little")])
        decision = self._decide(knowledge, here, mask, legal, cancel, time_limit)
        if not mask[decision.action]:
            raise IllegalMoveError(f"{self.name} chose {decision.move}, which is not legal here",
                                   decision.action)
        self._keep(knowledge.game, decision)
        self.last_decision = decision
        self.decision_seconds.append(time.perf_counter() - start)
        return decision

    # ------------------------------------------------------------------ the Player protocol
    def reset(self, env: gymnasium.Env) -> None:
        self.restart()

    def choose(self, observation: np.ndarray, mask: np.ndarray, info: dict[str, Any]) -> Choice:
        decision = self.step(observation, mask)
        return Choice(decision.action, decision.kind)

    # ------------------------------------------------------------------ the decision
    def _keep(self, game: KlondikeGame, decision: Decision) -> None:
        """Keep the rest of ``decision``'s line while it shows nothing new."""
        rest = decision.line[1:]
        after = visible_after(game, decision.move) if rest else None
        self._plan = _Plan(rest, after, decision) if rest and after is not None else None

    def _decide(self, knowledge: KlondikeKnowledge, here: bytes, mask: np.ndarray, legal: np.ndarray,
                cancel: Any, time_limit: float | None) -> Decision:
        game = knowledge.game
        plan = self._plan
        if plan is not None and plan.at in (here, b"") and mask[ACTION_INDEX[plan.moves[0]]]:
            move = plan.moves[0]
            src = plan.source
            kind: DecisionKind = "endgame-solved" if src.kind == "endgame-solved" else "following"
            return Decision(move, ACTION_INDEX[move], kind, plan.moves, src.candidates, src.chosen,
                            src.worlds, src.cap)
        self._plan = None
        if legal.size == 1:
            move = move_of(game, int(legal[0]))
            return Decision(move, int(legal[0]), "only-move", (move,))
        unseen_stock = any(column < 0 for column, _ in knowledge.unknown)
        if unseen_stock and game.stock and mask[ACTION_INDEX[DRAW_MOVE]]:
            return Decision(DRAW_MOVE, ACTION_INDEX[DRAW_MOVE], "stock-pass", (DRAW_MOVE,))
        start = time.perf_counter()
        if knowledge.all_known:
            line = self._solve(knowledge, cancel)
            if line and mask[ACTION_INDEX[line[0]]]:
                return Decision(line[0], ACTION_INDEX[line[0]], "endgame-solved", line,
                                seconds=time.perf_counter() - start)
        return self._plan_commitment(knowledge, mask, legal, cancel, time_limit, start)

    def _solve(self, knowledge: KlondikeKnowledge, cancel: Any = None) -> tuple[Move, ...]:
        """The solver's winning line when every card is known, with its loops cut out and never
        back to a position the bot has met while another first move wins
        (:func:`~solitaire_rl.agents.planner.endgame.endgame_line`, within ``endgame_states`` states
        and no time limit: the same line on the page and in the benchmark); empty when none was found."""
        from solitaire_rl.agents.planner.endgame import endgame_line

        line = endgame_line(knowledge.game, self.visits, max_states=self.endgame_states, cancel=cancel)
        return line or ()

    def _plan_commitment(self, knowledge: KlondikeKnowledge, mask: np.ndarray, legal: np.ndarray, cancel: Any,
                         time_limit: float | None, start: float) -> Decision:
        from solitaire_rl.agents.solver import _native
        from solitaire_rl.agents.solver.klondike import native_move

        assert self._rng is not None
        options = self.options
        limit = self.time_limit if time_limit is None else time_limit
        seed = int(self._rng.integers(2**63))
        if seed != options.seed or (limit or 0.0) != options.time_limit_s:
            options = _native.KlondikeCommitOptions(
                draw_count=options.draw_count, seed=seed, cap=options.cap,
                cap_per_known=options.cap_per_known,
                worlds_per_candidate=options.worlds_per_candidate, max_worlds=options.max_worlds,
                exploration=options.exploration, batch=options.batch, hopeless_worlds=options.hopeless_worlds,
                time_limit_s=limit or 0.0, threads=options.threads, max_closure=options.max_closure,
                schedule=options.schedule,
                merge=options.merge, race_z=options.race_z, race_min_worlds=options.race_min_worlds,
                surely_won_stops=options.surely_won_stops)
        position = knowledge.position.to_native()
        result = _native.klondike_commit_plan(position, list(knowledge.unknown), options, cancel)
        seconds = time.perf_counter() - start
        if result.win_line:
            line = tuple(native_move(a) for a in result.win_line)
            return Decision(line[0], ACTION_INDEX[line[0]], "endgame-solved", line, seconds=seconds)
        reports = tuple(CandidateReport(tuple(native_move(a) for a in c.line), bool(c.reveals), int(c.won),
                                        int(c.lost), int(c.cut)) for c in result.candidates)
        if result.chosen < 0:
            return self._no_progress(knowledge.game, legal, seconds)
        chosen = reports[result.chosen]
        kind: DecisionKind = "forced" if len(reports) == 1 else "planned"
        move = chosen.line[0]
        return Decision(move, ACTION_INDEX[move], kind, chosen.line, reports, int(result.chosen),
                        int(result.worlds), int(result.cap), seconds)

    def _no_progress(self, game: KlondikeGame, legal: np.ndarray, seconds: float) -> Decision:
        """No commitment reachable, no win in reach: a move that makes progress if one does, else
        the move to the position met least often."""
        moves = [move_of(game, int(a)) for a in legal]
        progress = [m for m in moves if game.is_progress(m)]
        if progress:
            move = progress[0]
        else:
            def met(m: Move) -> int:
                after = visible_after(game, m)
                return 0 if after is None else self.visits[after]

            move = min(moves, key=met)
        return Decision(move, ACTION_INDEX[move], "no-progress", (move,), seconds=seconds)


def observe_game(game: KlondikeGame) -> tuple[np.ndarray, np.ndarray]:
    """What a player is shown of ``game``: its observation and legal-action mask (for driving the
    bot without an environment, as the page and tests do)."""
    from solitaire_rl.envs.klondike.actions import NUM_ACTIONS, legal_actions_in

    mask = np.zeros(NUM_ACTIONS, dtype=bool)
    mask[list(legal_actions_in(game))] = True
    return observe(game), mask


__all__ = ["DEFAULT_CAP", "DEFAULT_MAX_WORLDS", "CandidateReport", "CommitmentBot", "Decision",
           "DecisionKind", "observe_game"]
