"""Double-deck meld (docs/rules.md §6): single to quadruple melds, a card once per class.

>>> from pinochlekit.engine.cards import Suit
>>> from pinochlekit.engine.rules import Rules
>>> from pinochlekit.engine.double.cards import DoubleHand
>>> hand = DoubleHand.parse("AS AS TS TS KS KS KS QS QS QS JS JS KH QH AH AD AC JD")
>>> result = double_meld(hand, Suit.SPADES, Rules.preset("doubledeck"))
>>> [(item.name, item.points) for item in result.items]  # doctest: +NORMALIZE_WHITESPACE
[('double run', 150), ('royal marriage', 4), ('common marriage', 2), ('aces around', 10),
 ('pinochle', 4)]
>>> result.points
170

Class I: runs in trump (15 / 150 / 225 / 300 for one to four copies of A 10 K Q J)
and marriages (a K with a Q of its suit: 4 in trump, 2 elsewhere, each); a run's
K and Q do not marry again. Class II: arounds (one of a rank in every suit, up to
four times). Class III: the pinochle (Q♠ with J♦, up to four times). A card serves
once in each class and may serve in several classes (docs/rules.md §1.7).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final

from pinochlekit.engine.cards import ALL_CARDS, Card, Rank, Suit
from pinochlekit.engine.double.cards import DoubleHand
from pinochlekit.engine.meld import MeldItem, MeldResult
from pinochlekit.engine.rules import Rules

__all__ = ["MULTIPLE", "around_values", "double_meld", "meld_counts", "meld_table",
           "pinochle_values", "run_values", "table_meld"]

#: The words for one to four copies of a meld.
MULTIPLE: Final = ("", "", "double ", "triple ", "quadruple ")
_RUN_VALUES: Final = (0, 15, 150, 225, 300)  # docs/rules.md §6 run in trump
ROYAL, COMMON = 4, 2  # docs/rules.md §6: each royal / common marriage
# docs/rules.md §6 arounds, standard values (and "doubling", each copy doubles)
_AROUNDS: Final = {
    "standard": {Rank.ACE: (0, 10, 100, 150, 200), Rank.KING: (0, 8, 80, 120, 160),
                 Rank.QUEEN: (0, 6, 60, 90, 120), Rank.JACK: (0, 4, 40, 60, 80)},
    "doubling": {Rank.ACE: (0, 10, 100, 200, 400), Rank.KING: (0, 8, 80, 160, 320),
                 Rank.QUEEN: (0, 6, 60, 120, 240), Rank.JACK: (0, 4, 40, 80, 160)},
}
_PINOCHLES: Final = {"standard": (0, 4, 30, 60, 90), "doubling": (0, 4, 30, 60, 120)}
_AROUND_NAMES: Final = ((Rank.ACE, "aces around"), (Rank.KING, "kings around"),
                        (Rank.QUEEN, "queens around"), (Rank.JACK, "jacks around"))
_RUN_RANKS: Final = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK)
_QS: Final = ALL_CARDS[Suit.SPADES * 6 + Rank.QUEEN]
_JD: Final = ALL_CARDS[Suit.DIAMONDS * 6 + Rank.JACK]


def run_values() -> tuple[int, ...]:
    """Points of zero to four runs in trump (docs/rules.md §6)."""
    return _RUN_VALUES


def around_values(rules: Rules, rank: int) -> tuple[int, ...]:
    """Points of zero to four arounds of ``rank`` under ``rules.arounds``."""
    return _AROUNDS[rules.arounds][Rank(rank)]


def pinochle_values(rules: Rules) -> tuple[int, ...]:
    """Points of zero to four pinochles under ``rules.arounds``."""
    return _PINOCHLES[rules.arounds]


def _card(suit: int, rank: int) -> Card:
    return ALL_CARDS[suit * 6 + rank]


def meld_table(rules: Rules) -> tuple[int, ...]:
    """The meld values of docs/rules.md §6 under ``rules`` as one flat table of 32
    ints, for the C core: zero to four runs in trump (5), a royal and a common
    marriage (2), zero to four arounds of aces, kings, queens and jacks (4 × 5), zero
    to four pinochles (5).

    >>> table = meld_table(Rules.preset("doubledeck"))
    >>> len(table), table[:7], table[-5:]
    (32, (0, 15, 150, 225, 300, 4, 2), (0, 4, 30, 60, 90))
    """
    return _table(rules.arounds)


def table_meld(values: Sequence[int], counts: Sequence[int], trump: int) -> int:
    """The meld of 24 copy counts with ``trump``, from the flat table of
    :func:`meld_table`: the one count of the double deck's meld points, which the C
    core (``native/_doublecore.c`` ``table_meld``) does step for step."""
    total = 0
    for suit in range(4):
        pairs = min(counts[suit * 6 + Rank.KING], counts[suit * 6 + Rank.QUEEN])
        if suit == trump:  # a run's K and Q do not marry again
            runs = min(counts[suit * 6 + r] for r in _RUN_RANKS)
            total += values[runs] + values[5] * (pairs - runs)
        else:
            total += values[6] * pairs
    for i, (rank, _) in enumerate(_AROUND_NAMES):
        total += values[7 + 5 * i + min(counts[s * 6 + rank] for s in range(4))]
    return total + values[27 + min(counts[_QS], counts[_JD])]


def meld_counts(counts: Sequence[int], trump: int, rules: Rules) -> int:
    """The meld points of a hand given as 24 kind counts (the fast path: no items)."""
    return table_meld(_table(rules.arounds), counts, trump)


@functools.cache
def _table(arounds: str) -> tuple[int, ...]:
    """:func:`meld_table` for the ``arounds`` option."""
    values = _AROUNDS[arounds]
    return (_RUN_VALUES + (ROYAL, COMMON)
            + tuple(v for rank, _ in _AROUND_NAMES for v in values[rank])
            + _PINOCHLES[arounds])


def double_meld(hand: DoubleHand, trump: int, rules: Rules) -> MeldResult:
    """The meld of ``hand`` with ``trump``: the total, the itemized melds and the cards
    shown (docs/rules.md §6). Taking every run the hand holds is always best: a run
    is worth more than the marriage its K and Q would make instead."""
    counts = hand.counts
    items: list[MeldItem] = []
    shown = [0] * 24
    common: list[MeldItem] = []
    for suit in range(4):
        king, queen = _card(suit, Rank.KING), _card(suit, Rank.QUEEN)
        pairs = min(counts[king], counts[queen])
        if suit == trump:
            runs = min(counts[_card(suit, r)] for r in _RUN_RANKS)
            if runs:
                cards = tuple(_card(suit, r) for r in _RUN_RANKS for _ in range(runs))
                items.append(MeldItem(f"{MULTIPLE[runs]}run", cards, _RUN_VALUES[runs]))
            items += [MeldItem("royal marriage", (king, queen), ROYAL)] * (pairs - runs)
            for r in _RUN_RANKS:
                shown[_card(suit, r)] = max(shown[_card(suit, r)], runs)
        else:
            common += [MeldItem("common marriage", (king, queen), COMMON)] * pairs
        shown[king] = max(shown[king], pairs)
        shown[queen] = max(shown[queen], pairs)
    items += common
    for rank, name in _AROUND_NAMES:
        n = min(counts[_card(s, rank)] for s in range(4))
        if n:
            cards = tuple(_card(s, rank) for s in range(4) for _ in range(n))
            items.append(MeldItem(MULTIPLE[n] + name, cards, around_values(rules, rank)[n]))
            for s in range(4):
                shown[_card(s, rank)] = max(shown[_card(s, rank)], n)
    n = min(counts[_QS], counts[_JD])
    if n:
        items.append(MeldItem(MULTIPLE[n] + "pinochle", (_QS,) * n + (_JD,) * n,
                              pinochle_values(rules)[n]))
        shown[_QS], shown[_JD] = max(shown[_QS], n), max(shown[_JD], n)
    return MeldResult(sum(item.points for item in items), tuple(items), DoubleHand(shown))
