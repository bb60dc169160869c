"""Every game the engine plays, as data: one :class:`Variant` each, found from the rules.

As in python-chess's variants, a variant's class attributes say what differs
between the games: the class that plays it, how its action texts are read, how
the meld of a hand of cards is counted (and whether a trump must be named for
it), and how many copies of a card a hand may hold. :func:`find_variant` is the
one place that reads the rules to choose a game (docs/rules.md "Where each rule
lives"); :func:`~pinochlekit.engine.games.new_game`, :func:`~pinochlekit.engine.games.replay`,
:func:`~pinochlekit.engine.games.parse_game_action`, ``pinochle meld`` and
``Game.new`` (so ``Game.from_record``) all ask it.
A new game is a new folder beside ``two/``, ``three/`` and ``double/`` with its
variant here.

>>> from pinochlekit.engine.cards import Suit, parse_cards
>>> from pinochlekit.engine.rules import Rules
>>> [find_variant(Rules.preset(name)).name for name in ("pagat", "three", "two", "doubledeck")]
['four-handed', 'three-handed', 'two-handed', 'double deck']
>>> two = Rules.preset("two")
>>> find_variant(two).meld(parse_cards("KS QS"), Suit.SPADES, two).points
40
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from pinochlekit.engine.actions import Action, parse_action
from pinochlekit.engine.cards import Card, Hand, Suit
from pinochlekit.engine.double.cards import DoubleHand
from pinochlekit.engine.double.game import DoubleDeckGame
from pinochlekit.engine.double.meld import double_meld
from pinochlekit.engine.game import Game, install_find_variant
from pinochlekit.engine.meld import MeldResult, meld
from pinochlekit.engine.record import GameRecord
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.three.game import ThreeHandedGame
from pinochlekit.engine.two.actions import parse_two_action
from pinochlekit.engine.two.game import TwoHandedGame
from pinochlekit.engine.two.meld import best_two_meld

__all__ = ["VARIANTS", "DoubleDeck", "FourHanded", "ThreeHanded", "TwoHanded", "Variant",
           "find_variant"]

AnyGameClass = type[Game] | type[TwoHandedGame] | type[DoubleDeckGame]


class Variant:
    """One game: what the engine does differently for it (a class, never an instance)."""

    #: The game's name in people's words.
    name: ClassVar[str] = "four-handed"
    #: The class that plays it.
    game: ClassVar[AnyGameClass] = Game
    #: Whether the meld of a hand needs a trump (two-handed and the double deck count
    #: every meld under the trump turned up or named).
    meld_needs_trump: ClassVar[bool] = False
    #: What the meld of a hand of cards means in this game, where it is not the meld
    #: shown once after the auction (``pinochle meld`` prints it before the count).
    meld_note: ClassVar[str] = ""

    @classmethod
    def matches(cls, rules: Rules) -> bool:
        """Whether ``rules`` describe this game: for an auction game (a :class:`Game`),
        one deck and a number of players its class plays (its ``SEATS``)."""
        game = cls.game
        return rules.deck == "single" and issubclass(game, Game) and rules.players in game.SEATS

    @classmethod
    def new(cls, rules: Rules, seed: int | str | None = None,
            dealer: int = 0) -> Game | TwoHandedGame | DoubleDeckGame:
        """A new game under ``rules``."""
        return cls.game.new(rules, seed=seed, dealer=dealer)

    @classmethod
    def from_record(cls, record: GameRecord,
                    upto: int | None = None) -> Game | TwoHandedGame | DoubleDeckGame:
        """The game ``record`` replays, every action checked."""
        return cls.game.from_record(record, upto)

    @staticmethod
    def parse_action(text: str) -> Action:
        """An action of this game from its text (docs/protocol.md)."""
        return parse_action(text)

    @staticmethod
    def check_cards(cards: Sequence[Card]) -> None:
        """Refuse more copies of a card than the deck holds (two: docs/rules.md §1)."""
        Hand.from_cards(cards)

    @staticmethod
    def meld(cards: Sequence[Card], trump: Suit | None, rules: Rules) -> MeldResult:
        """The meld ``cards`` score under ``trump`` (docs/rules.md §1.7; ``None``: the
        melds that need no trump)."""
        return meld(cards, trump, rules)


class FourHanded(Variant):
    """Partnership auction pinochle, four players in two teams (docs/rules.md §1)."""


class ThreeHanded(Variant):
    """Three players each for itself, with a widow (docs/rules.md §3)."""

    name = "three-handed"
    game = ThreeHandedGame


class TwoHanded(Variant):
    """Two players with a stock, melds laid one per won trick (docs/rules.md §4)."""

    name = "two-handed"
    game = TwoHandedGame
    meld_needs_trump = True
    meld_note = ("two-handed: the most these cards score laid one meld per won trick, in\n"
                 "this order (a laid card serves again only in another class), each nine\n"
                 "of trump counted as a dix")

    @classmethod
    def matches(cls, rules: Rules) -> bool:
        """Two players."""
        return rules.players == 2

    @staticmethod
    def parse_action(text: str) -> Action:
        """A two-handed action: also ``meld CARDS``, ``dix``, ``no meld``."""
        return parse_two_action(text)

    @staticmethod
    def meld(cards: Sequence[Card], trump: Suit | None, rules: Rules) -> MeldResult:
        """The most the cards score laid one meld per won trick (docs/rules.md §4)."""
        assert trump is not None
        return best_two_meld(cards, trump, rules)


class DoubleDeck(Variant):
    """The 80-card partnership game (docs/rules.md §6)."""

    name = "double deck"
    game = DoubleDeckGame
    meld_needs_trump = True

    @classmethod
    def matches(cls, rules: Rules) -> bool:
        """The double deck."""
        return rules.deck == "double"

    @staticmethod
    def check_cards(cards: Sequence[Card]) -> None:
        """Four copies of each card and no nines (docs/rules.md §6)."""
        DoubleHand.from_cards(cards)

    @staticmethod
    def meld(cards: Sequence[Card], trump: Suit | None, rules: Rules) -> MeldResult:
        """Single to quadruple melds, a card once per class (docs/rules.md §6)."""
        assert trump is not None
        return double_meld(DoubleHand.from_cards(cards), trump, rules)


#: Every game, in the order :func:`find_variant` tries them.
VARIANTS: tuple[type[Variant], ...] = (DoubleDeck, TwoHanded, ThreeHanded, FourHanded)


def find_variant(rules: Rules) -> type[Variant]:
    """The game ``rules`` describe (the rules object refuses any other combination of
    players and deck)."""
    return next(variant for variant in VARIANTS if variant.matches(rules))


install_find_variant(find_variant)  # what Game.new asks
