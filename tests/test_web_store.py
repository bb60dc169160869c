"""The web server's storage (SQLite and PostgreSQL through one code path) and the
per-seat state it sends, checked without a network: a whole hand played at a table
of four people, each seat's messages checked for what it must never see."""

from __future__ import annotations

import asyncio
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from pinochlekit.web.hub import Hub
from pinochlekit.web.storage import Store, StoreError
from pinochlekit.web.table import RejectedError, Table


def pg_url() -> str:
    url = os.environ.get("PINOCHLEKIT_TEST_PG")
    if not url:
        pytest.skip("PINOCHLEKIT_TEST_PG is not set (.ci/run always sets it)")
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return str(tmp_path / "store.db") if request.param == "sqlite" else pg_url()


def test_the_store_keeps_tables_seats_games_and_actions_in_order(store_url: str) -> None:
    store = Store.open(store_url)
    table_id = f"t-{os.urandom(4).hex()}"
    store.create_table(table_id, "Club", {"rules": "modern", "grace": 30}, ["open"] * 4)
    assert store.claim_seat(table_id, 2, "Dee", "hash2")
    assert not store.claim_seat(table_id, 2, "Eve", "hash-eve")  # taken first by Dee
    store.add_game(table_id, 0, "modern", "secret", 3)
    for ply, text in enumerate(["bid 250", "pass", "pass", "pass"]):
        store.add_action(table_id, 0, ply, (ply + 3) % 4, text, "human")
    store.close()
    again = Store.open(store_url)  # a new connection: the data is committed
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
        Store.open(str(tmp_path / "no" / "such" / "dir" / "x.db"))
    with pytest.raises(StoreError, match="cannot connect to postgresql://nobody@"):
        Store.open("postgresql://nobody:secret@127.0.0.1:9/none")


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
    hub = Hub(Store.open(str(tmp_path / "t.db")))
    table = await hub.create("Four friends", "pagat", ["open"] * 4, 60, 0, "easy")
    for seat in range(4):
        await table.join(seat, f"P{seat}")
    game = table.game
    assert game is not None
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
            text = json.dumps(table.state(viewer))
            for other in range(4):
                if other != viewer and len(before[other]) > 20:
                    assert before[other] not in text and str(game.hand(other)) not in text
            if passers is not None and viewer not in passers:
                assert not re.search(r'"(give|return) [2-9TJQKA][SHDC]', text), text[:300]
            assert str(game.seed) not in text and game.deal_seed not in text
    assert passers is not None
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
    store = Store.open(str(tmp_path / "damaged.db"))
    store.create_table("bad", "Damaged", {"rules": "pagat"}, ["human", "easy", "easy", "easy"])
    store.add_game("bad", 0, "pagat", "seed", 0)
    store.add_action("bad", 0, 0, 1, "play ZZ", "human")  # no such card: cannot replay
    hub = Hub(store)
    assert await hub.get("bad") is None  # logged and refused, the server goes on
    assert await hub.get("missing") is None
    await hub.close()


def test_a_damaged_table_record_is_refused_not_a_crash(tmp_path: Path) -> None:
    asyncio.run(load_damaged(tmp_path))
