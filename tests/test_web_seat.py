"""The web's computer seats: seeded from the game's secret seed and the seat (docs/players.md
"Seeds"), one player per seat for the game, rebuilt with its memory after a restart.

The check is built on the stored record: every computer decision of the table, before
and after a ``kill -9`` in the middle of a hand, equals the decision of one Seat per
seat living through the whole record in the test process. A computer that lost its
memory in the restart, or was seeded from anything else, decides differently
(``random`` draws from its generator at every decision).
"""

from __future__ import annotations

from pathlib import Path

from web_helpers import Client, join, new_table, stored_table

from pinochlekit.engine.games import parse_game_action
from pinochlekit.engine.record import GameRecord
from pinochlekit.players.seat import Seat
from pinochlekit.web.process import ServerProcess

SEATS = ["open", "random", "easy", "random"]


def test_a_restart_mid_hand_keeps_every_computer_decision(tmp_path: Path) -> None:
    db = str(tmp_path / "tables.db")
    first = ServerProcess(db, log=tmp_path / "first.log").start()
    try:
        table = new_table(first, "pagat", SEATS)
        token = join(first, table, 0, "Ann")
        ann = Client(first, table, token)
        before = ann.wait(lambda m: m["type"] == "state" and m["view"] is not None
                          and m["view"]["phase"] == "play" and m["view"]["to_act"] == 0
                          and m["ply"] > 10, play=True, timeout=120)
    finally:
        first.stop(kill=True)
    second = ServerProcess(db, log=tmp_path / "second.log").start()
    try:
        ann = Client(second, table, token)
        ann.wait(lambda m: m["type"] == "state" and m["ply"] >= before["ply"] + 12,
                 play=True, timeout=120)
        ann.close()
    finally:
        second.stop()
    game_row = stored_table(db, table).games[0]
    record = GameRecord(game_row.rules, game_row.seed, game_row.dealer, tuple(game_row.actions))
    living = {s: Seat.new(kind, s, record.seed) for s, kind in enumerate(SEATS) if s != 0}
    game = record.replay(0)
    after = 0
    for index, (seat, actor, text) in enumerate(zip(game_row.seats, game_row.actors,
                                                    game_row.actions, strict=True)):
        assert game.to_act == seat
        if seat != 0:
            assert actor == "computer"
            assert str(living[seat].choose(game.view(seat))) == text, (index, actor)
            after += index >= before["ply"]
        game.apply(parse_game_action(game.rules, text), seat)
    assert after >= 6, "too few computer moves after the restart to compare"
