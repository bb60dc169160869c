"""Seeded, reproducible deals (RULES.md §1 Deal).

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
"""

from __future__ import annotations

import hashlib
import struct

from pinochlekit.cards import Hand

__all__ = ["deal", "deal_seed", "shuffled_deck"]

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
    keys = struct.unpack(">48Q", hashlib.shake_256(f"pinochlekit/shuffle/{seed}".encode())
                         .digest(48 * 8))
    order = sorted(range(48), key=keys.__getitem__)
    return [_DECK[i] for i in order]


def deal(seed: str, dealer: int, players: int = 4) -> tuple[Hand, ...]:
    """Deal a shuffled deck three cards at a time, starting at the dealer's left."""
    deck = shuffled_deck(seed)
    once = [0] * players
    twice = [0] * players
    per_hand = 48 // players
    for i in range(per_hand * players):
        seat = (dealer + 1 + i // 3) % players
        bit = 1 << deck[i]
        if once[seat] & bit:
            twice[seat] |= bit
        else:
            once[seat] |= bit
    return tuple(Hand(once[s], twice[s]) for s in range(players))
