"""Seeded, reproducible deals (docs/rules.md §1 Deal): one routine for every game and
both decks.

A game's seed gives every deal its own *deal seed* (a SHA-256 hex digest), and
a deal seed gives the deal by sorting the deck on keys drawn from SHAKE-256.
Only the standard library is used and nothing depends on Python's
``random``, so a deal can be recomputed anywhere from its deal seed:
this is what makes deals provably fair (publish the hash of the deal seed
before the hand, reveal the deal seed after it).

>>> seed = deal_seed(42, 0)
>>> hands = deal(seed, dealer=0)
>>> [len(h) for h in hands]
[12, 12, 12, 12]
>>> deal(seed, dealer=0) == hands
True

:func:`deal_cards` deals for every game: four hands of 12, three of 15 with a
widow of 3 dealt after the first round (docs/rules.md §3), or two of 12 with
the rest of the deck left in order as the stock (docs/rules.md §4). A
:class:`Deck` says what it deals: the 48-card :data:`SINGLE_DECK` by default, or
the double deck's 80 cards, four at a time
(:data:`~pinochlekit.engine.double.cards.DOUBLE_DECK`, docs/rules.md §6).

>>> three = deal_cards(seed, dealer=0, players=3, hand_size=15, widow=3)
>>> [len(h) for h in three.hands], len(three.widow), len(three.stock)
([15, 15, 15], 3, 0)
>>> len(deal_cards(seed, dealer=1, players=2, hand_size=12).stock)
24
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter
from typing import Any, Generic, NamedTuple, TypeVar, overload

from pinochlekit import native as _accel
from pinochlekit.engine.cards import Hand, trusted_hand

__all__ = ["SINGLE_DECK", "Deal", "Deck", "deal", "deal_cards", "deal_seed", "shuffled_deck"]

H = TypeVar("H", bound=Hand)


@dataclass(frozen=True, slots=True)
class Deck(Generic[H]):
    """What a deal deals: the deck before the shuffle, how its shuffle is keyed, how
    many cards go to a seat at a time and how a hand is made of what a seat gets."""

    #: The kind at each position of the deck before the shuffle.
    kinds: tuple[int, ...]
    #: What the deal seed follows in the text SHAKE-256 draws the sort keys from.
    shuffle: str
    #: How many cards go round at a time.
    packet: int
    #: A hand from the number of copies of each of the 24 kinds a seat was dealt.
    hand: Callable[[Sequence[int]], H]


def _single_hand(counts: Sequence[int]) -> Hand:
    """A single-deck hand from its count (0 to 2) of each kind."""
    once = twice = 0
    for kind, n in enumerate(counts):
        if n:
            once |= 1 << kind
            if n > 1:
                twice |= 1 << kind
    return trusted_hand(once, twice)


#: The 48-card deck (docs/rules.md §1.1): position ``p`` holds kind ``p // 2``; three
#: cards at a time (docs/rules.md §1 Deal).
SINGLE_DECK: Deck[Hand] = Deck(tuple(k for k in range(24) for _ in range(2)),
                               "pinochlekit/shuffle/", 3, _single_hand)


def deal_seed(seed: int | str, index: int) -> str:
    """The secret seed of deal number ``index`` (0-based, redeals included) of a game."""
    return hashlib.sha256(f"pinochlekit/deal/{seed}/{index}".encode()).hexdigest()


def shuffled_deck(seed: str, deck: Deck[Any] = SINGLE_DECK) -> list[int]:
    """The cards of ``deck`` (kinds; the 48 of the single deck by default) in the order
    a deal seed shuffles them.

    Each position of the unshuffled deck gets a 64-bit key from SHAKE-256; the
    deck is sorted by key (ties, which have odds of about 2**-53 per deal on 48
    cards, keep the unshuffled order). Sorting by independent uniform keys gives
    every order of the deck the same chance.
    """
    kinds = deck.kinds
    return [kinds[i] for i in _shuffled_positions(seed, deck)]


def _shuffled_positions(seed: str, deck: Deck[Any] = SINGLE_DECK) -> list[int]:
    """The positions of the unshuffled deck in shuffled order: :func:`shuffled_deck`
    before naming the kinds."""
    size = len(deck.kinds)
    keys = struct.unpack(f">{size}Q", _digest(seed, deck))
    return sorted(range(size), key=keys.__getitem__)


def _digest(seed: str, deck: Deck[Any] = SINGLE_DECK) -> bytes:
    """The sort keys of a deal seed, 8 bytes of SHAKE-256 a card of the deck."""
    return hashlib.shake_256(f"{deck.shuffle}{seed}".encode()).digest(len(deck.kinds) * 8)


class Deal(NamedTuple, Generic[H]):
    """The cards of one deal: each seat's hand, the widow (kinds in the order dealt)
    and the stock (the kinds no one was dealt, in deck order)."""

    hands: tuple[H, ...]
    widow: tuple[int, ...]
    stock: tuple[int, ...]


@overload
def deal_cards(seed: str, dealer: int, players: int = 4, hand_size: int | None = None,
               widow: int = 0) -> Deal[Hand]: ...


@overload
def deal_cards(seed: str, dealer: int, players: int = 4, hand_size: int | None = None,
               widow: int = 0, *, deck: Deck[H]) -> Deal[H]: ...


def deal_cards(seed: str, dealer: int, players: int = 4, hand_size: int | None = None,
               widow: int = 0, *, deck: Deck[Any] = SINGLE_DECK) -> Deal[Any]:
    """Deal the ``deck`` that deal seed ``seed`` shuffles, for any game.

    ``deck.packet`` cards at a time (three of the single deck, docs/rules.md §1 Deal;
    four of the double deck, §6) go round the table from the dealer's left until
    each of the ``players`` holds ``hand_size`` cards (by default the whole deck
    is dealt). A ``widow`` of that many cards is dealt after the first round
    (docs/rules.md §3, Bicycle's Auction Pinochle); the cards left over are the
    stock, in deck order (docs/rules.md §4: the first is turned up for trump).
    """
    size = len(deck.kinds) // players if hand_size is None else hand_size
    dealt = size * players
    if deck is SINGLE_DECK and widow == 0 and dealt == 48:
        return Deal(_deal_all(seed, dealer, players), (), ())
    cards = shuffled_deck(seed, deck)
    packet = deck.packet
    first = packet * players  # the first round; a widow comes next
    aside = tuple(cards[first:first + widow])
    rest = cards[:first] + cards[first + widow:]
    counts = [[0] * 24 for _ in range(players)]
    for i in range(dealt):
        counts[(dealer + 1 + i // packet) % players][rest[i]] += 1
    hands = tuple([deck.hand(c) for c in counts])
    return Deal(hands, aside, tuple(rest[dealt:]))


def deal(seed: str, dealer: int, players: int = 4) -> tuple[Hand, ...]:
    """Deal the whole shuffled deck three cards at a time, starting at the dealer's
    left (:func:`deal_cards` with every card dealt)."""
    return deal_cards(seed, dealer, players).hands


def _deal_all(seed: str, dealer: int, players: int) -> tuple[Hand, ...]:
    """:func:`deal_cards`' deal of the whole single deck, no widow, on the engine's hot
    path: the masks computed in C, else from the positions."""
    fast = _accel.table
    if fast is not None:  # the same deal, computed in C (_table.c)
        masks = fast.deal_masks(_digest(seed), dealer, players)
        return tuple([trusted_hand(masks[i], masks[i + 1]) for i in range(0, 2 * players, 2)])
    positions = _shuffled_positions(seed)
    hands = []
    for cards_of_seat in _seat_getters(dealer, players):
        # The seat's deck positions as one 48-bit mask (two bits per kind, both copies);
        # a kind is held once if either bit is set, twice if both are.
        held = sum(map(_POSITION_BITS.__getitem__, cards_of_seat(positions)))
        first, second = held & _EVEN_BITS, held >> 1 & _EVEN_BITS
        hands.append(trusted_hand(_compact(first | second), _compact(first & second)))
    return tuple(hands)


_POSITION_BITS = tuple(1 << p for p in range(48))
_EVEN_BITS = 0x5555_5555_5555


def _compact(spread: int) -> int:
    """Bit ``2k`` of ``spread`` to bit ``k``, for k = 0..23 (odd bits must be clear)."""
    spread = (spread | spread >> 1) & 0x3333_3333_3333
    spread = (spread | spread >> 2) & 0x0F0F_0F0F_0F0F
    spread = (spread | spread >> 4) & 0x00FF_00FF_00FF
    spread = (spread | spread >> 8) & 0x0000_FFFF_0000_FFFF
    return (spread | spread >> 16) & 0xFFFF_FFFF


@lru_cache(maxsize=64)
def _seat_getters(dealer: int, players: int) -> tuple[itemgetter[tuple[int, ...]], ...]:
    """For each seat, what picks its cards from the shuffled deck: three at a time
    round the table from the dealer's left (docs/rules.md §1 Deal)."""
    per_hand = 48 // players
    dealt: list[list[int]] = [[] for _ in range(players)]
    for i in range(per_hand * players):
        dealt[(dealer + 1 + i // 3) % players].append(i)
    return tuple(itemgetter(*indices) for indices in dealt)
