"""One process of a cluster: owner routing, relayed sockets, hand-over and health.

Every process accepts every table's WebSocket (docs/web-cluster.md). The table
itself lives in one process at a time, the holder of its lease
(:mod:`~pinochlekit.web.cluster.leases`). A browser's socket is held by a
:class:`Relay` in the process it reached, which opens a
:class:`~pinochlekit.web.cluster.sockets.RelayedSocket` in the owner (over Redis,
or directly when the owner is this process) and copies frames both ways; the
owner runs the single server's WebSocket handler on it, so each seat still gets
only its own view. When the table moves (its owner shuts down, loses its lease
or dies), the relay routes again and says the browser's ``hello`` to the new
owner, which sends a fresh ``welcome`` and ``state``: the browser resumes where
the stored game is, since every action is committed before it is broadcast.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from pinochlekit.web.cluster.bus import Bus
from pinochlekit.web.cluster.leases import Leases, log_event
from pinochlekit.web.cluster.sockets import RelayedSocket
from pinochlekit.web.storage import FencedError
from pinochlekit.web.table import RejectedError, Table

__all__ = ["ClusterError", "ClusterOptions", "Node", "Relay"]

#: The server's WebSocket handler, run by the owner on a relayed socket.
ServeSocket = Callable[[Any, str], Awaitable[None]]
#: A forwarded HTTP request run by the owner: (table id, JSON body) -> (status, JSON).
Handler = Callable[[str, dict[str, Any]], Awaitable[tuple[int, Any]]]
#: How long a relay keeps looking for a table's owner before it gives up.
ROUTE_TIME = 60.0
#: How long a read-only copy waits for its owner to say who is connected.
PRESENCE_TIME = 1.0


class ClusterError(Exception):
    """The cluster cannot start (Redis missing or unreachable)."""


@dataclass(frozen=True)
class ClusterOptions:
    """How a process joins a cluster: the Redis URL, the lease time, the key prefix."""

    redis_url: str
    lease_ttl: float = 5.0  # seconds a lease lasts unrenewed (renewed every third)
    prefix: str = "pinochle:"
    node: str = ""  # this process's name in the cluster ("": host, pid and a random part)


class Node:
    """A process of the cluster, beside its :class:`~pinochlekit.web.hub.Hub`."""

    def __init__(self, hub: Any, options: ClusterOptions) -> None:
        self.hub = hub
        self.options = options
        self.node = options.node or (f"{socket.gethostname()}-{os.getpid()}-"
                                     f"{secrets.token_hex(3)}")
        self.owned: set[str] = set()  # tables whose lease this node holds
        self.valid: dict[str, float] = {}  # until when (loop time) each lease surely holds
        self.pending: set[str] = set()  # leased, being loaded
        self.sockets: dict[str, RelayedSocket] = {}  # owner side, by connection id
        self.relays: dict[str, Relay] = {}  # browser side, by current connection id
        self.handlers: dict[str, Handler] = {"presence": self._presence}
        self.serve_socket: ServeSocket | None = None
        self.stopping = False
        self._replies: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._count = 0
        self.redis: Any = None
        self.leases: Leases
        self.bus: Bus
        self._renewer: asyncio.Task[None] | None = None

    # -- life --------------------------------------------------------------------

    async def start(self) -> None:
        """Connect to Redis and start listening and renewing; :class:`ClusterError`
        if Redis cannot be reached within a few seconds."""
        try:
            import redis.asyncio as aioredis
        except ImportError:
            raise ClusterError("a cluster needs the redis package: "
                               "pip install 'pinochlekit[cluster]'") from None
        url = self.options.redis_url
        self.redis = aioredis.Redis.from_url(url, socket_timeout=3, socket_connect_timeout=3)
        try:
            await asyncio.wait_for(self.redis.ping(), 5)
        except Exception as error:
            await self.redis.aclose()
            raise ClusterError(f"cannot reach Redis at {url}: {error}") from None
        self.leases = Leases(self.redis, self.options.prefix, self.node, self.options.lease_ttl)
        self.bus = Bus(self.redis, self.options.prefix, self.node, self._received,
                       self._resync)
        self.bus.start()
        await asyncio.wait_for(self.bus.connected.wait(), 10)
        await self._heartbeat()
        self._renewer = asyncio.create_task(self._renew_loop())
        log_event("node_started", node=self.node)

    async def stop(self) -> None:
        """Graceful shutdown: hand every table over (its relays route again and the
        next process takes it at once), then leave Redis."""
        self.stopping = True
        for table_id in list(self.owned):
            await self.hand_over(table_id, "shutdown")
        if self._renewer is not None:
            self._renewer.cancel()
        with contextlib.suppress(Exception):
            await self.redis.delete(self._node_key(self.node))
        await self.bus.stop()
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await self.redis.aclose()
        log_event("node_stopped", node=self.node)

    def _spawn(self, work: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _node_key(self, node: str) -> str:
        return f"{self.options.prefix}node:{node}"

    async def _heartbeat(self) -> None:
        await self.redis.set(self._node_key(self.node),
                             json.dumps({"pid": os.getpid(), "host": socket.gethostname()}),
                             px=int(self.options.lease_ttl * 1000))

    # -- leases --------------------------------------------------------------------

    async def get(self, table_id: str, load: Callable[[str], Awaitable[Table | None]]
                  ) -> Table | None:
        """The hub's ``get`` for a table not in memory: loaded here if this node
        takes its lease, else a read-only copy from the database (HTTP reads at a
        process that does not own the table)."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        try:
            held = not self.stopping and await self._settled(table_id) \
                and await self.leases.acquire(table_id)
        except Exception:  # Redis unreachable: nobody may take a table now
            held = False
        if not held:
            return await self.snapshot(table_id)
        if table_id not in self.owned:
            log_event("lease_acquired", node=self.node, table=table_id)
        self.owned.add(table_id)
        self.valid[table_id] = started + self.options.lease_ttl
        self.pending.add(table_id)
        try:
            # a new epoch before the load: the previous owner's committed writes are
            # in what is loaded, its later ones are refused by the database
            # (docs/web-cluster.md "Fencing")
            epoch = await self.hub.db("fence", table_id)
            table = await load(table_id) if epoch else None
        except Exception:
            await self._release(table_id, "load failed")
            raise
        finally:
            self.pending.discard(table_id)
        if table is None:
            await self._release(table_id, "no such table")
        else:
            log_event("table_fenced", node=self.node, table=table_id, epoch=epoch)
            table.db = self._fenced(table_id, table.db)
        return table

    def _fenced(self, table_id: str, db: Callable[..., Awaitable[Any]]
                ) -> Callable[..., Awaitable[Any]]:
        """The table's store calls: a write the database refuses as stale (another
        process took the table while this one was paused or cut off) makes this
        process step back from the table, and the client is told it moved."""
        async def run(method: str, *args: Any) -> Any:
            try:
                return await db(method, *args)
            except FencedError:
                log_event("write_fenced", node=self.node, table=table_id, write=method)
                self._spawn(self.hand_over(table_id, "fenced by the database",
                                           release=False))
                raise RejectedError("moved", "this table is played by another server "
                                    "process now; nothing was changed") from None
        return run

    async def _settled(self, table_id: str) -> bool:
        """Before taking a lease nobody holds: a Redis that restarted moments ago has
        lost every lease, and the owners take theirs again within a third of the
        ttl; until Redis has been up twice the ttl (and a little), a missing lease
        is not yet a free table, so wait (docs/web-cluster.md "Faults")."""
        if await self.leases.owner(table_id) is not None:
            return True
        info = await self.redis.info("server")
        wait = 2 * self.options.lease_ttl + 2 - float(info.get("uptime_in_seconds", 1e9))
        if wait > 0:
            log_event("lease_wait", node=self.node, table=table_id, seconds=round(wait, 1))
            await asyncio.sleep(wait)
        return True

    async def snapshot(self, table_id: str) -> Table | None:
        """A read-only copy of a stored table (never in the hub, no timers, no
        computers): any write says the table is played on another process."""
        row = await self.hub.db("load_table", table_id)
        if row is None or row.status not in ("waiting", "playing", "over"):
            return None
        table = Table.from_row(row, _read_only, _read_only)
        await self._presence_of(table)
        return table

    async def _presence_of(self, table: Table) -> None:
        """Who is connected to a read-only copy's table, asked of its owner over the
        bus (docs/web-cluster.md "Presence"); left as stored (nobody) when there is
        no owner or it does not answer within a moment."""
        answer = await self.forward("presence", table.id, {}, patience=PRESENCE_TIME)
        if answer is None or answer[0] != 200 or not isinstance(answer[1], dict):
            return
        seats = answer[1].get("seats", [])
        for seat in table.seats:
            if seat.number in seats:
                seat.connections.add(_Present(seat.number))
        table.spectators.update(_Present(None) for _ in range(int(answer[1].get(
            "spectators", 0))))

    async def _presence(self, table_id: str, body: dict[str, Any]) -> tuple[int, Any]:
        """The owner's answer: the seats with a connection, and how many watch."""
        table = self.hub.tables.get(table_id)
        if table is None:
            return 404, {}
        return 200, {"seats": [s.number for s in table.seats if s.connections],
                     "spectators": len(table.spectators)}

    async def take(self, table_id: str) -> str:
        """Take the table if nobody owns it: ``owned``, ``taken`` (another node has
        it, or Redis is down) or ``missing``."""
        table = await self.hub.get(table_id)
        if table_id in self.owned and self.hub.tables.get(table_id) is table is not None:
            return "owned"
        return "missing" if table is None else "taken"

    def owns(self, table_id: str) -> bool:
        """Whether the table is live in this process under a lease it holds."""
        return table_id in self.owned and table_id in self.hub.tables and not self.stopping

    async def _release(self, table_id: str, why: str) -> None:
        self.owned.discard(table_id)
        self.valid.pop(table_id, None)
        with contextlib.suppress(Exception):
            await self.leases.release(table_id)
        log_event("lease_released", node=self.node, table=table_id, reason=why)

    async def hand_over(self, table_id: str, why: str, release: bool = True) -> None:
        """Stop playing ``table_id`` here: its relays route again, the table is
        dropped from memory once no change is half-done, then the lease is given up
        (``release``) so the next process takes it without waiting for the expiry."""
        if table_id not in self.owned:
            return
        self.owned.discard(table_id)
        for sock in [s for s in self.sockets.values() if s.table_id == table_id]:
            await sock.moved()
        table = self.hub.tables.get(table_id)
        if table is not None:
            locked = False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(table.lock.acquire(), 5)
                locked = True
            try:
                self.hub.drop(table, "this table moved to another server process")
            finally:
                if locked:
                    table.lock.release()
            # a commit already handed to the database thread lands before the lease goes
            with contextlib.suppress(Exception):
                await self.hub.db("count_tables")
        if release:
            await self._release(table_id, why)
        else:
            self.valid.pop(table_id, None)
            log_event("lease_lost", node=self.node, table=table_id, reason=why)

    async def _renew_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.options.lease_ttl / 3)
            started = loop.time()
            try:
                for table_id in list(self.owned):  # dropped by the sweep: let it go
                    if table_id not in self.hub.tables and table_id not in self.pending:
                        await self._release(table_id, "dropped")
                results = await self.leases.renew(sorted(self.owned))
                await self._heartbeat()
            except Exception as error:
                expired = [t for t in self.owned if loop.time() > self.valid.get(t, 0.0)]
                if expired:
                    log_event("leases_expired", node=self.node, tables=len(expired),
                              error=str(error)[:200])
                for table_id in expired:  # another node may hold them by now
                    await self.hand_over(table_id, "redis unreachable", release=False)
                continue
            for table_id, ok in results.items():
                if ok:
                    self.valid[table_id] = started + self.options.lease_ttl
                elif table_id in self.owned:
                    await self.hand_over(table_id, "taken by another node", release=False)
            await self._prune_sockets()

    async def _prune_sockets(self) -> None:
        """Relayed sockets of nodes that are gone (killed): the browser has gone too."""
        nodes = sorted({s.node for s in self.sockets.values() if s.node != self.node})
        if not nodes:
            return
        alive = await self.redis.mget([self._node_key(n) for n in nodes])
        dead = {n for n, value in zip(nodes, alive, strict=True) if value is None}
        for sock in list(self.sockets.values()):
            if sock.node in dead:
                sock.gone()

    # -- messages ------------------------------------------------------------------

    def _received(self, message: dict[str, Any]) -> None:
        kind = message.get("k")
        conn_id = str(message.get("c", ""))
        if kind == "open":
            node = str(message.get("n", ""))
            sock = self.open_here(conn_id, str(message.get("t", "")), node,
                                  str(message.get("a", "")), self._remote_deliver(conn_id, node))
            if sock is None:
                self._spawn(self.bus.send(node, {"k": "shut", "c": conn_id, "code": 1012,
                                                 "reason": "table moved", "move": True}))
        elif kind == "in":
            sock = self.sockets.get(conn_id)
            if sock is not None:
                if "d" in message:
                    sock.feed(str(message["d"]))
                else:
                    sock.feed_binary()
        elif kind == "close":
            sock = self.sockets.get(conn_id)
            if sock is not None:
                sock.gone()
        elif kind in ("out", "shut"):
            relay = self.relays.get(conn_id)
            if relay is not None:
                relay.events.put_nowait((kind, conn_id, message))
            elif message.get("n"):  # a connection this node forgot: its owner may too
                self._spawn(self.bus.send(str(message["n"]), {"k": "close", "c": conn_id}))
        elif kind == "rpc":
            self._spawn(self._answer(message))
        elif kind == "reply":
            future = self._replies.pop(str(message.get("id", "")), None)
            if future is not None and not future.done():
                future.set_result(message)

    def _resync(self) -> None:
        """Redis came back: messages may have been lost, so every relay to another
        node opens its connection again (a fresh welcome and state)."""
        log_event("relays_resync", node=self.node, relays=len(self.relays))
        for relay in list(self.relays.values()):
            if relay.owner != self.node:
                relay.events.put_nowait(("resync", None, {}))

    def _remote_deliver(self, conn_id: str, node: str) -> Callable[[str, dict[str, Any]],
                                                                     Awaitable[Any]]:
        async def deliver(kind: str, fields: dict[str, Any]) -> None:
            ok = await self.bus.send(node, {"k": kind, "c": conn_id, "n": self.node,
                                            **fields})
            sock = self.sockets.get(conn_id)
            if not ok and sock is not None:  # its node is gone or Redis is down
                sock.gone()
        return deliver

    def open_here(self, conn_id: str, table_id: str, node: str, address: str,
                  deliver: Callable[[str, dict[str, Any]], Awaitable[Any]]
                  ) -> RelayedSocket | None:
        """The owner's side of a relayed connection, served by the server's handler;
        None if this node does not own the table (the relay routes again)."""
        if not self.owns(table_id) or self.serve_socket is None:
            return None
        old = self.sockets.get(conn_id)
        if old is not None:
            old.gone()
        sock = RelayedSocket(conn_id, table_id, node, address, deliver)
        self.sockets[conn_id] = sock
        self._spawn(self._serve(sock))
        return sock

    async def _serve(self, sock: RelayedSocket) -> None:
        assert self.serve_socket is not None
        try:
            await self.serve_socket(sock, sock.table_id)
        except Exception as error:  # one connection must not take the node down
            log_event("socket_failed", node=self.node, table=sock.table_id,
                      error=str(error)[:200])
        finally:
            if self.sockets.get(sock.conn_id) is sock:
                del self.sockets[sock.conn_id]
            if not sock.closed:  # the handler ended by itself: the browser is closed too
                await sock.close(1000, "")

    # -- forwarded requests ------------------------------------------------------------

    async def forward(self, method: str, table_id: str, body: dict[str, Any],
                      patience: float = 15.0) -> tuple[int, Any] | None:
        """Run ``method`` (a :attr:`handlers` name) at the table's owner; None when
        this node owns it or nobody does (the caller runs it here, taking the lease).
        ``patience``: seconds to keep trying an owner that does not answer."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + patience
        while loop.time() < deadline:
            try:
                owner = await self.leases.owner(table_id)
            except Exception:
                return 503, {"error": "the server cannot reach its Redis just now; try "
                             "again", "code": "server_error"}
            if owner is None or owner == self.node:
                return None
            request_id = secrets.token_hex(8)
            future: asyncio.Future[dict[str, Any]] = loop.create_future()
            self._replies[request_id] = future
            sent = await self.bus.send(owner, {"k": "rpc", "id": request_id, "m": method,
                                               "t": table_id, "b": body, "n": self.node})
            try:
                if sent:
                    reply = await asyncio.wait_for(future, min(10.0, patience))
                    if not reply.get("moved"):
                        return int(reply["s"]), reply["b"]
            except TimeoutError:
                pass
            finally:
                self._replies.pop(request_id, None)
            await asyncio.sleep(0.3)
        return 503, {"error": "the table's server process did not answer; try again",
                     "code": "server_error"}

    async def _answer(self, message: dict[str, Any]) -> None:
        table_id = str(message.get("t", ""))
        handler = self.handlers.get(str(message.get("m", "")))
        reply: dict[str, Any] = {"k": "reply", "id": message.get("id")}
        if handler is None or not self.owns(table_id):
            reply["moved"] = True
        else:
            body = message.get("b")
            reply["s"], reply["b"] = await handler(table_id, body if isinstance(body, dict)
                                                   else {})
        await self.bus.send(str(message.get("n", "")), reply)

    # -- relays ----------------------------------------------------------------------

    async def relay(self, websocket: Any, table_id: str) -> None:
        """Hold a browser's socket for ``table_id`` and relay it to the owner."""
        await websocket.accept()
        await Relay(self, websocket, table_id).run()

    def connection_id(self) -> str:
        """A new connection id, unique in the cluster."""
        self._count += 1
        return f"{self.node}/{self._count}"

    async def health(self) -> dict[str, Any]:
        """What ``/healthz`` says of the cluster side of this process."""
        try:
            await asyncio.wait_for(self.redis.ping(), 2)
            reachable = True
        except Exception:
            reachable = False
        return {"node": self.node, "redis": reachable,
                "tables_owned": sum(1 for t in self.owned if t in self.hub.tables),
                "relayed_sockets": len(self.relays), "served_sockets": len(self.sockets)}


async def _read_only(*args: Any) -> Any:
    """The store and computers of a read-only table copy: nothing may change there."""
    raise RejectedError("moved", "this table is played by another server process just "
                        "now; try again")


class _Present:
    """A connection at another process, as a read-only copy counts it."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat

    def push(self, message: dict[str, Any]) -> None:
        """Nothing is sent from a read-only copy."""


class Relay:
    """A browser's socket in the process it reached, relayed to the table's owner."""

    def __init__(self, node: Node, websocket: Any, table_id: str) -> None:
        self.node = node
        self.websocket = websocket
        self.table_id = table_id
        self.address = websocket.client.host if websocket.client else ""
        # (kind, connection id or None for the browser's own, message)
        self.events: asyncio.Queue[tuple[str, str | None, Any]] = asyncio.Queue()
        self.hello: str | None = None
        self.conn_id = ""
        self.owner: str | None = None
        self.local: RelayedSocket | None = None
        self._checked = 0.0

    async def run(self) -> None:
        """Relay until the browser or the owner closes."""
        reader = asyncio.create_task(self._read())
        try:
            if not await self._route():
                return
            await self._pump()
        finally:
            reader.cancel()
            self.node.relays.pop(self.conn_id, None)
            await self._leave()

    async def _read(self) -> None:
        try:
            while True:
                message = await self.websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                self.events.put_nowait(("in", None, message.get("text")))
        except Exception:  # the connection broke: same as a disconnect
            pass
        self.events.put_nowait(("gone", None, None))

    async def _pump(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                kind, conn_id, data = await asyncio.wait_for(self.events.get(), 1.0)
            except TimeoutError:
                kind, conn_id, data = "tick", None, None
            if kind in ("out", "shut") and conn_id != self.conn_id:
                continue  # from a connection this relay has left
            if kind == "in":
                if self.hello is None:
                    self.hello = data if isinstance(data, str) else ""
                if not await self._send(data):
                    await asyncio.sleep(0.2)
                    if not await self._reroute():
                        return
            elif kind == "out":
                await self.websocket.send_text(str(data["d"]))
            elif kind == "shut":
                if data.get("move"):
                    if not await self._reroute():
                        return
                else:
                    with contextlib.suppress(Exception):
                        await self.websocket.close(int(data.get("code", 1000)),
                                                   str(data.get("reason", ""))[:120])
                    return
            elif kind == "gone" or (kind == "resync" and not await self._reroute()):
                return
            if self.owner != self.node.node and loop.time() - self._checked >= 1.0:
                self._checked = loop.time()
                with contextlib.suppress(Exception):  # Redis down: the bus resyncs later
                    if await self.node.leases.owner(self.table_id) != self.owner \
                            and not await self._reroute():
                        return

    async def _send(self, text: str | None) -> bool:
        """A browser frame to the owner; False if it could not be delivered."""
        if self.local is not None:
            if self.local.closed:
                return False
            if text is None:
                self.local.feed_binary()
            else:
                self.local.feed(text)
            return True
        message: dict[str, Any] = {"k": "in", "c": self.conn_id}
        if text is not None:
            message["d"] = text
        return await self.node.bus.send(str(self.owner), message)

    async def _leave(self) -> None:
        """Close this relay's connection at the owner."""
        if self.local is not None:
            self.local.gone()
            self.local = None
        elif self.owner is not None and self.conn_id:
            await self.node.bus.send(self.owner, {"k": "close", "c": self.conn_id})

    async def _reroute(self) -> bool:
        await self._leave()
        self.node.relays.pop(self.conn_id, None)
        return await self._route()

    async def _route(self) -> bool:
        """Open a connection at the table's owner (taking the table if nobody has
        it), then say the browser's hello again; False if the browser was closed
        (no such table, or no owner found in :data:`ROUTE_TIME`)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + ROUTE_TIME
        node = self.node
        while loop.time() < deadline:
            self.conn_id = node.connection_id()
            self.owner, self.local = None, None
            try:
                owner = await node.leases.owner(self.table_id)
            except Exception:
                owner = ""  # Redis down: wait for it
            if owner is None or owner == node.node:
                outcome = await node.take(self.table_id)
                if outcome == "missing":
                    await self._refuse("no_table", f"no table {self.table_id[:40]!r}", 4404)
                    return False
                if outcome == "owned":
                    self.owner = node.node
                    self.local = node.open_here(self.conn_id, self.table_id, node.node,
                                                self.address, self._local_deliver(self.conn_id))
                    if self.local is not None:
                        if self.hello is not None:
                            self.local.feed(self.hello)
                        return True
            elif owner:
                node.relays[self.conn_id] = self
                self.owner = owner
                if await node.bus.send(owner, {"k": "open", "c": self.conn_id,
                                               "t": self.table_id, "n": node.node,
                                               "a": self.address}) and (
                        self.hello is None or await self._send(self.hello)):
                    log_event("relay_routed", node=node.node, table=self.table_id, owner=owner)
                    return True
                node.relays.pop(self.conn_id, None)
            await asyncio.sleep(0.3)  # the owner is gone: its lease expires soon
        await self._refuse("unavailable", "the table's server process cannot be reached; "
                           "reload the page", 1013)
        return False

    def _local_deliver(self, conn_id: str) -> Callable[[str, dict[str, Any]], Awaitable[None]]:
        async def deliver(kind: str, fields: dict[str, Any]) -> None:
            self.events.put_nowait((kind, conn_id, fields))
        return deliver

    async def _refuse(self, code: str, message: str, close: int) -> None:
        with contextlib.suppress(Exception):
            await self.websocket.send_json({"type": "error", "code": code, "message": message})
            await self.websocket.close(close)
