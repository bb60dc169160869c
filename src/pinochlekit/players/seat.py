"""One computer seat of one game, driven from the first deal to the end of the game.

Every loop that lets computers play (duplicate matches, ``pinochle demo``, the
terminal table, the web's computer seats and stand-ins) drives them through a
:class:`Seat`: it holds *one* player object for the seat for the whole game,
shows it what the seat sees when the seat is to act, asks it for the action, and
tells an external program how each hand ended. A player therefore keeps its
memory (its bidding table, its random generator) from one decision to the next.

One seeding policy, written once in :func:`seat_seed`: the player at seat ``s`` of
a game whose seed is ``G`` is seeded with ``"G/seat/s"``. A game's seed already
names the game (a match's ``pinochle match/SEED/deal/INDEX``; the web derives each
game's seed from its number and secret server seed), so a computer's random
numbers are a pure function of (game seed, game number, seat), and a whole game
between computers is a pure function of rules, game seed and players.

After a restart (or an undo) :func:`rebuild_seats` builds the seats again from the
game's record: a fresh player per seat, seeded the same way, shown exactly the
views at which its seat decided before (its answers are discarded), so its memory
is what it would have been had nothing happened.

>>> from pinochlekit.engine.games import new_game
>>> game = new_game("pagat", seed=7)
>>> seats = {s: Seat.new("simple", s, game.seed) for s in range(4)}
>>> while not game.results:
...     seat = game.to_act
...     game.apply(seats[seat].choose(game.view(seat)), seat)
>>> again = rebuild_seats(game.record, {1: "simple"})
>>> again[1].decisions == seats[1].decisions
True
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence

from pinochlekit.engine.actions import Action
from pinochlekit.engine.errors import PinochleError
from pinochlekit.engine.games import parse_game_action, replay_any
from pinochlekit.engine.record import GameRecord
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.views import HandResult, View
from pinochlekit.players import make_player
from pinochlekit.players.base import Player
from pinochlekit.players.external import ExternalPlayer, is_command

__all__ = ["Seat", "SeatError", "catch_up", "rebuild_seats", "seat_seed"]


class SeatError(PinochleError, ValueError):
    """A seat driven with a view or record that is not its own; the message says how."""


def seat_seed(game_seed: int | str, seat: int) -> str:
    """The seed of the computer player at ``seat`` of the game seeded ``game_seed``
    (the one policy every interface uses; docs/players.md "Seeds").

    >>> seat_seed("pinochle match/3/deal/0", 2)
    'pinochle match/3/deal/0/seat/2'
    """
    return f"{game_seed}/seat/{seat}"


class Seat:
    """One computer player at one seat, for the whole game.

    Build it with :meth:`new` (the seeding policy) or around a player object made
    elsewhere. :attr:`decisions` counts the views the player was asked about.
    """

    def __init__(self, player: Player, seat: int, spec: str = "") -> None:
        if seat < 0:
            raise SeatError(f"a seat is a number from 0, not {seat}")
        self.player = player
        self.seat = seat
        self.spec = spec or player.name
        self.decisions = 0
        self._reported = 0  # hand results already told to the player

    @classmethod
    def new(cls, spec: str, seat: int, game_seed: int | str, *,
            timeout: float | None = None) -> Seat:
        """The player ``spec`` names (:func:`~pinochlekit.players.make_player`) at
        ``seat``, seeded by :func:`seat_seed`; ``timeout``: seconds per answer of an
        external program (``cmd:PROGRAM ARGS``; its own default when None)."""
        seed = seat_seed(game_seed, seat)
        if timeout is not None and is_command(spec):
            return cls(ExternalPlayer(spec, seed, timeout), seat, spec)
        return cls(make_player(spec, seed), seat, spec)

    def choose(self, view: View) -> Action:
        """The player's action for ``view``, its seat's view with the seat to act."""
        if view.seat != self.seat:
            raise SeatError(f"the computer at seat {self.seat} was shown the view of "
                            f"{'nobody' if view.seat is None else f'seat {view.seat}'}")
        self.decisions += 1
        return self.player.choose(view)

    def explain(self, view: View) -> str | None:
        """Why the player would choose what it chooses in ``view`` (nothing is fed)."""
        return self.player.explain(view)

    def observe(self, results: Sequence[HandResult]) -> None:
        """Tell an external program how every hand in ``results`` not told yet ended
        (other players learn it from their next view)."""
        while self._reported < len(results):
            if isinstance(self.player, ExternalPlayer):
                self.player.observe(results[self._reported])
            self._reported += 1

    def copy(self) -> Seat:
        """An independent copy, memory and random generator included, that decides
        as this seat would from here (an undo goes back to it). An external
        program cannot be copied (:class:`SeatError`): rebuild its seat instead."""
        if isinstance(self.player, ExternalPlayer):
            raise SeatError(f"the seat of the external program {self.spec!r} cannot be "
                            f"copied; rebuild it from the game's record")
        return copy.deepcopy(self)

    def close(self) -> None:
        """Release the player (an external program ends); idempotent."""
        self.player.close()

    def __repr__(self) -> str:
        return f"Seat({self.spec!r}, seat={self.seat}, decisions={self.decisions})"


def rebuild_seats(record: GameRecord, specs: Mapping[int, str],
                  computer: Sequence[bool] | None = None, *,
                  timeout: float | None = None, tolerant: bool = False) -> dict[int, Seat]:
    """The seats ``specs`` names (seat → player spec) as they stand after ``record``:
    each a new :meth:`Seat.new` brought up to date by :func:`catch_up` (see there
    for ``computer`` and ``tolerant``). Nothing is built when anything is wrong."""
    players = Rules.from_string(record.rules).players
    for seat in specs:
        if not 0 <= seat < players:
            raise SeatError(f"seat {seat} is not a seat of a {players}-player game")
    _check_flags(record, computer)
    seats: dict[int, Seat] = {}
    try:
        for seat, spec in specs.items():
            seats[seat] = Seat.new(spec, seat, record.seed, timeout=timeout)
        catch_up(seats, record, computer, tolerant=tolerant)
    except BaseException:
        for each in seats.values():
            each.close()
        raise
    return seats


def catch_up(seats: Mapping[int, Seat], record: GameRecord,
             computer: Sequence[bool] | None = None, *, start: int = 0,
             tolerant: bool = False) -> None:
    """Show ``seats`` (as they stood after the first ``start`` actions of ``record``)
    the views their seats had at the later actions the computer decided, in order.

    ``computer[i]`` says whether action ``i`` was a computer's decision (a person's
    actions are not; default: every action of a seat in ``seats``). The players'
    answers are discarded. The actions are replayed through the engine, so a damaged
    record raises its :class:`~pinochlekit.engine.errors.RecordError`. With
    ``tolerant`` a replayed decision that raises is passed over (a table that played
    a fallback for it did the same); otherwise the error is raised.
    """
    _check_flags(record, computer)
    if not 0 <= start <= len(record.actions):
        raise SeatError(f"start {start} is not a position of a record of "
                        f"{len(record.actions)} actions")
    game = replay_any(record, start)
    for index in range(start, len(record.actions)):
        actor = game.to_act
        driver = seats.get(actor) if actor is not None else None
        if driver is not None and (computer is None or computer[index]):
            try:
                driver.choose(game.view(actor))
            except Exception:
                if not tolerant:
                    raise
        game.apply(parse_game_action(game.rules, record.actions[index]), actor)
        for each in seats.values():
            each.observe(game.results)


def _check_flags(record: GameRecord, computer: Sequence[bool] | None) -> None:
    if computer is not None and len(computer) != len(record.actions):
        raise SeatError(f"{len(computer)} computer flags for {len(record.actions)} actions")
