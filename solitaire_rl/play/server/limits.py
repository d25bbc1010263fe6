"""What the play server serves, and to whom: this machine's own pages only.

The server listens on 127.0.0.1, but a page elsewhere on the web can still reach it through the
player's browser: by DNS rebinding (a name of the attacker's that resolves to 127.0.0.1, sent
with its own ``Host``) or by a cross-origin form or ``fetch`` that changes a game.
:class:`LocalOnly` refuses both before the application sees the request:

* 421 ``MISDIRECTED``: a ``Host`` other than ``127.0.0.1``, ``localhost`` or ``[::1]`` (any port);
* 403 ``CROSS_ORIGIN``: a request that can change a game (any method but GET, HEAD and OPTIONS)
  sent by another site (an ``Origin`` of another host, or ``Sec-Fetch-Site: cross-site``).

The server's other bounds: request bodies (:class:`solitaire_rl.play.server.body_limits.BodyLimit`, 413 and
422), sessions
(:class:`solitaire_rl.play.server.session.SessionStore`, least recently used evicted: 404 ``UNKNOWN_GAME``)
and
planner and solver work at once (:class:`solitaire_rl.play.server.work.WorkLimiter`, 503 ``BUSY``).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any
from urllib.parse import urlsplit

from solitaire_rl.play.server.game_routes import error_response

LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]"})
"""The ``Host`` names served (with any port)."""
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def host_name(value: str) -> str:
    """``value`` (a ``Host`` header or a URL's netloc) without its port, lower case."""
    value = value.strip().lower()
    if value.startswith("["):  # [::1]:8765
        return value[: value.find("]") + 1] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


class LocalOnly:
    """ASGI middleware: serve only requests addressed to this machine, and let only its own pages
    change a game (see the module's docstring)."""

    def __init__(self, app: Any, hosts: Collection[str] = LOCAL_HOSTS) -> None:
        self.app, self.hosts = app, frozenset(h.lower() for h in hosts)

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = host_name(headers.get("host", ""))
        if host not in self.hosts:
            response = error_response(
                421, "MISDIRECTED", f"This server answers requests to 127.0.0.1 or localhost only, not "
                f"{host or 'a request without a Host'}.",
                "このサーバーは 127.0.0.1 と localhost 宛ての要求だけに答えます")
            await response(scope, receive, send)
            return
        if scope.get("method", "GET").upper() not in SAFE_METHODS:
            origin = headers.get("origin")
            cross = headers.get("sec-fetch-site") == "cross-site"
            if origin is not None and origin != "null":
                cross = cross or host_name(urlsplit(origin).netloc) not in self.hosts
            elif origin == "null":
                cross = True
            if cross:
                response = error_response(
                    403, "CROSS_ORIGIN", "Only this server's own pages can change a game.",
                    "ゲームを変更できるのはこのサーバー自身のページだけです")
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


__all__ = ["LOCAL_HOSTS", "LocalOnly", "host_name"]
