"""A browser's WebSocket as the owner process's server code sees it.

The owner runs its ordinary WebSocket handler (web/server.py) on a
:class:`RelayedSocket`: what the browser sends arrives through :meth:`feed`, and
what the server sends goes to ``deliver`` (a publication to the node holding the
browser's socket, or straight to it when that is this node). Every check, limit
and view of the single server applies unchanged, each seat still receiving only
its own view.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from types import SimpleNamespace
from typing import Any

from fastapi import WebSocketDisconnect

__all__ = ["RelayedSocket"]

#: ``deliver(kind, fields)``: ``out`` with ``d`` (a text frame) or ``shut`` with
#: ``code``, ``reason`` and ``move`` (the table moved: the relay routes again).
Deliver = Callable[[str, dict[str, Any]], Awaitable[Any]]


class RelayedSocket:
    """The owner's side of one relayed browser connection (duck-types the parts of
    Starlette's ``WebSocket`` the server uses)."""

    def __init__(self, conn_id: str, table_id: str, node: str, address: str,
                 deliver: Deliver) -> None:
        self.conn_id = conn_id
        self.table_id = table_id
        self.node = node  # where the browser's socket is
        self.client = SimpleNamespace(host=address)
        self.opened = time.monotonic()
        self.closed = False
        self._deliver = deliver
        self._inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    def feed(self, text: str) -> None:
        """A text frame from the browser."""
        if not self.closed:
            self._inbox.put_nowait({"type": "websocket.receive", "text": text})

    def feed_binary(self) -> None:
        """A binary frame from the browser (the server refuses those)."""
        if not self.closed:
            self._inbox.put_nowait({"type": "websocket.receive", "bytes": b""})

    def gone(self) -> None:
        """The browser (or its relay) has gone: the handler sees a disconnect."""
        self.closed = True
        self._inbox.put_nowait({"type": "websocket.disconnect", "code": 1001})

    async def moved(self) -> None:
        """The table leaves this process: tell the relay to route again, then end."""
        if not self.closed:
            self.closed = True
            await self._deliver("shut", {"code": 1012, "reason": "table moved",
                                         "move": True})
        self._inbox.put_nowait({"type": "websocket.disconnect", "code": 1012})

    async def accept(self) -> None:
        """The relay accepted the browser's socket already."""

    async def receive(self) -> dict[str, Any]:
        """The next ASGI message: a text frame or the disconnect."""
        return await self._inbox.get()

    async def receive_text(self) -> str:
        """The next text frame; :class:`WebSocketDisconnect` when the browser has gone."""
        message = await self.receive()
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(int(message.get("code", 1000)))
        return str(message["text"])

    async def send_text(self, text: str) -> None:
        """To the browser (dropped once closed)."""
        if not self.closed:
            await self._deliver("out", {"d": text})

    async def send_json(self, data: Any) -> None:
        """To the browser, as JSON text."""
        await self.send_text(json.dumps(data, separators=(",", ":")))

    async def close(self, code: int = 1000, reason: str = "") -> None:
        """The server closes the browser's connection (a refusal, a replaced seat, abuse)."""
        if not self.closed:
            self.closed = True
            await self._deliver("shut", {"code": code, "reason": reason, "move": False})
        self._inbox.put_nowait({"type": "websocket.disconnect", "code": code})
