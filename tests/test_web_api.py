"""The web server through its real surface: HTTP and WebSocket against `pinochle serve`
running in a subprocess, with a real SQLite file and (when PINOCHLEKIT_TEST_PG is set,
as .ci/run does) a real PostgreSQL server."""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import Client, Message, choose, join, new_table, pg_url, request, serve
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from pinochlekit.engine.cards import Hand
from pinochlekit.engine.deals import deal
from pinochlekit.web.process import ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "web")


def test_join_then_act_and_see_the_result(server: ServerProcess) -> None:
    table = new_table(server, "pagat", ["open", "simple", "simple", "simple"], title="Club night")
    status, info = request("GET", f"{server.url}/api/tables/{table}")
    assert status == 200 and info["status"] == "waiting" and info["title"] == "Club night"
    listed = request("GET", server.url + "/api/tables")[1]["tables"]
    assert table in [t["id"] for t in listed]
    token = join(server, table, 0, "Ann")
    client = Client(server, table, token)
    assert client.recv() == {"type": "welcome", "seat": 0, "table": table}
    state = client.my_turn()
    assert state["seat"] == 0 and state["table"]["seats"][0]["name"] == "Ann"
    assert len(Hand.parse(state["view"]["hand"])) == 12
    assert len(state["deal"]["commitment"]) == 64
    ply = state["ply"]
    action = choose(state)
    client.act(action)
    after = client.wait(lambda m: m["type"] == "state" and m["ply"] > ply)
    if state["view"]["phase"] == "auction":
        assert [0, action] in after["view"]["auction"]
    client.close()


def test_a_stale_action_is_rejected_with_a_fresh_view(server: ServerProcess) -> None:
    table = new_table(server, "pagat", ["open", "simple", "simple", "simple"])
    client = Client(server, table, join(server, table, 0, "Ann"))
    state = client.my_turn()
    client.act(choose(state), ply=state["ply"] - 1)
    error = client.wait(lambda m: m["type"] == "error")
    assert error["code"] == "stale" and "moved on" in error["message"]
    fresh = client.wait(lambda m: m["type"] == "state")
    assert fresh["ply"] == state["ply"]  # nothing changed
    # a long stale text is not echoed back whole (docs/web.md "Limits and bad input")
    client.act("bid " + "9" * 3000, ply=state["ply"] - 1)
    long = client.wait(lambda m: m["type"] == "error")
    assert long["code"] == "stale" and len(long["message"]) < 200, len(long["message"])
    fresh = client.wait(lambda m: m["type"] == "state")
    client.act(choose(fresh))
    client.wait(lambda m: m["type"] == "state" and m["ply"] > state["ply"])
    client.close()


def test_nobody_acts_for_another_seat(server: ServerProcess) -> None:
    table = new_table(server, "pagat", ["open", "open", "simple", "simple"])
    ann = Client(server, table, join(server, table, 0, "Ann"))
    bob = Client(server, table, join(server, table, 1, "Bob"))
    state = ann.wait(lambda m: m["type"] == "state" and m["view"] is not None
                     and m["view"]["to_act"] in (0, 1))
    bob.wait(lambda m: m["type"] == "state" and m["view"] is not None
             and m["ply"] == state["ply"])
    waiting, acting = (bob, ann) if state["view"]["to_act"] == 0 else (ann, bob)
    waiting.act("pass")
    error = waiting.wait(lambda m: m["type"] == "error")
    assert error["code"] == "not_your_turn" and "turn" in error["message"]
    # an illegal action by the seat to act names the rule, and changes nothing
    acting.act("bid 255")
    error = acting.wait(lambda m: m["type"] == "error")
    assert error["code"] == "illegal" and "illegal bid 255 by seat" in error["message"]
    spectator = Client(server, table)
    watch = spectator.wait(lambda m: m["type"] == "state")
    assert watch["seat"] is None and watch["view"]["hand"] is None
    spectator.act("pass", ply=watch["ply"])
    assert spectator.wait(lambda m: m["type"] == "error")["code"] == "spectator"
    for client in (ann, bob, spectator):
        client.close()


def play_hand(client: Client, hand_number: int) -> None:
    """Play seat's turns until hand ``hand_number`` is over."""
    while True:
        message = client.recv()
        if message["type"] == "error" and message["code"] != "stale":
            raise AssertionError(message)
        if message["type"] != "state" or message["view"] is None:
            continue
        if len(message["hands"]) >= hand_number or message["view"]["phase"] == "game over":
            return
        if client.my_move(message):
            client.act(choose(message))


def test_other_hands_are_never_sent_and_the_deal_is_provably_fair(
        server: ServerProcess, tmp_path: Path) -> None:
    table = new_table(server, "pagat", ["open", "open", "simple", "simple"])
    tokens = [join(server, table, 0, "Ann"), join(server, table, 1, "Bob")]
    ann, bob = Client(server, table, tokens[0]), Client(server, table, tokens[1])
    first = ann.wait(lambda m: m["type"] == "state" and m["view"] is not None)
    shown = first["deal"]["commitment"]
    dealt_to_ann = first["view"]["hand"]
    spectator = Client(server, table)
    # Bob plays in a thread-free way: alternate reading both connections
    deadline = time.monotonic() + 120
    while not (ann.state and len(ann.state["hands"]) >= 1):
        assert time.monotonic() < deadline, ann.state
        for client in (ann, bob, spectator):
            try:
                message = client.recv(0.05)
            except TimeoutError:
                continue
            if message["type"] == "error" and message["code"] != "stale":
                raise AssertionError(message)
            if message["type"] == "state" and not message["hands"] and client.my_move(message):
                view = message["view"]
                if client is ann and view["phase"] == "auction" and view["legal"]["bid"] \
                        and not any(s == 0 for s, _ in view["auction"]):
                    # Ann bids once, so somebody declares and the cards are passed
                    client.act(f"bid {view['legal']['bid']['min']}")
                else:
                    client.act(choose(message))
    hand = ann.state["last_hand"]
    assert hand["number"] == 1 and len(ann.state["hands"]) == 1
    assert hand["commitment"] == shown == hashlib.sha256(hand["deal_seed"].encode()).hexdigest()
    dealt = [str(h) for h in deal(hand["deal_seed"], hand["dealer"])]
    assert dealt == hand["dealt"] and dealt[0] == dealt_to_ann
    # Nothing Ann, Bob or the spectator received during the hand holds another seat's
    # hand or the seed; the seat not passing sees no passed card (docs/rules.md §1 Passing).
    passers: set[int] = set()
    passed = False
    for viewer, client in ((0, ann), (1, bob), (None, spectator)):
        # during the first hand: no finished hand yet (later states carry only new ones)
        during = [t for t in client.texts if '"hands":[]' in t and '"hands_from":0' in t]
        assert during
        for text in during:
            assert hand["deal_seed"] not in text
            for seat in range(4):
                if seat != viewer:
                    assert dealt[seat] not in text
            state = json.loads(text)
            if state["type"] != "state" or state["view"] is None:
                continue
            view = state["view"]
            if view["declarer"] is not None:
                passers = {view["declarer"], (view["declarer"] + 2) % 4}
            passed = passed or str((state["last"] or {}).get("action", "")).startswith("give")
            # the hand field holds only this seat's own cards: dealt or passed to it
            if viewer is None:
                assert view["hand"] is None
            else:
                # counted as words: a card given and handed back again makes three
                # copies of dealt-plus-received, more than a Hand holds
                own = Counter(dealt[viewer].split())
                received = view["given"] if viewer == view["declarer"] else view["returned"]
                if viewer in passers and received:
                    own.update(received.split())
                held = Counter((view["hand"] or "").split())
                assert all(held[c] <= own[c] for c in held), (viewer, view)
            if passers and viewer not in passers:
                assert view["given"] is None and view["returned"] is None, (viewer, view)
                assert not re.search(r'(give|return)[^"]*? [2-9TJQKA][SHDC]', text), text
    assert passers and passed, "nobody declared: the passing path was not exercised"
    assert {0, 1, None} - passers, "a human or the spectator is always a non-passer here"
    spectator.close()
    # pinochle verify recomputes the deal from the revealed seed
    done = subprocess.run([sys.executable, "-m", "pinochlekit", "verify", hand["deal_seed"],
                           "--dealer", str(hand["dealer"]), "--commitment", shown],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert f"seat 0: {dealt[0]}" in done.stdout and "matches" in done.stdout
    wrong = subprocess.run([sys.executable, "-m", "pinochlekit", "verify", hand["deal_seed"],
                            "--dealer", "0", "--commitment", "0" * 64],
                           capture_output=True, text=True, timeout=60, check=False)
    assert wrong.returncode == 1 and "does not match" in wrong.stderr
    # history and step-by-step replay of the finished hand
    status, history = request("GET", f"{server.url}/api/tables/{table}/history")
    assert status == 200 and history["games"][0]["hands"][0]["deal_seed"] == hand["deal_seed"]
    status, replay = request("GET", f"{server.url}/api/tables/{table}/games/0/hands/1")
    assert status == 200 and replay["steps"][0]["view"]["hands"] == dealt
    assert replay["result"]["outcome"] == hand["outcome"]
    status, _ = request("GET", f"{server.url}/api/tables/{table}/games/0/hands/2")
    assert status == 404  # hand 2 is in progress: not shown
    ann.close()
    bob.close()


def test_bad_input_gets_clear_errors_and_breaks_nothing(server: ServerProcess) -> None:
    table = new_table(server, "pagat", ["open", "simple", "simple", "simple"])
    # not strict: the flood below brings more rate_limited errors than the test waits for
    client = Client(server, table, join(server, table, 0, "Ann"), strict=False)
    client.my_turn()

    def error_for(message: Any) -> Message:
        client.send(message)
        return client.wait(lambda m: m["type"] == "error")

    assert error_for("{not json")["code"] == "bad_json"
    deep = "[" * 1500 + "]" * 1500  # 3 KB: deeper than the decoder's recursion allows
    assert error_for(deep)["code"] == "bad_json"
    assert error_for("[1, 2]")["code"] == "bad_message"
    assert error_for({"type": "shout"})["code"] == "unknown_type"
    assert error_for({"type": "act", "action": "play AS"})["code"] == "bad_message"
    assert error_for({"type": "act", "action": "dance", "ply": 0})["code"] in (
        "bad_action", "stale")
    assert error_for(b"\x00\x01")["code"] == "bad_message"
    assert error_for(json.dumps({"type": "ping", "pad": "x" * 5000}))["code"] == "too_large"
    for _ in range(60):
        client.send({"type": "ping"})
    assert client.wait(lambda m: m["type"] == "error")["code"] == "rate_limited"
    time.sleep(3.5)  # the bucket refills
    client.send({"type": "ping"})
    client.wait(lambda m: m["type"] == "pong")
    state = client.state
    assert state is not None and state["view"]["to_act"] == 0
    client.act(choose(state))
    client.wait(lambda m: m["type"] == "state" and m["ply"] > state["ply"])
    client.close()
    # bad HTTP input: one clear line each, and the server still answers
    assert request("POST", server.url + "/api/tables", {"rules": "pagat(min_bid=7)"})[0] == 400
    status, body = request("POST", server.url + "/api/tables", {"seats": ["open", "x"]})
    assert status == 400 and "4 seats" in body["error"]
    status, body = request("POST", server.url + "/api/tables",
                           {"seats": ["open", "cmd:rm -rf /", "easy", "easy"]})
    assert status == 400 and "computer level" in body["error"]
    status, body = request("POST", f"{server.url}/api/tables/{table}/join",
                           {"seat": 0, "name": "Eve"})
    assert status == 409 and "not open" in body["error"]
    status, body = request("POST", f"{server.url}/api/tables/{table}/join",
                           {"seat": 1, "name": "x" * 40})
    assert status == 422 and "name" in body["error"]
    assert request("GET", server.url + "/api/tables/nosuchtable")[0] == 404
    with connect(f"{server.ws_url}/ws/nosuchtable", open_timeout=10) as ws:
        assert json.loads(ws.recv(10))["code"] == "no_table"
    assert request("GET", server.url + "/api/tables")[0] == 200
    # deeply nested JSON counts as a violation: 51 of them (within the rate limit)
    # close the connection with 1008, as any other bad message would
    watcher = Client(server, table)
    for number in range(51):
        watcher.send(deep)
        time.sleep(0 if number < 20 else 0.15)
    codes = []
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            message = watcher.recv(10)
            if message["type"] == "error":
                codes.append(message["code"])
    assert set(codes) == {"bad_json"} and len(codes) >= 50, codes  # the 51st: closed
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    watcher.close()


def test_a_seat_away_past_the_grace_period_gets_a_standin(server: ServerProcess) -> None:
    # pace 0.3: each computer move gets its own broadcast (a client's queued states
    # are otherwise merged into the newest)
    table = new_table(server, "pagat", ["open", "open", "simple", "simple"], grace=0.3, pace=0.3)
    ann = Client(server, table, join(server, table, 0, "Ann"))
    bob_token = join(server, table, 1, "Bob")  # Bob never connects at first
    moved = ann.wait(lambda m: m["type"] == "state" and m["last"] is not None
                     and m["last"]["seat"] == 1, play=True, timeout=60)
    assert moved["last"]["actor"] == "standin"
    assert moved["table"]["seats"][1]["standin"]
    assert not moved["table"]["seats"][1]["connected"]
    bob = Client(server, table, bob_token)
    back = bob.wait(lambda m: m["type"] == "state")
    assert back["seat"] == 1 and not back["table"]["seats"][1]["standin"]
    assert back["table"]["seats"][1]["connected"]
    ann.close()
    bob.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_restart_mid_trick_resumes_every_table_exactly(backend: str, tmp_path: Path) -> None:
    db = str(tmp_path / "tables.db") if backend == "sqlite" else pg_url()
    first = ServerProcess(db, log=tmp_path / "first.log").start()
    try:
        table = new_table(first, "pagat", ["open", "open", "simple", "simple"])
        tokens = [join(first, table, 0, "Ann"), join(first, table, 1, "Bob")]
        clients = [Client(first, table, t) for t in tokens]
        before: Message | None = None
        deadline = time.monotonic() + 90
        while before is None:
            assert time.monotonic() < deadline, [c.state for c in clients]
            for client in clients:
                try:
                    message = client.recv(0.05)
                except TimeoutError:
                    continue
                if message["type"] != "state" or message["view"] is None:
                    continue
                view = message["view"]
                if (view["phase"] == "play" and view["trick"] and view["to_act"] == 0
                        and message["seat"] == 0):
                    before = message
                    break
                if client.my_move(message):
                    client.act(choose(message))
        time.sleep(0.2)
    finally:
        first.stop(kill=True)  # kill -9 (a power cut is what synchronous=FULL is for)
    second = ServerProcess(db, log=tmp_path / "second.log").start()
    try:
        ann = Client(second, table, tokens[0])
        after = ann.wait(lambda m: m["type"] == "state")
        assert after["ply"] == before["ply"]
        for key in ("hand", "trick", "tricks", "auction", "melds", "scores", "trump",
                    "contract", "declarer", "legal", "given", "returned"):
            assert after["view"][key] == before["view"][key], key
        assert after["deal"] == before["deal"]
        ann.act(choose(after))
        moved = ann.wait(lambda m: m["type"] == "state" and m["ply"] > after["ply"])

        def played(view: Message) -> list[str]:
            return [c for t in view["tricks"] for c in t["cards"].split()] + [
                c for _, c in view["trick"]]

        assert played(moved["view"])[:len(played(before["view"]))] == played(before["view"])
        ann.close()
    finally:
        second.stop()


def test_postgresql_unreachable_is_one_clear_line(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "pinochlekit", "serve", "--db",
                           "postgresql://nobody@127.0.0.1:9/none", "--port", "1"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stderr.startswith("pinochle: error: cannot connect to postgresql://nobody@")


def test_verify_and_serve_usage_errors_are_one_line() -> None:
    for args, message in ((["verify", "abc", "--dealer", "7"], "--dealer must be a seat"),
                          (["serve", "--port", "0"], "--port must be from 1 to 65535")):
        done = subprocess.run([sys.executable, "-m", "pinochlekit", *args], capture_output=True,
                              text=True, timeout=60, check=False)
        assert done.returncode == 2 and done.stderr.startswith("pinochle: error: ")
        assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_game_over_then_a_rematch_at_the_same_table(server: ServerProcess) -> None:
    table = new_table(server, "pagat(target=100)", ["open", "simple", "simple", "simple"])
    client = Client(server, table, join(server, table, 0, "Ann"))
    client.send({"type": "rematch"})
    assert client.wait(lambda m: m["type"] == "error")["code"] == "not_over"
    over = client.wait(lambda m: m["type"] == "state" and m["view"] is not None
                       and m["view"]["phase"] == "game over", timeout=120, play=True)
    assert over["table"]["status"] == "over" and over["view"]["winner"] in (0, 1)
    assert max(over["view"]["scores"]) >= 100 and over["deal"] is None
    assert table not in [t["id"] for t in request("GET", server.url + "/api/tables")[1]["tables"]]
    client.send({"type": "rematch"})
    again = client.wait(lambda m: m["type"] == "state" and m["table"]["game_no"] == 2)
    assert again["ply"] == 0 and again["view"]["scores"] == [0, 0] and again["hands"] == []
    history = request("GET", f"{server.url}/api/tables/{table}/history")[1]
    assert [g["over"] for g in history["games"]] == [True, False]
    assert history["games"][0]["winner"] == over["view"]["winner"]
    # the history keeps every finished hand of both games, each with its replay
    first_game = [h["deal_seed"] for h in over["hands"]]
    assert len(first_game) >= 1
    client.acted = -1  # plies count from 0 again in the new game
    if client.my_move(again):  # the new game's first turn may be this seat's
        client.act(choose(again))
    played = client.wait(lambda m: m["type"] == "state" and len(m["hands"]) >= 1,
                         timeout=60, play=True)
    history = request("GET", f"{server.url}/api/tables/{table}/history")[1]
    games = history["games"]
    assert [g["game_no"] for g in games] == [0, 1]
    assert [h["deal_seed"] for h in games[0]["hands"]] == first_game
    assert [h["number"] for h in games[0]["hands"]] == list(range(1, len(first_game) + 1))
    second = [h["deal_seed"] for h in games[1]["hands"]]
    assert second[:1] == [played["hands"][0]["deal_seed"]] and not set(second) & set(first_game)
    for game in games:
        for hand in game["hands"]:
            status, replay = request(
                "GET", f"{server.url}/api/tables/{table}/games/{game['game_no']}/hands/"
                f"{hand['number']}")
            assert status == 200 and replay["result"]["deal_seed"] == hand["deal_seed"]
    page = urllib.request.urlopen(f"{server.url}/history/{table}", timeout=10)
    assert page.status == 200 and 'src="/static/js/history.js"' in page.read().decode()
    client.close()


def test_the_address_cap_counts_clients_from_accept_on(server: ServerProcess) -> None:
    table = new_table(server, "pagat", ["open", "simple", "simple", "simple"])
    with contextlib.ExitStack() as stack:
        # clients that connect and never say hello count against their address's cap
        # (docs/web.md "Security and limits"; tests/test_web_security.py: a seat still
        # gets in)
        for _ in range(100):
            stack.enter_context(connect(f"{server.ws_url}/ws/{table}", open_timeout=10))
        with connect(f"{server.ws_url}/ws/{table}", open_timeout=10) as late:
            late.send(json.dumps({"type": "hello"}))  # a spectator: refused (a seat is not)
            assert json.loads(late.recv(10))["code"] == "full"
            with pytest.raises(ConnectionClosed) as closed:
                late.recv(10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
    # once they have gone, there is room again
    time.sleep(1)
    watcher = Client(server, table)
    assert watcher.recv()["type"] == "welcome"
    watcher.close()


def test_a_bad_hello_gets_a_clear_error_and_the_seat_still_gets_in(
        server: ServerProcess) -> None:
    # docs/web.md "Limits and bad input": binary is answered bad_hello, a token that
    # holds no seat bad_token; the socket watches as a spectator ("The WebSocket
    # protocol": the hello's token), and the server goes on serving the seat.
    table = new_table(server, "pagat", ["open", "simple", "simple", "simple"])
    token = join(server, table, 0, "Ann")
    hellos: list[tuple[str | bytes, str]] = [
        (b'{"type": "hello"}', "bad_hello"),
        (json.dumps({"type": "hello", "token": 12345}), "bad_token"),
        (json.dumps({"type": "hello", "token": ["x"]}), "bad_token"),
        ('{"type": "hello", "token": "\\ud800"}', "bad_token"),  # a lone surrogate
    ]
    for hello, code in hellos:
        with connect(f"{server.ws_url}/ws/{table}", open_timeout=10) as ws:
            ws.send(hello)
            first = json.loads(ws.recv(10))
            assert first["type"] == "error" and first["code"] == code, (hello, first)
            welcome = json.loads(ws.recv(10))
            assert welcome["type"] == "welcome" and welcome["seat"] is None, (hello, welcome)
            ws.send(json.dumps({"type": "ping"}))
            while json.loads(ws.recv(10))["type"] != "pong":
                pass  # the state and anything else before the pong
    ann = Client(server, table, token)
    assert ann.wait(lambda m: m["type"] == "welcome")["seat"] == 0
    ann.close()
