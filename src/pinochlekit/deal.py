"""Seeded, reproducible deals (RULES.md §1 Deal).

A game's seed gives every deal its own *deal seed* (a SHA-256 hex digest), and
a deal seed gives the deal through a Fisher-Yates shuffle driven by SHAKE-256. Only the standard library is used and nothing depends on
Python's ``random``, so a deal can be recomputed anywhere from its deal seed:
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

    Fisher-Yates, each index drawn as a 32-bit word of SHAKE-256 output, with
    rejection of the biased top of the range.
    """
    deck = list(_DECK)
    stream = hashlib.shake_256(f"pinochlekit/shuffle/{seed}".encode())
    words: list[int] = []
    used = 0
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        limit = (1 << 32) - (1 << 32) % n
        while True:
            if not words:
                used += 256
                block = stream.digest(used)[used - 256:]
                words = list(reversed(struct.unpack(">64I", block)))
            word = words.pop()
            if word < limit:
                break
        j = word % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


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
