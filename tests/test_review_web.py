"""The web's review of a finished hand (docs/web.md "Review"), over HTTP against a
real ``pinochle serve``: a hand in play is refused before anything runs, a bad hand
or seat is refused, a second review of one client while its first runs is "busy",
the table keeps answering meanwhile, and a finished review is cached."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import Client, choose, join, new_table, request, serve

from pinochlekit.web.process import ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "web-review")


def ask(server: ServerProcess, table: str, hand: int, body: dict[str, Any],
        game: int = 0, source: str | None = None) -> tuple[int, Any]:
    return request("POST", f"{server.url}/api/tables/{table}/games/{game}/hands/{hand}/review",
                   body, source=source)


def test_refusals_busy_progress_and_cache(server: ServerProcess) -> None:
    table = new_table(server, "pagat", ["open", "easy", "easy", "easy"])
    token = join(server, table, 0, "Ann")
    ann = Client(server, table, token)
    try:
        ann.my_turn()  # hand 1 waits for Ann: in play
        status, body = ask(server, table, 1, {"token": token})
        assert (status, body["code"]) == (409, "in_play"), body
        assert "in play" in body["error"]
        # Ann plays hand 1 to its end; hand 2 then waits for her
        assert ann.state is not None
        ann.act(choose(ann.state))
        ann.wait(lambda m: m["type"] == "state" and len(m["hands"]) >= 1, timeout=120,
                 play=True)
        status, body = ask(server, table, 2, {"token": token})
        assert (status, body["code"]) == (409, "in_play"), body
        for hand, game in ((0, 0), (3, 0), (1, 5)):
            status, body = ask(server, table, hand, {"token": token}, game=game)
            assert (status, body["code"]) == (404, "no_hand"), (hand, game, body)
        status, body = ask(server, table, 1, {"seat": 5})
        assert (status, body["code"]) == (422, "bad_seat"), body
        status, body = ask(server, table, 1, {"seat": -1})
        assert status == 422, body
        status, body = request("POST", f"{server.url}/api/tables/nope/games/0/hands/1/review",
                               {})
        assert status == 404, body
        # Ann's own seat by default; while it runs a second of hers is busy
        status, first = ask(server, table, 1, {"token": token})
        assert status == 202 and first["status"] == "running" and first["seat"] == 0, first
        status, body = ask(server, table, 1, {"token": token, "seat": 1})
        assert (status, body["code"]) == (429, "busy"), body
        # the table is not blocked: it answers a ping while the review runs
        ann.send({"type": "ping"})
        ann.wait(lambda m: m["type"] == "pong", play=False)
        seen: list[tuple[int, int]] = []
        deadline = time.monotonic() + 300
        while True:
            status, body = ask(server, table, 1, {"token": token})
            if status == 200:
                break
            assert status == 202 and body["status"] == "running", body
            seen.append((body["done"], body["total"]))
            assert time.monotonic() < deadline, seen
            time.sleep(0.3)
        review = body["review"]
        assert review["format"] == "pinochlekit-review/1" and review["seat"] == 0
        assert review["hand"] == 1 and review["game_no"] == 0 and review["decisions"]
        for decision in review["decisions"]:
            board = decision["board"]
            if decision["trick"]:  # a card played: it was in the seat's hand then
                assert decision["chosen"] in board["hand"].split(), decision
        assert all(done <= total for done, total in seen if total), seen
        # cached: the same answer at once, also for a spectator asking for seat 0
        assert ask(server, table, 1, {"token": token}) == (200, body)
        status, again = ask(server, table, 1, {"seat": 0}, source="127.0.0.2")
        assert status == 200 and again["review"] == review
        # another seat's decisions of the finished hand: a new review (its cards are public)
        status, other = ask(server, table, 1, {"seat": 1}, source="127.0.0.2")
        assert status == 202 and other["seat"] == 1, other
    finally:
        ann.close()


def play_hand_and_get_stats(server: ServerProcess, name: str) -> tuple[str, dict[str, Any]]:
    """A table where ``name`` plays seat 0 against ``easy`` to the end of hand 1, then
    the statistics of ``name`` once they are ready."""
    table = new_table(server, "pagat", ["open", "easy", "easy", "easy"])
    token = join(server, table, 0, name)
    person = Client(server, table, token)
    try:
        state = person.wait(lambda m: m["type"] == "state" and m["view"] is not None)
        if person.my_move(state):
            person.act(choose(state))
        person.wait(lambda m: m["type"] == "state" and len(m["hands"]) >= 1, timeout=120,
                    play=True)
    finally:
        person.close()
    return table, wait_for_stats(server, name)


def wait_for_stats(server: ServerProcess, name: str) -> dict[str, Any]:
    """``GET /api/stats?name=`` until it is done (202 while the hands are reviewed)."""
    deadline = time.monotonic() + 300
    while True:
        status, body = request("GET", f"{server.url}/api/stats?name={name}")
        if status == 200:
            return dict(body)
        assert status == 202 and body["status"] == "running", body
        assert time.monotonic() < deadline, body
        time.sleep(0.3)


def test_stats_by_seat_name(server: ServerProcess) -> None:
    table, body = play_hand_and_get_stats(server, "Cyd")
    stats = body["stats"]
    assert stats["name"] == "Cyd" and stats["total"]["hands"] >= 1
    assert [g["source"] for g in stats["trend"]] == [f"web {table} game 1"]
    assert list(stats["by_opponents"]) == ["easy"]
    status, none = request("GET", f"{server.url}/api/stats?name=Nobody")
    while status == 202:
        time.sleep(0.2)
        status, none = request("GET", f"{server.url}/api/stats?name=Nobody")
    assert status == 200 and none["stats"]["total"]["hands"] == 0
    for bad in ("", "x" * 30):
        status, body = request("GET", f"{server.url}/api/stats?name={bad}")
        assert status == 422, body
    page = urllib.request.urlopen(f"{server.url}/stats?name=Cyd", timeout=10)
    assert page.status == 200 and 'src="/static/js/stats.js"' in page.read().decode()


def test_a_full_review_queue_is_busy(tmp_path: Path) -> None:
    """With one review thread and no queue, a second client's review while the first
    runs is refused (503 busy) and nothing of it is started; the review runs at the
    server's ``--review-time`` budget."""
    with ServerProcess(str(tmp_path / "t.db"), log=tmp_path / "server.log",
                       extra=("--review-queue", "0", "--review-time", "0.05")) as small:
        table = new_table(small, "pagat", ["open", "easy", "easy", "easy"])
        token = join(small, table, 0, "Dee")
        dee = Client(small, table, token)
        try:
            state = dee.wait(lambda m: m["type"] == "state" and m["view"] is not None)
            if dee.my_move(state):
                dee.act(choose(state))
            dee.wait(lambda m: m["type"] == "state" and len(m["hands"]) >= 1, timeout=120,
                     play=True)
        finally:
            dee.close()
        status, body = ask(small, table, 1, {"token": token})
        assert status == 202, body
        status, body = ask(small, table, 1, {"seat": 1}, source="127.0.0.2")
        assert (status, body["code"]) == (503, "busy"), body
        while (done := ask(small, table, 1, {"token": token}))[0] == 202:
            time.sleep(0.3)
        assert done[0] == 200 and done[1]["review"]["budget"]["time"] == 0.05, done
        # the first is done: the second client's review starts now
        status, body = ask(small, table, 1, {"seat": 1}, source="127.0.0.2")
        assert status == 202 and body["seat"] == 1, body
    for flag, value in (("--review-queue", "-1"), ("--review-time", "0"),
                        ("--review-time", "61")):
        bad = subprocess.run([sys.executable, "-m", "pinochlekit", "serve", flag, value],
                             capture_output=True, text=True, timeout=60, check=False)
        assert bad.returncode != 0 and flag in bad.stderr, (flag, value, bad.stderr)


def test_the_stats_summaries_survive_a_restart(tmp_path: Path) -> None:
    """The hands reviewed for the statistics page are kept beside the database
    (``tables-reviews.json`` for ``tables.db``, owner-only); a restarted server answers
    from them: the same statistics, and no hand reviewed again (the file is not
    rewritten)."""
    db = tmp_path / "tables.db"
    cache = tmp_path / "tables-reviews.json"
    with ServerProcess(str(db), log=tmp_path / "server.log") as first:
        _, before = play_hand_and_get_stats(first, "Dee")
    assert cache.exists() and cache.stat().st_mode & 0o777 == 0o600
    summaries = json.loads(cache.read_text())
    assert len(summaries) >= 1 and all(isinstance(v, dict) for v in summaries.values())
    written = cache.stat().st_mtime_ns
    with ServerProcess(str(db), log=tmp_path / "server2.log") as second:
        after = wait_for_stats(second, "Dee")
    assert after["stats"] == before["stats"]
    assert cache.stat().st_mtime_ns == written and json.loads(cache.read_text()) == summaries


def test_a_table_whose_game_has_not_started_has_no_hand(server: ServerProcess) -> None:
    """docs/web.md "Review": before the first deal there is no hand to review."""
    table = new_table(server, "doubledeck", ["open", "easy", "easy", "easy"])
    status, body = ask(server, table, 1, {"seat": 0})
    assert (status, body["code"]) == (404, "no_hand"), body  # no game started yet
    assert body["error"] == "no game has started at this table yet", body


@pytest.mark.parametrize(("rules", "first"), [("three", 1), ("two", 13), ("doubledeck", 17)])
def test_three_and_two_handed_and_double_deck_reviews_have_their_double_dummy_line(
        server: ServerProcess, rules: str, first: int) -> None:
    """docs/review.md "Double dummy": a three-handed hand's line from the first lead
    (the declarer's, by the three-seat solver), a two-handed one's from trick 13 with
    the note that says why, the double deck's over its last four tricks; the web
    review is the library's data."""
    seats = ["open"] + ["easy"] * {"three": 2, "two": 1, "doubledeck": 3}[rules]
    table = new_table(server, rules, seats)
    token = join(server, table, 0, "Cy")
    person = Client(server, table, token)
    try:
        state = person.wait(lambda m: m["type"] == "state" and m["view"] is not None)
        if person.my_move(state):
            person.act(choose(state))
        person.wait(lambda m: m["type"] == "state" and len(m["hands"]) >= 1, timeout=300,
                    play=True)
    finally:
        person.close()
    deadline = time.monotonic() + 300
    while True:
        status, body = ask(server, table, 1, {"token": token})
        if status == 200:
            break
        assert status == 202, body
        assert time.monotonic() < deadline, body
        time.sleep(0.3)
    review = body["review"]
    assert review["players"] == len(seats)
    line = review["double_dummy"]
    if rules == "two":
        assert [d["trick"] for d in line] == list(range(13, 25)), review
        assert "tricks 1 to 12" in review["double_dummy_note"]
        assert all(d["seat"] == 0 for d in line)
    elif rules == "doubledeck":  # docs/review.md "The double deck"
        assert [d["trick"] for d in line] in ([], [17, 18, 19, 20]), review
        assert review["decisions"], review
        if line:
            assert "double deck's solver" in review["double_dummy_note"], review
            assert line[-1]["perfect"] == line[-1]["actual"]
    elif line:  # a declarer played the hand: from the first lead, or the note says why
        assert line[0]["trick"] == first or "positions" in review["double_dummy_note"]
        assert line[-1]["trick"] == 15 and line[-1]["perfect"] == line[-1]["actual"]
    else:
        assert review["double_dummy_note"].startswith("none:"), review
