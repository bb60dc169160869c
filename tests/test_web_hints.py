"""Hints at the web table (docs/web.md "Hints"), through the real surface: `pinochle
serve` in a subprocess, HTTP and WebSockets, the real SQLite file.

A seated person whose turn it is asks ``{"type": "hint"}`` and alone receives the
action the strongest computer player suggests, legal for that seat (the server
accepts it when played), with an explanation naming it; nobody else may ask, a
table made with hints off refuses them (also after a restart), and hint requests
change neither the game nor the stored actions. Over a whole hand of each game,
no hint names a card its seat could not see (checked against the replay the
server reveals once the hand is over, as the leak tests of test_web_games.py do).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_web_games import cards_of, visible_kinds
from web_helpers import Client, Message, choose, join, new_table, request, serve

from pinochlekit.engine.cards import Hand
from pinochlekit.engine.games import new_game
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.views import Phase, View
from pinochlekit.players import ExpertPlayer, available_levels, make_player
from pinochlekit.tui.session import hint_level as terminal_hint_level
from pinochlekit.web.hints import HINT_TIME, compute_hint, hint_level, hint_spec
from pinochlekit.web.process import ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "web-hints")


def is_hint(message: Message) -> bool:
    return bool(message["type"] == "hint")


def is_error(message: Message) -> bool:
    return bool(message["type"] == "error")


def ask(client: Client) -> Message:
    """Ask for a hint; the hint (an error fails the test: the client is strict)."""
    client.send({"type": "hint"})
    return client.wait(is_hint, timeout=60)


def refused(client: Client) -> Message:
    """Ask for a hint that must be refused; the error."""
    client.send({"type": "hint"})
    error = client.wait(lambda m: is_error(m) or is_hint(m))
    assert is_error(error), error
    return error


def legal_here(state: Message, action: str) -> bool:
    """Whether ``action`` is among the legal actions of the state's compact form."""
    view = state["view"]
    legal = view["legal"]
    if action in legal["actions"]:
        return True
    if any(o["action"] == action for o in view.get("meld_options") or []):
        return True
    verb, _, rest = action.partition(" ")
    if verb == "bid" and legal["bid"]:
        low, high, step = legal["bid"]["min"], legal["bid"]["max"], legal["bid"]["step"]
        return bool(low <= int(rest) <= high and (int(rest) - low) % step == 0)
    if verb in ("give", "return", "discard") and legal["pass_cards"]:
        cards = Hand.parse(rest)
        return bool(verb == view["phase"] and len(cards) == legal["pass_cards"]
                    and Hand.parse(view["hand"]).issuperset(cards))
    return False


def stored_actions(server: ServerProcess, table: str) -> list[tuple[int, str]]:
    """The actions stored for the table's first game, read from the SQLite file."""
    assert server.db is not None, "the hint tests run on a SQLite file"
    with sqlite3.connect(server.db) as db:
        rows = db.execute("SELECT ply, action FROM web_actions WHERE table_id = ? "
                          "AND game_no = 0 ORDER BY ply", (table,)).fetchall()
    return [(int(p), str(a)) for p, a in rows]


def test_the_hint_player_is_the_terminal_s() -> None:
    for preset in ("two", "three", "pagat", "doubledeck"):
        rules = Rules.preset(preset)
        assert hint_level(rules) == terminal_hint_level(rules) == "expert"
        assert hint_level(rules) == available_levels()[-1]  # the strongest level
        assert hint_spec(rules) == f"expert(time={HINT_TIME})"


def card_play_view(rules: str, seed: int) -> View:
    """The view of the first seat in the card play with a choice of cards (simple
    players act for everyone until then)."""
    game = new_game(rules, seed=seed, dealer=0)
    players = [make_player("simple", seed=s) for s in range(game.rules.players)]
    while True:
        seat = game.to_act
        assert seat is not None, "the hand ended before the card play"
        view = game.view(seat)
        if view.phase is Phase.PLAY and len(view.legal_actions) > 1:
            return view
        game.apply(players[seat].choose(view))


@pytest.mark.parametrize("rules", ["pagat", "three", "two"])
def test_the_hint_s_options_are_the_expert_s_weighed_options(rules: str) -> None:
    """The options sent with a hint are the expert's own data (``advise``), best
    first, each one also in the explanation; a level that only chooses gets none."""
    view = card_play_view(rules, seed=5)
    hint = compute_hint(view, "s", "expert(time=0.05)")
    decision = make_player("expert(time=0.05)", seed="s")
    assert isinstance(decision, ExpertPlayer)
    advice = decision.advise(view)
    assert hint.action == str(advice.action) and hint.text == advice.text()
    assert [o["name"] for o in hint.options] == sorted(
        advice.options, key=lambda name: -advice.options[name][0])
    assert len(hint.options) >= 2
    means = [o["mean"] for o in hint.options]
    assert means == sorted(means, reverse=True)
    for option in hint.options:
        assert f"{option['name']} {option['mean']:+.1f} ({option['low']:+d}.." in hint.text
    plain = compute_hint(view, "s", "standard")
    assert plain.options == [] and plain.action in {str(a) for a in view.legal_actions}


def hint_hand_one(client: Client) -> dict[int, Message]:
    """Hand 1 with a hint asked at each of seat 0's turns and played (but the lowest
    bid made whenever one may, and play going on where the hint is to throw in);
    the hints played, by ply."""
    hints: dict[int, Message] = {}
    deadline = time.monotonic() + 240
    while not (client.state and client.state["hands"]):
        assert time.monotonic() < deadline, client.state
        message = client.recv(30)
        if not client.my_move(message):
            continue
        hint = ask(client)
        state = client.state
        assert state is not None and hint["ply"] == state["ply"] and hint["seat"] == 0
        assert hint["game_no"] == 0 and hint["level"] == "expert"
        assert legal_here(state, hint["action"]), (hint, state["view"]["legal"])
        assert hint["text"].startswith(hint["action"] + ":"), hint
        for option in hint["options"]:
            assert option["low"] <= option["mean"] <= option["high"], option
        legal = state["view"]["legal"]
        if legal["bid"] or hint["action"] == "throw in":
            client.act(choose(state, bidder=True))  # not the hint: checked above only
            continue
        hints[hint["ply"]] = hint
        client.act(hint["action"])  # strict client: an error here fails the test
    return hints


@pytest.mark.parametrize("rules", ["pagat", "three(widow=take)", "two"])
def test_a_hint_on_each_turn_of_a_hand_is_legal_and_names_no_hidden_card(
        server: ServerProcess, rules: str) -> None:
    """Seat 0 asks a hint at every turn of hand 1 and plays it (but bids the lowest
    bid whenever it may, so that it declares and the hand has turns for it after the
    auction, and plays on where the hint is to throw in): the server takes it; each
    hint's explanation starts with its action; after the hand, the replay shows no
    hint named a card seat 0 could not see at that moment."""
    players = {"pagat": 4, "three(widow=take)": 3, "two": 2}[rules]
    # a hand may still end at once after the auction (the declarer's meld not on the
    # board, docs/rules.md §1.8): then a new table, a few times at most
    for _ in range(5):
        table = new_table(server, rules, ["open"] + ["simple"] * (players - 1))
        client = Client(server, table, join(server, table, 0, "Ann"))
        spectator = Client(server, table)
        hints = hint_hand_one(client)
        if len(hints) >= 3:
            break
        spectator.close()
        client.close()
    assert client.state is not None
    result = client.state["last_hand"]
    played = [h for h in hints.values() if h["ply"] < len(stored_actions(server, table))]
    assert len(played) >= 3, (hints, result)
    status, replay = request("GET", f"{server.url}/api/tables/{table}/games/0/hands/1")
    assert status == 200
    steps = replay["steps"]
    stored = dict(stored_actions(server, table))
    for ply, hint in hints.items():
        if ply >= len(steps) - 1:
            continue  # a hint of the next hand (none: the loop stops at the hand's end)
        assert stored[ply] == hint["action"], (ply, stored[ply], hint)
        seen = visible_kinds(steps[ply], 0, result)
        named = cards_of(json.dumps([hint["action"], hint["text"], hint["options"]]))
        assert not named - seen, (ply, named - seen, hint["text"])
    # the spectator never received a hint
    assert not any(json.loads(t)["type"] == "hint" for t in spectator.texts)
    spectator.close()
    client.close()


def test_hints_change_nothing_and_are_rate_limited(server: ServerProcess) -> None:
    table = new_table(server, "pagat", ["open", "simple", "simple", "simple"])
    client = Client(server, table, join(server, table, 0, "Ann"), strict=False)
    state = client.my_turn()
    before = stored_actions(server, table)
    first = ask(client)
    # a burst past the rate limit: some hints, some rate_limited errors, nothing else
    for _ in range(40):
        client.send({"type": "hint"})
    answers: list[Message] = []
    while True:
        try:
            answers.append(client.recv(3))
        except TimeoutError:
            break
    kinds = {m["type"] for m in answers}
    assert kinds <= {"hint", "error", "state"}, kinds
    codes = {m["code"] for m in answers if is_error(m)}
    assert codes == {"rate_limited"}, codes
    again = [m for m in answers if is_hint(m)]
    assert again and all(m == first for m in again)  # one view, one hint
    assert all(m["ply"] == state["ply"] for m in answers if m["type"] == "state")
    assert stored_actions(server, table) == before
    info = request("GET", f"{server.url}/api/tables/{table}")[1]
    assert info["ply"] == state["ply"]
    # the seat still acts as before: the hinted action is accepted
    time.sleep(1.0)  # let the token bucket refill
    client.act(first["action"])
    after = client.wait(lambda m: m["type"] == "state" and m["ply"] > state["ply"])
    assert stored_actions(server, table)[len(before)] == (state["ply"], first["action"])
    assert after["ply"] > state["ply"]
    client.close()


def test_hints_are_refused_out_of_turn_to_spectators_and_before_the_game(
        server: ServerProcess) -> None:
    table = new_table(server, "two", ["open", "open"])
    ann = Client(server, table, join(server, table, 0, "Ann"))
    error = refused(ann)
    assert error["code"] == "waiting"
    bob = Client(server, table, join(server, table, 1, "Bob"))
    watcher = Client(server, table)
    state = ann.wait(lambda m: m["type"] == "state" and m["view"] is not None)
    to_act = state["view"]["to_act"]
    waiting, acting = (bob, ann) if to_act == 0 else (ann, bob)
    acting.wait(lambda m: m["type"] == "state" and m["view"] is not None)
    error = refused(waiting)
    assert error["code"] == "not_your_turn" and "your turn" in error["message"]
    watcher.wait(lambda m: m["type"] == "state" and m["view"] is not None)
    error = refused(watcher)
    assert error["code"] == "spectator" and "join a seat" in error["message"]
    hint = ask(acting)
    assert acting.state is not None and legal_here(acting.state, hint["action"])
    # only the seat that asked received a hint
    for client in (waiting, watcher):
        assert not any(json.loads(t)["type"] == "hint" for t in client.texts)
    assert stored_actions(server, table) == []
    for client in (ann, bob, watcher):
        client.close()


def test_a_hint_after_the_game_is_over_is_refused(server: ServerProcess) -> None:
    table = new_table(server, "pagat(target=100)", ["open", "simple", "simple", "simple"])
    client = Client(server, table, join(server, table, 0, "Ann"))
    client.wait(lambda m: m["type"] == "state" and m["view"] is not None
                and m["view"]["phase"] == "game over", timeout=180, play=True)
    error = refused(client)
    assert error["code"] == "game_over"
    client.close()


def test_hints_off_is_kept_across_a_restart_and_hints_are_deterministic(
        tmp_path: Path) -> None:
    """The lobby's "hints" setting is stored with the table; the hint of one view is
    the same from a new server process (seeded by table, game, ply and seat)."""
    db = str(tmp_path / "tables.db")
    with ServerProcess(db, log=tmp_path / "server.log") as srv:
        off = new_table(srv, "pagat", ["open", "simple", "simple", "simple"], hints=False)
        status, info = request("GET", f"{srv.url}/api/tables/{off}")
        assert status == 200 and info["settings"]["hints"] is False
        on = new_table(srv, "three", ["open", "simple", "simple"])
        assert request("GET", f"{srv.url}/api/tables/{on}")[1]["settings"]["hints"] is True
        quiet = Client(srv, off, join(srv, off, 0, "Ann"))
        quiet.my_turn()
        error = refused(quiet)
        assert error["code"] == "hints_off" and "switched off" in error["message"]
        quiet.close()
        token = join(srv, on, 0, "Bob")
        talker = Client(srv, on, token)
        talker.my_turn()
        first = ask(talker)
        talker.close()
    with sqlite3.connect(db) as conn:
        settings = json.loads(conn.execute("SELECT settings FROM web_tables WHERE id = ?",
                                           (off,)).fetchone()[0])
    assert settings["hints"] is False
    # the same store, a new server process: the setting and the hint are the same
    with ServerProcess(db, log=tmp_path / "server.log") as srv:
        assert request("GET", f"{srv.url}/api/tables/{off}")[1]["settings"]["hints"] is False
        talker = Client(srv, on, token)
        state = talker.my_turn()
        assert state["ply"] == first["ply"]
        assert ask(talker) == first
        talker.close()
