"""The play server's published contract, checked against the running server with Schemathesis.

The server (uvicorn on 127.0.0.1, a free port, the real application with shorter planner hints)
serves its OpenAPI schema; Schemathesis generates requests for every operation from it and checks
that the server never fails (5xx), answers only statuses the schema declares, with the declared
content type and a body that fits the declared schema. Half the generated game IDs are replaced
by a live game's, so the actions, hints and verdicts run on real games, not only the 404 path.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from solitaire_rl.play.server.app import create_app
from tests.play_openapi_helpers import CHECKS, make_app, served

EXAMPLES = 30
"""Generated requests per operation (twelve operations); 100 each took 31 s here, and found nothing more."""


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with served(make_app()) as url:
        yield url


PUBLISHED = create_app().openapi()
"""The schema the application publishes at ``/openapi.json`` (a test checks the running server
serves exactly this one). Loaded here, before any server runs, because Schemathesis's lazy
``from_fixture`` loader does not work with this pytest; the requests still go to the server."""
schema = schemathesis.openapi.from_dict(PUBLISHED)


def live_game(base_url: str, path: str) -> str:
    """A new game's ID, of the game the path belongs to."""
    prefix = "/api/klondike/games" if path.startswith("/api/klondike/") else "/api/games"
    response = httpx.post(base_url + prefix, json={}, timeout=30)
    assert response.status_code == 201, response.text
    return response.json()["session"]


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_every_answer_matches_the_published_schema(case: Any, base_url: str) -> None:
    session_id = (case.path_parameters or {}).get("session_id")
    if isinstance(session_id, str) and len(session_id) % 2 == 0:
        case.path_parameters["session_id"] = live_game(base_url, case.path)
    case.call_and_validate(base_url=base_url, checks=CHECKS, timeout=60)


def test_the_schema_declares_every_error_in_the_projects_error_body(base_url: str) -> None:
    spec = httpx.get(f"{base_url}/openapi.json", timeout=30).json()
    assert spec == PUBLISHED
    error_ref = {"$ref": "#/components/schemas/ErrorBody"}
    assert set(spec["components"]["schemas"]["ErrorBody"]["required"]) == {"error", "message", "message_ja"}
    operations = [op for item in spec["paths"].values() for op in item.values()]
    assert len(operations) == 17  # games, hints, verdicts, both games' chance, analysis viewer, daily deals
    for operation in operations:
        for status in ("400", "404", "409", "413", "422"):
            assert operation["responses"][status]["content"]["application/json"]["schema"] == error_ref
    assert httpx.get(f"{base_url}/docs", timeout=30).status_code == 200


@pytest.mark.parametrize(("method", "path", "status", "code"), [
    ("GET", "/api/nothing-here", 404, "NOT_FOUND"),
    ("GET", "/static/no-such-file.js", 404, "NOT_FOUND"),
    ("DELETE", "/api/games", 405, "METHOD_NOT_ALLOWED"),
    ("PUT", "/api/klondike/games/abc/actions", 405, "METHOD_NOT_ALLOWED"),
])
def test_unknown_routes_and_methods_answer_in_the_error_body(base_url: str, method: str, path: str,
                                                            status: int, code: str) -> None:
    response = httpx.request(method, base_url + path, timeout=30)
    assert response.status_code == status
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert body["error"] == code and body["message"] and body["message_ja"]
    if status == 405:
        assert "POST" in response.headers["allow"]
