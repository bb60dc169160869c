"""The Seat driver (docs/players.md "Seeds"): one player per seat for the whole game,
seeded from the game's seed and the seat, rebuilt from a record with its memory."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from pinochlekit.engine.games import new_game, parse_game_action
from pinochlekit.engine.record import GameRecord
from pinochlekit.players.seat import Seat, SeatError, catch_up, rebuild_seats, seat_seed

#: ``random`` draws at every decision: a lost or repeated decision shows at once.
SPECS = {"pagat": ["random", "easy", "simple", "random"], "three": ["random", "easy", "random"],
         "two": ["random", "easy"]}

PLAY = """
import sys
from pinochlekit.engine.games import new_game, parse_game_action
from pinochlekit.players.seat import Seat
rules, seed, specs = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
game = new_game(rules, seed=seed)
seats = [Seat.new(spec, s, game.seed) for s, spec in enumerate(specs)]
while game.winner is None and len(game.results) < 2:
    seat = game.to_act
    game.apply(seats[seat].choose(game.view(seat)), seat)
print(" | ".join(map(str, game.actions)))
"""


def played(rules: str, seed: str) -> list[str]:
    """Two hands driven by Seats in this process."""
    game = new_game(rules, seed=seed)
    seats = [Seat.new(spec, s, game.seed) for s, spec in enumerate(SPECS[rules])]
    while game.winner is None and len(game.results) < 2:
        seat = game.to_act
        assert seat is not None
        game.apply(seats[seat].choose(game.view(seat)), seat)
    return [str(a) for a in game.actions]


@pytest.mark.parametrize("rules", ["pagat", "three", "two"])
def test_the_same_game_in_two_processes_gives_the_same_actions(rules: str) -> None:
    runs = []
    for hash_seed in ("1", "2"):
        out = subprocess.run([sys.executable, "-c", PLAY, rules, "s8", ",".join(SPECS[rules])],
                             capture_output=True, text=True, check=True, timeout=300,
                             env={**os.environ, "PYTHONHASHSEED": hash_seed})
        runs.append(out.stdout.strip().split(" | "))
    assert runs[0] == runs[1] == played(rules, "s8")
    assert len(runs[0]) > 20


def test_the_seed_is_the_game_seed_and_the_seat() -> None:
    assert seat_seed("pinochle match/3/deal/0", 1) == "pinochle match/3/deal/0/seat/1"
    seat = Seat.new("random", 2, "g")
    assert seat.player.seed == "g/seat/2" and seat.seat == 2


@pytest.mark.parametrize("rules", ["pagat", "three", "two"])
def test_a_rebuilt_seat_decides_as_the_seat_that_lived_through_the_game(rules: str) -> None:
    actions = played(rules, "rebuild")
    record = GameRecord(rules, "rebuild", 0, tuple(actions))
    for cut in (5, len(actions) // 2, len(actions) - 3):
        head = GameRecord(rules, "rebuild", 0, tuple(actions[:cut]))
        seats = rebuild_seats(head, dict(enumerate(SPECS[rules])))
        game = record.replay(cut)
        for index in range(cut, len(actions)):
            seat = game.to_act
            assert seat is not None
            assert str(seats[seat].choose(game.view(seat))) == actions[index]
            game.apply(parse_game_action(game.rules, actions[index]), seat)
        # a copy decides as the original from the point it was taken
        twin = {s: d.copy() for s, d in rebuild_seats(head, dict(enumerate(SPECS[rules]))).items()}
        catch_up(twin, record, start=cut)
        assert {s: d.decisions for s, d in twin.items()} == \
            {s: d.decisions for s, d in seats.items()}


def test_a_person_s_actions_are_not_shown_to_the_rebuilt_seat() -> None:
    actions = played("pagat", "person")
    record = GameRecord("pagat", "person", 0, tuple(actions[:30]))
    game = record.replay(0)
    computer = []
    for text in record.actions:
        computer.append(game.to_act != 0)
        game.apply(parse_game_action(game.rules, text), game.to_act)
    every = rebuild_seats(record, {0: "random"})
    some = rebuild_seats(record, {0: "random"}, computer)
    assert some[0].decisions == 0 < every[0].decisions


def test_bad_input_is_a_clear_error() -> None:
    record = GameRecord("pagat", "x", 0, ())
    with pytest.raises(SeatError, match="not a seat of a 4-player game"):
        rebuild_seats(record, {4: "random"})
    with pytest.raises(SeatError, match="1 computer flags for 0 actions"):
        rebuild_seats(record, {0: "random"}, [True])
    game = new_game("pagat", seed="x")
    seat = Seat.new("random", 1, "x")
    with pytest.raises(SeatError, match="seat 1 was shown the view of seat 0"):
        seat.choose(game.view(0))
    assert seat.decisions == 0
