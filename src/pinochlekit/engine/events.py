"""What an action caused: the events :meth:`Game.step` returns.

``game.step(action)`` applies the action as ``game.apply(action)`` does (checked;
``apply`` reports nothing and stays the fast path) and returns the tuple of events
the action brought about,
in the order they happened: the action itself (``BidMade``, ``CardPlayed`` ...),
then what followed from it (``ContractWon``, ``MeldShown`` for every seat,
``TrickWon``, ``HandScored``, then ``GameWon`` or ``Dealt`` for the next deal).
Events are small immutable values (named tuples, cheap to build) derived from
the game, never stored: a record (rules, seed, actions)
replays to the same game, and its events are those of replaying it.

Events are the game's own account, hidden parts included (the cards passed
between partners, the declarer's discards, the cards drawn from the stock): an
interface shows a seat only what that seat's view holds.

>>> from pinochlekit import Game, parse_action
>>> game = Game.new("pagat", seed=1, dealer=3)
>>> game.step(parse_action("bid 250"))
(BidMade(seat=0, amount=250),)
>>> for text in ("pass", "pass"):
...     game.apply(parse_action(text))
>>> game.step(parse_action("pass"))
(Passed(seat=3, help=False), ContractWon(seat=0, contract=250, widow=()))
"""

from __future__ import annotations

from typing import Any, NamedTuple

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
)
from pinochlekit.engine.cards import Card, Suit
from pinochlekit.engine.meld import MeldItem
from pinochlekit.engine.views import HandResult, Trick

__all__ = [
    "BidMade", "CardPlayed", "CardsPassed", "ContractWon", "Dealt", "Discarded", "Drew",
    "Event", "GameWon", "HandScored", "MeldDeclined", "MeldShown", "MoonShot", "Passed",
    "RedealCalled", "ThrownIn", "TrickWon", "TrumpNamed", "action_event",
]


class BidMade(NamedTuple):
    """``seat`` bid ``amount`` in the auction (docs/rules.md §1 Auction)."""

    seat: int
    amount: int


class Passed(NamedTuple):
    """``seat`` passed, out of the auction for this hand (``help``: pass with help)."""

    seat: int
    help: bool = False


class RedealCalled(NamedTuple):
    """``seat`` called for a new deal on its nines (docs/rules.md §2 nines redeal)."""

    seat: int


class ContractWon(NamedTuple):
    """``seat`` won the auction with ``contract`` (the dealer, if stuck); three-handed,
    the ``widow`` is turned up for all (docs/rules.md §3), else it is empty."""

    seat: int
    contract: int
    widow: tuple[Card, ...] = ()


class TrumpNamed(NamedTuple):
    """The declarer ``seat`` named ``suit`` trump."""

    seat: int
    suit: Suit


class CardsPassed(NamedTuple):
    """``seat`` passed ``cards`` to ``to`` (docs/rules.md §1 Passing); seen by those two."""

    seat: int
    to: int
    cards: tuple[Card, ...]


class Discarded(NamedTuple):
    """The declarer ``seat`` laid ``cards`` aside face down (docs/rules.md §3)."""

    seat: int
    cards: tuple[Card, ...]


class MeldShown(NamedTuple):
    """``seat`` showed meld worth ``points``, itemized (possibly none).

    Four- and three-handed every seat shows its meld at once after trump and
    passing; two-handed (docs/rules.md §4) one meld, or the dix, at a time.
    """

    seat: int
    points: int
    items: tuple[MeldItem, ...]


class MeldDeclined(NamedTuple):
    """Two-handed: the winner of the trick, ``seat``, laid no meld."""

    seat: int


class Drew(NamedTuple):
    """Two-handed: ``seat`` drew ``card`` from the stock (``public``: the turned-up card)."""

    seat: int
    card: Card
    public: bool = False


class ThrownIn(NamedTuple):
    """The declarer ``seat`` conceded the hand before the first card."""

    seat: int


class MoonShot(NamedTuple):
    """The declarer ``seat`` undertook to take every trick (docs/rules.md §2)."""

    seat: int


class CardPlayed(NamedTuple):
    """``seat`` played ``card`` to the trick."""

    seat: int
    card: Card


class TrickWon(NamedTuple):
    """Trick ``number`` of the hand (1 for the first) is over: ``trick`` says who led,
    the cards, who won it and its points (the last trick's 10 included)."""

    number: int
    trick: Trick

    @property
    def winner(self) -> int:
        """The seat that took the trick."""
        return self.trick.winner

    @property
    def points(self) -> int:
        """The counters the trick is worth."""
        return self.trick.points


class HandScored(NamedTuple):
    """A deal is over; ``result`` itemizes it (a redeal and a passed-out deal too)."""

    result: HandResult


class GameWon(NamedTuple):
    """The game is won by ``winner``: a team four-handed, else a seat."""

    winner: int


class Dealt(NamedTuple):
    """A new deal: hand ``number`` of the game, dealt by ``dealer``."""

    number: int
    dealer: int


def _same_kind_equal(self: tuple[Any, ...], other: object) -> bool:
    return type(self) is type(other) and tuple.__eq__(self, other)


def _same_kind_unequal(self: tuple[Any, ...], other: object) -> bool:
    return not _same_kind_equal(self, other)


def _kind_hash(self: tuple[Any, ...]) -> int:
    return hash((type(self).__name__, tuple(self)))


#: Anything :meth:`Game.step` may report.
Event = (BidMade | Passed | RedealCalled | ContractWon | TrumpNamed | CardsPassed | Discarded
         | MeldShown | MeldDeclined | Drew | ThrownIn | MoonShot | CardPlayed | TrickWon
         | HandScored | GameWon | Dealt)


def action_event(action: Action, seat: int, to: int | None = None) -> Event:
    """The event of ``action`` itself, taken by ``seat`` (``to``: who receives passed
    cards). Two-handed meld actions are told by the game, which knows the meld's name.

    >>> action_event(Pass(help=True), 2)
    Passed(seat=2, help=True)
    """
    kind = type(action)
    if kind is Play:
        return CardPlayed(seat, action.card)  # type: ignore[attr-defined]
    if kind is Bid:
        return BidMade(seat, action.amount)  # type: ignore[attr-defined]
    if kind is Pass:
        return Passed(seat, action.help)  # type: ignore[attr-defined]
    if kind is NameTrump:
        return TrumpNamed(seat, action.suit)  # type: ignore[attr-defined]
    if kind is Give or kind is Return:
        assert to is not None
        return CardsPassed(seat, to, action.cards)  # type: ignore[attr-defined]
    if kind is Discard:
        return Discarded(seat, action.cards)  # type: ignore[attr-defined]
    if kind is ThrowIn:
        return ThrownIn(seat)
    if kind is Moon:
        return MoonShot(seat)
    if kind is Redeal:
        return RedealCalled(seat)
    raise ValueError(f"no event for {action!r}")


# Events are named tuples, the cheapest immutable values to build, but two events of
# different kinds never compare equal, as tuples with the same fields would:
# ``ThrownIn(1) != MoonShot(1)``.
for _kind in (BidMade, Passed, RedealCalled, ContractWon, TrumpNamed, CardsPassed, Discarded,
              MeldShown, MeldDeclined, Drew, ThrownIn, MoonShot, CardPlayed, TrickWon,
              HandScored, GameWon, Dealt):
    _kind.__eq__ = _same_kind_equal  # type: ignore[method-assign]
    _kind.__ne__ = _same_kind_unequal  # type: ignore[assignment,method-assign]
    _kind.__hash__ = _kind_hash  # type: ignore[method-assign]
del _kind
