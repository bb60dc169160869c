"""Shared helpers of the web server tests (``test_web_api.py``: four-handed,
``test_web_games.py``: three- and two-handed): JSON over HTTP, a WebSocket client
of one table, a legal action from a state's compact legal form, and making and
joining tables, all against a real ``pinochle serve`` subprocess.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from pinochlekit.web.process import ServerProcess
from pinochlekit.web.storage import TableRow, TableStore

__all__ = ["Client", "Message", "choose", "join", "new_table", "pg_url", "request", "serve"]

Message = dict[str, Any]


def serve(tmp_path_factory: pytest.TempPathFactory, name: str) -> Iterator[ServerProcess]:
    """The body of a test module's ``server`` fixture: ``pinochle serve`` on a fresh
    SQLite file in a temporary directory named ``name`` (the per-address creation
    limit lifted), stopped afterwards."""
    base = tmp_path_factory.mktemp(name)
    # one client (127.0.0.1) makes every table of a module: no per-address creation limit
    with ServerProcess(str(base / "tables.db"), log=base / "server.log",
                       extra=("--create-limit", "100000")) as srv:
        yield srv


def request(method: str, url: str, body: Any = None, source: str | None = None) -> tuple[int, Any]:
    """Send ``body`` as JSON; the status and the JSON answer (also of an error).
    ``source``: connect from this loopback address (e.g. ``127.0.0.2``), as another
    client would."""
    data = None if body is None else json.dumps(body).encode()
    if source is not None:
        host, _, rest = url.removeprefix("http://").partition("/")
        name, _, port = host.partition(":")
        conn = http.client.HTTPConnection(name, int(port), timeout=20,
                                          source_address=(source, 0))
        try:
            conn.request(method, "/" + rest, body=data,
                         headers={"Content-Type": "application/json"})
            response = conn.getresponse()
            return response.status, json.loads(response.read() or b"null")
        finally:
            conn.close()
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=20) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def new_table(server: ServerProcess, rules: str, seats: list[str], *,
              source: str | None = None, **settings: Any) -> str:
    """Create a table (computers move at once: pace 0, unless ``settings`` say
    otherwise), from the loopback address ``source`` if given; its id."""
    status, body = request("POST", server.url + "/api/tables",
                           {"rules": rules, "seats": seats, "pace": 0, **settings},
                           source=source)
    assert status == 201, body
    return str(body["id"])


def join(server: ServerProcess, table_id: str, seat: int, name: str) -> str:
    """Take an open seat; its token."""
    status, body = request("POST", f"{server.url}/api/tables/{table_id}/join",
                           {"seat": seat, "name": name})
    assert status == 200, body
    return str(body["token"])


def stored_table(url: str, table_id: str) -> TableRow:
    """The table as a server stored it (``url``: its SQLite file or PostgreSQL), read
    through a connection of its own; the table must be there."""
    store = TableStore.open(url)
    try:
        row = store.load_table(table_id)
    finally:
        store.close()
    assert row is not None, f"table {table_id} is not stored"
    return row


def pg_url() -> str:
    """The PostgreSQL server of the tests, or skip (``.ci/run`` always sets it)."""
    url = os.environ.get("PINOCHLEKIT_TEST_PG")
    if not url:
        pytest.skip("PINOCHLEKIT_TEST_PG is not set (.ci/run always sets it)")
    return url


def choose(state: Message, bidder: bool = False) -> str:
    """A legal action from the compact legal form: the first cards to pass or
    discard, a two-handed meld turn's first meld, else the dix, else no meld (so
    meld turns are exercised), the last card or trump offered, else pass.
    ``bidder``: bid the lowest legal bid whenever bidding is open."""
    view = state["view"]
    legal = view["legal"]
    if legal["pass_cards"]:
        verb = {"give": "give", "return": "return", "discard": "discard"}[view["phase"]]
        return f"{verb} " + " ".join(view["hand"].split()[:legal["pass_cards"]])
    if view.get("meld_options"):
        return str(view["meld_options"][0]["action"])
    for word in ("dix", "no meld"):
        if word in legal["actions"]:
            return word
    plays = [a for a in legal["actions"] if a.startswith(("play", "trump"))]
    if plays:
        return str(plays[-1])
    if legal["bid"] and (bidder or "pass" not in legal["actions"]):
        return f"bid {legal['bid']['min']}"
    return "pass"


class Client:
    """A WebSocket client of one table, seated (with a token) or watching.

    ``strict`` (the default): :meth:`wait` fails on an error message its predicate
    does not ask for (but ``stale``: the table moved on, which happens). A test
    that provokes errors it does not wait for each (a flood of messages) passes
    ``strict=False``. ``source``: connect from this loopback address.

    A state carries only the finished hands not sent before (``hands_from``): the
    client keeps them as the page does, so every state it returns has them all
    (the one received as it came is in :attr:`texts`).
    """

    def __init__(self, server: ServerProcess, table_id: str, token: str | None = None,
                 *, strict: bool = True, source: str | None = None) -> None:
        self._stack = contextlib.ExitStack()
        extra: dict[str, Any] = {} if source is None else {"source_address": (source, 0)}
        self.ws: ClientConnection = self._stack.enter_context(
            connect(f"{server.ws_url}/ws/{table_id}", open_timeout=10, **extra))
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.strict = strict
        self.state: Message | None = None
        self.texts: list[str] = []
        self.acted = -1
        self.sent = 0.0
        self.hands: list[Message] = []
        self.hands_game = -1

    def recv(self, timeout: float = 20) -> Message:
        """The next message (kept in :attr:`texts`; a state also in :attr:`state`)."""
        text = self.ws.recv(timeout)
        assert isinstance(text, str)
        self.texts.append(text)
        message: Message = json.loads(text)
        if message["type"] == "state":
            game_no = message["table"]["game_no"]
            kept = self.hands if game_no == self.hands_game else []
            start = message.get("hands_from", 0)
            assert start <= len(kept), f"hands from {start}, but {len(kept)} received"
            self.hands = message["hands"] = kept[:start] + message["hands"]
            self.hands_game = game_no
            self.state = message
        return message

    def wait(self, predicate: Callable[[Message], bool], timeout: float = 60,
             play: bool = False) -> Message:
        """The next message that satisfies ``predicate``; with ``play``, take this
        seat's turns meanwhile (:func:`choose`)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out; last state: {json.dumps(self.state)[:1500]}")
            try:
                message = self.recv(left)
            except TimeoutError:
                raise AssertionError(f"timed out; last state: {json.dumps(self.state)[:1500]}")\
                    from None
            if predicate(message):
                return message
            if self.strict and message["type"] == "error" and message["code"] != "stale":
                raise AssertionError(message)
            if play and self.my_move(message):
                self.act(choose(message))

    def my_turn(self) -> Message:
        """The next state in which this seat is to act."""
        return self.wait(lambda m: m["type"] == "state" and m["view"] is not None
                         and m["view"]["to_act"] == m["seat"])

    def send(self, message: Any) -> None:
        """Send text or bytes as they are, anything else as JSON."""
        self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def act(self, action: str, ply: int | None = None) -> None:
        """Send an action for the ply of the last state (or ``ply``)."""
        assert self.state is not None
        ply = self.state["ply"] if ply is None else ply
        self.acted = ply
        # a person acts at most a few times a second: stay inside the server's rate limit
        # (10 messages a second), which a seat leading after its own meld turn could pass
        time.sleep(max(0.0, self.sent + 0.12 - time.monotonic()))
        self.sent = time.monotonic()
        self.send({"type": "act", "action": action, "ply": ply})

    def my_move(self, message: Message) -> bool:
        """Whether ``message`` is a state where this seat must act and has not yet
        (the same state can come twice: every connection and departure is broadcast)."""
        return (message["type"] == "state" and message["view"] is not None
                and message["view"]["to_act"] == message["seat"]
                and message["ply"] != self.acted)

    def close(self) -> None:
        """Close the connection."""
        self._stack.close()
