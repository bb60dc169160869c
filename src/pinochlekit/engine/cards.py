"""Cards, suits, ranks and hands as bit masks.

A card *kind* is an int 0-23, suit-major: ``suit * 6 + rank`` with the nine
lowest and the ace highest, so "cards of a suit" and "cards above this one"
are shifts and masks (docs/rules.md §1 Deck and order). The pinochle deck holds
two copies of every kind; a :class:`Hand` is two 24-bit masks, the kinds
held at least once and the kinds held twice.

>>> parse_cards("AS TS 10S KS ♠Q 9D")
[Card('AS'), Card('TS'), Card('TS'), Card('KS'), Card('QS'), Card('9D')]
>>> str(Card("10S"))
'TS'
>>> hand = Hand.parse("AS AS KH 9D")
>>> len(hand), hand.count(Card("AS")), str(hand)
(4, 2, 'AS AS KH 9D')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import Final

from pinochlekit.engine.errors import NotationError, quoted

__all__ = [
    "ALL_CARDS",
    "DECK_MASK",
    "SUIT_MASKS",
    "Card",
    "Hand",
    "Rank",
    "Suit",
    "card_mask",
    "cards_of_mask",
    "parse_cards",
    "parse_suit",
]


class Suit(IntEnum):
    """The four suits, in the order used for card kinds: S H D C."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        """One-letter notation: ``S``, ``H``, ``D`` or ``C``."""
        return "SHDC"[self]

    @property
    def symbol(self) -> str:
        """The suit symbol: ♠ ♥ ♦ ♣."""
        return "♠♥♦♣"[self]

    @property
    def words(self) -> str:
        """The suit for people, its symbol and its name.

        >>> Suit.HEARTS.words
        '♥ hearts'
        """
        return f"{self.symbol} {self.name.lower()}"

    def __str__(self) -> str:
        return self.letter


class Rank(IntEnum):
    """The six ranks, lowest first: 9 J Q K 10 A (docs/rules.md §1 Deck and order)."""

    NINE = 0
    JACK = 1
    QUEEN = 2
    KING = 3
    TEN = 4
    ACE = 5

    @property
    def letter(self) -> str:
        """One-letter notation: ``9 J Q K T A``."""
        return "9JQKTA"[self]

    def __str__(self) -> str:
        return self.letter


_RANK_TEXT: Final = {"9": 0, "J": 1, "Q": 2, "K": 3, "T": 4, "10": 4, "A": 5}
_SUIT_TEXT: Final = {"S": 0, "H": 1, "D": 2, "C": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3,
                     "♤": 0, "♡": 1, "♢": 2, "♧": 3}

#: Mask of all 24 kinds.
DECK_MASK: Final = (1 << 24) - 1
#: Mask of the six kinds of each suit, indexed by suit.
SUIT_MASKS: Final = tuple(0x3F << (6 * s) for s in range(4))


def parse_suit(text: str) -> Suit:
    """Read a suit: a letter ``S H D C`` (any case) or a symbol ``♠ ♥ ♦ ♣``.

    >>> parse_suit("h"), parse_suit("♣")
    (<Suit.HEARTS: 1>, <Suit.CLUBS: 3>)
    """
    value = _SUIT_TEXT.get(text.strip().upper())
    if value is None:
        raise NotationError(f"bad suit {quoted(text)}: use S, H, D or C")
    return Suit(value)


class Card(int):
    """A card kind, 0-23 (``suit * 6 + rank``); ``str`` gives ``TS``-style notation.

    ``Card("10S")``, ``Card("♠Q")`` and ``Card(22)`` all work; there are only
    24 instances, so cards compare and hash as the ints they are.
    """

    __slots__ = ()

    def __new__(cls, value: int | str) -> Card:  # noqa: D102
        if isinstance(value, str):
            return _parse_card(value)
        if isinstance(value, int) and 0 <= value < 24:
            return ALL_CARDS[value]
        raise NotationError(f"bad card {value!r}: a card kind is an int from 0 to 23")

    @property
    def suit(self) -> Suit:
        """The suit of this card."""
        return Suit(int(self) // 6)

    @property
    def rank(self) -> Rank:
        """The rank of this card."""
        return Rank(int(self) % 6)

    @property
    def mask(self) -> int:
        """The one-bit mask of this kind."""
        return 1 << int(self)

    @property
    def pretty(self) -> str:
        """Notation with a suit symbol, ``10♠`` style."""
        rank = "10" if self.rank == Rank.TEN else self.rank.letter
        return rank + self.suit.symbol

    def __str__(self) -> str:
        return _NAMES[int(self)]

    def __repr__(self) -> str:
        return f"Card({_NAMES[int(self)]!r})"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


_NAMES: Final = tuple("9JQKTA"[k % 6] + "SHDC"[k // 6] for k in range(24))
ALL_CARDS: Final[tuple[Card, ...]] = tuple(int.__new__(Card, k) for k in range(24))


def _parse_card(token: str) -> Card:
    text = token.strip().upper()
    if len(text) >= 2:
        # Rank then suit (``TS``, ``10S``, ``A♠``) or suit then rank (``♠Q``).
        for rank_text, suit_text in ((text[:-1], text[-1]), (text[1:], text[0])):
            rank = _RANK_TEXT.get(rank_text)
            suit = _SUIT_TEXT.get(suit_text)
            if rank is not None and suit is not None:
                return ALL_CARDS[suit * 6 + rank]
    raise NotationError(f"bad card {quoted(token)}: use a rank A T K Q J 9 (or 10) and a suit "
                        "S H D C")


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read cards separated by spaces or commas, in order, repeats kept.

    >>> parse_cards("AS, 10H ♦J")
    [Card('AS'), Card('TH'), Card('JD')]
    >>> parse_cards("AS XX")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pinochlekit.NotationError: bad card 'XX': use a rank A T K Q J 9 (or 10) and ...
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [_parse_card(token) for token in tokens]


def card_mask(cards: Iterable[int]) -> int:
    """The mask of the distinct kinds among ``cards``."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of_mask(mask: int) -> list[Card]:
    """The kinds in ``mask``, lowest kind first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(ALL_CARDS[low.bit_length() - 1])
        mask ^= low
    return out


def _display_key(card: int) -> tuple[int, int]:
    return (card // 6, -(card % 6))


def _suit_cards(suit: int, bits: int) -> tuple[Card, ...]:
    """The cards of one suit held in ``bits`` (six bits once, six twice), highest first."""
    out: list[Card] = []
    for rank in range(5, -1, -1):
        out += [ALL_CARDS[suit * 6 + rank]] * ((bits >> rank & 1) + (bits >> 6 + rank & 1))
    return tuple(out)


# Per suit: its 12 bits in a hand -> its cards in display order (filled as met).
_SUIT_CARDS: tuple[dict[int, tuple[Card, ...]], ...] = ({}, {}, {}, {})


class Hand:
    """An immutable multiset of cards (at most two of each kind) as two masks.

    ``once`` has a bit for every kind held at least once, ``twice`` for every
    kind held twice (so ``twice`` is a subset of ``once``). Iteration yields
    cards in display order: by suit S H D C, highest rank first.

    >>> hand = Hand.parse("QS JD JD")
    >>> Card("JD") in hand, hand.count(Card("JD")), len(hand)
    (True, 2, 3)
    >>> str(hand - Hand.parse("JD"))
    'QS JD'
    """

    __slots__ = ("once", "twice")

    once: int
    twice: int

    def __init__(self, once: int = 0, twice: int = 0) -> None:
        if twice & ~once or (once | twice) & ~DECK_MASK:
            raise ValueError(f"bad hand masks once={once:#x} twice={twice:#x}")
        object.__setattr__(self, "once", once)
        object.__setattr__(self, "twice", twice)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Hand is immutable")

    @classmethod
    def from_cards(cls, cards: Iterable[int]) -> Hand:
        """Build a hand; raises :class:`NotationError` for a third copy of a kind."""
        once = twice = 0
        for card in cards:
            bit = 1 << card
            if twice & bit:
                raise NotationError(f"more than two {ALL_CARDS[card]}: a deck has two of each card")
            if once & bit:
                twice |= bit
            else:
                once |= bit
        return cls(once, twice)

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> Hand:
        """Build a hand from text notation (see :func:`parse_cards`)."""
        return cls.from_cards(parse_cards(text))

    @property
    def kinds(self) -> int:
        """Mask of the distinct kinds held (same as ``once``)."""
        return self.once

    def count(self, card: int) -> int:
        """How many copies of ``card`` (0, 1 or 2) the hand holds."""
        return ((self.once >> card) & 1) + ((self.twice >> card) & 1)

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 24 and bool(self.once >> card & 1)

    def __len__(self) -> int:
        return self.once.bit_count() + self.twice.bit_count()

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards())

    def cards(self) -> list[Card]:
        """The cards in display order, repeats kept."""
        once, twice = self.once, self.twice
        out: list[Card] = []
        for suit in range(4):  # each suit's cards in display order, memoized by its 12 bits
            bits = (once >> 6 * suit & 63) | (twice >> 6 * suit & 63) << 6
            if bits:
                table = _SUIT_CARDS[suit]
                cards = table.get(bits)
                if cards is None:
                    cards = table[bits] = _suit_cards(suit, bits)
                out += cards
        return out

    def add(self, card: int) -> Hand:
        """A new hand: this one plus one ``card``."""
        bit = 1 << card
        if self.twice & bit:
            raise ValueError(f"a hand cannot hold three {ALL_CARDS[card]}")
        if self.once & bit:
            return Hand(self.once, self.twice | bit)
        return Hand(self.once | bit, self.twice)

    def remove(self, card: int) -> Hand:
        """A new hand: this one less one ``card``; :class:`ValueError` if not held."""
        bit = 1 << card
        if self.twice & bit:
            return Hand(self.once, self.twice & ~bit)
        if self.once & bit:
            return Hand(self.once & ~bit, self.twice)
        raise ValueError(f"{ALL_CARDS[card]} is not in the hand")

    def __add__(self, other: Hand) -> Hand:
        result = self
        for card in other:
            result = result.add(card)
        return result

    def __sub__(self, other: Hand) -> Hand:
        result = self
        for card in other:
            result = result.remove(card)
        return result

    def issuperset(self, other: Hand) -> bool:
        """Whether every card of ``other`` (with its count) is in this hand."""
        return not (other.once & ~self.once) and not (other.twice & ~self.twice)

    def suit(self, suit: int) -> Hand:
        """The cards of one suit."""
        mask = SUIT_MASKS[suit]
        return Hand(self.once & mask, self.twice & mask)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hand) and self.once == other.once and self.twice == other.twice

    def __hash__(self) -> int:
        return hash((self.once, self.twice))

    def __str__(self) -> str:
        return " ".join(str(card) for card in self)

    def __repr__(self) -> str:
        return f"Hand.parse({str(self)!r})"

    def __reduce__(self) -> tuple[type[Hand], tuple[int, int]]:
        return (Hand, (self.once, self.twice))


_SET_ONCE = Hand.__dict__["once"].__set__
_SET_TWICE = Hand.__dict__["twice"].__set__
_new_object = object.__new__


def trusted_hand(once: int, twice: int) -> Hand:
    """A :class:`Hand` of masks known to be valid, built without checking them (the
    engine's hot path; anything else should call ``Hand(once, twice)``)."""
    hand: Hand = _new_object(Hand)
    _SET_ONCE(hand, once)
    _SET_TWICE(hand, twice)
    return hand
