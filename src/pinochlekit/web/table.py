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
from collections import deque
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
from pinochlekit.engine.events import Event
from pinochlekit.engine.games import AnyGame, new_any_game, parse_game_action, replay_any
from pinochlekit.engine.record import GameRecord
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.views import Phase, sees_cards
from pinochlekit.players.seat import Seat as SeatDriver
from pinochlekit.players.seat import rebuild_seats
from pinochlekit.web.claim import best_play, claim_is_sure, claimable, in_play, other_side
from pinochlekit.web.dealing import (
    CLIENT_COMMITMENT,
    CLIENT_SEED,
    client_commitment,
    game_seed,
    server_commitment,
)
from pinochlekit.web.hints import Hint, compute_hint, hint_seed, hint_spec
from pinochlekit.web.messages import brief, commitment, hand_summary, public_events, view_dict
from pinochlekit.web.storage import NewGame, TableRow
from pinochlekit.web.timing import MoveTiming

__all__ = ["Connection", "Seat", "Table", "TableSettings", "clean_text",
           "token_hash"]

log = logging.getLogger("pinochlekit.web")
OPEN = "open"
#: Levels that decide in about a millisecond: they play on the event loop; the
#: others (simulations: 10 to 100 ms) think in worker threads.
QUICK_LEVELS = frozenset({"random", "simple", "easy"})
HUMAN = "human"
#: The longest pause, in seconds, before a computer's failed move is tried again.
RETRY_MAX = 8.0
#: The actor of a stand-in's move made because the person's turn timer ran out.
TIMEOUT = "timeout"
#: The actor of the moves that play out an accepted claim (docs/web.md "Claim").
CLAIM = "claim"
#: The actors of the actions a computer decided (a seat's level, or a stand-in for
#: a person away or out of time); a rebuilt seat is shown exactly these views.
COMPUTER_ACTORS = frozenset({"computer", "standin", TIMEOUT})
#: What spectators may do with a table's chat.
SPECTATOR_CHAT = ("none", "read", "write")
#: The turn timer's bounds in seconds (0 switches it off).
TURN_TIME_MIN, TURN_TIME_MAX = 3.0, 600.0
#: A chat message's most characters, after cleaning (docs/web.md "Chat").
CHAT_LENGTH = 200
#: Chat messages one sender may send per :data:`CHAT_WINDOW` seconds.
CHAT_RATE, CHAT_WINDOW = 5, 10.0
#: Chat messages a table keeps at most (stored and in memory); past it, chat is refused.
CHAT_MAX = 2000
#: Chat messages a client receives when it connects (the newest).
CHAT_SHOWN = 100
#: Seconds a rematch's deal waits for the commitments of the browsers that took part
#: in the last deal, then for the committed values to be revealed (docs/web.md
#: "Fairness and privacy"; ``pinochle serve --reveal-time``); past either, what is
#: missing counts as absent.
COMMIT_TIME, REVEAL_TIME = 10.0, 30.0


def clean_text(text: str) -> str:
    r"""A display name, table title or chat message as shown to everyone: only
    printable characters (no NUL or other control character, no bidirectional
    override or isolate, no zero-width character: all of them are unprintable format
    or control characters), runs of white space as one space (docs/web.md "Security
    and limits").

    >>> clean_text("  Club\u202e night\u200b\x00 ")
    'Club night'
    """
    return " ".join("".join(c for c in text if c.isprintable()).split())


def _rebuild(record: GameRecord, seat: int, spec: str, computer: list[bool]) -> SeatDriver:
    """A seat's computer as it stands after ``record``: seeded from the game's secret
    seed and the seat (docs/players.md "Seeds") and shown every view at which a
    computer decided for the seat, so it remembers what it would have had the server
    not restarted (docs/web.md "Nothing lost"); a replayed decision that failed is
    passed over, as the table played its fallback then."""
    return rebuild_seats(record, {seat: spec}, computer, tolerant=True)[seat]


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
    # seconds a person has for each decision before the stand-in acts (0: no timer;
    # docs/web.md "Turn timer")
    turn_time: float = 0.0
    # what spectators may do with the chat: "none", "read" or "write" (docs/web.md "Chat")
    spectator_chat: str = "none"

    def to_dict(self) -> dict[str, Any]:
        """The settings as stored and sent."""
        return {"rules": self.rules, "grace": self.grace, "pace": self.pace,
                "standin": self.standin, "hints": self.hints, "turn_time": self.turn_time,
                "spectator_chat": self.spectator_chat}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableSettings:
        """Settings read back from the store (a table stored before hints existed
        has them on; one stored before the timer and the chat has neither)."""
        return cls(str(data.get("rules", "pagat")), float(data.get("grace", 60.0)),
                   float(data.get("pace", 0.8)), str(data.get("standin", "standard")),
                   bool(data.get("hints", True)), float(data.get("turn_time", 0.0)),
                   str(data.get("spectator_chat", "none")))


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
    # the computer (or the stand-in of a person) that decides for the seat, for the
    # whole game (docs/players.md "Seeds"); None: rebuild it from the record first
    driver: SeatDriver | None = None
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
        self.games: list[tuple[str, AnyGame]] = []  # (secret seed, game) per game played here
        self.actors: list[list[tuple[int, str]]] = []  # (seat, who) per action, per game
        #: What the last action caused (the engine's events; none after an undo, a
        #: restart or a new game): the state messages carry the public ones.
        self.events: tuple[Event, ...] = ()
        self._driver: asyncio.Task[None] | None = None
        self._summaries: dict[int, list[dict[str, Any]]] = {}
        # the hints of the current ply, by (game number, ply, seat): computed once,
        # shared by every request for the same view (see :meth:`hint`)
        self._hints: dict[tuple[int, int, int], asyncio.Future[Hint]] = {}
        # provably fair deals (docs/web.md "Fairness and privacy"): the server seed of
        # each game, chosen before any browser contributes, and the contributions
        self.server_seeds: dict[int, str] = {}
        self.client_seeds: dict[int, dict[int, str]] = {}
        # the SHA-256 each browser committed to before any value was revealed, and the
        # round that collects them for the next deal: the game number, its phase
        # ("commit", then "reveal"), the dealer, the deadline (time.time()) and the
        # seats waited for in the commit phase
        self.client_commitments: dict[int, dict[int, str]] = {}
        self.commit_time, self.reveal_time = COMMIT_TIME, REVEAL_TIME
        self._round: dict[str, Any] | None = None
        self._round_handle: asyncio.TimerHandle | None = None
        # the state message per seat (None: spectators) since the last change: a
        # client asking for ``state`` again and again costs a lookup, not a view
        self._states: dict[int | None, dict[str, Any]] = {}
        self.states_built = 0  # views built for it, in all (``GET /api/health``)
        self.compute_waits = 0  # its computers' decisions that waited for a thread
        self.min_pace = 0.0  # the server's least pace (docs/web.md "Security and limits")
        self.timing = MoveTiming()  # when each computer move is sent (web/timing.py)
        self.closed = False
        self.finished_at = time.monotonic()  # when the last game ended (see Hub.sweep)
        # the turn timer (docs/web.md "Turn timer"): the turn it counts for (game
        # number, ply, seat), its deadline (time.time()), and a turn whose time ran out
        self.timer_key: tuple[int, int, int] | None = None
        self.turn_deadline = 0.0
        self._turn_handle: asyncio.TimerHandle | None = None
        self._timed_out: tuple[int, int, int] | None = None
        # every change of the game (an action, an undo): a computer's decision made
        # before a change is never played after it
        self.changes = 0
        # the chat (docs/web.md "Chat"): every message, and each sender's recent times
        self.chat_log: list[dict[str, Any]] = []
        # a claim waiting for answers, or declined (docs/web.md "Claim"): seat, ply,
        # the seats still to answer, who declined; and the hands claimed in already
        self._claim: dict[str, Any] | None = None
        self._claimed: set[tuple[int, int]] = set()
        self._chat_times: dict[Any, deque[float]] = {}

    # -- building ----------------------------------------------------------------

    @classmethod
    def from_row(cls, row: TableRow, db: Db, compute: Compute) -> Table:
        """Rebuild a stored table: every game replayed from its seed and actions."""
        settings = TableSettings.from_dict(row.settings)
        seats = [Seat(s.seat, s.kind, s.name, s.token_hash) for s in row.seats]
        table = cls(row.id, row.title, settings, seats, row.created, db, compute)
        table.server_seeds = dict(row.server_seeds)
        table.client_seeds = {g: dict(v) for g, v in row.client_seeds.items()}
        table.client_commitments = {g: dict(v) for g, v in row.client_commitments.items()}
        table._claimed = set(row.claims)
        table._claim = row.open_claim  # claim_info() holds it only at its own turn
        for game in row.games:
            replayed = replay_any(GameRecord(game.rules, game.seed, game.dealer,
                                         tuple(game.actions)))
            table.games.append((game.seed, replayed))
            table.actors.append(list(zip(game.seats, game.actors, strict=True)))
        for seat in table.seats:
            if seat.is_human:
                seat.away_since = time.monotonic()  # nobody is connected after a restart
        return table

    def _reset_driver(self, seat: Seat) -> None:
        """Drop the seat's computer: it is built again from the game's record
        (:func:`_rebuild`) when a computer next plays the seat."""
        if seat.driver is not None:
            seat.driver.close()
        seat.driver = None

    def _rebuild_args(self, seat: Seat) -> tuple[GameRecord, int, str, list[bool]]:
        """What :func:`_rebuild` needs to build ``seat``'s computer again: the game's
        record, the seat, its level (a person's: the stand-in's) and which actions a
        computer decided."""
        game = self.game
        assert game is not None
        spec = seat.kind if seat.is_computer else self.settings.standin
        return (game.record, seat.number, spec,
                [actor in COMPUTER_ACTORS for _, actor in self.actors[-1]])

    @property
    def game(self) -> AnyGame | None:
        """The game being played (the last one), or None before every seat is taken."""
        return self.games[-1][1] if self.games else None

    @property
    def status(self) -> str:
        """``waiting`` for players, ``playing``, or ``over``."""
        game = self.game
        if game is None:
            return "waiting"
        return "over" if game.phase is Phase.GAME_OVER else "playing"

    def _next_game(self, dealer: int | None = None) -> tuple[NewGame, AnyGame]:
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
        game = new_any_game(self.rules, seed=seed, dealer=dealer)
        next_seed = secrets.token_hex(32) if server_seed is not None else ""
        return NewGame(game_no, str(self.rules), seed, dealer, next_seed), game

    def _begin(self, row: NewGame, game: AnyGame) -> None:
        """Start in memory a game whose row is committed."""
        self._end_round()
        if row.next_server_seed:
            self.server_seeds[row.game_no + 1] = row.next_server_seed
        self.games.append((row.seed, game))
        self.actors.append([])
        self.events = ()
        self._states.clear()
        for seat in self.seats:
            self._reset_driver(seat)

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
            self.states_built += 1
        if self.timer_key is not None:  # the time left, as of this message
            message = {**message, "timer": self.timer_info()}
        return message

    def timer_info(self) -> dict[str, Any] | None:
        """The running turn timer: whose turn, its length and the seconds left."""
        if self.timer_key is None:
            return None
        left = max(0.0, self.turn_deadline - time.time())
        return {"seat": self.timer_key[2], "ply": self.timer_key[1],
                "seconds": self.settings.turn_time, "remaining": round(left, 1)}

    def _build_state(self, seat: int | None) -> dict[str, Any]:
        message: dict[str, Any] = {"type": "state", "table": self.info(), "seat": seat,
                                   "fair": self.fair(), "timer": None,
                                   "undo": self.can_undo(seat), "claim": self.claim_info(),
                                   "can_claim": self._claim_refusal(seat) is None}
        game = self.game
        if game is None:
            message.update(ply=0, view=None, deal=None, hands=[], last_hand=None, last=None,
                           events=[])
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
            if isinstance(action, Give | Return | Discard) and not sees_cards(
                    game.rules, action, seat_of, seat):
                # the cards passed (docs/rules.md §1.6) or laid aside (§3), as a count
                text = f"{action.verb} {len(action.cards)} cards"
            last = {"seat": seat_of, "action": text, "actor": actor}
        message["last"] = last
        message["events"] = public_events(self.events)
        return message

    def hand_summaries(self, game_no: int) -> list[dict[str, Any]]:
        """Every finished hand of a game, seeds revealed (computed once per hand)."""
        seed, game = self.games[game_no]
        done = self._summaries.setdefault(game_no, [])
        for index in range(len(done), len(game.results)):
            done.append(hand_summary(seed, index, game.results[index], self.rules.players,
                                     self.rules.deck))
        return done

    def broadcast(self) -> None:
        """Send every connection the state its seat may see (the table has changed)."""
        self._states.clear()
        self._arm_turn_timer()
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
        """The seat a token holds, or None (also for text no token is made of)."""
        try:
            digest = token_hash(token)
        except UnicodeEncodeError:  # a lone surrogate: not UTF-8, so no token
            return None
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
            self._send_chat_log(conn)
            self.kick()
            return
        else:
            seat = self.seats[conn.seat]
            present = bool(seat.connections) and not seat.standin
            seat.connections.add(conn)
            seat.away_since = None
            seat.standin = False
            if seat.timer is not None:
                seat.timer.cancel()
                seat.timer = None
        if present:  # another tab of a seat already here: nobody else's state changes
            conn.push(self.state(conn.seat))
        else:
            self.broadcast()
        self._send_chat_log(conn)
        self.kick()

    def detach(self, conn: Connection) -> None:
        """A client leaves; a person's seat gets a stand-in after the grace period."""
        if conn.seat is None:
            self.spectators.discard(conn)
            self._chat_times.pop(conn, None)
            return
        else:
            seat = self.seats[conn.seat]
            if conn not in seat.connections:
                return  # detached already (a replaced connection)
            seat.connections.discard(conn)
            if seat.connections:
                return  # the seat's other tabs are still here: nothing anyone sees changed
            if seat.is_human:
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
        self._arm_turn_timer()
        if (self.game is None and self._round is None and not self.closed
                and all(s.kind != OPEN for s in self.seats)):
            # every seat was taken before a restart, the values not all revealed: the
            # reveal starts again, with its whole time
            self._open_round("reveal")

    # -- the turn timer (docs/web.md "Turn timer") -----------------------------

    def _turn_key(self) -> tuple[int, int, int] | None:
        """The turn the timer counts for: a person's (never a computer's, nor one
        a stand-in already plays), at a table with the timer on; else None."""
        game = self.game
        if (self.settings.turn_time <= 0 or self.closed or game is None
                or game.phase is Phase.GAME_OVER or game.to_act is None):
            return None
        seat = self.seats[game.to_act]
        if not seat.is_human or seat.standin:
            return None
        return (len(self.games) - 1, len(game.actions), seat.number)

    def _arm_turn_timer(self) -> None:
        """Start the timer for a new person's turn (a full turn's time), or stop it.

        The deadline lives in memory: after a restart the person to act gets the
        whole time again, which is fair (nobody could act while the server was down)."""
        key = self._turn_key()
        if key == self.timer_key:
            return
        if self._turn_handle is not None:
            self._turn_handle.cancel()
            self._turn_handle = None
        self.timer_key = key
        if key is None:
            return
        self.turn_deadline = time.time() + self.settings.turn_time
        self._turn_handle = asyncio.get_running_loop().call_later(
            self.settings.turn_time, self._turn_over, key)

    def _turn_over(self, key: tuple[int, int, int]) -> None:
        """The person's time ran out: the table's stand-in makes this one decision."""
        self._turn_handle = None
        if self._turn_key() != key:
            return
        self._timed_out = key
        self.kick()

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
                raise RejectedError("waiting", self._not_dealt())
            if ply != len(game.actions):
                raise RejectedError("stale", f"stale action {text[:80]!r}: the table has moved on "
                                     f"(you sent ply {ply}, it is now {len(game.actions)})")
            if self._claim_to_finish():
                raise RejectedError("claimed", "the claim was accepted: the rest of the "
                                    "hand is being played out for it")
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

    async def _commit(self, game: AnyGame, seat: int, text: str, actor: str) -> None:
        """Check, store, apply, broadcast one action (the table lock is held).

        Nothing illegal is ever stored: a stored action that the replay refuses
        would make the table impossible to rebuild after a restart.
        """
        self._check_open()
        action = parse_game_action(self.rules, text)
        if not game.can(action, seat):
            raise RejectedError("illegal", f"illegal action {text!r}")
        after = game.copy()
        after.apply(action, seat)
        # the last action and the status "over" go in one transaction
        over = after.phase is Phase.GAME_OVER
        await self.db("add_action", self.id, len(self.games) - 1, len(game.actions), seat,
                      text, actor, "over" if over else None)
        self.events = game.step(action, seat)
        self.actors[-1].append((seat, actor))
        self.changes += 1
        if over:
            self.finished_at = time.monotonic()
        self.broadcast()

    def kick(self) -> None:
        """Make sure computer seats move when it is their turn."""
        if self._driver is None or self._driver.done():
            self._driver = asyncio.get_running_loop().create_task(self._drive())

    def _computer_to_act(self) -> Seat | None:
        game = self.game
        if game is None or game.to_act is None or self._claim_to_finish():
            return None  # an accepted claim is played out first (:meth:`_drive`)
        seat = self.seats[game.to_act]
        if seat.is_computer or (seat.is_human and seat.standin):
            return seat
        if seat.is_human and self._timed_out == (len(self.games) - 1, len(game.actions),
                                                 seat.number):
            return seat  # its turn timer ran out
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
                if self._claim_to_finish():
                    async with self.lock:  # a claim accepted before a restart: played out
                        game = self.game
                        if game is not None and self._claim_to_finish():
                            await self._play_out(game)
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
        # Every computer move (and every stand-in's) is sent at one target time after
        # the driver took up the turn, however long the decision took within it: the
        # pace, raised to what the seat's recent choices took (web/timing.py), so a
        # forced move waits as long as a chosen one and its timing does not tell a
        # spectator that the seat had a single legal action (docs/web.md "Security
        # and limits").
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
                ply, changes = len(game.actions), self.changes
                view = game.view(seat.number)
                forced = len(game.legal_actions()) == 1
                driver, rebuild = seat.driver, self._rebuild_args(seat)
            if driver is None:
                # after a restart (or a discarded decision): rebuilt from the record in a
                # worker thread, installed only if nothing changed meanwhile
                driver = await self.compute(_rebuild, *rebuild)
                async with self.lock:
                    if self.changes != changes or seat.driver is not None:
                        driver.close()
                        continue
                    seat.driver = driver
            action: Action | None
            started = time.monotonic()
            try:
                if driver.spec in QUICK_LEVELS:
                    action = driver.choose(view)  # a few milliseconds at most: no thread hop
                else:
                    action = await self.compute(driver.choose, view)
            except asyncio.CancelledError:
                raise
            except Exception:  # a failing player must not stall the table: fall back below
                log.exception("table %s: the computer at seat %d failed", self.id, seat.number)
                action = None
            phase = str(view.phase)
            if not forced:
                self.timing.record(seat.number, phase, time.monotonic() - started)
            pace = max(self.settings.pace, self.min_pace)
            target = (self.timing.forced(seat.number, phase, pace) if forced
                      else self.timing.target(seat.number, phase, pace))
            await asyncio.sleep(max(0.0, begun + target - time.monotonic()))
            async with self.lock:
                game = self.game
                if (game is None or len(game.actions) != ply or self.changes != changes
                        or self._computer_to_act() is not seat):
                    # the person came back and played, undid, or a rematch began: the
                    # seat saw a view it did not play, so it is rebuilt from the record
                    if seat.driver is driver:
                        self._reset_driver(seat)
                    continue
                if action is None or not _is_legal(game, action, seat.number):
                    if action is not None:
                        log.error("table %s: the computer at seat %d chose the illegal "
                                  "action %r; playing a legal one instead", self.id,
                                  seat.number, str(action)[:80])
                    action = self._fallback(game, seat.number)
                actor = "computer"
                if seat.is_human:
                    actor = "standin" if seat.standin else TIMEOUT
                await self._commit(game, seat.number, str(action), actor)

    # -- chat (docs/web.md "Chat") ---------------------------------------------

    def chat_allowed(self, seat: int | None, write: bool = False) -> bool:
        """Whether a seat (``None``: a spectator) may read, or ``write``, the chat:
        seated players always; spectators as the table's setting says."""
        if seat is not None:
            return True
        mode = self.settings.spectator_chat
        return mode == "write" if write else mode in ("read", "write")

    def _send_chat_log(self, conn: Connection) -> None:
        if self.chat_allowed(conn.seat):
            conn.push({"type": "chat_log", "messages": self.chat_log[-CHAT_SHOWN:]})

    async def chat(self, seat: int | None, text: Any, sender: Any) -> None:
        """A chat message from a seat (``None``: a spectator, if the table lets them
        write), filtered like a name, stored, then sent to everyone who may read it.

        Raises :class:`RejectedError` for a message that is not text, empty or too
        long, for a sender past :data:`CHAT_RATE` messages in :data:`CHAT_WINDOW`
        seconds (``sender`` keys the count: one per seat, one per spectator's
        connection), and once the table holds :data:`CHAT_MAX` messages."""
        if not self.chat_allowed(seat, write=True):
            raise RejectedError("chat_closed", "spectators may not write in this table's "
                                "chat" if self.chat_allowed(seat) else
                                "this table's chat is for the seated players")
        if not isinstance(text, str):
            raise RejectedError("bad_message", "a chat message needs 'text' (a string)")
        cleaned = clean_text(text[:CHAT_LENGTH * 4])
        if not cleaned:
            raise RejectedError("bad_chat", "a chat message needs some text")
        if len(cleaned) > CHAT_LENGTH:
            raise RejectedError("chat_too_long", f"a chat message is at most {CHAT_LENGTH} "
                                f"characters, not {len(cleaned)}")
        key = seat if seat is not None else sender
        now = time.monotonic()
        times = self._chat_times.setdefault(key, deque())
        while times and times[0] <= now - CHAT_WINDOW:
            times.popleft()
        if len(times) >= CHAT_RATE:
            wait = int(times[0] + CHAT_WINDOW - now) + 1
            raise RejectedError("chat_flood", f"too many chat messages: at most {CHAT_RATE} "
                                f"in {CHAT_WINDOW:g} seconds; wait {wait} s")
        async with self.lock:
            self._check_open()
            if len(self.chat_log) >= CHAT_MAX:
                raise RejectedError("chat_full", f"this table's chat is full ({CHAT_MAX} "
                                    "messages)")
            n = len(self.chat_log)
            name = self.seats[seat].name if seat is not None else "spectator"
            entry = {"n": n, "seat": seat, "name": name, "text": cleaned, "at": time.time()}
            await self.db("add_chat", self.id, n, seat, name, cleaned, entry["at"])
            times.append(now)
            self.chat_log.append(entry)
            for conn in self.connections():
                if self.chat_allowed(conn.seat):
                    conn.push({"type": "chat", "message": entry})

    # -- claims (docs/web.md "Claim") -------------------------------------------

    def claim_info(self) -> dict[str, Any] | None:
        """The claim of the current turn: who claims, who must still answer, who
        declined (null once a card is played)."""
        game = self.game
        claim = self._claim
        if claim is None or game is None or claim["ply"] != len(game.actions) \
                or claim["game_no"] != len(self.games) - 1:
            return None
        return {"seat": claim["seat"], "waiting": list(claim["waiting"]),
                "declined": claim["declined"]}

    def _claim_refusal(self, seat: int | None) -> str | None:
        """Why ``seat`` may not claim now, in words; None if it may (whether the claim
        is sure is the solver's to say, :func:`pinochlekit.web.claim.claim_is_sure`)."""
        if seat is None:
            return "spectators cannot claim"
        game = self.game
        if game is None:
            return self._not_dealt()
        why = claimable(game, seat)
        if why is None and self.claim_info() is not None:
            why = "a claim is already waiting for answers"
        if why is None and (len(self.games) - 1, game.hand_number) in self._claimed:
            why = "one claim per hand: the hand plays on"
        return why

    async def claim(self, seat: int | None) -> None:
        """The declarer's side claims the rest of the hand on its turn. The exact
        solver checks it (:func:`pinochlekit.web.claim.claim_is_sure`): one claim per
        hand; an unsure one is refused and the hand plays on. A sure one waits for
        each person of the other side to accept (computers do), then is played out."""
        if seat is None:
            raise RejectedError("spectator", "spectators cannot claim")
        try:
            async with self.lock:
                self._check_open()
                why = self._claim_refusal(seat)
                if why is not None:
                    raise RejectedError("no_claim", why)
                game = self.game
                assert game is not None
                hand = (len(self.games) - 1, game.hand_number)
                claim: dict[str, Any] | None = None
                if claim_is_sure(game, seat):
                    answering = other_side(game, seat)
                    claim = {"seat": seat, "ply": len(game.actions), "game_no": hand[0],
                             "waiting": [s.number for s in self.seats if s.number in answering
                                         and s.is_human and not s.standin],
                             "declined": None}
                # the hand's one claim and a sure claim (waiting, or accepted by nobody
                # having to answer) in one transaction: after a restart the hand allows
                # no second claim, and a sure one is still answered or played out
                await self.db("add_claim", self.id, hand[0], hand[1], claim)
                self._claimed.add(hand)
                self._states.clear()  # the button goes: one claim per hand
                if claim is None:
                    self.broadcast()
                    raise RejectedError("claim_refused", "the claim is not sure: the other "
                                        "side can still take points against it; the hand "
                                        "plays on")
                self._claim = claim
                if not claim["waiting"]:
                    await self._play_out(game)
                else:
                    self.broadcast()
        finally:  # the driver finishes a claim whose play-out failed
            self.kick()

    async def answer_claim(self, seat: int | None, accept: Any) -> None:
        """A person of the other side accepts the claim (when the last one does, the
        hand is played out) or declines it (the hand plays on)."""
        if not isinstance(accept, bool):
            raise RejectedError("bad_message", "a claim answer needs 'accept': true or false")
        try:
            async with self.lock:
                self._check_open()
                info = self.claim_info()
                if info is None or seat not in info["waiting"]:
                    raise RejectedError("no_claim", "there is no claim waiting for your answer")
                assert self._claim is not None and seat is not None
                claim = dict(self._claim)
                if not accept:
                    claim["waiting"], claim["declined"] = [], self.seats[seat].name
                    await self._keep_claim(claim)
                    self._states.clear()
                    self.broadcast()
                    return
                claim["waiting"] = [s for s in claim["waiting"] if s != seat]
                await self._keep_claim(claim)  # accepted by all: played out even after a restart
                game = self.game
                if not claim["waiting"] and game is not None:
                    await self._play_out(game)
                else:
                    self._states.clear()
                    self.broadcast()
        finally:  # the driver finishes a claim whose play-out failed
            self.kick()

    async def _keep_claim(self, claim: dict[str, Any]) -> None:
        """Store the claim waiting for answers (or declined), then hold it (the lock
        is held): a restart keeps it (docs/web.md "Claim")."""
        await self.db("save_claim", self.id, claim)
        self._claim = claim

    def _claim_to_finish(self) -> bool:
        """Whether an accepted claim is still to be played out: everyone of the other
        side accepted (or nobody had to) but its first move is not stored yet, or its
        play-out stopped half way (the server stopped, or the store failed, while it
        played: the last move was played for the claim and the hand is still in its
        card play)."""
        game = self.game
        if game is None:
            return False
        info = self.claim_info()
        if info is not None and not info["waiting"] and info["declined"] is None:
            return True
        if not self.actors or not self.actors[-1]:
            return False
        return self.actors[-1][-1][1] == CLAIM and in_play(game, game.hand_number)

    async def _play_out(self, game: AnyGame) -> None:
        """Play the rest of the hand by the solver, each side for itself (the lock is
        held): ordinary plays, stored and broadcast one by one. The stored claim goes
        once the hand is played out (a move of the play-out already tells that the
        claim was accepted: :meth:`_claim_to_finish`)."""
        hand = game.hand_number
        while in_play(game, hand):
            seat = game.to_act
            assert seat is not None
            await self._commit(game, seat, str(best_play(game)), CLAIM)
        if self._claim is not None:
            await self.db("save_claim", self.id, None)
            self._claim = None

    # -- undo (docs/web.md "Undo") ---------------------------------------------

    def _undo_refusal(self, seat: int | None) -> str | None:
        """Why ``seat`` may not take back its last action now, in words; None if it may."""
        if seat is None:
            return "spectators cannot undo"
        if any(not other.is_computer for other in self.seats if other.number != seat):
            return ("undo is only at a table whose other seats are all computers: the "
                    "people here have seen your move")
        game = self.game
        if game is None or not game.actions:
            return "nothing to undo yet"
        if game.phase is Phase.GAME_OVER:
            return "the game is over: its last move cannot be taken back"
        last_seat, actor = self.actors[-1][-1]
        if last_seat != seat or actor != HUMAN:
            return "nothing to undo: the next player has already acted"
        before = game.copy()
        before.undo()
        if len(before.results) != len(game.results):
            return "that move finished the hand: the hand is scored and cannot be taken back"
        return None

    def can_undo(self, seat: int | None) -> bool:
        """Whether ``seat`` may take back its last action now (see :meth:`undo`)."""
        return seat is not None and self._undo_refusal(seat) is None

    async def undo(self, seat: int | None) -> None:
        """Take back a seated person's last action, before the next player acts, at a
        table whose other seats are all computers (nobody else has seen it count):
        removed from the store, then from the game, then broadcast. Otherwise
        :class:`RejectedError` ``no_undo``, saying why."""
        async with self.lock:
            self._check_open()
            why = self._undo_refusal(seat)
            if why is not None:
                raise RejectedError("no_undo", why)
            game = self.game
            assert game is not None
            ply = len(game.actions) - 1
            await self.db("remove_last_action", self.id, len(self.games) - 1, ply)
            game.undo()
            self.events = ()
            self.actors[-1].pop()
            self.changes += 1
            self.broadcast()
        self.kick()

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
                raise RejectedError("waiting", self._not_dealt())
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
                    hint_spec(self.rules)))
                self._hints[key] = task
        try:
            hint = await asyncio.shield(task)
        except Exception:  # a cancelled request (BaseException) leaves the task shared
            if self._hints.get(key) is task:
                del self._hints[key]  # a failed hint is tried again at the next request
            raise
        return {"type": "hint", "game_no": game_no, "ply": ply, "seat": seat,
                **hint.to_dict()}

    def _fallback(self, game: AnyGame, seat: int) -> Action:
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
            if self._round is not None:
                return  # asked for already: the deal waits for the browsers' values
            dealer = (game.first_dealer + 1) % self.rules.players
            if self._round_needed():
                self._open_round("commit", dealer)
                await self._advance_round()
                return
            await self.start_game(dealer)
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
            if self._round is not None:  # every seat taken: no open seat to fill
                raise RejectedError("started", self._not_dealt())
            filled = [(other.number, level, computer_name(level))
                      for other in self.seats if other.kind == OPEN]
            # with browsers' commitments in, the deal waits for their values
            wait = bool(self.client_commitments.get(len(self.games)))
            row, game = (None, None) if wait else self._next_game()
            # the seats and the first game in one transaction; memory changes after it
            # commits (docs/web.md "Nothing lost")
            if not await self.db("fill_seats", self.id, filled, row):
                raise RejectedError("taken", "a seat was taken meanwhile; try again")
            for number, kind, name in filled:
                self.seats[number].kind, self.seats[number].name = kind, name
            if row is not None and game is not None:
                self._begin(row, game)
                self.broadcast()
            else:
                self._open_round("reveal")
                await self._advance_round()
        self.kick()

    async def join(self, number: int, name: str, commitment: str = "") -> str:
        """Give an open seat to a person; the token that holds it. ``commitment``: the
        SHA-256 of the value the person's browser will reveal for the first game's
        deals (checked by the caller: :data:`pinochlekit.web.dealing.CLIENT_COMMITMENT`).

        When the last seat is taken the first game starts, or, if any browser
        committed, the values are asked for first (docs/web.md "Fairness and
        privacy")."""
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
            given = (pending, commitment) if commitment and pending in self.server_seeds \
                and self.game is None else None
            wait = given is not None or bool(self.client_commitments.get(pending))
            row, game = self._next_game() if last and not wait else (None, None)
            # the seat and (the last one taken) the first game in one transaction;
            # memory changes after it commits (docs/web.md "Nothing lost")
            if not await self.db("claim_seat", self.id, number, name, digest, row, given):
                raise RejectedError("taken", f"seat {number} is not open")
            if given is not None:
                self.client_commitments.setdefault(pending, {})[number] = commitment
            seat.kind, seat.name, seat.token_hash = HUMAN, name, digest
            seat.away_since = time.monotonic()
            self._reset_driver(seat)
            self.start_grace_timers()  # until the person connects (and a round, if last)
            if row is not None and game is not None:
                self._begin(row, game)
            self._states.clear()
            self.broadcast()
        return token

    # -- the browsers' values: commit, then reveal (docs/web.md "Fairness and privacy")

    def _not_dealt(self) -> str:
        """Why no game is in play before the first, in words: seats still open, or
        every seat taken and the deal waiting for the browsers' values."""
        if self._round is None:
            return "the game starts when every seat is taken"
        left = max(0.0, self._round["deadline"] - time.time())
        return ("every seat is taken: the first game is dealt once the browsers' values "
                f"are in, within {left:.0f} s")

    def _round_needed(self) -> bool:
        """Whether the next deal waits for browsers: one committed to it already, or a
        person's browser took part in the last deal."""
        pending = len(self.games)
        if pending not in self.server_seeds:
            return False
        return bool(self.client_commitments.get(pending) or self._waited_for())

    def _waited_for(self) -> list[int]:
        """The seats whose commitment a rematch's deal waits for: people here, whose
        browser committed to the last game (a page that takes part)."""
        last = self.client_commitments.get(len(self.games) - 1, {})
        return [s.number for s in self.seats
                if s.is_human and not s.standin and s.connections and s.number in last]

    def _open_round(self, phase: str, dealer: int | None = None) -> None:
        """Start collecting the browsers' commitments (``commit``) or, once they are
        in, their values (``reveal``), for the game not yet dealt."""
        seconds = self.commit_time if phase == "commit" else self.reveal_time
        self._round = {"game_no": len(self.games), "phase": phase, "dealer": dealer,
                       "deadline": time.time() + seconds,
                       "waiting": self._waited_for() if phase == "commit" else []}
        self._arm_round(seconds)
        self._states.clear()

    def _arm_round(self, seconds: float) -> None:
        if self._round_handle is not None:
            self._round_handle.cancel()
        round_ = self._round
        self._round_handle = asyncio.get_running_loop().call_later(
            seconds, lambda: asyncio.ensure_future(self._round_over(round_)))

    def _end_round(self) -> None:
        self._round = None
        if self._round_handle is not None:
            self._round_handle.cancel()
            self._round_handle = None

    async def _round_over(self, round_: dict[str, Any] | None) -> None:
        """A phase's time ran out: what is missing counts as absent."""
        try:
            async with self.lock:
                if self._round is round_ and round_ is not None and not self.closed:
                    await self._advance_round(timed_out=True)
        except Exception:  # the database failed: try again shortly
            log.exception("table %s: the deal after the browsers' values failed", self.id)
            if self._round is round_ and not self.closed:
                self._arm_round(1.0)
            return
        self.kick()

    def _missing(self) -> list[int]:
        """The seats the running round still waits for."""
        round_ = self._round
        if round_ is None:
            return []
        game_no = round_["game_no"]
        committed = self.client_commitments.get(game_no, {})
        if round_["phase"] == "commit":
            return [s for s in round_["waiting"] if s not in committed]
        revealed = self.client_seeds.get(game_no, {})
        return sorted(s for s in committed if s not in revealed)

    async def _advance_round(self, timed_out: bool = False) -> None:
        """Move the round on once nothing is missing (or its time ran out): from the
        commitments to the reveal, from the reveal to the deal (the lock is held)."""
        round_ = self._round
        if round_ is None:
            return
        if self._missing() and not timed_out:
            self._states.clear()
            self.broadcast()
            return
        if round_["phase"] == "commit":
            log.info("table %s: the commitments to game %d are in%s; revealing", self.id,
                     round_["game_no"], " (time ran out)" if timed_out else "")
            self._open_round("reveal", round_["dealer"])
            await self._advance_round()
            return
        if timed_out:
            log.warning("table %s: seats %s committed to game %d and did not reveal: "
                        "dealt without their values", self.id, self._missing(),
                        round_["game_no"])
        await self.start_game(round_["dealer"])  # _begin ends the round
        self.broadcast()

    async def commit(self, seat: int | None, commitment: Any) -> None:
        """A seated person's browser commits to the value it will reveal for the next
        game's deals: the value's SHA-256 (64 hexadecimal digits). Once a seat's
        commitment is in, it is final; none is taken once the values are being
        revealed."""
        if seat is None or not self.seats[seat].is_human:
            raise RejectedError("spectator", "only a seated person contributes to the deals")
        if not isinstance(commitment, str) or not CLIENT_COMMITMENT.fullmatch(commitment):
            raise RejectedError("bad_message", "commitment: the SHA-256 of your value, 64 "
                                "hexadecimal digits (0-9, a-f)")
        async with self.lock:
            self._check_open()
            pending = len(self.games)
            if pending not in self.server_seeds:
                raise RejectedError("no_fair", "this table was made before browsers could "
                                    "contribute to its deals")
            if self._round is not None and self._round["phase"] == "reveal":
                raise RejectedError("too_late", f"the values of game {pending + 1} are being "
                                    "revealed: no commitment is taken now")
            have = self.client_commitments.get(pending, {}).get(seat)
            if have is not None:
                if have == commitment:
                    return
                raise RejectedError("committed", f"seat {seat} has committed to game "
                                    f"{pending + 1} already; a commitment cannot change")
            await self.db("set_client_commitment", self.id, pending, seat, commitment)
            self.client_commitments.setdefault(pending, {})[seat] = commitment
            self._states.clear()
            await self._advance_round()
            self.broadcast()
        self.kick()

    async def reveal(self, seat: int | None, value: Any) -> None:
        """A seated person's browser reveals the value it committed to, once every
        commitment the deal waits for is in: refused unless its SHA-256 is the
        commitment; when the last one is in, the game is dealt."""
        if seat is None or not self.seats[seat].is_human:
            raise RejectedError("spectator", "only a seated person contributes to the deals")
        if not isinstance(value, str) or not CLIENT_SEED.fullmatch(value):
            raise RejectedError("bad_message", "value: 32 to 128 hexadecimal digits (0-9, a-f)")
        async with self.lock:
            self._check_open()
            pending = len(self.games)
            committed = self.client_commitments.get(pending, {}).get(seat)
            if committed is None:
                raise RejectedError("no_commitment", f"seat {seat} has no commitment to game "
                                    f"{pending + 1}: a value counts only if committed first")
            if self._round is None or self._round["phase"] != "reveal":
                raise RejectedError("not_yet", f"the values of game {pending + 1} are "
                                    "revealed once every commitment is in; keep it until then")
            digest = client_commitment(value)
            if digest != committed:
                raise RejectedError("bad_reveal", f"this value does not match seat {seat}'s "
                                    f"commitment to game {pending + 1} (its SHA-256 is "
                                    f"{digest[:16]}…, the commitment {committed[:16]}…); "
                                    "refused")
            if seat in self.client_seeds.get(pending, {}):
                return  # revealed already (the same value: the hash says so)
            await self.db("set_client_seed", self.id, pending, seat, value)
            self.client_seeds.setdefault(pending, {})[seat] = value
            self._states.clear()
            await self._advance_round()
        self.kick()

    def fair(self, everything: bool = False) -> dict[str, Any]:
        """What everyone may know of the deals' seeds: for the next game, the hash of
        its server seed (chosen before any browser committed), each seat's commitment
        (``""``: none), which seats revealed their value and the round collecting
        them; for every finished game its server seed, values and commitments,
        revealed (the last games only, or with ``everything`` every game)."""
        out: dict[str, Any] = {"games": []}
        pending = len(self.games)
        first = 0 if everything else max(0, pending - 2)
        for game_no in range(first, pending + 1):
            server_seed = self.server_seeds.get(game_no)
            if server_seed is None:
                continue
            given = self.client_seeds.get(game_no, {})
            committed = self.client_commitments.get(game_no, {})
            entry: dict[str, Any] = {
                "game_no": game_no, "commitment": server_commitment(server_seed),
                "contributed": sorted(given),
                "client_commitments": [committed.get(s.number, "") for s in self.seats]}
            round_ = self._round
            if game_no == pending and round_ is not None and round_["game_no"] == game_no:
                entry["round"] = {"phase": round_["phase"], "waiting": self._missing(),
                                  "remaining": round(max(0.0, round_["deadline"]
                                                         - time.time()), 1)}
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
        self._end_round()
        if self._driver is not None:
            self._driver.cancel()
        if self._turn_handle is not None:
            self._turn_handle.cancel()
        for seat in self.seats:
            if seat.timer is not None:
                seat.timer.cancel()
            if seat.driver is not None:
                with contextlib.suppress(Exception):
                    seat.driver.close()


def _is_legal(game: AnyGame, action: Any, seat: int) -> bool:
    """Whether a computer's choice may be played (anything odd it returns counts as illegal)."""
    try:
        return game.can(parse_game_action(game.rules, str(action)), seat)
    except PinochleError:
        return False


def computer_name(level: str) -> str:
    """The name shown for a computer seat."""
    return level
