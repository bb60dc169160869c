"""Faults of a cluster of real `pinochle serve` processes (docs/web-cluster.md): Redis
restarted (the processes reconnect and resynchronise), PostgreSQL unreachable for
a while (actions refused with a clear message, nothing half-applied), and a
graceful shutdown (SIGTERM hands the tables over). A private Redis server is
started per test (so it can be restarted), PostgreSQL is reached through a TCP
proxy the test can cut."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest
from tcp_proxy import TcpProxy
from test_cluster import Player, health
from web_helpers import Message, new_table, pg_url, request, stored_table

from pinochlekit.web.process import ServerProcess, free_port


class RedisServer:
    """A throwaway ``redis-server`` on a fixed port, stopped and started at will."""

    def __init__(self, base: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            if os.environ.get("PINOCHLEKIT_TEST_REDIS"):
                pytest.fail("redis-server is missing (scripts/ci-services.sh installs it)")
            pytest.skip("redis-server is not installed")
        self.binary = binary
        self.port = free_port()
        self.base = base
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.base)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(
                    ("127.0.0.1", self.port), 1) as sock:
                sock.sendall(b"PING\r\n")
                if sock.recv(16).startswith(b"+PONG"):
                    return
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)


@pytest.fixture
def services(tmp_path: Path) -> Iterator[tuple[RedisServer, TcpProxy, str]]:
    parts = urllib.parse.urlsplit(pg_url())
    redis = RedisServer(tmp_path)
    redis.start()
    proxy = TcpProxy((parts.hostname or "127.0.0.1", parts.port or 5432))
    netloc = f"{parts.username or 'postgres'}@127.0.0.1:{proxy.port}"
    try:
        yield redis, proxy, urllib.parse.urlunsplit(parts._replace(netloc=netloc))
    finally:
        proxy.close()
        redis.stop()


def nodes(tmp_path: Path, redis: RedisServer, db: str, count: int
          ) -> contextlib.ExitStack:
    stack = contextlib.ExitStack()
    stack.servers = [  # type: ignore[attr-defined]
        stack.enter_context(ServerProcess(
            db, log=tmp_path / f"node{n}.log",
            extra=("--redis", redis.url, "--lease-ttl", "2", "--create-limit", "100000",
                   "--max-tables", "100000"))) for n in range(count)]
    return stack


def seated(a: ServerProcess, b: ServerProcess) -> tuple[str, Player]:
    """A table made at ``a`` (its owner), its open seat taken and played at ``b``."""
    table_id = new_table(a, "pagat", ["open", "standard", "standard", "standard"])
    status, body = request("POST", f"{b.url}/api/tables/{table_id}/join",
                           {"seat": 0, "name": "Ann"})
    assert status == 200, body
    return table_id, Player(b, table_id, body["token"])


def stored_actions(db: str, table_id: str) -> list[str]:
    """The actions stored for the table's one game."""
    row = stored_table(db, table_id)
    assert len(row.games) == 1
    return list(row.games[0].actions)


def consistent(db: str, table_id: str, seen: dict[int, Message]) -> None:
    """Every action the seat was shown is the stored one at its ply."""
    actions = stored_actions(db, table_id)
    for ply, last in seen.items():
        assert ply <= len(actions)
        if not last["action"].endswith(" cards"):
            assert last["action"] == actions[ply - 1], (ply, last)


class Log:
    """What a seat saw: the last action at each ply, the plies in order."""

    def __init__(self) -> None:
        self.seen: dict[int, Message] = {}
        self.plies: list[int] = []

    def at_least(self, ply: int) -> object:
        def check(message: Message) -> bool:
            if message["type"] == "state" and message["view"] is not None:
                self.plies.append(message["ply"])
                if message["last"] is not None:
                    self.seen[message["ply"]] = message["last"]
                return bool(message["ply"] >= ply)
            return False
        return check


def test_redis_restarted(tmp_path: Path, services: tuple[RedisServer, TcpProxy, str]) -> None:
    redis, _, db = services
    with nodes(tmp_path, redis, db, 2) as stack:
        a, b = stack.servers  # type: ignore[attr-defined]
        table_id, player = seated(a, b)
        log = Log()
        try:
            before = player.play_until(log.at_least(6))["ply"]
            redis.stop()
            time.sleep(1.0)  # the fault lasts a moment: the processes see Redis gone
            redis.start()
            player.play_until(log.at_least(before + 12), timeout=120)
        finally:
            player.close()
        assert log.plies == sorted(log.plies)
        assert health(a)["redis"] is True and health(b)["redis"] is True
        consistent(db, table_id, log.seen)


def test_database_unreachable(tmp_path: Path, services: tuple[RedisServer, TcpProxy, str]
                              ) -> None:
    redis, proxy, db = services
    with nodes(tmp_path, redis, db, 2) as stack:
        a, b = stack.servers  # type: ignore[attr-defined]
        table_id, player = seated(a, b)
        log = Log()
        try:
            state = player.play_until(lambda m: log.at_least(4)(m)  # type: ignore[operator]
                                      and player.my_move(m))
            proxy.down()
            from web_helpers import choose
            player.act(choose(state))
            error = player.wait(lambda m: m["type"] == "error", timeout=60)
            assert error["code"] == "server_error" and "unchanged" in error["message"]
            after = player.wait(lambda m: m["type"] == "state")
            assert after["ply"] == state["ply"]  # nothing applied
            assert health(a)["database"] is False
            proxy.up()
            player.acted = -1
            player.send({"type": "state"})
            player.play_until(log.at_least(state["ply"] + 8), timeout=120)
        finally:
            player.close()
        assert log.plies == sorted(log.plies)
        consistent(db, table_id, log.seen)


def test_sigterm_hands_tables_over(tmp_path: Path, services: tuple[RedisServer, TcpProxy, str]
                                   ) -> None:
    redis, _, db = services
    with nodes(tmp_path, redis, db, 2) as stack:
        a, b = stack.servers  # type: ignore[attr-defined]
        table_id, player = seated(a, b)
        log = Log()
        try:
            player.play_until(log.at_least(4))
            a.stop()  # SIGTERM: graceful
            # what A applied is stored (and may still be in the seat's socket, sent by
            # A before it left): eight plies past it can only come from B
            stopped = len(stored_actions(db, table_id))
            player.play_until(log.at_least(stopped + 8), timeout=120)
        finally:
            player.close()
        assert health(b)["tables_owned"] == 1
        assert '"reason":"shutdown"' in (tmp_path / "node0.log").read_text()
        consistent(db, table_id, log.seen)
