"""``python -m solitaire_rl.play``'s start-up: the port probe, and a stop followed at once by a start."""

from __future__ import annotations

import http.client
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from solitaire_rl.play.server.cli import HOST, free_port, main, port_is_free

ROOT = Path(__file__).resolve().parent.parent


def start_server(port: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "solitaire_rl.play", "--no-browser", "--port", str(port)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def connect_when_up(port: int, proc: subprocess.Popen[str],
                    timeout: float = 30) -> http.client.HTTPConnection:
    """A keep-alive connection that has fetched the Pyramid page from the server on ``port``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"the server exited ({proc.returncode}): {proc.stderr.read() if proc.stderr else ''}")
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=5)
            conn.request("GET", "/")
            assert conn.getresponse().read().startswith(b"<!doctype html>")
            return conn
        except OSError:
            time.sleep(0.05)
    pytest.fail(f"the server did not answer on port {port}")


def stop(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=15)


def test_a_stopped_server_starts_again_at_once_on_its_port() -> None:
    """A page's open connections (TIME_WAIT once the server closes them) do not block the restart."""
    port = free_port()
    first = start_server(port)
    try:
        conn = connect_when_up(port, first)
        conn.request("GET", "/klondike")  # the page's connection stays open until the server stops
        conn.getresponse().read()
    finally:
        stop(first)
    second = start_server(port)
    try:
        again = connect_when_up(port, second, timeout=10)
        again.request("GET", "/api/klondike/games/nope")
        assert again.getresponse().status == 404  # the new server answers the API too
        again.close()
    finally:
        stop(second)
    assert "is in use" not in (second.stderr.read() if second.stderr else "")


def test_a_port_another_server_listens_on_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as other:
        other.bind((HOST, 0))
        other.listen()
        port = other.getsockname()[1]
        assert not port_is_free(port)
        with pytest.raises(SystemExit) as exc:
            main(["--port", str(port), "--no-browser"])
    assert exc.value.code == 2 and f"port {port} is in use" in capsys.readouterr().err
    assert port_is_free(port)  # closed: free again
