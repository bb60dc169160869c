"""The web server's storage (SQLite and PostgreSQL through one code path) and the
per-seat state it sends, checked without a network: a whole hand played at a table
of four people, each seat's messages checked for what it must never see."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
from pathlib import Path
from typing import Any

import pytest

from pinochlekit.engine.actions import Action, parse_action
from pinochlekit.engine.game import Game
from pinochlekit.engine.views import View
from pinochlekit.players import Player
from pinochlekit.players.seat import Seat as SeatDriver
from pinochlekit.web.claim import best_play, claim_is_sure, claimable
from pinochlekit.web.hub import Hub
from pinochlekit.web.storage import StoreError, TableStore
from pinochlekit.web.table import CLAIM, RejectedError, Table


def pg_url() -> str:
    url = os.environ.get("PINOCHLEKIT_TEST_PG")
    if not url:
        pytest.skip("PINOCHLEKIT_TEST_PG is not set (.ci/run always sets it)")
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return str(tmp_path / "store.db") if request.param == "sqlite" else pg_url()


def test_the_store_keeps_tables_seats_games_and_actions_in_order(store_url: str) -> None:
    store = TableStore.open(store_url)
    table_id = f"t-{os.urandom(4).hex()}"
    store.create_table(table_id, "Club", {"rules": "modern", "grace": 30}, ["open"] * 4)
    assert store.claim_seat(table_id, 2, "Dee", "hash2")
    assert not store.claim_seat(table_id, 2, "Eve", "hash-eve")  # taken first by Dee
    store.add_game(table_id, 0, "modern", "secret", 3)
    for ply, text in enumerate(["bid 250", "pass", "pass", "pass"]):
        store.add_action(table_id, 0, ply, (ply + 3) % 4, text, "human")
    store.close()
    again = TableStore.open(store_url)  # a new connection: the data is committed
    row = again.load_table(table_id)
    assert row is not None and row.title == "Club" and row.settings["grace"] == 30
    assert [s.kind for s in row.seats] == ["open", "open", "human", "open"]
    assert row.seats[2].name == "Dee" and row.seats[2].token_hash == "hash2"
    assert row.games[0].actions == ["bid 250", "pass", "pass", "pass"]
    assert row.games[0].seats == [3, 0, 1, 2]
    with pytest.raises(Exception):  # noqa: B017 (sqlite3 or psycopg IntegrityError)
        again.add_action(table_id, 0, 1, 0, "pass", "human")  # a ply is stored once
    assert again.load_table(table_id).games[0].actions[1] == "pass"  # type: ignore[union-attr]
    assert table_id in [t["id"] for t in again.list_tables()]
    again.set_status(table_id, "over")
    assert table_id not in [t["id"] for t in again.list_tables()]
    assert again.load_table("no-such-table") is None
    again.close()


def test_an_unusable_database_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="cannot open the database"):
        TableStore.open(str(tmp_path / "no" / "such" / "dir" / "x.db"))
    with pytest.raises(StoreError, match="cannot connect to postgresql://nobody@"):
        TableStore.open("postgresql://nobody:secret@127.0.0.1:9/none")


def choose(state: dict[str, Any]) -> str:
    view = state["view"]
    legal = view["legal"]
    if legal["pass_cards"]:
        verb = "give" if view["phase"] == "give" else "return"
        return f"{verb} " + " ".join(view["hand"].split()[-legal["pass_cards"]:])
    if view["phase"] == "auction" and legal["bid"] and state["ply"] == 0:
        return f"bid {legal['bid']['min']}"  # someone declares, so the cards are passed
    plays = [a for a in legal["actions"] if a.startswith(("play", "trump"))]
    return plays[0] if plays else "pass"


async def play_a_hand_of_four_people(tmp_path: Path) -> None:
    hub = Hub(TableStore.open(str(tmp_path / "t.db")))
    table = await hub.create("Four friends", "pagat", ["open"] * 4, 60, 0, "easy")
    for seat in range(4):
        await table.join(seat, f"P{seat}")
    game = table.game
    assert isinstance(game, Game)  # four-handed: the auction game
    passers: tuple[int, int] | None = None
    while not game.results:
        actor = game.to_act
        assert actor is not None
        before = [str(game.hand(s)) for s in range(4)]
        state = table.state(actor)
        await table.act(actor, choose(state), state["ply"])
        if game.declarer is not None:
            passers = (game.declarer, (game.declarer + 2) % 4)
        for viewer in (0, 1, 2, 3, None):
            message = table.state(viewer)
            text = json.dumps(message)
            view = message["view"]
            for other in range(4):
                if other != viewer and len(before[other]) > 20:
                    assert before[other] not in text and str(game.hand(other)) not in text
            # the hand field holds exactly the viewer's CURRENT hand (no other seat's card);
            # a spectator gets none
            now = None if viewer is None else sorted(str(game.hand(viewer)).split())
            assert (None if view["hand"] is None else sorted(view["hand"].split())) == now
            if passers is not None and viewer not in passers:
                # docs/rules.md §1 Passing: only the declarer and partner see the passed cards
                assert view["given"] is None and view["returned"] is None, viewer
                assert not re.search(r'(give|return)[^"]*? [2-9TJQKA][SHDC]', text), text[:300]
            assert str(game.seed) not in text and game.deal_seed not in text
    assert passers is not None
    # the passing path was taken: the cards were given and returned
    assert {type(a).__name__ for a in game.actions} >= {"Give", "Return"}
    # a stale or out-of-turn action changes nothing
    ply = len(game.actions)
    turn = game.to_act
    assert turn is not None
    with pytest.raises(RejectedError, match="stale"):
        await table.act(turn, "pass", ply - 1)
    with pytest.raises(RejectedError, match="turn"):
        await table.act((turn + 1) % 4, "pass", ply)
    assert len(game.actions) == ply
    # the table rebuilt from the store is the same game
    row = await hub.db("load_table", table.id)
    again = Table.from_row(row, hub.db, hub.compute)
    assert again.game is not None and again.game.record == game.record
    assert again.state(1)["view"] == table.state(1)["view"]
    await hub.close()


def test_each_seat_sees_only_its_own_cards_and_passes(tmp_path: Path) -> None:
    asyncio.run(play_a_hand_of_four_people(tmp_path))


async def load_damaged(tmp_path: Path) -> None:
    store = TableStore.open(str(tmp_path / "damaged.db"))
    store.create_table("bad", "Damaged", {"rules": "pagat"}, ["human", "easy", "easy", "easy"])
    store.add_game("bad", 0, "pagat", "seed", 0)
    store.add_action("bad", 0, 0, 1, "play ZZ", "human")  # no such card: cannot replay
    hub = Hub(store)
    assert await hub.get("bad") is None  # logged and refused, the server goes on
    assert await hub.get("missing") is None
    await hub.close()


def test_a_damaged_table_record_is_refused_not_a_crash(tmp_path: Path) -> None:
    asyncio.run(load_damaged(tmp_path))


class IllegalPlayer(Player):
    """A computer player that always answers ``bid 7`` (no phase allows it)."""

    name = "illegal"

    def choose(self, view: View) -> Action:
        return parse_action("bid 7")


class BrokenPlayer(Player):
    """A computer player whose every decision fails."""

    name = "broken"

    def choose(self, view: View) -> Action:
        raise RuntimeError("this player is broken")


class Watcher:
    """A connected client as the table sees it: it only collects what is pushed."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.messages: list[dict[str, Any]] = []

    def push(self, message: dict[str, Any]) -> None:
        self.messages.append(message)


async def play_against_bad_computers(tmp_path: Path) -> None:
    store = TableStore.open(str(tmp_path / "bad.db"))
    hub = Hub(store)
    table = await hub.create("Bad computers", "pagat", ["open", "easy", "easy", "easy"],
                             60, 0, "easy")
    await table.join(0, "Ann")
    for number, player in ((1, IllegalPlayer()), (2, BrokenPlayer()), (3, IllegalPlayer())):
        table.seats[number].driver = SeatDriver(player, number)
    game = table.game
    assert game is not None
    ann = Watcher(0)
    table.attach(ann)  # starts the computers
    deadline = asyncio.get_running_loop().time() + 60
    while not game.results:
        assert asyncio.get_running_loop().time() < deadline, "the table stalled"
        if game.to_act == 0:
            state = table.state(0)
            await table.act(0, choose(state), state["ply"])
        await asyncio.sleep(0.01)
    computer = [i for i, (seat, _) in enumerate(table.actors[-1]) if seat != 0]
    # every computer moved (each time through the fallback) and the hand was finished
    assert {table.actors[-1][i][0] for i in computer} == {1, 2, 3}
    assert all(str(game.actions[i]) != "bid 7" for i in computer)
    # what is stored is exactly what was played, and the table can be rebuilt from it
    row = await hub.db("load_table", table.id)
    assert row is not None and row.games[0].actions == [str(a) for a in game.actions]
    again = Table.from_row(row, hub.db, hub.compute)
    assert again.game is not None and again.game.record == game.record
    # the fallback is a pure function of the table, game, ply and seat
    seat = again.game.to_act
    assert seat is not None
    first = again._fallback(again.game, seat)
    assert again.game.is_legal(first, seat)
    assert all(again._fallback(again.game, seat) == first for _ in range(5))
    table.detach(ann)
    await hub.close()


def test_illegal_or_failing_computer_moves_are_never_stored_and_never_stall(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="pinochlekit.web"):
        asyncio.run(play_against_bad_computers(tmp_path))
    assert "chose the illegal action 'bid 7'" in caplog.text
    assert "the computer at seat 2 failed" in caplog.text


def test_the_store_does_multi_step_changes_in_one_transaction(tmp_path: Path) -> None:
    store = TableStore.open(str(tmp_path / "tx.db"))
    store.create_table("t", "T", {}, ["open", "easy", "easy", "easy"], ["", "easy", "e2", "e3"])
    row = store.load_table("t")
    assert row is not None and [s.name for s in row.seats] == ["", "easy", "e2", "e3"]
    store.add_game("t", 0, "pagat", "seed", 0, "playing")
    assert store.list_tables()[0]["status"] == "playing"
    store.add_action("t", 0, 0, 1, "pass", "human", "over")
    assert store.list_tables() == []
    with pytest.raises(Exception):  # noqa: B017 (IntegrityError): the ply is taken ...
        store.add_action("t", 0, 0, 1, "bid 250", "human", "playing")
    assert store.count_tables() == 0  # ... so the status change was rolled back with it
    (mode,) = store._read("PRAGMA synchronous")[0]
    assert mode == 2  # FULL: a committed action survives a power cut
    store.close()


def test_a_lost_postgresql_connection_is_opened_again() -> None:
    import psycopg

    url = pg_url()
    store = TableStore.open(url)
    table_id = f"r-{os.urandom(4).hex()}"
    store.create_table(table_id, "Reconnect", {}, ["open"] * 4)
    pid = store._read("SELECT pg_backend_pid()")[0][0]
    with psycopg.connect(url, autocommit=True) as admin:  # what a server restart does
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    store.add_game(table_id, 0, "pagat", "seed", 0, "playing")  # a write, after the loss
    assert store._read("SELECT pg_backend_pid()")[0][0] != pid
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (store._read(
            "SELECT pg_backend_pid()")[0][0],))
    row = store.load_table(table_id)  # a read, after the loss
    assert row is not None and row.games[0].seed == "seed" and row.status == "playing"
    store.close()


def test_the_hands_claimed_in_are_kept_and_removed_with_the_table(store_url: str) -> None:
    store = TableStore.open(store_url)
    table_id = f"t-{os.urandom(4).hex()}"
    store.create_table(table_id, "Claims", {"rules": "pagat"}, ["open"] * 4)
    store.add_claim(table_id, 0, 3)
    store.add_claim(table_id, 1, 1)
    store.close()
    again = TableStore.open(store_url)
    row = again.load_table(table_id)
    assert row is not None and row.claims == {(0, 3), (1, 1)}
    assert again.remove_table(table_id)
    again.close()
    third = TableStore.open(store_url)
    third.create_table(table_id, "Claims", {"rules": "pagat"}, ["open"] * 4)  # the id again
    assert third.load_table(table_id).claims == set()  # type: ignore[union-attr]
    third.close()


async def at_a_sure_claim(tmp_path: Path) -> tuple[Hub, Table, Game]:
    """Four people at a new table play (seat 0 bids, the others pass: its side
    declares every hand) until seat 0 has a sure claim on its turn."""
    hub = Hub(TableStore.open(str(tmp_path / "t.db")))
    table = await hub.create("Claim", "pagat(target=10000)", ["open"] * 4, 60, 0, "easy")
    for number in range(4):
        await table.join(number, f"P{number}")
    game = table.game
    assert isinstance(game, Game)
    for _ in range(2000):
        seat = game.to_act
        assert seat is not None
        if seat == 0 and len(game.hand(0)) >= 2 and claimable(game, 0) is None \
                and claim_is_sure(game, 0):
            return hub, table, game
        legal = [str(a) for a in game.legal_actions()]
        bids = [a for a in legal if a.startswith("bid")]
        text = bids[0] if seat == 0 and bids else "pass" if "pass" in legal else legal[0]
        await table.act(seat, text, len(game.actions))
    raise AssertionError("no sure claim came up")


async def resume_a_claims_play_out(tmp_path: Path) -> None:
    hub, table, game = await at_a_sure_claim(tmp_path)
    hand, before = game.hand_number, list(game.trick_points)
    cards_left = sum(len(game.hand(s)) for s in range(4))
    # the claim was accepted and its first card played, then the server stopped
    async with table.lock:
        await table._commit(game, 0, str(best_play(game)), CLAIM)
    row = await hub.db("load_table", table.id)
    again = Table.from_row(row, hub.db, hub.compute)
    assert again.game is not None and again.game.hand_number == hand
    await again._drive()  # what a connection's kick() runs: the claim is played out
    result = again.game.results[hand - 1]
    assert result.trick_points[1] == before[1]  # every point left went to the claim's side
    assert sum(actor == CLAIM for _, actor in again.actors[-1]) == cards_left
    await hub.close()


def test_a_claims_play_out_stopped_by_a_restart_is_finished(tmp_path: Path) -> None:
    """Nothing lost on restart (docs/web.md "Claim"): an accepted claim whose play-out
    was cut short (the server stopped after its first card) is played out when the
    table is loaded again, not left for the players to finish by hand."""
    asyncio.run(resume_a_claims_play_out(tmp_path))


async def finish_an_accepted_claim(tmp_path: Path) -> None:
    hub, table, game = await at_a_sure_claim(tmp_path)
    hand, before, ply = game.hand_number, list(game.trick_points), len(game.actions)
    cards_left = sum(len(game.hand(s)) for s in range(4))
    await table.claim(0)
    await table.answer_claim(1, True)
    stored = table.db

    async def no_moves(method: str, *args: Any) -> Any:
        if method == "add_action":  # the store fails at the play-out's first move
            raise StoreError("the database is gone for a moment")
        return await stored(method, *args)

    table.db = no_moves
    with pytest.raises(StoreError):
        await table.answer_claim(3, True)  # the last acceptance: stored, then played out
    assert len(game.actions) == ply and table.claim_info() == {
        "seat": 0, "waiting": [], "declined": None}
    with pytest.raises(RejectedError) as refused:  # nobody plays into the claim
        await table.act(0, str(best_play(game)), ply)
    assert refused.value.code == "claimed"
    table.db = stored
    table.closed = True  # the server stops: the table is loaded again
    row = await hub.db("load_table", table.id)
    again = Table.from_row(row, hub.db, hub.compute)
    assert again.claim_info() == {"seat": 0, "waiting": [], "declined": None}
    await again._drive()  # what a connection's kick() runs: the claim is played out
    assert again.game is not None and len(again.game.results) >= hand
    result = again.game.results[hand - 1]
    assert result.trick_points[1] == before[1]  # every point left went to the claim's side
    assert sum(actor == CLAIM for _, actor in again.actors[-1]) == cards_left
    assert again.claim_info() is None
    stored_row = await hub.db("load_table", table.id)
    assert stored_row is not None and stored_row.open_claim is None
    await hub.close()


def test_an_accepted_claim_survives_a_store_failure_and_a_restart(tmp_path: Path) -> None:
    """Nothing lost (docs/web.md "Claim"): the last acceptance is stored before the
    play-out; when the play-out's first move cannot be stored, the claim stays
    accepted (an action is refused, not played into it) and the table loaded
    again plays it out."""
    asyncio.run(finish_an_accepted_claim(tmp_path))
