"""The web server under attack and faults (docs/web.md "Security and limits"): each
test reproduces an attack or a fault against the real parts, a ``pinochle serve``
subprocess on 127.0.0.1 with a real SQLite file (and PostgreSQL when
PINOCHLEKIT_TEST_PG is set), bounded to a few seconds."""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import os
import random
import secrets
import socket
import sqlite3
import stat
import subprocess
import sys
import threading
import time
import typing
import urllib.parse
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from tcp_proxy import TcpProxy
from web_helpers import Client, choose, join, new_table, pg_url, request, serve

from pinochlekit.engine.deals import deal_seed
from pinochlekit.engine.double.game import bid_ladder
from pinochlekit.engine.errors import RulesError
from pinochlekit.engine.games import new_any_game, new_game
from pinochlekit.engine.rules import DOUBLE_MOST_POINTS, MOST_POINTS, PRESETS, BidLadder, Rules
from pinochlekit.web.dealing import client_commitment, game_seed
from pinochlekit.web.hub import default_db_url
from pinochlekit.web.process import ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "security")


def _mode(path: Path | str) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


# -- secrets on disk ---------------------------------------------------------------


def test_the_database_and_its_folder_are_readable_by_their_owner_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old = os.umask(0o022)  # the usual umask: what made web.db 0644 and its folder 0755
    try:
        folder = tmp_path / "data"
        monkeypatch.setenv("PINOCHLEKIT_DATA", str(folder))  # the default database
        with ServerProcess(None, log=tmp_path / "server.log") as srv:
            table = new_table(srv, "pagat", ["open", "easy", "easy", "easy"])
            join(srv, table, 0, "Ann")  # the game starts: a secret seed is stored
            assert _mode(folder) == 0o700
            for name in ("web.db", "web.db-wal", "web.db-shm"):
                assert (folder / name).exists() and _mode(folder / name) == 0o600, name
    finally:
        os.umask(old)


def test_the_default_data_folder_is_narrowed_to_its_owner(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    folder = tmp_path / "data"
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)  # as an older version left it
    monkeypatch.setenv("PINOCHLEKIT_DATA", str(folder))
    assert default_db_url() == str(folder / "web.db")
    assert _mode(folder) == 0o700


def test_the_terminal_store_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    from pinochlekit.tui.store import GameStore as SavedGames

    old = os.umask(0o022)
    try:
        path = tmp_path / "saved" / "games.sqlite3"
        games = SavedGames(path)
        games.create("pagat", 7, 0, ["you", "easy", "easy", "easy"], {})
        games.close()
    finally:
        os.umask(old)
    assert _mode(path.parent) == 0o700 and _mode(path) == 0o600


# -- rules no one can play --------------------------------------------------------------


def test_rules_without_a_legal_action_are_refused_naming_the_field() -> None:
    with pytest.raises(RulesError, match="min_bid") as caught:
        Rules.from_string("pagat(min_bid=4000, first_bid_required=yes)")
    assert "3850" in str(caught.value)
    with pytest.raises(RulesError, match="min_bid"):
        Rules(min_bid=3860, players=3, cards_passed=0, pass_with_help=False)
    assert Rules(min_bid=3850).min_bid == 3850  # the highest bid itself can be opened


@pytest.mark.parametrize("preset", [p for p in PRESETS  # two: no auction; the double deck:
                                    if p not in ("two", "doubledeck")])  # tests/test_double*
def test_every_accepted_extreme_leaves_the_seat_to_act_a_legal_action(preset: str) -> None:
    """The extremes of the auction options, each accepted by Rules, played at random
    for a hand: whoever is to act always has a legal action."""
    base = Rules.preset(preset)
    chooser = random.Random(preset)
    for min_bid in (base.bid_step, MOST_POINTS - MOST_POINTS % base.bid_step):
        for required in (False, True):
            for stuck in (False, True):
                try:
                    rules = dataclasses.replace(base, min_bid=min_bid,
                                                first_bid_required=required,
                                                dealer_stuck=stuck, target=10)
                except RulesError:
                    continue  # refused, naming its field: fine
                game = new_game(rules, seed=f"{preset}/{min_bid}/{required}/{stuck}")
                for _ in range(200):
                    if game.to_act is None:
                        break
                    legal = game.legal_actions()
                    assert legal, (str(rules), game.phase)
                    game.apply(chooser.choice(legal), game.to_act)


@pytest.mark.parametrize("ladder", ["five_from_60", "by_one", "ten_from_100"])
def test_a_double_deck_minimum_above_its_ladder_is_refused(ladder: BidLadder) -> None:
    """docs/rules.md §6: a minimum bid below the most a team can score but above the
    ladder's highest amount (1,706 is no multiple of 5 or 10) left an empty ladder: a
    first bidder who must open had no legal action. Every minimum is either refused
    naming min_bid, or lets the first bidder act and a hand be played at random."""
    base = dataclasses.replace(Rules.preset("doubledeck"), bid_ladder=ladder)
    top = {"by_one": 1706, "five_from_60": 1705, "ten_from_100": 1700}[ladder]
    chooser = random.Random(ladder)
    for min_bid in (1, 59, 60, 61, 99, 100, 101, top - 1, top, top + 1, DOUBLE_MOST_POINTS):
        for required in (False, True):
            for stuck in (False, True):
                try:
                    rules = dataclasses.replace(base, min_bid=min_bid,
                                                first_bid_required=required,
                                                dealer_stuck=stuck, target=10)
                except RulesError as refused:
                    assert min_bid > top and "min_bid" in str(refused), (min_bid, refused)
                    assert str(top) in str(refused)
                    continue
                assert min_bid <= top, (ladder, min_bid)  # else accepted with no bid at all
                assert bid_ladder(rules), (ladder, min_bid)
                game = new_any_game(rules, seed=f"{ladder}/{min_bid}/{required}/{stuck}")
                for _ in range(120):
                    if game.to_act is None:
                        break
                    legal = game.legal_actions()
                    assert legal, (str(rules), game.phase)
                    game.apply(chooser.choice(legal), game.to_act)


def _fuzz_values(name: str) -> list[object]:
    """Values to try for a rules field: every choice, both yes/no, and numbers at
    and around the bounds the rules check."""
    kind = typing.get_type_hints(Rules)[name]
    if typing.get_args(kind):
        return list(typing.get_args(kind))
    if kind is bool:
        return [False, True]
    return {"target": [10, 20, 1500], "min_bid": [10, 20, 50, 250, 1000, 1700, 1705, 3850],
            "bid_step": [1, 5, 10, 20, 50, 3850], "cards_passed": [0, 2, 3, 4],
            "max_deals": [0, 2, 3], "meld_counters": [1, 20],
            "players": [2, 3, 4]}.get(name, [getattr(Rules(), name)])


def test_random_combinations_of_options_are_refused_or_playable() -> None:
    """Three options changed at random from a random preset, 150 times (seeded): each
    combination is refused naming a field, or every seat to act in a hand played at
    random has a legal action (no table sits at a move forever)."""
    chooser = random.Random(14)
    names = [f.name for f in dataclasses.fields(Rules)]
    played = 0
    for number in range(150):
        base = Rules.preset(chooser.choice(list(PRESETS)))
        changes = {n: chooser.choice(_fuzz_values(n)) for n in chooser.sample(names, 3)}
        try:
            rules = dataclasses.replace(base, **changes)  # type: ignore[arg-type]
        except RulesError as refused:
            assert refused.field in names, refused  # it names a field
            continue
        game = new_any_game(rules, seed=number)
        played += 1
        for _ in range(150):
            if game.to_act is None:
                break
            legal = game.legal_actions()
            assert legal, (str(rules), game.phase)
            game.apply(chooser.choice(legal), game.to_act)
    assert played >= 40  # enough combinations were accepted to mean something


@pytest.mark.parametrize(("rules", "bound"), [
    ("pagat(min_bid=4000, first_bid_required=yes)", "3850"),
    ("doubledeck(bid_ladder=ten_from_100, min_bid=1705, first_bid_required=yes)", "1700"),
])
def test_the_server_refuses_a_table_no_one_could_play(server: ServerProcess, rules: str,
                                                       bound: str) -> None:
    status, body = request("POST", server.url + "/api/tables",
                           {"rules": rules, "seats": ["open", "easy", "easy", "easy"]})
    assert status == 400 and body["code"] == "bad_rules", body
    assert "min_bid" in body["error"] and bound in body["error"]
    assert request("GET", server.url + "/api/tables")[0] == 200  # the server carries on


# -- what everyone sees -------------------------------------------------------------


@pytest.mark.parametrize("raw", [
    "Club\u202e night",  # right-to-left override, never closed: reverses the lobby line
    "Club\u200b\u200d night\ufeff",  # zero-width characters
    "Club\x00 night\x07\x1b[31m",  # NUL (HTTP 500 on PostgreSQL) and control characters
    "\u2066Club\u2069 night\u061c",  # bidi isolates and the Arabic letter mark
])
def test_a_table_title_is_filtered_like_a_name(server: ServerProcess, raw: str) -> None:
    table = new_table(server, "pagat", ["open", "easy", "easy", "easy"], title=raw)
    info = request("GET", f"{server.url}/api/tables/{table}")[1]
    assert info["title"] in ("Club night", "Club night[31m")
    assert all(c.isprintable() for c in info["title"])
    listed = {t["id"]: t["title"] for t in request("GET", server.url + "/api/tables")[1]["tables"]}
    assert listed[table] == info["title"]
    status, body = request("POST", f"{server.url}/api/tables/{table}/join",
                           {"seat": 0, "name": raw})
    assert status == 200 and body["table"]["seats"][0]["name"] == info["title"]


# -- one transaction per change ----------------------------------------------------------


def _fault(db: Path, sql: str) -> None:
    """Install (or drop) a trigger in the server's own database: a real write failure."""
    with contextlib.closing(sqlite3.connect(db, timeout=10, isolation_level=None)) as lite:
        lite.execute(sql)


def _stored_seats(db: Path, table: str) -> list[tuple[int, str]]:
    with contextlib.closing(sqlite3.connect(db, timeout=10)) as lite:
        return [(int(s), k) for s, k in lite.execute(
            "SELECT seat, kind FROM web_seats WHERE table_id = ? ORDER BY seat", (table,))]


def test_a_join_whose_game_cannot_be_stored_leaves_the_seat_open(tmp_path: Path) -> None:
    db = tmp_path / "tx.db"
    with ServerProcess(str(db), log=tmp_path / "server.log") as srv:
        table = new_table(srv, "pagat", ["open", "easy", "easy", "easy"])
        _fault(db, "CREATE TRIGGER no_game BEFORE INSERT ON web_games "
                   "BEGIN SELECT RAISE(ABORT, 'disk trouble'); END")
        status, body = request("POST", f"{srv.url}/api/tables/{table}/join",
                               {"seat": 0, "name": "Ann"})
        assert status == 503 and "still open" in body["error"], body
        assert _stored_seats(db, table)[0] == (0, "open")  # not taken under a lost token
        info = request("GET", f"{srv.url}/api/tables/{table}")[1]
        assert info["status"] == "waiting" and info["seats"][0]["kind"] == "open"
        _fault(db, "DROP TRIGGER no_game")
        token = join(srv, table, 0, "Ann")  # the seat is still Ann's to take
        with contextlib.closing(Client(srv, table, token)) as ann:
            state = ann.wait(lambda m: m["type"] == "state" and m["view"] is not None)
            assert state["seat"] == 0 and state["table"]["status"] == "playing"


def test_a_failed_fill_changes_neither_memory_nor_the_database(tmp_path: Path) -> None:
    db = tmp_path / "fill.db"
    with ServerProcess(str(db), log=tmp_path / "first.log") as srv:
        table = new_table(srv, "pagat", ["open", "open", "open", "open"])
        token = join(srv, table, 0, "Ann")
        _fault(db, "CREATE TRIGGER no_seat BEFORE UPDATE ON web_seats WHEN NEW.seat = 2 "
                   "BEGIN SELECT RAISE(ABORT, 'disk trouble'); END")
        with contextlib.closing(Client(srv, table, token)) as ann:
            ann.wait(lambda m: m["type"] == "state")
            ann.send({"type": "fill", "level": "easy"})
            error = ann.wait(lambda m: m["type"] == "error")
            assert error["code"] == "server_error", error
            info = request("GET", f"{srv.url}/api/tables/{table}")[1]
            assert [s["kind"] for s in info["seats"]] == ["human", "open", "open", "open"]
            assert info["status"] == "waiting"
            assert _stored_seats(db, table) == [(0, "human"), (1, "open"), (2, "open"),
                                                (3, "open")]
            _fault(db, "DROP TRIGGER no_seat")
            ann.send({"type": "fill", "level": "easy"})
            ann.wait(lambda m: m["type"] == "state" and m["view"] is not None)
    assert [k for _, k in _stored_seats(db, table)] == ["human", "easy", "easy", "easy"]
    with ServerProcess(str(db), log=tmp_path / "second.log") as srv:  # after a restart
        status, body = request("POST", f"{srv.url}/api/tables/{table}/join",
                               {"seat": 2, "name": "Stranger"})
        assert status == 409, body  # no open seat mid-game


# -- tables that pile up --------------------------------------------------------------


def _until(check: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def test_table_creation_is_limited_per_client(tmp_path: Path) -> None:
    with ServerProcess(str(tmp_path / "spam.db"), log=tmp_path / "server.log",
                       extra=("--create-limit", "3", "--create-window", "60")) as srv:
        for _ in range(3):
            new_table(srv, "pagat", ["open", "easy", "easy", "easy"])
        for _ in range(5):  # a flood: every one refused, none stored
            status, body = request("POST", srv.url + "/api/tables", {"rules": "pagat"})
            assert status == 429 and body["code"] == "too_many", body
            assert "3 tables in 60 s" in body["error"]
        assert len(request("GET", srv.url + "/api/tables")[1]["tables"]) == 3


def test_tables_waiting_too_long_expire_and_free_their_place(tmp_path: Path) -> None:
    db = tmp_path / "expiry.db"
    with ServerProcess(str(db), log=tmp_path / "first.log",
                       extra=("--max-tables", "2", "--waiting-expiry", "1",
                              "--sweep-interval", "0.3")) as srv:
        spam = [new_table(srv, "pagat", ["open", "easy", "easy", "easy"]) for _ in range(2)]
        status, body = request("POST", srv.url + "/api/tables", {"rules": "pagat"})
        assert status == 503 and body["code"] == "full", body
        _until(lambda: request("GET", srv.url + "/api/tables")[1]["tables"] == [])
        fresh = new_table(srv, "pagat", ["open", "easy", "easy", "easy"])
        assert request("GET", f"{srv.url}/api/tables/{spam[0]}")[0] == 404
        status, _ = request("POST", f"{srv.url}/api/tables/{spam[1]}/join",
                            {"seat": 0, "name": "Ann"})
        assert status == 404
    with ServerProcess(str(db), log=tmp_path / "second.log") as srv:  # also after a restart
        listed = [t["id"] for t in request("GET", srv.url + "/api/tables")[1]["tables"]]
        assert spam[0] not in listed and spam[1] not in listed
        assert request("GET", f"{srv.url}/api/tables/{spam[0]}")[0] == 404
        assert fresh in listed or request("GET", f"{srv.url}/api/tables/{fresh}")[0] == 404


def _tables_command(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pinochlekit", "tables", *args],
                          capture_output=True, text=True, timeout=60, check=False)


def test_the_operator_lists_and_removes_tables(tmp_path: Path) -> None:
    db = str(tmp_path / "operator.db")
    with ServerProcess(db, log=tmp_path / "server.log",
                       extra=("--sweep-interval", "0.3")) as srv:
        keep = new_table(srv, "pagat", ["open", "easy", "easy", "easy"], title="Club")
        spam = new_table(srv, "pagat", ["open", "easy", "easy", "easy"], title="Spam")
        listed = _tables_command("list", "--db", db)
        assert listed.returncode == 0, listed.stderr
        assert keep in listed.stdout and spam in listed.stdout and "\tSpam" in listed.stdout
        watcher = Client(srv, spam)
        try:
            watcher.wait(lambda m: m["type"] == "state")
            removed = _tables_command("remove", "--db", db, "--", spam)  # an id may start with -
            assert removed.returncode == 0 and f"removed {spam}" in removed.stdout
            closed = watcher.wait(lambda m: m["type"] == "error", timeout=10)
            assert closed["code"] == "table_closed"
        finally:
            watcher.close()
        assert request("GET", f"{srv.url}/api/tables/{spam}")[0] == 404
        assert [t["id"] for t in request("GET", srv.url + "/api/tables")[1]["tables"]] == [keep]
        gone = _tables_command("remove", "no-such-table", "--db", db)
        assert gone.returncode == 1 and "no table 'no-such-table'" in gone.stderr
        bad = _tables_command("remove", "--db", db)
        assert bad.returncode != 0 and "give table ids" in bad.stderr


def test_finished_tables_leave_memory_and_are_bounded(tmp_path: Path) -> None:
    with ServerProcess(str(tmp_path / "finished.db"), log=tmp_path / "server.log",
                       extra=("--max-finished", "1", "--sweep-interval", "0.3")) as srv:
        tables, watchers = [], []
        try:
            for _ in range(3):  # one hand to 10 points: over at once
                table = new_table(srv, "pagat(target=10)", ["open", "random", "random",
                                                            "random"],
                                  grace=0, standin="random")
                join(srv, table, 0, "Ann")  # away at once: her stand-in plays
                watcher = Client(srv, table)
                tables.append(table)
                watchers.append(watcher)
            for watcher in watchers:
                watcher.wait(lambda m: m["type"] == "state" and m["table"]["status"] == "over",
                             timeout=30)
            # watched, but only --max-finished stay in memory
            _until(lambda: request("GET", srv.url + "/api/health")[1]["finished_in_memory"]
                   <= 1)
        finally:
            for watcher in watchers:
                watcher.close()
        _until(lambda: request("GET", srv.url + "/api/health")[1]["tables_in_memory"] == 0)
        for table in tables:  # still in the database: the history is there
            status, history = request("GET", f"{srv.url}/api/tables/{table}/history")
            assert status == 200 and history, history


# -- a PostgreSQL commit whose reply is lost ----------------------------------------------


class CommitCutter:
    """A TCP proxy on 127.0.0.1 in front of PostgreSQL that, once :meth:`arm` ed,
    forwards the next ``COMMIT`` and then cuts that connection before its reply
    reaches the client: the commit happened, the client cannot know it."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.listener.getsockname()[1])
        self.armed = threading.Event()
        self.cuts = 0
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def arm(self) -> None:
        """Cut the connection that sends the next ``COMMIT``."""
        self.armed.set()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(self.target, timeout=10)
            cut = threading.Event()
            threading.Thread(target=self._pump, args=(client, server, cut, True),
                             daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, cut, False),
                             daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, cut: threading.Event,
              upstream: bool) -> None:
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                if upstream and b"COMMIT" in data and self.armed.is_set():
                    with self._lock:
                        cut.set()  # the reply is never forwarded ...
                        self.armed.clear()
                        self.cuts += 1
                    sink.sendall(data)
                    time.sleep(0.5)  # ... but the commit reaches the server
                    break
                if cut.is_set():
                    break
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()

    def close(self) -> None:
        """Stop accepting."""
        self.listener.close()


@pytest.fixture
def cutter() -> Iterator[tuple[CommitCutter, str]]:
    url = pg_url()
    parts = urllib.parse.urlsplit(url)
    proxy = CommitCutter(parts.hostname or "127.0.0.1", parts.port or 5432)
    netloc = f"{parts.username}@127.0.0.1:{proxy.port}" if parts.username else \
        f"127.0.0.1:{proxy.port}"
    try:
        yield proxy, urllib.parse.urlunsplit(parts._replace(netloc=netloc))
    finally:
        proxy.close()


def _stored_actions(url: str, table: str) -> list[tuple[int, str]]:
    import psycopg

    with psycopg.connect(url) as conn:
        return [(int(p), str(a)) for p, a in conn.execute(
            "SELECT ply, action FROM web_actions WHERE table_id = %s ORDER BY game_no, ply",
            (table,)).fetchall()]


def test_a_commit_whose_reply_is_cut_is_neither_repeated_nor_lost(
        tmp_path: Path, cutter: tuple[CommitCutter, str]) -> None:
    proxy, url = cutter
    with ServerProcess(url, log=tmp_path / "server.log",
                       extra=("--sweep-interval", "3600")) as srv:
        table = new_table(srv, "pagat", ["open", "easy", "easy", "easy"], pace=0.2)
        proxy.arm()  # the join's commit (the seat and the first game) is cut
        status, body = request("POST", f"{srv.url}/api/tables/{table}/join",
                               {"seat": 0, "name": "Ann"})
        assert proxy.cuts == 1
        assert status == 200 and body["table"]["status"] == "playing", body
        ann = Client(srv, table, body["token"])  # the token holds the seat
        try:
            state = ann.my_turn()
            assert state["seat"] == 0
            ply = state["ply"]
            proxy.arm()  # Ann's action's commit is cut
            action = choose(state)
            ann.act(action)
            after = ann.wait(lambda m: m["type"] == "state" and m["ply"] > ply, timeout=20)
            assert proxy.cuts == 2
            assert after["ply"] >= ply + 1
            # the table goes on: the computers' next moves are stored after hers
            ann.wait(lambda m: m["type"] == "state" and m["ply"] > ply + 1, timeout=20)
        finally:
            ann.close()
    stored = _stored_actions(pg_url(), table)
    assert stored[ply] == (ply, action)
    assert [p for p, _ in stored] == list(range(len(stored)))  # once each, in order


# -- a brief database error ------------------------------------------------------------


def test_computers_resume_by_themselves_after_a_brief_database_error(tmp_path: Path) -> None:
    db = tmp_path / "blip.db"
    with ServerProcess(str(db), log=tmp_path / "server.log") as srv:
        table = new_table(srv, "pagat", ["open", "easy", "easy", "easy"])
        token = join(srv, table, 0, "Ann")
        _fault(db, "CREATE TRIGGER blip BEFORE INSERT ON web_actions WHEN NEW.actor <> "
                   "'human' BEGIN SELECT RAISE(ABORT, 'disk trouble'); END")
        ann = Client(srv, table, token)
        try:
            with contextlib.suppress(AssertionError):  # play along until the computers fail
                ann.wait(lambda m: False, timeout=1.5, play=True)
            assert ann.state is not None
            ply = ann.state["ply"]
            assert ann.state["view"]["to_act"] != 0  # a computer's turn, stuck for now
            _fault(db, "DROP TRIGGER blip")  # the database is back; nobody sends anything
            ann.wait(lambda m: m["type"] == "state" and m["ply"] > ply, timeout=12)
        finally:
            ann.close()


def test_computers_resume_after_postgresql_drops_out_with_nobody_sending(
        tmp_path: Path) -> None:
    """The computers stalled after a brief database error until a new connection came:
    here PostgreSQL is cut off (every connection dropped, new ones refused) right
    after Ann's move, so the computers' next moves fail; when it is back they go on
    by themselves, Ann sending nothing, and every move is stored once, in order."""
    parts = urllib.parse.urlsplit(pg_url())
    proxy = TcpProxy((parts.hostname or "127.0.0.1", parts.port or 5432))
    netloc = (f"{parts.username}@" if parts.username else "") + f"127.0.0.1:{proxy.port}"
    url = urllib.parse.urlunsplit(parts._replace(netloc=netloc))
    try:
        with ServerProcess(url, log=tmp_path / "server.log",
                           extra=("--sweep-interval", "3600")) as srv:
            table = new_table(srv, "pagat", ["open", "easy", "easy", "easy"], pace=0.3)
            ann = Client(srv, table, join(srv, table, 0, "Ann"), strict=False)
            try:
                state = ann.my_turn()
                ply = state["ply"]
                ann.act(choose(state))
                ann.wait(lambda m: m["type"] == "state" and m["ply"] == ply + 1)
                proxy.down()  # before the next computer's move, one pace later
                moved = None
                with contextlib.suppress(AssertionError):  # (wait's time-out)
                    moved = ann.wait(lambda m: m["type"] == "state" and m["ply"] > ply + 1,
                                     timeout=3)
                assert moved is None, "a move was made with the database down"
                assert ann.state is not None and ann.state["view"]["to_act"] != 0
                assert proxy.refused >= 1  # the server tried again meanwhile
                proxy.up()  # back; nobody sends anything
                ann.wait(lambda m: m["type"] == "state" and m["ply"] > ply + 1, timeout=20)
            finally:
                ann.close()
    finally:
        proxy.close()
    stored = _stored_actions(pg_url(), table)
    assert len(stored) > ply + 1
    assert [p for p, _ in stored] == list(range(len(stored)))  # once each, in order


# -- deals no one can choose ---------------------------------------------------------------


def _commit_join(server: ServerProcess, table: str, seat: int, name: str,
                 value: str) -> str:
    """Take a seat committing to ``value`` (its SHA-256 sent, the value kept); the token."""
    status, body = request("POST", f"{server.url}/api/tables/{table}/join",
                           {"seat": seat, "name": name,
                            "client_commitment": client_commitment(value)})
    assert status == 200, body
    return str(body["token"])


def _pending(message: dict[str, typing.Any]) -> dict[str, typing.Any]:
    """The fairness entry of the game not yet dealt, in a state message."""
    game_no = message["table"]["game_no"]
    return next(g for g in message["fair"]["games"] if g["game_no"] == game_no)


def test_every_deal_derives_from_a_committed_server_seed_and_each_browsers_seed(
        server: ServerProcess) -> None:
    table = new_table(server, "pagat(target=10)", ["open", "random", "random", "random"],
                      grace=0, standin="random")
    watcher = Client(server, table)
    ann_seed = secrets.token_hex(16)
    try:
        before = watcher.wait(lambda m: m["type"] == "state")
        (pending,) = before["fair"]["games"]
        assert pending["game_no"] == 0 and "server_seed" not in pending
        shown = pending["commitment"]  # the server's seed is fixed before anyone joins
        token = _commit_join(server, table, 0, "Ann", ann_seed)
        # every seat is taken: the commitments are published, the value asked for
        asking = watcher.wait(lambda m: m["type"] == "state"
                              and _pending(m).get("round", {}).get("phase") == "reveal")
        assert _pending(asking)["client_commitments"] == [client_commitment(ann_seed),
                                                          "", "", ""]
        assert asking["table"]["status"] == "waiting" and asking["deal"] is None
        ann = Client(server, table, token)
        try:
            ann.send({"type": "reveal", "value": ann_seed})
            ann.wait(lambda m: m["type"] == "state" and m["deal"] is not None)
        finally:
            ann.close()  # her stand-in plays (grace 0)
        over = watcher.wait(lambda m: m["type"] == "state"
                            and m["table"]["status"] == "over", timeout=30)
    finally:
        watcher.close()
    # Ann's value stays hidden from everyone else until the game is over
    assert not any(ann_seed in text for text in watcher.texts[:-1])
    first = next(g for g in over["fair"]["games"] if g["game_no"] == 0)
    assert first["commitment"] == shown
    server_seed = first["server_seed"]
    assert hashlib.sha256(server_seed.encode()).hexdigest() == shown
    assert first["client_seeds"] == [ann_seed, "", "", ""]
    assert first["client_commitments"] == [client_commitment(ann_seed), "", "", ""]
    history = request("GET", f"{server.url}/api/tables/{table}/history")[1]
    assert history["games"][0]["fair"] == first  # also in the table's history
    hand = over["last_hand"]
    # usually one hand reaches 10 points; a thrown-in hand with no meld for the other
    # side reaches nothing, and the game goes on: the last hand is checked, whichever
    index = hand["number"] - 1  # deals are numbered from 0, redeals included
    assert index >= 0
    expected = deal_seed(game_seed(server_seed, first["client_seeds"], 0), index)
    assert hand["deal_seed"] == expected
    # the next game's server seed is fixed (and shown hashed) before it starts
    assert any(g["game_no"] == 1 and "server_seed" not in g for g in over["fair"]["games"])
    common = ["--server-commitment", shown, "--game", "0", "--hand", str(index),
              "--dealer", str(hand["dealer"]), "--commitment", hand["commitment"]]
    commitments = ["--client-commitment", client_commitment(ann_seed),
                   *["--client-commitment", "-"] * 3]
    done = subprocess.run(
        [sys.executable, "-m", "pinochlekit", "verify", "--server-seed", server_seed,
         "--client-seed", ann_seed, *["--client-seed", "-"] * 3, *commitments, *common],
        capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert f"deal seed of game 0, hand {index}: {expected}" in done.stdout
    assert "seat 0's value matches its commitment" in done.stdout
    for seat, cards in enumerate(hand["dealt"]):
        assert f"seat {seat}: {cards}" in done.stdout
    forged = subprocess.run(
        [sys.executable, "-m", "pinochlekit", "verify", "--server-seed", server_seed,
         "--client-seed", secrets.token_hex(16), *["--client-seed", "-"] * 3,
         "--hand", str(index), "--dealer", str(hand["dealer"]),
         "--commitment", hand["commitment"]],
        capture_output=True, text=True, timeout=60, check=False)
    assert forged.returncode == 1 and "does not match" in forged.stderr
    # another value for seat 0 than the one committed to: pinochle verify says so
    swapped = subprocess.run(
        [sys.executable, "-m", "pinochlekit", "verify", "--server-seed", server_seed,
         "--client-seed", secrets.token_hex(16), *["--client-seed", "-"] * 3,
         *commitments, *common[:-2]],
        capture_output=True, text=True, timeout=60, check=False)
    assert swapped.returncode == 1, swapped.stdout
    assert "seat 0's value does not match its commitment" in swapped.stderr


def test_a_value_changed_after_its_commitment_is_refused(server: ServerProcess) -> None:
    """The commit-reveal among browsers (docs/web.md "Fairness and privacy"): a value is
    revealed only once every commitment is in, a value that is not the one committed
    to is refused and changes nothing, a commitment cannot be changed."""
    table = new_table(server, "pagat(target=10)", ["open", "open", "random", "random"],
                      grace=0, standin="random")
    ann_value, bob_value = secrets.token_hex(16), secrets.token_hex(16)
    ann = Client(server, table, _commit_join(server, table, 0, "Ann", ann_value),
                 strict=False)
    try:
        ann.wait(lambda m: m["type"] == "state")
        ann.send({"type": "reveal", "value": ann_value})  # Bob has not committed yet
        refused = ann.wait(lambda m: m["type"] == "error")
        assert refused["code"] == "not_yet", refused
        ann.send({"type": "commit", "commitment": client_commitment(bob_value)})
        assert ann.wait(lambda m: m["type"] == "error")["code"] == "committed"
        bob = Client(server, table, _commit_join(server, table, 1, "Bob", bob_value),
                     strict=False)
        try:
            asking = ann.wait(lambda m: m["type"] == "state"
                              and _pending(m).get("round", {}).get("phase") == "reveal")
            assert _pending(asking)["round"]["waiting"] == [0, 1]
            # Bob chooses another value once he has seen Ann's: refused
            bob.send({"type": "reveal", "value": ann_value})
            error = bob.wait(lambda m: m["type"] == "error")
            assert error["code"] == "bad_reveal" and "does not match" in error["message"]
            bob.send({"type": "reveal", "value": "zz" * 16})
            assert bob.wait(lambda m: m["type"] == "error")["code"] == "bad_message"
            bob.send({"type": "state"})
            still = bob.wait(lambda m: m["type"] == "state")
            assert _pending(still)["contributed"] == [] and still["deal"] is None
            assert _sql_rows(server, "SELECT seat FROM web_client_seeds WHERE table_id = ?",
                             (table,)) == []
            bob.send({"type": "reveal", "value": bob_value})
            ann.send({"type": "reveal", "value": ann_value})
            dealt = ann.wait(lambda m: m["type"] == "state" and m["deal"] is not None)
        finally:
            bob.close()
    finally:
        ann.close()
    assert dealt["table"]["status"] == "playing"
    rows = _sql_rows(server, "SELECT seat, value FROM web_client_seeds WHERE table_id = ? "
                     "ORDER BY seat", (table,))
    assert rows == [(0, ann_value), (1, bob_value)]
    status, body = request("POST", f"{server.url}/api/tables/{table}/join",
                           {"seat": 2, "name": "Cy", "client_seed": ann_value})
    assert status == 422 and "client_commitment" in body["error"]  # no value in clear


def test_the_deal_seed_cannot_be_computed_before_the_reveal(server: ServerProcess) -> None:
    """Once every seat is taken nothing is dealt until the committed values are
    revealed: no game is stored, no deal hash shown, and what anyone could see so
    far (the server seed's hash, the commitments) does not fix the seed: the stored
    seed is the one the revealed values give."""
    table = new_table(server, "pagat", ["open", "easy", "easy", "easy"], pace=1)
    value = secrets.token_hex(16)
    token = _commit_join(server, table, 0, "Ann", value)
    watcher = Client(server, table)
    try:
        waiting = watcher.wait(lambda m: m["type"] == "state")
        assert waiting["deal"] is None and waiting["view"] is None
        assert _pending(waiting)["round"]["phase"] == "reveal"
        time.sleep(0.5)  # the computers are seated: still nothing dealt
        assert _sql_rows(server, "SELECT seed FROM web_games WHERE table_id = ?",
                         (table,)) == []
        ann = Client(server, table, token)
        try:
            ann.send({"type": "reveal", "value": value})
            ann.wait(lambda m: m["type"] == "state" and m["deal"] is not None)
        finally:
            ann.close()
    finally:
        watcher.close()
    assert not any(value in text for text in watcher.texts)
    ((server_seed,),) = _sql_rows(server, "SELECT server_seed FROM web_fair WHERE "
                                  "table_id = ? AND game_no = 0", (table,))
    ((stored,),) = _sql_rows(server, "SELECT seed FROM web_games WHERE table_id = ?",
                             (table,))
    assert stored == game_seed(str(server_seed), [value, "", "", ""], 0)
    assert stored != game_seed(str(server_seed), [secrets.token_hex(16), "", "", ""], 0)


def test_while_the_first_deal_waits_for_the_values_errors_say_so(
        server: ServerProcess) -> None:
    """Every seat taken, the deal waiting for the browsers' values (docs/web.md
    "Fairness and privacy"): an action, a hint or a fill is refused saying the deal
    waits for the values, not that seats are open ("the game starts when every seat
    is taken") nor that a seat was taken meanwhile and to try again."""
    table = new_table(server, "pagat", ["open", "easy", "easy", "easy"])
    value = secrets.token_hex(16)
    ann = Client(server, table, _commit_join(server, table, 0, "Ann", value), strict=False)
    try:
        waiting = ann.wait(lambda m: m["type"] == "state")
        assert _pending(waiting)["round"]["phase"] == "reveal" and waiting["view"] is None
        for message, code in (({"type": "act", "action": "pass", "ply": 0}, "waiting"),
                              ({"type": "hint"}, "waiting"),
                              ({"type": "fill", "level": "easy"}, "started")):
            ann.send(message)
            error = ann.wait(lambda m: m["type"] == "error")
            assert error["code"] == code, (message, error)
            assert "values" in error["message"], (message, error)
            assert "try again" not in error["message"], (message, error)
        ann.send({"type": "reveal", "value": value})
        ann.wait(lambda m: m["type"] == "state" and m["deal"] is not None)
    finally:
        ann.close()


def test_missing_commitments_and_values_count_as_absent_after_the_time(
        tmp_path: Path) -> None:
    """A rematch waits for the browsers that took part in the last deal to commit,
    then for the values, each for a bounded time (``--reveal-time``): a browser
    that commits and never reveals cannot hold the table, it is dealt without."""
    with ServerProcess(str(tmp_path / "t.db"), log=tmp_path / "server.log",
                       extra=("--reveal-time", "1.5")) as srv:
        table = new_table(srv, "pagat(target=10)", ["open", "random", "random", "random"],
                          grace=0, standin="random")
        token = _commit_join(srv, table, 0, "Ann", secrets.token_hex(16))
        ann = Client(srv, table, token)
        try:
            begun = time.monotonic()
            dealt = ann.wait(lambda m: m["type"] == "state" and m["deal"] is not None,
                             timeout=20)
            assert time.monotonic() - begun >= 1.0  # waited for the value, in vain
            assert _pending_row(dealt, 0)["contributed"] == []
        finally:
            ann.close()  # her stand-in plays the game out (grace 0)
        watcher = Client(srv, table)
        try:
            watcher.wait(lambda m: m["type"] == "state" and m["table"]["status"] == "over",
                         timeout=90)
        finally:
            watcher.close()
        ann = Client(srv, table, token)
        try:
            ann.send({"type": "rematch"})  # Ann took part: her commitment is waited for
            asked = ann.wait(lambda m: m["type"] == "state"
                             and _pending(m).get("round") is not None)
            assert _pending(asked)["round"]["phase"] == "commit"
            assert _pending(asked)["round"]["waiting"] == [0]
            again = ann.wait(lambda m: m["type"] == "state" and m["table"]["game_no"] == 2,
                             timeout=20)
        finally:
            ann.close()
    over = next(g for g in again["fair"]["games"] if g["game_no"] == 0)
    assert over["client_commitments"][0] and over["client_seeds"][0] == ""  # withheld


def _pending_row(message: dict[str, typing.Any], game_no: int) -> dict[str, typing.Any]:
    return next(g for g in message["fair"]["games"] if g["game_no"] == game_no)


def _sql_rows(server: ServerProcess, query: str,
              params: tuple[object, ...]) -> list[tuple[object, ...]]:
    """Rows of the server's SQLite file, read directly (a second reader)."""
    assert server.db is not None
    with contextlib.closing(sqlite3.connect(server.db)) as db:
        return [tuple(r) for r in db.execute(query, params)]


def test_a_nul_in_a_title_or_name_is_no_error_on_postgresql(tmp_path: Path) -> None:
    url = pg_url()
    with ServerProcess(url, log=tmp_path / "server.log") as srv:
        status, body = request("POST", srv.url + "/api/tables",
                               {"title": "Club\x00 night\u202e", "seats": ["open", "easy",
                                                                         "easy", "easy"]})
        assert status == 201 and body["table"]["title"] == "Club night", body
        status, body = request("POST", f"{srv.url}/api/tables/{body['id']}/join",
                               {"seat": 0, "name": "A\x00nn"})
        assert status == 200 and body["table"]["seats"][0]["name"] == "Ann", body


def test_a_fill_whose_commit_reply_is_cut_still_starts_the_game(
        tmp_path: Path, cutter: tuple[CommitCutter, str]) -> None:
    proxy, url = cutter
    with ServerProcess(url, log=tmp_path / "server.log",
                       extra=("--sweep-interval", "3600")) as srv:
        table = new_table(srv, "pagat", ["open", "open", "easy", "easy"], pace=0.2)
        ann = Client(srv, table, join(srv, table, 0, "Ann"))
        try:
            ann.wait(lambda m: m["type"] == "state")
            proxy.arm()  # the fill's commit (two seats and the first game) is cut
            ann.send({"type": "fill", "level": "easy"})
            state = ann.wait(lambda m: m["type"] == "state" and m["view"] is not None,
                             timeout=20)
            assert proxy.cuts == 1
            assert [s["kind"] for s in state["table"]["seats"]] == ["human", "easy", "easy",
                                                                    "easy"]
        finally:
            ann.close()
