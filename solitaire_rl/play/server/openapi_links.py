"""OpenAPI links between a game's operations: the ``session`` of a state feeds the next request.

Every answer that is a game's state (create, read, act, hint, verdict start) links to that game's
operations with ``session_id`` taken from ``$response.body#/session``, so a client (and
Schemathesis's stateful tests, ``tests/test_play_openapi_stateful.py``) can follow a game from its
creation: act, hint, play the hint (``hint.move``), undo, read, verdict; an action names the
state's ``revision``. The targets are named by ``operationRef`` (a JSON pointer into ``paths``),
which does not depend on FastAPI's generated operation IDs.
"""

from __future__ import annotations

SESSION = {"session_id": "$response.body#/session"}
REVISION = "$response.body#/revision"
"""An action names the revision of the state it was chosen on, as the pages do."""

TARGETS = (
    ("ReadGame", "/{session_id}", "get", None, "the game's state"),
    ("Act", "/{session_id}/actions", "post", {"revision": REVISION}, "an action on the game as it is"),
    ("PlayHint", "/{session_id}/actions", "post", {"type": "move", "move": "$response.body#/hint/move",
                                                   "revision": REVISION}, "play the move the hint names"),
    ("Undo", "/{session_id}/actions", "post", {"type": "undo", "revision": REVISION}, "undo the last move"),
    ("Hint", "/{session_id}/hint", "post", None, "a hint for the game"),
    ("StartVerdict", "/{session_id}/verdict", "post", None, "start the solver's verdict"),
    ("ReadVerdict", "/{session_id}/verdict", "get", None, "the verdict, once found"),
)
"""Link name, path under the game's prefix, method, fixed request body, description."""


def operation_ref(path: str, method: str) -> str:
    """The JSON pointer ``#/paths/<path>/<method>`` (``~`` and ``/`` escaped as RFC 6901 says)."""
    return "#/paths/" + path.replace("~", "~0").replace("/", "~1") + "/" + method


def game_links(prefix: str) -> dict[str, dict[str, object]]:
    """The links of a state answer of the game under ``prefix`` (``/api/games``, ``/api/klondike/games``)."""
    links: dict[str, dict[str, object]] = {}
    for name, path, method, body, description in TARGETS:
        link: dict[str, object] = {"operationRef": operation_ref(prefix + path, method),
                                   "parameters": dict(SESSION), "description": description}
        if body is not None:
            link["requestBody"] = body
            if "type" in body:  # this body as it is, not merged into a generated one (Schemathesis)
                link["x-schemathesis"] = {"merge_body": False}
        links[name] = link
    return links


__all__ = ["TARGETS", "game_links", "operation_ref"]
