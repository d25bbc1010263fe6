"""Stateful Schemathesis runs over both games' APIs, following the schema's OpenAPI links.

Schemathesis's state machine starts from the two create operations and follows the links every
state answer declares (:mod:`solitaire_rl.play.server.openapi_links`): the new game's ``session`` (and the
state's ``revision``) go to its read, act, play-the-hint, undo, hint and verdict operations, with
generated bodies and queries. Every answer must not be a 5xx and must conform to the schema
(status, content type, body); the test then checks that the links were followed in both APIs, so
the run cannot pass by testing nothing. The run is sized to about 10 s. A second test follows one
chain by the links on purpose, create -> Hint -> PlayHint -> Undo, and checks what each did.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig

from solitaire_rl.play.server.app import create_app
from solitaire_rl.play.server.openapi_links import game_links, operation_ref
from tests.play_openapi_helpers import CHECKS, make_app, served

GAMES = ("/api/games", "/api/klondike/games")
SCENARIOS = 20
"""State-machine runs (each up to :data:`STEPS` calls): about 7 s here on two busy cores."""
STEPS = 10

CONFIG = SchemathesisConfig.from_dict({"phases": {"stateful": {
    "inference": {"algorithms": []}, "generation": {"mode": "positive"}}}})
"""Only the schema's own links (Schemathesis's guessed ones tie ``session_id`` to a deal's ID), and
valid requests only: invalid ones are ``tests/test_play_openapi.py``'s, and here they would end
most chains at their first step."""
schema = schemathesis.openapi.from_dict(create_app().openapi(), config=CONFIG).include(
    path_regex=r"^/api/(klondike/)?games")


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with served(make_app()) as url:
        yield url


def test_every_state_answer_links_to_its_games_operations() -> None:
    spec = create_app().openapi()
    for games in GAMES:
        for path, method, status in [(games, "post", "201"), (games + "/{session_id}", "get", "200"),
                                     (games + "/{session_id}/actions", "post", "200"),
                                     (games + "/{session_id}/hint", "post", "200"),
                                     (games + "/{session_id}/verdict", "post", "202")]:
            links = spec["paths"][path][method]["responses"][status]["links"]
            assert links == game_links(games)
            for link in links.values():
                target = link["operationRef"].removeprefix("#/paths/").rsplit("/", 1)
                assert target[0].replace("~1", "/") in spec["paths"]  # each link names a real operation
                assert target[1] in spec["paths"][target[0].replace("~1", "/")]
                assert link["parameters"] == {"session_id": "$response.body#/session"}
    assert operation_ref("/a~b/{c}", "get") == "#/paths/~1a~0b~1{c}/get"


def test_chained_games_answer_by_the_schema(base_url: str) -> None:
    calls: list[tuple[str, str, Any, int, Any]] = []

    class Workflow(schema.as_state_machine()):  # type: ignore[misc]
        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {"base_url": base_url, "timeout": 60}

        def after_call(self, response: Any, case: Any) -> None:
            super().after_call(response, case)
            session = (case.path_parameters or {}).get("session_id")
            try:
                answer = response.json()
            except ValueError:
                answer = None
            calls.append((case.operation.label, session, case.body, response.status_code, answer))

        def validate_response(self, response: Any, case: Any, additional_checks: Any = None,
                              **kwargs: Any) -> None:
            case.validate_response(response, checks=CHECKS, transport_kwargs=kwargs or None)

    Workflow.run(settings=settings(max_examples=SCENARIOS, stateful_step_count=STEPS, deadline=None,
                                   derandomize=True, suppress_health_check=list(HealthCheck)))
    assert all(status < 500 for *_, status, _ in calls)
    for games in GAMES:
        created = {answer["session"] for label, _, _, status, answer in calls
                   if label == f"POST {games}" and status == 201}
        linked = [(label.removeprefix(f"POST {games}/{{session_id}}"), body, status)
                  for label, session, body, status, _ in calls if session in created]
        followed = {label for label, *_ in linked}
        assert {"/hint", "/actions", "/verdict"} <= followed, f"{games}: links not followed ({followed})"
        assert any(label == "/actions" and isinstance(body, dict) and body.get("type") == "undo"
                   for label, body, _ in linked)


def resolve(expression: Any, answer: dict[str, Any]) -> Any:
    """A link's value for ``answer``: ``$response.body#/a/b`` read from it, in dicts too."""
    if isinstance(expression, dict):
        return {key: resolve(value, answer) for key, value in expression.items()}
    if isinstance(expression, str) and expression.startswith("$response.body#/"):
        for key in expression.removeprefix("$response.body#/").split("/"):
            answer = answer[key]
        return answer
    return expression


def follow(base_url: str, answer: dict[str, Any], links: dict[str, Any], name: str) -> dict[str, Any]:
    """Make the request the link ``name`` describes from ``answer``; check it; its answer."""
    link = links[name]
    pointer, method = link["operationRef"].removeprefix("#/paths/").rsplit("/", 1)
    path = pointer.replace("~1", "/").replace("~0", "~")
    body = {"body": resolve(link["requestBody"], answer), "media_type": "application/json"} \
        if "requestBody" in link else {}
    case = schema[path][method.upper()].Case(path_parameters=resolve(link["parameters"], answer), **body)
    response = case.call(base_url=base_url, timeout=60)
    case.validate_response(response, checks=CHECKS)
    assert response.status_code in (200, 202), response.text
    return response.json()


@pytest.mark.parametrize("games", GAMES)
def test_a_game_followed_by_its_links_plays_and_undoes_a_hint(base_url: str, games: str) -> None:
    """create -> Hint -> PlayHint -> Undo, each request made from the previous answer's links."""
    spec = create_app().openapi()
    links = spec["paths"][games]["post"]["responses"]["201"]["links"]
    case = schema[games]["POST"].Case(body={}, media_type="application/json")
    response = case.call(base_url=base_url, timeout=60)
    case.validate_response(response, checks=CHECKS)
    created = response.json()
    hinted = follow(base_url, created, links, "Hint")
    assert hinted["hint"]["move"]
    played = follow(base_url, hinted, links, "PlayHint")
    assert played["history"] == [hinted["hint"]["move"]] and played["revision"] > hinted["revision"]
    undone = follow(base_url, played, links, "Undo")
    assert undone["history"] == [] and undone["redo"] == [hinted["hint"]["move"]]
    now = follow(base_url, created, links, "ReadGame")  # the first answer's link reads the game as it is now
    assert now["history"] == [] and now["revision"] == undone["revision"]
