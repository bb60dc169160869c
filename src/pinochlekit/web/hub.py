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
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from pinochlekit.errors import PinochleError
from pinochlekit.players import PLAYERS
from pinochlekit.rules import Rules
from pinochlekit.web.storage import Store
from pinochlekit.web.table import OPEN, RejectedError, Table, TableSettings, computer_name

__all__ = ["FairPool", "Hub", "default_db_url"]

T = TypeVar("T")
log = logging.getLogger("pinochlekit.web")

#: The games a built-in player does not play (yet), by number of players: the lobby
#: never offers a level for a game it would fail at, nor one that plays a game
#: exactly as another level does. Every built-in player plays the four-, three- and
#: two-handed games (docs/players.md); ``skilled`` plays the two-handed game exactly
#: as ``standard`` does, so it is not offered twice there.
NOT_PLAYED: dict[str, frozenset[int]] = {"skilled": frozenset({2})}


def computer_levels(players: int = 4) -> list[str]:
    """The computer levels a table of ``players`` may seat: the built-in players that
    play that game (never ``cmd:`` programs).

    >>> computer_levels(2)
    ['random', 'simple', 'easy', 'standard', 'pro', 'expert']
    """
    return [name for name in PLAYERS if players not in NOT_PLAYED.get(name, frozenset())]


def default_db_url() -> str:
    """The default database: ``web.db`` in ``$PINOCHLEKIT_DATA`` or the user data directory."""
    base = os.environ.get("PINOCHLEKIT_DATA")
    if not base:
        try:
            from platformdirs import user_data_dir
            base = user_data_dir("pinochlekit", appauthor=False)
        except ImportError:
            base = str(Path.home() / ".local" / "share" / "pinochlekit")
    Path(base).mkdir(parents=True, exist_ok=True)
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

    async def run(self, key: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a thread when ``key``'s turn comes."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(key, deque()).append((fn, args, future))
        self._dispatch()
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

    def __init__(self, store: Store, max_tables: int = 1000, compute_threads: int = 4,
                 compute_share: int = 2, max_target: int = 10000,
                 min_pace: float = 0.0) -> None:
        self.store = store
        self.max_tables = max_tables
        self.max_target = max_target
        self.min_pace = min_pace
        self._db_pool = ThreadPoolExecutor(1, thread_name_prefix="pinochle-db")
        self._cpu_pool = FairPool(compute_threads, compute_share)
        self.tables: dict[str, Table] = {}
        # the client address that created each table this run (tables loaded after a
        # restart share the computer threads by table instead)
        self.owners: dict[str, str] = {}
        self._loading = asyncio.Lock()

    async def db(self, method: str, *args: Any) -> Any:
        """Run one store method in the store's thread: a commit may wait for the disk
        (an SQLite checkpoint) or the network (PostgreSQL), the event loop never does."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db_pool, getattr(self.store, method), *args)

    async def compute(self, fn: Callable[..., T], *args: Any, table: str = "") -> T:
        """Run a computer player's decision off the event loop, in the turn of the
        client that created ``table`` (:class:`FairPool`)."""
        return await self._cpu_pool.run(self.owners.get(table, "table " + table), fn, *args)

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
        async with self._loading:
            table = self.tables.get(table_id)
            if table is None:
                row = await self.db("load_table", table_id)
                if row is None:
                    return None
                try:
                    table = Table.from_row(row, self.db, self._compute_for(table_id))
                    table.min_pace = self.min_pace
                except (PinochleError, ValueError):  # a damaged record: say so, go on
                    log.exception("table %s cannot be rebuilt from the database", table_id)
                    return None
                self.tables[table_id] = table
                table.start_grace_timers()
        return table

    async def create(self, title: str, rules: str, seats: list[str] | None, grace: float,
                     pace: float, standin: str, hints: bool = True, owner: str = "") -> Table:
        """A new table; :class:`RejectedError` with a clear message for bad settings.

        ``seats`` gives a kind per seat (``open`` or a computer level), as many as
        the rules have players (four-handed, three-handed RULES.md §3, two-handed
        RULES.md §4); ``None``: the first open, the others ``standard``. ``owner``
        (the creating client's address) shares the computer threads fairly.
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
        levels = computer_levels(parsed.players)
        if seats is None:
            seats = [OPEN] + ["standard"] * (parsed.players - 1)
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
        if await self.db("count_tables") >= self.max_tables:
            raise RejectedError("full", f"this server already holds {self.max_tables} tables")
        table_id = secrets.token_urlsafe(6)
        settings = TableSettings(str(parsed), grace, pace, standin, hints)
        title = " ".join(title.split())[:60] or "Pinochle table"
        stored = settings.to_dict()
        names = ["" if kind == OPEN else computer_name(kind) for kind in seats]
        await self.db("create_table", table_id, title, stored, seats, names)  # one transaction
        if owner:
            self.owners[table_id] = owner
        table = await self.get(table_id)
        assert table is not None
        return table

    async def close(self) -> None:
        """Stop every table and the worker threads."""
        for table in self.tables.values():
            table.close()
        self._cpu_pool.shutdown()
        self._db_pool.shutdown(wait=True)
        self.store.close()
