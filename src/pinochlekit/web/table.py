"""A live table: the game, its seats, the connections watching it, its computer players.

Every action goes through the rules engine here, under the table's lock:
checked (:meth:`Game.verify`), committed to the store, applied, then
broadcast, each connection receiving only what its seat may see. Computer
seats (and stand-ins for players away longer than the grace period) move in
a background task, their decisions computed in a worker thread so that one
table never blocks the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from pinochlekit.engine.actions import Action, Discard, Give, Return
from pinochlekit.engine.errors import (
    IllegalActionError,
    NotationError,
    OutOfTurnError,
    PinochleError,
)
from pinochlekit.engine.game import Game
from pinochlekit.engine.games import new_game, parse_game_action, replay
from pinochlekit.engine.record import GameRecord
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.two.game import TwoHandedGame
from pinochlekit.engine.views import Phase
from pinochlekit.players import Player, make_player
from pinochlekit.web.dealing import CLIENT_SEED, game_seed, server_commitment
from pinochlekit.web.hints import Hint, compute_hint, hint_seed, hint_spec
from pinochlekit.web.messages import brief, commitment, hand_summary, view_dict
from pinochlekit.web.storage import NewGame, TableRow

__all__ = ["AnyTableGame", "Connection", "Seat", "Table", "TableSettings", "token_hash"]

#: A game at a table: four- or three-handed (:class:`Game`, docs/rules.md §1-3) or
#: two-handed (:class:`TwoHandedGame`, docs/rules.md §4); :func:`pinochlekit.engine.games.new_game`
#: builds the one the rules ask for.
AnyTableGame = Game | TwoHandedGame

log = logging.getLogger("pinochlekit.web")
OPEN = "open"
#: Levels that decide in about a millisecond: they play on the event loop; the
#: others (simulations: 10 to 100 ms) think in worker threads.
QUICK_LEVELS = frozenset({"random", "simple", "easy"})
HUMAN = "human"
#: The longest pause, in seconds, before a computer's failed move is tried again.
RETRY_MAX = 8.0


def token_hash(token: str) -> str:
    """What the store keeps of a seat token: its SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


class Connection(Protocol):
    """A client watching a table: the server's WebSocket wrapper."""

    seat: int | None

    def push(self, message: dict[str, Any]) -> None:
        """Queue a message for the client (never blocks)."""


@dataclass
class TableSettings:
    """A table's settings, chosen when it is created and stored with it."""

    rules: str = "pagat"
    grace: float = 60.0  # seconds before a computer plays for an absent player
    pace: float = 0.8  # seconds a computer waits before each move, so people can follow
    standin: str = "standard"  # the level that plays for an absent player
    hints: bool = True  # whether a seated person may ask for a hint (docs/web.md "Hints")

    def to_dict(self) -> dict[str, Any]:
        """The settings as stored and sent."""
        return {"rules": self.rules, "grace": self.grace, "pace": self.pace,
                "standin": self.standin, "hints": self.hints}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableSettings:
        """Settings read back from the store (a table stored before hints existed
        has them on)."""
        return cls(str(data.get("rules", "pagat")), float(data.get("grace", 60.0)),
                   float(data.get("pace", 0.8)), str(data.get("standin", "standard")),
                   bool(data.get("hints", True)))


@dataclass
class Seat:
    """One seat: open, a person (held by a token) or a computer level."""

    number: int
    kind: str
    name: str
    token_hash: str | None = None
    connections: set[Connection] = field(default_factory=set)
    away_since: float | None = None
    standin: bool = False
    player: Player | None = None
    timer: asyncio.TimerHandle | None = None

    @property
    def is_human(self) -> bool:
        """Whether a person holds the seat."""
        return self.kind == HUMAN

    @property
    def is_computer(self) -> bool:
        """Whether a computer player holds the seat for good."""
        return self.kind not in (HUMAN, OPEN)

    def info(self) -> dict[str, Any]:
        """What everyone may know about the seat."""
        return {"seat": self.number, "kind": self.kind, "name": self.name,
                "connected": bool(self.connections), "standin": self.standin}


class RejectedError(Exception):
    """An action a client may not take now; the message says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


Db = Callable[..., Awaitable[Any]]
Compute = Callable[..., Awaitable[Any]]


class Table:
    """A table in memory, rebuilt from the store by replay (see :meth:`from_row`)."""

    def __init__(self, table_id: str, title: str, settings: TableSettings, seats: list[Seat],
                 created: float, db: Db, compute: Compute) -> None:
        self.id = table_id
        self.title = title
        self.settings = settings
        self.rules = Rules.from_string(settings.rules)
        self.seats = seats
        self.created = created
        self.db = db
        self.compute = compute
        self.spectators: set[Connection] = set()
        self.lock = asyncio.Lock()
        self.games: list[tuple[str, AnyTableGame]] = []  # (secret seed, game) per game played here
        self.actors: list[list[tuple[int, str]]] = []  # (seat, who) per action, per game
        self._driver: asyncio.Task[None] | None = None
        self._summaries: dict[int, list[dict[str, Any]]] = {}
        # the hints of the current ply, by (game number, ply, seat): computed once,
        # shared by every request for the same view (see :meth:`hint`)
        self._hints: dict[tuple[int, int, int], asyncio.Future[Hint]] = {}
        # provably fair deals (docs/web.md "Fairness and privacy"): the server seed of
        # each game, chosen before any browser contributes, and the contributions
        self.server_seeds: dict[int, str] = {}
        self.client_seeds: dict[int, dict[int, str]] = {}
        # the state message per seat (None: spectators) since the last change: a
        # client asking for ``state`` again and again costs a lookup, not a view
        self._states: dict[int | None, dict[str, Any]] = {}
        self.min_pace = 0.0  # the server's least pace (docs/web.md "Security and limits")
        self.closed = False
        self.finished_at = time.monotonic()  # when the last game ended (see Hub.sweep)

    # -- building ----------------------------------------------------------------

    @classmethod
    def from_row(cls, row: TableRow, db: Db, compute: Compute) -> Table:
        """Rebuild a stored table: every game replayed from its seed and actions."""
        settings = TableSettings.from_dict(row.settings)
        seats = [Seat(s.seat, s.kind, s.name, s.token_hash) for s in row.seats]
        table = cls(row.id, row.title, settings, seats, row.created, db, compute)
        table.server_seeds = dict(row.server_seeds)
        table.client_seeds = {g: dict(v) for g, v in row.client_seeds.items()}
        for game in row.games:
            replayed = replay(GameRecord(game.rules, game.seed, game.dealer,
                                         tuple(game.actions)))
            table.games.append((game.seed, replayed))
            table.actors.append(list(zip(game.seats, game.actors, strict=True)))
        for seat in table.seats:
            table._make_player(seat)
            if seat.is_human:
                seat.away_since = time.monotonic()  # nobody is connected after a restart
        return table

    def _make_player(self, seat: Seat) -> None:
        seed = f"{self.id}/{len(self.games)}/{seat.number}/{secrets.token_hex(4)}"
        if seat.is_computer:
            seat.player = make_player(seat.kind, seed)
        elif seat.is_human:
            seat.player = make_player(self.settings.standin, seed)

    @property
    def game(self) -> AnyTableGame | None:
        """The game being played (the last one), or None before every seat is taken."""
        return self.games[-1][1] if self.games else None

    @property
    def status(self) -> str:
        """``waiting`` for players, ``playing``, or ``over``."""
        game = self.game
        if game is None:
            return "waiting"
        return "over" if game.phase is Phase.GAME_OVER else "playing"

    def _next_game(self, dealer: int | None = None) -> tuple[NewGame, AnyTableGame]:
        """The next game (not yet stored nor started): its row and the game itself.

        Its seed derives from the server seed chosen (and shown hashed) before any
        browser contributed, and every seat's contribution; a table stored before
        these existed gets a random seed."""
        game_no = len(self.games)
        server_seed = self.server_seeds.get(game_no)
        if server_seed is None:
            seed = secrets.token_hex(16)
        else:
            given = self.client_seeds.get(game_no, {})
            seed = game_seed(server_seed, [given.get(s.number, "") for s in self.seats],
                             game_no)
        if dealer is None:
            dealer = secrets.randbelow(self.rules.players)
        game = new_game(self.rules, seed=seed, dealer=dealer)
        next_seed = secrets.token_hex(32) if server_seed is not None else ""
        return NewGame(game_no, str(self.rules), seed, dealer, next_seed), game

    def _begin(self, row: NewGame, game: AnyTableGame) -> None:
        """Start in memory a game whose row is committed."""
        if row.next_server_seed:
            self.server_seeds[row.game_no + 1] = row.next_server_seed
        self.games.append((row.seed, game))
        self.actors.append([])
        self._states.clear()
        for seat in self.seats:
            self._make_player(seat)

    async def start_game(self, dealer: int | None = None) -> None:
        """Start a game (the first, or a rematch) once every seat is taken."""
        row, game = self._next_game(dealer)
        # the game row and the status "playing" go in one transaction
        await self.db("add_game", self.id, row.game_no, row.rules, row.seed, row.dealer,
                      "playing", row.next_server_seed)
        self._begin(row, game)

    # -- what clients see ------------------------------------------------------

    def info(self) -> dict[str, Any]:
        """What everyone may know about the table."""
        return {"id": self.id, "title": self.title, "status": self.status,
                "rules": str(self.rules), "settings": self.settings.to_dict(),
                "seats": [s.info() for s in self.seats], "game_no": len(self.games),
                "ply": 0 if self.game is None else len(self.game.actions),
                "spectators": len(self.spectators)}

    def state(self, seat: int | None) -> dict[str, Any]:
        """The full state message for one seat (``None``: a spectator), built once
        per change of the table (do not modify it)."""
        message = self._states.get(seat)
        if message is None:
            message = self._states[seat] = self._build_state(seat)
        return message

    def _build_state(self, seat: int | None) -> dict[str, Any]:
        message: dict[str, Any] = {"type": "state", "table": self.info(), "seat": seat,
                                   "fair": self.fair()}
        game = self.game
        if game is None:
            message.update(ply=0, view=None, deal=None, hands=[], last_hand=None, last=None)
            return message
        view = game.view(seat) if seat is not None else game.public_view()
        message["ply"] = len(game.actions)
        message["view"] = view_dict(view)
        message["deal"] = None if game.phase is Phase.GAME_OVER else {
            "number": game.hand_number, "commitment": commitment(game.deal_seed)}
        summaries = self.hand_summaries(len(self.games) - 1)
        message["hands"] = [brief(h) for h in summaries]
        message["last_hand"] = summaries[-1] if summaries else None
        last = None
        if game.actions:
            seat_of, actor = self.actors[-1][-1]
            action = game.actions[-1]
            text = str(action)
            if isinstance(action, Give | Return) and seat not in (seat_of, (seat_of + 2) % 4):
                # docs/rules.md §1 Passing: only the two partners see the cards passed
                text = f"{action.verb} {len(action.cards)} cards"
            elif isinstance(action, Discard) and seat != seat_of:
                # docs/rules.md §3 (widow taken): the discards lie face down; the declarer's own
                text = f"discard {len(action.cards)} cards"
            last = {"seat": seat_of, "action": text, "actor": actor}
        message["last"] = last
        return message

    def hand_summaries(self, game_no: int) -> list[dict[str, Any]]:
        """Every finished hand of a game, seeds revealed (computed once per hand)."""
        seed, game = self.games[game_no]
        done = self._summaries.setdefault(game_no, [])
        for index in range(len(done), len(game.results)):
            done.append(hand_summary(seed, index, game.results[index], self.rules.players))
        return done

    def broadcast(self) -> None:
        """Send every connection the state its seat may see (the table has changed)."""
        self._states.clear()
        for conn in self.connections():
            conn.push(self.state(conn.seat))

    def connections(self) -> list[Connection]:
        """Every client watching, seated or not."""
        out = list(self.spectators)
        for seat in self.seats:
            out.extend(seat.connections)
        return out

    # -- connecting ------------------------------------------------------------

    def seat_for_token(self, token: str) -> int | None:
        """The seat a token holds, or None."""
        digest = token_hash(token)
        for seat in self.seats:
            if seat.token_hash is not None and secrets.compare_digest(seat.token_hash, digest):
                return seat.number
        return None

    def attach(self, conn: Connection) -> None:
        """A client connects (to its seat, or as a spectator); the seat is back.

        A spectator coming or going changes nobody else's state (the spectator
        count in ``table`` follows at the next change): a crowd of spectators costs
        a state each, not a state for everyone per arrival (docs/web.md
        "Security and limits")."""
        if conn.seat is None:
            self.spectators.add(conn)
            conn.push(self.state(None))
            self.kick()
            return
        else:
            seat = self.seats[conn.seat]
            seat.connections.add(conn)
            seat.away_since = None
            seat.standin = False
            if seat.timer is not None:
                seat.timer.cancel()
                seat.timer = None
        self.broadcast()
        self.kick()

    def detach(self, conn: Connection) -> None:
        """A client leaves; a person's seat gets a stand-in after the grace period."""
        if conn.seat is None:
            self.spectators.discard(conn)
            return
        else:
            seat = self.seats[conn.seat]
            seat.connections.discard(conn)
            if not seat.connections and seat.is_human:
                seat.away_since = time.monotonic()
                loop = asyncio.get_running_loop()
                if seat.timer is not None:
                    seat.timer.cancel()
                seat.timer = loop.call_later(self.settings.grace, self._grace_over, seat)
        if not self.closed:
            self.broadcast()

    def _grace_over(self, seat: Seat) -> None:
        """A seat away past the grace period gets a stand-in (a table setting, not a rule)."""
        seat.timer = None
        if not seat.connections and seat.is_human:
            seat.standin = True
            self.broadcast()
            self.kick()

    def start_grace_timers(self) -> None:
        """After a restart: every person's seat waits out the grace period again."""
        loop = asyncio.get_running_loop()
        for seat in self.seats:
            if seat.is_human and not seat.connections and seat.timer is None:
                seat.timer = loop.call_later(self.settings.grace, self._grace_over, seat)

    # -- acting ----------------------------------------------------------------

    async def act(self, seat: int | None, text: Any, ply: Any) -> None:
        """A person's action: checked, committed, applied, broadcast.

        Raises :class:`RejectedError` (and changes nothing) when it is not
        allowed: a spectator, a stale ``ply``, another seat's turn, or an
        action the rules forbid.
        """
        if seat is None:
            raise RejectedError("spectator", "spectators cannot act; join a seat to play")
        if not isinstance(text, str) or not isinstance(ply, int) or isinstance(ply, bool):
            raise RejectedError("bad_message",
                                 "an act message needs 'action' (text) and 'ply' (a number)")
        async with self.lock:
            game = self.game
            if game is None:
                raise RejectedError("waiting", "the game starts when every seat is taken")
            if ply != len(game.actions):
                raise RejectedError("stale", f"stale action {text!r}: the table has moved on "
                                     f"(you sent ply {ply}, it is now {len(game.actions)})")
            try:
                action = parse_game_action(self.rules, text[:200])
            except NotationError as error:
                raise RejectedError("bad_action", str(error)) from None
            try:
                game.verify(action, seat)  # the engine says which rule refuses it, if any
            except OutOfTurnError as error:  # by the error's type, not its words
                raise RejectedError("not_your_turn", str(error)) from None
            except IllegalActionError as error:
                raise RejectedError("illegal", str(error)) from None
            await self._commit(game, seat, str(action), HUMAN)
        self.kick()

    async def _commit(self, game: AnyTableGame, seat: int, text: str, actor: str) -> None:
        """Check, store, apply, broadcast one action (the table lock is held).

        Nothing illegal is ever stored: a stored action that the replay refuses
        would make the table impossible to rebuild after a restart.
        """
        self._check_open()
        action = parse_game_action(self.rules, text)
        if not game.is_legal(action, seat):
            raise RejectedError("illegal", f"illegal action {text!r}")
        after = game.copy()
        after.apply(action, seat)
        # the last action and the status "over" go in one transaction
        over = after.phase is Phase.GAME_OVER
        await self.db("add_action", self.id, len(self.games) - 1, len(game.actions), seat,
                      text, actor, "over" if over else None)
        game.apply(action, seat)
        self.actors[-1].append((seat, actor))
        if over:
            self.finished_at = time.monotonic()
        self.broadcast()

    def kick(self) -> None:
        """Make sure computer seats move when it is their turn."""
        if self._driver is None or self._driver.done():
            self._driver = asyncio.get_running_loop().create_task(self._drive())

    def _computer_to_act(self) -> Seat | None:
        game = self.game
        if game is None or game.to_act is None:
            return None
        seat = self.seats[game.to_act]
        if seat.is_computer or (seat.is_human and seat.standin):
            return seat
        return None

    async def _drive(self) -> None:
        """Play the computer seats' turns, one after another, while anyone watches.

        A failure (the database down for a moment: nothing was applied) is logged
        and the turn tried again after a pause that doubles from a quarter of a
        second up to :data:`RETRY_MAX` seconds, so the computers never stall until
        someone connects (docs/web.md "Security and limits")."""
        delay = 0.25
        while not self.closed:
            try:
                await self._drive_seats()
                return
            except asyncio.CancelledError:
                raise
            except Exception:  # a failing player must not take the server down
                log.exception("table %s: a computer's move failed; trying again in %g s",
                              self.id, delay)
            await asyncio.sleep(delay)
            delay = min(delay * 2, RETRY_MAX)

    async def _drive_seats(self) -> None:
        # Every computer move (and every stand-in's) is sent one pace after the driver
        # took up the turn, however long the decision took within it, and a forced
        # move is decided on the same path as a chosen one: its timing does not tell
        # a spectator that the seat had a single legal action (docs/web.md
        # "Security and limits").
        while not self.closed and self.connections():
            seat = self._computer_to_act()
            if seat is None:
                return
            begun = time.monotonic()
            await asyncio.sleep(0)
            async with self.lock:
                game = self.game
                if game is None or self._computer_to_act() is not seat:
                    continue
                ply = len(game.actions)
                view = game.view(seat.number)
            player = seat.player
            assert player is not None
            action: Action | None
            try:
                if (seat.kind if seat.is_computer else self.settings.standin) in QUICK_LEVELS:
                    action = player.choose(view)  # a few milliseconds at most: no thread hop
                else:
                    action = await self.compute(player.choose, view)
            except asyncio.CancelledError:
                raise
            except Exception:  # a failing player must not stall the table: fall back below
                log.exception("table %s: the computer at seat %d failed", self.id, seat.number)
                action = None
            pace = max(self.settings.pace, self.min_pace)
            await asyncio.sleep(max(0.0, begun + pace - time.monotonic()))
            async with self.lock:
                game = self.game
                if game is None or len(game.actions) != ply or self._computer_to_act() is not seat:
                    continue  # the person came back and played, or a rematch began
                if action is None or not _is_legal(game, action, seat.number):
                    if action is not None:
                        log.error("table %s: the computer at seat %d chose the illegal "
                                  "action %r; playing a legal one instead", self.id,
                                  seat.number, str(action)[:80])
                    action = self._fallback(game, seat.number)
                await self._commit(game, seat.number, str(action),
                                   "standin" if seat.is_human else "computer")

    async def hint(self, seat: int | None) -> dict[str, Any]:
        """The ``hint`` message for a seated person whose turn it is: the action the
        hint player suggests from that seat's view, and why. Changes nothing.

        Raises :class:`RejectedError` for a spectator, with hints switched off at
        this table, before the game, after it, and on another seat's turn. The
        hint of one view is computed once (in a compute thread) and shared by
        every request for it.
        """
        if seat is None:
            raise RejectedError("spectator", "spectators get no hints; join a seat to play")
        if not self.settings.hints:
            raise RejectedError("hints_off", "hints are switched off at this table")
        async with self.lock:
            game = self.game
            if game is None:
                raise RejectedError("waiting", "the game starts when every seat is taken")
            if game.phase is Phase.GAME_OVER:
                raise RejectedError("game_over", "the game is over: there is no move to hint")
            if game.to_act != seat:
                raise RejectedError("not_your_turn", "a hint is for your turn")
            game_no, ply = len(self.games) - 1, len(game.actions)
            key = (game_no, ply, seat)
            task = self._hints.get(key)
            if task is None:
                # only the seat's view goes to the hint player, never the game
                view = game.view(seat)
                self._hints = {k: t for k, t in self._hints.items() if k[:2] == key[:2]}
                task = asyncio.ensure_future(self.compute(
                    compute_hint, view, hint_seed(self.id, game_no, ply, seat),
                    hint_spec(self.rules.players)))
                self._hints[key] = task
        try:
            hint = await asyncio.shield(task)
        except Exception:  # a cancelled request (BaseException) leaves the task shared
            if self._hints.get(key) is task:
                del self._hints[key]  # a failed hint is tried again at the next request
            raise
        return {"type": "hint", "game_no": game_no, "ply": ply, "seat": seat,
                **hint.to_dict()}

    def _fallback(self, game: AnyTableGame, seat: int) -> Action:
        """A legal action for a computer whose own choice failed: a random one, seeded
        by the table, game and ply so that the same failure always plays the same move."""
        legal = game.legal_actions()
        assert legal, "the seat to act always has a legal action"
        chooser = random.Random(f"{self.id}/{len(self.games) - 1}/{len(game.actions)}/{seat}")
        return chooser.choice(legal)

    async def rematch(self, seat: int | None) -> None:
        """Start a new game at the same table, same seats, once the game is over."""
        if seat is None:
            raise RejectedError("spectator", "only seated players can start a rematch")
        async with self.lock:
            self._check_open()
            game = self.game
            if game is None or game.phase is not Phase.GAME_OVER:
                raise RejectedError("not_over", "a rematch starts only when the game is over")
            await self.start_game((game.first_dealer + 1) % self.rules.players)
            self.broadcast()
        self.kick()

    async def fill(self, seat: int | None, level: str) -> None:
        """Put computer players in every open seat and start the game."""
        if seat is None:
            raise RejectedError("spectator", "only seated players can fill the table")
        async with self.lock:
            self._check_open()
            if self.game is not None:
                raise RejectedError("started", "the game has started: every seat is taken")
            filled = [(other.number, level, computer_name(level))
                      for other in self.seats if other.kind == OPEN]
            row, game = self._next_game()
            # the seats and the first game in one transaction; memory changes after it
            # commits (docs/web.md "Nothing lost")
            if not await self.db("fill_seats", self.id, filled, row):
                raise RejectedError("taken", "a seat was taken meanwhile; try again")
            for number, kind, name in filled:
                self.seats[number].kind, self.seats[number].name = kind, name
            self._begin(row, game)
            self.broadcast()
        self.kick()

    async def join(self, number: int, name: str, client_seed: str = "") -> str:
        """Give an open seat to a person; the token that holds it. ``client_seed``:
        what the person's browser contributes to the first game's deals (checked by
        the caller: :data:`pinochlekit.web.dealing.CLIENT_SEED`)."""
        async with self.lock:
            seat = self.seats[number]
            self._check_open()
            if seat.kind != OPEN:
                raise RejectedError("taken", f"seat {number} is not open")
            token = secrets.token_urlsafe(24)
            digest = token_hash(token)
            last = self.game is None and all(s.kind != OPEN for s in self.seats
                                             if s is not seat)
            pending = len(self.games)
            given = (pending, client_seed) if client_seed and pending in self.server_seeds \
                else None
            if given is not None:  # the deal below counts it: memory first, undone below
                self.client_seeds.setdefault(pending, {})[number] = client_seed
            try:
                row, game = self._next_game() if last else (None, None)
            finally:
                if given is not None:
                    del self.client_seeds[pending][number]
            # the seat and (the last one taken) the first game in one transaction;
            # memory changes after it commits (docs/web.md "Nothing lost")
            if not await self.db("claim_seat", self.id, number, name, digest, row, given):
                raise RejectedError("taken", f"seat {number} is not open")
            if given is not None:
                self.client_seeds.setdefault(pending, {})[number] = client_seed
            seat.kind, seat.name, seat.token_hash = HUMAN, name, digest
            seat.away_since = time.monotonic()
            self._make_player(seat)
            self.start_grace_timers()  # until the person connects
            if row is not None and game is not None:
                self._begin(row, game)
            self.broadcast()
        return token

    async def contribute(self, seat: int | None, value: Any) -> None:
        """A seated person's browser contributes ``value`` (hexadecimal, 32 to 128
        digits) to the next game's deals: the one not yet started, whose server seed
        is already chosen and shown hashed (docs/web.md "Fairness and privacy")."""
        if seat is None or not self.seats[seat].is_human:
            raise RejectedError("spectator", "only a seated person contributes to the deals")
        if not isinstance(value, str) or not CLIENT_SEED.fullmatch(value):
            raise RejectedError("bad_message", "seed: 32 to 128 hexadecimal digits (0-9, a-f)")
        async with self.lock:
            self._check_open()
            pending = len(self.games)
            if pending not in self.server_seeds:
                raise RejectedError("no_fair", "this table was made before browsers could "
                                    "contribute to its deals")
            await self.db("set_client_seed", self.id, pending, seat, value)
            self.client_seeds.setdefault(pending, {})[seat] = value
            self._states.clear()  # the cached states carry who contributed ("fair")

    def fair(self, everything: bool = False) -> dict[str, Any]:
        """What everyone may know of the deals' seeds: the hash of the next game's
        server seed (chosen before any contribution), which seats contributed to it,
        and for every finished game its server seed and contributions, revealed
        (the last games only, or with ``everything`` every game)."""
        out: dict[str, Any] = {"games": []}
        pending = len(self.games)
        first = 0 if everything else max(0, pending - 2)
        for game_no in range(first, pending + 1):
            server_seed = self.server_seeds.get(game_no)
            if server_seed is None:
                continue
            given = self.client_seeds.get(game_no, {})
            entry: dict[str, Any] = {"game_no": game_no,
                                     "commitment": server_commitment(server_seed),
                                     "contributed": sorted(given)}
            if game_no < pending and self.games[game_no][1].phase is Phase.GAME_OVER:
                entry["server_seed"] = server_seed
                entry["client_seeds"] = [given.get(s.number, "") for s in self.seats]
            out["games"].append(entry)
        return out

    def _check_open(self) -> None:
        """:class:`RejectedError` ``table_closed`` for a table the server forgot
        (removed by the operator, expired or finished: see :meth:`Hub.drop`); its
        store rows may be gone or belong to a table loaded afresh."""
        if self.closed:
            raise RejectedError("table_closed", "this table is closed; reload the page")

    def close(self) -> None:
        """Stop the table's tasks (server shutdown)."""
        self.closed = True
        if self._driver is not None:
            self._driver.cancel()
        for seat in self.seats:
            if seat.timer is not None:
                seat.timer.cancel()
            if seat.player is not None:
                with contextlib.suppress(Exception):
                    seat.player.close()


def _is_legal(game: AnyTableGame, action: Any, seat: int) -> bool:
    """Whether a computer's choice may be played (anything odd it returns counts as illegal)."""
    try:
        return game.is_legal(parse_game_action(game.rules, str(action)), seat)
    except PinochleError:
        return False


def computer_name(level: str) -> str:
    """The name shown for a computer seat."""
    return level
