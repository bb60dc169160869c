"""`pinochle serve --workers N` (docs/web-cluster.md): the supervisor runs N processes on
one port sharing PostgreSQL and Redis; a table made through the port is played
through it; a worker killed (SIGKILL) is started again by the supervisor while its
table goes on at the other; SIGTERM stops every worker gracefully; a cluster
without PostgreSQL or Redis is refused with a clear message."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from test_cluster import Player
from test_cluster_faults import Log, consistent
from web_helpers import new_table, pg_url, request
from websockets.exceptions import ConnectionClosed

from pinochlekit.web.process import ServerProcess, free_port


def test_workers_need_postgresql_and_redis(tmp_path: Path) -> None:
    for extra, words in ((["--db", str(tmp_path / "x.db")], "postgresql://"),
                         (["--db", "postgresql://nobody@127.0.0.1:1/x"], "--redis URL")):
        done = subprocess.run([sys.executable, "-m", "pinochlekit", "serve", "--workers", "2",
                               *extra], capture_output=True, text=True, timeout=60,
                              stdin=subprocess.DEVNULL)
        assert done.returncode != 0 and words in done.stderr, done.stderr


def test_workers_play_and_stop(tmp_path: Path) -> None:
    from test_cluster import redis_url

    port = free_port()
    log = tmp_path / "workers.log"
    with open(log, "wb") as out:
        supervisor = subprocess.Popen(
            [sys.executable, "-m", "pinochlekit", "serve", "--workers", "2", "--port",
             str(port), "--db", pg_url(), "--redis", redis_url(), "--create-limit", "1000",
             "--max-tables", "100000"], stdin=subprocess.DEVNULL, stdout=out, stderr=out,
            start_new_session=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        server = ServerProcess(None, port=port)  # its addresses only: not started by it
        deadline = time.monotonic() + 60
        while log.read_text().count('"node_started"') < 2:
            assert time.monotonic() < deadline and supervisor.poll() is None, log.read_text()
            time.sleep(0.2)
        table_id = new_table(server, "pagat", ["open", "standard", "standard", "standard"])
        status, body = request("POST", f"{server.url}/api/tables/{table_id}/join",
                               {"seat": 0, "name": "Ann"})
        assert status == 200, body
        player = Player(server, table_id, body["token"])
        try:
            player.play_until(Log().at_least(10))
        finally:
            player.close()
    finally:
        if supervisor.poll() is None:
            supervisor.send_signal(signal.SIGTERM)  # the supervisor stops its workers
        try:
            status = supervisor.wait(60)
        finally:
            with contextlib.suppress(ProcessLookupError):  # nothing left behind
                os.killpg(supervisor.pid, signal.SIGKILL)
    assert status == 0
    text = log.read_text()
    assert text.count('"worker_started"') == 2 and text.count('"node_stopped"') == 2


def events(log: Path) -> list[dict[str, object]]:
    """The JSON log lines of the supervisor and its workers."""
    return [json.loads(line) for line in log.read_text().splitlines()
            if line.startswith('{"ts"')]


def test_a_killed_worker_is_restarted_and_its_table_goes_on(tmp_path: Path) -> None:
    from test_cluster import redis_url

    port = free_port()
    log = tmp_path / "workers.log"
    with open(log, "wb") as out:
        supervisor = subprocess.Popen(
            [sys.executable, "-m", "pinochlekit", "serve", "--workers", "2", "--port",
             str(port), "--db", pg_url(), "--redis", redis_url(), "--lease-ttl", "2",
             "--create-limit", "1000", "--max-tables", "100000"],
            stdin=subprocess.DEVNULL, stdout=out, stderr=out, start_new_session=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})

    def started() -> int:
        return sum(1 for e in events(log) if e["event"] == "node_started")

    try:
        server = ServerProcess(None, port=port)
        deadline = time.monotonic() + 60
        while started() < 2:
            assert time.monotonic() < deadline and supervisor.poll() is None, log.read_text()
            time.sleep(0.2)
        table_id = new_table(server, "pagat", ["open", "standard", "standard", "standard"])
        status, body = request("POST", f"{server.url}/api/tables/{table_id}/join",
                               {"seat": 0, "name": "Ann"})
        assert status == 200, body
        record = Log()
        player = Player(server, table_id, body["token"])
        try:
            before = player.play_until(record.at_least(6))["ply"]
            owner = [e["pid"] for e in events(log)
                     if e["event"] == "lease_acquired" and e["table"] == table_id][-1]
            assert isinstance(owner, int)
            os.kill(owner, signal.SIGKILL)  # mid-hand
            deadline = time.monotonic() + 120
            while True:  # the seat's socket may have been at the killed worker: again
                try:
                    player.play_until(record.at_least(before + 10), timeout=120)
                    break
                except ConnectionClosed:
                    assert time.monotonic() < deadline
                    player.close()
                    player = Player(server, table_id, body["token"])
            while started() < 3:  # the supervisor started the killed worker again
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.2)
        finally:
            player.close()
        exited = [e for e in events(log) if e["event"] == "worker_exited"]
        assert [(e["worker_pid"], e["status"]) for e in exited] == [(owner, -9)]
        assert record.plies == sorted(record.plies)
        consistent(pg_url(), table_id, record.seen)
    finally:
        if supervisor.poll() is None:
            supervisor.send_signal(signal.SIGTERM)
        try:
            supervisor.wait(60)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(supervisor.pid, signal.SIGKILL)
