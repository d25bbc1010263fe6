"""Request bodies: at most :data:`MAX_BODY_BYTES`, and JSON nested at most :data:`MAX_JSON_DEPTH` deep.

:class:`BodyLimit` (ASGI middleware, inside :class:`solitaire_rl.play.server.limits.LocalOnly`) reads a
request's
body before the application sees it, and refuses it, changing nothing:

* 413 ``TOO_LARGE`` with ``Connection: close``: a ``Content-Length`` over the limit (or not a
  number) at once, before any of the body is read; a body without one (chunked) as soon as what
  arrived passes the limit, so no more than the limit plus one chunk is ever held;
* 422 ``INVALID_REQUEST``: brackets nested deeper than the depth limit, found by one pass over the
  bytes (:func:`nesting_depth`), before any JSON parser or validator recurses into them.

The API's deepest body is 4 levels (a Klondike ``position``'s ``columns``: object, object, list,
list), so 8 leaves room and refuses what Python's JSON parser would otherwise recurse into.
"""

from __future__ import annotations

import re
from typing import Any

from solitaire_rl.play.server.game_routes import error_response

MAX_BODY_BYTES = 16 * 1024
"""The largest request body: a saved Klondike game of 1,500 moves fits."""
MAX_JSON_DEPTH = 8
"""The deepest nesting of arrays and objects a request body may have (the API needs 4)."""

_SPECIAL = re.compile(rb'[\[\]{}"\\]')
_OPEN, _CLOSE, _QUOTE, _ESCAPE = frozenset(b"[{"), frozenset(b"]}"), ord('"'), ord("\\")


def nesting_depth(body: bytes, stop: int | None = None) -> int:
    """How deep ``body``'s arrays and objects nest (brackets in strings do not count), in one pass.

    Counting stops once it passes ``stop``. Text that is not JSON gets a number too; the parser
    refuses it afterwards.
    """
    depth = deepest = 0
    in_string, escaped_at = False, -1
    for match in _SPECIAL.finditer(body):
        at = match.start()
        if at == escaped_at:
            continue
        char = body[at]
        if in_string:
            if char == _ESCAPE:
                escaped_at = at + 1
            elif char == _QUOTE:
                in_string = False
        elif char == _QUOTE:
            in_string = True
        elif char in _OPEN:
            depth += 1
            deepest = max(deepest, depth)
            if stop is not None and deepest > stop:
                break
        elif char in _CLOSE:
            depth = max(depth - 1, 0)
    return deepest


def too_large(limit: int) -> Any:
    """The 413 answer; it closes the connection, so the rest of the body is not received."""
    response = error_response(413, "TOO_LARGE", f"A request body may hold at most {limit} bytes.",
                              f"リクエストは {limit} バイトまでです")
    response.headers["connection"] = "close"
    return response


def too_deep(limit: int) -> Any:
    """The 422 answer to a body nested deeper than ``limit``."""
    return error_response(422, "INVALID_REQUEST", f"The request body nests arrays and objects more than "
                          f"{limit} levels deep.", f"リクエストの入れ子が {limit} 段を超えています")


class BodyLimit:
    """ASGI middleware: read the body within ``limit`` bytes, check its nesting, then pass it on
    (see the module's docstring)."""

    def __init__(self, app: Any, limit: int = MAX_BODY_BYTES, max_depth: int = MAX_JSON_DEPTH) -> None:
        if limit < 0 or max_depth < 1:
            raise ValueError(f"a body limit of 0 bytes or more and a depth of 1 or more, not {limit} and "
                             f"{max_depth}")
        self.app, self.limit, self.max_depth = app, limit, max_depth

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await too_large(self.limit)(scope, receive, send)
            return
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client went away: nothing to answer
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await too_large(self.limit)(scope, receive, send)
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        if nesting_depth(body, self.max_depth) > self.max_depth:
            await too_deep(self.max_depth)(scope, receive, send)
            return
        replayed = False

        async def replay() -> dict:
            nonlocal replayed
            if replayed:
                return await receive()  # after the body: the disconnect, when it comes
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


__all__ = ["MAX_BODY_BYTES", "MAX_JSON_DEPTH", "BodyLimit", "nesting_depth", "too_deep", "too_large"]
