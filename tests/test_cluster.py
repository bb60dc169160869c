"""The web server as three processes sharing a real PostgreSQL and a real Redis
(docs/web-cluster.md): a seat plays through process B at a table owned by process A;
a read-only copy at B shows who is connected at A's table; A is killed with SIGKILL
mid-hand and the table goes on at another process, every state the seat received
agreeing with the stored record (nothing lost, nothing duplicated). Needs
PINOCHLEKIT_TEST_PG and PINOCHLEKIT_TEST_REDIS (scripts/ci-services.sh)."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from web_helpers import Client, Message, new_table, pg_url, request, stored_table

from pinochlekit.web.process import ServerProcess


def redis_url() -> str:
    url = os.environ.get("PINOCHLEKIT_TEST_REDIS")
    if not url:
        pytest.skip("PINOCHLEKIT_TEST_REDIS is not set (.ci/run always sets it)")
    return url


def node(base: Path, name: str) -> ServerProcess:
    return ServerProcess(pg_url(), log=base / f"{name}.log",
                         extra=("--redis", redis_url(), "--lease-ttl", "2",
                                "--create-limit", "100000", "--max-tables", "100000"))


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[list[ServerProcess]]:
    with contextlib.ExitStack() as stack:
        yield [stack.enter_context(node(tmp_path, name)) for name in ("a", "b", "c")]


def health(server: ServerProcess) -> Message:
    """What ``/healthz`` says (503 too: a service down)."""
    status, data = request("GET", server.url + "/healthz")
    assert status == (200 if data["database"] and data["redis"] else 503), data
    return data  # type: ignore[no-any-return]


class Player(Client):
    """A seat that acts whenever it is its turn, also again after the table moved
    (a fresh welcome: an action sent to a dead owner may be lost)."""

    def play_until(self, done: object, timeout: float = 90) -> Message:
        def check(message: Message) -> bool:
            if message["type"] == "welcome":
                self.acted = -1
            return callable(done) and bool(done(message))
        return self.wait(check, timeout, play=True)


def test_health_and_lobby_span_the_processes(cluster: list[ServerProcess]) -> None:
    a, b, _ = cluster
    table_id = new_table(a, "pagat", ["open", "standard", "standard", "standard"])
    info = health(a)
    assert info["database"] is True and info["redis"] is True
    assert info["tables_owned"] >= 1 and info["pid"] == a.process.pid  # type: ignore[union-attr]
    status, body = request("GET", b.url + "/api/tables")
    assert status == 200 and table_id in [t["id"] for t in body["tables"]]
    # a join at B is done by A, the owner: the seat is taken once, the token works at C
    status, body = request("POST", f"{b.url}/api/tables/{table_id}/join",
                           {"seat": 0, "name": "Ann"})
    assert status == 200, body
    status, again = request("POST", f"{b.url}/api/tables/{table_id}/join",
                            {"seat": 0, "name": "Bob"})
    assert status == 409, again
    assert health(b)["tables_owned"] == 0
    client = Client(cluster[2], table_id, body["token"])
    try:
        welcome = client.wait(lambda m: m["type"] == "welcome")
        assert welcome["seat"] == 0
        state = client.wait(lambda m: m["type"] == "state")
        assert state["seat"] == 0 and state["view"]["hand"]
        # B's read-only copy asks A (over Redis) who is connected: Ann, through C
        watcher = Client(b, table_id)  # a spectator at B
        try:
            watcher.wait(lambda m: m["type"] == "state")
            status, info = request("GET", f"{b.url}/api/tables/{table_id}")
            assert status == 200 and health(b)["tables_owned"] == 0
            assert [s["connected"] for s in info["seats"]] == [True, False, False, False]
            assert info["spectators"] == 1
        finally:
            watcher.close()
    finally:
        client.close()
    deadline = time.monotonic() + 30
    while True:  # both gone: the owner says so once it has seen the sockets close
        status, info = request("GET", f"{b.url}/api/tables/{table_id}")
        if not info["seats"][0]["connected"] and info["spectators"] == 0:
            break
        assert time.monotonic() < deadline, info
        time.sleep(0.2)


def test_kill_the_owner_mid_hand(cluster: list[ServerProcess]) -> None:
    a, b, c = cluster
    table_id = new_table(a, "pagat", ["open", "standard", "standard", "standard"])
    status, body = request("POST", f"{b.url}/api/tables/{table_id}/join",
                           {"seat": 0, "name": "Ann"})
    assert status == 200, body
    player = Player(b, table_id, body["token"])
    seen: dict[int, Message] = {}
    plies: list[int] = []

    def record(message: Message) -> None:
        if message["type"] == "state" and message["view"] is not None:
            plies.append(message["ply"])
            if message["last"] is not None:
                seen[message["ply"]] = message["last"]

    def in_play(message: Message) -> bool:
        record(message)
        return (message["type"] == "state" and message["view"] is not None
                and message["view"]["phase"] == "play" and message["ply"] > 0
                and len(message["view"]["trick"]) in (1, 2, 3))

    def further(message: Message, ply: int) -> bool:
        record(message)
        return bool(message["type"] == "state" and message["ply"] >= ply)

    try:
        killed_at = player.play_until(in_play)["ply"]
        assert health(a)["tables_owned"] == 1
        a.stop(kill=True)  # SIGKILL, mid-trick
        player.play_until(lambda m: further(m, killed_at + 12), timeout=120)
    finally:
        player.close()
    owners = [health(s)["tables_owned"] for s in (b, c)]
    assert sorted(owners) == [0, 1]
    row = stored_table(pg_url(), table_id)
    assert len(row.games) == 1
    actions = list(row.games[0].actions)
    # every state the seat got is the record's: the same action at each ply...
    for ply, last in seen.items():
        assert ply <= len(actions)
        if not last["action"].endswith(" cards"):  # another team's passed cards are hidden
            assert last["action"] == actions[ply - 1], (ply, last, actions[ply - 1])
    # ...and in order: the table never went back (no action lost and played again)
    assert plies == sorted(plies)
    assert max(plies) >= killed_at + 12
