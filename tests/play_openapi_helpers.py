"""What the Schemathesis tests of the play server share: the real application with quick hints and
verdicts, served by uvicorn on 127.0.0.1 (``tests/test_play_openapi.py``,
``tests/test_play_openapi_stateful.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from solitaire_rl.agents.solver import SearchLimits
from solitaire_rl.play.server.app import PyramidServer, create_app
from solitaire_rl.play.server.cli import serve_in_thread
from solitaire_rl.play.server.klondike_advice import KlondikeHintAdvisor, KlondikeVerdictService
from solitaire_rl.play.server.klondike_api import KlondikeServer, mount_klondike
from solitaire_rl.play.server.pyramid_advice import PyramidHintAdvisor, PyramidVerdictService

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
"""No 5xx; only declared statuses, with the declared content type and a body that fits its schema."""


def make_app() -> Any:
    """The real application, with hints and verdicts that answer quickly."""
    quick = SearchLimits(time_limit=0.5)
    app = create_app(PyramidServer(hints=PyramidHintAdvisor(planner_time=0.05, planner_threads=1),
                                   verdicts=PyramidVerdictService(limits=quick)))
    return mount_klondike(app, KlondikeServer(
        hints=KlondikeHintAdvisor(planner_time=0.05, planner_threads=1),
        verdicts=KlondikeVerdictService(limits=quick)))


@contextmanager
def served(app: Any) -> Iterator[str]:
    """``app`` served on 127.0.0.1 (a free port, the play server's uvicorn settings); its base URL."""
    server, thread, url = serve_in_thread(app)
    try:
        yield url
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        app.state.server.verdicts.shutdown()
        app.state.klondike.verdicts.shutdown()
