"""What stands between the network and the application (docs/web.md "Security and limits").

- :class:`Guard`, an ASGI middleware: the ``Host`` header must name this server
  (an address, ``localhost``, or a configured host name: a page of another site
  cannot reach a local server by DNS rebinding), a WebSocket's or a form's
  ``Origin`` must be this server, and an HTTP body is read only up to a size
  and a time limit before the application sees it.
- :class:`TimedH11Protocol`, uvicorn's h11 protocol with a deadline for the
  request headers, so a connection that sends nothing, or its headers a byte at
  a time, is closed instead of holding a descriptor for good.
- :func:`raise_descriptor_limit`: the soft limit of open files raised to the hard one.

>>> allowed_host("127.0.0.1:8000", frozenset()), allowed_host("[::1]:80", frozenset())
(True, True)
>>> allowed_host("evil.example", frozenset()), allowed_host("Club.Example:8000", {"club.example"})
(False, True)
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
from collections.abc import Awaitable, Callable, Collection, MutableMapping
from typing import Any, ClassVar
from urllib.parse import urlsplit

from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["Guard", "TimedH11Protocol", "allowed_host", "raise_descriptor_limit"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Names every server answers to besides addresses.
LOCAL_NAMES = frozenset({"localhost"})


def _hostname(value: str) -> str:
    """The host part of a ``Host`` header value (no port, no brackets), lower case."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:].partition("]")[0]
    return value.rpartition(":")[0] if value.count(":") == 1 else value


def allowed_host(value: str, names: Collection[str]) -> bool:
    """Whether a ``Host`` header names this server: an IP address (DNS rebinding
    needs a name), ``localhost``, or one of ``names`` (lower case)."""
    host = _hostname(value)
    if not host:
        return False
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return host in LOCAL_NAMES or host in names


class Guard:
    """Check ``Host`` and ``Origin``, and cap HTTP bodies in size and time (see the
    module docstring); every refusal is a short JSON error that echoes nothing."""

    def __init__(self, app: App, names: Collection[str] = (), max_body: int = 65536,
                 body_timeout: float = 10.0, max_header: int = 16384) -> None:
        self.app = app
        self.max_header = max_header
        self.names = frozenset(n.lower() for n in names)
        self.max_body = max_body
        self.body_timeout = body_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Handle one ASGI connection."""
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", ())}
        host = headers.get("host", "")
        problem = None
        if sum(len(k) + len(v) + 4 for k, v in scope.get("headers", ())) > self.max_header:
            problem = (431, f"request headers too large: at most {self.max_header} bytes")
        elif not allowed_host(host, self.names):
            problem = (421, "this server does not answer to that host name "
                            "(an operator adds it with --allowed-host)")
        elif "origin" in headers and (scope["type"] == "websocket"
                                      or scope.get("method") not in ("GET", "HEAD")):
            origin = urlsplit(headers["origin"])
            if origin.netloc.lower() != host.strip().lower() and not (
                    origin.hostname and origin.hostname in self.names):
                problem = (403, "requests from pages of another site are refused")
        if problem is not None:
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})  # an HTTP 403
            else:
                await _reply(send, *problem)
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        await self._http(scope, receive, send, headers)

    async def _http(self, scope: Scope, receive: Receive, send: Send,
                    headers: dict[str, str]) -> None:
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await _reply(send, 413, f"request body too large: at most {self.max_body} bytes")
            return
        body = bytearray()
        try:
            async with asyncio.timeout(self.body_timeout):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return
                    body += message.get("body", b"")
                    if len(body) > self.max_body:
                        await _reply(send, 413, f"request body too large: at most "
                                                f"{self.max_body} bytes")
                        return
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await _reply(send, 408, f"request body not received within "
                                    f"{self.body_timeout:g} s")
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()  # a disconnect, for a streaming response
            sent = True
            return {"type": "http.request", "body": bytes(body), "more_body": False}

        await self.app(scope, replay, send)


async def _reply(send: Send, status: int, error: str) -> None:
    body = json.dumps({"error": error}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


class TimedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request headers are not
    complete within :attr:`header_timeout` seconds of connecting (uvicorn's own
    keep-alive timeout covers the time between requests)."""

    header_timeout = 10.0
    max_header = 16384
    #: Connections still waiting for their first request head that the process keeps
    #: at most (set from the descriptor limit): past it the oldest of them is closed,
    #: so idle connections never use up the descriptors a new client needs.
    max_waiting = 1 << 30
    _waiting: ClassVar[dict[TimedH11Protocol, None]] = {}  # oldest first

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Start the header deadline; past :attr:`max_waiting`, close the oldest
        connection that has not sent a request head."""
        super().connection_made(transport)
        waiting = TimedH11Protocol._waiting
        while len(waiting) >= self.max_waiting:
            oldest = next(iter(waiting))
            del waiting[oldest]
            oldest.transport.close()
        waiting[self] = None
        self._head = 0
        self._deadline = asyncio.get_running_loop().call_later(self.header_timeout,
                                                               self._too_slow)

    def data_received(self, data: bytes) -> None:
        """Read as uvicorn does; the deadline ends once a request has begun, and a
        first request head larger than :attr:`max_header` gets 431."""
        if self.cycle is None and b"\r\n\r\n" not in data:  # a head not yet complete
            self._head += len(data)
            if self._head > self.max_header:
                self._deadline.cancel()
                self.transport.write(b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
                                     b"content-length: 0\r\nconnection: close\r\n\r\n")
                self.transport.close()
                return
        super().data_received(data)
        if self.cycle is not None or self.transport.get_protocol() is not self:
            self._deadline.cancel()
            TimedH11Protocol._waiting.pop(self, None)

    def connection_lost(self, exc: Exception | None) -> None:
        """Forget the deadline."""
        self._deadline.cancel()
        TimedH11Protocol._waiting.pop(self, None)
        super().connection_lost(exc)

    def _too_slow(self) -> None:
        if (self.cycle is None and self.transport.get_protocol() is self
                and not self.transport.is_closing()):
            self.transport.close()


def raise_descriptor_limit() -> int:
    """Raise the soft limit of open files to the hard limit; the new soft limit."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    return int(soft)
