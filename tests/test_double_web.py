"""Double-deck tables (docs/rules.md §6, docs/web.md "The double deck") through the real
surface: `pinochle serve` in a subprocess, HTTP and WebSockets, a real SQLite file.

A whole hand is played by the test for every seat (with cards passed between
partners), and every message each seat and a spectator receive is checked against
the truth the server reveals once the hand is over (the replay shows every seat's
cards before each action): the hand field is exactly the seat's 20 cards, no other
seat's hand appears, and no card a seat cannot see is named. With four copies of each
card, a card kind is "seen" only by the copies the seat may know of: a message names a
kind at most as many times as the seat may account for it.
"""

from __future__ import annotations

import collections
import json
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from web_helpers import Client, Message, choose, join, new_table, request, serve

from pinochlekit.engine.double.cards import DoubleHand
from pinochlekit.engine.record import GameRecord
from pinochlekit.players import DOUBLE_LEVELS
from pinochlekit.web.dealing import dealt_cards
from pinochlekit.web.messages import commitment
from pinochlekit.web.process import ServerProcess

CARD = re.compile(r"\b[9TJQKA][SHDC]\b")
PASSING = "doubledeck(cards_passed=3)"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "web-double")


def drive(clients: dict[int | None, Client], until: Callable[[], bool],
          bidder: int | None = None, timeout: float = 240) -> None:
    """Read every connection in turn, each seat taking its turns, until ``until()``."""
    deadline = time.monotonic() + timeout
    while not until():
        assert time.monotonic() < deadline, [c.state for c in clients.values()]
        for seat, client in clients.items():
            try:
                message = client.recv(0.02)
            except TimeoutError:
                continue
            if message["type"] == "error" and message["code"] != "stale":
                raise AssertionError(message)
            if seat is not None and client.my_move(message):
                client.act(choose(message, bidder=seat == bidder))


def counts(text: str | None) -> collections.Counter[str]:
    """How many times each card is named in ``text``."""
    return collections.Counter(CARD.findall(text or ""))


def known(step: Message, viewer: int | None, result: Message) -> collections.Counter[str]:
    """The copies of each card ``viewer`` may account for at a replay ``step``: its own
    cards, every card played, each seat's meld shown (a card may serve in several
    melds: the most copies any one meld names), and, for the declarer and partner, the
    cards passed between them."""
    view = step["view"]
    seen: collections.Counter[str] = collections.Counter()
    if viewer is not None:
        seen += counts(view["hands"][viewer])
    for trick in view["tricks"]:
        seen += counts(trick["cards"])
    seen += collections.Counter(card for _, card in view["trick"])
    for meld in view["melds"] or []:
        seen += counts(meld["shown"])
    return seen


def check_no_leaks(client: Client, viewer: int | None, steps: list[Message],
                   result: Message) -> int:
    """Every state of hand 1 the client received: the hand field is exactly the seat's
    cards (all 20 at the deal), no other seat's dealt hand and no deal seed appears, and
    no card is named more often in a field than the viewer may account for. Returns how
    many states were checked."""
    dealt = result["dealt"]
    checked = 0
    for text in client.texts:
        message = json.loads(text)
        if message["type"] != "state" or message["view"] is None or message["hands"] \
                or message["hands_from"]:
            continue
        assert result["deal_seed"] not in text
        for seat in range(4):
            if seat != viewer:
                assert dealt[seat] not in text, (viewer, seat)
        view = message["view"]
        step = steps[message["ply"]]
        if viewer is None:
            assert view["hand"] is None
        else:
            mine = DoubleHand.parse(view["hand"])
            assert mine == DoubleHand.parse(step["view"]["hands"][viewer]), (viewer, step)
        allowed = known(step, viewer, result)
        partners = viewer is not None and view["declarer"] is not None and \
            viewer % 2 == view["declarer"] % 2
        for key in ("given", "returned"):  # docs/rules.md §6 passing: the partners alone
            assert view[key] is None or partners, (viewer, key, view[key])
            if view[key]:
                allowed += counts(view[key])
        # the meld shown is public: exactly the replay's (every seat's cards before each action)
        assert view["melds"] == step["view"]["melds"], (viewer, message["ply"])
        # every other field apart from the rules text and the seat's own hand (above)
        for key, value in view.items():
            if key in ("rules", "hand", "legal", "melds"):
                continue
            named = counts(json.dumps(value))
            assert not named - allowed, (viewer, message["ply"], key, named - allowed)
        plays = {a.split()[1] for a in view["legal"]["actions"] if a.startswith("play ")}
        assert not plays or (viewer is not None and plays <= set(view["hand"].split()))
        last = (message["last"] or {}).get("action", "")
        assert not counts(last) - allowed, (viewer, last)
        checked += 1
    return checked


def verify(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pinochlekit", "verify", *args],
                          capture_output=True, text=True, timeout=60, check=False)


def test_the_lobby_offers_the_double_deck_with_its_options_and_levels(
        server: ServerProcess) -> None:
    meta = request("GET", f"{server.url}/api/meta")[1]
    preset = {p["name"]: p for p in meta["presets"]}["doubledeck"]
    assert preset["players"] == 4 and preset["deck"] == "double"
    # docs/rules.md §6: its own options offered, the single deck's meld options hidden
    assert preset["offered"]["bid_ladder"] == ["five_from_60", "by_one", "ten_from_100"]
    assert preset["offered"]["arounds"] == ["standard", "doubling"]
    assert {"run_extra", "doubles", "pass_with_help", "nines_redeal"} <= set(preset["fixed"])
    assert "cards_passed" not in preset["fixed"] and preset["values"]["min_bid"] == 50
    pagat = {p["name"]: p for p in meta["presets"]}["pagat"]
    assert {"bid_ladder", "arounds", "meld_counters"} <= set(pagat["fixed"])
    # the levels that play the double deck, from the one list
    assert meta["levels_double"] == [n for n in meta["levels"] if n in DOUBLE_LEVELS]
    status, body = request("POST", server.url + "/api/tables",
                           {"rules": "doubledeck", "seats": ["open", "expert", "open", "open"]}
                           if "expert" not in DOUBLE_LEVELS else
                           {"rules": "doubledeck", "seats": ["open", "cmd:x", "open", "open"]})
    assert status in (400, 422) and "open" in json.dumps(body), body
    # the default seats and stand-in are levels that play it
    status, body = request("POST", server.url + "/api/tables", {"rules": "doubledeck"})
    assert status == 201, body
    info = request("GET", f"{server.url}/api/tables/{body['id']}")[1]
    assert info["settings"]["standin"] in DOUBLE_LEVELS
    assert [s["kind"] for s in info["seats"][1:]] == [meta["levels_double"][-1]] * 3
    status, body = request("POST", server.url + "/api/tables",
                           {"rules": "doubledeck(widow=take)"})
    assert status == 400 and "widow" in body["error"], body


def test_a_double_deck_hand_over_websockets_leaks_nothing(server: ServerProcess) -> None:
    table = new_table(server, PASSING, ["open"] * 4)
    tokens = [join(server, table, seat, name)
              for seat, name in enumerate(("Ann", "Bob", "Cy", "Di"))]
    clients: dict[int | None, Client] = {s: Client(server, table, t)
                                         for s, t in enumerate(tokens)}
    clients[None] = Client(server, table)
    ann = clients[0]
    first = ann.wait(lambda m: m["type"] == "state" and m["view"] is not None)
    view = first["view"]
    assert view["deck"] == "double" and view["tricks_total"] == 20
    assert len(DoubleHand.parse(view["hand"])) == 20 and view["hand_sizes"] == [20] * 4
    shown = first["deal"]["commitment"]
    # Ann bids whenever she may, the others pass: Ann declares; Cy gives her 3 cards
    # and she returns 3 (docs/rules.md §6 passing)
    drive(clients, lambda: bool(ann.state and ann.state["hands"]), bidder=0)
    assert ann.state is not None
    hand = ann.state["last_hand"]
    assert hand["declarer"] == 0 and hand["deck"] == "double" and hand["tricks"] == 20
    assert hand["commitment"] == shown == commitment(hand["deal_seed"])
    truth = dealt_cards(hand["deal_seed"], hand["dealer"], deck="double")
    assert hand["dealt"] == list(truth.hands) and hand["dealt"][0] == view["hand"]
    assert all(len(h.split()) == 20 for h in hand["dealt"])
    # the meld in §6's words, with its cards
    names = {item["name"] for meld in hand["melds"] for item in meld["items"]}
    assert names and all(re.fullmatch(r"((double|triple|quadruple) )?(run|royal marriage|"
                                      r"common marriage|(aces|kings|queens|jacks) around|"
                                      r"pinochle)", n) for n in names), names
    status, replay = request("GET", f"{server.url}/api/tables/{table}/games/0/hands/1")
    assert status == 200 and replay["steps"][0]["view"]["hands"] == hand["dealt"]
    steps = replay["steps"]
    assert [s["action"].split()[0] for s in steps].count("play") == 80
    assert any(s["action"].startswith("give ") for s in steps)
    assert any(s["action"].startswith("return ") for s in steps)
    final = replay["final"]["view"]
    assert final["trick_points"] == replay["result"]["trick_points"]
    assert final["hands"] == [""] * 4 and len(final["trick"]) == 4
    for seat, client in clients.items():
        assert check_no_leaks(client, seat, steps, hand) > 80, seat
    # the passed cards: named to the two partners, a count to the others
    give = next(i for i, s in enumerate(steps) if s["action"].startswith("give "))
    for seat, client in clients.items():
        states = [json.loads(t) for t in client.texts if f'"ply":{give + 1},' in t]
        lasts = {m["last"]["action"] for m in states if m["type"] == "state"
                 and m["ply"] == give + 1}
        assert lasts == ({steps[give]["action"]} if seat in (0, 2) else {"give 3 cards"})
    done = verify(hand["deal_seed"], "--dealer", str(hand["dealer"]), "--deck", "double",
                  "--commitment", shown)
    assert done.returncode == 0, done.stderr
    for seat in range(4):
        assert f"seat {seat}: {hand['dealt'][seat]}" in done.stdout
    history = request("GET", f"{server.url}/api/tables/{table}/history")[1]
    assert history["games"][0]["hands"][0]["dealt"] == hand["dealt"]
    # the review of the finished hand is started (docs/review.md "The double deck")
    status, body = request("POST", f"{server.url}/api/tables/{table}/games/0/hands/1/review",
                           {"seat": 0})
    assert status in (200, 202), body
    for client in clients.values():
        client.close()


def test_wrong_actions_at_a_double_deck_table_are_refused_and_change_nothing(
        server: ServerProcess) -> None:
    table = new_table(server, "doubledeck", ["open", "easy", "easy", "easy"],
                      pace=0)
    token = join(server, table, 0, "Ann")
    ann = Client(server, table, token, strict=False)
    state = ann.wait(lambda m: m["type"] == "state" and m["view"] is not None
                     and m["view"]["to_act"] == 0)
    legal = state["view"]["legal"]
    assert legal["bid"]["ladder"][-1][1] == 5 and legal["bid"]["ladder"][0][1] == 1
    low = legal["bid"]["min"]
    bad = {"bid 49": "at least", "pass help": "no pass with help",
           "play AS": "must bid or pass", "bid 63": "by 5", "trump S": "must bid or pass",
           "meld": "", "give AS AS AS": "must bid or pass"}
    if low > 60:
        bad.pop("bid 63")
    for action, words in bad.items():
        ann.act(action)
        error = ann.wait(lambda m: m["type"] == "error", timeout=20)
        assert words in error["message"], (action, error)
        assert ann.state is not None and ann.state["ply"] == state["ply"], action
    ann.send({"type": "state"})
    again = ann.wait(lambda m: m["type"] == "state", timeout=20)
    assert again["ply"] == state["ply"] and again["view"] == state["view"]
    # a claim is refused in words (the double deck has no claim at the table)
    ann.send({"type": "claim"})
    refused = ann.wait(lambda m: m["type"] == "error", timeout=20)
    assert "double deck" in refused["message"] or "card play" in refused["message"], refused
    # a hint comes from a level that plays the double deck
    ann.send({"type": "hint"})
    hint = ann.wait(lambda m: m["type"] in ("hint", "error"), timeout=60)
    assert hint["type"] == "hint" and hint["level"].split("(")[0] in DOUBLE_LEVELS, hint
    assert hint["action"] == "pass" or hint["action"].startswith("bid "), hint
    ann.close()


def test_verify_deck_double_checks_a_record(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    subprocess.run([sys.executable, "-m", "pinochlekit", "demo", "--rules", "doubledeck",
                    "--seed", "7", "--max-hands", "2", "--record", str(record)],
                   capture_output=True, text=True, timeout=120, check=True)
    game = GameRecord.from_dict(json.loads(record.read_text()))
    from pinochlekit.engine.deals import deal_seed
    from pinochlekit.engine.games import replay_any
    replayed = replay_any(game)
    for index in range(2 if len(replayed.results) > 1 else 1):
        seed = deal_seed(game.seed, index)
        dealer = replayed.results[index].dealer if index < len(replayed.results) else 0
        done = verify(seed, "--dealer", str(dealer), "--deck", "double", "--record",
                      str(record))
        assert done.returncode == 0, done.stderr
        assert f"the record's hand {index + 1} holds exactly these hands" in done.stdout
        lines = [line for line in done.stdout.splitlines() if line.startswith("seat ")]
        assert [len(line.split()) - 2 for line in lines] == [20] * 4
    # a wrong dealer, another seed, the single deck: each refused in words
    seed = deal_seed(game.seed, 0)
    wrong = verify(seed, "--dealer", "3", "--deck", "double", "--record", str(record))
    assert wrong.returncode == 1 and "--dealer" in wrong.stderr
    other = verify("f" * 32, "--dealer", "0", "--deck", "double", "--record", str(record))
    assert other.returncode == 1 and "no deal of the record" in other.stderr
    single = verify(seed, "--dealer", "0", "--record", str(record))
    assert single.returncode == 1 and "--deck double" in single.stderr
    three = verify(seed, "--dealer", "0", "--deck", "double", "--players", "3")
    assert three.returncode == 2 and "played by 4" in three.stderr


def test_a_restart_mid_hand_goes_on_where_it_was(tmp_path: Path) -> None:
    db = str(tmp_path / "tables.db")
    first = ServerProcess(db, log=tmp_path / "first.log").start()
    try:
        table = new_table(first, PASSING, ["open", "easy", "random", "easy"])
        token = join(first, table, 0, "Ann")
        ann = Client(first, table, token)
        before = ann.wait(lambda m: m["type"] == "state" and m["view"] is not None
                          and m["view"]["to_act"] == 0 and m["view"]["phase"] == "play"
                          and len(m["view"]["tricks"]) >= 3, play=True, timeout=180)
        time.sleep(0.2)
    finally:
        first.stop(kill=True)  # kill -9 in the middle of the card play
    second = ServerProcess(db, log=tmp_path / "second.log").start()
    try:
        ann = Client(second, table, token)
        after = ann.wait(lambda m: m["type"] == "state" and m["view"] is not None)
        assert after["ply"] == before["ply"] and after["deal"] == before["deal"]
        assert after["view"] == before["view"]  # every field, the legal actions included
        # the hand plays on to its end, the computers rebuilt from the record
        ann.act(choose(after))
        ann.wait(lambda m: m["type"] == "state" and bool(m["hands"]), play=True, timeout=240)
        assert ann.state is not None and ann.state["last_hand"]["tricks"] == 20
        ann.close()
    finally:
        second.stop()
