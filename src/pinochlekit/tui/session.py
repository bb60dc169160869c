"""The table's logic, shared by the full-screen app and the plain line mode.

A :class:`Session` is one person at seat 0 (South) against computer players:
a computer partner (North) and two computer opponents (West and East) in the
four-handed game, one opponent (North) in the two-handed game, two (West and
East) in the three-handed game. It applies the person's actions and the
computer players' moves to the game (:func:`pinochlekit.engine.games.new_any_game`),
saves each one as it happens (:mod:`pinochlekit.tui.store`), and tells what
happened as short lines of text that both interfaces show. Game state lives
here, never in widgets.

Each computer seat is one :class:`~pinochlekit.players.seat.Seat` for the whole
game, seeded by the players' one policy (docs/players.md "Seeds"): its decisions
are a pure function of the game seed, the seat and what the seat has seen. A
resumed game rebuilds the seats from the saved record, and an undo goes back to
a copy taken at the start of the hand and shows it the views since, so a resumed
or undone game plays on exactly as it would have.

>>> session = Session.new("pagat", seed=5, levels=["easy", "easy", "easy"])
>>> session.name(1), session.name(0), session.team_name(0)
('West', 'You', 'You & North')
>>> while not session.is_human_turn:
...     _ = session.step()
>>> session.game.to_act
0
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from pinochlekit.engine.actions import (
    Action,
    Bid,
    Discard,
    Give,
    Moon,
    NameTrump,
    Pass,
    Play,
    Redeal,
    Return,
    ThrowIn,
    parse_action,
)
from pinochlekit.engine.cards import Card, Hand, parse_cards, parse_suit
from pinochlekit.engine.double.game import DoubleDeckGame
from pinochlekit.engine.errors import (
    NotationError,
    PhaseError,
    PinochleError,
    RecordError,
    RulesError,
)
from pinochlekit.engine.events import (
    ContractWon,
    Dealt,
    Event,
    GameWon,
    HandScored,
    MeldShown,
    TrickWon,
)
from pinochlekit.engine.game import Game
from pinochlekit.engine.games import AnyGame, for_game, new_any_game, parse_game_action, replay_any
from pinochlekit.engine.meld import MeldResult
from pinochlekit.engine.record import GameRecord
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.two.game import TwoHandedGame
from pinochlekit.engine.variants import find_variant
from pinochlekit.engine.views import HandResult, Phase, Trick, View, sees_cards
from pinochlekit.players import (
    PLAYERS,
    PlayerSpecError,
    available_levels,
    hint_level,
    level_name,
    levels_for,
    make_player,
    plays,
)
from pinochlekit.players.claim import best_play, claim_is_sure, claimable, in_play
from pinochlekit.players.hints import Advice, advise
from pinochlekit.players.seat import Seat, catch_up, rebuild_seats, seat_seed
from pinochlekit.text.narrate import format_hand, format_meld
from pinochlekit.text.results import explain, winner_note
from pinochlekit.tui import double, two
from pinochlekit.tui.face import Face, TableFace, bid_range
from pinochlekit.tui.store import GameStore, StoreError

__all__ = [
    "HUMAN",
    "SEAT_NAMES",
    "Session",
    "Settings",
    "Turn",
    "bid_range",
    "check_level",
    "for_people",
    "hint_level",
    "seat_names",
]

#: The person's seat.
HUMAN = 0
#: Compass names of the seats, clockwise in the order of play from the person (South).
SEAT_NAMES = ("South", "West", "North", "East")
#: The seats of each table size, clockwise from the person: the opponent of the
#: two-handed game sits across (North), the three-handed table has no North.
_LAYOUTS = {2: ("South", "North"), 3: ("South", "West", "East"), 4: SEAT_NAMES}


def seat_names(players: int) -> tuple[str, ...]:
    """The compass names of the seats of a ``players``-handed table, seat 0 first.

    >>> seat_names(2), seat_names(3)
    (('South', 'North'), ('South', 'West', 'East'))
    """
    return _LAYOUTS[players]


def check_level(spec: str, rules: Rules | None = None) -> str:
    """A computer player spec the table accepts (a level, optionally with options)
    that plays the game of ``rules`` (:func:`pinochlekit.players.plays`).

    >>> check_level("pro(rollouts=50)")
    'pro(rollouts=50)'
    >>> check_level("cmd:bot")
    Traceback (most recent call last):
    ...
    pinochlekit.players.base.PlayerSpecError: level 'cmd:bot': ...
    """
    text = spec.strip()
    levels = ", ".join(available_levels())
    if text.startswith("cmd:"):
        raise PlayerSpecError(f"level {text!r}: the table plays built-in levels only "
                              f"({levels}); use 'pinochle match' for external programs")
    name = level_name(text)
    if name == "expert" and "expert" not in PLAYERS:
        raise PlayerSpecError(f"the expert level is not available yet; levels: {levels}")
    if name not in PLAYERS:
        raise PlayerSpecError(f"unknown level {name!r}; levels: {levels}")
    if rules is not None and not plays(text, rules):
        raise PlayerSpecError(f"level {name!r} does not play the {find_variant(rules).name}; "
                              f"levels: {', '.join(levels_for(rules))}")
    make_player(text).close()  # raises PlayerSpecError naming a bad name or option
    return text


@dataclass
class Settings:
    """The table's settings, saved with the game."""

    hints: bool = True
    undo: bool = True

    def to_dict(self) -> dict[str, bool]:
        """A JSON-ready dict."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Settings:
        """Read saved settings, ignoring unknown keys."""
        return cls(hints=bool(data.get("hints", True)), undo=bool(data.get("undo", True)))


@dataclass(frozen=True)
class Turn:
    """One decision of one seat: what it sees, the seed of the player that decides,
    the number of actions before it; for a hint, the person's earlier views of this
    hand that the hint player is shown first (so that it keeps what it computed at
    them); for a computer, the seat that decides."""

    view: View
    seed: str
    position: int
    earlier: tuple[View, ...] = ()
    seat: Seat | None = None


#: The face of each game at the table, by the game's class (a game derived from one
#: of these gets its face: :func:`~pinochlekit.engine.games.for_game`).
_FACES: dict[type, type[Face[Any]]] = {Game: TableFace, DoubleDeckGame: double.DoubleFace,
                                       TwoHandedGame: two.TwoFace}


def face_for(game: AnyGame) -> Face[Any]:
    """The table's face of ``game`` (:mod:`pinochlekit.tui.face`).

    >>> type(face_for(new_any_game(Rules.preset("three"), seed=1))).__name__
    'TableFace'
    """
    return for_game(_FACES, game)(game)


class Session:
    """One person (seat 0) against computer players: apply, save and tell each action."""

    def __init__(self, game: AnyGame, seats: Sequence[str],
                 settings: Settings | None = None, store: GameStore | None = None,
                 game_id: int | None = None,
                 actors: Sequence[int] = ()) -> None:
        """Use :meth:`new` or :meth:`resume`."""
        self.game = game
        #: What the table does differently for this game (:mod:`pinochlekit.tui.face`).
        self.face = face_for(game)
        self.seats = list(seats)  # "you" for the person, else a level spec
        self.settings = settings or Settings()
        self.store = store
        self.game_id = game_id
        self.actors = list(actors)  # the seat of each action in game.actions
        # the computer seats, built from the record at the first computer turn, and
        # their copies at the first computer turn of each hand: (position, hand, seats)
        self._seats: dict[int, Seat] | None = None
        self._marks: list[tuple[int, int, dict[int, Seat]]] = []
        self._claimed: set[int] = set()  # the hands claimed in (one claim per hand)

    # -- starting ---------------------------------------------------------------

    @classmethod
    def new(cls, rules: Rules | str = "pagat", *, seed: int | str | None = None,
            levels: Sequence[str] = ("standard",), settings: Settings | None = None,
            store: GameStore | None = None, dealer: int = 0) -> Session:
        """A new game of the kind ``rules`` describe (two, three or four players);
        ``levels`` is one level for every computer seat, or one per computer seat
        clockwise from the person (West, North, East; two-handed: North; three-handed:
        West, East). Saved in ``store`` if given."""
        rules = Rules.from_string(rules) if isinstance(rules, str) else rules
        if rules.players not in _LAYOUTS:
            raise RulesError("players", f"the table seats two, three or four, not "
                                        f"{rules.players}")
        others = rules.players - 1
        levels = list(levels)
        if len(levels) == 1:
            levels *= others
        if len(levels) != others:
            raise PlayerSpecError(f"give one level or {others}, not {len(levels)}")
        levels = [check_level(level, rules) for level in levels]
        game = new_any_game(rules, seed=seed, dealer=dealer)
        settings = settings or Settings()
        seats = ["you", *levels]
        game_id = None
        if store is not None:
            game_id = store.create(str(rules), game.seed, dealer, seats, settings.to_dict())
        return cls(game, seats, settings, store, game_id)

    @classmethod
    def resume(cls, store: GameStore, game_id: int | None = None) -> Session:
        """Continue a saved game (default: the last unfinished one) by replaying its
        saved actions; :class:`StoreError` if there is none or it does not replay."""
        if game_id is None:
            game_id = store.latest()
            if game_id is None:
                raise StoreError("no unfinished game to resume; start one with 'pinochle play'")
        saved = store.load(game_id)
        record = saved.record
        try:
            game = replay_any(GameRecord(record.rules, record.seed, record.dealer, ()))
            actors = []
            for number, text in enumerate(record.actions, 1):
                actors.append(game.to_act if game.to_act is not None else -1)
                try:
                    game.apply(parse_game_action(game.rules, text))
                except PinochleError as error:
                    raise RecordError(f"action {number} ({text!r}) does not replay: "
                                      f"{error}") from None
        except RecordError as error:
            raise StoreError(f"saved game {game_id} cannot be resumed: {error}") from None
        if len(saved.seats) != game.rules.players or saved.seats[HUMAN] != "you":
            raise StoreError(f"saved game {game_id} is damaged: bad seats {saved.seats}")
        try:
            for level in saved.seats[1:]:
                check_level(level, game.rules)
        except PlayerSpecError as error:
            raise StoreError(f"saved game {game_id} cannot be resumed: {error}") from None
        session = cls(game, saved.seats, Settings.from_dict(saved.settings), store, game_id,
                      actors)
        session._claimed = store.claims(game_id)  # one claim per hand, across resumes
        return session

    # -- who is who -----------------------------------------------------------

    def name(self, seat: int) -> str:
        """``You``, ``West``, ``North`` or ``East``."""
        return "You" if seat == HUMAN else seat_names(self.game.rules.players)[seat]

    def label(self, seat: int) -> str:
        """A seat with its role and level: ``North (partner, pro)``."""
        if seat == HUMAN:
            return "You (South)"
        rules = self.game.rules
        role = "partner, " if rules.partnership and rules.team_of(seat) == rules.team_of(HUMAN) \
            else ""
        return f"{seat_names(rules.players)[seat]} ({role}{self.seats[seat]})"

    def team_name(self, team: int) -> str:
        """``You & North`` or ``West & East``; a seat's name when each plays alone."""
        rules = self.game.rules
        if not rules.partnership:
            return self.name(team)
        seats = [s for s in range(rules.players) if rules.team_of(s) == team]
        return " & ".join(self.name(s) for s in seats)

    @property
    def is_human_turn(self) -> bool:
        """Whether the person is to act."""
        return self.game.to_act == HUMAN

    @property
    def is_over(self) -> bool:
        """Whether the game has been won."""
        return self.game.winner is not None

    # -- acting -------------------------------------------------------------

    def step(self) -> list[str]:
        """Let the computer player to act make its move; what happened, as lines."""
        turn = self.computer_turn()
        return self.apply_computer(turn, self.computer_choice(turn))

    def decision(self, seat: int, kind: str = "pinochle hint") -> Turn:
        """The decision ``seat`` faces now, for a player built for it (the hint): its
        view, the seed of that player, and the seat's earlier views of this hand that
        the player must be shown first.

        Before the play (auction, trump, passing) the seed is (game seed, seat, hand
        number) and the earlier views are the seat's earlier decisions of the hand, so
        a player built now keeps exactly the bidding table a player living through the
        hand would have kept (docs/players.md: computed at the first bid). In the play
        the seed is (game seed, seat, number of actions so far) and nothing is replayed.
        The computer seats do not use this: see :meth:`computer_turn`.
        """
        game = self.game
        position = len(game.actions)
        if game.phase in (Phase.PLAY, Phase.GAME_OVER):
            return Turn(game.view(seat), f"{kind}/{game.seed}/{seat}/{position}", position)
        return Turn(game.view(seat), f"{kind}/{game.seed}/{seat}/hand {game.hand_number}",
                    position, self._earlier_views(seat))

    def _earlier_views(self, seat: int) -> tuple[View, ...]:
        """The views ``seat`` had at its earlier decisions of the current hand."""
        game = self.game
        number = game.hand_number
        back = game.copy()
        views: list[View] = []
        while back.actions:
            actor = self.actors[len(back.actions) - 1]
            back.undo()
            if back.hand_number != number:
                break
            if actor == seat:
                views.append(back.view(seat))
        return tuple(reversed(views))

    def computer_turn(self) -> Turn:
        """The decision of the computer seat to act: its view, its seat's seed
        (:func:`~pinochlekit.players.seat.seat_seed`), the position and the
        :class:`~pinochlekit.players.seat.Seat` that decides; :class:`PhaseError` if
        the person is to act or the game is over."""
        seat = self.game.to_act
        if seat is None or seat == HUMAN:
            raise PhaseError("no computer player is to act")
        seats = self.computer_seats()
        position = len(self.game.actions)
        hand = self.game.hand_number
        if not self._marks or self._marks[-1][1] != hand:
            # the first computer turn of a hand: where an undo into this hand goes back to
            self._marks.append((position, hand, {s: d.copy() for s, d in seats.items()}))
        return Turn(self.game.view(seat), seat_seed(self.game.seed, seat), position,
                    seat=seats[seat])

    def computer_seats(self) -> dict[int, Seat]:
        """The computer seats, one :class:`~pinochlekit.players.seat.Seat` each for the
        whole game; built (from the game's record, on a resumed game) when first asked."""
        if self._seats is None:
            specs = {s: spec for s, spec in enumerate(self.seats) if s != HUMAN}
            self._seats = rebuild_seats(self.game.record, specs)
        return self._seats

    def computer_choice(self, turn: Turn) -> Action:
        """The move of the computer seat whose decision this is. Touches only that
        seat, so the table runs it in a thread while the screen stays live; an undo
        meanwhile leaves the seat behind (:meth:`undo`)."""
        assert turn.seat is not None, "a computer's turn comes from computer_turn"
        return turn.seat.choose(turn.view)

    def apply_computer(self, turn: Turn, action: Action) -> list[str]:
        """Apply a computer move chosen for ``turn``; refused if the game has moved
        since (an undo)."""
        if len(self.game.actions) != turn.position or turn.view.seat != self.game.to_act:
            raise PhaseError("the game moved on while the computer was thinking")
        assert turn.view.seat is not None
        return self.apply_and_tell(turn.view.seat, action)

    def act(self, command: Action | str) -> list[str]:
        """Apply the person's action (an action or its text, shortcuts allowed).

        A wrong one raises a :class:`~pinochlekit.PinochleError` whose message
        names the rule (``illegal play 9H: must beat KH with AH or TH``) and changes
        nothing.
        """
        if self.game.to_act != HUMAN:
            who = "the game is over" if self.is_over else \
                f"it is {self.name(self.game.to_act or 0)}'s turn"
            raise PhaseError(f"wait: {who}")
        action = self.parse(command) if isinstance(command, str) else command
        try:
            return self.apply_and_tell(HUMAN, action)
        except PinochleError as error:
            raise type(error)(self.friendly(str(error))) from None

    def parse(self, text: str) -> Action:
        """Read the person's command: an action's text, or a shortcut for the phase
        (``TS`` plays a card, ``260`` bids, ``H`` names trump, four cards pass them;
        two-handed: ``KS QS`` lays a meld, ``n`` no meld)."""
        try:
            own = self.face.parse(text)
        except NotationError as error:
            raise NotationError(f"{error}; {self.choices_text()}") from None
        if own is not None:
            return own
        try:
            return parse_action(text)
        except NotationError as error:
            phase, words = self.game.phase, text.split()
            try:
                if phase is Phase.AUCTION and len(words) == 1 and words[0].isdigit():
                    return Bid(int(words[0]))
                if phase is Phase.TRUMP and len(words) == 1:
                    return NameTrump(parse_suit(words[0]))
                if phase in (Phase.GIVE, Phase.RETURN) and words:
                    cards = tuple(parse_cards(words))
                    return Give(cards) if phase is Phase.GIVE else Return(cards)
                if phase is Phase.PLAY and len(words) == 1:
                    return Play(parse_cards(words)[0])
            except NotationError:
                pass
            raise NotationError(f"{error}; {self.choices_text()}") from None

    def friendly(self, message: str) -> str:
        """An engine message told to the person: seats by name, ``seat 0`` as you."""
        message = message.replace(" by seat 0", "")

        def seat(match: re.Match[str]) -> str:
            name = self.name(int(match.group(1)))
            # "You" opens a sentence; inside one it is "you" ("...: you must name trump")
            inside = match.start() > 0 and not message[:match.start()].rstrip().endswith(".")
            return "you" if name == "You" and inside else name

        return re.sub(r"\bseat (\d)\b", seat, message)

    def apply_and_tell(self, seat: int, action: Action) -> list[str]:
        """Apply ``seat``'s action and tell what it caused, from the engine's events
        (what a game tells its own way, the face says: the two-handed meld turn)."""
        before = self.face.before_step()
        events = self.game.step(action, seat)
        self._saved(seat, action)
        lines = self.face.action_lines(self, seat, action, events, before)
        for event in events[1:]:
            lines += self._tell_event(event)
            lines += self.face.event_lines(self, event, events)
        return lines

    def _tell_event(self, event: Event) -> list[str]:
        """What follows from an action, as lines (the action itself is told by
        :meth:`tell`; two-handed melds and draws by the meld turn's lines)."""
        if isinstance(event, ContractWon) and event.widow:
            return [self._widow_line(event.seat, Hand.from_cards(event.widow))]
        if isinstance(event, MeldShown) and self.face.melds_at_once:
            line = f"  {self.meld_line(event.seat, MeldResult(event.points, event.items, Hand()))}"
            return ["meld:", line] if event.seat == 0 else [line]
        if isinstance(event, TrickWon):
            return [self.tell_trick(event.number, event.trick)]
        if isinstance(event, HandScored):
            self._save_standing()
            return self.explain(event.result)
        if isinstance(event, GameWon):
            return [self.game_over_text()]
        if isinstance(event, Dealt):
            return self.new_hand_lines()
        return []

    def _widow_line(self, declarer: int, widow: Hand) -> str:
        """docs/rules.md §3: the widow turned up for all once the auction is won; taken
        into the declarer's hand, or kept out with its points for the declarer."""
        cards = " ".join(c.pretty for c in widow.cards())
        who = self.name(declarer)
        if self.game.rules.widow == "take":
            verb = "take" if declarer == HUMAN else "takes"
            return f"the widow is turned up: {cards}; {who} {verb} it"
        return f"the widow is turned up: {cards}; it stays out, its points for {who}"

    def _saved(self, seat: int, action: Action) -> None:
        """Note who acted and save the action (just applied) at once."""
        self.actors.append(seat)
        if self.store is not None and self.game_id is not None:
            self.store.append(self.game_id, len(self.game.actions) - 1, seat, str(action))

    def _save_standing(self) -> None:
        if self.store is not None and self.game_id is not None:
            self.store.update(self.game_id, scores=list(self.game.scores),
                              hands=len(self.game.results), winner=self.game.winner)

    def explain(self, result: HandResult) -> list[str]:
        """A finished hand told to the person, seats and teams by name
        (:func:`pinochlekit.text.results.explain`)."""
        return explain(result, self.game.rules, self.name, self.team_name)

    # -- claims (docs/terminal.md "Claim") ------------------------------------

    def claim_refusal(self) -> str | None:
        """Why the person may not claim the rest of the hand now, in words; None if
        they may (whether the claim is sure is the solver's to say, :meth:`claim`)."""
        if not self.is_human_turn:
            return "claim on your turn"
        why = claimable(self.game, HUMAN)
        if why is None and self.game.hand_number in self._claimed:
            why = "one claim per hand: the hand plays on"
        return why

    def claim(self) -> list[str]:
        """Claim the rest of the hand: refused in words unless the person may claim
        now and the exact solver finds that their side takes every trick point left
        whatever the others do (:func:`~pinochlekit.players.claim.claim_is_sure`).
        One claim per hand, sure or not, so a claim cannot be used to learn the other
        hands. A sure claim is accepted by the computers and played out by the solver,
        each side for itself, as ordinary plays saved one by one (the computer seats
        are shown their views of them, as a resumed game shows them)."""
        why = self.claim_refusal()
        if why is not None:
            raise PhaseError(f"no claim: {why}")
        game = self.game
        hand, start = game.hand_number, len(game.actions)
        self._claimed.add(hand)
        if self.store is not None and self.game_id is not None:
            self.store.claim(self.game_id, hand)
        if not claim_is_sure(game, HUMAN):
            raise PhaseError("the claim is not sure: the other side can still take points "
                             "against it; the hand plays on")
        lines = ["You claim the rest of the hand: it is sure, and it is played out"]
        while in_play(game, hand):
            seat = game.to_act
            assert seat is not None
            lines += self.apply_and_tell(seat, best_play(game))
        if self._seats is not None:
            catch_up(self._seats, game.record, start=start)
        return lines

    # -- undo and hints -------------------------------------------------------

    def can_undo(self) -> bool:
        """Whether undo is on and the person has an action to take back."""
        return self.settings.undo and HUMAN in self.actors

    def undo(self) -> list[str]:
        """Take back the person's last action and every computer move after it."""
        if not self.settings.undo:
            raise PhaseError("undo is switched off for this game")
        if HUMAN not in self.actors:
            raise PhaseError("nothing to undo: you have not acted yet")
        keep = len(self.actors) - 1 - self.actors[::-1].index(HUMAN)
        taken = []
        while len(self.game.actions) > keep:
            taken.append(self.game.undo())
            self.actors.pop()
        self._back_to(keep)
        if self.store is not None and self.game_id is not None:
            self.store.truncate(self.game_id, keep)
        self._save_standing()
        return [f"undone: {taken[-1]}" + (f" and {len(taken) - 1} computer move"
                                          f"{'s' if len(taken) > 2 else ''} after it"
                                          if len(taken) > 1 else "")]

    def _back_to(self, position: int) -> None:
        """The computer seats as they stood at ``position`` (the game is there now):
        copies of the last mark at or before it, shown the views since; the seats
        left behind are dropped (a computer still thinking on one is refused)."""
        self._marks = [mark for mark in self._marks if mark[0] <= position]
        if not self._marks:
            self._seats = None  # rebuilt from the record at the next computer turn
            return
        at, _, marked = self._marks[-1]
        seats = {s: d.copy() for s, d in marked.items()}
        catch_up(seats, self.game.record, start=at)
        self._seats = seats

    def hint(self) -> str:
        """What the strongest computer player would do for the person now, and why.
        Nothing is played."""
        return self.hint_for(self.hint_request())

    def hint_request(self) -> Turn:
        """The person's decision, seeded for the hint player (as :meth:`decision`), or
        :class:`PhaseError` if hints are off or it is not the person's turn."""
        if not self.settings.hints:
            raise PhaseError("hints are switched off for this game")
        if not self.is_human_turn:
            raise PhaseError("a hint is for your turn")
        return self.decision(HUMAN)

    def hint_for(self, turn: Turn) -> str:
        """The hint for ``turn`` as one line: ``hint (expert): Bid 260: you make it
        in about 7 of 10 deals; naming ♦ diamonds`` (may run in a thread)."""
        return self.hint_line(self.hint_advice(turn))

    def hint_advice(self, turn: Turn) -> Advice:
        """The hint for ``turn`` with its sentence and numbers (touches no shared
        state: may run in a thread)."""
        # the players' hint service, at the level's own budget, shown the earlier views
        return advise(turn.view, turn.seed, self.face.hint_level(), turn.earlier)

    @staticmethod
    def hint_line(advice: Advice) -> str:
        """The hint's sentence as the table shows it: ``hint (expert): …``."""
        return f"hint ({advice.level}): {advice.sentence}"

    def meld_line(self, seat: int, result: MeldResult) -> str:
        """One player's meld, itemized with the cards as symbols:
        ``North: 60: common marriage K♦ Q♦ 20, pinochle Q♠ J♦ 40``."""
        return f"{self.name(seat)}: {for_people(format_meld(result))}"

    # -- telling --------------------------------------------------------------

    def tell(self, seat: int, action: Action) -> str:
        """One action as a line: ``West bids 260``, ``You play A♥``."""
        who = self.name(seat)
        you = seat == HUMAN
        if isinstance(action, Bid):
            return f"{who} {'bid' if you else 'bids'} {action.amount}"
        if isinstance(action, Pass):
            verb = "pass" if you else "passes"
            return f"{who} {verb} with help" if action.help else f"{who} {verb}"
        if isinstance(action, NameTrump):
            return f"{who} {'name' if you else 'names'} trump: {action.suit.words}"
        if isinstance(action, Give | Return):
            # the declarer's partner gives, the declarer returns: to partner (§1.6)
            taker = (seat + 2) % 4
            verb = ("give" if you else "gives") if isinstance(action, Give) else (
                "return" if you else "returns")
            cards = (f": {' '.join(c.pretty for c in action.cards)}"
                     if sees_cards(self.game.rules, action, seat, HUMAN) else "")
            return f"{who} {verb} {len(action.cards)} cards to {self.name(taker)}{cards}"
        if isinstance(action, Play):
            return f"{who} {'play' if you else 'plays'} {action.card.pretty}"
        if isinstance(action, ThrowIn):
            return f"{who} {'throw' if you else 'throws'} in the hand"
        if isinstance(action, Moon):
            return f"{who} {'shoot' if you else 'shoots'} the moon"
        if isinstance(action, Redeal):
            return f"{who} {'call' if you else 'calls'} a nines redeal"
        if isinstance(action, Discard):  # three-handed: the declarer lays away cards
            shown = (f": {' '.join(c.pretty for c in action.cards)}"
                     if sees_cards(self.game.rules, action, seat, HUMAN) else "")
            return f"{who} {'discard' if you else 'discards'} {len(action.cards)} cards{shown}"
        return f"{who}: {action}"

    def tell_trick(self, number: int, trick: Trick) -> str:
        """A finished trick: ``trick 3: West A♥, North 9♥, ... → West (+30)``."""
        played = ", ".join(f"{self.name(s)} {c.pretty}"
                           for s, c in zip(trick.seats, trick.cards, strict=True))
        who = self.name(trick.winner)
        return f"trick {number}: {played} → {who} {'take' if who == 'You' else 'takes'} " \
               f"{trick.points}"

    def meld_lines(self, melds: Sequence[MeldResult]) -> list[str]:
        """Every player's meld, itemized."""
        return ["meld:"] + [f"  {self.meld_line(seat, result)}"
                            for seat, result in enumerate(melds)]

    def new_hand_lines(self) -> list[str]:
        """The start of a deal: number, dealer and the person's hand (two-handed: the
        turned-up card and the stock too)."""
        game = self.game
        head = f"== hand {game.hand_number}, dealer {self.name(game.dealer)} =="
        return [head, *self.face.deal_lines(self)]

    def hand_text(self, hand: Hand | None = None) -> str:
        """The person's hand by suit, highest first."""
        return format_hand(self.game.hand(HUMAN) if hand is None else hand)

    def told(self) -> list[tuple[int, list[str]]]:
        """The game so far told as the table tells it, for a log refilled on resume:
        (number of actions applied, the lines then), starting with where the first
        hand began (0 actions). Replays the actions on a copy; nothing is saved."""
        game = self.game
        record = game.record
        fresh = replay_any(GameRecord(record.rules, record.seed, record.dealer, (),
                                  record.deals))
        teller = Session(fresh, self.seats)
        out = [(0, teller.status_lines()[:1])]
        for number, action in enumerate(game.actions, 1):
            seat = fresh.to_act
            if seat is None:
                break
            out.append((number, teller.apply_and_tell(seat, action)))
        return out

    def saved_text(self, plain: bool = False) -> str:
        """How to come back to this game: ``the game is saved (game 12); go on with:
        pinochle play --resume 12`` (with ``--plain`` for the plain mode)."""
        if self.store is None or self.game_id is None:
            return "this game is not saved"
        if self.is_over:
            return (f"the game is over and saved (game {self.game_id}); replay its hands "
                    f"with: pinochle history {self.game_id}")
        mode = " --plain" if plain else ""
        return (f"the game is saved (game {self.game_id}); go on with: pinochle play{mode} "
                f"--resume {self.game_id}")

    def game_over_text(self) -> str:
        """Who won, and the final score."""
        game = self.game
        assert game.winner is not None
        order = [game.winner] + [t for t in range(game.rules.teams) if t != game.winner]
        scores = " to ".join(str(game.scores[t]) for t in order)
        who = "you win" if game.winner == game.rules.team_of(HUMAN) else "you lose"
        win = "win" if game.rules.partnership or game.winner == HUMAN else "wins"
        note = winner_note(game.scores, game.winner, game.rules.game_target,
                           game.results)
        return (f"game over: {self.team_name(game.winner)} {win} {scores} after "
                f"{len(game.results)} hands ({who}{'; ' + note if note else ''})")

    def status_lines(self) -> list[str]:
        """Where the game stands now: scores, contract, trick, the person's hand."""
        game = self.game
        scores = ", ".join(f"{self.team_name(t)} {game.scores[t]}" for t in range(game.rules.teams))
        lines = [f"hand {game.hand_number}, dealer {self.name(game.dealer)}; score: {scores} "
                 f"(game {self.face.target()})", *self.face.status_lines(self)]
        if game.tricks:
            last = game.tricks[-1]
            lines.append("last " + self.tell_trick(len(game.tricks), last))
        if game.trick:
            view = game.view(HUMAN)
            lines.append("trick so far: " + ", ".join(f"{self.name(s)} {c.pretty}"
                                                     for s, c in view.trick))
        if game.phase is Phase.PLAY:  # the running count (docs/terminal.md "The table")
            lines.append("trick points so far: " + ", ".join(
                f"{self.team_name(t)} {game.trick_points[t]}" for t in range(game.rules.teams)))
        if game.winner is None:
            lines.append(f"your hand: {self.hand_text()}")
        return lines

    def choices_text(self) -> str:
        """What the person may do now, e.g. ``bid 260 or more (steps of 10), pass,
        pass help``."""
        game = self.game
        if game.winner is not None:
            return "the game is over"
        if game.to_act != HUMAN:
            return f"waiting for {self.name(game.to_act or 0)}"
        legal = game.legal_actions()
        own = self.face.choices()
        if own is not None:
            return "you may " + ", ".join(own)
        parts: list[str] = []
        bids = [a.amount for a in legal if isinstance(a, Bid)]
        if bids:
            parts.append(self.face.bid_words(bids))
        parts += [str(a) for a in legal if isinstance(a, Pass | Redeal)]
        trumps = [a.suit.letter for a in legal if isinstance(a, NameTrump)]
        if trumps:
            parts.append("trump " + " or ".join(trumps))
        if game.phase.value == "discard":  # three-handed: the declarer lays cards away
            n = game.rules.widow_size
            parts.append(f"discard {n} cards (e.g. discard {_example(n)})")
        if game.phase in (Phase.GIVE, Phase.RETURN):
            n = game.rules.cards_passed
            to = "the declarer" if game.phase is Phase.GIVE else "your partner"
            parts.append(f"{game.phase.value} {n} cards to {to} (e.g. "
                         f"{game.phase.value} {_example(n)})")
        plays = [a.card for a in legal if isinstance(a, Play)]
        if plays:
            parts.append("play " + " or ".join(map(str, sorted(plays, key=_order))))
        parts += [str(a) for a in legal if isinstance(a, ThrowIn | Moon)]
        return "you may " + ", ".join(parts)

    def legal_cards(self) -> set[Card]:
        """The cards the person may play now (empty outside their turn to play)."""
        if not self.is_human_turn or self.game.phase is not Phase.PLAY:
            return set()
        return {a.card for a in self.game.legal_actions() if isinstance(a, Play)}


_CARD = re.compile(r"\b[9JQKTA][SHDC]\b")


def for_people(text: str) -> str:
    """A text for people with its cards in the symbols form (``KD TC`` → ``K♦ 10♣``);
    the compact form stays for commands, the protocol and the command line.

    >>> for_people("illegal play 9H: must beat KH with AH or TH")
    'illegal play 9♥: must beat K♥ with A♥ or 10♥'
    """
    return _CARD.sub(lambda m: parse_cards(m.group(0))[0].pretty, text)


def _example(n: int) -> str:
    """How to write ``n`` cards, shown beside a choice of cards: a fixed example, one
    card of each suit in turn, never taken from the hand (the hand's first cards would
    suggest which to pass or discard).

    >>> _example(4)
    '9S JH QD KC'
    """
    return " ".join(["9S", "JH", "QD", "KC", "KS", "QH"][:n])


def _order(card: Card) -> tuple[int, int]:
    return (card // 6, -(card % 6))
