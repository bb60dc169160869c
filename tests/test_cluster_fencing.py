"""Fencing (docs/web-cluster.md "Fencing"): every write of a table's game carries the
epoch its process took with the lease, and the database refuses a stale one.
First the store alone (SQLite and PostgreSQL: two stores are two processes), then
two real `pinochle serve` processes: the owner is paused (SIGSTOP) just after it
renewed its lease, the other takes the table, the old owner is resumed (SIGCONT)
and its seat's action reaches it: the database refuses the write, the old owner
steps back and the seat goes on at the new owner, the action stored once."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from test_cluster import health, redis_url
from web_helpers import Client, choose, new_table, pg_url, request, stored_table

from pinochlekit.web.process import ServerProcess
from pinochlekit.web.storage import FencedError, TableStore

TTL = 15.0  # seconds: renewed every 5, so a paused owner does not renew during the test


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return str(tmp_path / "store.db") if request.param == "sqlite" else pg_url()


def test_a_stale_epoch_cannot_write(store_url: str) -> None:
    old, new = TableStore.open(store_url), TableStore.open(store_url)
    try:
        table_id = f"f-{os.urandom(4).hex()}"
        old.create_table(table_id, "Fenced", {}, ["open"] * 4)
        assert old.fence(f"none-{os.urandom(4).hex()}") == 0  # no such table: no epoch
        first = old.fence(table_id)
        assert first >= 1 and old.epoch(table_id) == first
        old.add_game(table_id, 0, "pagat", "secret", 0)
        old.add_action(table_id, 0, 0, 1, "bid 250", "human")
        second = new.fence(table_id)  # another process takes the table
        assert second == first + 1
        writes: list[Callable[[], None]] = [
            lambda: old.add_action(table_id, 0, 1, 2, "pass", "standard"),
            lambda: old.remove_last_action(table_id, 0, 0),
            lambda: old.add_game(table_id, 1, "pagat", "other", 1),
            lambda: old.add_claim(table_id, 0, 1),
            lambda: old.save_claim(table_id, None)]
        claim = {"seat": 0, "ply": 1, "game_no": 0, "waiting": [1, 3], "declined": None}
        new.save_claim(table_id, claim)  # the owner's claim, waiting for answers
        for write in writes:
            with pytest.raises(FencedError, match="another server process"):
                write()
        row = new.load_table(table_id)
        assert row is not None and [g.actions for g in row.games] == [["bid 250"]]
        assert row.open_claim == claim and not row.claims  # the claim's writes too
        new.add_action(table_id, 0, 1, 2, "pass", "standard")  # the owner writes on
        assert old.load_table(table_id).games[0].actions == [  # type: ignore[union-attr]
            "bid 250", "pass"]
        assert old.fence(table_id) == second + 1  # taken back: writes again
        old.add_action(table_id, 0, 2, 3, "pass", "standard")
        assert old.remove_table(table_id)
        assert old.fence(table_id) == 0  # its fence went with it
    finally:
        old.close()
        new.close()


def node(base: Path, name: str) -> ServerProcess:
    return ServerProcess(pg_url(), log=base / f"{name}.log",
                         extra=("--redis", redis_url(), "--lease-ttl", str(TTL),
                                "--create-limit", "100000", "--max-tables", "100000"))


@pytest.fixture
def redis() -> Iterator[object]:
    client = pytest.importorskip("redis").Redis.from_url(redis_url())
    # a Redis up for less than twice the lease has maybe lost leases: the processes
    # wait before taking a free table (docs/web-cluster.md "Faults"); wait first
    uptime = float(client.info("server")["uptime_in_seconds"])
    time.sleep(max(0.0, 2 * TTL + 3 - uptime))
    try:
        yield client
    finally:
        client.close()


def test_a_paused_owner_is_fenced_and_steps_back(tmp_path: Path, redis: object) -> None:
    client: object = redis
    with contextlib.ExitStack() as stack:
        a, b = (stack.enter_context(node(tmp_path, n)) for n in ("a", "b"))
        table_id = new_table(a, "pagat", ["open", "standard", "standard", "standard"])
        status, body = request("POST", f"{a.url}/api/tables/{table_id}/join",
                               {"seat": 0, "name": "Ann"})
        assert status == 200, body
        player = Client(a, table_id, body["token"])
        try:
            state = player.wait(lambda m: player.my_move(m), play=False)
            key = f"pinochle:lease:{table_id}"
            # pause A just after it renewed the lease (its time to live jumps back up):
            # it renews again only a third of the lease later, long after this test
            last = client.pttl(key)  # type: ignore[attr-defined]
            deadline = time.monotonic() + 3 * TTL
            while (now := client.pttl(key)) <= last:  # type: ignore[attr-defined]
                assert time.monotonic() < deadline, "A never renewed its lease"
                last = now
                time.sleep(0.02)
            assert a.process is not None
            os.kill(a.process.pid, signal.SIGSTOP)
            try:
                # A's lease runs out while it is paused, and B takes the table (here
                # at once: the lease given to B as Redis would after the expiry)
                client.set(key, health(b)["node"], px=int(TTL * 1000))  # type: ignore[attr-defined]
                status, info = request("GET", f"{b.url}/api/tables/{table_id}")
                assert status == 200, info
                assert health(b)["tables_owned"] == 1
            finally:
                os.kill(a.process.pid, signal.SIGCONT)
            action = choose(state)
            player.act(action)  # to A, which still believes it plays the table
            # the refusal ("moved") may reach the seat before its socket moves, or not
            player.strict = False
            welcome = player.wait(lambda m: m["type"] == "welcome")
            player.strict = True
            assert welcome["seat"] == 0  # said again to B, the new owner
            again = player.wait(lambda m: m["type"] == "state")
            assert again["ply"] == state["ply"]  # A's write was refused: nothing applied
            player.act(action)
            later = player.wait(lambda m: m["type"] == "state" and m["ply"] > state["ply"])
            assert later["ply"] > state["ply"]
        finally:
            player.close()
        assert health(a)["tables_owned"] == 0 and health(b)["tables_owned"] == 1
        events = [json.loads(line) for line in (tmp_path / "a.log").read_text().splitlines()
                  if line.startswith("{")]
        fenced = [e for e in events if e["event"] == "write_fenced"]
        assert fenced and fenced[0]["write"] == "add_action", events
        assert any(e["event"] == "lease_lost" and e["reason"] == "fenced by the database"
                   for e in events)
        row = stored_table(pg_url(), table_id)
        assert row.games[-1].actions[state["ply"]] == action  # stored once, by B
