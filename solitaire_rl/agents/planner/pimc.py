"""The ``pimc`` player for Pyramid: Monte-Carlo sampling of the unseen cards, each sample solved exactly.

Perfect-information Monte Carlo (as in Bjarnason, Fern and Tadepalli's Klondike planners): the
player knows the pyramid, the cards it has seen and where they lie; the unseen stock cards are
known only as a set (every card not seen). For each of up to ``samples`` deals consistent with
what it knows (the unseen cards shuffled over the unseen places, one shuffle per sample, the same
for every action), the exact solver decides whether each legal move leaves a winnable position,
and the move that wins in most samples is played; ties go to the move that the most samples'
winning lines start with, then to the greedy heuristic's preference. A search that runs out of
its small budget (``max_states``) counts half, never as a loss.

The loop runs natively (``solitaire_native.pyramid_pimc``: one call a decision, the GIL
released, samples over ``threads`` threads, the position before the move solved first and its
answer shared by all moves) within a budget of states for the whole decision
(``decision_states``: the same answer on every machine) and optionally of time (``time_limit``,
the play page's hint). Pyramid cannot go round in circles: every move removes cards, draws or
starts a new pass. It never reads an unseen card's identity from the game: the shuffle replaces
all of them. Its choices are also a training signal for the ``ppo`` policy
(:mod:`solitaire_rl.training.imitation`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from solitaire_rl.agents.base import Choice, Player, game_of, legal_actions
from solitaire_rl.agents.greedy.pyramid import PyramidView, score_pyramid_action
from solitaire_rl.agents.planner import NO_SAMPLE, SearchRecord
from solitaire_rl.agents.registry import require_game
from solitaire_rl.agents.seeding import Seed, new_generator
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.pyramid.actions import ACTION_MOVES
from solitaire_rl.envs.pyramid.game import PyramidGame
from solitaire_rl.envs.spec import GameSpec

DEFAULT_SAMPLES = 24
DEFAULT_MAX_STATES = 20_000
"""States one search may enter; past it the sample counts half for that move."""
DEFAULT_DECISION_STATES = 400_000
"""States one decision may spend over all its samples: fewer samples where searches are long."""


def unseen_places(game: PyramidGame) -> list[int]:
    """Indices into ``game.stock_order()`` of the cards never face up."""
    return [i for i, card in enumerate(game.stock_order()) if not (game.seen >> card) & 1]


def determinized(game: PyramidGame, order: list[int]) -> PyramidGame:
    """A copy of ``game`` whose stock and waste, in draw order, are ``order``."""
    other = game.copy()
    waste_count = len(game.waste)
    other.waste = list(order[:waste_count])
    other.stock = list(reversed(order[waste_count:]))
    return other


def afterstate_values(game: PyramidGame, actions: np.ndarray, limits: Any) -> np.ndarray:
    """For each action, 1 if the position after it is winnable, 0 if not, 0.5 if the search ran out.

    ``game`` must be fully known (a determinized sample, or the true deal): the exact solver reads
    every card of it.
    """
    from solitaire_rl.agents.solver import solve_pyramid

    values = np.zeros(len(actions))
    for k, action in enumerate(actions):
        after = game.copy()
        after.push(ACTION_MOVES[int(action)])
        if after.is_won():
            values[k] = 1.0
            continue
        values[k] = {"winnable": 1.0, "unknown": 0.5}.get(solve_pyramid(after, limits=limits).status, 0.0)
    return values


class PimcPlayer(Player):
    """Plays the move that wins in most sampled completions of what the player has seen."""

    name = "pimc"

    def __init__(self, variant: GameSpec, samples: int = DEFAULT_SAMPLES,
                 max_states: int = DEFAULT_MAX_STATES, seed: Seed = None, *,
                 decision_states: int | None = DEFAULT_DECISION_STATES, time_limit: float | None = None,
                 threads: int = 1) -> None:
        require_game(self.name, variant)
        if samples < 1 or max_states < 1 or threads < 1:
            raise MalformedInputError("samples, max_states and threads must be positive")
        self.variant, self.samples, self.max_states = variant, samples, max_states
        self.decision_states, self.time_limit, self.threads = decision_states, time_limit, threads
        self._rng = new_generator(seed)
        """Draws each decision's sampling seed (:meth:`reseed`: the benchmark seeds it per deal)."""
        self._env: gymnasium.Env | None = None
        self.last_search: SearchRecord | None = None
        """What the last :meth:`plan`'s sampling said (``None`` after a forced move)."""

    def reseed(self, seed: Seed) -> None:
        """Draw the sampling seeds from ``numpy.random.default_rng(seed)`` from now on."""
        self._rng = new_generator(seed)

    def reset(self, env: gymnasium.Env) -> None:
        self._env = env

    def tally(self, game: PyramidGame, actions: np.ndarray, cancel: Any = None,
              time_limit: float | None = None) -> Any:
        """The native sample-and-solve tally of ``actions`` (one sample when nothing is unseen)."""
        from solitaire_rl.agents.solver import _native
        from solitaire_rl.agents.solver.pyramid import PyramidPosition, native_moves

        hidden = unseen_places(game)
        candidates = [ACTION_MOVES[int(a)] for a in actions]
        options = _native.PyramidPimcOptions(
            seed=int(self._rng.integers(2**63)), states_per_solve=self.max_states,
            max_samples=self.samples if hidden else 1, max_states=self.decision_states or 0,
            time_limit_s=(self.time_limit if time_limit is None else time_limit) or 0.0, threads=self.threads,
        )
        position = PyramidPosition.from_game(game).to_native()
        return _native.pyramid_pimc(position, hidden, native_moves(candidates), options, cancel)

    def move_values(self, game: PyramidGame, actions: np.ndarray) -> np.ndarray:
        """For each action, the share of sampled completions in which it leaves a winnable game
        (a search out of budget counting half)."""
        tally = self.tally(game, actions)
        return (np.asarray(tally.won) + 0.5 * np.asarray(tally.unknown)) / max(tally.samples, 1)

    def choose(self, observation: np.ndarray, mask: np.ndarray, info: dict[str, Any]) -> Choice:
        if self._env is None:
            raise MalformedInputError("reset(env) first: the pimc player reads the game it plays")
        return self.plan(game_of(self._env), observation, mask)

    def plan(self, game: PyramidGame, observation: np.ndarray, mask: np.ndarray, cancel: Any = None,
             time_limit: float | None = None) -> Choice:
        """The move for ``game`` (whose observation and mask are given) within the budget."""
        legal = legal_actions(mask)
        self.last_search = None
        if legal.size == 1:
            return Choice(int(legal[0]), "the only legal move")
        tally = self.tally(game, legal, cancel, time_limit)
        won, unknown = np.asarray(tally.won), np.asarray(tally.unknown)
        self.last_search = SearchRecord(legal, won, np.asarray(tally.lost), unknown, np.asarray(tally.first),
                                        np.zeros(len(legal)), tally.samples)
        values = (won + 0.5 * unknown) / max(tally.samples, 1)
        first = np.asarray(tally.first)
        view = PyramidView.decode(observation)
        guide = self.guide(game, legal, values) if tally.samples else np.zeros(len(legal))
        best = max(range(len(legal)), key=lambda k: (guide[k], values[k], first[k],
                                                     score_pyramid_action(view, int(legal[k]))[0], -legal[k]))
        if tally.samples == 0:
            return Choice(int(legal[best]), f"{NO_SAMPLE}: the greedy choice")
        if not unseen_places(game):
            return Choice(int(legal[best]), "every card is known: the solver's move" if won[best] else
                          "every card is known and no line clears the pyramid")
        reason = f"wins in {int(won[best])} of {tally.samples} sampled stocks"
        if unknown[best]:
            reason += f" ({int(unknown[best])} more undecided)"
        return Choice(int(legal[best]), reason)

    def guide(self, game: PyramidGame, legal: np.ndarray, values: np.ndarray) -> np.ndarray:
        """A key that comes before the sampled value: none here (:class:`GuidedPimcPlayer` has one)."""
        return np.zeros(len(legal))


class GuidedPimcPlayer(PimcPlayer):
    """``pimc`` whose ties go to the expert network: among the moves whose sampled value is within
    ``guide_margin`` of the best, the one after which the network rates a win likeliest
    (:func:`solitaire_rl.agents.planner.guide.pyramid_afterstate_win_chances`), then pimc's own order."""

    name = "guided-pimc"

    def __init__(self, variant: GameSpec, *, expert_checkpoint: str | Path | None = None,
                 guide_margin: float = 0.0, guide_samples: int = 8, expert_network: Any = None,
                 **options: Any) -> None:
        """``expert_network``: a loaded :class:`solitaire_rl.agents.expert.player.ExpertNetwork` to use
        instead
        of loading ``expert_checkpoint``."""
        from solitaire_rl.agents.expert.player import ExpertNetwork, check_network_variant

        super().__init__(variant, **options)
        check_network_variant(expert_network, variant)
        if guide_margin < 0 or guide_samples < 1:
            raise MalformedInputError("guide_margin must be at least 0 and guide_samples positive")
        self.guide_margin, self.guide_samples = guide_margin, guide_samples
        self.network = expert_network or ExpertNetwork(variant, expert_checkpoint)

    def guide(self, game: PyramidGame, legal: np.ndarray, values: np.ndarray) -> np.ndarray:
        from solitaire_rl.agents.planner.guide import pyramid_afterstate_win_chances

        near = values >= values.max() - self.guide_margin - 1e-12
        if near.sum() < 2:
            return near.astype(float)
        chances = np.full(len(legal), -1.0)
        chances[near] = pyramid_afterstate_win_chances(self.network, game, legal[near], self._rng,
                                                       self.guide_samples)
        return chances


__all__ = ["GuidedPimcPlayer", "PimcPlayer", "afterstate_values", "determinized", "unseen_places"]
