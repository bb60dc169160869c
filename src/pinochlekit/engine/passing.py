"""The legal ways to move cards out of a hand: the give and the return of the
four-handed game (docs/rules.md §1.6) and the three-handed discard
(docs/rules.md §3), each a distinct set of cards in display order.

>>> from pinochlekit import Give, Hand
>>> hand = Hand.parse("AS AS TS")
>>> [str(a) for a in card_choices(Give, hand.once, hand.twice, 2)]
['give AS TS', 'give AS AS']
"""

from __future__ import annotations

from pinochlekit.engine.actions import Action, Discard, Give, Return
from pinochlekit.engine.cards import Card, Hand

__all__ = ["card_choices"]


def _sets_of(once: int, twice: int, n: int) -> list[tuple[Card, ...]]:
    """Every distinct set of ``n`` cards from a hand, each in display order."""
    kinds = list(dict.fromkeys(reversed(Hand(once, twice).cards())))  # last shown first
    copies = [1 + (twice >> k & 1) for k in kinds]
    out: list[tuple[Card, ...]] = []

    def extend(i: int, left: int, chosen: list[Card]) -> None:
        if left == 0:
            out.append(tuple(reversed(chosen)))
            return
        if i == len(kinds):
            return
        for take in range(min(copies[i], left), -1, -1):
            extend(i + 1, left - take, chosen + [kinds[i]] * take)

    extend(0, n, [])
    return out


def _prebuilt(kind: type[Give] | type[Return] | type[Discard], cards: tuple[Card, ...]) -> Action:
    """A ``Give``/``Return``/``Discard`` of cards already in display order, unsorted."""
    action = kind.__new__(kind)
    object.__setattr__(action, "cards", cards)
    return action


def card_choices(kind: type[Give] | type[Return] | type[Discard], once: int, twice: int,
                 n: int) -> list[Action]:
    """Every distinct ``kind`` of ``n`` cards from the hand of masks ``once``/``twice``."""
    return [_prebuilt(kind, cards) for cards in _sets_of(once, twice, n)]
