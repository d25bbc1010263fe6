"""One contract for both games and every implementation (docs/environments.md, "One contract").

Each test runs on Pyramid and Klondike, each through ``gymnasium.make`` (the Python env in its
wrappers), the native one-game env (:meth:`sub_env_view`) and ``gymnasium.make_vec`` (the native
batch behind Gymnasium's vector API): the same keywords, the same info keys, the same errors for
the same mistakes (a refused call changes nothing), the same behaviour once an episode ended.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from gymnasium.vector import AutoresetMode

import solitaire_rl  # noqa: F401  (registers the environments)
from solitaire_rl.envs.errors import MalformedInputError
from solitaire_rl.envs.klondike.actions import ACTION_INDEX
from solitaire_rl.envs.klondike.game import KlondikeGame
from solitaire_rl.envs.klondike.moves import Move as KlondikeMove
from solitaire_rl.envs.pyramid.actions import move_to_action
from solitaire_rl.envs.pyramid.moves import Move as PyramidMove
from tests.conftest import WIN_LINE, WIN_PYRAMID, build_pyramid_deal


@dataclass(frozen=True)
class Game:
    name: str
    env_id: str
    num_actions: int
    draw: int
    """An action that is legal for the first few steps of any deal (draw)."""
    illegal: int
    """An action that is illegal at the start of :attr:`win_options`' game."""
    win_options: Callable[[], dict[str, Any]]
    win_line: tuple[int, ...]
    """From ``reset(options=win_options())``, the actions that win."""


def klondike_near_win() -> dict[str, Any]:
    return {"game": KlondikeGame.from_position([[51], [], [], [], [], [], []], [0] * 7, stock=[],
                                               foundations=[13, 13, 13, 12])}


GAMES = {
    "pyramid": Game("pyramid", "Solitaire/Pyramid-v0", 467, 465, 466,
                    lambda: {"deal": build_pyramid_deal(WIN_PYRAMID)},
                    tuple(move_to_action(PyramidMove.parse(m)) for m in WIN_LINE)),
    "klondike": Game("klondike", "Solitaire/Klondike-v0", 590, 0, 0, klondike_near_win,
                     (ACTION_INDEX[KlondikeMove.parse("c1>f")],)),
}


class Subject:
    """One env under the contract, driven as a single env (sub-env 0 of a vector env)."""

    def __init__(self, impl: str, game: Game, **kwargs: Any) -> None:
        self.impl, self.game = impl, game
        kwargs.setdefault("split", "any")  # the contract's deals and positions are of no split
        if impl == "python":
            self.env: Any = gymnasium.make(game.env_id, **kwargs)
        elif impl == "native-view":
            self.env = gymnasium.make_vec(game.env_id, num_envs=1, vectorization_mode="vector_entry_point",
                                          **kwargs).sub_env_view()
        else:
            self.env = gymnasium.make_vec(game.env_id, num_envs=2, vectorization_mode="vector_entry_point",
                                          autoreset_mode=AutoresetMode.DISABLED, **kwargs)
        self.vector = impl == "native-vector"

    def reset(self, **kwargs: Any) -> tuple[np.ndarray, dict[str, Any]]:
        obs, info = self.env.reset(**kwargs)
        return (obs[0], {k: v[0] for k, v in info.items() if not k.startswith("_")}) if self.vector \
            else (obs, info)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.vector:
            obs, reward, terminated, truncated, info = self.env.step(np.array([action, action]))
            one = {k: v[0] for k, v in info.items() if not k.startswith("_") and info[f"_{k}"][0]}
            return obs[0], float(reward[0]), bool(terminated[0]), bool(truncated[0]), one
        obs, reward, terminated, truncated, info = self.env.step(action)
        return obs, float(reward), bool(terminated), bool(truncated), info

    def raw_step(self, action: Any) -> Any:
        """``step`` with ``action`` as given (a vector env gets it for every sub-env)."""
        return self.env.step(np.array([action, action]) if self.vector and not isinstance(action, np.ndarray)
                             else action)

    def state(self) -> tuple[bytes, bytes]:
        """The observation and mask now (every sub-env's)."""
        if self.impl == "python":
            env = self.env.unwrapped
            return env._obs.tobytes() if self.game.name == "klondike" else env._observer.vector.tobytes(), \
                env.action_masks().tobytes()
        batch = self.env.batch
        return batch.obs.tobytes(), batch.mask.tobytes()

    def action_name(self, action: Any) -> str:
        name = self.env.get_wrapper_attr("action_name") if self.impl == "python" else self.env.action_name
        return name(action)


IMPLS = ("python", "native-view", "native-vector")
CASES = [pytest.param(GAMES[g], impl, id=f"{g}-{impl}") for g in GAMES for impl in IMPLS]


# ------------------------------------------------------------------------------------- keywords
@pytest.mark.parametrize(("game", "impl"), CASES)
def test_the_same_keywords_shape_the_reward_and_the_time_limit(game: Game, impl: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        env = Subject(impl, game, reward_shaping=True, max_episode_steps=3)
    target = env.env.unwrapped if impl == "python" else env.env
    assert target.reward_shaping is True
    env.reset(seed=1)
    ends = [env.step(game.draw)[2:4] for _ in range(4)]
    assert ends == [(False, False), (False, False), (False, True), (False, True)]  # still truncated after


@pytest.mark.parametrize("game", GAMES.values(), ids=GAMES)
def test_make_vec_takes_max_episode_steps_in_every_mode(game: Game) -> None:
    for mode in ("sync", "vector_entry_point"):
        env = gymnasium.make_vec(game.env_id, num_envs=2, vectorization_mode=mode, max_episode_steps=2,
                                 reward_shaping=True)
        env.reset(seed=0)
        assert [bool(env.step(np.full(2, game.draw))[3].all()) for _ in range(2)] == [False, True], mode
    assert gymnasium.spec(game.env_id).max_episode_steps in (500, 1000)


@pytest.mark.parametrize("game", GAMES.values(), ids=GAMES)
def test_a_native_time_limit_is_none_or_positive(game: Game) -> None:
    with pytest.raises(MalformedInputError, match="max_episode_steps"):
        gymnasium.make_vec(game.env_id, num_envs=1, vectorization_mode="vector_entry_point",
                           max_episode_steps=0)
    env = gymnasium.make_vec(game.env_id, num_envs=1, vectorization_mode="vector_entry_point",
                             max_episode_steps=None)
    env.reset(seed=0)
    assert not any(bool(env.step(np.full(1, game.draw))[3][0]) for _ in range(5))


@pytest.mark.parametrize("impl", ["python", "native-vector"])
def test_the_old_klondike_spellings_warn_and_still_work(impl: str) -> None:
    game = GAMES["klondike"]
    with pytest.warns(DeprecationWarning, match="reward_shaping"):
        shaped = Subject(impl, game, shaped_reward=True)
    assert (shaped.env.unwrapped if impl == "python" else shaped.env).reward_shaping is True
    with pytest.warns(DeprecationWarning, match="max_episode_steps"):
        short = Subject(impl, game, max_steps=2)
    short.reset(seed=0)
    assert [short.step(0)[3] for _ in range(2)] == [False, True]


# ------------------------------------------------------------------------------------- info keys
@pytest.mark.parametrize(("game", "impl"), CASES)
def test_the_same_info_keys_and_action_names(game: Game, impl: str) -> None:
    env = Subject(impl, game)
    _, info = env.reset(seed=4)
    shared = {"action_mask", "deal_id", "cards_cleared", "recycles"}
    assert shared <= set(info) and info["cards_cleared"] == 0 and info["recycles"] == 0
    assert info["action_mask"].dtype == np.int8 and info["action_mask"].shape == (game.num_actions,)
    assert shared <= set(env.step(game.draw)[4])
    assert env.action_name(np.int64(game.draw)).startswith("draw")  # Klondike's is "draw/recycle"
    with pytest.raises(MalformedInputError, match="not an action"):
        env.action_name(game.num_actions)
    _, info = env.reset(options=game.win_options())
    for action in game.win_line:
        *_, info = env.step(action)
    assert info["cards_cleared"] == (28 if game.name == "pyramid" else 52) and info["outcome"] == "win"


# ------------------------------------------------------------------------------------- errors
@pytest.mark.parametrize(("game", "impl"), CASES)
def test_step_before_reset_needs_a_reset(game: Game, impl: str) -> None:
    env = Subject(impl, game)
    with pytest.raises(ResetNeeded):
        env.raw_step(game.draw)
    if impl == "python":
        with pytest.raises(ResetNeeded):  # the raw class too, not only Gymnasium's OrderEnforcing
            env.env.unwrapped.step(game.draw)


@pytest.mark.parametrize(("game", "impl"), CASES)
def test_a_bad_action_is_malformed_and_changes_nothing(game: Game, impl: str) -> None:
    env = Subject(impl, game)
    env.reset(seed=7)
    before = env.state()
    n = game.num_actions
    bad: list[tuple[Any, str]] = [(-1, "-1 is not an action"), (n, f"{n} is not an action"),
                                  (np.int64(n), f"^{n} is not an action")]
    if env.vector:  # a batch of actions: the right shape of integers, each in range
        bad += [(np.array([1.5, 1.5]), "integers"), (np.array([True, True]), "integers"),
                (np.array([0]), "2 integers")]
    else:
        bad += [(True, "not booleans"), (1.5, "not float"), ("draw", "not str"), (None, "not NoneType"),
                (np.float64(1.0), "not float64")]
    for action, match in bad:
        with pytest.raises(MalformedInputError, match=match):
            env.raw_step(action)
        assert env.state() == before, action
    *_, info = env.step(np.int64(game.draw))  # a NumPy integer is an action
    assert "illegal_action" not in info and env.state() != before


@pytest.mark.parametrize(("game", "impl"), CASES)
def test_an_illegal_action_is_refused_and_changes_nothing(game: Game, impl: str) -> None:
    env = Subject(impl, game)
    env.reset(options=game.win_options())
    before = env.state()
    _, reward, terminated, truncated, info = env.step(game.illegal)
    assert info["illegal_action"] and (reward, terminated, truncated) == (0.0, False, False)
    assert env.state() == before


@pytest.mark.parametrize(("game", "impl"), CASES)
def test_a_bad_reset_option_is_refused_before_anything_changes(game: Game, impl: str) -> None:
    env, twin = Subject(impl, game), Subject(impl, game)
    _, first = env.reset(seed=3)
    twin.reset(seed=3)
    before = env.state()
    for options, match in (({"dael": f"{game.name}-random-v1-1"}, r"unknown reset option.*'dael'.*'deal'"),
                           ({"deal": f"{game.name}-random-v1-x"}, "deal number after .* must be a whole"),
                           ({"deal": f"{game.name}-random-v1--3"}, r"not a deal ID.*whole number, 0 or more"),
                           ({"deal": "KL"}, "neither a deal ID .* nor a valid deal code")):
        with pytest.raises(MalformedInputError, match=match):
            env.reset(seed=99, options=options)
        assert env.state() == before
    _, ours = env.reset()  # not reseeded with 99: the next deal is the twin's
    _, theirs = twin.reset()
    assert ours["deal_id"] == theirs["deal_id"] != first["deal_id"]


# ------------------------------------------------------------------------------------- episode end
@pytest.mark.parametrize(("game", "impl"), CASES)
def test_after_a_win_every_step_says_terminated_and_changes_nothing(game: Game, impl: str) -> None:
    env = Subject(impl, game)
    env.reset(options=game.win_options())
    for k, action in enumerate(game.win_line):
        _, reward, terminated, truncated, info = env.step(action)
        assert terminated == (k == len(game.win_line) - 1) and not truncated
    assert reward >= 1.0 and info["outcome"] == "win" and not info["action_mask"].any()
    won = env.state()
    for action in (game.draw, game.illegal, game.win_line[-1]):
        _, reward, terminated, truncated, info = env.step(action)
        assert (reward, terminated, truncated) == (0.0, True, False) and info["illegal_action"]
        assert info["outcome"] == "win" and env.state() == won  # every step saying terminated says how
