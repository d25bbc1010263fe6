"""Slow clients: a request must arrive whole within :data:`REQUEST_TIMEOUT` seconds.

uvicorn closes a connection that stays idle after an answer (``timeout_keep_alive``), but it has no
deadline for the request itself: a client that opens a connection and sends nothing, or sends its
headers or its body a byte at a time (slowloris), holds its connection, its task and (once the
headers are in) a request of the application for as long as it likes.
:class:`TimedH11Protocol` (uvicorn's h11 protocol with one timer more) gives each request a
deadline: from the moment the server waits for it (the connection opened, or the previous answer
sent), its headers and body must arrive within ``request_timeout`` seconds. A client that misses
it with part of a request sent gets 408 ``TIMEOUT`` (unless an answer was already started); a
connection on which nothing arrived is closed without a word, as an idle one is (browsers open
spare connections ahead of need, and must not read a 408 there). Either way the connection is
closed; a request that never arrived whole never reached a game, so nothing changed. The time the
application takes to answer does not count.
"""

from __future__ import annotations

import asyncio
import json
import math
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

REQUEST_TIMEOUT = 10.0
"""Seconds a request's headers and body may take to arrive (a page's requests take milliseconds)."""

_BODY = json.dumps({"error": "TIMEOUT", "message": "The request did not arrive in time.",
                    "message_ja": "リクエストが時間内に届きませんでした"}, ensure_ascii=False).encode()
TIMEOUT_RESPONSE = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\nconnection: close\r\n"
                    b"content-length: %d\r\n\r\n%s" % (len(_BODY), _BODY))
"""What a client too slow to send its request receives before its connection is closed."""
_WAITING = (h11.IDLE, h11.SEND_BODY)
"""The client's h11 states while a request is still to arrive (headers, or body)."""


class TimedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, with a deadline for each request to arrive whole (module docstring)."""

    request_timeout: float = REQUEST_TIMEOUT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._partial = False  # part of the awaited request has arrived

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._watch()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._partial = self._partial or bool(data)
        self._watch()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._stop()  # the next request's time starts now
        self._watch()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop()
        super().connection_lost(exc)

    def _watch(self) -> None:
        """Start the deadline while a request is still to arrive; stop it once it has."""
        if self.conn.their_state in _WAITING and not self.transport.is_closing():
            if self._deadline is None:
                self._deadline = self.loop.call_later(self.request_timeout, self._timed_out)
                self._partial = self.conn.their_state is h11.SEND_BODY or bool(self.conn.trailing_data[0])
        else:
            self._stop()

    def _stop(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _timed_out(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        answering = (self.conn.their_state is h11.SEND_BODY and self.cycle is not None
                     and self.cycle.response_started)
        if self._partial and not answering:
            self.transport.write(TIMEOUT_RESPONSE)
        self.transport.close()


def timed_protocol(request_timeout: float = REQUEST_TIMEOUT) -> type[TimedH11Protocol]:
    """:class:`TimedH11Protocol` with its deadline set to ``request_timeout`` seconds (finite, over 0)."""
    if not (math.isfinite(request_timeout) and request_timeout > 0):
        raise ValueError(f"a request timeout is a finite number of seconds over 0, not {request_timeout}")
    return type("TimedH11Protocol", (TimedH11Protocol,), {"request_timeout": float(request_timeout)})


__all__ = ["REQUEST_TIMEOUT", "TIMEOUT_RESPONSE", "TimedH11Protocol", "timed_protocol"]
