"""The table page under faults, in a real browser (Debian's chromium driven by
Playwright) against `pinochle serve` in a subprocess (docs/web.md "Security and
limits"): it contributes to the deals, asks for the state again after a server
error, and says so when the operator removed its table."""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser

from pinochlekit.web.process import ServerProcess

from .test_browser import browser, create_table, play_until, take_turn

__all__ = ["browser"]  # the fixture, shared with test_browser.py


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    base = tmp_path_factory.mktemp("browser-security")
    with ServerProcess(str(base / "tables.db"), log=base / "server.log",
                       extra=("--create-limit", "100000", "--sweep-interval", "0.3")) as srv:
        yield srv


def _sql(server: ServerProcess, sql: str,
         params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    assert server.db is not None
    with contextlib.closing(sqlite3.connect(server.db, timeout=10,
                                            isolation_level=None)) as lite:
        return list(lite.execute(sql, params).fetchall())


def _until(check: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


def test_the_page_contributes_a_random_value_to_each_game(server: ServerProcess,
                                                          browser: Browser) -> None:
    page = browser.new_page()
    url = create_table(page, server, "Ann", ["easy", "easy", "easy"])
    table = url.rsplit("/", 1)[1]
    def seeds() -> list[tuple[object, ...]]:
        return _sql(server, "SELECT game_no, seat, value FROM web_client_seeds "
                    "WHERE table_id = ? ORDER BY game_no", (table,))

    def commitments() -> list[tuple[object, ...]]:
        return _sql(server, "SELECT game_no, seat, commitment FROM web_client_commitments "
                    "WHERE table_id = ? ORDER BY game_no", (table,))

    # docs/web.md "Fairness and privacy": the page commits first (with the join for
    # game 0, during the game for game 1), and reveals game 0's value once asked
    _until(lambda: len(commitments()) == 2 and len(seeds()) == 1)
    (g0, s0, c0), (g1, s1, c1) = commitments()
    assert (g0, s0, g1, s1) == (0, 0, 1, 0) and c0 != c1
    ((_, _, v0),) = seeds()
    assert isinstance(v0, str)
    assert hashlib.sha256(v0.encode()).hexdigest() == c0  # the value it committed to
    saw = json.loads(page.evaluate(f"localStorage.getItem('pinochle.fair.{table}.0')"))
    assert saw["value"] == v0 and len(saw["commitment"]) == 64 and saw["mine"] == c0
    later = json.loads(page.evaluate(f"localStorage.getItem('pinochle.fair.{table}.1')"))
    assert later["mine"] == c1  # game 1's value is kept, not sent: only its hash is
    page.get_by_text("the server's seed is fixed").first.wait_for(state="attached",
                                                                   timeout=10_000)
    assert len(v0) == 32 and int(v0, 16) >= 0
    page.close()


def test_the_pages_value_is_revealed_in_its_deal_and_pinochle_verify_takes_it(
        server: ServerProcess, browser: Browser) -> None:
    """docs/web.md "Fairness and privacy", end to end in the browser: the value this
    page sent with the join (kept in its localStorage with the server seed's hash it
    saw) is revealed with the server seed once the game is over, the page checks both
    (✓, no mismatch), and the command the fairness panel prints, run as printed,
    recomputes the hand's deal seed from the server seed and that value."""
    page = browser.new_page()
    url = create_table(page, server, "Ann", ["easy", "easy", "easy"],
                       options={"target": "10"})
    table = url.rsplit("/", 1)[1]
    page.wait_for_selector("#hand .card")
    mine = json.loads(page.evaluate(f"localStorage.getItem('pinochle.fair.{table}.0')"))
    # the hash shown before the game was dealt is the one the page kept
    play_until(page, "document.querySelector('#status').textContent.includes('Game over')",
               seconds=180)
    game = page.locator("#fair li", has_text="Game 1:").first
    game.wait_for(state="attached", timeout=10_000)
    text = game.inner_text()
    assert "✓ the server seed matches the hash shown before the game" in text, text
    assert "MISMATCH" not in text and "did not see" not in text and "NOT" not in text, text
    command = game.locator("div").inner_text().split()
    assert command[:3] == ["pinochle", "verify", "--server-seed"], command
    client_seeds = [command[i + 1] for i, word in enumerate(command) if word == "--client-seed"]
    assert client_seeds == [mine["value"], "-", "-", "-"]  # this page's value, revealed
    committed = [command[i + 1] for i, word in enumerate(command)
                 if word == "--client-commitment"]
    assert committed == [mine["mine"], "-", "-", "-"]  # and the commitment it sent first
    assert "every value matches its commitment" in text, text
    assert command[command.index("--server-commitment") + 1] == mine["commitment"]
    hand = page.locator("#fair li", has_text="verified").first.inner_text()
    assert "MISMATCH" not in hand and "gives your cards exactly" in hand, hand
    found = re.search(r"Hand (\d+): .*seed ([0-9a-f]+), dealer seat (\d)", hand, re.S)
    assert found, hand
    number, deal, dealer = int(found[1]), found[2], found[3]
    args = command[2:]
    args[args.index("--hand") + 1] = str(number - 1)  # hands are counted from 0
    args[args.index("--dealer") + 1] = dealer
    done = subprocess.run([sys.executable, "-m", "pinochlekit", "verify", *args],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert f"deal seed of game 0, hand {number - 1}: {deal}" in done.stdout, done.stdout
    # another value for seat 0 than the one committed to: refused
    args[args.index("--client-seed") + 1] = "0" * 32
    other = subprocess.run([sys.executable, "-m", "pinochlekit", "verify", *args],
                           capture_output=True, text=True, timeout=60, check=False)
    assert other.returncode == 1 and "does not match its commitment" in other.stderr
    assert deal not in other.stdout
    page.close()


def test_the_page_asks_for_the_state_after_a_server_error(server: ServerProcess,
                                                          browser: Browser) -> None:
    page = browser.new_page()
    frames: list[dict[str, object]] = []
    page.on("websocket", lambda ws: ws.on(
        "framesent", lambda payload: frames.append(json.loads(payload))))
    url = create_table(page, server, "Ann", ["easy", "easy", "easy"])
    table = url.rsplit("/", 1)[1]
    _sql(server, f"CREATE TRIGGER fail_{table.replace('-', '_')} BEFORE INSERT ON "
                 f"web_actions WHEN NEW.actor = 'human' AND NEW.table_id = '{table}' "
                 "BEGIN SELECT RAISE(ABORT, 'disk trouble'); END")
    try:
        deadline = time.monotonic() + 30
        while not any(f.get("type") == "act" for f in frames):
            assert time.monotonic() < deadline, "the page never acted"
            take_turn(page)
            page.wait_for_timeout(200)
        page.get_by_text("the table is unchanged").wait_for(timeout=10_000)
        acted = next(i for i, f in enumerate(frames) if f.get("type") == "act")
        # (the page's frames arrive while Playwright runs: wait in the page, not in sleep)
        for _ in range(60):
            if any(f.get("type") == "state" for f in frames[acted + 1:]):
                break
            page.wait_for_timeout(100)
        assert any(f.get("type") == "state" for f in frames[acted + 1:]), frames[acted:]
    finally:
        _sql(server, f"DROP TRIGGER IF EXISTS fail_{table.replace('-', '_')}")
        page.close()


def test_the_page_asks_for_the_state_when_the_computers_fall_silent(
        server: ServerProcess, browser: Browser) -> None:
    """The page never asked for ``state``: with the computers stalled (their moves
    cannot be stored) on another seat's turn, it waited forever. Now, after 15 s
    without a message (the page's clock run forward, not waited for), it asks; and
    once the database takes writes again the table goes on."""
    page = browser.new_page()
    page.clock.install()  # the page's Date and timers, run forward below
    frames: list[dict[str, object]] = []
    page.on("websocket", lambda ws: ws.on(
        "framesent", lambda payload: frames.append(json.loads(payload))))
    url = create_table(page, server, "Ann", ["easy", "easy", "easy"])
    table = url.rsplit("/", 1)[1]
    page.get_by_text("your turn", exact=False).first.wait_for(timeout=20_000)  # Ann's
    trigger = f"stall_{table.replace('-', '_')}"
    _sql(server, f"CREATE TRIGGER {trigger} BEFORE INSERT ON web_actions "
                 f"WHEN NEW.actor <> 'human' AND NEW.table_id = '{table}' "
                 "BEGIN SELECT RAISE(ABORT, 'disk trouble'); END")
    try:
        deadline = time.monotonic() + 30
        while not any(f.get("type") == "act" for f in frames):  # Ann's move is stored
            assert time.monotonic() < deadline, "the page never acted"
            take_turn(page)
            page.wait_for_timeout(200)
        acted = len(frames)
        page.wait_for_timeout(1000)  # (the computer's move fails on the server)
        assert not any(f.get("type") == "state" for f in frames[acted:])
        page.clock.fast_forward(10_000)  # quiet, but not for long enough yet
        assert not any(f.get("type") == "state" for f in frames[acted:]), frames[acted:]
        page.clock.fast_forward(10_000)  # 20 s without a message on a computer's turn
        for _ in range(50):
            if any(f.get("type") == "state" for f in frames[acted:]):
                break
            page.wait_for_timeout(100)
        assert any(f.get("type") == "state" for f in frames[acted:]), frames[acted:]
        _sql(server, f"DROP TRIGGER {trigger}")
        plies = [int(v) for f in frames if f.get("type") == "act"
                 for v in [f.get("ply")] if isinstance(v, int)]
        def stored() -> int:
            return int(str(_sql(server, "SELECT count(*) FROM web_actions WHERE "
                                "table_id = ?", (table,))[0][0]))
        _until(lambda: stored() > plies[-1] + 1, timeout=20)  # the computers moved on
    finally:
        _sql(server, f"DROP TRIGGER IF EXISTS {trigger}")
        page.close()


def test_a_removed_table_says_so(server: ServerProcess, browser: Browser) -> None:
    page = browser.new_page()
    url = create_table(page, server, "Ann", ["easy", "easy", "easy"])
    table = url.rsplit("/", 1)[1]
    page.locator("#hand button").first.wait_for(timeout=10_000)
    assert server.db is not None
    done = subprocess.run([sys.executable, "-m", "pinochlekit", "tables", "remove", "--db",
                           server.db, "--", table], capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr
    page.get_by_text("There is no such table").wait_for(timeout=15_000)
    page.close()


