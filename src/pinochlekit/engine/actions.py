"""Actions: small frozen values with a text form that round-trips.

>>> parse_action("bid 260")
Bid(260)
>>> str(parse_action("give AS 10S KS QS"))
'give AS TS KS QS'
>>> [str(parse_action(t)) for t in ("pass", "pass help", "trump ♥", "play 10s", "throw in")]
['pass', 'pass help', 'trump H', 'play TS', 'throw in']
>>> parse_action("discard 9c ks 10h")
Discard.parse('discard KS TH 9C')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pinochlekit.engine.cards import Card, Suit, parse_cards, parse_suit
from pinochlekit.engine.errors import NotationError, quoted

__all__ = [
    "Action",
    "Bid",
    "Discard",
    "Give",
    "Moon",
    "NameTrump",
    "Pass",
    "Play",
    "Redeal",
    "Return",
    "ThrowIn",
    "parse_action",
]


class Action:
    """Base of every action; ``str(action)`` is its text form."""

    __slots__ = ()
    verb: ClassVar[str] = ""

    @staticmethod
    def parse(text: str) -> Action:
        """Same as :func:`parse_action`."""
        return parse_action(text)


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """Bid ``amount`` in the auction (in the game's own scale)."""

    amount: int
    verb: ClassVar[str] = "bid"

    def __str__(self) -> str:
        return f"bid {self.amount}"

    def __repr__(self) -> str:
        return f"Bid({self.amount})"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Pass in the auction; ``help=True`` is "pass with help" (docs/rules.md §1 Auction)."""

    help: bool = False
    verb: ClassVar[str] = "pass"

    def __str__(self) -> str:
        return "pass help" if self.help else "pass"

    def __repr__(self) -> str:
        return "Pass(help=True)" if self.help else "Pass()"


@dataclass(frozen=True, slots=True)
class NameTrump(Action):
    """The declarer names the trump suit."""

    suit: Suit
    verb: ClassVar[str] = "trump"

    def __str__(self) -> str:
        return f"trump {self.suit.letter}"

    def __repr__(self) -> str:
        return f"NameTrump(Suit.{self.suit.name})"


def _cards_text(cards: tuple[Card, ...]) -> str:
    return " ".join(str(c) for c in cards)


@dataclass(frozen=True, slots=True)
class Give(Action):
    """The declarer's partner passes cards to the declarer (sorted on creation)."""

    cards: tuple[Card, ...]
    verb: ClassVar[str] = "give"

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", _canonical(self.cards))

    def __str__(self) -> str:
        return f"give {_cards_text(self.cards)}"

    def __repr__(self) -> str:
        return f"Give.parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Return(Action):
    """The declarer passes cards back to partner (sorted on creation)."""

    cards: tuple[Card, ...]
    verb: ClassVar[str] = "return"

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", _canonical(self.cards))

    def __str__(self) -> str:
        return f"return {_cards_text(self.cards)}"

    def __repr__(self) -> str:
        return f"Return.parse({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Three-handed, widow taken: the declarer lays 3 cards aside, face down; they
    count for the declarer (docs/rules.md §3). Sorted on creation."""

    cards: tuple[Card, ...]
    verb: ClassVar[str] = "discard"

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", _canonical(self.cards))

    def __str__(self) -> str:
        return f"discard {_cards_text(self.cards)}"

    def __repr__(self) -> str:
        return f"Discard.parse({str(self)!r})"


def _canonical(cards: tuple[int, ...] | list[int]) -> tuple[Card, ...]:
    return tuple(sorted(map(Card, cards), key=_DISPLAY_RANK.__getitem__))


# Display order (suits S H D C, highest rank first) as a sort key for each kind.
_DISPLAY_RANK = tuple(k // 6 * 6 + 5 - k % 6 for k in range(24))


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play a card to the trick."""

    card: Card
    verb: ClassVar[str] = "play"

    def __str__(self) -> str:
        return f"play {self.card}"

    def __repr__(self) -> str:
        return f"Play(Card({str(self.card)!r}))"


@dataclass(frozen=True, slots=True)
class ThrowIn(Action):
    """The declarer concedes the hand after meld (docs/rules.md §1 Not on the board)."""

    verb: ClassVar[str] = "throw in"

    def __str__(self) -> str:
        return "throw in"

    def __repr__(self) -> str:
        return "ThrowIn()"


@dataclass(frozen=True, slots=True)
class Moon(Action):
    """The declarer shoots the moon after meld (docs/rules.md §2 shoot the moon, 002)."""

    verb: ClassVar[str] = "moon"

    def __str__(self) -> str:
        return "moon"

    def __repr__(self) -> str:
        return "Moon()"


@dataclass(frozen=True, slots=True)
class Redeal(Action):
    """Call a redeal for a hand of nines instead of bidding (docs/rules.md §2 nines redeal)."""

    verb: ClassVar[str] = "redeal"

    def __str__(self) -> str:
        return "redeal"

    def __repr__(self) -> str:
        return "Redeal()"


# One shared instance per card, so the hot path allocates nothing.
PLAYS: tuple[Play, ...] = tuple(Play(Card(k)) for k in range(24))


def parse_action(text: str) -> Action:
    """Read an action from its text form; :class:`NotationError` quoting the text."""
    words = text.strip().split()
    if not words:
        raise NotationError("empty action: try 'bid 260', 'pass', 'trump S' or 'play TS'")
    verb, rest = words[0].lower(), words[1:]
    try:
        if verb == "bid" and len(rest) == 1:
            # ASCII digits only: int() would also read "1_000" and other scripts' digits
            if not (rest[0].isascii() and rest[0].isdigit()):
                raise ValueError(rest[0])
            if len(rest[0]) > 9:
                raise NotationError(f"a bid of {len(rest[0])} digits: no contract is that high")
            return Bid(int(rest[0]))
        if verb == "pass" and not rest:
            return Pass()
        if verb == "pass" and [w.lower() for w in rest] in (["help"], ["with", "help"]):
            return Pass(help=True)
        if verb == "trump" and len(rest) == 1:
            return NameTrump(parse_suit(rest[0]))
        if verb in ("give", "return", "discard") and rest:
            cards = tuple(parse_cards(" ".join(rest)))
            return {"give": Give, "return": Return, "discard": Discard}[verb](cards)
        if verb == "play" and len(rest) == 1:
            return PLAYS[parse_cards(rest[0])[0]]
        if verb == "throw" and [w.lower() for w in rest] == ["in"]:
            return ThrowIn()
        if verb == "moon" and not rest:
            return Moon()
        if verb == "redeal" and not rest:
            return Redeal()
    except NotationError as error:
        raise NotationError(f"bad action {quoted(text)}: {error}") from None
    except ValueError:
        raise NotationError(f"bad action {quoted(text)}: a bid is a whole number") from None
    raise NotationError(f"bad action {quoted(text)}: expected 'bid N', 'pass', 'pass help', "
                        "'trump S', 'give CARDS', 'return CARDS', 'discard CARDS', 'play CARD', "
                        "'throw in', 'moon' or 'redeal'")

