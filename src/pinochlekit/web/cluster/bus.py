"""Messages between the processes of a cluster: Redis pub/sub, one channel per node.

Each node listens on ``PREFIX to:NODE``. A message is a JSON object; what the
kinds mean is :mod:`~pinochlekit.web.cluster.node`'s business. Pub/sub delivers
at most once: a message published while the receiver is not subscribed (Redis
restarting) is lost, and ``PUBLISH`` says so by counting no receiver; the node
resynchronises its sockets after every reconnection (docs/web-cluster.md
"Faults").
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from typing import Any

from pinochlekit.web.cluster.leases import log_event

__all__ = ["Bus"]

Handler = Callable[[dict[str, Any]], None]


class Bus:
    """One node's subscription and its publishing (``client``: ``redis.asyncio.Redis``).

    ``handler`` is called with every message received, on the event loop, and
    must not block; ``on_connect`` after each (re)subscription but the first."""

    def __init__(self, client: Any, prefix: str, node: str, handler: Handler,
                 on_connect: Callable[[], None]) -> None:
        self.redis = client
        self.prefix = prefix
        self.node = node
        self.handler = handler
        self.on_connect = on_connect
        self.connected = asyncio.Event()
        self.generation = 0  # subscriptions so far
        self.down_since = 0.0  # loop time the last subscription was lost
        self._task: asyncio.Task[None] | None = None

    def channel(self, node: str) -> str:
        """The channel ``node`` listens on."""
        return f"{self.prefix}to:{node}"

    def start(self) -> None:
        """Listen in a task until :meth:`stop`."""
        self._task = asyncio.create_task(self._listen())

    async def stop(self) -> None:
        """Stop listening."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    async def send(self, node: str, message: dict[str, Any]) -> bool:
        """Publish ``message`` to ``node``; whether a subscriber received it (False
        also when Redis cannot be reached: the caller resynchronises)."""
        text = json.dumps(message, separators=(",", ":"))
        for attempt in range(2):  # after a Redis restart, a pooled connection fails once
            try:
                return bool(await self.redis.publish(self.channel(node), text))
            except Exception:  # Redis down or restarting: the message is lost
                if attempt:
                    return False
        return False

    async def _listen(self) -> None:
        loop = asyncio.get_running_loop()
        delay = 0.1
        while True:
            pubsub = self.redis.pubsub()
            try:
                await pubsub.subscribe(self.channel(self.node))
                self.generation += 1
                self.connected.set()
                delay = 0.1
                if self.generation > 1:
                    log_event("redis_reconnected", node=self.node)
                    self.on_connect()
                idle = 0
                while True:
                    message = await pubsub.get_message(ignore_subscribe_messages=True,
                                                       timeout=1.0)
                    if message is None:
                        idle += 1
                        if idle >= 2:  # a silent connection may be a dead one: ask
                            await pubsub.ping()
                            idle = 0
                        continue
                    idle = 0
                    if message.get("type") != "message":
                        continue
                    try:
                        data = json.loads(message["data"])
                    except (ValueError, TypeError):
                        continue
                    if isinstance(data, dict):
                        self.handler(data)
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                raise
            except Exception as error:  # Redis went away: try again, a little later each time
                if self.connected.is_set():
                    self.connected.clear()
                    self.down_since = loop.time()
                    log_event("redis_lost", node=self.node, error=str(error)[:200])
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                await asyncio.sleep(delay)
                delay = min(2.0, delay * 2)
