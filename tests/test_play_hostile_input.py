"""Oversized and deeply nested request bodies (solitaire_rl/play/server/body_limits.py): refused with 413
before
they are read whole, or 422 before any parser recurses into them; either way nothing changes."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from solitaire_rl.play.server import PyramidServer, create_app
from solitaire_rl.play.server.body_limits import MAX_BODY_BYTES, MAX_JSON_DEPTH, BodyLimit, nesting_depth
from solitaire_rl.play.server.cli import serve_in_thread
from tests.play_api_helpers import LOCAL

JSON = {"content-type": "application/json"}
GAMES = ("/api/games", "/api/klondike/games")


@pytest.fixture
def client() -> Iterator[TestClient]:
    server = PyramidServer()
    app = create_app(server)
    with TestClient(app, base_url=LOCAL) as c:
        yield c
    server.verdicts.shutdown()
    app.state.klondike.verdicts.shutdown()


def sessions(client: TestClient) -> tuple[int, int]:
    state = client.app.state  # type: ignore[attr-defined]
    return len(state.server.sessions), len(state.klondike.sessions)


def nested(depth: int, inner: bytes = b"") -> bytes:
    return b"[" * depth + inner + b"]" * depth


def depth_of(value: Any) -> int:
    """The nesting depth of a JSON value, by recursion (the reference :func:`nesting_depth` must match)."""
    if isinstance(value, list):
        return 1 + max((depth_of(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((depth_of(v) for v in value.values()), default=0)
    return 0


TEXT = st.text(alphabet=st.sampled_from('[]{}"\\ab\n'), max_size=6)
VALUES = st.recursive(st.none() | st.booleans() | st.integers() | TEXT,
                      lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
                      max_leaves=12)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(VALUES)
def test_nesting_depth_counts_brackets_outside_strings(value: Any) -> None:
    text = json.dumps(value).encode()
    assert nesting_depth(text) == depth_of(value)
    assert nesting_depth(text, stop=0) == min(depth_of(value), 1)  # stops once past ``stop``


def test_nesting_depth_of_what_is_not_json() -> None:
    assert nesting_depth(b"]]]][[") == 2 and nesting_depth(b'"\\"[[[') == 0 and nesting_depth(b"") == 0
    assert nesting_depth(b'["\\\\", [[]]]') == 3  # an escaped backslash ends before the quote


@pytest.mark.parametrize("path", [*GAMES, "/api/analysis"])
def test_a_body_nested_too_deep_is_422_and_creates_nothing(client: TestClient, path: str) -> None:
    for body in (nested(MAX_JSON_DEPTH + 1), b'{"history": ' + nested(MAX_JSON_DEPTH) + b"}",
                 nested(MAX_BODY_BYTES // 2 - 1)):
        answer = client.post(path, content=body, headers=JSON)
        assert answer.status_code == 422, answer.text
        assert answer.json()["error"] == "INVALID_REQUEST" and answer.json()["message_ja"]
        assert f"more than {MAX_JSON_DEPTH} levels deep" in answer.json()["message"]
    assert sessions(client) == (0, 0) and not client.app.state.analyses._items  # type: ignore[attr-defined]


@pytest.mark.parametrize("games", GAMES)
def test_a_deep_action_changes_nothing(client: TestClient, games: str) -> None:
    game = client.post(games, json={}).json()
    state = client.get(f"{games}/{game['session']}").json()
    answer = client.post(f"{games}/{game['session']}/actions", headers=JSON,
                         content=b'{"type": "draw", "move": ' + nested(40) + b"}")
    assert answer.status_code == 422 and "levels deep" in answer.json()["message"]
    assert client.get(f"{games}/{game['session']}").json() == state


def test_the_deepest_body_the_api_takes_passes(client: TestClient) -> None:
    """A Klondike position (4 levels: object, object, list, list) and brackets inside strings."""
    cards = list(range(52))
    columns = [cards[n * (n + 1) // 2:(n + 1) * (n + 2) // 2] for n in range(7)]
    body = {"position": {"columns": columns, "hidden": list(range(7)), "stock": cards[28:]}}
    assert nesting_depth(json.dumps(body).encode()) == 4
    created = client.post("/api/klondike/games", json=body)
    assert created.status_code == 201, created.text
    answer = client.post("/api/games", json={"deal": "[" * 50 + "]"})
    assert answer.status_code == 400 and answer.json()["error"] == "MALFORMED"  # read, then refused


def test_deep_json_is_refused_without_recursion_even_when_large() -> None:
    """100,000 nested arrays under a 1 MiB size limit: 422 at once (the JSON parser would recurse)."""
    server = PyramidServer()
    with TestClient(create_app(server, max_body_bytes=1 << 20), base_url=LOCAL) as c:
        start = time.perf_counter()
        answer = c.post("/api/games", content=nested(100_000), headers=JSON)
        assert answer.status_code == 422 and "levels deep" in answer.json()["message"]
        assert time.perf_counter() - start < 2
        assert len(server.sessions) == 0
    server.verdicts.shutdown()


def test_a_large_body_is_413_and_creates_nothing(client: TestClient) -> None:
    big = b'{"deal": "' + b"x" * MAX_BODY_BYTES + b'"}'
    for games in GAMES:
        answer = client.post(games, content=big, headers=JSON)
        assert answer.status_code == 413 and answer.json()["error"] == "TOO_LARGE"
        assert answer.headers["connection"] == "close"
    assert sessions(client) == (0, 0)


def test_a_body_at_the_limit_reaches_the_app(client: TestClient) -> None:
    body = b'{"deal": "pyramid-random-v1-7"}'
    padded = body[:-1] + b" " * (MAX_BODY_BYTES - len(body)) + b"}"
    assert len(padded) == MAX_BODY_BYTES
    answer = client.post("/api/games", content=padded, headers=JSON)
    assert answer.status_code == 201 and answer.json()["deal"]["id"] == "pyramid-random-v1-7"


def test_limits_are_checked() -> None:
    with pytest.raises(ValueError, match="depth of 1 or more"):
        BodyLimit(None, max_depth=0)
    with pytest.raises(ValueError, match="0 bytes or more"):
        BodyLimit(None, limit=-1)


def send_large(port: int, total: int, chunked: bool) -> tuple[bytes, int]:
    """POST ``total`` bytes to create a game over a raw socket; the answer's head and the bytes sent
    before the server stopped taking them."""
    head = b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    head += b"Transfer-Encoding: chunked\r\n\r\n" if chunked else b"Content-Length: %d\r\n\r\n" % total
    chunk, sent = b" " * (1 << 20), 0
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head)
        try:
            while sent < total:  # at most total / 1 MiB sends
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk) if chunked else chunk)
                sent += len(chunk)
        except OSError:  # the server answered and closed the connection
            pass
        answer = b""
        try:
            while b"\r\n\r\n" not in answer:
                part = sock.recv(4096)
                if not part:
                    break
                answer += part
        except OSError:
            pass
    return answer.split(b"\r\n\r\n")[0], sent


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_fifty_megabytes_are_refused_before_they_are_read(chunked: bool) -> None:
    """Over a real server: 413 ``Connection: close`` while the client is still sending, nothing created."""
    server = PyramidServer()
    uvicorn_server, thread, url = serve_in_thread(create_app(server))
    try:
        head, sent = send_large(int(url.rsplit(":", 1)[1]), 50 << 20, chunked)
        assert head.startswith(b"HTTP/1.1 413 ") and b"connection: close" in head.lower()
        assert sent < 50 << 20, "the server stopped reading long before the end"
        assert len(server.sessions) == 0
    finally:
        uvicorn_server.should_exit = True
        thread.join(timeout=15)
        server.verdicts.shutdown()
