"""The 80-card double deck (docs/rules.md §6): four copies of A 10 K Q J in every suit.

A card is still a :class:`~pinochlekit.engine.cards.Card` kind (the nines never
appear). A :class:`DoubleHand` is a :class:`~pinochlekit.engine.cards.Hand` that also
keeps how many copies (0 to 4) of each kind it holds: its ``once`` and ``twice``
masks keep their meaning (the kinds held at least once, at least twice), so the
mask-based play rules of :mod:`pinochlekit.engine.tricks` apply unchanged, while
the single-deck :class:`Hand` itself is untouched.

>>> hand = DoubleHand.parse("AS AS AS AS 10H JD")
>>> len(hand), hand.count(Card("AS")), str(hand)
(6, 4, 'AS AS AS AS TH JD')
>>> DoubleHand.parse("9S")
Traceback (most recent call last):
...
pinochlekit.NotationError: 9S is not in the double deck: it has no nines
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Final

from pinochlekit.engine.cards import ALL_CARDS, Card, Hand, Rank, parse_cards
from pinochlekit.engine.deals import Deck
from pinochlekit.engine.errors import NotationError

__all__ = ["COPIES", "DECK_SIZE", "DOUBLE_DECK", "DOUBLE_KINDS", "HAND_SIZE", "DoubleHand"]

#: The 20 kinds of the double deck (every kind but the nines), lowest kind first.
DOUBLE_KINDS: Final = tuple(ALL_CARDS[k] for k in range(24) if k % 6 != Rank.NINE)
#: Copies of each kind in the deck, cards in the deck, cards dealt to each player.
COPIES: Final = 4
DECK_SIZE: Final = COPIES * len(DOUBLE_KINDS)
HAND_SIZE: Final = DECK_SIZE // 4
_IN_DECK: Final = frozenset(DOUBLE_KINDS)
# Display order of the kinds: suits S H D C, highest rank first (docs/rules.md §1.1).
_DISPLAY: Final = tuple(sorted(DOUBLE_KINDS, key=lambda k: (k // 6, -(k % 6))))


class DoubleHand(Hand):
    """An immutable multiset of double-deck cards, at most four of each kind.

    ``counts[k]`` is the number of copies of kind ``k`` (24 entries; the nines are
    always 0). ``once``/``twice`` are the masks of a :class:`Hand`: the kinds held
    at least once and at least twice.
    """

    __slots__ = ("counts",)

    counts: tuple[int, ...]

    def __init__(self, counts: Sequence[int] = (0,) * 24) -> None:
        if len(counts) != 24:
            raise ValueError("a double-deck hand has a count for each of the 24 kinds")
        once = twice = 0
        for kind, n in enumerate(counts):
            if n < 0 or n > COPIES or (n and kind not in _IN_DECK):
                raise ValueError(f"bad count {n} of {ALL_CARDS[kind]} in a double-deck hand")
            if n:
                once |= 1 << kind
                if n > 1:
                    twice |= 1 << kind
        object.__setattr__(self, "once", once)
        object.__setattr__(self, "twice", twice)
        object.__setattr__(self, "counts", tuple(counts))

    @classmethod
    def from_cards(cls, cards: Iterable[int]) -> DoubleHand:
        """Build a hand; :class:`NotationError` for a nine or a fifth copy of a kind."""
        counts = [0] * 24
        for card in cards:
            if card not in _IN_DECK:
                raise NotationError(f"{ALL_CARDS[card]} is not in the double deck: it has no "
                                    f"nines")
            counts[card] += 1
            if counts[card] > COPIES:
                raise NotationError(f"more than four {ALL_CARDS[card]}: the double deck has "
                                    f"four of each card")
        return cls(counts)

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> DoubleHand:
        """Build a hand from text notation (see :func:`~pinochlekit.engine.cards.parse_cards`)."""
        return cls.from_cards(parse_cards(text))

    def count(self, card: int) -> int:
        """How many copies of ``card`` (0 to 4) the hand holds."""
        return self.counts[card] if 0 <= card < 24 else 0

    def __len__(self) -> int:
        return sum(self.counts)

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards())

    def cards(self) -> list[Card]:
        """The cards in display order (suits S H D C, highest first), repeats kept."""
        counts = self.counts
        out: list[Card] = []
        for kind in _DISPLAY:
            out += [kind] * counts[kind]
        return out

    def add(self, card: int) -> DoubleHand:
        """A new hand: this one plus one ``card``."""
        counts = list(self.counts)
        counts[card] += 1
        if counts[card] > COPIES:
            raise ValueError(f"a hand cannot hold five {ALL_CARDS[card]}")
        return DoubleHand(counts)

    def remove(self, card: int) -> DoubleHand:
        """A new hand: this one less one ``card``; :class:`ValueError` if not held."""
        if not self.count(card):
            raise ValueError(f"{ALL_CARDS[card]} is not in the hand")
        counts = list(self.counts)
        counts[card] -= 1
        return DoubleHand(counts)

    def __add__(self, other: Hand) -> DoubleHand:
        counts = [a + other.count(k) for k, a in enumerate(self.counts)]
        return DoubleHand(counts)

    def __sub__(self, other: Hand) -> DoubleHand:
        if not self.issuperset(other):
            raise ValueError("cannot take away cards the hand does not hold")
        return DoubleHand([a - other.count(k) for k, a in enumerate(self.counts)])

    def issuperset(self, other: Hand) -> bool:
        """Whether every card of ``other`` (with its count) is in this hand."""
        return all(other.count(k) <= n for k, n in enumerate(self.counts))

    def suit(self, suit: int) -> DoubleHand:
        """The cards of one suit."""
        return DoubleHand([n if k // 6 == suit else 0 for k, n in enumerate(self.counts)])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DoubleHand):
            return self.counts == other.counts
        return isinstance(other, Hand) and all(
            other.count(k) == n for k, n in enumerate(self.counts))

    def __hash__(self) -> int:
        return hash(self.counts)

    def __repr__(self) -> str:
        return f"DoubleHand.parse({str(self)!r})"

    def __reduce__(self) -> tuple[type[DoubleHand], tuple[tuple[int, ...]]]:  # type: ignore[override]
        return (DoubleHand, (self.counts,))


#: The double deck as the one dealing routine (:func:`~pinochlekit.engine.deals.deal_cards`)
#: deals it (docs/rules.md §6, docs/double-deck.md "Deal"): position ``p`` holds kind
#: ``DOUBLE_KINDS[p // 4]``, sorted on SHAKE-256 keys of ``pinochlekit/double-shuffle/``
#: and the deal seed, then dealt four at a time from the dealer's left (the packet of
#: four is one of pagat.com's common methods), 20 to each seat.
DOUBLE_DECK: Final[Deck[DoubleHand]] = Deck(
    tuple(k for k in DOUBLE_KINDS for _ in range(COPIES)), "pinochlekit/double-shuffle/", 4,
    DoubleHand)
