"""The double-deck game told at the table (docs/rules.md §6, docs/double-deck.md).

What the terminal needs beyond the single deck when the game is a
:class:`~pinochlekit.engine.double.game.DoubleDeckGame` (the levels that seat it
and give its hints are :func:`pinochlekit.players.plays`'s, as for every game): the
bid ladder in words, the hand of twenty laid out by suit with
every copy drawn, a seat's meld in a few words (the cards of a double meld are too
many for a seat's frame; the log and the hand's result itemize them), and the
smallest terminal the table is drawn in.

>>> from pinochlekit.engine.rules import Rules
>>> bid_words([50, 51, 60, 65], Rules.preset("doubledeck"))
'bid 50 or more (by 1 below 60, then by 5)'
"""

from __future__ import annotations

from collections.abc import Sequence

from pinochlekit.engine.cards import Card
from pinochlekit.engine.meld import MeldItem, MeldResult
from pinochlekit.engine.rules import Rules
from pinochlekit.tui.face import TableFace

__all__ = ["HAND_ROOM", "MIN_SIZE", "SUIT_GAP", "DoubleFace", "bid_words", "hand_columns",
           "meld_words"]

#: The smallest terminal the double-deck table is drawn in (docs/terminal.md "The
#: double deck"): the hand of twenty, by suit, fits a row of 100 columns.
MIN_SIZE = (100, 30)
#: Columns left between two suits of the hand (besides each card's own cell).
SUIT_GAP = 2
#: The columns of the hand's row at 100 columns (the frame and padding take 4).
HAND_ROOM = 96


def bid_words(bids: Sequence[int], rules: Rules) -> str:
    """The bids allowed, in words, with the ladder's steps (docs/rules.md §6); the
    top of the ladder (the most a team could ever score) is left out."""
    if len(bids) == 1:
        return f"bid {bids[0]}"
    steps = {"by_one": "by 1", "five_from_60": "by 1 below 60, then by 5",
             "ten_from_100": "by 1 below 60, by 5 to 100, then by 10"}[rules.bid_ladder]
    low = bids[0]
    if rules.bid_ladder == "five_from_60" and low >= 60:
        steps = "by 5"
    elif rules.bid_ladder == "ten_from_100" and low >= 100:
        steps = "by 10"
    elif rules.bid_ladder == "ten_from_100" and low >= 60:
        steps = "by 5 to 100, then by 10"
    return f"bid {low} or more ({steps})"


def hand_columns(cards: Sequence[Card], cell: int, room: int = HAND_ROOM) -> list[int]:
    """The column at which each card of a hand in display order starts: ``cell``
    columns a card, and :data:`SUIT_GAP` more before each new suit, or fewer if the
    row would not fit in ``room`` columns (the declarer holds 24 cards while
    returning four).

    >>> from pinochlekit.engine.cards import parse_cards
    >>> hand_columns(parse_cards("AS AS TH"), 4), hand_columns(parse_cards("AS TH"), 4, 8)
    ([0, 4, 10], [0, 4])
    """
    suits = len({card.suit for card in cards})
    gap = next((g for g in range(SUIT_GAP, 0, -1)
                if len(cards) * cell + g * (suits - 1) <= room), 0)
    out: list[int] = []
    at = 0
    for i, card in enumerate(cards):
        if i and card.suit != cards[i - 1].suit:
            at += gap
        out.append(at)
        at += cell
    return out


_TIMES = {"double": 2, "triple": 3, "quadruple": 4}


def _item_word(item: MeldItem) -> tuple[str, int]:
    """One meld in a word or two and how many times it is held: ``('aces', 2)`` for
    double aces around, ``('marriage ♥', 1)``."""
    words = item.name.split()
    times = _TIMES.get(words[0], 1)
    if times > 1:
        words = words[1:]
    name = " ".join(words)
    if name in ("common marriage", "royal marriage"):
        word = ("royal " if name.startswith("royal") else "marriage ") + item.cards[0].suit.symbol
    elif name.endswith(" around"):
        word = words[0]
    else:
        word = name
    return word, times


def meld_words(result: MeldResult) -> list[str]:
    """A seat's meld in a few words, a meld held more than once with its count
    (double aces around: ``aces ×2 100``; two royal marriages: ``royal ♠ ×2 8``), each
    at most 16 columns wide, for the narrow seats of the table.

    >>> from pinochlekit.engine.cards import Suit
    >>> from pinochlekit.engine.double.cards import DoubleHand
    >>> from pinochlekit.engine.double.meld import double_meld
    >>> hand = DoubleHand.parse("AS AS AH AH AD AD AC AC KH QH KH QH QS QS JD JD")
    >>> meld_words(double_meld(hand, Suit.SPADES, Rules.preset("doubledeck")))
    ['marriage ♥ ×2 4', 'aces ×2 100', 'pinochle ×2 30']
    """
    counted: dict[str, tuple[int, int]] = {}
    for item in result.items:
        word, times = _item_word(item)
        held, points = counted.get(word, (0, 0))
        counted[word] = (held + times, points + item.points)
    return [f"{word}{f' ×{held}' if held > 1 else ''} {points}"
            for word, (held, points) in counted.items()]


class DoubleFace(TableFace):
    """The double deck at the table (docs/rules.md §6): the table of the four-handed
    game with a hand of twenty laid out by suit, a larger smallest terminal, meld in
    words in the seats' frames, the bid ladder of §6 and its own hint level."""

    min_size = MIN_SIZE
    needs = "The double deck's twenty cards need"

    def columns(self, cards: Sequence[Card], cell: int) -> list[int]:
        """The hand of twenty by suit, with a gap between suits."""
        return hand_columns(cards, cell)

    def bid_words(self, bids: Sequence[int]) -> str:
        """The bid ladder of §6 in words."""
        return bid_words(bids, self.game.rules)

    def meld_words(self, result: MeldResult) -> list[str]:
        """A double meld in a few words: its cards are many."""
        return meld_words(result)
