"""Seeded, reproducible deals (docs/rules.md §1 Deal): one routine for every game.

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
the rest of the deck left in order as the stock (docs/rules.md §4).

>>> three = deal_cards(seed, dealer=0, players=3, hand_size=15, widow=3)
>>> [len(h) for h in three.hands], len(three.widow), len(three.stock)
([15, 15, 15], 3, 0)
>>> len(deal_cards(seed, dealer=1, players=2, hand_size=12).stock)
24
"""

from __future__ import annotations

import hashlib
import struct
from functools import lru_cache
from operator import itemgetter
from typing import NamedTuple

from pinochlekit import native as _accel
from pinochlekit.engine.cards import Hand, trusted_hand

__all__ = ["Deal", "deal", "deal_cards", "deal_seed", "shuffled_deck"]

_DECK = tuple(k for k in range(24) for _ in range(2))


def deal_seed(seed: int | str, index: int) -> str:
    """The secret seed of deal number ``index`` (0-based, redeals included) of a game."""
    return hashlib.sha256(f"pinochlekit/deal/{seed}/{index}".encode()).hexdigest()


def shuffled_deck(seed: str) -> list[int]:
    """The 48 cards (kinds, two of each) in the order a deal seed shuffles them.

    Each of the 48 positions of the unshuffled deck gets a 64-bit key from
    SHAKE-256; the deck is sorted by key (ties, which have odds of about
    2**-53 per deal, keep the unshuffled order). Sorting by independent uniform
    keys gives every order of the deck the same chance.
    """
    return [_DECK[i] for i in _shuffled_positions(seed)]


def _shuffled_positions(seed: str) -> list[int]:
    """The positions 0-47 of the unshuffled deck (position ``p`` holds kind ``p // 2``)
    in shuffled order: :func:`shuffled_deck` before naming the kinds."""
    keys = struct.unpack(">48Q", _digest(seed))
    return sorted(range(48), key=keys.__getitem__)


def _digest(seed: str) -> bytes:
    """The 48 sort keys of a deal seed, as 384 bytes of SHAKE-256."""
    return hashlib.shake_256(f"pinochlekit/shuffle/{seed}".encode()).digest(48 * 8)


class Deal(NamedTuple):
    """The cards of one deal: each seat's hand, the widow (kinds in the order dealt)
    and the stock (the kinds no one was dealt, in deck order)."""

    hands: tuple[Hand, ...]
    widow: tuple[int, ...]
    stock: tuple[int, ...]


def deal_cards(seed: str, dealer: int, players: int = 4, hand_size: int | None = None,
               widow: int = 0) -> Deal:
    """Deal the deck that deal seed ``seed`` shuffles, for any game.

    Three cards at a time go round the table from the dealer's left
    (docs/rules.md §1 Deal) until each of the ``players`` holds ``hand_size``
    cards (by default the whole deck is dealt). A ``widow`` of that many cards
    is dealt after the first round (docs/rules.md §3, Bicycle's Auction
    Pinochle); the cards left over are the stock, in deck order (docs/rules.md §4:
    the first is turned up for trump).
    """
    size = 48 // players if hand_size is None else hand_size
    dealt = size * players
    if widow == 0 and dealt == 48:
        return Deal(_deal_all(seed, dealer, players), (), ())
    deck = shuffled_deck(seed)
    first = 3 * players  # the first round; a widow comes next
    aside = tuple(deck[first:first + widow])
    rest = deck[:first] + deck[first + widow:]
    once = [0] * players
    twice = [0] * players
    for i in range(dealt):
        seat = (dealer + 1 + i // 3) % players
        bit = 1 << rest[i]
        if once[seat] & bit:
            twice[seat] |= bit
        else:
            once[seat] |= bit
    hands = tuple([trusted_hand(once[s], twice[s]) for s in range(players)])
    return Deal(hands, aside, tuple(rest[dealt:]))


def deal(seed: str, dealer: int, players: int = 4) -> tuple[Hand, ...]:
    """Deal the whole shuffled deck three cards at a time, starting at the dealer's
    left (:func:`deal_cards` with every card dealt)."""
    return deal_cards(seed, dealer, players).hands


def _deal_all(seed: str, dealer: int, players: int) -> tuple[Hand, ...]:
    """Every card dealt, no widow: the masks computed in C, else from the positions."""
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
