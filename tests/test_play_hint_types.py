"""The hint a state carries is typed (issue 38): a union of models told apart by ``kind``, each field with
one meaning in both games, declared in ``/openapi.json``.

Every kind the server sends validates against its member, from every source of both games: a move
(Pyramid's ``places`` and ``move_kind``, Klondike's ``from_place`` and ``to_place``), Klondike's
``looping`` and ``no_progress``, and draw 1's fallbacks. No field names a card's place in one game and
the hint's source in the other (Klondike's move hint once said ``source`` for the card's place)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from solitaire_rl.agents.planner.hop import HopStep
from solitaire_rl.agents.solver import SearchLimits
from solitaire_rl.envs.klondike import KlondikeGame, Move
from solitaire_rl.envs.pyramid import place_name
from solitaire_rl.play.server.advice import HINT_SOURCES
from solitaire_rl.play.server.app import create_app
from solitaire_rl.play.server.hints import (
    KLONDIKE_HINT,
    KlondikeMoveHint,
    LoopingHint,
    NoProgressHint,
    PyramidMoveHint,
    klondike_hint,
)
from solitaire_rl.play.server.klondike_advice import KlondikeHintAdvisor, KlondikeVerdictService
from solitaire_rl.play.server.klondike_api import KlondikeServer, mount_klondike
from solitaire_rl.play.server.klondike_session import move_source, move_target
from solitaire_rl.play.server.pyramid_advice import PyramidHintAdvisor, PyramidVerdictService
from solitaire_rl.play.server.pyramid_api import PyramidServer
from solitaire_rl.play.server.schemas import KlondikeState, PyramidState
from tests.conftest import DRAW_ONLY_PYRAMID, DRAW_ONLY_STOCK, build_pyramid_deal
from tests.play_api_helpers import LOCAL, GameApi
from tests.test_play_klondike_api import NO_PROGRESS

PYRAMID, KLONDIKE = GameApi("/api/games"), GameApi("/api/klondike/games")
FAST = {"planner_time": 0.2}
"""A planner's budget short enough for many hints (a hint with no sample in time falls back, typed too)."""
MEMBERS = {"move": "KlondikeMoveHint", "looping": "LoopingHint", "no_progress": "NoProgressHint"}


def looping_advisor() -> KlondikeHintAdvisor:
    """A Klondike advisor whose planner always finds play going round in circles."""
    advisor = KlondikeHintAdvisor(**FAST)
    advisor.planner_step = lambda *args, **kwargs: HopStep("looping", None)  # type: ignore[method-assign]
    return advisor


def make_client(klondike_hints: KlondikeHintAdvisor) -> TestClient:
    """Both games' endpoints, Klondike's hints from ``klondike_hints``."""
    limits = SearchLimits(time_limit=5.0)
    app = create_app(PyramidServer(hints=PyramidHintAdvisor(**FAST), verdicts=PyramidVerdictService(limits)))
    klondike = KlondikeServer(hints=klondike_hints, verdicts=KlondikeVerdictService(limits))
    return TestClient(mount_klondike(app, klondike), base_url=LOCAL)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with make_client(KlondikeHintAdvisor(**FAST)) as c:
        yield c


def hinted(client: TestClient, api: GameApi, state: dict[str, Any],
           source: str = "planner") -> dict[str, Any]:
    r = client.post(f"{api.games}/{state['session']}/hint", params={"source": source})
    assert r.status_code == 200, r.text
    return r.json()


# ---------------------------------------------------------------- every kind validates
@pytest.mark.parametrize("source", HINT_SOURCES)
def test_a_pyramid_hint_of_every_source_is_a_pyramid_move_hint(client: TestClient, source: str) -> None:
    state = hinted(client, PYRAMID, PYRAMID.new_game(client, deal="pyramid-random-v1-7"), source)
    hint = PyramidMoveHint.model_validate(state["hint"])
    assert PyramidState.model_validate(state).hint == hint
    assert (hint.kind, hint.requested, hint.move_kind) == ("move", source, "remove")
    assert hint.places and hint.move == "+".join(place_name(p) for p in hint.places)
    assert hint.reason and hint.reason_en


def test_a_pyramid_draw_hint_names_its_move_kind_and_no_place(client: TestClient) -> None:
    state = PYRAMID.new_game(client, deal=build_pyramid_deal(DRAW_ONLY_PYRAMID, DRAW_ONLY_STOCK))
    hint = PyramidMoveHint.model_validate(hinted(client, PYRAMID, state, "agent")["hint"])
    assert (hint.kind, hint.move_kind, hint.places, hint.move) == ("move", "draw", [], "draw")


@pytest.mark.parametrize("source", HINT_SOURCES)
def test_a_klondike_hint_of_every_source_is_a_klondike_move_hint(client: TestClient, source: str) -> None:
    state = hinted(client, KLONDIKE, KLONDIKE.new_game(client, deal="klondike-random-v1-1"), source)
    hint = KLONDIKE_HINT.validate_python(state["hint"])
    assert isinstance(hint, KlondikeMoveHint) and KlondikeState.model_validate(state).hint == hint
    assert (hint.requested, hint.fallbacks) == (source, [])
    game = KlondikeGame("klondike-random-v1-1")
    move = Move.parse(hint.move)
    assert move in game.legal_moves()
    assert (hint.from_place, hint.to_place) == (move_source(move), move_target(move, game))
    assert hint.hint_source in HINT_SOURCES and hint.from_place not in HINT_SOURCES


def test_the_no_progress_notice_is_its_own_kind(client: TestClient) -> None:
    state = hinted(client, KLONDIKE, KLONDIKE.new_game(client, position=NO_PROGRESS))
    hint = KLONDIKE_HINT.validate_python(state["hint"])
    assert isinstance(hint, NoProgressHint) and hint.en.startswith("Moves remain")
    assert set(state["hint"]) == {"kind", "en", "ja"}, "no advisor answered: nobody is named"
    assert KlondikeState.model_validate(state).hint == hint


def test_a_planner_going_round_in_circles_says_so_as_its_own_kind() -> None:
    with make_client(looping_advisor()) as client:
        for source in ("planner", "guided"):
            state = hinted(client, KLONDIKE, KLONDIKE.new_game(client, deal="klondike-random-v1-1"), source)
            hint = KLONDIKE_HINT.validate_python(state["hint"])
            assert isinstance(hint, LoopingHint) and hint.requested == source, hint
            assert hint.hint_source in ("planner", "guided") and "move" not in state["hint"]
            assert KlondikeState.model_validate(state).hint == hint


@pytest.mark.parametrize("source", ["agent", "network", "guided"])
def test_draw_1_fallbacks_are_typed_move_hints(client: TestClient, source: str) -> None:
    game = KLONDIKE.new_game(client, deal="klondike-random-v1-5", draw_count=1)
    state = hinted(client, KLONDIKE, game, source)
    hint = KLONDIKE_HINT.validate_python(state["hint"])
    assert isinstance(hint, KlondikeMoveHint) and hint.requested == source
    assert hint.fallbacks in (["draw3_only"], ["draw3_only", "planner_late"]) and hint.fallback_reason


def test_a_late_planner_in_draw_1_is_a_typed_move_hint_too() -> None:
    advisor = KlondikeHintAdvisor(planner_time=1e-9, planner_states=1)
    game = KlondikeGame("klondike-random-v1-2", draw_count=1)  # no card safe to put up: the planner searches
    hint = KLONDIKE_HINT.validate_python(advisor.hint(game, "agent"))
    assert isinstance(hint, KlondikeMoveHint) and hint.fallbacks == ["draw3_only", "planner_late"]
    assert hint.agent == "greedy"


# ---------------------------------------------------------------- one meaning per field
def test_no_field_is_left_for_a_client_to_guess() -> None:
    fields = {name for model in (PyramidMoveHint, KlondikeMoveHint, LoopingHint, NoProgressHint)
              for name in model.model_fields}
    assert not fields & {"source", "target", "from"}, "a place and the hint's source never share a name"
    assert KlondikeMoveHint.model_fields["from_place"].description
    good = {"kind": "move", "en": "e", "ja": "j", "requested": "planner", "hint_source": "planner",
            "agent": "hop", "fallback_reason": None, "move": "c7>f", "reason": "r", "reason_en": "r",
            "reason_ja": None, "from_place": "c7", "to_place": "fC", "progress": True}
    assert klondike_hint(good)["from_place"] == "c7"
    for wrong in ({"source": "c7"}, {"from_place": "planner"}, {"kind": "remove"}, {"hint_source": "solver"}):
        with pytest.raises(ValidationError):
            klondike_hint({**good, **wrong})


# ---------------------------------------------------------------- the published schema
def test_the_openapi_schema_declares_the_union_with_its_members_named(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    schemas = spec["components"]["schemas"]
    klondike = schemas["KlondikeState"]["properties"]["hint"]["anyOf"]
    union = next(part for part in klondike if "oneOf" in part)
    assert {"type": "null"} in klondike
    assert union["discriminator"]["propertyName"] == "kind"
    assert union["discriminator"]["mapping"] == {k: f"#/components/schemas/{m}" for k, m in MEMBERS.items()}
    assert sorted(part["$ref"] for part in union["oneOf"]) == sorted(
        f"#/components/schemas/{m}" for m in MEMBERS.values())
    for kind, member in MEMBERS.items():
        assert schemas[member]["properties"]["kind"]["const"] == kind
        assert schemas[member]["additionalProperties"] is False
    assert {"from_place", "to_place", "progress"} <= set(schemas["KlondikeMoveHint"]["required"])
    pyramid = schemas["PyramidState"]["properties"]["hint"]["anyOf"]
    assert {"$ref": "#/components/schemas/PyramidMoveHint"} in pyramid and {"type": "null"} in pyramid
    assert schemas["PyramidMoveHint"]["properties"]["kind"]["const"] == "move"
    assert {"places", "move_kind"} <= set(schemas["PyramidMoveHint"]["required"])
    for member in ("PyramidMoveHint", "KlondikeMoveHint", "LoopingHint"):
        sources = schemas[member]["properties"]["hint_source"]
        assert sources["enum"] == list(HINT_SOURCES) and sources["description"]
