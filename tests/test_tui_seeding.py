"""The table's computer seats live through the whole game (docs/players.md "Seeds").

Each computer seat is one :class:`~pinochlekit.players.seat.Seat` for the game,
seeded ``GAME SEED/seat/S``: no player is built per decision. A resumed game
rebuilds the seats from the saved record, and an undo goes back to a copy of the
seats taken at the start of the hand; either way the computers then decide exactly
as they would have without the resume or the undo.
"""

from __future__ import annotations

from pathlib import Path

from pinochlekit.engine.actions import Action, Pass
from pinochlekit.engine.games import new_game
from pinochlekit.players.seat import Seat, seat_seed
from pinochlekit.players.standard import StandardPlayer
from pinochlekit.tui.session import HUMAN, Session
from pinochlekit.tui.store import DB_NAME, GameStore

LEVEL = "standard(bid_sims=8)"
#: West, North, East: ``random`` draws from its generator at every decision, so a
#: seat that lost or repeated a decision would play differently from there on
MIXED = ["random", LEVEL, "easy"]


def person(session: Session) -> Action:
    """The person's fixed policy: pass when it may, else the first legal action."""
    legal = session.game.legal_actions()
    return Pass() if Pass() in legal else legal[0]


def play(session: Session, actions: int) -> list[str]:
    """Play until ``actions`` actions are in the game; the computers' actions."""
    chosen = []
    while len(session.game.actions) < actions and not session.is_over:
        if session.is_human_turn:
            session.act(person(session))
            continue
        turn = session.computer_turn()
        action = session.computer_choice(turn)
        chosen.append(f"{len(session.game.actions)}:{turn.view.seat}:{action}")
        session.apply_computer(turn, action)
    return chosen


def test_one_seat_per_computer_for_the_whole_game() -> None:
    session = Session.new("pagat", seed=4, levels=[LEVEL])
    seen: dict[int, set[int]] = {1: set(), 2: set(), 3: set()}
    decided = dict.fromkeys(seen, 0)
    while session.game.hand_number < 3 and not session.is_over:
        if session.is_human_turn:
            session.act(person(session))
            continue
        turn = session.computer_turn()
        assert turn.seat is not None and turn.view.seat is not None
        seen[turn.view.seat].add(id(turn.seat.player))
        assert turn.seed == seat_seed(session.game.seed, turn.view.seat)
        session.apply_computer(turn, session.computer_choice(turn))
        decided[turn.view.seat] += 1
    # one player object per seat over two whole hands, and it saw every decision
    assert all(len(ids) == 1 for ids in seen.values())
    seats = session.computer_seats()
    assert {s: seats[s].decisions for s in seats} == decided
    assert all(isinstance(seat.player, StandardPlayer) for seat in seats.values())


def test_a_seat_decides_as_a_player_living_through_the_game() -> None:
    session = Session.new("pagat", seed=6, levels=["easy"])
    computer = play(session, 60)
    # the same game with players made once, by the one seeding policy
    game = new_game("pagat", seed=6)
    living = {s: Seat.new("easy", s, game.seed) for s in (1, 2, 3)}
    again = []
    while len(game.actions) < len(session.game.actions):
        seat = game.to_act
        assert seat is not None
        if seat == HUMAN:
            game.apply(session.game.actions[len(game.actions)], seat)
            continue
        action = living[seat].choose(game.view(seat))
        again.append(f"{len(game.actions)}:{seat}:{action}")
        game.apply(action, seat)
    assert again == computer


def test_a_resumed_game_plays_on_as_the_game_not_stopped(tmp_path: Path) -> None:
    straight = Session.new("pagat", seed=11, levels=MIXED)
    play(straight, 25)
    later = play(straight, 70)  # the computers' actions from 25 on

    store = GameStore(tmp_path / DB_NAME)
    first = Session.new("pagat", seed=11, levels=MIXED, store=store)
    play(first, 25)
    resumed = Session.resume(store)
    assert resumed.game.record == first.game.record
    assert play(resumed, 70) == later


def test_an_undo_goes_back_to_the_seats_as_they_were() -> None:
    straight = Session.new("pagat", seed=2, levels=MIXED)
    play(straight, 30)
    after = play(straight, 60)

    undone = Session.new("pagat", seed=2, levels=MIXED)
    play(undone, 30)
    while not undone.is_human_turn:
        turn = undone.computer_turn()
        undone.apply_computer(turn, undone.computer_choice(turn))
    # the person plays something else, then takes it back (computer moves included)
    legal = undone.game.legal_actions()
    undone.act(legal[-1])
    play(undone, len(undone.game.actions) + 6)
    while undone.can_undo() and len(undone.game.actions) > 30:
        undone.undo()
    assert len(undone.game.actions) <= 30
    assert undone.game.record.actions == straight.game.record.actions[:len(undone.game.actions)]
    assert play(undone, 60)[-len(after):] == after
