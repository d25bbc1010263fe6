"""What the ``relaxed_lost`` feature is worth on its own: greedy, and greedy that avoids such moves.

The second player scores moves as greedy does but plays a move the relaxation proves lost
(:func:`solitaire_rl.agents.encodings.pyramid_actions.relaxed_lost_after`, read from the observation only)
only when
every legal move is; ties as greedy. Both play the same deals; the figure is the number of wins
of each::

    python benchmarks/diagnostics/pyramid_relaxed_greedy.py pyramid --deals 1-1000
    python benchmarks/diagnostics/pyramid_relaxed_greedy.py pyramid-001 --deals 1-1000

``--exact-when-seen`` adds a diagnostic player, not an agent: the second one, except that once
every stock card has been seen (from the second pass on, the player knows the whole deal) it plays
a move the exact solver proves keeps the game winnable
(``solitaire_rl.agents.planner.pimc.afterstate_values``, 20,000
states a search). What it wins beyond the second player measures how much is lost in the passes
played with full knowledge.

``--pimc-first`` adds the other diagnostic player: the ``pimc`` planner
(:mod:`solitaire_rl.agents.planner.pimc`, 12
sampled stocks a move) while some stock card is unseen, then the second player. What it wins
beyond the second player bounds what better play before the stock is known can add, however it
is learned: on deals 1..1000 it won 559 (000) and 535 (001), against 537 and 502 for the second
player and 591 and 558 with ``--exact-when-seen``.

``--rollout-depth N`` adds a player that searches without the solver: the second player, except
that once every stock card has been seen it prefers a move after which the second player itself,
looking ahead ``N - 1`` moves the same way, clears the pyramid (ties and the rest as the second
player). With ``N`` = 1 it won 555 (000) and 541 (001) of deals 1..1000; with ``N`` = 2, 169 of
Pyramid 000's deals 1..300, against 151 for the second player and 157 with ``N`` = 1 (about
1.2 s a deal, ten times ``N`` = 1).

``--first-mistakes`` shows where those are lost: it plays the second player on each deal and, in
the first position with the whole stock seen where its move leaves the deal lost while another
move keeps it winnable (the exact solver marks every legal move), counts the kind of its move,
the kinds of the winning ones and the pass. On Pyramid 000's deals 1..400, 16 of 24 such first
mistakes paired a pyramid card with the stock top where only drawing won; on 001, 15 of 20
paired one with the waste top where only drawing won, all in the second pass.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # benchmarks/, for _checkout
import _checkout  # noqa: F401  (stops if another checkout's code would load)

from solitaire_rl.agents.base import Choice, Player, legal_actions, play_episode
from solitaire_rl.agents.encodings.pyramid_actions import relaxed_lost_after, relaxed_lost_now
from solitaire_rl.agents.greedy import GreedyPlayer
from solitaire_rl.agents.greedy.pyramid import PyramidView, score_pyramid_action
from solitaire_rl.agents.planner.pimc import PimcPlayer, afterstate_values, unseen_places
from solitaire_rl.agents.solver import SearchLimits
from solitaire_rl.envs.pyramid.actions import ACTION_MOVES, NUM_ACTIONS, fill_action_mask
from solitaire_rl.envs.pyramid.game import PyramidGame
from solitaire_rl.envs.pyramid.layout import NUM_PYRAMID
from solitaire_rl.envs.pyramid.moves import DRAW, RECYCLE, STOCK
from solitaire_rl.envs.pyramid.observation import observe
from solitaire_rl.envs.spec import find_game
from solitaire_rl.training.benchmark import parse_deal_numbers

EXACT_LIMITS = SearchLimits(max_states=20_000, time_limit=None)


class RelaxedGreedy(Player):
    """Greedy, except that a move the relaxation proves lost comes last."""

    name = "greedy+relaxed"

    def best(self, observation: np.ndarray, legal: np.ndarray, values: np.ndarray | None = None) -> int:
        """Greedy's pick of ``legal``, moves proved lost last; ``values`` (if given) rank first."""
        view = PyramidView.decode(observation)
        lost_now = relaxed_lost_now(view)

        def key(k: int) -> tuple[float, bool, float, int]:
            action = int(legal[k])
            return (0.0 if values is None else values[k], not relaxed_lost_after(view, action, lost_now),
                    score_pyramid_action(view, action)[0], -action)

        return int(legal[max(range(len(legal)), key=key)])

    def choose(self, observation: np.ndarray, mask: np.ndarray, info: dict[str, Any]) -> Choice:
        best = self.best(observation, legal_actions(mask))
        return Choice(best, "greedy's best move of those not proved lost")


class WhenSeen(RelaxedGreedy):
    """:class:`RelaxedGreedy` while a stock card is unseen; once the whole stock has been seen (the
    player then knows the whole deal), :meth:`known` chooses. The base of the diagnostic players
    that play the known-stock passes differently."""

    def __init__(self) -> None:
        self._env: gymnasium.Env | None = None

    def reset(self, env: gymnasium.Env) -> None:
        self._env = env

    def choose(self, observation: np.ndarray, mask: np.ndarray, info: dict[str, Any]) -> Choice:
        assert self._env is not None
        game = self._env.unwrapped.game
        if unseen_places(game):
            return super().choose(observation, mask, info)
        return self.known(game, observation, legal_actions(mask))

    def known(self, game: PyramidGame, observation: np.ndarray, legal: np.ndarray) -> Choice:
        """The choice among ``legal`` in ``game``, whose whole stock has been seen."""
        raise NotImplementedError


class ExactWhenSeen(WhenSeen):
    """:class:`RelaxedGreedy`, but exact once the whole stock has been seen (a diagnostic)."""

    name = "greedy+relaxed, exact once all seen"

    def known(self, game: PyramidGame, observation: np.ndarray, legal: np.ndarray) -> Choice:
        values = afterstate_values(game, legal, EXACT_LIMITS)
        best = self.best(observation, legal, values)
        return Choice(best, "the whole deal is known: a move that keeps it winnable")


class PimcFirst(RelaxedGreedy):
    """``pimc`` while a stock card is unseen, then :class:`RelaxedGreedy` (a diagnostic)."""

    name = "pimc while unseen, then greedy+relaxed"

    def __init__(self, variant: Any) -> None:
        self._pimc = PimcPlayer(variant, seed=0)
        self._env: gymnasium.Env | None = None

    def reset(self, env: gymnasium.Env) -> None:
        self._env = env
        self._pimc.reset(env)

    def choose(self, observation: np.ndarray, mask: np.ndarray, info: dict[str, Any]) -> Choice:
        assert self._env is not None
        game = self._env.unwrapped.game
        if not unseen_places(game):
            return super().choose(observation, mask, info)
        legal = legal_actions(mask)
        best = self.best(observation, legal, self._pimc.move_values(game, legal))
        return Choice(best, "some stock card is unseen: the move that wins in most sampled stocks")


class RolloutWhenSeen(WhenSeen):
    """:class:`RelaxedGreedy`, but once the whole stock has been seen it looks ahead ``depth``
    moves, each move's line played out by :class:`RelaxedGreedy` (a diagnostic)."""

    def __init__(self, depth: int) -> None:
        super().__init__()
        self.depth = depth
        self.name = f"greedy+relaxed, {depth}-move lookahead with its own rollouts once all seen"

    def pick(self, game: PyramidGame, legal: np.ndarray, depth: int) -> int:
        """The best of ``legal``, moves whose rollout clears the pyramid first."""
        clears = np.array([self.clears(game, int(action), depth - 1) for action in legal], float)
        return self.best(observe(game), legal, clears)

    def clears(self, game: PyramidGame, action: int, depth: int) -> bool:
        """Whether playing ``action``, then this player with ``depth`` moves of look-ahead, wins."""
        line = game.copy()
        line.push(ACTION_MOVES[action])
        mask = np.zeros(NUM_ACTIONS, np.int8)
        while not line.is_terminal():
            legal = np.flatnonzero(fill_action_mask(line.legal_moves(), mask))
            choice = self.pick(line, legal, depth) if depth > 0 else self.best(observe(line), legal)
            line.push(ACTION_MOVES[choice])
        return line.is_won()

    def known(self, game: PyramidGame, observation: np.ndarray, legal: np.ndarray) -> Choice:
        best = self.pick(game, legal, self.depth)
        return Choice(best, "the whole deal is known: a move whose greedy line clears the pyramid")


def move_kind(action: int) -> str:
    """``draw``, ``recycle``, ``king`` or the pair's places: ``pyramid``, ``stock``, ``waste``."""
    move = ACTION_MOVES[action]
    if move.kind in (DRAW, RECYCLE):
        return "draw" if move.kind == DRAW else "recycle"
    places = move.places()
    if len(places) == 1:
        return "king"
    return "+".join("pyramid" if p < NUM_PYRAMID else "stock" if p == STOCK else "waste" for p in places)


KnownStockPosition = tuple[int, PyramidGame, np.ndarray, int, np.ndarray]


def known_stock_positions(variant: Any, numbers: list[int], epsilon: float = 0.0,
                          rng: np.random.Generator | None = None) -> Iterator[KnownStockPosition]:
    """:class:`RelaxedGreedy`'s games, with the exact value of every legal move once the stock is known.

    Yields ``(deal number, game, legal actions, greedy's action, values)`` at each position with
    the whole stock seen and more than one legal move (``values`` as
    :func:`solitaire_rl.agents.planner.pimc.afterstate_values`); ``game`` is the environment's own, valid
    until the
    generator resumes. A deal is left once no move keeps it winnable (or the searches ran out).
    With ``epsilon`` > 0 a random legal move (from ``rng``) replaces greedy's that often, to vary
    the positions.
    """
    env, player = variant.make_env(), RelaxedGreedy()
    for number in numbers:
        observation, info = env.reset(options={"deal": variant.deal_id(number)})
        done = False
        while not done:
            legal = legal_actions(np.asarray(info["action_mask"], np.bool_))
            action = player.best(observation, legal)
            game = env.unwrapped.game
            if len(legal) > 1 and not unseen_places(game):
                values = afterstate_values(game, legal, EXACT_LIMITS)
                if values.max() < 1:
                    break  # lost already (or past the search's budget)
                yield number, game, legal, action, values
            if epsilon > 0 and rng is not None and rng.random() < epsilon:
                action = int(rng.choice(legal))
            observation, _, terminated, truncated, info = env.step(action)
            done = terminated or truncated


def first_mistakes(variant: Any, numbers: list[int]) -> Counter[tuple[str, tuple[str, ...], int]]:
    """(the move, the winning moves' kinds, the pass) of each deal's first full-knowledge mistake."""
    found: Counter[tuple[str, tuple[str, ...], int]] = Counter()
    counted: set[int] = set()
    for number, game, legal, action, values in known_stock_positions(variant, numbers):
        if number not in counted and values[list(legal).index(action)] < 1:
            winning = tuple(sorted({move_kind(int(a)) for a, v in zip(legal, values, strict=True) if v == 1}))
            found[(move_kind(action), winning, game.pass_number)] += 1
            counted.add(number)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", help="pyramid (000) or pyramid-001")
    parser.add_argument("--deals", default="1-1000", help="deal numbers, e.g. 1-1000")
    parser.add_argument("--exact-when-seen", action="store_true", help="add the diagnostic player (above)")
    parser.add_argument("--pimc-first", action="store_true", help="add the pimc-first player (above)")
    parser.add_argument("--rollout-depth", type=int, default=0,
                        help="add the look-ahead player with this depth (above; 0: none)")
    parser.add_argument("--first-mistakes", action="store_true",
                        help="count the first full-knowledge mistakes (above)")
    args = parser.parse_args()
    variant = find_game(args.game)
    numbers = parse_deal_numbers(args.deals)
    if args.first_mistakes:
        found = first_mistakes(variant, numbers)
        print(f"{variant.key}: {found.total()} of {len(numbers)} deals have a first full-knowledge mistake")
        for (move, winning, pass_number), count in found.most_common():
            print(f"  {count:4d}  pass {pass_number}: played {move}; only {', '.join(winning)} won")
        return
    env = variant.make_env()
    players = [GreedyPlayer(variant), RelaxedGreedy()] + ([ExactWhenSeen()] if args.exact_when_seen else [])
    players += [PimcFirst(variant)] if args.pimc_first else []
    players += [RolloutWhenSeen(args.rollout_depth)] if args.rollout_depth > 0 else []
    for player in players:
        wins = sum(play_episode(env, player, variant.deal_id(n), variant.cards_cleared).won for n in numbers)
        print(f"{variant.key} {player.name}: {wins} of {len(numbers)} deals won ({wins / len(numbers):.1%})")


if __name__ == "__main__":
    main()
