"""Where the server keeps its tables: SQLite (the default) or PostgreSQL, one code path.

A table is stored as what it takes to rebuild it by replay (the engine's game
is a pure function of rules, seed and actions): its settings, its seats
(names, the SHA-256 of each seat's token, computer levels), one row per game
played at it (rules, secret seed, first dealer) and one row per action, in
order. Every action is committed before the server broadcasts it, so a
restart replays each table to exactly where it was.

``TableStore.open(url)`` takes ``sqlite:///path/to/file.db`` (or a bare path) or
``postgresql://user@host/db``. Every method is synchronous; the server calls
them from one worker thread.

>>> store = TableStore.open("sqlite://:memory:")
>>> store.create_table("t1", "Club night", {"grace": 60}, ["open", "easy", "easy", "easy"])
>>> store.add_game("t1", 0, "pagat", "secret", 0)
>>> store.add_action("t1", 0, 0, 1, "bid 250", "human")
>>> store.load_table("t1").games[0].actions
['bid 250']
>>> store.close()
"""

from __future__ import annotations

import contextlib
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from pinochlekit.private import private_sqlite

log = logging.getLogger("pinochlekit.web")
__all__ = ["FencedError", "GameRow", "NewGame", "SeatRow", "StoreError", "TableRow",
           "TableStore"]

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS web_tables (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        settings TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        status TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS web_seats (
        table_id TEXT NOT NULL,
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        token_hash TEXT,
        PRIMARY KEY (table_id, seat))""",
    """CREATE TABLE IF NOT EXISTS web_games (
        table_id TEXT NOT NULL,
        game_no INTEGER NOT NULL,
        rules TEXT NOT NULL,
        seed TEXT NOT NULL,
        dealer INTEGER NOT NULL,
        PRIMARY KEY (table_id, game_no))""",
    """CREATE TABLE IF NOT EXISTS web_actions (
        table_id TEXT NOT NULL,
        game_no INTEGER NOT NULL,
        ply INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        actor TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, game_no, ply))""",
    # provably fair deals (docs/web.md "Fairness and privacy"): each game's server
    # seed, chosen (and its hash shown) before any browser contributes, and what each
    # seat's browser contributed to that game
    """CREATE TABLE IF NOT EXISTS web_fair (
        table_id TEXT NOT NULL,
        game_no INTEGER NOT NULL,
        server_seed TEXT NOT NULL,
        PRIMARY KEY (table_id, game_no))""",
    """CREATE TABLE IF NOT EXISTS web_client_seeds (
        table_id TEXT NOT NULL,
        game_no INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (table_id, game_no, seat))""",
    # the SHA-256 each seat's browser committed to before any value of that game was
    # revealed (docs/web.md "Fairness and privacy"); tables stored before these
    # existed have values and no commitments
    """CREATE TABLE IF NOT EXISTS web_client_commitments (
        table_id TEXT NOT NULL,
        game_no INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        commitment TEXT NOT NULL,
        PRIMARY KEY (table_id, game_no, seat))""",
    # the hands claimed in (docs/web.md "Claim": one claim per hand), kept so that a
    # restart allows no second claim in a hand
    """CREATE TABLE IF NOT EXISTS web_claims (
        table_id TEXT NOT NULL,
        game_no INTEGER NOT NULL,
        hand INTEGER NOT NULL,
        PRIMARY KEY (table_id, game_no, hand))""",
    # the claim waiting for answers, or declined at its turn (docs/web.md "Claim"): one
    # row per table, so a restart keeps it; ``waiting`` the seats to answer, as JSON
    """CREATE TABLE IF NOT EXISTS web_open_claims (
        table_id TEXT PRIMARY KEY,
        game_no INTEGER NOT NULL,
        ply INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        waiting TEXT NOT NULL,
        declined TEXT)""",
    # the table's chat (docs/web.md "Chat"): kept with the table, shown in its history
    """CREATE TABLE IF NOT EXISTS web_chat (
        table_id TEXT NOT NULL,
        n INTEGER NOT NULL,
        seat INTEGER,
        name TEXT NOT NULL,
        text TEXT NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, n))""",
    # fencing (docs/web-cluster.md "Fencing"): the epoch of each table's current
    # owner process in a cluster; a write carrying an older epoch is refused
    """CREATE TABLE IF NOT EXISTS web_fences (
        table_id TEXT PRIMARY KEY,
        epoch INTEGER NOT NULL)""",
)


#: A query and its parameters.
Query = tuple[str, Sequence[Any]]


class _UnchangedError(Exception):
    """A change that found its row taken: the transaction is rolled back."""


class NewGame(NamedTuple):
    """What starts a game at a table: its number, rules, secret seed and first dealer."""

    game_no: int
    rules: str
    seed: str
    dealer: int
    next_server_seed: str = ""  # the next game's, stored with this one (web_fair)


class StoreError(Exception):
    """The database cannot be opened or used; the message says which and why."""


class FencedError(StoreError):
    """A write of a table's game carried an epoch older than the table's: another
    process of the cluster has taken the table since (docs/web-cluster.md
    "Fencing"). Nothing was written."""


@dataclass
class SeatRow:
    """One seat: ``kind`` is ``open`` (waiting for a person), ``human`` or a computer level."""

    seat: int
    kind: str
    name: str
    token_hash: str | None


@dataclass
class GameRow:
    """One game played at a table: what rebuilds it (the seed stays on the server)."""

    game_no: int
    rules: str
    seed: str
    dealer: int
    actions: list[str] = field(default_factory=list)
    actors: list[str] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)


@dataclass
class TableRow:
    """A stored table with its seats and games."""

    id: str
    title: str
    settings: dict[str, Any]
    created: float
    status: str
    seats: list[SeatRow]
    games: list[GameRow]
    server_seeds: dict[int, str] = field(default_factory=dict)  # by game number
    client_seeds: dict[int, dict[int, str]] = field(default_factory=dict)  # game: seat: value
    # game: seat: the SHA-256 the seat's browser committed to before the values were revealed
    client_commitments: dict[int, dict[int, str]] = field(default_factory=dict)
    claims: set[tuple[int, int]] = field(default_factory=set)  # (game number, hand number)
    # the claim waiting for answers (or declined) when the table was stored, or None:
    # seat, ply, game_no, waiting, declined (docs/web.md "Claim")
    open_claim: dict[str, Any] | None = None


class TableStore:
    """The tables of one server, in SQLite or PostgreSQL (see the module docstring)."""

    def __init__(self, connection: Any, paramstyle: str, url: str) -> None:
        """Use :meth:`open`."""
        self._db = connection
        self._pg = paramstyle == "format"
        self.url = url
        self._lock = threading.Lock()
        self._reconnect: Any = None  # PostgreSQL: opens a new connection (see _retrying)
        # the epoch this process holds, by table (see fence): empty for a lone server
        self._fences: dict[str, int] = {}
        for statement in _SCHEMA:
            self._run(statement)
        self._commit()

    @classmethod
    def open(cls, url: str) -> TableStore:
        """Open (and create if needed) the store at ``url``; :class:`StoreError` if it fails."""
        if url.startswith(("postgresql://", "postgres://")):
            try:
                import psycopg
            except ImportError:
                raise StoreError("PostgreSQL needs the psycopg package: "
                                 "pip install 'pinochlekit[web]'") from None
            try:
                connection = psycopg.connect(url, connect_timeout=10)
            except psycopg.Error as error:
                raise StoreError(f"cannot connect to {_safe(url)}: "
                                 f"{str(error).strip().splitlines()[0]}") from None
            try:
                store = cls(connection, "format", _safe(url))
            except psycopg.Error as error:
                raise StoreError(f"cannot use {_safe(url)}: {error}") from None
            store._reconnect = lambda: psycopg.connect(url, connect_timeout=10)
            return store
        # sqlite:///absolute/path, sqlite://relative/path, sqlite://:memory: or a bare path
        path = url.removeprefix("sqlite://")
        try:
            if path and path != ":memory:":
                # the seeds and token hashes are secrets: owner only, whatever the umask
                # (docs/web.md "Security and limits")
                private_sqlite(path)
            lite = sqlite3.connect(path or ":memory:", check_same_thread=False,
                                   isolation_level=None)
            lite.execute("PRAGMA journal_mode=WAL")
            # FULL: in WAL mode, NORMAL may lose the last commits on a power cut (not on
            # a crash of the process); FULL syncs the WAL at every commit, so a committed
            # action survives both (https://www.sqlite.org/pragma.html#pragma_synchronous)
            lite.execute("PRAGMA synchronous=FULL")
            lite.execute("PRAGMA busy_timeout=5000")
            store = cls(lite, "qmark", path)
            if path and path != ":memory:":
                private_sqlite(path)  # the -wal and -shm files now exist: 0600 too
        except (OSError, sqlite3.Error) as error:
            raise StoreError(f"cannot open the database {path!r}: {error}") from None
        return store

    # -- plumbing ---------------------------------------------------------------

    def _run(self, sql: str, params: Sequence[Any] = ()) -> Any:
        if self._pg:
            sql = sql.replace("?", "%s")
        cursor = self._db.cursor()
        cursor.execute(sql, tuple(params))
        return cursor

    def _commit(self) -> None:
        if self._pg:
            self._db.commit()

    def _retrying(self, work: Any, done: Query | None = None) -> Any:
        """Run ``work()`` (the lock is held); if the PostgreSQL connection is gone (the
        server restarted), open a new one and run it once more.

        A write whose connection is lost may have committed or not (a ``COMMIT``
        whose reply was cut): ``done`` is a query that finds the write's rows. It
        is asked on the new connection before the write is run again, and after a
        failure of the second run, so a committed write counts as done (1) and is
        never repeated nor reported as failed (docs/web.md "Nothing lost").
        """
        try:
            return work()
        except Exception as error:
            if self._reconnect is None or not _connection_lost(error, self._db):
                raise
        with contextlib.suppress(Exception):
            self._db.close()
        self._db = self._reconnect()
        if done is not None and self._found(done):
            log.warning("a write whose commit was not confirmed had committed: not repeated")
            return 1
        try:
            return work()
        except Exception:
            # the lost connection's transaction may have committed meanwhile: then the
            # second run fails (a duplicate key) and the write is done all the same
            if done is not None and self._found(done):
                return 1
            raise

    def _found(self, query: Query) -> bool:
        """Whether ``query`` finds a row (the lock is held)."""
        try:
            rows = self._run(*query).fetchall()
        finally:
            if self._pg and not self._db.closed:
                with contextlib.suppress(Exception):
                    self._db.rollback()
        return bool(rows)

    def _write(self, statements: Sequence[tuple[str, Sequence[Any]]], last: int = -1,
               checked: int = 0, done: Query | None = None) -> int:
        """Run ``statements`` in one transaction; the rows statement ``last`` changed.
        Each of the first ``checked`` statements must change one row, else nothing
        is written and 0 is returned (a seat someone else took first). ``done``:
        see :meth:`_retrying`."""
        with self._lock:
            return int(self._retrying(lambda: self._write_once(statements, last, checked),
                                      done))

    def _write_once(self, statements: Sequence[tuple[str, Sequence[Any]]], last: int,
                    checked: int) -> int:
        try:
            if not self._pg:
                self._db.execute("BEGIN IMMEDIATE")
            counts: list[int] = []
            for sql, params in statements:
                counts.append(int(self._run(sql, params).rowcount))
                if len(counts) <= checked and counts[-1] != 1:
                    raise _UnchangedError
            count = counts[last] if counts else 0
            if self._pg:
                self._db.commit()
            else:
                self._db.execute("COMMIT")
            return count
        except _UnchangedError:
            if not self._pg:
                self._db.execute("ROLLBACK")
            else:
                self._db.rollback()
            return 0
        except Exception:
            if not self._pg:
                self._db.execute("ROLLBACK")
            elif not self._db.closed:
                with contextlib.suppress(Exception):  # a lost connection cannot roll back
                    self._db.rollback()
            raise

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        def read() -> list[tuple[Any, ...]]:
            try:
                rows = self._run(sql, params).fetchall()
                if self._pg:
                    self._db.commit()  # end the read transaction
            except Exception:
                if self._pg and not self._db.closed:
                    with contextlib.suppress(Exception):
                        self._db.rollback()
                raise
            return [tuple(r) for r in rows]

        with self._lock:
            return list(self._retrying(read))

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._db.close()

    # -- fencing (docs/web-cluster.md "Fencing") ------------------------------------

    def fence(self, table_id: str) -> int:
        """Take a new epoch for ``table_id`` (one more than any before) and carry it in
        every later write of the table's game from this store; the epoch, or 0 (and
        nothing written) if there is no such table.

        A process of a cluster calls this when it takes the table's lease, before it
        loads the table: a write of the previous owner that is already committed is
        in what it loads, and one that comes later carries the previous epoch and is
        refused (:class:`FencedError`). In PostgreSQL the fence row is locked by
        both, so the two never interleave."""
        def claim() -> int:
            try:
                if not self._pg:
                    self._db.execute("BEGIN IMMEDIATE")
                if not self._run("SELECT 1 FROM web_tables WHERE id = ?",
                                 (table_id,)).fetchall():
                    epoch = 0
                else:
                    self._run("INSERT INTO web_fences (table_id, epoch) VALUES (?, 1) "
                              "ON CONFLICT (table_id) DO UPDATE "
                              "SET epoch = web_fences.epoch + 1", (table_id,))
                    epoch = int(self._run("SELECT epoch FROM web_fences WHERE table_id = ?",
                                          (table_id,)).fetchall()[0][0])
                if self._pg:
                    self._db.commit()
                else:
                    self._db.execute("COMMIT")
                return epoch
            except Exception:
                if not self._pg:
                    self._db.execute("ROLLBACK")
                elif not self._db.closed:
                    with contextlib.suppress(Exception):
                        self._db.rollback()
                raise

        with self._lock:
            epoch = int(self._retrying(claim))  # a retried claim takes a newer epoch: ours too
            if epoch:
                self._fences[table_id] = epoch
            return epoch

    def epoch(self, table_id: str) -> int | None:
        """The epoch this store carries for ``table_id`` (None: unfenced, a lone server)."""
        return self._fences.get(table_id)

    def _fenced_write(self, table_id: str, statements: list[tuple[str, Sequence[Any]]],
                      done: Query | None = None) -> int:
        """:meth:`_write` of a table's game; when this store holds an epoch for the
        table, the first statement checks (and in PostgreSQL locks) that it is still
        the table's, else nothing is written and :class:`FencedError` is raised."""
        epoch = self._fences.get(table_id)
        if epoch is None:
            return self._write(statements, last=0, done=done)
        check = ("UPDATE web_fences SET epoch = epoch WHERE table_id = ? AND epoch = ?",
                 (table_id, epoch))
        # the check's own count says whether the write was let through: a write
        # that changes no row (a claim's DELETE of none) is still done
        if self._write([check, *statements], last=0, checked=1, done=done) == 0:
            raise FencedError(f"table {table_id}: another server process holds it now "
                              f"(epoch {epoch} is stale); nothing was written")
        return 1

    # -- tables -----------------------------------------------------------------

    def create_table(self, table_id: str, title: str, settings: dict[str, Any],
                     seats: Sequence[str], names: Sequence[str] | None = None,
                     server_seed: str = "") -> None:
        """Store a new table whose seats are ``open`` or computer levels (named by
        ``names``, if given), and the first game's ``server_seed``, all in one
        transaction."""
        statements: list[tuple[str, Sequence[Any]]] = [(
            "INSERT INTO web_tables (id, title, settings, created, status) VALUES (?, ?, ?, ?, ?)",
            (table_id, title, json.dumps(settings), time.time(), "waiting"))]
        for seat, kind in enumerate(seats):
            statements.append(("INSERT INTO web_seats (table_id, seat, kind, name, token_hash) "
                               "VALUES (?, ?, ?, ?, ?)",
                               (table_id, seat, kind, names[seat] if names else "", None)))
        if server_seed:
            statements.append(_add_server_seed(table_id, 0, server_seed))
        self._write(statements, done=("SELECT 1 FROM web_tables WHERE id = ?", (table_id,)))

    def set_status(self, table_id: str, status: str) -> None:
        """Record a table's status (``waiting``, ``playing``, ``over``; ``expired``: a
        table that waited too long for players)."""
        self._write([_set_status(table_id, status)])

    def claim_seat(self, table_id: str, seat: int, name: str, token_hash: str,
                   game: NewGame | None = None,
                   client_commitment: tuple[int, str] | None = None) -> bool:
        """Give an open seat to a person; False (and nothing written) if someone took
        it first. With ``game`` (the last seat taken), the first game starts and the
        table plays, in the same transaction; with ``client_commitment`` (game number,
        SHA-256), the commitment of the person's browser to that game's deals."""
        statements: list[tuple[str, Sequence[Any]]] = [(
            "UPDATE web_seats SET kind = 'human', name = ?, token_hash = ? "
            "WHERE table_id = ? AND seat = ? AND kind = 'open'",
            (name, token_hash, table_id, seat))]
        if client_commitment is not None:  # (game number, hash): before any reveal
            statements.append(_client_commitment(table_id, client_commitment[0], seat,
                                                  client_commitment[1]))
        if game is not None:
            statements += _add_game(table_id, game)
        return self._write(statements, last=0, checked=1, done=(
            "SELECT 1 FROM web_seats WHERE table_id = ? AND seat = ? AND token_hash = ?",
            (table_id, seat, token_hash))) == 1

    def set_seat(self, table_id: str, seat: int, kind: str, name: str) -> None:
        """Change a seat's kind and name (an open seat filled by a computer)."""
        self._write([("UPDATE web_seats SET kind = ?, name = ? WHERE table_id = ? AND seat = ?",
                      (kind, name, table_id, seat))])

    def fill_seats(self, table_id: str, seats: Sequence[tuple[int, str, str]],
                   game: NewGame | None) -> bool:
        """Give open seats to computers (``(seat, level, name)`` each) and start the
        first game (``None``: it waits for the browsers' values), all in one
        transaction; False (nothing written) if one of the seats is no longer open."""
        statements: list[tuple[str, Sequence[Any]]] = [
            ("UPDATE web_seats SET kind = ?, name = ? WHERE table_id = ? AND seat = ? "
             "AND kind = 'open'", (kind, name, table_id, seat)) for seat, kind, name in seats]
        if game is None:
            return self._write(statements, last=0, checked=len(seats)) == 1
        statements += _add_game(table_id, game)
        return self._write(statements, last=0, checked=len(seats),
                           done=_game_stored(table_id, game)) == 1

    def set_client_seed(self, table_id: str, game_no: int, seat: int, value: str) -> None:
        """Record the value a seat's browser revealed for game ``game_no``."""
        self._write([_client_seed(table_id, game_no, seat, value)])

    def set_client_commitment(self, table_id: str, game_no: int, seat: int,
                              commitment: str) -> None:
        """Record the SHA-256 a seat's browser committed to for game ``game_no``."""
        self._write([_client_commitment(table_id, game_no, seat, commitment)])

    def add_game(self, table_id: str, game_no: int, rules: str, seed: str, dealer: int,
                 status: str | None = None, next_server_seed: str = "") -> None:
        """Store the start of a game at a table (its seed stays secret on the server),
        with ``status`` the table's new status, and the next game's server seed, in
        the same transaction."""
        statements = _add_game(table_id, NewGame(game_no, rules, seed, dealer,
                                                 next_server_seed))
        statements.pop()
        if status is not None:
            statements.append(_set_status(table_id, status))
        self._fenced_write(table_id, statements,
                           done=_game_stored(table_id, NewGame(game_no, rules, seed, dealer)))

    def add_action(self, table_id: str, game_no: int, ply: int, seat: int, action: str,
                   actor: str, status: str | None = None) -> None:
        """Commit one action (the ``ply``-th of the game, from 0) before it is broadcast,
        and with ``status`` (``over`` after the last one) the table's new status, in the
        same transaction."""
        statements: list[tuple[str, Sequence[Any]]] = [(
            "INSERT INTO web_actions (table_id, game_no, ply, seat, action, actor, at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (table_id, game_no, ply, seat, action, actor, time.time()))]
        if status is not None:
            statements.append(_set_status(table_id, status))
        self._fenced_write(table_id, statements, done=(
            "SELECT 1 FROM web_actions WHERE table_id = ? AND game_no = ? AND ply = ? "
            "AND seat = ? AND action = ?", (table_id, game_no, ply, seat, action)))

    def remove_last_action(self, table_id: str, game_no: int, ply: int) -> None:
        """Delete action ``ply`` of a game, the last one (a person's undo at a table
        whose other seats are all computers: docs/web.md "Undo")."""
        self._fenced_write(table_id, [("DELETE FROM web_actions WHERE table_id = ? "
                                       "AND game_no = ? AND ply = ?",
                                       (table_id, game_no, ply))])

    def add_chat(self, table_id: str, n: int, seat: int | None, name: str, text: str,
                 at: float) -> None:
        """Store chat message ``n`` (from 0) of a table; ``seat`` None: a spectator."""
        self._write([("INSERT INTO web_chat (table_id, n, seat, name, text, at) "
                      "VALUES (?, ?, ?, ?, ?, ?)", (table_id, n, seat, name, text, at))],
                    done=("SELECT 1 FROM web_chat WHERE table_id = ? AND n = ?",
                          (table_id, n)))

    def add_claim(self, table_id: str, game_no: int, hand: int,
                  claim: dict[str, Any] | None = None) -> None:
        """Record that hand ``hand`` of game ``game_no`` was claimed in (one claim per
        hand, docs/web.md "Claim") and, in the same transaction, the sure ``claim``
        waiting for answers or accepted (see :meth:`save_claim`), if given."""
        statements: list[tuple[str, Sequence[Any]]] = [
            ("INSERT INTO web_claims (table_id, game_no, hand) VALUES (?, ?, ?)",
             (table_id, game_no, hand))]
        if claim is not None:
            statements += self._claim_statements(table_id, claim)
        self._fenced_write(table_id, statements,
                           done=("SELECT 1 FROM web_claims WHERE table_id = ? AND "
                                 "game_no = ? AND hand = ?", (table_id, game_no, hand)))

    def save_claim(self, table_id: str, claim: dict[str, Any] | None) -> None:
        """Store the table's claim waiting for answers, declined, or accepted and not
        yet played out (``seat``, ``ply``, ``game_no``, ``waiting``, ``declined``),
        replacing the one before; None: there is none. Fenced as the game's moves
        are (docs/web-cluster.md "Fencing")."""
        statements: list[tuple[str, Sequence[Any]]] = (
            [("DELETE FROM web_open_claims WHERE table_id = ?", (table_id,))]
            if claim is None else self._claim_statements(table_id, claim))
        self._fenced_write(table_id, statements)

    @staticmethod
    def _claim_statements(table_id: str,
                          claim: dict[str, Any]) -> list[tuple[str, Sequence[Any]]]:
        """The statements that store ``claim`` as the table's only open claim."""
        return [("DELETE FROM web_open_claims WHERE table_id = ?", (table_id,)),
                ("INSERT INTO web_open_claims (table_id, game_no, ply, seat, waiting, "
                 "declined) VALUES (?, ?, ?, ?, ?, ?)",
                 (table_id, claim["game_no"], claim["ply"], claim["seat"],
                  json.dumps(claim["waiting"]), claim["declined"]))]

    def load_chat(self, table_id: str) -> list[dict[str, Any]]:
        """A table's chat messages in order: n, seat, name, text, at."""
        return [{"n": int(n), "seat": None if seat is None else int(seat), "name": str(name),
                 "text": str(text), "at": float(at)}
                for n, seat, name, text, at in self._read(
                    "SELECT n, seat, name, text, at FROM web_chat WHERE table_id = ? "
                    "ORDER BY n", (table_id,))]

    def load_table(self, table_id: str) -> TableRow | None:
        """A stored table with its seats, games and actions, or None."""
        rows = self._read("SELECT id, title, settings, created, status FROM web_tables "
                          "WHERE id = ?", (table_id,))
        if not rows:
            return None
        tid, title, settings, created, status = rows[0]
        seats = [SeatRow(int(s), k, n, h) for s, k, n, h in self._read(
            "SELECT seat, kind, name, token_hash FROM web_seats WHERE table_id = ? "
            "ORDER BY seat", (table_id,))]
        games = [GameRow(int(g), r, s, int(d)) for g, r, s, d in self._read(
            "SELECT game_no, rules, seed, dealer FROM web_games WHERE table_id = ? "
            "ORDER BY game_no", (table_id,))]
        by_no = {g.game_no: g for g in games}
        for game_no, seat, action, actor in self._read(
                "SELECT game_no, seat, action, actor FROM web_actions WHERE table_id = ? "
                "ORDER BY game_no, ply", (table_id,)):
            by_no[int(game_no)].actions.append(action)
            by_no[int(game_no)].actors.append(actor)
            by_no[int(game_no)].seats.append(int(seat))
        server_seeds = {int(g): str(v) for g, v in self._read(
            "SELECT game_no, server_seed FROM web_fair WHERE table_id = ?", (table_id,))}
        client_seeds: dict[int, dict[int, str]] = {}
        for game_no, seat, value in self._read(
                "SELECT game_no, seat, value FROM web_client_seeds WHERE table_id = ?",
                (table_id,)):
            client_seeds.setdefault(int(game_no), {})[int(seat)] = str(value)
        commitments: dict[int, dict[int, str]] = {}
        for game_no, seat, value in self._read(
                "SELECT game_no, seat, commitment FROM web_client_commitments "
                "WHERE table_id = ?", (table_id,)):
            commitments.setdefault(int(game_no), {})[int(seat)] = str(value)
        claims = {(int(g), int(h)) for g, h in self._read(
            "SELECT game_no, hand FROM web_claims WHERE table_id = ?", (table_id,))}
        open_claim = None
        for game_no, ply, seat, waiting, declined in self._read(
                "SELECT game_no, ply, seat, waiting, declined FROM web_open_claims "
                "WHERE table_id = ?", (table_id,)):
            open_claim = {"seat": int(seat), "ply": int(ply), "game_no": int(game_no),
                          "waiting": [int(s) for s in json.loads(waiting)],
                          "declined": None if declined is None else str(declined)}
        return TableRow(tid, title, json.loads(settings), float(created), status, seats, games,
                        server_seeds, client_seeds, commitments, claims, open_claim)

    def list_tables(self, limit: int = 100) -> list[dict[str, Any]]:
        """The newest tables still waiting or playing: id, title, status, seats."""
        rows = self._read("SELECT id, title, settings, created, status FROM web_tables "
                          "WHERE status IN ('waiting', 'playing') ORDER BY created DESC LIMIT ?",
                          (limit,))
        out = []
        for tid, title, settings, created, status in rows:
            seats = self._read("SELECT seat, kind, name FROM web_seats WHERE table_id = ? "
                               "ORDER BY seat", (tid,))
            out.append({"id": tid, "title": title, "status": status, "created": float(created),
                        "rules": json.loads(settings).get("rules", ""),
                        "seats": [{"seat": int(s), "kind": k, "name": n} for s, k, n in seats]})
        return out

    def count_tables(self) -> int:
        """How many tables are waiting or playing."""
        return int(self._read("SELECT COUNT(*) FROM web_tables "
                              "WHERE status IN ('waiting', 'playing')")[0][0])

    def tables_of(self, name: str, limit: int = 1000) -> list[str]:
        """The ids of the tables where a person sat under ``name`` (docs/review.md
        "Statistics"), oldest first."""
        rows = self._read("SELECT DISTINCT s.table_id, t.created FROM web_seats s JOIN "
                          "web_tables t ON t.id = s.table_id WHERE s.kind = 'human' AND "
                          "s.name = ? ORDER BY t.created LIMIT ?", (name, limit))
        return [str(r[0]) for r in rows]

    def expire_waiting(self, before: float) -> list[str]:
        """Mark ``expired`` every table still waiting for players that was created
        before ``before`` (a time stamp); their ids. An expired table is kept (its
        row says who made it when) but no longer listed, counted or served."""
        rows = self._read("SELECT id FROM web_tables WHERE status = 'waiting' AND created < ?",
                          (before,))
        ids = [str(r[0]) for r in rows]
        if ids:
            self._write([("UPDATE web_tables SET status = 'expired' WHERE id = ? "
                          "AND status = 'waiting'", (i,)) for i in ids])
        return ids

    def existing(self, table_ids: Sequence[str]) -> set[str]:
        """Which of ``table_ids`` are stored and neither expired nor removed."""
        out: set[str] = set()
        ids = list(table_ids)
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            marks = ", ".join("?" * len(chunk))
            out.update(str(r[0]) for r in self._read(
                f"SELECT id FROM web_tables WHERE id IN ({marks}) "
                "AND status IN ('waiting', 'playing', 'over')", chunk))
        return out

    def operator_list(self, status: str | None = None, older_than: float = 0.0,
                      limit: int = 1000) -> list[dict[str, Any]]:
        """Tables for the operator (``pinochle tables list``), newest first: every
        status, or only ``status``; only those created ``older_than`` seconds ago
        or more."""
        sql = ("SELECT t.id, t.title, t.status, t.created, "
               "(SELECT COUNT(*) FROM web_seats s WHERE s.table_id = t.id AND s.kind = 'human'), "
               "(SELECT COUNT(*) FROM web_games g WHERE g.table_id = t.id) "
               "FROM web_tables t WHERE t.created <= ?")
        params: list[Any] = [time.time() - older_than]
        if status is not None:
            sql += " AND t.status = ?"
            params.append(status)
        sql += " ORDER BY t.created DESC LIMIT ?"
        params.append(limit)
        return [{"id": str(i), "title": str(ti), "status": str(st), "created": float(c),
                 "people": int(p), "games": int(g)}
                for i, ti, st, c, p, g in self._read(sql, params)]

    def remove_table(self, table_id: str) -> bool:
        """Delete a table with its seats, games and actions, in one transaction;
        False if there is no such table."""
        return self._write([
            ("DELETE FROM web_actions WHERE table_id = ?", (table_id,)),
            ("DELETE FROM web_chat WHERE table_id = ?", (table_id,)),
            ("DELETE FROM web_claims WHERE table_id = ?", (table_id,)),
            ("DELETE FROM web_open_claims WHERE table_id = ?", (table_id,)),
            ("DELETE FROM web_client_seeds WHERE table_id = ?", (table_id,)),
            ("DELETE FROM web_client_commitments WHERE table_id = ?", (table_id,)),
            ("DELETE FROM web_fair WHERE table_id = ?", (table_id,)),
            ("DELETE FROM web_games WHERE table_id = ?", (table_id,)),
            ("DELETE FROM web_fences WHERE table_id = ?", (table_id,)),
            ("DELETE FROM web_seats WHERE table_id = ?", (table_id,)),
            ("DELETE FROM web_tables WHERE id = ?", (table_id,))]) == 1


def _connection_lost(error: Exception, connection: Any) -> bool:
    """Whether ``error`` means the PostgreSQL connection is gone (not a bad statement)."""
    try:
        import psycopg
    except ImportError:
        return False
    return isinstance(error, psycopg.OperationalError) or bool(getattr(connection, "closed",
                                                                       False))


def _game_stored(table_id: str, game: NewGame) -> Query:
    """The query that finds a game's row (its seed is random: only this write has it)."""
    return ("SELECT 1 FROM web_games WHERE table_id = ? AND game_no = ? AND seed = ?",
            (table_id, game.game_no, game.seed))


def _add_game(table_id: str, game: NewGame) -> list[tuple[str, Sequence[Any]]]:
    """The statements that store a game's start (with the next game's server seed)
    and, last, the status ``playing``."""
    statements: list[tuple[str, Sequence[Any]]] = [(
        "INSERT INTO web_games (table_id, game_no, rules, seed, dealer) "
        "VALUES (?, ?, ?, ?, ?)", (table_id, *game[:4]))]
    if game.next_server_seed:
        statements.append(_add_server_seed(table_id, game.game_no + 1, game.next_server_seed))
    return [*statements, _set_status(table_id, "playing")]


def _add_server_seed(table_id: str, game_no: int, seed: str) -> tuple[str, Sequence[Any]]:
    return ("INSERT INTO web_fair (table_id, game_no, server_seed) VALUES (?, ?, ?)",
            (table_id, game_no, seed))


def _client_seed(table_id: str, game_no: int, seat: int,
                 value: str) -> tuple[str, Sequence[Any]]:
    return ("INSERT INTO web_client_seeds (table_id, game_no, seat, value) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (table_id, game_no, seat) DO UPDATE SET value = excluded.value",
            (table_id, game_no, seat, value))


def _client_commitment(table_id: str, game_no: int, seat: int,
                       commitment: str) -> tuple[str, Sequence[Any]]:
    # one commitment per seat and game: a second one is refused by the key
    return ("INSERT INTO web_client_commitments (table_id, game_no, seat, commitment) "
            "VALUES (?, ?, ?, ?)", (table_id, game_no, seat, commitment))


def _set_status(table_id: str, status: str) -> tuple[str, Sequence[Any]]:
    return ("UPDATE web_tables SET status = ? WHERE id = ?", (status, table_id))


def _safe(url: str) -> str:
    """A database URL without its password, for messages."""
    head, at, tail = url.rpartition("@")
    if not at:
        return url
    scheme, _, credentials = head.partition("://")
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user}@{tail}"
