"""The web server: lobby and history over HTTP, each table live over a WebSocket.

``create_app(db_url)`` builds the FastAPI application; ``pinochle serve``
runs it with uvicorn. The WebSocket protocol is described in ``docs/web.md``:
the client says ``hello`` (with its seat token, or none to watch), then sends
``act`` messages carrying the action text and the ``ply`` it saw (or ``hint``
to ask what the strongest computer player would do, answered to it alone); the
server answers every change with a ``state`` built for the client's seat, and a
bad message with an ``error`` for that client alone followed by a fresh ``state``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from pinochlekit.engine.rules import Rules
from pinochlekit.web.dealing import CLIENT_COMMITMENT
from pinochlekit.web.history import hand_replay, table_history
from pinochlekit.web.hub import Hub, clean_text, computer_levels, default_db_url
from pinochlekit.web.review import ReviewRefusedError, Reviews, cache_path, played_games
from pinochlekit.web.rulesinfo import rules_catalog
from pinochlekit.web.storage import TableStore
from pinochlekit.web.table import RejectedError, Table

__all__ = ["Limits", "create_app"]

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("pinochlekit.web")
# Problems that count towards closing a connection (a wrong move never does).
_ABUSE = frozenset({"bad_json", "bad_message", "unknown_type", "too_large", "rate_limited"})


class Limits(BaseModel):
    """What clients may send and hold: message size and rate, connections, tables
    (docs/web.md "Security and limits" lists each with its option)."""

    max_message: int = 4096  # characters in one WebSocket message
    rate: float = 10.0  # messages per second, sustained
    burst: int = 30  # messages allowed at once
    max_violations: int = 50  # rate-limit or bad messages before the connection is closed
    max_tables: int = 1000
    max_queue: int = 200  # messages waiting for a slow client before it is dropped
    hello_timeout: float = 5.0  # a socket that has not said hello by then is closed
    # Seated players are never refused for the caps below: a seat's token holder
    # always gets in (a newer connection of a seat replaces its oldest past
    # max_seat_connections); the caps bound sockets before hello and spectators.
    max_connections: int = 100  # spectators at one table
    max_sockets: int = 5000  # sockets before hello and spectators, whole server
    max_per_address: int = 20  # sockets before hello, and spectators, from one address
    max_seat_connections: int = 4  # connections of one seat (tabs, devices)
    max_target: int = 10000  # the highest game target a table may set (ordinary scale)
    min_pace: float = 0.0  # seconds: the least pace of any table (docs/web.md)
    # seconds a deal waits for the browsers' values (a third of it for commitments)
    reveal_time: float = 30.0
    compute_threads: int = 4  # threads of the computer players, shared fairly
    compute_share: int = 2  # of them, how many one client's tables may use at once
    creates: int = 20  # tables one client address may create per create_window
    create_window: float = 600.0  # seconds
    waiting_expiry: float = 86400.0  # seconds a table may wait for players
    max_finished: int = 50  # finished tables kept in memory (all stay in the database)
    sweep_interval: float = 30.0  # seconds between sweeps of expired and finished tables
    review_threads: int = 1  # threads reviewing finished hands (docs/web.md "Review")
    review_queue: int = 8  # reviews waiting beyond those running before "busy"
    review_time: float = 1.0  # expert's budget per valuation in a review (docs/review.md)


#: A seat kind in a request: ``open`` or a level name.
SeatKind = Annotated[str, Field(max_length=40)]


class CreateTable(BaseModel):
    """The lobby's form: title, rules, a kind for each seat, and the table settings."""

    title: str = Field("", max_length=60)
    rules: str = Field("pagat", max_length=500)
    # a kind per seat, as many as the rules have players (None: one open, the rest standard)
    seats: list[SeatKind] | None = Field(None, max_length=8)
    grace: float = Field(60.0, ge=0, le=3600)
    pace: float = Field(0.8, ge=0, le=10)
    standin: str = Field("standard", max_length=40)
    hints: bool = True  # whether seated people may ask for hints (docs/web.md "Hints")
    # seconds per decision before the stand-in acts, 0: no timer (docs/web.md "Turn timer")
    turn_time: float = Field(0.0, ge=0, le=600)
    spectator_chat: str = Field("none", max_length=10)  # none, read or write ("Chat")


class JoinSeat(BaseModel):
    """Take an open seat with a display name."""

    seat: int = Field(ge=0, le=7)
    name: str = Field(min_length=1, max_length=24)
    # the SHA-256 of the value the browser will reveal for the first game's deals,
    # once every seat's commitment is in (docs/web.md "Fairness and privacy")
    client_commitment: str = Field("", max_length=64)
    # no longer taken: a value sent before the others committed could be answered
    client_seed: str = Field("", max_length=128)


class ReviewAsk(BaseModel):
    """Review a finished hand: the seat (None: the token's seat, else seat 0) and the
    asker's seat token, if any (docs/web.md "Review")."""

    seat: int | None = Field(None, ge=0, le=7)
    token: str = Field("", max_length=100)


class _Client:
    """One WebSocket client: its seat, its outgoing queue and its rate limit."""

    def __init__(self, websocket: WebSocket, limits: Limits) -> None:
        self.websocket = websocket
        self.limits = limits
        self.seat: int | None = None
        self.queue: deque[dict[str, Any]] = deque()
        self.ready = asyncio.Event()
        self.dropped = False
        self.close_code = (1008, "too slow: messages piled up")
        self.tokens = float(limits.burst)
        self.stamp = time.monotonic()
        self.violations = 0
        self.address = ""
        # finished hands already sent, of game number hands_game: a state carries
        # only the newer ones (docs/web.md "Messages"); 0 sends them all again
        self.hands_game = -1
        self.hands_sent = 0
        self.opened = time.monotonic()

    def replaced(self) -> None:
        """A newer connection of the same seat took this one's place: close it (4001)."""
        self.dropped = True
        self.ready.set()
        self.close_code = (4001, "this seat connected again elsewhere")

    def encode(self, message: dict[str, Any]) -> str:
        """A message as sent: a state's finished hands only from the first not yet sent.

        A state is encoded once per first hand sent (kept with the shared message
        under ``_texts``), not once per client: a crowd costs a copy each."""
        if message.get("type") != "state":
            return json.dumps(message, separators=(",", ":"))
        game_no = message["table"]["game_no"]
        hands = message["hands"]
        start = self.hands_sent if game_no == self.hands_game else 0
        start = min(start, len(hands))
        self.hands_game, self.hands_sent = game_no, len(hands)
        texts: dict[int, str] = message.setdefault("_texts", {})
        text = texts.get(start)
        if text is None:
            out = {k: v for k, v in message.items() if k != "_texts"}
            out.update(hands=hands[start:], hands_from=start)
            text = texts[start] = json.dumps(out, separators=(",", ":"))
        return text

    def push(self, message: dict[str, Any]) -> None:
        """Queue a message; an older state still waiting is replaced by the newer one."""
        if message.get("type") == "state":
            for i, queued in enumerate(self.queue):
                if queued.get("type") == "state":
                    del self.queue[i]
                    break
        self.queue.append(message)
        if len(self.queue) > self.limits.max_queue:
            self.dropped = True
        self.ready.set()

    async def writer(self) -> None:
        """Send queued messages in order until the client goes or falls too far behind."""
        try:
            while not self.dropped:
                await self.ready.wait()
                self.ready.clear()
                while self.queue:
                    message = self.queue.popleft()
                    await self.websocket.send_text(self.encode(message))
        except Exception:  # the connection closed under us: the reader sees it too
            self.dropped = True
            return
        with contextlib.suppress(Exception):
            await self.websocket.close(*self.close_code)

    def allow(self) -> bool:
        """Token bucket: ``rate`` messages a second, ``burst`` at once."""
        now = time.monotonic()
        self.tokens = min(float(self.limits.burst),
                          self.tokens + (now - self.stamp) * self.limits.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def error(self, code: str, message: str) -> None:
        self.push({"type": "error", "code": code, "message": message})


def create_app(db_url: str, limits: Limits | None = None, cluster: Any = None) -> FastAPI:
    """The application, storing its tables at ``db_url`` (SQLite path or PostgreSQL URL);
    ``cluster`` (a ``web.cluster.node.ClusterOptions``): one of several processes
    sharing the database and a Redis (docs/web-cluster.md)."""
    limits = limits or Limits()
    state: dict[str, Any] = {}
    postgres = db_url.startswith(("postgresql://", "postgres://"))
    reviews = Reviews(limits.review_threads, limits.review_queue, limits.review_time,
                      cache=cache_path(db_url, Path(default_db_url()).parent if postgres
                                       else Path()))

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await asyncio.to_thread(TableStore.open, db_url)
        state["hub"] = Hub(store, max_tables=limits.max_tables,
                           compute_threads=limits.compute_threads,
                           compute_share=limits.compute_share, max_target=limits.max_target,
                           min_pace=limits.min_pace, reveal_time=limits.reveal_time,
                           creates=limits.creates,
                           create_window=limits.create_window,
                           waiting_expiry=limits.waiting_expiry,
                           max_finished=limits.max_finished)
        if cluster is not None:  # docs/web-cluster.md
            from pinochlekit.web.cluster.node import Node
            node = state["hub"].cluster = state["cluster"] = Node(state["hub"], cluster)
            node.serve_socket = serve_socket
            node.handlers["join"] = join_answer
            await node.start()
        sweeper = asyncio.create_task(state["hub"].sweeper(limits.sweep_interval))
        yield
        sweeper.cancel()
        if cluster is not None:  # graceful: every table handed over before exit
            await state["cluster"].stop()
        reviews.shutdown()
        await state["hub"].close()

    app = FastAPI(title="pinochlekit", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def hub() -> Hub:
        return state["hub"]  # type: ignore[no-any-return]

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for err in exc.errors()[:3]:
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body")
            parts.append(f"{where}: {err.get('msg', 'invalid')}" if where else
                         str(err.get("msg", "invalid")))
        return JSONResponse({"error": "; ".join(parts) or "bad request"}, status_code=422)

    def rejected(error: RejectedError, status: int = 400) -> JSONResponse:
        return JSONResponse({"error": str(error), "code": error.code}, status_code=status)

    def not_found(table_id: str) -> JSONResponse:
        return JSONResponse({"error": f"no table {table_id[:40]!r}"}, status_code=404)

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "table.html")

    @app.get("/history/{table_id}", include_in_schema=False)
    async def history_page(table_id: str) -> FileResponse:
        return FileResponse(STATIC / "history.html")

    @app.get("/replay/{table_id}/{game_no}/{hand}", include_in_schema=False)
    async def replay_page(table_id: str, game_no: int, hand: int) -> FileResponse:
        return FileResponse(STATIC / "replay.html")

    @app.get("/stats", include_in_schema=False)
    async def stats_page() -> FileResponse:
        return FileResponse(STATIC / "stats.html")

    @app.get("/api/stats")
    async def stats(name: str, request: Request) -> JSONResponse:
        """A person's statistics by seat name (docs/review.md "Statistics")."""
        name = clean_text(name)
        if not name or len(name) > 24:
            return JSONResponse({"error": "name: the display name of a seat (1 to 24 "
                                 "characters)", "code": "bad_name"}, status_code=422)
        rows = [row for row in [await hub().db("load_table", i)
                                for i in await hub().db("tables_of", name)] if row]
        address = request.client.host if request.client is not None else ""
        try:
            answer = reviews.stats(name, played_games(rows, name), address)
        except ReviewRefusedError as error:
            return JSONResponse({"error": str(error), "code": error.code},
                                status_code=error.status)
        return JSONResponse(answer, status_code=200 if answer["status"] == "done" else 202)

    @app.get("/api/meta")
    async def meta() -> dict[str, Any]:
        return {"levels": computer_levels(),
                "levels_by_players": {str(n): computer_levels(Rules.preset(Rules.presets(n)[0]))
                                      for n in (2, 3, 4)},
                "levels_double": computer_levels(Rules.preset("doubledeck")),  # docs/rules.md §6
                **rules_catalog()}

    @app.get("/api/tables")
    async def list_tables() -> dict[str, Any]:
        return {"tables": await hub().db("list_tables")}

    @app.post("/api/tables")
    async def create_table(body: CreateTable, request: Request) -> JSONResponse:
        client = request.client.host if request.client is not None else ""
        try:
            table = await hub().create(body.title, body.rules, body.seats, body.grace,
                                       body.pace, body.standin, body.hints, client,
                                       body.turn_time, body.spectator_chat)
        except RejectedError as error:
            status = {"full": 503, "too_many": 429}.get(error.code, 400)
            return rejected(error, status)
        return JSONResponse({"id": table.id, "url": f"/t/{table.id}", "table": table.info(),
                             "fair": table.fair()}, status_code=201)

    @app.get("/api/health")
    async def health(table: str | None = None) -> dict[str, Any]:
        """What the server holds in memory now (for operators and tests); with
        ``?table=ID``, that table's counts too."""
        tables = list(hub().tables.values())
        answer: dict[str, Any] = {
            "tables_in_memory": len(tables),
            "finished_in_memory": sum(t.status == "over" for t in tables),
            "states_built": sum(t.states_built for t in tables)}
        held = hub().tables.get(table[:40]) if table else None
        if held is not None:
            answer["table"] = {"id": held.id, "states_built": held.states_built,
                               "compute_waits": held.compute_waits}
        return answer

    @app.get("/healthz")
    async def healthz() -> JSONResponse:
        """For load balancers: this process, the tables it owns, whether its database
        (and, in a cluster, Redis) answer; 503 if one does not (docs/web-cluster.md)."""
        try:
            await asyncio.wait_for(hub().db("count_tables"), 3)
            database = True
        except Exception:
            database = False
        answer: dict[str, Any] = {"pid": os.getpid(), "database": database, "redis": None,
                                  "tables_owned": len(hub().tables)}
        if "cluster" in state:
            answer.update(await state["cluster"].health())
        healthy = database and answer["redis"] is not False
        return JSONResponse(answer, status_code=200 if healthy else 503)

    @app.get("/api/tables/{table_id}")
    async def get_table(table_id: str) -> JSONResponse:
        table = await hub().get(table_id)
        if table is None:
            return not_found(table_id)
        return JSONResponse(table.info())

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, body: JoinSeat) -> JSONResponse:
        if "cluster" in state:  # a seat is taken where the table is played
            forwarded = await state["cluster"].forward("join", table_id, body.model_dump())
            if forwarded is not None:
                return JSONResponse(forwarded[1], status_code=forwarded[0])
        return await join_here(table_id, body)

    async def join_answer(table_id: str, body: dict[str, Any]) -> tuple[int, Any]:
        """A join forwarded by another process of the cluster, answered here."""
        try:
            response = await join_here(table_id, JoinSeat.model_validate(body))
        except ValueError:
            return 422, {"error": "bad join request"}
        return response.status_code, json.loads(bytes(response.body))

    async def join_here(table_id: str, body: JoinSeat) -> JSONResponse:
        table = await hub().get(table_id)
        if table is None:
            return not_found(table_id)
        name = clean_text(body.name)
        if not name:
            return JSONResponse({"error": "name: give a display name"}, status_code=422)
        if body.client_seed:
            return JSONResponse({"error": "client_seed: not taken; send client_commitment "
                                          "(the SHA-256 of your value) and reveal the value "
                                          "when the table asks"}, status_code=422)
        if body.client_commitment and not CLIENT_COMMITMENT.fullmatch(body.client_commitment):
            return JSONResponse({"error": "client_commitment: the SHA-256 of your value, 64 "
                                          "hexadecimal digits (0-9, a-f)"}, status_code=422)
        if body.seat >= len(table.seats):
            return JSONResponse({"error": f"seat: 0 to {len(table.seats) - 1}"},
                                status_code=422)
        try:
            token = await table.join(body.seat, name, body.client_commitment)
        except RejectedError as error:
            return rejected(error, 409)
        except Exception:  # the database failed: nothing was written, nothing changed
            log.exception("table %s: a join failed", table.id)
            return JSONResponse({"error": "the server could not store that; the seat is "
                                          "still open, try again", "code": "server_error"},
                                status_code=503)
        return JSONResponse({"token": token, "seat": body.seat, "table": table.info()})

    @app.get("/api/tables/{table_id}/history")
    async def history(table_id: str) -> JSONResponse:
        table = await hub().get(table_id)
        if table is None:
            return not_found(table_id)
        history = table_history(table)
        # the chat is in the (public) history only where spectators may read it
        history["chat"] = table.chat_log if table.chat_allowed(None) else None
        return JSONResponse(history)

    @app.get("/api/tables/{table_id}/games/{game_no}/hands/{hand}")
    async def replay(table_id: str, game_no: int, hand: int) -> JSONResponse:
        table = await hub().get(table_id)
        if table is None:
            return not_found(table_id)
        try:
            return JSONResponse(hand_replay(table, game_no, hand))
        except LookupError as error:
            return JSONResponse({"error": str(error.args[0])}, status_code=404)

    @app.post("/api/tables/{table_id}/games/{game_no}/hands/{hand}/review")
    async def review(table_id: str, game_no: int, hand: int, body: ReviewAsk,
                     request: Request) -> JSONResponse:
        table = await hub().get(table_id)
        if table is None:
            return not_found(table_id)
        token_seat = table.seat_for_token(body.token) if body.token else None
        address = request.client.host if request.client is not None else ""
        client = f"seat {table_id} {token_seat}" if token_seat is not None else address
        try:
            answer = await reviews.request(table, game_no, hand, body.seat, token_seat,
                                           client)
        except ReviewRefusedError as error:
            return JSONResponse({"error": str(error), "code": error.code},
                                status_code=error.status)
        return JSONResponse(answer, status_code=200 if answer["status"] == "done" else 202)

    # Sockets not seated (before hello, and spectators), in all (under "") and per
    # client address: the caps of docs/web.md "Security and limits". Seated
    # connections are bounded per seat instead, so a token holder always gets in.
    unseated: dict[str, int] = {}

    async def refuse(websocket: WebSocket, code: str, message: str, close: int) -> None:
        with contextlib.suppress(Exception):
            await websocket.send_json({"type": "error", "code": code, "message": message})
            await websocket.close(close)

    @app.websocket("/ws/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        if "cluster" in state:  # any process takes any table's socket (docs/web-cluster.md)
            await state["cluster"].relay(websocket, table_id)
            return
        await serve_socket(websocket, table_id)

    async def serve_socket(websocket: WebSocket, table_id: str) -> None:
        """A table's WebSocket: a browser's, or one relayed by the cluster."""
        await websocket.accept()
        address = websocket.client.host if websocket.client else ""
        per_address = "address " + address
        with contextlib.ExitStack() as held:
            # Past a cap only a seat's token holder gets in: the socket is refused after
            # its hello unless that names a seat (it waits at most the hello timeout).
            full = None
            if unseated.get("", 0) >= limits.max_sockets:
                full = f"this server already has {limits.max_sockets} connections"
            elif unseated.get(per_address, 0) >= limits.max_per_address:
                full = f"at most {limits.max_per_address} connections from one address"
            else:
                for key in ("", per_address):
                    unseated[key] = unseated.get(key, 0) + 1
                    held.callback(_release, unseated, key)
            await _play(websocket, table_id, address, held, full)

    async def _play(websocket: WebSocket, table_id: str, address: str,
                    held: contextlib.ExitStack, full: str | None) -> None:
        table = await hub().get(table_id)
        if table is None:
            await refuse(websocket, "no_table", f"no table {table_id[:40]!r}", 4404)
            return
        client = _Client(websocket, limits)
        client.address = address
        try:
            received = await asyncio.wait_for(websocket.receive(), limits.hello_timeout)
        except TimeoutError:
            await refuse(websocket, "no_hello", f"no hello within {limits.hello_timeout:g} "
                         "seconds", 1008)
            return
        except (WebSocketDisconnect, RuntimeError):
            return  # gone before its hello
        if received["type"] == "websocket.disconnect":
            return
        hello = received.get("text")  # None: bytes, answered as any other bad hello
        try:
            data = json.loads(hello) if hello is not None and len(
                hello) <= limits.max_message else None
        except (ValueError, RecursionError):
            data = None  # ValueError covers JSONDecodeError; RecursionError: deep nesting
        if not isinstance(data, dict) or data.get("type") != "hello":
            client.error("bad_hello", 'start with {"type": "hello", "token": TOKEN} '
                         "(no token: watch as a spectator)")
            data = {}
        token = data.get("token")
        if isinstance(token, str) and token:
            client.seat = table.seat_for_token(token[:100])
        if token not in (None, "") and client.seat is None:  # also a token not text
            client.error("bad_token", "this seat token is not valid at this table; "
                         "you are watching as a spectator")
        if client.seat is not None:
            held.close()  # a seated connection counts against its seat, not the caps
            seat = table.seats[client.seat]
            while len(seat.connections) >= limits.max_seat_connections:
                oldest = min(seat.connections, key=lambda c: getattr(c, "opened", 0.0))
                table.detach(oldest)
                if isinstance(oldest, _Client):
                    oldest.replaced()
        elif full is not None:
            await refuse(websocket, "full", f"{full}; try again later", 1013)
            return
        elif len(table.spectators) >= limits.max_connections:
            await refuse(websocket, "full", f"this table already has "
                         f"{limits.max_connections} spectators; try again later", 1013)
            return
        writer = asyncio.create_task(client.writer())
        attached = False
        try:
            client.push({"type": "welcome", "seat": client.seat, "table": table.id})
            table.attach(client)
            attached = True
            await _serve_client(table, client, limits)
        except WebSocketDisconnect:
            pass
        finally:
            if attached:
                table.detach(client)
            writer.cancel()

    return app


def _release(sockets: dict[str, int], key: str) -> None:
    """One WebSocket counted under ``key`` has closed."""
    sockets[key] -= 1
    if not sockets[key]:
        del sockets[key]


async def _serve_client(table: Table, client: _Client, limits: Limits) -> None:
    """Read a client's messages until it leaves; every bad one gets an error, no crash."""
    websocket = client.websocket
    while not client.dropped:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        problem: tuple[str, str] | None
        if text is None:
            problem = ("bad_message", "send text messages (JSON), not binary")
        elif not client.allow():
            problem = ("rate_limited", f"too many messages: at most {limits.rate:g} a second")
        elif len(text) > limits.max_message:
            problem = ("too_large", f"message too large: at most {limits.max_message} "
                                    "characters")
        else:
            problem = await _handle(table, client, text)
        if problem is not None:
            client.error(*problem)
            client.push(table.state(client.seat))
            if problem[0] in _ABUSE:
                client.violations += 1
            if client.violations > limits.max_violations:
                with contextlib.suppress(Exception):
                    await websocket.close(1008, "too many bad messages")
                return


async def _handle(table: Table, client: _Client, text: str) -> tuple[str, str] | None:
    """Do what one message asks; a (code, message) problem if it cannot be done."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        return "bad_json", f"not JSON: {error.msg} at character {error.pos}"
    except RecursionError:  # e.g. a few KB of [[[[...]]]]: the decoder recurses per level
        return "bad_json", "not JSON the server accepts: nested too deeply"
    if not isinstance(data, dict):
        return "bad_message", "a message is a JSON object with a 'type'"
    kind = data.get("type")
    try:
        if kind == "act":
            await table.act(client.seat, data.get("action"), data.get("ply"))
        elif kind == "rematch":
            await table.rematch(client.seat)
        elif kind == "fill":
            level = data.get("level", table.settings.standin)
            levels = computer_levels(table.rules)
            if level not in levels:
                return "bad_message", f"level: one of {', '.join(levels)}"
            await table.fill(client.seat, str(level))
        elif kind == "hint":
            # to this client alone; computed in a compute thread, the game untouched
            client.push(await table.hint(client.seat))
        elif kind == "commit":  # a browser's commitment to the next game's deals
            await table.commit(client.seat, data.get("commitment"))
        elif kind == "reveal":  # its value, once every commitment is in
            await table.reveal(client.seat, data.get("value"))
        elif kind == "chat":  # docs/web.md "Chat"
            await table.chat(client.seat, data.get("text"), client)
        elif kind == "undo":  # docs/web.md "Undo"
            await table.undo(client.seat)
        elif kind == "claim":  # docs/web.md "Claim"
            await table.claim(client.seat)
        elif kind == "claim_answer":
            await table.answer_claim(client.seat, data.get("accept"))
        elif kind == "ping":
            client.push({"type": "pong"})
        elif kind == "state":
            client.hands_sent = 0  # a resynchronisation: every finished hand again
            client.push(table.state(client.seat))
            table.kick()  # a stalled table's computers start again when someone asks
        else:
            return "unknown_type", (f"unknown message type {str(kind)[:40]!r}: expected act, "
                                    "hint, chat, undo, claim, claim_answer, rematch, fill, "
                                    "commit, reveal, state or ping")
    except RejectedError as error:
        return error.code, str(error)
    except Exception:  # a bug must not take the table or the server down
        log.exception("table %s: message %r failed", table.id, text[:200])
        return "server_error", "the server could not do that; the table is unchanged"
    return None
