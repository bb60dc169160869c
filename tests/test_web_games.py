"""Three-handed (docs/rules.md §3) and two-handed (docs/rules.md §4) games at the web tables,
through the real surface: `pinochle serve` in a subprocess, HTTP and WebSockets, a
real SQLite file (and PostgreSQL when PINOCHLEKIT_TEST_PG is set, as .ci/run does).

Every message each seat and a spectator receive during a hand is checked against
the truth, which the server reveals only once the hand is over (the replay of the
hand shows every seat's cards before each action): the hand field is exactly the
seat's cards, and no card the seat cannot see (another seat's hidden cards, the
stock, the widow before the auction is won, another seat's discards) is named
anywhere in the message.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import Client, Message, choose, join, new_table, pg_url, request, serve

from pinochlekit.engine.cards import Hand
from pinochlekit.engine.games import new_game
from pinochlekit.engine.rules import Rules
from pinochlekit.players import make_player
from pinochlekit.web.dealing import dealt_cards
from pinochlekit.web.hub import computer_levels
from pinochlekit.web.messages import commitment
from pinochlekit.web.process import ServerProcess

CARD = re.compile(r"\b[9TJQKA][SHDC]\b")
ALL_KINDS = {f"{r}{s}" for r in "9TJQKA" for s in "SHDC"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "web-games")


def drive(clients: dict[int | None, Client], until: Callable[[], bool],
          bidder: int | None = None, timeout: float = 180) -> None:
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


def cards_of(text: str | None) -> set[str]:
    return set(CARD.findall(text or ""))


def visible_kinds(step: Message, viewer: int | None, result: Message) -> set[str]:
    """The card kinds ``viewer`` may see at the moment of a replay ``step`` (the public
    view then, every seat's cards): its own cards, everything played, the meld shown
    or laid (and the cards known from it), the turned-up card, the widow once the
    auction is won, and the declarer's own discards."""
    public = step["view"]
    seen: set[str] = set()
    if viewer is not None:
        seen |= cards_of(step["view"]["hands"][viewer])
    for trick in public["tricks"]:
        seen |= cards_of(trick["cards"])
    seen |= {card for _, card in public["trick"]}
    for meld in public["melds"] or []:
        seen |= cards_of(meld["shown"])
    for key in ("widow", "turn_up"):
        seen |= cards_of(public.get(key))
    for side in public.get("table", []):
        seen |= cards_of(" ".join(side))
    for known in public.get("known", []):
        seen |= cards_of(known)
    for event in public.get("events", []):
        seen |= cards_of(event["cards"])
    if viewer is not None and viewer == public["declarer"]:
        seen |= cards_of(result.get("discards"))
    return seen


def check_no_leaks(client: Client, viewer: int | None, steps: list[Message],
                   result: Message, players: int) -> int:
    """Every state of hand 1 the client received: the hand field is exactly the seat's
    cards, and no card kind the seat cannot see appears in the view or the last
    action. Returns how many states were checked."""
    dealt = result["dealt"]
    checked = 0
    for text in client.texts:
        message = json.loads(text)
        # as received: a state of the first hand has no finished hand before it
        if message["type"] != "state" or message["view"] is None or message["hands"] \
                or message["hands_from"]:
            continue
        assert result["deal_seed"] not in text
        for seat in range(players):
            if seat != viewer:
                assert dealt[seat] not in text, (viewer, seat)
        if players == 2:
            assert result["rest"] not in text  # the stock in drawing order
        view = message["view"]
        step = steps[message["ply"]]
        if viewer is None:
            assert view["hand"] is None
        else:
            assert Hand.parse(view["hand"]) == Hand.parse(step["view"]["hands"][viewer]), (
                viewer, message["ply"])
        if view["declarer"] is None:
            assert view.get("widow") is None  # docs/rules.md §3: face up once the auction is won
        if viewer is None or viewer != view["declarer"]:
            assert view.get("discards") is None, (viewer, view)
        hidden = ALL_KINDS - visible_kinds(step, viewer, result)
        shown = dict(view)
        del shown["rules"]
        named = cards_of(json.dumps(shown)) | cards_of((message["last"] or {}).get("action"))
        assert not named & hidden, (viewer, message["ply"], named & hidden)
        checked += 1
    return checked


def verify(seed: str, dealer: int, players: int, shown: str) -> str:
    done = subprocess.run([sys.executable, "-m", "pinochlekit", "verify", seed, "--dealer",
                           str(dealer), "--players", str(players), "--commitment", shown],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "matches" in done.stdout
    return done.stdout


@pytest.mark.parametrize("widow", ["take", "out"])
def test_three_handed_each_seat_sees_only_its_own(server: ServerProcess, widow: str) -> None:
    rules = "three(widow=take)" if widow == "take" else "three"  # widow=out is the default
    table = new_table(server, rules, ["open", "open", "open"])
    info = request("GET", f"{server.url}/api/tables/{table}")[1]
    assert info["rules"] == rules and len(info["seats"]) == 3
    tokens = [join(server, table, seat, name) for seat, name in enumerate(("Ann", "Bob", "Cy"))]
    clients: dict[int | None, Client] = {s: Client(server, table, t)
                                         for s, t in enumerate(tokens)}
    clients[None] = Client(server, table)
    ann = clients[0]
    first = ann.wait(lambda m: m["type"] == "state" and m["view"] is not None)
    assert len(Hand.parse(first["view"]["hand"])) == 15 and first["view"]["widow"] is None
    shown = first["deal"]["commitment"]
    # Ann bids whenever she may, the others pass: Ann declares (and with the widow
    # taken, takes it and discards 3 cards)
    drive(clients, lambda: bool(ann.state and ann.state["hands"]), bidder=0)
    assert ann.state is not None
    hand = ann.state["last_hand"]
    assert hand["declarer"] == 0 and hand["players"] == 3
    assert len(hand["discards"].split()) == (3 if widow == "take" else 0)
    assert hand["commitment"] == shown == commitment(hand["deal_seed"])
    truth = dealt_cards(hand["deal_seed"], hand["dealer"], 3)
    assert hand["dealt"] == list(truth.hands) and hand["widow"] == truth.rest
    assert hand["dealt"][0] == first["view"]["hand"]
    status, replay = request("GET", f"{server.url}/api/tables/{table}/games/0/hands/1")
    assert status == 200 and replay["steps"][0]["view"]["hands"] == hand["dealt"]
    steps = replay["steps"]
    # the replay's final table: after the last card (docs/web.md "What a player sees"), trick points
    # of the result, the last trick complete
    final = replay["final"]["view"]
    assert final["trick_points"] == replay["result"]["trick_points"]
    if hand["outcome"] in ("made", "set"):
        assert final["hands"] == ["", "", ""] and len(final["trick"]) == 3
    for seat, client in clients.items():
        assert check_no_leaks(client, seat, steps, hand, 3) > 0
    if widow == "out":
        # docs/rules.md §3: the widow stays out of play, face up for all once the auction is won
        won = next(i for i, s in enumerate(steps) if s["view"]["declarer"] is not None)
        for client in clients.values():
            later = [json.loads(t) for t in client.texts
                     if '"hands":[]' in t and '"hands_from":0' in t]
            views = [m["view"] for m in later if m["type"] == "state" and m["ply"] >= won]
            assert views and all(v["widow"] == hand["widow"] for v in views)
    # the discard was seen by Ann alone, the widow by everyone once Ann had won the auction
    discard = next((i for i, s in enumerate(steps) if s["action"].startswith("discard")), -1)
    assert (discard >= 0) == (widow == "take")
    assert discard < 0 or steps[discard]["seat"] == 0
    for seat, client in clients.items():
        if widow == "out":
            break
        after = [json.loads(t) for t in client.texts if f'"ply":{discard + 1},' in t]
        states = [m for m in after if m["type"] == "state" and m["ply"] == discard + 1]
        assert states, seat
        for state in states:
            assert state["view"]["widow"] == hand["widow"]
            assert (state["view"]["discards"] is not None) == (seat == 0)
            assert state["last"]["action"] == (steps[discard]["action"] if seat == 0
                                               else "discard 3 cards")
    out = verify(hand["deal_seed"], hand["dealer"], 3, shown)
    assert f"seat 0: {hand['dealt'][0]}" in out and f"widow: {hand['widow']}" in out
    # individual scores: three columns, the declarer's widow and discards counted
    assert len(hand["scores"]) == 3 and len(ann.state["view"]["scores"]) == 3
    history = request("GET", f"{server.url}/api/tables/{table}/history")[1]
    assert history["games"][0]["hands"][0]["widow"] == hand["widow"]
    for client in clients.values():
        client.close()


def test_two_handed_meld_turns_and_the_stock_stay_private(server: ServerProcess) -> None:
    table = new_table(server, "two", ["open", "open"])
    tokens = [join(server, table, 0, "Ann"), join(server, table, 1, "Bob")]
    clients: dict[int | None, Client] = {0: Client(server, table, tokens[0]),
                                         1: Client(server, table, tokens[1]),
                                         None: Client(server, table)}
    ann = clients[0]
    first = ann.wait(lambda m: m["type"] == "state" and m["view"] is not None)
    view = first["view"]
    assert view["players"] == 2 and view["stock_size"] == 24 and view["turn_up"] is not None
    assert len(Hand.parse(view["hand"])) == 12 and view["stage"] == "early tricks"
    assert view["trump"] == view["turn_up"][1]  # docs/rules.md §4: the turned-up card is trump
    shown = first["deal"]["commitment"]
    drive(clients, lambda: bool(ann.state and ann.state["hands"]))
    assert ann.state is not None
    hand = ann.state["last_hand"]
    assert hand["players"] == 2 and hand["commitment"] == shown
    truth = dealt_cards(hand["deal_seed"], hand["dealer"], 2)
    assert hand["dealt"] == list(truth.hands) and hand["rest"] == truth.rest
    assert hand["dealt"][0] == first["view"]["hand"]
    assert hand["tricks"] == 24 and sum(hand["trick_points"]) == 250
    steps = request("GET", f"{server.url}/api/tables/{table}/games/0/hands/1")[1]["steps"]
    melds = [s for s in steps if s["action"].startswith("meld ")]
    assert melds, "no meld was laid: the meld turn was not exercised"
    assert hand["events"] and sum(e["points"] for e in hand["events"]) == sum(
        hand["meld_points"])
    for seat, client in clients.items():
        assert check_no_leaks(client, seat, steps, hand, 2) > 0
    # each seat's melded cards are public: the spectator saw them on the table
    spectator_tables = [json.loads(t)["view"]["table"] for t in clients[None].texts
                        if '"table":[[' in t and '"view":{' in t]
    assert any(side for tables in spectator_tables for side in tables)
    # the meld turn offered named melds to the seat that won the trick
    offered = [json.loads(t)["view"] for c in (clients[0], clients[1]) for t in c.texts
               if '"meld_options":[{' in t]
    assert offered and all(v["stage"] == "meld" and v["to_act"] == v["seat"] for v in offered)
    assert {"action", "name", "cards", "points"} <= set(offered[0]["meld_options"][0])
    out = verify(hand["deal_seed"], hand["dealer"], 2, shown)
    assert f"seat 1: {hand['dealt'][1]}" in out
    assert f"stock (drawn in this order): {truth.rest.split(' ', 1)[1]}" in out
    for client in clients.values():
        client.close()


def test_levels_offered_follow_the_game(server: ServerProcess) -> None:
    status, meta = request("GET", server.url + "/api/meta")
    assert status == 200
    by = meta["levels_by_players"]
    for players in ("2", "3", "4"):
        assert {"easy", "standard", "pro"} <= set(by[players])
    assert all("expert" in by[players] for players in ("2", "3", "4"))
    assert {p["name"]: p["players"] for p in meta["presets"]}["three"] == 3
    status, body = request("POST", server.url + "/api/tables",
                           {"rules": "two", "seats": ["open", "nobody"]})
    assert status == 400 and "computer level" in body["error"]
    status, body = request("POST", server.url + "/api/tables",
                           {"rules": "three", "seats": ["open", "easy"]})
    assert status == 400 and "give 3 seats" in body["error"]
    status, body = request("POST", server.url + "/api/tables",
                           {"rules": "two", "standin": "nobody"})
    assert status == 400 and "standin" in body["error"]
    status, body = request("POST", server.url + "/api/tables", {"rules": "two"})
    assert status == 201 and [s["kind"] for s in body["table"]["seats"]] == ["open", "standard"]


def _other_values(option: Message, value: Any) -> list[str]:
    """Every other value of a bool or choice option; two others of a number."""
    if option["kind"] == "bool":
        return ["no" if value else "yes"]
    if option["kind"] == "choice":
        return [str(c) for c in option["choices"] if c != value]
    return [str(v) for v in (value + 10, value * 2 + 20)]


def test_the_lobby_form_leaves_out_options_the_game_does_not_have(
        server: ServerProcess) -> None:
    """docs/rules.md §4 (no auction, passing or contract two-handed), §3 (no partners
    three-handed; only it has a widow): /api/meta names, per preset, the options
    the game refuses to change, so the lobby hides them; each one named is refused
    by the server whatever other value it is given, naming the option."""
    status, meta = request("GET", server.url + "/api/meta")
    assert status == 200
    presets = {p["name"]: p for p in meta["presets"]}
    options = {o["name"]: o for o in meta["options"]}
    two, three, pagat = (set(presets[n]["fixed"]) for n in ("two", "three", "pagat"))
    assert {"min_bid", "bid_step", "dealer_stuck", "cards_passed", "pass_with_help",
            "shoot_the_moon", "set_penalty", "max_deals", "widow"} <= two
    assert {"target", "must_beat", "trick_points"}.isdisjoint(two)
    assert {"cards_passed", "pass_with_help", "shoot_the_moon"} <= three
    assert {"widow", "min_bid", "set_penalty"}.isdisjoint(three)
    assert pagat == {"widow", "bid_ladder", "arounds", "meld_counters"}  # §6 options
    for name, preset in presets.items():
        for option in preset["fixed"]:
            for value in _other_values(options[option], preset["values"][option]):
                status, body = request("POST", server.url + "/api/tables",
                                       {"rules": f"{name}({option}={value})"})
                assert status == 400 and body["error"].startswith(f"{option}:"), (
                    name, option, value, body)


def _word(value: Any) -> str:
    return ("yes" if value else "no") if isinstance(value, bool) else str(value)


def test_the_lobby_offers_only_values_the_game_takes(server: ServerProcess) -> None:
    """/api/meta offers, per preset, the values each yes/no or choice option may take
    in that game: a table is made with every one of them (with each other change
    named in ``needs``, for combinations such as docs/rules.md §2 ``divide_by_ten`` only
    with counters), and every value not offered is refused naming the option, such
    as chip scoring three-handed (it pays one opposing team; docs/rules.md §3)."""
    status, meta = request("GET", server.url + "/api/meta")
    assert status == 200
    kinds = {o["name"]: o for o in meta["options"]}
    made, refused = [], []
    for preset in meta["presets"]:
        name, own = preset["name"], preset["values"]
        needs = {(n["option"], _word(n["value"])): n["with"] for n in preset["needs"]}
        assert set(needs) <= {(o, _word(v)) for o, vs in preset["offered"].items() for v in vs}
        for option, offered in preset["offered"].items():
            kind = kinds[option]
            every = [True, False] if kind["kind"] == "bool" else kind["choices"]
            assert kind["kind"] in ("bool", "choice") and option not in preset["fixed"]
            assert own[option] in offered and set(offered) <= set(every), (name, option)
            for value in every:
                word = _word(value)
                if value == own[option]:
                    continue
                if value not in offered:
                    status, body = request("POST", server.url + "/api/tables",
                                           {"rules": f"{name}({option}={word})"})
                    assert status == 400 and body["error"].startswith(f"{option}:"), (
                        name, option, value, body)
                    refused.append((name, option, value))
                    continue
                companions = needs.get((option, word), [])
                if companions:  # the value alone is refused: it needs the other change
                    status, body = request("POST", server.url + "/api/tables",
                                           {"rules": f"{name}({option}={word})"})
                    assert status == 400, (name, option, value, body)
                for extra in companions or [""]:
                    rules = f"{name}({option}={word}{', ' + extra if extra else ''})"
                    status, body = request("POST", server.url + "/api/tables",
                                           {"rules": rules})
                    assert status == 201, (rules, body)
                    kept = Rules.from_string(body["table"]["rules"])
                    assert getattr(kept, option) == value, (rules, body["table"]["rules"])
                    assert kept.players == preset["players"]
                    made.append(rules)
    assert ("three", "set_penalty", "chips") in refused
    assert "three(set_forfeits_meld=no, set_penalty=contract)" in made
    assert "two(divide_by_ten=yes, trick_points=counters)" in made
    assert "pagat(set_penalty=chips)" in made and len(made) > 100, made


#: The levels with a smaller budget (the same code, fewer simulations), so that a
#: whole hand of each takes seconds.
CHEAP = {"standard": "standard(bid_sims=20)", "pro": "pro(bid_sims=20, rollouts=6)",
         "expert": "expert(time=0.05)"}


@pytest.mark.parametrize("rules", ["three(widow=take)", "two"])
def test_every_level_offered_plays_that_game(rules: str) -> None:
    """The lobby offers a level for a game only if it plays it (else a table would
    fall back to random legal moves for that seat, logged): each level offered plays
    a whole hand at seat 0, every decision legal."""
    parsed = new_game(rules, seed=0).rules
    players = parsed.players
    for level in computer_levels(parsed):
        game = new_game(rules, seed=f"levels/{level}", dealer=players - 1)
        seats = [make_player(CHEAP.get(level, level) if s == 0 else "random", s)
                 for s in range(players)]
        decided = 0
        # until a hand has been played out (not passed out, thrown in or out of reach)
        while not any(r.tricks for r in game.results):
            assert len(game.results) < 6 and game.to_act is not None, (level, game.results)
            seat = game.to_act
            action = seats[seat].choose(game.view(seat))
            assert game.is_legal(action, seat), (level, str(action))
            game.apply(action, seat)
            decided += seat == 0
        assert decided >= 12, (level, decided)  # 15 tricks three-handed, 24 two-handed


def test_wrong_actions_for_the_game_change_nothing(server: ServerProcess) -> None:
    table = new_table(server, "two", ["open", "easy"])
    client = Client(server, table, join(server, table, 0, "Ann"))
    state = client.wait(lambda m: m["type"] == "state" and m["view"] is not None
                        and m["view"]["to_act"] == 0 and m["view"]["stage"] == "early tricks",
                        play=True)
    for action, code in (("bid 250", "bad_action"), ("meld KS QS", "illegal"),
                         ("dix", "illegal"), ("discard AS TS KS", "bad_action")):
        client.act(action, ply=state["ply"])
        error = client.wait(lambda m: m["type"] == "error")
        assert error["code"] == code, (action, error)
        fresh = client.wait(lambda m: m["type"] == "state")
        assert fresh["ply"] == state["ply"] and fresh["view"]["hand"] == state["view"]["hand"]
    client.close()


def test_wrong_actions_at_a_three_handed_table_change_nothing(server: ServerProcess) -> None:
    """The discard phase (docs/rules.md §3, widow taken): discards of the wrong size, of
    cards not held, by a seat that is not the declarer, and the two-handed actions
    (docs/rules.md §4) are refused with a clear error and change nothing."""
    table = new_table(server, "three(widow=take)", ["open", "open", "open"])
    tokens = [join(server, table, seat, name) for seat, name in enumerate(("Ann", "Bob", "Cy"))]
    clients: dict[int | None, Client] = {s: Client(server, table, t)
                                         for s, t in enumerate(tokens)}
    ann, bob = clients[0], clients[1]
    # Ann bids whenever she may, the others pass: Ann takes the widow and must discard
    deadline = time.monotonic() + 60
    state: Message | None = None
    while state is None:
        assert time.monotonic() < deadline, ann.state
        for seat, client in clients.items():
            with contextlib.suppress(TimeoutError):
                message = client.recv(0.02)
                if seat == 0 and message["type"] == "state" and message["view"] \
                        and message["view"]["phase"] == "discard":
                    state = message
                    break
                if client.my_move(message):
                    client.act(choose(message, bidder=seat == 0))
    held = state["view"]["hand"].split()
    assert len(held) == 18 and state["view"]["legal"]["pass_cards"] == 3
    missing = sorted(ALL_KINDS - set(held))[:3]
    assert bob.state is not None and bob.state["view"] is not None
    bobs = bob.state["view"]["hand"].split()[:3]
    for client, action, code in (
            (ann, "discard " + " ".join(held[:2]), "illegal"),
            (ann, "discard " + " ".join(held[:4]), "illegal"),
            (ann, "discard " + " ".join(missing), "illegal"),
            (ann, "meld KS QS", "bad_action"), (ann, "dix", "bad_action"),
            (ann, "no meld", "bad_action"), (ann, "bid 300", "illegal"),
            (bob, "discard " + " ".join(bobs), "not_your_turn")):
        client.act(action, ply=state["ply"])
        error = client.wait(lambda m: m["type"] == "error")
        assert error["code"] == code and error["message"], (action, error)
        fresh = client.wait(lambda m: m["type"] == "state")
        assert fresh["ply"] == state["ply"] and fresh["view"]["phase"] == "discard"
    assert ann.state is not None and ann.state["view"]["hand"] == state["view"]["hand"]
    for client in clients.values():
        client.close()


@pytest.mark.parametrize("rules", ["three(widow=take, target=100)", "two(target=100)"])
def test_computers_play_to_game_over_then_a_rematch(server: ServerProcess, rules: str) -> None:
    players = 2 if rules.startswith("two") else 3
    table = new_table(server, rules, ["open", "easy", "standard"][:players])
    client = Client(server, table, join(server, table, 0, "Ann"))
    over = client.wait(lambda m: m["type"] == "state" and m["view"] is not None
                       and m["view"]["phase"] == "game over", timeout=240, play=True)
    assert over["table"]["status"] == "over" and over["deal"] is None
    assert over["view"]["winner"] in range(players) and len(over["view"]["scores"]) == players
    assert max(over["view"]["scores"]) >= 100
    actors = {s["kind"] for s in over["table"]["seats"]}
    assert actors == {"human", "easy", "standard"} if players == 3 else {"human", "easy"}
    client.send({"type": "rematch"})
    again = client.wait(lambda m: m["type"] == "state" and m["table"]["game_no"] == 2)
    assert again["ply"] == 0 and again["view"]["scores"] == [0] * players
    history = request("GET", f"{server.url}/api/tables/{table}/history")[1]
    assert [g["over"] for g in history["games"]] == [True, False]
    first = history["games"][0]
    assert again["view"]["dealer"] == (first["first_dealer"] + 1) % players
    for number in range(1, len(first["hands"]) + 1):
        status, replay = request("GET",
                                 f"{server.url}/api/tables/{table}/games/0/hands/{number}")
        assert status == 200 and len(replay["steps"][0]["view"]["hands"]) == players
    client.close()


def _three_mid_trick(view: Message) -> bool:
    return view["phase"] == "play" and bool(view["trick"])


def _two_meld_turn(view: Message) -> bool:
    return bool(view["stage"] == "meld")


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
@pytest.mark.parametrize(("rules", "seats", "moment"), [
    ("three(widow=take)", ["open", "easy", "easy"], _three_mid_trick),
    ("two", ["open", "easy"], _two_meld_turn),
])
def test_a_restart_resumes_three_and_two_handed_tables_exactly(
        backend: str, rules: str, seats: list[str], moment: Callable[[Message], bool],
        tmp_path: Path) -> None:
    db = str(tmp_path / "tables.db") if backend == "sqlite" else pg_url()
    first = ServerProcess(db, log=tmp_path / "first.log").start()
    try:
        table = new_table(first, rules, seats)
        token = join(first, table, 0, "Ann")
        ann = Client(first, table, token)
        before = ann.wait(lambda m: m["type"] == "state" and m["view"] is not None
                          and m["view"]["to_act"] == 0 and moment(m["view"])
                          and m["ply"] > 3, play=True, timeout=120)
        time.sleep(0.2)
    finally:
        first.stop(kill=True)  # kill -9 in the middle of a trick or a meld turn
    second = ServerProcess(db, log=tmp_path / "second.log").start()
    try:
        ann = Client(second, table, token)
        after = ann.wait(lambda m: m["type"] == "state" and m["view"] is not None)
        assert after["ply"] == before["ply"] and after["deal"] == before["deal"]
        assert after["view"] == before["view"]  # every field, the legal actions included
        ann.act(choose(after))
        moved = ann.wait(lambda m: m["type"] == "state" and m["ply"] > after["ply"])
        assert moved["view"]["hand_number"] == before["view"]["hand_number"]
        ann.close()
    finally:
        second.stop()


def _until_declarer_discards(clients: dict[int | None, Client]) -> Message:
    """Seat 0 bids whenever it may, the others pass, until seat 0 (the declarer, widow
    taken) is to discard: its state then, before it acts."""
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, clients[0].state
        for seat, client in clients.items():
            with contextlib.suppress(TimeoutError):
                message = client.recv(0.02)
                if seat == 0 and message["type"] == "state" and message["view"] \
                        and message["view"]["phase"] == "discard":
                    return message
                if seat is not None and client.my_move(message):
                    client.act(choose(message, bidder=seat == 0))


def test_a_restart_in_the_discard_phase_then_a_standin_discards(tmp_path: Path) -> None:
    """docs/rules.md §3 (widow taken): a `kill -9` while the declarer is to discard; after
    the restart every seat sees exactly what it saw (the widow face up, no discards
    yet, the declarer's 18 cards), and the declarer, away past the grace period,
    gets a stand-in that discards 3 cards the others see only as a count."""
    db = str(tmp_path / "tables.db")
    first = ServerProcess(db, log=tmp_path / "first.log").start()
    try:
        table = new_table(first, "three(widow=take)", ["open", "open", "open"], grace=1.5)
        tokens = [join(first, table, s, n) for s, n in enumerate(("Ann", "Bob", "Cy"))]
        clients: dict[int | None, Client] = {s: Client(first, table, t)
                                             for s, t in enumerate(tokens)}
        before = _until_declarer_discards(clients)
        bob_before = clients[1].state
        if bob_before is None or bob_before["ply"] != before["ply"]:
            bob_before = clients[1].wait(lambda m: m["type"] == "state"
                                         and m["ply"] == before["ply"])
    finally:
        first.stop(kill=True)
    second = ServerProcess(db, log=tmp_path / "second.log").start()
    try:
        bob = Client(second, table, tokens[1])
        bob_after = bob.wait(lambda m: m["type"] == "state" and m["view"] is not None)
        assert bob_after["view"] == bob_before["view"] and bob_after["ply"] == before["ply"]
        assert bob_after["view"]["widow"] and bob_after["view"]["discards"] is None
        ann = Client(second, table, tokens[0])
        ann_after = ann.wait(lambda m: m["type"] == "state" and m["view"] is not None)
        assert ann_after["view"] == before["view"]
        assert len(ann_after["view"]["hand"].split()) == 18
        ann.close()  # Ann leaves before discarding: a stand-in discards for her
        moved = bob.wait(lambda m: m["type"] == "state" and m["ply"] > before["ply"],
                         timeout=60)
        assert moved["last"] == {"seat": 0, "action": "discard 3 cards", "actor": "standin"}
        assert moved["view"]["discards"] is None and moved["table"]["seats"][0]["standin"]
        bob.close()
    finally:
        second.stop()


def test_a_standin_takes_a_two_handed_meld_turn(server: ServerProcess) -> None:
    """docs/rules.md §4: a person who leaves in their own meld turn (they won the trick)
    gets a stand-in once the grace period is over; it finishes the meld turn (a meld,
    the dix or no meld), both draw, and the game goes on."""
    table = new_table(server, "two", ["open", "open"], grace=1.0)
    tokens = [join(server, table, 0, "Ann"), join(server, table, 1, "Bob")]
    clients: dict[int | None, Client] = {0: Client(server, table, tokens[0]),
                                         1: Client(server, table, tokens[1])}
    ann, bob = clients[0], clients[1]
    turn: Message | None = None
    deadline = time.monotonic() + 90
    while turn is None:
        assert time.monotonic() < deadline, bob.state
        for seat, client in clients.items():
            with contextlib.suppress(TimeoutError):
                message = client.recv(0.02)
                if seat == 1 and client.my_move(message) and message["view"]["stage"] == "meld":
                    turn = message
                    break
                if client.my_move(message):
                    client.act(choose(message))
    ply = turn["ply"]
    bob.close()
    moved = ann.wait(lambda m: m["type"] == "state" and m["ply"] > ply
                     and m["last"]["actor"] == "standin", timeout=60)
    assert moved["last"]["seat"] == 1 and moved["table"]["seats"][1]["standin"]
    assert moved["last"]["action"] == "no meld" or moved["last"]["action"] == "dix" \
        or moved["last"]["action"].startswith("meld ")
    # the stand-in ends the turn; the players draw and the game goes on to Ann's move
    ann.wait(lambda m: m["type"] == "state" and m["view"]["stage"] != "meld"
             and m["ply"] > ply, play=True, timeout=60)
    ann.close()


def test_a_wrong_size_return_from_the_declarer_is_illegal_not_out_of_turn(
        server: ServerProcess) -> None:
    """Passing (docs/rules.md §1): the declarer returns as many cards as the partner gave. A
    return of the wrong size from the declarer, whose turn it is, is refused as
    ``illegal`` (the error's type decides, not its words: "return" contains "turn"); the
    same return from another seat is ``not_your_turn``; neither changes anything."""
    table = new_table(server, "pagat", ["open", "open", "open", "open"])
    tokens = [join(server, table, seat, name)
              for seat, name in enumerate(("Ann", "Bob", "Cy", "Di"))]
    clients = {s: Client(server, table, t) for s, t in enumerate(tokens)}
    ann, bob = clients[0], clients[1]
    deadline = time.monotonic() + 60
    state: Message | None = None
    while state is None:
        assert time.monotonic() < deadline, ann.state
        for seat, client in clients.items():
            with contextlib.suppress(TimeoutError):
                message = client.recv(0.02)
                if seat == 0 and message["type"] == "state" and message["view"] \
                        and message["view"]["phase"] == "return":
                    state = message
                    break
                if client.my_move(message):
                    client.act(choose(message, bidder=seat == 0))
    held = state["view"]["hand"].split()
    n = state["view"]["legal"]["pass_cards"]
    assert n and len(held) == 12 + n
    for client, action, code in (
            (ann, "return " + " ".join(held[:n - 1]), "illegal"),
            (ann, "return " + " ".join(held[:n + 1]), "illegal"),
            (bob, "return " + " ".join(held[:n]), "not_your_turn")):
        client.act(action, ply=state["ply"])
        error = client.wait(lambda m: m["type"] == "error")
        assert error["code"] == code and error["message"], (action, error)
        fresh = client.wait(lambda m: m["type"] == "state")
        assert fresh["ply"] == state["ply"] and fresh["view"]["phase"] == "return"
    assert ann.state is not None and ann.state["view"]["hand"] == state["view"]["hand"]
    for client in clients.values():
        client.close()


@pytest.mark.parametrize("rules", ["pagat", "three"])
def test_each_state_says_what_its_action_caused(server: ServerProcess, rules: str) -> None:
    """The state after an action carries the engine's public events of it (the page
    holds a trick and shows a hand's summary from them, docs/web.md "Messages"): a
    card that completes a trick sends that trick, its cards, winner and points, as
    the view then records it; the action that ends a hand sends the hand's number;
    any other action sends nothing. A spectator gets the same events."""
    players = 3 if rules.startswith("three") else 4
    table = new_table(server, rules, ["open"] + ["easy"] * (players - 1))
    client = Client(server, table, join(server, table, 0, "Ann"))
    watcher = Client(server, table)
    tricks_seen: list[Message] = []  # a hand may end before any trick (thrown in)

    def done(m: Message) -> bool:
        if any(e["kind"] == "trick" for e in m.get("events", [])):
            tricks_seen.append(m)
        return (m["type"] == "state" and m["view"] is not None and bool(tricks_seen)
                and m["view"]["hand_number"] >= 2)

    client.wait(done, timeout=240, play=True)
    states = [m for m in map(json.loads, client.texts) if m["type"] == "state"
              and m["view"] is not None]
    tricks = hands = 0
    for before, after in itertools.pairwise(states):
        if after["ply"] != before["ply"] + 1:
            assert after["ply"] != before["ply"] or after["events"] == before["events"]
            continue
        kinds = [e["kind"] for e in after["events"]]
        view = after["view"]
        same_hand = view["hand_number"] == before["view"]["hand_number"]
        completed = bool(before["view"]["trick"]) and not view["trick"]
        assert ("trick" in kinds) == completed, (before["view"]["trick"], after["events"])
        if completed:
            tricks += 1
            trick = next(e for e in after["events"] if e["kind"] == "trick")
            assert trick["cards"][:-1] == before["view"]["trick"]
            assert trick["cards"][-1] == [before["view"]["to_act"],
                                          after["last"]["action"].split()[1]]
            assert len(trick["cards"]) == players
            if same_hand:
                assert view["tricks"][-1]["winner"] == trick["winner"]
                assert view["tricks"][-1]["points"] == trick["points"]
                assert len(view["tricks"]) == trick["number"]
        if "hand" in kinds:
            hands += 1
            number = next(e["number"] for e in after["events"] if e["kind"] == "hand")
            assert number == _hands_known(after) == before["view"]["hand_number"]
        else:
            assert _hands_known(after) == _hands_known(before)
    assert hands >= 1 and tricks >= 1
    watcher.wait(lambda m: m["type"] == "state"
                 and any(e["kind"] == "trick" for e in m.get("events", [])))
    seen = [m for m in map(json.loads, watcher.texts) if m["type"] == "state"]
    assert any(e["kind"] == "trick" for m in seen for e in m.get("events", []))
    client.close()
    watcher.close()


def _hands_known(state: Message) -> int:
    """How many finished hands a state (as sent: only the new ones) makes known."""
    return int(state.get("hands_from", 0)) + len(state["hands"])
