"""Slow clients (solitaire_rl/play/server/slow_clients.py, solitaire_rl/play/server/cli.py): a request that
does not arrive
whole in time is answered 408 and its connection closed, while other clients are served meanwhile.

Each test runs a real server on 127.0.0.1 with a 1-second request deadline and raw sockets; every
loop is bounded in count and time (a few seconds per test).
"""

from __future__ import annotations

import http.client
import json
import select
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import uvicorn

from solitaire_rl.play.server import PyramidServer, create_app
from solitaire_rl.play.server.cli import (
    KEEP_ALIVE,
    MAX_CONNECTIONS,
    MAX_HEADER_BYTES,
    SHUTDOWN_WAIT,
    main,
    serve_in_thread,
    server_settings,
)
from solitaire_rl.play.server.slow_clients import REQUEST_TIMEOUT, TimedH11Protocol, timed_protocol

DEADLINE = 1.0
"""The request deadline of the test server (the default is :data:`REQUEST_TIMEOUT`)."""
SLACK = 1.5
"""How much later than the deadline a slow client may be dropped, on a busy machine."""
HEADERS = b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"


@pytest.fixture
def served() -> Iterator[tuple[PyramidServer, int]]:
    server = PyramidServer()
    uvicorn_server, thread, url = serve_in_thread(create_app(server), request_timeout=DEADLINE)
    yield server, int(url.rsplit(":", 1)[1])
    uvicorn_server.should_exit = True
    thread.join(timeout=15)
    server.verdicts.shutdown()


def trickle(port: int, pieces: list[bytes], gap: float, budget: float = 6.0) -> tuple[float, bytes]:
    """Send ``pieces`` one by one, ``gap`` seconds apart, until the server answers or closes; then
    read what it sent until it closes. Returns the seconds until the server closed and what it sent.
    """
    start, received = time.monotonic(), b""
    with socket.create_connection(("127.0.0.1", port), timeout=budget) as sock:
        try:
            for piece in pieces:  # bounded by len(pieces) and by budget
                if select.select([sock], [], [], gap)[0] or time.monotonic() - start > budget:
                    break  # the server spoke (or closed)
                sock.sendall(piece)
            while time.monotonic() - start < budget:
                part = sock.recv(4096)
                if not part:
                    break
                received += part
        except OSError:  # reset by the server once it closed
            pass
    return time.monotonic() - start, received


def assert_timed_out(elapsed: float, received: bytes) -> None:
    assert DEADLINE - 0.1 <= elapsed <= DEADLINE + SLACK, elapsed
    head, _, body = received.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 ") and b"connection: close" in head
    assert json.loads(body)["error"] == "TIMEOUT" and json.loads(body)["message_ja"]


def in_thread(target: Any, *args: Any) -> tuple[threading.Thread, list[Any]]:
    result: list[Any] = []
    thread = threading.Thread(target=lambda: result.append(target(*args)), daemon=True)
    thread.start()
    return thread, result


def test_a_connection_that_sends_nothing_is_closed_without_a_word(served: tuple[PyramidServer, int]) -> None:
    """As an idle kept-alive connection is: a browser's spare connection must not read a 408."""
    elapsed, received = trickle(served[1], [], gap=0.1)
    assert DEADLINE - 0.1 <= elapsed <= DEADLINE + SLACK and received == b""


def test_part_of_a_request_line_then_nothing_is_408(served: tuple[PyramidServer, int]) -> None:
    assert_timed_out(*trickle(served[1], [b"POST /api/ga"], gap=0.1))


@pytest.mark.parametrize("part", ["headers", "body"])
def test_a_slow_client_is_dropped_while_others_are_served(served: tuple[PyramidServer, int],
                                                          part: str) -> None:
    server, port = served
    if part == "headers":  # slowloris: one header byte every 0.1 s, never finished
        pieces = [bytes([b]) for b in HEADERS + b"X-Padding: " + b"a" * 100]
    else:  # the headers at once, then the body a byte every 0.1 s (it would need 20 s)
        pieces = [HEADERS + b"Content-Length: 200\r\n\r\n{"] + [b" "] * 198
    thread, result = in_thread(trickle, port, pieces, 0.1)
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=5) as client:
        created = []
        for _ in range(5):  # others meanwhile: served as fast as ever
            start = time.monotonic()
            created.append(client.post("/api/games", json={}).json()["session"])
            assert time.monotonic() - start < DEADLINE / 2
            time.sleep(0.1)
    thread.join(timeout=10)
    assert_timed_out(*result[0])
    assert len(server.sessions) == 5, "the slow request never reached a game"


def test_the_deadline_is_per_request_and_does_not_count_the_apps_time(
        served: tuple[PyramidServer, int]) -> None:
    """On one kept-alive connection, requests that each arrive in time are all served, however long
    the connection lasts; a pause shorter than the deadline inside a request is fine."""
    _, port = served
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        for _ in range(3):  # 3 x 0.6 s: longer than the deadline in all
            conn.putrequest("POST", "/api/games")
            for name, value in (("Content-Type", "application/json"), ("Content-Length", "2")):
                conn.putheader(name, value)
            conn.endheaders()
            time.sleep(0.6)
            conn.send(b"{}")
            answer = conn.getresponse()
            assert answer.status == 201 and json.loads(answer.read())["session"]
    finally:
        conn.close()


def test_a_slow_answer_is_not_a_slow_client() -> None:
    """The application's own time does not count: an answer that takes longer than the deadline is sent."""
    server = PyramidServer()
    app = create_app(server)

    @app.get("/api/slow-test")
    def slow() -> dict[str, bool]:
        time.sleep(DEADLINE + 0.5)
        return {"done": True}

    uvicorn_server, thread, url = serve_in_thread(app, request_timeout=DEADLINE)
    try:
        assert httpx.get(url + "/api/slow-test", timeout=10).json() == {"done": True}
    finally:
        uvicorn_server.should_exit = True
        thread.join(timeout=15)
        server.verdicts.shutdown()


def test_the_server_runs_with_these_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = server_settings()
    assert issubclass(settings["http"], TimedH11Protocol)
    assert settings["http"].request_timeout == REQUEST_TIMEOUT
    assert (settings["timeout_keep_alive"], settings["limit_concurrency"]) == (KEEP_ALIVE, MAX_CONNECTIONS)
    assert settings["h11_max_incomplete_event_size"] == MAX_HEADER_BYTES
    assert settings["timeout_graceful_shutdown"] == SHUTDOWN_WAIT and settings["host"] == "127.0.0.1"
    ran: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: ran.update(kwargs, app=app))
    assert main(["--port", "0", "--no-browser"]) == 0
    ran.pop("app").state.server.verdicts.shutdown()
    assert {k: v for k, v in ran.items() if k not in ("http", "port")} == {
        k: v for k, v in settings.items() if k != "http"}
    assert ran["http"].request_timeout == REQUEST_TIMEOUT
    assert server_settings(2.5)["http"].request_timeout == 2.5


@pytest.mark.parametrize("seconds", [0, -1, float("nan"), float("inf")])
def test_a_request_timeout_is_a_positive_number(seconds: float) -> None:
    with pytest.raises(ValueError, match="over 0"):
        timed_protocol(seconds)
