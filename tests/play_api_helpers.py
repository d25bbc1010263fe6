"""What the play API tests of both games share: requests to a game's endpoints, the server fixture,
and a tiny PPO checkpoint for the hint player (``test_play_api.py``, ``test_play_klondike_api.py``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest
from fastapi.testclient import TestClient

from solitaire_rl.play.server.schemas import ChanceAnswer
from solitaire_rl.play.server.work import WorkLimiter

ServerT = TypeVar("ServerT")

ENGINE_CODE = re.compile(
    r"\br\d+c\d+\b"                      # a Pyramid place: r7c1
    r"|\bc[1-7](?::\d+)?\b"               # a Klondike column or run: c2, c5:5
    r"|\w>\w"                              # a move: c5:5>c2, waste>f
    r"|(?<![\w-])f[CDHS]?(?![\w-])"        # a foundation: fS, f
    r"|\b(?:10|[2-9AJQK])[CDHS]\b"         # a card code: 10C, QS
)
"""The engine's short names of places, moves and cards: never in a text a player reads."""


def engine_codes(text: str) -> list[str]:
    """The engine codes found in ``text`` (none expected in a player-facing text)."""
    return [m.group(0) for m in ENGINE_CODE.finditer(text)]


@dataclass(frozen=True)
class GameApi:
    """Requests to one game's endpoints under ``games`` (``/api/games``, ``/api/klondike/games``)."""

    games: str

    def new_game(self, client: TestClient, **body: Any) -> dict[str, Any]:
        """Create a game from ``body``; its state (201 asserted)."""
        r = client.post(self.games, json=body)
        assert r.status_code == 201, r.text
        return r.json()

    def act(self, client: TestClient, state: dict[str, Any], status: int = 200,
            **action: Any) -> dict[str, Any]:
        """Send one action to the game of ``state``; the answer (``status`` asserted)."""
        r = client.post(f"{self.games}/{state['session']}/actions", json=action)
        assert r.status_code == status, r.text
        return r.json()

    def chance(self, client: TestClient, state: dict[str, Any]) -> ChanceAnswer:
        """The chance of winning from the game of ``state`` (200 asserted), checked against its schema."""
        r = client.post(f"{self.games}/{state['session']}/chance")
        assert r.status_code == 200, r.text
        return ChanceAnswer.model_validate(r.json())


def work_of(client: TestClient) -> WorkLimiter:
    """The play server's one bound on searches (hints, chances, verdicts)."""
    return client.app.state.work  # type: ignore[attr-defined]


def fill(work: WorkLimiter) -> None:
    """Take every place of ``work``, as searches in flight would."""
    for _ in range(work.slots):
        assert work.try_acquire()


def drain(work: WorkLimiter) -> None:
    """Give back the places :func:`fill` took."""
    for _ in range(work.slots):
        work.release()


def busy_chance_is_refused(client: TestClient, game_url: str) -> None:
    """With every search place taken, the chance of the game at ``game_url`` is a 503 with
    Retry-After, the game unchanged and every place given back."""
    before = client.get(game_url).json()
    work = work_of(client)
    fill(work)
    try:
        r = client.post(f"{game_url}/chance")
    finally:
        drain(work)
    assert r.status_code == 503, r.text
    assert int(r.headers["retry-after"]) >= 1
    assert r.json()["error"] == "BUSY" and r.json()["message_ja"]
    assert client.get(game_url).json() == before
    assert work.busy == 0


def server_fixture(make: Callable[[], ServerT]) -> Callable[[], Iterator[ServerT]]:
    """A ``server`` fixture: ``make()``, its verdict workers shut down after the test."""

    @pytest.fixture
    def server() -> Iterator[ServerT]:
        server = make()
        yield server
        server.verdicts.shutdown()  # type: ignore[attr-defined]

    return server


def save_tiny_ppo(tmp_path_factory: pytest.TempPathFactory, variant_name: str, encoding_name: str,
                        name: str, *, wrap: bool) -> Path:
    """An untrained MaskablePPO policy for ``variant_name`` saved with its metadata as ``ppo/name``:
    the ppo hint path, for real. ``wrap``: the environment is wrapped in the encoding."""
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from solitaire_rl.agents.encodings import find_encoding
    from solitaire_rl.agents.ppo import build_metadata, save_checkpoint
    from solitaire_rl.envs.spec import find_game

    variant = find_game(variant_name)
    encoding = find_encoding(encoding_name, variant.game)
    env = DummyVecEnv([lambda: encoding.wrap(variant.make_env())] if wrap else [variant.make_env])
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, policy_kwargs={"net_arch": [16]},
                        seed=0, device="cpu")
    metadata = build_metadata(variant, encoding, env.observation_space, {"run_name": "test"})
    path = save_checkpoint(model, tmp_path_factory.mktemp("ppo") / name, metadata)
    env.close()
    return path


LOCAL = "http://127.0.0.1"
"""The base URL of the test clients: the play server serves only this machine's names."""

__all__ = ["LOCAL", "GameApi", "save_tiny_ppo", "server_fixture"]


def random_pyramid_game(deal: str, seed: int = 5) -> list[str]:
    """Moves of Pyramid 001 on ``deal`` chosen at random (``random.Random(seed)``) until none is legal:
    a game played to its dead end, whose losing move the analysis has to find."""
    import random

    from solitaire_rl.envs.pyramid import PyramidGame

    game = PyramidGame(deal, stock_top_playable=False)
    rng = random.Random(seed)
    moves = []
    while game.legal_moves():
        move = rng.choice(game.legal_moves())
        game.push(move)
        moves.append(str(move))
    return moves
