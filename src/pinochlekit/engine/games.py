"""One entry point for every game: :func:`new_game` builds the game the rules ask for.

Four players give a :class:`~pinochlekit.engine.game.Game`, three its subclass
:class:`~pinochlekit.engine.three.game.ThreeHandedGame`, two players a
:class:`~pinochlekit.engine.two.game.TwoHandedGame`, the double deck a
:class:`~pinochlekit.engine.double.game.DoubleDeckGame`; all satisfy :class:`AnyGame`,
the interface every interface (command line, matches, players' simulations)
relies on. :func:`replay` and :func:`parse_game_action` do the same for records
and action texts.

>>> game = new_game("two", seed=1)
>>> type(game).__name__, game.to_act
('TwoHandedGame', 1)
>>> type(new_game("pagat", seed=1)).__name__, type(new_game("three", seed=1)).__name__
('Game', 'ThreeHandedGame')
>>> type(new_game("doubledeck", seed=1)).__name__
'DoubleDeckGame'
>>> replay(game.record).view(0) == game.view(0)
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol, Self, TypeVar

from pinochlekit.engine.actions import Action
from pinochlekit.engine.cards import Hand, Suit
from pinochlekit.engine.double.game import DoubleDeckGame
from pinochlekit.engine.errors import PinochleError, RecordError
from pinochlekit.engine.events import Event
from pinochlekit.engine.game import Game
from pinochlekit.engine.meld import MeldResult
from pinochlekit.engine.record import GameRecord, install_replay
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.three.game import ThreeHandedGame
from pinochlekit.engine.two.game import TwoHandedGame
from pinochlekit.engine.variants import find_variant
from pinochlekit.engine.views import HandResult, Phase, Trick, View

__all__ = ["AnyGame", "AuctionGame", "ThreeHandedGame", "for_game", "new_any_game", "new_game",
           "parse_game_action", "replay", "replay_any"]

class AnyGame(Protocol):
    """What every game offers, whatever the number of players."""

    rules: Rules
    seed: int | str
    #: The dealer of the first hand (the dealer moves left each hand, docs/rules.md §1).
    first_dealer: int
    dealer: int
    phase: Phase
    to_act: int | None
    winner: int | None
    actions: list[Action]
    #: The cards of the trick in progress, as card numbers (``int(card)``), in the order
    #: played.
    trick: list[int]
    #: The tricks finished in this hand.
    tricks: list[Trick]
    #: Each side's trick points taken so far in this hand.
    trick_points: list[int]

    @property
    def scores(self) -> list[int]:
        """The running score of each team (four-handed) or player."""

    @property
    def results(self) -> Sequence[HandResult]:
        """The itemized result of every finished hand."""

    @property
    def hand_number(self) -> int:
        """1 for the first deal of the game."""

    @property
    def deal_seed(self) -> str:
        """The secret seed of the current deal (:mod:`pinochlekit.engine.deals`)."""

    def hand(self, seat: int) -> Hand:
        """The cards ``seat`` holds now."""

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take now."""

    def verify(self, action: Action, seat: int | None = None) -> None:
        """Raise the error :meth:`apply` would raise for ``action``; change nothing."""

    def can(self, action: Action, seat: int | None = None) -> bool:
        """Whether :meth:`apply` would accept ``action``."""

    def is_legal(self, action: Action, seat: int | None = None) -> bool:
        """:meth:`can` by its older name."""

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply a checked action; an illegal one raises what :meth:`verify` raises and
        changes nothing."""

    def step(self, action: Action, seat: int | None = None) -> tuple[Event, ...]:
        """:meth:`apply` an action and return the events it caused."""

    def apply_unchecked(self, action: Action) -> None:
        """Apply an action known to be legal."""

    def undo(self) -> Action:
        """Take back the last action."""

    def copy(self) -> Self:
        """An independent copy (same rules, seed and history)."""

    def view(self, seat: int | None) -> View:
        """What ``seat`` (or a spectator, ``None``) may know now."""

    def public_view(self) -> View:
        """A spectator's view."""

    @property
    def record(self) -> GameRecord:
        """The record that replays this game."""


class AuctionGame(AnyGame, Protocol):
    """What a game with an auction offers besides (docs/rules.md §1, §3, §6): the
    four- and three-handed games and the double deck, not the two-handed game."""

    #: Each call of the auction so far: (seat, bid or pass).
    auction: list[tuple[int, Action]]
    #: The seat holding the highest bid, ``None`` before a bid (and for a stuck dealer).
    high_bidder: int | None
    #: The seat that won the auction, ``None`` before.
    declarer: int | None
    #: The declarer's contract (0 before the auction is won).
    contract: int
    #: Trump once named.
    trump: Suit | None
    #: Every seat's meld once shown, ``None`` before.
    melds: tuple[MeldResult, ...] | None

    @property
    def widow(self) -> Hand | None:
        """The widow, face up once the auction is won; ``None`` without one."""


def new_game(rules: Rules | str | None = None, *, seed: int | str | None = None,
             dealer: int = 0) -> Game | TwoHandedGame | DoubleDeckGame:
    """A new game of the kind ``rules`` describe (``pagat`` by default): a
    :class:`~pinochlekit.engine.game.Game` (or its three-handed subclass), a
    :class:`~pinochlekit.engine.two.game.TwoHandedGame` with two players, a
    :class:`~pinochlekit.engine.double.game.DoubleDeckGame` for the double deck
    (docs/rules.md §6)."""
    if isinstance(rules, str):
        rules = Rules.from_string(rules)
    rules = rules or Rules()
    return find_variant(rules).new(rules, seed, dealer)


#: :func:`new_game` by the name it had while it refused the double deck.
new_any_game = new_game


def parse_game_action(rules: Rules, text: str) -> Action:
    """Read an action text for a game under ``rules`` (two-handed actions with two players)."""
    return find_variant(rules).parse_action(text)


def replay(record: GameRecord,
           upto: int | None = None) -> Game | TwoHandedGame | DoubleDeckGame:
    """Rebuild any game from its record (the double deck's too), checking every action."""
    try:
        rules = Rules.from_string(record.rules)
    except PinochleError as error:
        raise RecordError(f"record cannot start: {error}") from None
    return find_variant(rules).from_record(record, upto)


#: :func:`replay` by the name it had while it refused the double deck.
replay_any = replay


install_replay(replay)  # what GameRecord.replay calls


T = TypeVar("T")


def for_game(table: Mapping[type, T], game: object) -> T:
    """``table``'s entry for the class of ``game``, or for its nearest ancestor in the
    table: how the layers above the engine keep one entry per game (the terminal's face
    of it, its narration) instead of asking a game its class. :class:`KeyError` if the
    table has none.

    >>> for_game({Game: "auction game", TwoHandedGame: "stock game"}, new_game("three"))
    'auction game'
    """
    for kind in type(game).__mro__:
        if kind in table:
            return table[kind]
    raise KeyError(f"no entry for a {type(game).__name__}")
