"""The web table's turn timer, chat and undo over the protocol, against a real
`pinochle serve` subprocess (docs/web.md "Turn timer", "Chat", "Undo")."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from web_helpers import Client, Message, choose, join, new_table, pg_url, request, serve

from pinochlekit.engine.cards import Card, Hand, parse_suit
from pinochlekit.engine.double.cards import DoubleHand
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.tricks import card_points, play_flags
from pinochlekit.players.double.solver import solve_values
from pinochlekit.players.search.solver import Endgame, solve
from pinochlekit.players.two.solver import LateSolver
from pinochlekit.web.process import ServerProcess

RULES = Rules.from_string("pagat(target=10000)")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from serve(tmp_path_factory, "turns")


def is_state(message: Message) -> bool:
    return message["type"] == "state" and message["view"] is not None


def test_the_turn_timer_lets_the_standin_act_and_says_so(server: ServerProcess) -> None:
    table = new_table(server, "pagat", ["open", "simple", "simple", "simple"], turn_time=3,
                      pace=0.1)
    ann = Client(server, table, join(server, table, 0, "Ann"))
    mine = ann.my_turn()
    assert mine["timer"]["seat"] == 0 and mine["timer"]["seconds"] == 3
    assert 2 <= mine["timer"]["remaining"] <= 3
    begun = time.monotonic()
    moved = ann.wait(lambda m: is_state(m) and m["last"] is not None and m["last"]["seat"] == 0)
    waited = time.monotonic() - begun
    assert moved["last"]["actor"] == "timeout"
    assert 2.5 <= waited <= 8, waited
    # a computer's turn never has a timer
    assert all(m["timer"] is None or m["timer"]["seat"] == 0 for m in [moved])
    ann.close()


def test_no_timer_by_default_nor_for_computers(server: ServerProcess) -> None:
    table = new_table(server, "pagat", ["open", "simple", "simple", "simple"], pace=0.1)
    ann = Client(server, table, join(server, table, 0, "Ann"))
    assert ann.my_turn()["timer"] is None
    ann.close()
    status, body = request("POST", server.url + "/api/tables",
                           {"rules": "pagat", "seats": ["open", "simple", "simple", "simple"],
                            "turn_time": 1})
    assert status == 400 and "turn_time" in body["error"]


def test_a_restart_gives_the_person_to_act_the_whole_time_again(tmp_path: Path) -> None:
    db = str(tmp_path / "tables.db")
    first = ServerProcess(db, log=tmp_path / "first.log").start()
    try:
        table = new_table(first, "pagat", ["open", "simple", "simple", "simple"],
                          turn_time=20, pace=0.1)
        token = join(first, table, 0, "Ann")
        ann = Client(first, table, token)
        ann.my_turn()
        time.sleep(2)
        ann.close()
    finally:
        first.stop(kill=True)
    second = ServerProcess(db, log=tmp_path / "second.log").start()
    try:
        ann = Client(second, table, token)
        again = ann.my_turn()
        assert again["timer"]["seat"] == 0 and again["timer"]["remaining"] >= 19
        ann.close()
    finally:
        second.stop()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_chat_is_limited_escaped_refused_in_a_flood_and_kept(backend: str,
                                                            tmp_path: Path) -> None:
    db = str(tmp_path / "tables.db") if backend == "sqlite" else pg_url()
    first = ServerProcess(db, log=tmp_path / "first.log").start()
    try:
        table = new_table(first, "pagat", ["open", "open", "simple", "simple"],
                          spectator_chat="read", pace=0.1)
        tokens = [join(first, table, 0, "Ann"), join(first, table, 1, "Bob")]
        ann, bob = Client(first, table, tokens[0]), Client(first, table, tokens[1])
        watcher = Client(first, table, strict=False)
        ann.send({"type": "chat", "text": "  <b>hi</b>\u202e\x00 there  "})
        got = bob.wait(lambda m: m["type"] == "chat")["message"]
        assert got["text"] == "<b>hi</b> there" and got["name"] == "Ann" and got["seat"] == 0
        assert watcher.wait(lambda m: m["type"] == "chat")["message"]["text"] == got["text"]
        watcher.send({"type": "chat", "text": "me too"})
        refused = watcher.wait(lambda m: m["type"] == "error")
        assert refused["code"] == "chat_closed" and "spectators" in refused["message"]
        ann.send({"type": "chat", "text": "x" * 201})
        long = ann.wait(lambda m: m["type"] == "error")
        assert long["code"] == "chat_too_long" and "200" in long["message"]
        for kind in (123, None):
            ann.send({"type": "chat", "text": kind})
            assert ann.wait(lambda m: m["type"] == "error")["code"] == "bad_message"
        for n in range(4):  # one was sent above: five in ten seconds
            ann.send({"type": "chat", "text": f"message {n}"})
            text = f"message {n}"
            bob.wait(lambda m: m["type"] == "chat" and m["message"]["text"] == text)  # noqa: B023
        ann.send({"type": "chat", "text": "one too many"})
        flood = ann.wait(lambda m: m["type"] == "error")
        assert flood["code"] == "chat_flood" and "at most 5" in flood["message"]
        for client in (ann, bob, watcher):
            client.close()
    finally:
        first.stop(kill=True)
    second = ServerProcess(db, log=tmp_path / "second.log").start()
    try:
        bob = Client(second, table, tokens[1])
        log = bob.wait(lambda m: m["type"] == "chat_log")["messages"]
        assert [m["text"] for m in log] == ["<b>hi</b> there"] + [f"message {n}"
                                                                  for n in range(4)]
        status, history = request("GET", f"{second.url}/api/tables/{table}/history")
        assert status == 200 and len(history["chat"]) == 5
        bob.close()
    finally:
        second.stop()


def test_spectators_see_no_chat_unless_the_table_lets_them(server: ServerProcess) -> None:
    table = new_table(server, "pagat", ["open", "simple", "simple", "simple"], pace=0.1)
    ann = Client(server, table, join(server, table, 0, "Ann"))
    watcher = Client(server, table, strict=False)
    watcher.wait(lambda m: m["type"] == "state")
    ann.send({"type": "chat", "text": "private"})
    ann.wait(lambda m: m["type"] == "chat")
    with pytest.raises(AssertionError):
        watcher.wait(lambda m: m["type"] in ("chat", "chat_log"), timeout=1.5)
    status, history = request("GET", f"{server.url}/api/tables/{table}/history")
    assert status == 200 and history["chat"] is None
    ann.close()
    watcher.close()


def test_undo_at_a_table_of_computers_only(server: ServerProcess) -> None:
    table = new_table(server, "pagat", ["open", "simple", "simple", "simple"], pace=3)
    ann = Client(server, table, join(server, table, 0, "Ann"))
    mine = ann.my_turn()
    assert not mine["undo"]
    ann.act(choose(mine, bidder=True))
    after = ann.wait(lambda m: is_state(m) and m["ply"] == mine["ply"] + 1)
    assert after["undo"] and after["last"]["seat"] == 0
    ann.send({"type": "undo"})
    back = ann.wait(lambda m: is_state(m) and m["ply"] == mine["ply"])
    assert back["view"]["to_act"] == 0 and back["view"]["hand"] == mine["view"]["hand"]
    assert back["view"]["auction"] == mine["view"]["auction"] and not back["undo"]
    ann.act(choose(back, bidder=True))
    ann.wait(lambda m: is_state(m) and m["ply"] == mine["ply"] + 2)  # the next player acted
    ann.send({"type": "undo"})
    late = ann.wait(lambda m: m["type"] == "error")
    assert late["code"] == "no_undo" and "already acted" in late["message"]
    ann.close()


def test_undo_is_refused_with_words_where_another_person_sits(server: ServerProcess) -> None:
    table = new_table(server, "pagat", ["open", "open", "simple", "simple"], pace=3)
    ann = Client(server, table, join(server, table, 0, "Ann"))
    bob = Client(server, table, join(server, table, 1, "Bob"))
    # whichever person is to act first acts, then asks to undo
    deadline = time.monotonic() + 60
    mover: Client | None = None
    while mover is None:
        assert time.monotonic() < deadline
        for client in (ann, bob):
            try:
                message = client.recv(0.05)
            except TimeoutError:
                continue
            if client.my_move(message):
                mover, turn = client, message
                break
    mover.act(choose(turn, bidder=True))
    after = mover.wait(lambda m: is_state(m) and m["ply"] == turn["ply"] + 1)
    assert not after["undo"]
    mover.send({"type": "undo"})
    refused = mover.wait(lambda m: m["type"] == "error")
    assert refused["code"] == "no_undo" and "all computers" in refused["message"]
    ann.close()
    bob.close()


def claim_answer(views: list[Message]) -> tuple[bool, int]:
    """From the four seats' views of one position (the test sits at every seat, so
    every hand is known): whether seat 0's side takes every trick point left against
    any defence (the exact solver), and how many points are left."""
    view = views[0]
    points = card_points(RULES)
    hands = tuple(Hand.parse(v["hand"]) for v in views)
    trick = tuple((int(s), int(Card(c))) for s, c in view["trick"])
    end = Endgame(int(parse_suit(view["trump"])), hands, 0, trick)
    left = sum(points[int(c)] for h in hands for c in h) + sum(points[c] for _, c in trick)
    left += 10  # the last trick (docs/rules.md §1 Counting)
    return solve(RULES, end, 0) == left, left


def test_a_claim_is_checked_then_played_out_or_refused(server: ServerProcess) -> None:
    """Four people (the test plays every seat, so it knows every hand); Ann (seat 0)
    bids and the others pass, so her side declares every hand. At her turns in the
    last six tricks she claims once a hand, when the exact solver's verdict is one
    not seen yet: a sure claim is played out and her side takes every point left; an
    unsure one is refused, and a second claim in that hand too."""
    table = new_table(server, str(RULES), ["open"] * 4)
    people = [Client(server, table, join(server, table, s, n), strict=False)
              for s, n in enumerate(("Ann", "Bob", "Cy", "Di"))]
    seen: set[str] = set()
    claimed = -1  # the hand in which Ann claimed
    latest: list[Message | None] = [None] * 4
    for seat, person, message in turns(people, latest, 240):
        view = message["view"]
        if (seat == 0 and view["phase"] == "play" and view["declarer"] in (0, 2)
                and max(view["hand_sizes"]) <= 6 and claimed != view["hand_number"]):
            sure, left = claim_answer(views_at(people, latest, message))
            if claim_once(people, latest, message, (sure, left), seen):
                claimed = view["hand_number"]
                if len(seen) == 2:
                    break
                continue
        person.act(choose(message, bidder=seat == 0))
    for person in people:
        person.close()


def claim_once(people: list[Client], latest: list[Message | None], turn: Message,
               verdict: tuple[bool, int], seen: set[str]) -> bool:
    """Ann claims at ``turn`` if the solver's verdict (sure, points left) is one not
    in ``seen`` yet (:func:`check_claim`), then takes her next turn if the claim's
    play-out ended on it; whether she claimed."""
    sure, left = verdict
    kind = "played out" if sure else "refused"
    if kind in seen:
        return False
    after = check_claim(people, turn, sure, left)
    seen.add(kind)
    if after is not None and len(seen) < 2:
        latest[0] = after
        if people[0].my_move(after):  # the next hand's first turn
            people[0].act(choose(after, bidder=True))
    return True


def turns(people: list[Client], latest: list[Message | None],
          seconds: float) -> Iterator[tuple[int, Client, Message]]:
    """Each person's turn at the table as it comes (seat, client, state), keeping
    every seat's latest state in ``latest``; fails after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        assert time.monotonic() < deadline, "no end within the time"
        for seat, person in enumerate(people):
            try:
                message = person.recv(0.02)
            except TimeoutError:
                continue
            if is_state(message):
                latest[seat] = message
            if person.my_move(message):
                yield seat, person, message


def views_at(people: list[Client], latest: list[Message | None], turn: Message) -> list[Message]:
    """Every seat's view at Ann's ``turn`` (the others' states of that ply are read
    first: no one else acts before Ann does)."""
    for seat, person in enumerate(people):
        while latest[seat] is None or latest[seat]["ply"] < turn["ply"]:  # type: ignore[index]
            message = person.recv(10)
            if is_state(message):
                latest[seat] = message
    views = [m["view"] for m in latest if m is not None]
    assert [m["ply"] for m in latest if m is not None] == [turn["ply"]] * len(people)
    return views


def check_claim(people: list[Client], turn: Message, sure: bool,
                left: int) -> Message | None:
    """Ann claims at ``turn``: refused (she then plays on), or asked of every person
    of the other side (Bob and Di; three- and two-handed everyone else), who accept,
    and then played out with every point left to her side; the state after the hand
    when played out (it may be Ann's turn)."""
    ann = people[0]
    four = len(people) == 4
    asked = [1, 3] if four else list(range(1, len(people)))
    theirs = [1] if four else asked  # their trick points: by team, else by seat
    before = turn["view"]["trick_points"]
    hand = turn["view"]["hand_number"]
    ann.send({"type": "claim"})
    answer = ann.wait(lambda m: m["type"] == "error" or (is_state(m) and m["claim"]))
    if not sure:
        assert answer["type"] == "error", answer
        assert answer["code"] == "claim_refused" and "plays on" in answer["message"]
        ann.send({"type": "claim"})
        again = ann.wait(lambda m: m["type"] == "error")
        assert again["code"] == "no_claim" and "one claim per hand" in again["message"]
        ann.act(choose(turn), turn["ply"])  # the hand plays on: still Ann's turn
        return None
    assert answer["type"] == "state" and answer["claim"]["waiting"] == asked, answer
    for other in asked:
        people[other].send({"type": "claim_answer", "accept": True})
    played: list[Message] = []  # the states of the cards the claim played

    def over(m: Message) -> bool:
        if is_state(m) and m["last"] is not None and m["last"]["actor"] == "claim":
            played.append(m)
        return is_state(m) and (m["view"]["hand_number"] > hand
                                or m["view"]["phase"] == "game over")

    done = ann.wait(over)  # the last card's state may already be the next hand's
    assert played and all(m["last"]["action"].startswith("play") for m in played), played
    assert len(done["hands"]) >= hand, (hand, done["view"]["hand_number"], done["hands"])
    result = done["hands"][hand - 1]
    for other in theirs:
        assert result["trick_points"][other] == before[other], (result, before)
    if four:
        assert result["trick_points"][0] == before[0] + left
    else:  # three-handed the cards set aside count for the declarer too (docs/rules.md §3)
        assert result["trick_points"][0] >= before[0] + left
    return done


def claim_answer_three_or_two(rules: Rules, views: list[Message]) -> tuple[bool, int]:
    """Three- or two-handed, from every seat's view of one position (the test sits at
    every seat): whether seat 0 takes every trick point left against any defence (the
    exact solvers: three-handed the declarer alone against both defenders, two-handed
    the last tricks), and how many points are left."""
    view = views[0]
    points = card_points(rules)
    hands = [Hand.parse(v["hand"]) for v in views]
    trick = [(int(s), int(Card(c))) for s, c in view["trick"]]
    left = sum(points[int(c)] for h in hands for c in h) + sum(points[c] for _, c in trick)
    left += 10 // rules.unit  # the last trick (docs/rules.md §1 Counting, §4)
    trump = int(parse_suit(view["trump"]))
    if rules.players == 3:
        end = Endgame(trump, tuple(hands), 0, tuple(trick), declarer=0)
        return solve(rules, end, 0) == left, left
    solver = LateSolver(rules, trump)
    if trick:  # seat 1 led: the solver takes the lead out of the leader's hand itself
        lead = trick[0][1]
        values = solver.follow_values(lead, hands[1] + Hand.from_cards([lead]), hands[0])
        return max(values.values()) == left, left
    return solver.value(hands[0], hands[1]) == left, left


def claim_answer_double(rules: Rules, views: list[Message]) -> tuple[bool, int]:
    """The double deck (docs/rules.md §6), from every seat's view of one position:
    whether seat 0's side takes every trick point left against any defence, by the
    double deck's exact solver, and how many points are left."""
    view = views[0]
    hands = [[DoubleHand.parse(v["hand"]).count(k) for k in range(24)] for v in views]
    trick = [(int(s), int(Card(c))) for s, c in view["trick"]]
    values = solve_values(hands, trick, int(parse_suit(view["trump"])), 0, play_flags(rules))
    left = sum(next(iter(values.values())))
    return any(theirs == 0 for _, theirs in values.values()), left


@pytest.mark.parametrize("text", ["three(target=10000)", "two(target=10000)",
                                  "doubledeck(target=10000)"])
def test_a_claim_three_and_two_handed_is_checked_then_played_out_or_refused(
        server: ServerProcess, text: str) -> None:
    """docs/web.md "Claim": three-handed the declarer claims alone (Ann bids, the others
    pass, so she declares every hand), two-handed either player once the stock is
    gone, the double deck the declaring side in the last four tricks. The test plays
    every seat, so it knows every hand: at Ann's turns where
    the state offers her a claim she claims once a hand when the solver's verdict is
    one not seen yet; a sure claim is asked of every other person, played out, and
    leaves them no more points; an unsure one is refused, and a second one too.
    Where she may not claim (another seat's turn, the stock not gone, a defender)
    the state does not offer it."""
    rules = Rules.from_string(text)
    n = rules.players
    table = new_table(server, text, ["open"] * n)
    names = ("Ann", "Bob", "Cy", "Di")[:n]
    people = [Client(server, table, join(server, table, s, name), strict=False)
              for s, name in enumerate(names)]
    seen: set[str] = set()
    claimed = -1
    latest: list[Message | None] = [None] * n
    for seat, person, message in turns(people, latest, 300):
        view = message["view"]
        late = view["phase"] == "play" and (
            view.get("stage") == "last tricks" if n == 2
            else view["declarer"] is not None and view["declarer"] % 2 == seat % 2
            and max(view["hand_sizes"]) <= 4 if rules.deck == "double"
            else view["declarer"] == seat and max(view["hand_sizes"]) <= 6)
        once = claimed != view["hand_number"]  # one claim per hand, whoever makes it
        assert message["can_claim"] == (late and once), (seat, view)
        if seat == 0 and late and once:
            answer = claim_answer_double if rules.deck == "double" else \
                claim_answer_three_or_two
            sure, left = answer(rules, views_at(people, latest, message))
            if claim_once(people, latest, message, (sure, left), seen):
                claimed = view["hand_number"]
                if len(seen) == 2:
                    break
                continue
        person.act(choose(message, bidder=seat == 0))
    for person in people:
        person.close()


def test_a_claim_outside_the_last_tricks_is_refused_in_words(server: ServerProcess) -> None:
    table = new_table(server, "two", ["open", "simple"])
    ann = Client(server, table, join(server, table, 0, "Ann"), strict=False)
    ann.my_turn()
    ann.send({"type": "claim"})
    assert not ann.state["can_claim"]  # type: ignore[index]
    refused = ann.wait(lambda m: m["type"] == "error")
    assert refused["code"] == "no_claim" and refused["message"] == (
        "a claim is for the last twelve tricks, once the stock is gone")
    ann.send({"type": "claim_answer", "accept": True})
    assert ann.wait(lambda m: m["type"] == "error")["code"] == "no_claim"
    ann.close()


def test_undo_at_a_two_handed_table_of_one_computer(server: ServerProcess) -> None:
    table = new_table(server, "two", ["open", "simple"], pace=3)
    ann = Client(server, table, join(server, table, 0, "Ann"))
    mine = ann.my_turn()
    ann.act(choose(mine))
    after = ann.wait(lambda m: is_state(m) and m["ply"] == mine["ply"] + 1)
    assert after["undo"]
    ann.send({"type": "undo"})
    back = ann.wait(lambda m: is_state(m) and m["ply"] == mine["ply"])
    assert back["view"]["hand"] == mine["view"]["hand"] and back["view"]["to_act"] == 0
    ann.close()


ClaimStep = Callable[[list[Client], list[Message], Message], "Message | None"]


def play_until_ann_claims(tmp_path: Path, claim: ClaimStep) -> tuple[str, str, list[str],
                                                                     Message | None]:
    """Four people at a table of a new server on a new database play until ``claim``,
    asked at each of Ann's turns late in a hand her side declares (at most six cards
    each), returns the turn it claimed at; the server is then killed. The database,
    the table, the four tokens and that turn (``None``: no such turn came)."""
    db = str(tmp_path / "tables.db")
    first = ServerProcess(db, log=tmp_path / "first.log").start()
    try:
        table = new_table(first, str(RULES), ["open"] * 4)
        tokens = [join(first, table, s, n) for s, n in enumerate(("Ann", "Bob", "Cy", "Di"))]
        people = [Client(first, table, t, strict=False) for t in tokens]
        latest: list[Message | None] = [None] * 4
        claimed: Message | None = None
        for seat, person, message in turns(people, latest, 240):
            view = message["view"]
            if (seat == 0 and view["phase"] == "play" and view["declarer"] in (0, 2)
                    and max(view["hand_sizes"]) <= 6):
                claimed = claim(people, views_at(people, latest, message), message)
                if claimed is not None:
                    break
            person.act(choose(message, bidder=seat == 0))
        for person in people:
            person.close()
    finally:
        first.stop(kill=True)
    return db, table, tokens, claimed


def test_a_refused_claim_still_counts_after_a_restart(tmp_path: Path) -> None:
    """One claim per hand (docs/web.md "Claim") holds across a restart: Ann's unsure
    claim is refused, the server is killed and started again on the same database,
    and at the same turn her second claim is refused as the hand's second one (not
    checked again)."""
    def unsure_claim(people: list[Client], views: list[Message],
                     message: Message) -> Message | None:
        if claim_answer(views)[0]:
            return None
        people[0].send({"type": "claim"})
        answer = people[0].wait(lambda m: m["type"] == "error")
        assert answer["code"] == "claim_refused", answer
        return message

    db, table, tokens, refused = play_until_ann_claims(tmp_path, unsure_claim)
    second = ServerProcess(db, log=tmp_path / "second.log").start()
    try:
        ann = Client(second, table, tokens[0], strict=False)
        turn = ann.my_turn()
        assert refused is not None and turn["ply"] == refused["ply"]
        assert not turn["can_claim"]
        ann.send({"type": "claim"})
        again = ann.wait(lambda m: m["type"] == "error")
        assert again["code"] == "no_claim" and "one claim per hand" in again["message"]
        ann.close()
    finally:
        second.stop()


def test_a_claim_waiting_for_answers_is_kept_across_a_restart(tmp_path: Path) -> None:
    """Nothing lost on restart (docs/web.md "Claim"): Ann's sure claim waits for Bob
    and Di; Bob accepts, the server is killed and started again on the same database,
    and the claim still waits for Di alone at the same turn; she accepts and the rest
    of the hand is played out for the claim, every point left to Ann's side."""
    left = 0

    def sure_claim(people: list[Client], views: list[Message],
                   message: Message) -> Message | None:
        nonlocal left
        sure, left = claim_answer(views)
        if not sure:
            return None
        ann, bob = people[0], people[1]
        ann.send({"type": "claim"})
        waits = ann.wait(lambda m: is_state(m) and m["claim"] is not None)
        assert waits["claim"]["waiting"] == [1, 3]
        bob.send({"type": "claim_answer", "accept": True})
        ann.wait(lambda m: is_state(m) and m["claim"] is not None
                 and m["claim"]["waiting"] == [3])
        return message

    db, table, tokens, claimed = play_until_ann_claims(tmp_path, sure_claim)
    assert claimed is not None, "no sure claim came up"
    before = claimed["view"]["trick_points"]
    hand = claimed["view"]["hand_number"]
    second = ServerProcess(db, log=tmp_path / "second.log").start()
    try:
        di = Client(second, table, tokens[3], strict=False)
        state = di.wait(is_state)
        assert state["ply"] == claimed["ply"]
        assert state["claim"] == {"seat": 0, "waiting": [3], "declined": None}
        di.send({"type": "claim_answer", "accept": True})
        done = di.wait(lambda m: is_state(m) and (m["view"]["hand_number"] > hand
                                                  or m["view"]["phase"] == "game over"))
        result = done["hands"][hand - 1]
        assert result["trick_points"][0] == before[0] + left
        assert result["trick_points"][1] == before[1]
        di.close()
    finally:
        second.stop()
