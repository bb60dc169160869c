"""Trick play: which cards may be played, who wins a trick, what a trick is worth.

The mask functions (``legal_mask``, ``winner_index``) are the engine's hot
path; :func:`legal_plays` and :func:`trick_winner` are the friendly wrappers.

>>> from pinochlekit.engine.cards import Hand, parse_cards, Suit
>>> from pinochlekit.engine.rules import Rules
>>> hand = Hand.parse("AH TH 9H KS")
>>> legal_plays(hand, parse_cards("KH"), Suit.SPADES, Rules())  # old rules: beat KH
[Card('TH'), Card('AH')]
>>> legal_plays(hand, parse_cards("KH"), Suit.SPADES, Rules.preset("modern"))
[Card('9H'), Card('TH'), Card('AH')]
>>> trick_winner(parse_cards("KH AH AH TS"), Suit.SPADES)
3
>>> trick_winner(parse_cards("KH AH AH 9C"), Suit.SPADES)  # the first of two aces wins
1
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pinochlekit.engine.cards import SUIT_MASKS, Card, Hand, cards_of_mask
from pinochlekit.engine.rules import Rules

__all__ = [
    "above_mask",
    "card_points",
    "explain_illegal",
    "follow_mask",
    "legal_mask",
    "legal_plays",
    "must_beat_flags",
    "play_flags",
    "trick_winner",
    "winner_index",
]

# Mask of the kinds strictly above each kind in its own suit.
_ABOVE = tuple(SUIT_MASKS[k // 6] & ~((2 << k) - 1) for k in range(24))


def above_mask(card: int) -> int:
    """The kinds of the same suit that beat ``card`` (strictly higher rank)."""
    return _ABOVE[card]


def must_beat_flags(rules: Rules) -> tuple[bool, bool, bool]:
    """(beat when following a non-trump lead, beat when trump is led, over-trump
    when trumping a non-trump lead) for the ``must_beat`` option (docs/rules.md §2)."""
    if rules.must_beat == "always":  # docs/rules.md §1 Play, rules 1 and 2 (old rules)
        return (True, True, True)
    if rules.must_beat == "trump_led":  # post-1945 books (seed 003, Variations)
        return (False, True, False)
    return (True, True, False)  # 'following': beat when following suit, never over-trump


def winner_index(trick: Sequence[int], trump: int) -> int:
    """Index of the winning card: the highest trump, else the highest card of the
    suit led; of two identical cards the first played wins (docs/rules.md §1 Play)."""
    best = 0
    best_card = trick[0]
    for i in range(1, len(trick)):
        card = trick[i]
        if card // 6 == best_card // 6:
            if card > best_card:
                best, best_card = i, card
        elif card // 6 == trump:
            best, best_card = i, card
    return best


def play_flags(rules: Rules) -> tuple[bool, bool, bool, bool]:
    """:func:`must_beat_flags` plus ``trump_follows_trump``: what :func:`follow_mask` needs."""
    return (*must_beat_flags(rules), rules.trump_follows_trump)


def legal_mask(hand_kinds: int, trick: Sequence[int], trump: int, rules: Rules,
               first_trick: bool = False) -> int:
    """The kinds that may be played from ``hand_kinds`` (a mask) onto ``trick``.

    ``first_trick`` marks the opening lead of the hand, for ``first_lead="trump"``.
    """
    if not trick:
        trump_cards = hand_kinds & SUIT_MASKS[trump]
        if first_trick and rules.first_lead == "trump" and trump_cards:
            return trump_cards  # docs/rules.md §2 first lead must be trump if held (001, 002)
        return hand_kinds
    high = trick[winner_index(trick, trump)]
    return follow_mask(hand_kinds, trick[0] // 6, high, trump, play_flags(rules))


def follow_mask(hand_kinds: int, led: int, high: int, trump: int,
                flags: tuple[bool, bool, bool, bool]) -> int:
    """The kinds that may be played onto a trick whose led suit is ``led`` and whose
    winning card is ``high`` (the engine's hot path; ``flags`` from :func:`play_flags`)."""
    beat_follow, beat_trump_led, over_trump, trump_follows = flags
    trump_cards = hand_kinds & SUIT_MASKS[trump]
    trumped = led != trump and high // 6 == trump
    if trumped and trump_follows and trump_cards:
        # docs/rules.md §2 trump follows trump (002): trump even holding the suit led;
        # beat the highest trump only where the must-beat option says to over-trump.
        higher = trump_cards & _ABOVE[high]
        return higher if over_trump and higher else trump_cards
    following = hand_kinds & SUIT_MASKS[led]
    if following:
        # Rule 1: follow suit; beat the winning card if the option requires it. Once a
        # non-trump lead has been trumped, any card of the suit led will do.
        must = beat_trump_led if led == trump else beat_follow
        if must and not trumped:
            higher = following & _ABOVE[high]
            if higher:
                return higher
        return following
    if trump_cards:
        # Rule 2: void in the suit led, play a trump; beat the highest trump if required.
        if trumped and over_trump:
            higher = trump_cards & _ABOVE[high]
            if higher:
                return higher
        return trump_cards
    return hand_kinds  # Rule 3: void in the suit led and in trump, any card


def legal_plays(hand: Hand | Iterable[int], trick: Sequence[int], trump: int, rules: Rules,
                *, first_trick: bool = False) -> list[Card]:
    """The distinct cards that may be played from ``hand`` onto ``trick`` (cards
    already played this trick, in order), lowest kind first."""
    kinds = hand.once if isinstance(hand, Hand) else Hand.from_cards(hand).once
    return cards_of_mask(legal_mask(kinds, list(trick), int(trump), rules, first_trick))


def trick_winner(trick: Sequence[int], trump: int) -> int:
    """Index in ``trick`` of the card that wins it."""
    if not trick:
        raise ValueError("an empty trick has no winner")
    return winner_index(trick, int(trump))


_POINTS = {
    # rank order 9 J Q K T A; docs/rules.md §2 trick points (001, 002, 003)
    "counters": (0, 0, 0, 10, 10, 10),
    "fives": (0, 0, 5, 5, 10, 10),
    "classic": (0, 2, 3, 4, 10, 11),
}


def card_points(rules: Rules) -> tuple[int, ...]:
    """Trick points of each of the 24 kinds, in the game's own scale.

    >>> card_points(Rules())[:6]
    (0, 0, 0, 10, 10, 10)
    """
    per_rank = _POINTS[rules.trick_points]
    return tuple(per_rank[k % 6] // rules.unit for k in range(24))


def _names(mask: int) -> str:
    cards = [str(c) for c in reversed(cards_of_mask(mask))]
    return cards[0] if len(cards) == 1 else ", ".join(cards[:-1]) + " or " + cards[-1]


_SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")


def explain_illegal(hand_kinds: int, trick: Sequence[int], trump: int, rules: Rules,
                    first_trick: bool, card: int) -> str:
    """Why ``card`` may not be played: the rule broken and the cards that may be.

    >>> from pinochlekit.engine.cards import Card, Hand, parse_cards
    >>> hand = Hand.parse("AH TH 9H KS")
    >>> explain_illegal(hand.once, parse_cards("KH"), 0, Rules(), False, Card("9H"))
    'must beat KH with AH or TH'
    """
    if not hand_kinds >> card & 1:
        return f"{Card(card)} is not in the hand"
    legal = legal_mask(hand_kinds, trick, trump, rules, first_trick)
    if not trick:
        return f"the first lead must be a trump: {_names(legal)}"
    led = trick[0] // 6
    high = Card(trick[winner_index(trick, trump)])
    legal_suit = (legal & -legal).bit_length() - 1
    legal_suit //= 6
    if legal_suit == trump and led != trump and hand_kinds & SUIT_MASKS[led]:
        return f"trump follows trump: once the trick is trumped, play a trump ({_names(legal)})"
    if legal_suit == led:
        if legal != hand_kinds & SUIT_MASKS[led]:
            return f"must beat {high} with {_names(legal)}"
        return f"must follow {_SUIT_NAMES[led]} with {_names(legal)}"
    if legal != hand_kinds & SUIT_MASKS[trump]:
        return f"void in {_SUIT_NAMES[led]}, must beat {high} with {_names(legal)}"
    return f"void in {_SUIT_NAMES[led]}, must play a trump: {_names(legal)}"
