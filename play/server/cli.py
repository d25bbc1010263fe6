"""``python -m play``: start the local play server on 127.0.0.1 and open the page."""

from __future__ import annotations

import argparse
import socket
import threading
import time
import webbrowser
from typing import Any

HOST = "127.0.0.1"
DEFAULT_PORT = 8765


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


def serve_in_thread(app: Any = None, port: int = 0) -> tuple[Any, threading.Thread, str]:
    """Start the server (``app``, default a new one) in a daemon thread; return it, the thread and its URL.

    Stop it with ``server.should_exit = True`` and ``thread.join()``. Used by tests and benchmarks.
    """
    import uvicorn

    from play.server import create_app

    port = port or free_port()
    server = uvicorn.Server(uvicorn.Config(app or create_app(), host=HOST, port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"the play server did not start on port {port}")
        time.sleep(0.01)
    return server, thread, f"http://{HOST}:{port}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m play", description="Play Pyramid in the browser.")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"port (default {DEFAULT_PORT}; 0: any free)")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser tab")
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        parser.error(f"--port must be 0..65535, not {args.port}")
    try:
        import uvicorn

        from play.server import create_app
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
    uvicorn.run(create_app(), host=HOST, port=port, log_level="warning")
    return 0


__all__ = ["DEFAULT_PORT", "HOST", "free_port", "main", "port_is_free", "serve_in_thread"]
