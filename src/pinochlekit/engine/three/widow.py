"""The three-handed deal: 15 cards each and a widow of 3 (docs/rules.md §3).

>>> from pinochlekit.engine.deals import deal_seed
>>> hands, widow = deal_with_widow(deal_seed(42, 0), dealer=0)
>>> [len(h) for h in hands], len(widow)
([15, 15, 15], 3)
>>> sum(hands, widow) == FULL_DECK
True
"""

from __future__ import annotations

from collections.abc import Sequence

from pinochlekit.engine.cards import Hand
from pinochlekit.engine.deals import deal_cards

__all__ = ["FULL_DECK", "deal_with_widow", "widow_of"]

#: All 48 cards: two of each kind.
FULL_DECK = Hand((1 << 24) - 1, (1 << 24) - 1)


def deal_with_widow(seed: str, dealer: int, players: int = 3,
                    hand_size: int = 15) -> tuple[tuple[Hand, ...], Hand]:
    """Deal ``hand_size`` cards to each player, three at a time from the dealer's
    left, with the widow's three cards dealt after the first round (Bicycle's
    Auction Pinochle: three to each player, the widow, then four more rounds):
    :func:`~pinochlekit.engine.deals.deal_cards` with a widow of 3.
    """
    dealt = deal_cards(seed, dealer, players, hand_size, widow=3)
    return dealt.hands, Hand.from_cards(dealt.widow)


def widow_of(hands: Sequence[Hand]) -> Hand:
    """The cards of the deck no hand holds; :class:`ValueError` if the hands hold
    more copies of a card than the deck has."""
    return FULL_DECK - sum(hands, Hand())
