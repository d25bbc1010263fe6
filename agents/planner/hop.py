"""The ``hop`` player for Klondike: hindsight optimisation over what the player has seen.

For each legal move it asks how often the move leaves a winnable game across samples of the
unknown cards (the face-down cards and the never-seen stock cards, one set shuffled over their
places; every seen card stays where it is known to be). Each sample is solved by the exact
native solver under a small state budget; a search that runs out counts half, never as a loss.
The loop runs natively (:func:`solitaire_native.klondike_hop`: one call a decision, the GIL
released, samples spread over threads) and stops at a budget of states (the same answer on
every machine) or of time (the play page).

Moves within about one standard error of the best value tie (:func:`tie_margin`); that is most
of them while most samples are winnable. Ties go, in this order (:meth:`HopPlayer.rank_key`), to
the move that
0. goes on with the line being followed: after a move, the rest of a sampled winning line that
   starts with it, until a move shows a card not known before (:meth:`HopPlayer.follow`); with
   ``search="tree"`` (the ``ismcts`` player), then to the moves an information-set tree search
   (:func:`tree_values`) visits most;
1. most samples' winning lines start with, when it is a majority of the samples (a vote);
2. does not lead back to a position the player has already seen in this game (so following the
   planner does not go round in circles);
3. makes progress (:meth:`envs.klondike.KlondikeGame.is_progress`), when the current position
   has been met before;
4. has the most votes, then the tie-break player's preference: ``greedy``'s score, the trained
   ``ppo`` policy's probability (``prior="ppo"``) or the expert network's (``prior="expert"``:
   the ``guided-ismcts`` player), then the higher value.
A position met :data:`LOOP_VISITS` times means play goes round in circles: progress comes first
then, and :attr:`HopPlayer.looping` says so (the page's hint reports it instead of a move).

Two cases need no sampling: a safe move to a foundation (the solver's own forced step, which
loses no win whatever the unknown cards are; not while a line is followed, nor right after that
card came down from its foundation) and, once no card is unknown, the solver's winning
line, which is then followed to the end.

It never reads a hidden card: everything comes from the observation
(:mod:`agents.planner.knowledge`).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from agents.base import Choice, Player, game_of, legal_actions
from agents.greedy.klondike import KlondikeGreedy, KlondikeView, score_klondike_action
from agents.planner import NO_SAMPLE, SearchRecord
from agents.planner.guide import DEFAULT_GUIDE_SAMPLES, klondike_afterstate_win_chances
from agents.planner.knowledge import KlondikeKnowledge, klondike_knowledge, visible_after, visible_key
from agents.variants import Variant
from envs.errors import MalformedInputError
from envs.klondike import KlondikeGame
from envs.klondike.actions import ACTION_INDEX, move_of
from envs.klondike.moves import COLUMN_FOUNDATION, FOUNDATION_COLUMN, Move
from envs.klondike.observer import observe

DEFAULT_STATES_PER_SOLVE = 2_000
"""States one solve of one sample may enter; past it that sample counts half for the move."""
DEFAULT_DECISION_STATES = 200_000
"""States one decision may spend over all its samples (the benchmark's budget)."""
DEFAULT_MAX_SAMPLES = 32
ENDGAME_STATES = 500_000
"""Budget of the one exact solve once every card is known."""
LOOP_VISITS = 4
TREE_NEAR = 0.7
"""With the tree search, moves visited at least this share of the most visited one's count tie."""
"""A position met this often means play goes round in circles (``looping``): a hint then says so."""


@dataclass(frozen=True)
class MoveValues:
    """What the samples said of each candidate action."""

    actions: np.ndarray
    won: np.ndarray
    lost: np.ndarray
    unknown: np.ndarray
    first: np.ndarray
    """Samples whose winning line (from the position before the move) starts with the move."""
    samples: int
    states: int
    seconds: float
    stop_reason: str | None
    lines: tuple[tuple[Move, ...], ...] = ()
    """Each kept sample's winning line from the position (empty where its solve did not win)."""

    @property
    def values(self) -> np.ndarray:
        """Share of samples won, an unfinished search counting half (zeros when no sample ran)."""
        return (self.won + 0.5 * self.unknown) / max(self.samples, 1)


def native_candidates(game: KlondikeGame, actions: np.ndarray) -> list[tuple[int, int, int, int, int]]:
    """``actions`` as the native loops' atomic actions (the moved card left to the sample)."""
    from agents.solver.klondike import native_actions

    return native_actions([move_of(game, int(a)) for a in actions])


def hop_values(knowledge: KlondikeKnowledge, actions: np.ndarray, *, seed: int = 0,
               states_per_solve: int = DEFAULT_STATES_PER_SOLVE, max_samples: int = DEFAULT_MAX_SAMPLES,
               max_states: int | None = DEFAULT_DECISION_STATES, time_limit: float | None = None,
               threads: int = 1, cancel: Any = None) -> MoveValues:
    """Sample-and-solve values of ``actions`` (legal action indices) in the known position."""
    from agents.solver import _native
    from agents.solver.klondike import move_of as move_of_native

    game = knowledge.game
    candidates = native_candidates(game, actions)
    result = _native.klondike_hop(
        knowledge.position.to_native(), list(knowledge.unknown), candidates, game.draw_count,
        seed % 2**64, states_per_solve, max_samples, max_states or 0, time_limit or 0.0, threads, cancel,
    )
    tally = result.tally
    reason = None if tally.stop_reason == _native.StopReason.none else tally.stop_reason.name
    lines = tuple(tuple(move_of_native(a) for a in line) for line in result.lines)
    return MoveValues(np.asarray(actions), np.asarray(tally.won, float), np.asarray(tally.lost, float),
                      np.asarray(tally.unknown, float), np.asarray(tally.first, float), tally.samples,
                      tally.states, tally.seconds, reason, lines)


@dataclass(frozen=True)
class TreeValues:
    """What the information-set tree search said of each candidate action."""

    actions: np.ndarray
    visits: np.ndarray
    value_sum: np.ndarray
    iterations: int
    states: int
    seconds: float

    @property
    def values(self) -> np.ndarray:
        return self.value_sum / np.maximum(self.visits, 1)


def tree_values(knowledge: KlondikeKnowledge, actions: np.ndarray, *, seed: int = 0,
                states_per_solve: int = DEFAULT_STATES_PER_SOLVE, iterations: int = 400,
                max_states: int | None = None, time_limit: float | None = None, exploration: float = 0.5,
                max_depth: int = 8, cancel: Any = None) -> TreeValues:
    """Information-set tree search values of ``actions`` (:func:`solitaire_native.klondike_ismcts`)."""
    from agents.solver import _native

    game = knowledge.game
    candidates = native_candidates(game, actions)
    result = _native.klondike_ismcts(
        knowledge.position.to_native(), list(knowledge.unknown), candidates, game.draw_count,
        seed % 2**64, states_per_solve, iterations, max_states or 0, time_limit or 0.0, exploration,
        max_depth, cancel,
    )
    return TreeValues(np.asarray(actions), np.asarray(result.visits, float), np.asarray(result.value_sum),
                      result.iterations, result.states, result.seconds)


def tie_margin(samples: int) -> float:
    """Values this close to the best are ties: about one standard error of a share over ``samples``."""
    return 0.5 / max(samples, 1) ** 0.5


def shown_cards(game: KlondikeGame) -> set[int]:
    """The cards face up in ``game``'s position: column cards, the waste, the foundations."""
    cards = set(game.waste) | set(game.foundation_cards())
    for column, hidden in zip(game.columns, game.hidden, strict=True):
        cards.update(column[hidden:])
    return cards


def safe_step(knowledge: KlondikeKnowledge) -> Move | None:
    """A column card that the solver would put up at once (safe whatever the unknown cards are)."""
    from agents.solver.klondike import klondike_forced_move

    forced = klondike_forced_move(knowledge.position, knowledge.game.draw_count)
    if forced and forced[0][0] == COLUMN_FOUNDATION:
        return Move(COLUMN_FOUNDATION, forced[0][1])
    return None


class HopPlayer(Player):
    """Plays the move that wins in most samples of the unknown cards (see the module docstring)."""

    name = "hop"

    def __init__(self, variant: Variant, *, seed: int | None = None,
                 states_per_solve: int = DEFAULT_STATES_PER_SOLVE, max_samples: int = DEFAULT_MAX_SAMPLES,
                 max_states: int | None = DEFAULT_DECISION_STATES, time_limit: float | None = None,
                 threads: int = 1, prior: str = "greedy", search: str = "hop", tree_iterations: int = 100,
                 tree_states_per_solve: int = 1_000, tree_depth: int = 8,
                 expert_checkpoint: str | Path | None = None, guide: str = "policy", guide_rank: str = "late",
                 guide_samples: int = DEFAULT_GUIDE_SAMPLES, stock_known: bool = False,
                 expert_network: Any = None) -> None:
        if variant.game != "klondike":
            raise MalformedInputError(f"the hop player plays Klondike, not {variant.game}")
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
        self.rng = np.random.default_rng(seed)
        """Draws each decision's sampling seed (the benchmark seeds it per deal)."""
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
            from agents.ppo import PpoPlayer

            self._ppo = PpoPlayer(variant, deterministic=True)
        self._expert: Any = None
        if prior == "expert":
            from agents.expert.player import ExpertNetwork, check_network_variant

            # a loaded network may be handed in (the play server keeps one for every hint)
            check_network_variant(expert_network, variant)
            self._expert = expert_network or ExpertNetwork(variant, expert_checkpoint)
        self._greedy = KlondikeGreedy()
        self.reset_memory()

    def reset_memory(self) -> None:
        """Forget the game: the positions seen and the endgame line."""
        self.visits: Counter[bytes] = Counter()
        self._line: list[Move] = []
        self._line_at: bytes | None = None
        """What the player sees where ``_line[0]`` is to be played."""
        self.plan_moves: list[Move] = []
        """The rest of the sampled winning line being followed (see :meth:`follow`)."""
        self.plan_at: bytes | None = None
        """What the player sees where ``plan_moves[0]`` is to be played."""
        self._last_move: Move | None = None
        self._decided_in: KlondikeGame | None = None
        """The position (as the player knows it) of the last :meth:`plan`."""
        self.looping = False
        """Whether the last position planned for had been met :data:`LOOP_VISITS` times."""
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

    def choose(self, observation: np.ndarray, mask: np.ndarray, info: dict[str, Any]) -> Choice:
        start = time.perf_counter()
        self.remember(observation)
        self._greedy.look(KlondikeView(observation))
        choice = self.plan(observation, mask)
        self._greedy.played(choice.action)
        if self._decided_in is not None:  # plan() set it
            self._last_move = move_of(self._decided_in, choice.action)
        self.decision_seconds.append(time.perf_counter() - start)
        return choice

    # ------------------------------------------------------------------ the decision
    def plan(self, observation: np.ndarray, mask: np.ndarray, cancel: Any = None,
             time_limit: float | None = None) -> Choice:
        """The move for the position of ``observation`` (without counting it as met)."""
        legal = legal_actions(mask)
        self.last_search = None
        self.looping = self.visits[visible_key(observation)] >= LOOP_VISITS
        knowledge = self.knowledge(observation)
        game = self._decided_in = knowledge.game
        here = visible_key(observation)
        planned = self.plan_moves[0] if self.plan_moves and self.plan_at == here else None
        if planned is not None and not mask[ACTION_INDEX[planned]]:
            planned = None
        if planned is None:
            self.plan_moves, self.plan_at = [], None
        if legal.size == 1:
            self.follow(game, int(legal[0]), ())
            return Choice(int(legal[0]), "the only legal move")
        if knowledge.all_known:
            line_choice = self._endgame(knowledge, mask)
            if line_choice is not None:
                return line_choice
        safe = safe_step(knowledge)
        if (safe is not None and mask[ACTION_INDEX[safe]] and planned in (None, safe)
                and not self._just_came_down(safe)):
            self.follow(game, ACTION_INDEX[safe], ())
            return Choice(ACTION_INDEX[safe], "safe to put up: no card can need it any more")
        limit = self.time_limit if time_limit is None else time_limit
        values = hop_values(
            knowledge, legal, seed=int(self.rng.integers(2**63)),
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
                tree = tree_values(knowledge, near, seed=int(self.rng.integers(2**63)),
                                   states_per_solve=self.tree_states_per_solve,
                                   iterations=self.tree_iterations, time_limit=left,
                                   max_depth=self.tree_depth, cancel=cancel)
        choice = self.pick(observation, mask, knowledge, values, planned, tree)
        visits = np.zeros(len(legal))
        if tree is not None:
            visits[np.searchsorted(legal, tree.actions)] = tree.visits
        self.last_search = SearchRecord(legal, values.won, values.lost, values.unknown, values.first, visits,
                                        values.samples)
        self.follow(game, choice.action, values.lines)
        return choice

    def follow(self, game: KlondikeGame, action: int, lines: tuple[tuple[Move, ...], ...]) -> None:
        """Keep the line being followed after ``action``: its rest when ``action`` is its next move,
        else the rest of a sampled winning line that starts with ``action``. A line ends where a
        move shows a card not known before (the samples' lines part ways there)."""
        move = move_of(game, action)
        if self.plan_moves and self.plan_moves[0] == move:
            rest = self.plan_moves[1:]
        else:
            rest = next((list(line[1:]) for line in lines if line and line[0] == move), [])
        after = visible_after(game, move)
        self.plan_moves, self.plan_at = (rest, after) if rest and after is not None else ([], None)

    def _just_came_down(self, safe: Move) -> bool:
        """Whether the last move brought ``safe``'s card down from its foundation (so that a card
        can be put on it): putting it straight back would undo that."""
        last = self._last_move
        return last is not None and last.kind == FOUNDATION_COLUMN and last.dst == safe.src

    def pick(self, observation: np.ndarray, mask: np.ndarray, knowledge: KlondikeKnowledge,
             values: MoveValues, planned: Move | None = None, tree: TreeValues | None = None) -> Choice:
        """The best action by value, then the tie-breaks of the module docstring; ``planned``:
        the next move of the line being followed."""
        game = knowledge.game
        prior = self._prior(observation, mask, values.actions, knowledge)
        value = values.values
        near = value.max() - tie_margin(values.samples)
        is_near = value >= near
        tree_near = np.ones(len(values.actions), bool)
        if tree is not None and tree.iterations:
            kept = set(tree.actions[tree.visits >= TREE_NEAR * tree.visits.max()].tolist())
            tree_near = np.asarray([int(a) in kept for a in values.actions])
        here = self.visits[visible_key(observation)]
        keys = []
        for k, action in enumerate(values.actions):
            move = move_of(game, int(action))
            after = visible_after(game, move)
            seen_before = 0 if after is None else self.visits[after]
            keys.append(self.rank_key(bool(is_near[k]), seen_before, round(float(value[k]), 9),
                                      prior[k], game.is_progress(move), int(action), here,
                                      int(values.first[k]), values.samples, move == planned,
                                      bool(tree_near[k]), self.guide_rank == "early"))
        best = max(range(len(keys)), key=keys.__getitem__)
        action = int(values.actions[best])
        if values.samples == 0:
            return Choice(action, f"{NO_SAMPLE}: the tie-break player's move")
        won = int(values.won[best])
        unknown = int(values.unknown[best])
        reason = f"wins in {won} of {values.samples} sampled deals"
        if unknown:
            reason += f" ({unknown} more undecided)"
        return Choice(action, reason)

    @staticmethod
    def rank_key(near: bool, seen_before: int, value: float, prior: float, progress: bool,
                 action: int, here: int, first: int, samples: int, planned: bool = False,
                 tree_near: bool = True, prior_early: bool = False) -> tuple[Any, ...]:
        """The order of the candidates: the greatest key is played. ``here``: times the player has
        met the current position (``LOOP_VISITS - 1`` or more: a loop the other rules did not stop;
        progress first). ``planned``: the next move of the line being followed; ``tree_near``:
        among the tree search's most visited moves (always, without the tree search);
        ``prior_early``: the prior decides among those before the votes (``guide_rank="early"``)."""
        if here >= LOOP_VISITS - 1:
            return progress, near, planned, -seen_before, first, prior, value, -action
        if prior_early:
            return near, planned, tree_near, -seen_before, prior, first, value, -action
        return (near, planned, tree_near, first * 2 > samples, -seen_before, progress and here > 1, first,
                prior, value, -action)

    def _endgame(self, knowledge: KlondikeKnowledge, mask: np.ndarray) -> Choice | None:
        """Every card known: follow the solver's winning line (found once, then kept)."""
        from agents.solver.klondike import solve_klondike

        game = knowledge.game
        here = visible_key(observe(game))
        if not self._line or self._line_at != here:
            result = solve_klondike(knowledge.position, draw_count=game.draw_count, time_limit=None,
                                    max_states=ENDGAME_STATES)
            self._line = list(result.line or ())
        if not self._line or not mask[ACTION_INDEX[self._line[0]]]:
            self._line = []
            return None
        move = self._line.pop(0)
        self._line_at = visible_after(game, move)
        return Choice(ACTION_INDEX[move], "every card is known: the solver's winning line")

    def _prior(self, observation: np.ndarray, mask: np.ndarray, actions: np.ndarray,
               knowledge: KlondikeKnowledge) -> list[float]:
        if self._expert is not None and self.guide == "value":
            chances = klondike_afterstate_win_chances(self._expert, knowledge, actions, self.rng,
                                                      self.guide_samples)
            return [float(c) for c in chances]
        if self._ppo is not None:
            probs = self._ppo.action_probabilities(observation, mask)
            return [float(probs[int(a)]) for a in actions]
        if self._expert is not None:
            probs, _ = self._expert.policy(observation, mask)
            return [float(probs[int(a)]) for a in actions]
        view = KlondikeView(observation)
        return [score_klondike_action(view, int(a), self._greedy.stuck)[0] for a in actions]


class IsmctsPlayer(HopPlayer):
    """``hop`` with the information-set tree search among its ties (``search="tree"``)."""

    name = "ismcts"

    def __init__(self, variant: Variant, **options: Any) -> None:
        options.setdefault("search", "tree")
        super().__init__(variant, **options)


class GuidedIsmctsPlayer(HopPlayer):
    """``ismcts`` with the expert network's policy as its tie-break prior (``prior="expert"``)."""

    name = "guided-ismcts"

    def __init__(self, variant: Variant, **options: Any) -> None:
        options.setdefault("search", "tree")
        options.setdefault("prior", "expert")
        super().__init__(variant, **options)


__all__ = ["DEFAULT_DECISION_STATES", "DEFAULT_MAX_SAMPLES", "DEFAULT_STATES_PER_SOLVE", "GuidedIsmctsPlayer",
           "HopPlayer", "IsmctsPlayer", "MoveValues", "hop_values", "safe_step"]
