"""``python -m solitaire_rl.play``: start the local play server on 127.0.0.1 and open the page."""

from __future__ import annotations

import argparse
import socket
import threading
import time
import webbrowser
from typing import Any

HOST = "127.0.0.1"
DEFAULT_PORT = 8765
KEEP_ALIVE = 5
"""Seconds an idle connection stays open after an answer (uvicorn's ``timeout_keep_alive``)."""
MAX_CONNECTIONS = 256
"""Connections and requests at once before uvicorn answers 503 (``limit_concurrency``)."""
MAX_HEADER_BYTES = 16 * 1024
"""The largest request line and headers; more is answered 400 (``h11_max_incomplete_event_size``)."""
SHUTDOWN_WAIT = 5
"""Seconds a stop waits for requests in progress (``timeout_graceful_shutdown``)."""


def server_settings(request_timeout: float | None = None) -> dict[str, Any]:
    """uvicorn's settings for the play server, bounds for slow and many clients included.

    ``request_timeout``: seconds a request's headers and body may take to arrive (default
    :data:`solitaire_rl.play.server.slow_clients.REQUEST_TIMEOUT`); the other bounds are this module's
    constants.
    """
    from solitaire_rl.play.server.slow_clients import REQUEST_TIMEOUT, timed_protocol

    request_timeout = REQUEST_TIMEOUT if request_timeout is None else request_timeout
    return {"host": HOST, "log_level": "warning", "http": timed_protocol(request_timeout),
            "timeout_keep_alive": KEEP_ALIVE, "limit_concurrency": MAX_CONNECTIONS,
            "h11_max_incomplete_event_size": MAX_HEADER_BYTES, "timeout_graceful_shutdown": SHUTDOWN_WAIT}


def port_is_free(port: int) -> bool:
    """Whether the server could listen on ``port`` of 127.0.0.1 now.

    The probe sets ``SO_REUSEADDR`` as uvicorn does, so the closed connections of a server just
    stopped (TIME_WAIT) do not count as the port being in use; a server still listening does.
    """
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((HOST, port))
            probe.listen()
        except OSError:
            return False
    return True


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def serve_in_thread(app: Any = None, port: int = 0,
                    request_timeout: float | None = None) -> tuple[Any, threading.Thread, str]:
    """Start the server (``app``, default a new one) in a daemon thread; return it, the thread and its URL.

    Stop it with ``server.should_exit = True`` and ``thread.join()``. Used by tests and benchmarks;
    the settings are :func:`server_settings`'s.
    """
    import uvicorn

    from solitaire_rl.play.server import create_app

    port = port or free_port()
    config = uvicorn.Config(app or create_app(), port=port, **server_settings(request_timeout))
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"the play server did not start on port {port}")
        time.sleep(0.01)
    return server, thread, f"http://{HOST}:{port}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m solitaire_rl.play", description="Play Pyramid in the browser."
    )
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"port (default {DEFAULT_PORT}; 0: any free)")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser tab")
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        parser.error(f"--port must be 0..65535, not {args.port}")
    try:
        import uvicorn

        from solitaire_rl.play.server import create_app
    except ImportError as exc:
        parser.error(f"the play server needs its extra: pip install -e '.[play]' ({exc})")
    port = args.port or free_port()
    if not port_is_free(port):
        parser.error(f"port {port} is in use: choose another with --port N (0 picks a free one)")
    url = f"http://{HOST}:{port}/"
    print(f"Pyramid and Klondike are being served at {url}  (Klondike: {url}klondike; Ctrl+C stops it)",
          flush=True)
    if not args.no_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(create_app(), port=port, **server_settings())
    return 0


__all__ = ["DEFAULT_PORT", "HOST", "KEEP_ALIVE", "MAX_CONNECTIONS", "MAX_HEADER_BYTES", "SHUTDOWN_WAIT",
           "free_port", "main", "port_is_free", "serve_in_thread", "server_settings"]
