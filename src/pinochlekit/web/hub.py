"""The server's tables: loaded from the store on first use, created, listed.

The store is used from one worker thread (SQLite and psycopg connections
stay on one thread; actions commit in order, and a commit waiting for the disk
or the network never holds up the event loop); slow computer players think in
a small pool of threads so the event loop keeps answering, shared fairly
between the clients that created the tables (:class:`FairPool`).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import secrets
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from pinochlekit.engine.errors import PinochleError
from pinochlekit.engine.rules import Rules
from pinochlekit.players import levels_for
from pinochlekit.private import private_dir
from pinochlekit.web.storage import TableStore
from pinochlekit.web.table import (
    OPEN,
    REVEAL_TIME,
    SPECTATOR_CHAT,
    TURN_TIME_MAX,
    TURN_TIME_MIN,
    RejectedError,
    Table,
    TableSettings,
    clean_text,
    computer_name,
)

__all__ = ["FairPool", "Hub", "clean_text", "default_db_url"]

T = TypeVar("T")
log = logging.getLogger("pinochlekit.web")

#: The levels a table does not offer for a game though they play it, by number of
#: players: a level that plays a game exactly as another level does is not offered
#: twice (``skilled`` plays the two-handed game as ``standard`` does).
NOT_OFFERED: dict[str, frozenset[int]] = {"skilled": frozenset({2})}


def computer_levels(rules: Rules | None = None) -> list[str]:
    """The computer levels a table of ``rules`` (``pagat`` by default) may seat: the
    built-in players that play that game (:func:`pinochlekit.players.levels_for`, never
    ``cmd:`` programs), less :data:`NOT_OFFERED`.

    >>> computer_levels(Rules.preset("two"))
    ['random', 'simple', 'easy', 'standard', 'pro', 'expert']
    """
    rules = rules or Rules()
    return [name for name in levels_for(rules)
            if rules.players not in NOT_OFFERED.get(name, frozenset())]


def default_db_url() -> str:
    """The default database: ``web.db`` in ``$PINOCHLEKIT_DATA`` or the user data directory
    (created, or narrowed, to ``0700``)."""
    base = os.environ.get("PINOCHLEKIT_DATA")
    if not base:
        try:
            from platformdirs import user_data_dir
            base = user_data_dir("pinochlekit", appauthor=False)
        except ImportError:
            base = str(Path.home() / ".local" / "share" / "pinochlekit")
    # owner only: the database holds every game's secret seed (docs/web.md "Security
    # and limits")
    private_dir(base, narrow=True)
    return str(Path(base) / "web.db")


class FairPool:
    """Threads for computer players, shared fairly between keys (the client that
    created a table): one key runs at most ``share`` jobs at once, and a free
    thread takes the next job of the key after the last one served (round robin),
    so one client's expert tables never hold every thread (docs/web.md
    "Security and limits")."""

    def __init__(self, threads: int, share: int) -> None:
        self.threads = max(1, threads)
        self.share = max(1, min(share, self.threads))
        self._executor = ThreadPoolExecutor(self.threads, thread_name_prefix="pinochle-ai")
        self._waiting: dict[str, deque[tuple[Callable[..., Any], tuple[Any, ...],
                                             asyncio.Future[Any]]]] = {}
        self._running: dict[str, int] = {}
        self._busy = 0

    async def run(self, key: str, fn: Callable[..., T], *args: Any,
                  on_wait: Callable[[], None] | None = None) -> T:
        """``fn(*args)`` in a thread when ``key``'s turn comes; ``on_wait()`` is called
        if it cannot start at once (no thread free for ``key``)."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        job = (fn, args, future)
        self._waiting.setdefault(key, deque()).append(job)
        self._dispatch()
        if on_wait is not None and job in self._waiting.get(key, ()):
            on_wait()
        return await future

    def _dispatch(self) -> None:
        loop = asyncio.get_running_loop()
        while self._busy < self.threads:
            key = next((k for k in self._waiting if self._running.get(k, 0) < self.share),
                       None)
            if key is None:
                return
            jobs = self._waiting.pop(key)  # served: to the back of the round
            fn, args, future = jobs.popleft()
            if jobs:
                self._waiting[key] = jobs
            if future.done():  # its caller was cancelled while it waited
                continue
            self._busy += 1
            self._running[key] = self._running.get(key, 0) + 1
            job = loop.run_in_executor(self._executor, fn, *args)
            job.add_done_callback(functools.partial(self._finished, key, future))

    def _finished(self, key: str, future: asyncio.Future[Any], done: asyncio.Future[Any]) -> None:
        self._busy -= 1
        self._running[key] -= 1
        if not self._running[key]:
            del self._running[key]
        if not future.done():
            if done.cancelled():
                future.cancel()
            elif done.exception() is not None:
                future.set_exception(done.exception())  # type: ignore[arg-type]
            else:
                future.set_result(done.result())
        self._dispatch()

    def shutdown(self) -> None:
        """Stop the threads; waiting jobs are dropped."""
        for jobs in self._waiting.values():
            for _, _, future in jobs:
                future.cancel()
        self._waiting.clear()
        self._executor.shutdown(wait=False, cancel_futures=True)


class Hub:
    """Every table of one server process."""

    def __init__(self, store: TableStore, max_tables: int = 1000, compute_threads: int = 4,
                 compute_share: int = 2, max_target: int = 10000,
                 min_pace: float = 0.0, *, creates: int = 20, create_window: float = 600.0,
                 waiting_expiry: float = 86400.0, max_finished: int = 50,
                 reveal_time: float = REVEAL_TIME) -> None:
        """``creates`` tables at most per client address in ``create_window`` seconds;
        a table still waiting for players ``waiting_expiry`` seconds after it was
        created expires; at most ``max_finished`` finished tables stay in memory; the
        computer threads are shared between clients (docs/web.md "Security and
        limits")."""
        self.store = store
        self.max_tables = max_tables
        self.max_target = max_target
        self.min_pace = min_pace
        self.reveal_time = reveal_time
        self.creates = creates
        self.create_window = create_window
        self.waiting_expiry = waiting_expiry
        self.max_finished = max_finished
        self._created: dict[str, deque[float]] = {}  # client address: creation times
        self._db_pool = ThreadPoolExecutor(1, thread_name_prefix="pinochle-db")
        self._cpu_pool = FairPool(compute_threads, compute_share)
        self.tables: dict[str, Table] = {}
        # the client address that created each table this run (tables loaded after a
        # restart share the computer threads by table instead)
        self.owners: dict[str, str] = {}
        self._loading = asyncio.Lock()
        # the process's place in a cluster (web/cluster/node.py), None: a lone server
        self.cluster: Any = None

    async def db(self, method: str, *args: Any) -> Any:
        """Run one store method in the store's thread: a commit may wait for the disk
        (an SQLite checkpoint) or the network (PostgreSQL), the event loop never does."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db_pool, getattr(self.store, method), *args)

    async def compute(self, fn: Callable[..., T], *args: Any, table: str = "") -> T:
        """Run a computer player's decision off the event loop, in the turn of the
        client that created ``table`` (:class:`FairPool`)."""
        return await self._cpu_pool.run(self.owners.get(table, "table " + table), fn, *args,
                                        on_wait=functools.partial(self._waited, table))

    def _waited(self, table_id: str) -> None:
        """A decision of ``table_id``'s computers waited for a thread (counted)."""
        table = self.tables.get(table_id)
        if table is not None:
            table.compute_waits += 1

    def _compute_for(self, table_id: str) -> Callable[..., Any]:
        async def compute(fn: Callable[..., T], *args: Any) -> T:
            return await self.compute(fn, *args, table=table_id)
        return compute

    async def get(self, table_id: str) -> Table | None:
        """The table, loaded (and replayed) from the store if it is not in memory."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if len(table_id) > 40:
            return None
        if self.cluster is not None:  # docs/web-cluster.md: loaded by the lease holder only
            return await self.cluster.get(table_id, self._load)  # type: ignore[no-any-return]
        return await self._load(table_id)

    async def _load(self, table_id: str) -> Table | None:
        """Load (and replay) a table from the store into memory."""
        async with self._loading:
            table = self.tables.get(table_id)
            if table is None:
                row = await self.db("load_table", table_id)
                if row is None or row.status not in ("waiting", "playing", "over"):
                    return None  # expired: it waited too long for players
                try:
                    table = Table.from_row(row, self.db, self._compute_for(table_id))
                    table.min_pace = self.min_pace
                    table.reveal_time = self.reveal_time
                    table.commit_time = self.reveal_time / 3
                    table.chat_log = await self.db("load_chat", table_id)
                except (PinochleError, ValueError):  # a damaged record: say so, go on
                    log.exception("table %s cannot be rebuilt from the database", table_id)
                    return None
                self.tables[table_id] = table
                table.start_grace_timers()
        return table

    async def create(self, title: str, rules: str, seats: list[str] | None, grace: float,
                     pace: float, standin: str, hints: bool = True,
                     client: str = "", turn_time: float = 0.0,
                     spectator_chat: str = "none") -> Table:
        """A new table; :class:`RejectedError` with a clear message for bad settings.

        ``seats`` gives a kind per seat (``open`` or a computer level), as many as
        the rules have players (four-handed, three-handed docs/rules.md §3, two-handed
        docs/rules.md §4); ``None``: the first open, the others ``standard``. ``client``
        (its address) may create :attr:`creates` tables per :attr:`create_window`, and
        its tables share the computer threads fairly with other clients'.
        ``turn_time``: seconds per person's decision before the stand-in acts (0: no
        timer); ``spectator_chat``: ``none``, ``read`` or ``write``.
        """
        try:
            parsed = Rules.from_string(rules or "pagat")
        except (PinochleError, ValueError) as error:
            raise RejectedError("bad_rules", str(error)) from None
        if parsed.players not in (2, 3, 4):
            raise RejectedError("bad_rules", "a web table plays two-, three- or four-handed "
                                 f"pinochle, not players={parsed.players}")
        if parsed.target > self.max_target:
            raise RejectedError("bad_rules", f"target: at most {self.max_target} at this "
                                 f"server, not {parsed.target}")
        levels = computer_levels(parsed)
        if seats is None:
            seats = [OPEN] + [levels[-1] if parsed.deck == "double" else "standard"] * (
                parsed.players - 1)
        if len(seats) != parsed.players:
            raise RejectedError("bad_seats", f"give {parsed.players} seats, not {len(seats)}")
        for kind in seats:
            if kind != OPEN and kind not in levels:
                raise RejectedError("bad_seats", f"a seat is 'open' or a computer level "
                                     f"({', '.join(levels)}), not {kind!r}")
        if OPEN not in seats:
            raise RejectedError("bad_seats", "leave at least one seat open for a person")
        if standin not in levels:
            raise RejectedError("bad_settings", f"standin: one of {', '.join(levels)} "
                                 f"for this game")
        if turn_time and not TURN_TIME_MIN <= turn_time <= TURN_TIME_MAX:
            raise RejectedError("bad_settings", f"turn_time: 0 (no timer) or {TURN_TIME_MIN:g} "
                                 f"to {TURN_TIME_MAX:g} seconds, not {turn_time:g}")
        if spectator_chat not in SPECTATOR_CHAT:
            raise RejectedError("bad_settings", "spectator_chat: one of "
                                 f"{', '.join(SPECTATOR_CHAT)}")
        self._allow_create(client)
        if await self.db("count_tables") >= self.max_tables:
            await self.sweep()  # expired tables make room
        if await self.db("count_tables") >= self.max_tables:
            raise RejectedError("full", f"this server already holds {self.max_tables} tables")
        table_id = secrets.token_urlsafe(6)
        settings = TableSettings(str(parsed), grace, pace, standin, hints, turn_time,
                                 spectator_chat)
        title = clean_text(title)[:60] or "Pinochle table"  # filtered like a name
        stored = settings.to_dict()
        names = ["" if kind == OPEN else computer_name(kind) for kind in seats]
        # the first game's server seed, chosen before anyone joins (docs/web.md
        # "Fairness and privacy"), is stored with the table in one transaction
        await self.db("create_table", table_id, title, stored, seats, names,
                      secrets.token_hex(32))
        if client:
            self.owners[table_id] = client
        table = await self.get(table_id)
        assert table is not None
        return table

    def _allow_create(self, client: str) -> None:
        """Count one creation by ``client``; :class:`RejectedError` ``too_many`` past
        its allowance (a sliding window per address)."""
        now = time.monotonic()
        times = self._created.setdefault(client, deque())
        while times and times[0] <= now - self.create_window:
            times.popleft()
        if len(times) >= self.creates:
            wait = int(times[0] + self.create_window - now) + 1
            raise RejectedError("too_many", f"you have created {self.creates} tables in "
                                f"{self.create_window:g} s; try again in {wait} s")
        times.append(now)
        if len(self._created) > 10000:  # forget the addresses with nothing in the window
            self._created = {k: v for k, v in self._created.items()
                             if v and v[-1] > now - self.create_window}

    def drop(self, table: Table, why: str) -> None:
        """Forget a table in memory (it stays in the database, or was removed from it):
        its tasks stop, its clients are told ``why``."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        for conn in table.connections():
            conn.push({"type": "error", "code": "table_closed", "message": why})
        table.close()

    async def sweep(self) -> None:
        """Expire tables that waited too long for players, forget tables removed by
        the operator, and keep at most :attr:`max_finished` finished tables in memory
        (none nobody watches): docs/web.md "Security and limits"."""
        expired = await self.db("expire_waiting", time.time() - self.waiting_expiry)
        for table_id in expired:
            table = self.tables.get(table_id)
            if table is not None and table.status == "waiting":
                self.drop(table, "this table waited too long for players and was closed")
        stored = await self.db("existing", list(self.tables))
        for table in list(self.tables.values()):
            if table.id not in stored:
                self.drop(table, "the operator removed this table")
        finished = [t for t in self.tables.values() if t.status == "over"]
        for table in finished:
            if not table.connections():
                self.drop(table, "the game is over")
        finished = [t for t in self.tables.values() if t.status == "over"]
        finished.sort(key=lambda t: t.finished_at)
        for table in finished[:max(0, len(finished) - self.max_finished)]:
            self.drop(table, "the game is over; reload the page to see the history")

    async def sweeper(self, interval: float) -> None:
        """Run :meth:`sweep` every ``interval`` seconds, logging (never raising) a failure."""
        while True:
            await asyncio.sleep(interval)
            try:
                await self.sweep()
            except Exception:  # a database that is down for a moment: next time
                log.exception("the sweep of expired and finished tables failed")

    async def close(self) -> None:
        """Stop every table and the worker threads."""
        for table in self.tables.values():
            table.close()
        self._cpu_pool.shutdown()
        self._db_pool.shutdown(wait=True)
        self.store.close()
