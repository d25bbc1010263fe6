"""The ``hop`` player for Klondike: hindsight optimisation over what the player has seen.

For each legal move it asks how often the move leaves a winnable game across samples of the
unknown cards (the face-down cards and the never-seen stock cards, one set shuffled over their
places; every seen card stays where it is known to be). Each sample is solved by the exact
native solver under a small state budget; a search that runs out counts half, never as a loss.
The loop runs natively (:func:`solitaire_native.klondike_hop`: one call a decision, the GIL
released, samples spread over threads) and stops at a budget of states (the same answer on
every machine) or of time (the play page).

Moves within about one standard error of the best value tie (:func:`tie_margin`); that is most
of them while most samples are winnable. Ties go, in this order
(:func:`~solitaire_rl.agents.planner.ranking.rank_key`,
whose key names each part), to the move that
0. goes on with the line being followed: after a move, the rest of a sampled winning line that
   starts with it, until a move shows a card not known before (:meth:`HopPlayer.follow`); with
   ``search="tree"`` (the ``ismcts`` player), then to the moves an information-set tree search
   (:func:`tree_values`) visits most;
1. most samples' winning lines start with, when it is a majority of the samples (a vote);
2. does not lead back to a position the player has already seen in this game (so following the
   planner does not go round in circles);
3. makes progress (:meth:`solitaire_rl.envs.klondike.KlondikeGame.is_progress`), when the current position
   has been met before;
4. has the most votes, then the tie-break player's preference: ``greedy``'s score, the trained
   ``ppo`` policy's probability (``prior="ppo"``) or the expert network's (``prior="expert"``:
   the ``guided-ismcts`` player), then the higher value.
A position met :data:`LOOP_VISITS` times means play goes round in circles: progress comes first
then, and :attr:`HopPlayer.looping` says so.

The player keeps its own state: its generator (:meth:`HopPlayer.reseed`), the line it follows
(:attr:`HopPlayer.planned_line`, an immutable :class:`PlannedLine` that another player of the same
game takes up with :meth:`HopPlayer.resume`), the positions met.

Two cases need no sampling: a safe move to a foundation (the solver's own forced step, which
loses no win whatever the unknown cards are; not while a line is followed, nor right after that
card came down from its foundation) and, once no card is unknown, the solver's winning line with
its loops cut out and never back to a position met while another first move wins
(:func:`~solitaire_rl.agents.planner.endgame.endgame_line`), which is then followed to the end.

**As a bot** (OpenSpiel's ``Bot`` model, as the play page's hints drive it, one player kept per
game): :meth:`HopPlayer.restart_at` takes up a game where it stands (every position of its line
met, as the player saw it), and :meth:`HopPlayer.step` answers a typed :class:`HopStep` and
assumes its move is played. ``step`` also finds the way out of a loop: at a position met
:data:`LOOP_VISITS` times, the planner's move if it makes progress, else the first move of the
shortest line of known-card moves that ends in progress
(:func:`~solitaire_rl.agents.planner.escape.way_to_progress`, whose rest is then followed), and
``looping`` (no move) only when there is none. :meth:`HopPlayer.choose` (the benchmark's
:class:`~solitaire_rl.agents.base.Player` protocol) plays as before, without the way out.

It never reads a hidden card: everything comes from the observation
(:mod:`solitaire_rl.agents.planner.knowledge`).
"""

from __future__ import annotations

import time
import zlib
from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

import gymnasium
import numpy as np

from solitaire_rl.agents.base import Choice, Player, game_of, legal_actions
from solitaire_rl.agents.greedy.klondike import KlondikeGreedy, KlondikeView, score_klondike_action
from solitaire_rl.agents.planner import NO_SAMPLE, SearchRecord
from solitaire_rl.agents.planner.endgame import endgame_line
from solitaire_rl.agents.planner.escape import way_to_progress
from solitaire_rl.agents.planner.guide import DEFAULT_GUIDE_SAMPLES, klondike_afterstate_win_chances
from solitaire_rl.agents.planner.knowledge import (
    KlondikeKnowledge,
    klondike_knowledge,
    visible_after,
    visible_key,
)
from solitaire_rl.agents.planner.ranking import LOOP_VISITS, Candidate, rank_key
from solitaire_rl.agents.planner.sampling import (
    DEFAULT_DECISION_STATES,
    DEFAULT_MAX_SAMPLES,
    DEFAULT_STATES_PER_SOLVE,
    MoveValues,
    TreeValues,
    hop_values,
    tie_margin,
    tree_values,
)
from solitaire_rl.agents.registry import require_game
from solitaire_rl.agents.seeding import Seed, new_generator
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike import KlondikeGame
from solitaire_rl.envs.klondike.actions import ACTION_INDEX, move_of
from solitaire_rl.envs.klondike.moves import COLUMN_FOUNDATION, FOUNDATION_COLUMN, Move
from solitaire_rl.envs.klondike.observer import observe
from solitaire_rl.envs.spec import GameSpec

ENDGAME_STATES = 500_000
"""Budget of the exact solves of the endgame line once every card is known."""
ENDGAME_REASON = "every card is known: the solver's winning line"
WAY_OUT = "this position has come up before: this move leads on to something new"
"""The reason of a way out of a loop (:meth:`HopPlayer.step`)."""
ESCAPE_TIME = 0.5
"""Seconds the search for a way out of a loop may take (besides its bound on positions)."""
HopKind = Literal["only-move", "endgame-solved", "safe-step", "planned", "late", "way-out", "looping"]
"""What kind of answer a :class:`HopStep` is:

* ``only-move``: one legal move;
* ``endgame-solved``: the next move of the solver's winning line (every card known);
* ``safe-step``: a card put up that no card can need any more (no sampling);
* ``planned``: the move that won most samples, after the tie-breaks;
* ``late``: no sample finished in time: the move is only the tie-break player's;
* ``way-out``: play keeps coming back here: a move that leads on to progress;
* ``looping``: play keeps coming back here and no line of known-card moves leads to progress
  (no move).
"""
TREE_NEAR = 0.7
"""With the tree search, moves visited at least this share of the most visited one's count tie."""


@dataclass(frozen=True)
class PlannedLine:
    """The rest of a sampled winning line being followed: ``moves[0]`` is the next move, to be
    played where the player sees ``at`` (a :func:`~solitaire_rl.agents.planner.knowledge.visible_key`)."""

    moves: tuple[Move, ...]
    at: bytes

    def __post_init__(self) -> None:
        if not self.moves or not all(isinstance(m, Move) for m in self.moves):
            raise MalformedInputError("a planned line is a non-empty tuple of moves")
        if not isinstance(self.at, bytes):
            raise MalformedInputError("a planned line's place is what the player sees there, as bytes")


@dataclass(frozen=True)
class HopStep:
    """The player's answer at one position (:meth:`HopPlayer.step`)."""

    kind: HopKind
    choice: Choice | None
    """The move and the planner's reason for it; ``None`` for ``looping``."""


@dataclass(frozen=True)
class Decision:
    """What the player knows at one decision, computed once."""

    observation: np.ndarray
    mask: np.ndarray
    legal: np.ndarray
    knowledge: KlondikeKnowledge
    here: bytes
    """What the player sees (:func:`~solitaire_rl.agents.planner.knowledge.visible_key`)."""
    met: int
    """Times the player has met this position."""

    @property
    def game(self) -> KlondikeGame:
        return self.knowledge.game

    @cached_property
    def view(self) -> KlondikeView:
        """The observation decoded for the greedy player's score."""
        return KlondikeView(self.observation)


def shown_cards(game: KlondikeGame) -> set[int]:
    """The cards face up in ``game``'s position: column cards, the waste, the foundations."""
    cards = set(game.waste) | set(game.foundation_cards())
    for column, hidden in zip(game.columns, game.hidden, strict=True):
        cards.update(column[hidden:])
    return cards


def safe_step(knowledge: KlondikeKnowledge) -> Move | None:
    """A column card that the solver would put up at once (safe whatever the unknown cards are)."""
    from solitaire_rl.agents.solver.klondike import klondike_forced_move

    forced = klondike_forced_move(knowledge.position, knowledge.game.draw_count)
    if forced and forced[0][0] == COLUMN_FOUNDATION:
        return Move(COLUMN_FOUNDATION, forced[0][1])
    return None


class HopPlayer(Player):
    """Plays the move that wins in most samples of the unknown cards (see the module docstring)."""

    name = "hop"
    _planned: PlannedLine | None
    """The line being followed (:attr:`planned_line`)."""

    def __init__(self, variant: GameSpec, *, seed: Seed = None,
                 states_per_solve: int = DEFAULT_STATES_PER_SOLVE, max_samples: int = DEFAULT_MAX_SAMPLES,
                 max_states: int | None = DEFAULT_DECISION_STATES, time_limit: float | None = None,
                 threads: int = 1, prior: str = "greedy", search: str = "hop", tree_iterations: int = 100,
                 tree_states_per_solve: int = 1_000, tree_depth: int = 8,
                 expert_checkpoint: str | Path | None = None, guide: str = "policy", guide_rank: str = "late",
                 guide_samples: int = DEFAULT_GUIDE_SAMPLES, stock_known: bool = False,
                 expert_network: Any = None, position_seeded: bool = False) -> None:
        """``position_seeded``: every decision draws its samples from a generator seeded by the
        observation (``zlib.crc32``), so the same position gets the same answer whatever was
        played before (the play page's hints); else from the game's generator (:meth:`reseed`)."""
        require_game(self.name, variant)
        if states_per_solve < 1 or max_samples < 1 or threads < 1:
            raise MalformedInputError("states_per_solve, max_samples and threads must be positive")
        if max_states is None and time_limit is None:
            raise MalformedInputError("give the planner a budget: max_states, time_limit or both")
        if prior not in ("greedy", "ppo", "expert"):
            raise MalformedInputError(f"prior must be 'greedy', 'ppo' or 'expert', not {prior!r}")
        if guide not in ("policy", "value") or guide_rank not in ("late", "early"):
            raise MalformedInputError(f"guide must be 'policy' or 'value' and guide_rank 'late' or 'early', "
                                      f"not {guide!r} and {guide_rank!r}")
        if guide_samples < 1:
            raise MalformedInputError("guide_samples must be positive")
        if guide == "value" and prior != "expert":
            raise MalformedInputError("guide='value' rates moves by the expert network: give prior='expert'")
        self.guide, self.guide_rank, self.guide_samples = guide, guide_rank, guide_samples
        self.stock_known = bool(stock_known)
        """The *stock known* setting: the planner reads the stock's order from the game it plays
        (face-down cards stay unknown), as lonelybot and OpenSpiel's solitaire see it."""
        self._env: gymnasium.Env | None = None
        self.variant = variant
        self._rng = new_generator(seed)
        """Draws each decision's sampling seed (:meth:`reseed`: the benchmark seeds it per deal)."""
        self.position_seeded = bool(position_seeded)
        self.states_per_solve, self.max_samples = states_per_solve, max_samples
        self.max_states, self.time_limit, self.threads = max_states, time_limit, threads
        self.draw_count = int(variant.env_kwargs.get("draw_count", 3))
        self.prior = prior
        if search not in ("hop", "tree"):
            raise MalformedInputError(f"search must be 'hop' or 'tree', not {search!r}")
        self.search = search
        self.tree_iterations, self.tree_states_per_solve, self.tree_depth = (
            tree_iterations, tree_states_per_solve, tree_depth)
        self._ppo: Any = None
        if prior == "ppo":
            from solitaire_rl.agents.ppo import PpoPlayer

            self._ppo = PpoPlayer(variant, deterministic=True)
        self._expert: Any = None
        if prior == "expert":
            from solitaire_rl.agents.expert.player import ExpertNetwork, check_network_variant

            # a loaded network may be handed in (the play server keeps one for every hint)
            check_network_variant(expert_network, variant)
            self._expert = expert_network or ExpertNetwork(variant, expert_checkpoint)
        self._greedy = KlondikeGreedy()
        self.reset_memory()

    def reseed(self, seed: Seed) -> None:
        """Draw the sampling seeds from ``numpy.random.default_rng(seed)`` from now on."""
        self._rng = new_generator(seed)

    @property
    def planned_line(self) -> PlannedLine | None:
        """The rest of the sampled winning line being followed (see :meth:`follow`), if any."""
        return self._planned

    def resume(self, line: PlannedLine) -> None:
        """Follow ``line`` (a :attr:`planned_line` kept from an earlier player of the same game,
        as the play page's hints do between requests)."""
        if not isinstance(line, PlannedLine):
            raise MalformedInputError(f"resume takes a PlannedLine, not {type(line).__name__}")
        self._planned = line

    def reset_memory(self) -> None:
        """Forget the game: the positions seen, the line followed and the endgame line."""
        self.visits: Counter[bytes] = Counter()
        self._endgame_line: list[Move] = []
        self._endgame_at: bytes | None = None
        """What the player sees where ``_endgame_line[0]`` is to be played."""
        self._planned = None
        self._last_move: Move | None = None
        self._decided_in: KlondikeGame | None = None
        """The position (as the player knows it) of the last :meth:`plan`."""
        self.looping = False
        """Whether the last position planned for had been met :data:`LOOP_VISITS` times."""
        self._kind: HopKind = "planned"
        """What kind of answer the last decision was."""
        self.decision_seconds: list[float] = []
        self.last_search: SearchRecord | None = None
        """What the last :meth:`plan`'s search said (``None`` when it decided without one)."""
        self._greedy.reset()

    def reset(self, env: gymnasium.Env) -> None:
        self._env = env
        self.reset_memory()

    def knowledge(self, observation: np.ndarray) -> KlondikeKnowledge:
        """What the player knows of the position of ``observation`` (and, in the stock known
        setting, the stock's order, read from the game played)."""
        if not self.stock_known:
            return klondike_knowledge(observation, self.draw_count)
        if self._env is None:
            raise MalformedInputError("reset(env) first: with stock_known the planner reads the game's stock")
        return klondike_knowledge(observation, self.draw_count, list(game_of(self._env).stock))

    def remember(self, observation: np.ndarray) -> None:
        """Count the position of ``observation`` as met (``choose`` does it for the positions it sees)."""
        self.visits[visible_key(observation)] += 1

    def recall(self, game: KlondikeGame) -> None:
        """Take in ``game``'s line of play so far, as if this player had played it: every position
        met is remembered as it looked then (a hint then never leads back to one). Only the
        moves and what they showed are read, never a hidden card."""
        walk = game.copy()
        history = []
        while walk.moves_played:
            history.append(walk.pop())
        # Knowledge as it grew along the line: what the start showed, then what each move showed
        # (undo keeps ``seen``, so the start would otherwise show cards seen only later).
        walk.seen = sum(1 << card for card in shown_cards(walk))
        self.reset_memory()
        for move in reversed(history):
            observation = observe(walk)
            self.remember(observation)
            self._greedy.look(KlondikeView(observation))
            self._greedy.played(ACTION_INDEX[move])
            walk.push(move)
            self._last_move = move

    # ------------------------------------------------------------------ OpenSpiel's Bot model
    def restart_at(self, game: KlondikeGame) -> None:
        """Take up ``game`` where it stands, as if this player had played its line (:meth:`recall`:
        only the moves and what they showed are read). The line being followed, and the endgame
        line, are kept when they go on from where the game stands."""
        if not isinstance(game, KlondikeGame):
            raise MalformedInputError(f"restart_at takes a KlondikeGame, not {type(game).__name__}")
        if game.draw_count != self.draw_count:
            raise MalformedInputError(
                f"the player plays draw {self.draw_count}, the game draw {game.draw_count}")
        here = visible_key(observe(game))
        planned = self._planned if self._planned is not None and self._planned.at == here else None
        endgame = list(self._endgame_line) if self._endgame_at == here else []
        self.recall(game)
        self._planned = planned
        if endgame:
            self._endgame_line, self._endgame_at = endgame, here

    def step(self, observation: np.ndarray, mask: np.ndarray, *, cancel: Any = None,
             time_limit: float | None = None) -> HopStep:
        """The answer for the position of ``observation`` (``mask``: the legal actions), counted as
        met; the player then assumes its move is played. Where play keeps coming back
        (:data:`LOOP_VISITS`), the way out of the loop (module docstring). ``time_limit``
        overrides the player's own for this decision."""
        start = time.perf_counter()
        now = self.decision(observation, mask, meet=True)
        choice = self._decide(now, cancel, time_limit)
        kind = self._kind
        if self.looping and kind != "endgame-solved":
            if kind != "late" and now.game.is_progress(move_of(now.game, choice.action)):
                choice, kind = Choice(choice.action, WAY_OUT), "way-out"
            else:
                line = way_to_progress(now.game, time_limit=ESCAPE_TIME)
                if not line:
                    self._planned = None
                    self.decision_seconds.append(time.perf_counter() - start)
                    return HopStep("looping", None)
                after = visible_after(now.game, line[0]) if len(line) > 1 else None
                self._planned = PlannedLine(tuple(line[1:]), after) if after is not None else None
                choice, kind = Choice(ACTION_INDEX[line[0]], WAY_OUT), "way-out"
        self._greedy.look(now.view)
        self._greedy.played(choice.action)
        self._last_move = move_of(now.game, choice.action)
        self.decision_seconds.append(time.perf_counter() - start)
        return HopStep(kind, choice)

    # ------------------------------------------------------------------ the Player protocol
    def choose(self, observation: np.ndarray, mask: np.ndarray, info: dict[str, Any]) -> Choice:
        start = time.perf_counter()
        now = self.decision(observation, mask, meet=True)
        self._greedy.look(now.view)
        choice = self._decide(now)
        self._greedy.played(choice.action)
        if self._decided_in is not None:  # plan() set it
            self._last_move = move_of(self._decided_in, choice.action)
        self.decision_seconds.append(time.perf_counter() - start)
        return choice

    # ------------------------------------------------------------------ the decision
    def decision(self, observation: np.ndarray, mask: np.ndarray, *, meet: bool = False) -> Decision:
        """What the player knows of the position of ``observation`` (``meet``: count it as met first)."""
        here = visible_key(observation)
        if meet:
            self.visits[here] += 1
        return Decision(observation, mask, legal_actions(mask), self.knowledge(observation), here,
                        self.visits[here])

    def plan(self, observation: np.ndarray, mask: np.ndarray, cancel: Any = None,
             time_limit: float | None = None) -> Choice:
        """The move for the position of ``observation`` (without counting it as met)."""
        return self._decide(self.decision(observation, mask), cancel, time_limit)

    def _decide(self, now: Decision, cancel: Any = None, time_limit: float | None = None) -> Choice:
        """The move for the position ``now``."""
        self.last_search = None
        self.looping = now.met >= LOOP_VISITS
        if self.position_seeded:
            self._rng = new_generator(zlib.crc32(now.observation.tobytes()))
        game = self._decided_in = now.game
        line = self._planned
        planned = line.moves[0] if line is not None and line.at == now.here else None
        if planned is not None and not now.mask[ACTION_INDEX[planned]]:
            planned = None
        if planned is None:
            self._planned = None
        legal = now.legal
        if legal.size == 1:
            self.follow(game, int(legal[0]), ())
            self._kind = "only-move"
            return Choice(int(legal[0]), "the only legal move")
        if now.knowledge.all_known:
            line_choice = self._endgame(now, time_limit)
            if line_choice is not None:
                self._kind = "endgame-solved"
                return line_choice
        safe = safe_step(now.knowledge)
        if (safe is not None and now.mask[ACTION_INDEX[safe]] and planned in (None, safe)
                and not self._just_came_down(safe)):
            self.follow(game, ACTION_INDEX[safe], ())
            self._kind = "safe-step"
            return Choice(ACTION_INDEX[safe], "safe to put up: no card can need it any more")
        limit = self.time_limit if time_limit is None else time_limit
        values = hop_values(
            now.knowledge, legal, seed=int(self._rng.integers(2**63)),
            states_per_solve=self.states_per_solve, max_samples=self.max_samples,
            max_states=self.max_states, time_limit=limit, threads=self.threads, cancel=cancel,
        )
        tree = None
        if self.search == "tree" and values.samples:
            near = values.actions[values.values >= values.values.max() - tie_margin(values.samples)]
            following = planned is not None and ACTION_INDEX[planned] in near
            left = None if limit is None else limit - values.seconds  # the tree gets what time is left
            if near.size > 1 and not following and (left is None or left > 0.01):
                # the tree search decides among the moves hindsight cannot tell apart
                tree = tree_values(now.knowledge, near, seed=int(self._rng.integers(2**63)),
                                   states_per_solve=self.tree_states_per_solve,
                                   iterations=self.tree_iterations, time_limit=left,
                                   max_depth=self.tree_depth, cancel=cancel)
        choice = self.pick(now, values, planned, tree)
        visits = np.zeros(len(legal))
        if tree is not None:
            visits[np.searchsorted(legal, tree.actions)] = tree.visits
        self.last_search = SearchRecord(legal, values.won, values.lost, values.unknown, values.first, visits,
                                        values.samples)
        self.follow(game, choice.action, values.lines)
        self._kind = "planned" if values.samples else "late"
        return choice

    def follow(self, game: KlondikeGame, action: int, lines: tuple[tuple[Move, ...], ...]) -> None:
        """Keep the line being followed after ``action``: its rest when ``action`` is its next move,
        else the rest of a sampled winning line that starts with ``action``. A line ends where a
        move shows a card not known before (the samples' lines part ways there)."""
        move = move_of(game, action)
        line = self._planned
        if line is not None and line.moves[0] == move:
            rest = line.moves[1:]
        else:
            rest = next((tuple(sampled[1:]) for sampled in lines if sampled and sampled[0] == move), ())
        after = visible_after(game, move)
        self._planned = PlannedLine(rest, after) if rest and after is not None else None

    def _just_came_down(self, safe: Move) -> bool:
        """Whether the last move brought ``safe``'s card down from its foundation (so that a card
        can be put on it): putting it straight back would undo that."""
        last = self._last_move
        return last is not None and last.kind == FOUNDATION_COLUMN and last.dst == safe.src

    def candidates(self, now: Decision, values: MoveValues, planned: Move | None = None,
                   tree: TreeValues | None = None) -> list[Candidate]:
        """What the player knows of each of ``values``' actions (``planned``: the next move of
        the line being followed)."""
        game = now.game
        prior = self.priors(now, values.actions)
        value = values.values
        is_near = value >= value.max() - tie_margin(values.samples)
        tree_near = np.ones(len(values.actions), bool)
        if tree is not None and tree.iterations:
            kept = set(tree.actions[tree.visits >= TREE_NEAR * tree.visits.max()].tolist())
            tree_near = np.asarray([int(a) in kept for a in values.actions])
        out = []
        for k, action in enumerate(values.actions):
            move = move_of(game, int(action))
            after = visible_after(game, move)
            out.append(Candidate(
                action=int(action), near=bool(is_near[k]), value=round(float(value[k]), 9),
                votes=int(values.first[k]), samples=values.samples,
                seen_before=0 if after is None else self.visits[after], progress=game.is_progress(move),
                prior=prior[k], planned=move == planned, tree_near=bool(tree_near[k])))
        return out

    def pick(self, now: Decision, values: MoveValues, planned: Move | None = None,
             tree: TreeValues | None = None) -> Choice:
        """The best action by value, then the tie-breaks of the module docstring
        (:func:`solitaire_rl.agents.planner.ranking.rank_key`)."""
        candidates = self.candidates(now, values, planned, tree)
        early = self.guide_rank == "early"
        best = max(range(len(candidates)), key=lambda k: rank_key(candidates[k], now.met, early))
        action = int(values.actions[best])
        if values.samples == 0:
            return Choice(action, f"{NO_SAMPLE}: the tie-break player's move")
        won = int(values.won[best])
        unknown = int(values.unknown[best])
        reason = f"wins in {won} of {values.samples} sampled deals"
        if unknown:
            reason += f" ({unknown} more undecided)"
        return Choice(action, reason)

    def _endgame(self, now: Decision, time_limit: float | None = None) -> Choice | None:
        """Every card known: follow the solver's winning line with no way back to a position met
        (:func:`~solitaire_rl.agents.planner.endgame.endgame_line`; found once, then kept)."""
        game = now.game
        if not self._endgame_line or self._endgame_at != now.here:
            limit = self.time_limit if time_limit is None else time_limit
            line = endgame_line(game, set(self.visits) | {now.here}, max_states=ENDGAME_STATES,
                                time_limit=limit)
            self._endgame_line = list(line or ())
        if not self._endgame_line or not now.mask[ACTION_INDEX[self._endgame_line[0]]]:
            self._endgame_line = []
            return None
        move = self._endgame_line.pop(0)
        self._endgame_at = visible_after(game, move)
        return Choice(ACTION_INDEX[move], ENDGAME_REASON)

    def priors(self, now: Decision, actions: np.ndarray) -> list[float]:
        """The tie-break player's preference for each of ``actions``: greedy's score, or the ``ppo``
        policy's or the expert network's probability, or the network's chance of a win after it."""
        if self._expert is not None and self.guide == "value":
            chances = klondike_afterstate_win_chances(self._expert, now.knowledge, actions, self._rng,
                                                      self.guide_samples)
            return [float(c) for c in chances]
        if self._ppo is not None:
            probs = self._ppo.action_probabilities(now.observation, now.mask)
            return [float(probs[int(a)]) for a in actions]
        if self._expert is not None:
            probs, _ = self._expert.policy(now.observation, now.mask)
            return [float(probs[int(a)]) for a in actions]
        return [score_klondike_action(now.view, int(a), self._greedy.stuck)[0] for a in actions]


__all__ = ["DEFAULT_DECISION_STATES", "DEFAULT_MAX_SAMPLES", "DEFAULT_STATES_PER_SOLVE", "ENDGAME_REASON",
           "LOOP_VISITS", "WAY_OUT", "Decision", "HopKind", "HopPlayer", "HopStep", "MoveValues",
           "PlannedLine", "TreeValues", "hop_values", "safe_step", "tie_margin", "tree_values"]
