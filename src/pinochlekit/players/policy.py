"""The decision rules of the ``standard`` and ``pro`` players, on ints and masks.

Everything here follows ``docs/players.md`` to the letter and works on small
values (card kinds 0-23, 24-bit masks of kinds, hands as ``(once, twice)``
mask pairs, suit bit sets), so that a C port is a transcription. The players
(:mod:`pinochlekit.players.standard`, :mod:`pinochlekit.players.pro`) and the
reference simulator (:mod:`pinochlekit.players.search.simulate`) call the same
functions, which is what makes a simulated standard player decide exactly as a
real one would.

>>> from pinochlekit.engine.cards import Card, card_mask, cards_of_mask
>>> hand = card_mask([Card("AS"), Card("9S"), Card("KH"), Card("TD")])
>>> Card(highest(hand, trump=1)), Card(lowest(hand, trump=1))  # hearts trump
(Card('KH'), Card('9S'))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Final

from pinochlekit.engine.cards import DECK_MASK, SUIT_MASKS, Card, Hand, Rank, Suit
from pinochlekit.engine.meld import meld
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.tricks import above_mask, winner_index

__all__ = [
    "HIGH_ORDER",
    "LOW_ORDER",
    "Memory",
    "beat_mask",
    "counter_mask",
    "discard_key",
    "give_order",
    "highest",
    "holds_trick",
    "is_guaranteed",
    "kinds",
    "lowest",
    "meld_points",
    "opponents_to_play",
    "pass_cards",
    "pro_give_key",
    "pro_lead",
    "return_cards",
    "skilled_follow",
    "skilled_lead",
    "standard_follow",
    "standard_give_key",
    "standard_lead",
    "stays_on_top",
    "void_cards",
]

# -- multisets of cards as (once, twice) mask pairs -------------------------------
# A count 0-2 per kind is two bits: ``once`` (at least one) and ``twice`` (two).


def ms_add(a1: int, a2: int, b1: int, b2: int) -> tuple[int, int]:
    """The multiset sum ``a + b`` (at most two of a kind in all)."""
    return a1 | b1, a2 | b2 | (a1 & b1)


def ms_sub(a1: int, a2: int, b1: int, b2: int) -> tuple[int, int]:
    """The multiset difference ``a - b``, each count clipped at 0."""
    return (a1 & ~b1) | (a2 & ~b2), a2 & ~b1


def ms_max(a1: int, a2: int, b1: int, b2: int) -> tuple[int, int]:
    """Per kind, the larger of the two counts."""
    return a1 | b1, a2 | b2


def ms_remove(a1: int, a2: int, card: int) -> tuple[int, int]:
    """``a`` less one copy of ``card`` (unchanged if it holds none)."""
    bit = 1 << card
    if a2 & bit:
        return a1, a2 & ~bit
    return a1 & ~bit, a2


# -- orders (docs/players.md "Orders used below") ----------------------------------


def _high_key(card: int, trump: int) -> tuple[bool, int, int]:
    """Highest card: greatest by (is trump, rank, -suit index)."""
    return (card // 6 == trump, card % 6, -(card // 6))


def _low_key(card: int, trump: int) -> tuple[int, bool, int]:
    """Lowest card: least by (rank, is trump, suit index)."""
    return (card % 6, card // 6 == trump, card // 6)


def _high_order(trump: int) -> tuple[int, ...]:
    return tuple(sorted(range(24), key=lambda c: _high_key(c, trump), reverse=True))


def _low_order(trump: int) -> tuple[int, ...]:
    return tuple(sorted(range(24), key=lambda c: _low_key(c, trump)))


#: For each trump suit, the 24 kinds from the highest to the lowest card.
HIGH_ORDER: Final[tuple[tuple[int, ...], ...]] = tuple(_high_order(t) for t in range(4))
#: For each trump suit, the 24 kinds from the lowest to the highest (the *lowest-card* order,
#: which is not the reverse of the highest-card order).
LOW_ORDER: Final[tuple[tuple[int, ...], ...]] = tuple(_low_order(t) for t in range(4))
_HIGH_RANK: Final = tuple(tuple(order.index(c) for c in range(24)) for order in HIGH_ORDER)
_LOW_RANK: Final = tuple(tuple(order.index(c) for c in range(24)) for order in LOW_ORDER)


def highest(mask: int, trump: int) -> int:
    """The highest card of ``mask`` by the highest-card order; -1 for an empty mask."""
    if mask:
        for card in HIGH_ORDER[trump]:
            if mask >> card & 1:
                return card
    return -1


def lowest(mask: int, trump: int) -> int:
    """The lowest card of ``mask`` by the lowest-card order; -1 for an empty mask."""
    if mask:
        for card in LOW_ORDER[trump]:
            if mask >> card & 1:
                return card
    return -1


def beat_mask(card: int, trump: int) -> int:
    """The kinds that beat ``card`` once it is winning a trick: higher cards of its
    suit, and every trump if it is not a trump (docs/rules.md §1 Play)."""
    if card // 6 == trump:
        return above_mask(card)
    return above_mask(card) | SUIT_MASKS[trump]


def counter_mask(points: Sequence[int]) -> int:
    """The counters: kinds worth trick points (``points`` from
    :func:`pinochlekit.engine.tricks.card_points`; docs/players.md "Counter")."""
    mask = 0
    for card in range(24):
        if points[card] > 0:
            mask |= 1 << card
    return mask


#: For each 4-bit set of suits, the mask of their kinds.
_SUITS_CARDS: Final = tuple(
    sum(SUIT_MASKS[s] for s in range(4) if bits >> s & 1) for bits in range(16))


def void_cards(suits: int) -> int:
    """The kinds of the suits in the 4-bit set ``suits``."""
    return _SUITS_CARDS[suits]


# -- memory (docs/players.md "What a player knows") ---------------------------------


class Memory:
    """What seat ``seat`` remembers of the play of one hand (docs/players.md).

    ``known_once[o]``, ``known_twice[o]``: the cards known to be in seat ``o``'s
    hand (meld shown, cards passed between the partners) and not yet played;
    ``played_once``, ``played_twice``: every card played, current trick
    included; ``voids[o]``: the suits seat ``o`` has shown void in (4-bit set;
    the trump bit also when it failed to trump). The seat's own hand is not
    stored: queries take it, so one memory serves every deal of a simulation.
    """

    __slots__ = ("known_once", "known_twice", "played_once", "played_twice", "seat", "voids")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.known_once = [0, 0, 0, 0]
        self.known_twice = [0, 0, 0, 0]
        self.played_once = 0
        self.played_twice = 0
        self.voids = [0, 0, 0, 0]

    @classmethod
    def at_meld(cls, seat: int, shown: Sequence[Hand], declarer: int,
                given: Sequence[int] | None = None,
                returned: Sequence[int] | None = None) -> Memory:
        """The memory when play starts: every other seat holds its meld on the
        table; the declarer knows partner holds the returned cards, partner
        knows the declarer holds the given cards not returned. ``given`` and
        ``returned`` are passed only to a seat that saw them (the two partners).
        """
        memory = cls(seat)
        partner = (declarer + 2) % 4
        for other in range(len(shown)):  # three-handed: index 3 is the set-aside pile
            if other != seat:
                memory.known_once[other] = shown[other].once
                memory.known_twice[other] = shown[other].twice
        if given is not None and seat in (declarer, partner):
            g = Hand.from_cards(given)
            r = Hand.from_cards(returned or ())
            if seat == declarer:
                held = (r.once, r.twice)
            else:
                held = ms_sub(g.once, g.twice, r.once, r.twice)
            other = partner if seat == declarer else declarer
            memory.known_once[other], memory.known_twice[other] = ms_max(
                memory.known_once[other], memory.known_twice[other], *held)
        return memory

    def copy(self) -> Memory:
        """An independent copy."""
        new = Memory(self.seat)
        new.known_once = self.known_once[:]
        new.known_twice = self.known_twice[:]
        new.played_once, new.played_twice = self.played_once, self.played_twice
        new.voids = self.voids[:]
        return new

    def observe(self, player: int, card: int, led: int, trump: int) -> None:
        """Remember that ``player`` played ``card`` to a trick whose led suit is
        ``led`` (the card's own suit for a lead)."""
        bit = 1 << card
        if player != self.seat and self.known_once[player] & bit:
            if self.known_twice[player] & bit:
                self.known_twice[player] &= ~bit
            else:
                self.known_once[player] &= ~bit
        if self.played_once & bit:
            self.played_twice |= bit
        else:
            self.played_once |= bit
        suit = card // 6
        if suit != led:
            # A seat that did not follow the suit led holds none of it; one that, void
            # in it, did not trump holds no trump (docs/players.md; docs/rules.md §1 Play 1-2).
            self.voids[player] |= 1 << led
            if suit != trump:
                self.voids[player] |= 1 << trump

    def unlocated(self, hand_once: int, hand_twice: int) -> int:
        """The kinds of which a copy is outstanding (not in the seat's hand
        ``hand``, not played) and not known to be in any other seat's hand."""
        free1, free2 = ms_sub(DECK_MASK, DECK_MASK, hand_once, hand_twice)
        free1, free2 = ms_sub(free1, free2, self.played_once, self.played_twice)
        for other in range(4):
            if other != self.seat:
                free1, free2 = ms_sub(free1, free2, self.known_once[other],
                                      self.known_twice[other])
        return free1

    def possible(self, opponent: int, unlocated: int) -> int:
        """The kinds *possibly held* by ``opponent`` (docs/players.md): known to be
        in its hand, or unlocated and of a suit it has not shown void in."""
        return self.known_once[opponent] | (unlocated & ~_SUITS_CARDS[self.voids[opponent]])


# -- guaranteed to take the trick (docs/players.md; docs/rules.md §5) -------------------


def opponents_to_play(seat: int, in_trick: int, trick_size: int,
                      sitting_out: int = -1, players: int = 4) -> list[int]:
    """The opponents of ``seat`` who play to the trick after it, ``in_trick``
    cards having been played before it (``sitting_out``: a partner who sits out
    after a moon, else -1). Three-handed every other seat is an opponent."""
    out = []
    other = seat
    for _ in range(trick_size - in_trick - 1):
        other = (other + 1) % players
        if other == sitting_out:
            other = (other + 1) % players
        if players != 4 or (other - seat) % 2:
            out.append(other)
    return out


def is_guaranteed(card: int, trick: Sequence[int], trump: int, opponents: Sequence[int],
                  possible: Sequence[int], known_once: Sequence[int]) -> bool:
    """Whether playing ``card`` now is *guaranteed to take the trick*.

    ``card`` must beat the card now winning ``trick`` (always true for a lead),
    and for each of ``opponents`` still to play, no card possibly held by it
    (``possible[o]``) that it could play beats ``card``: a card of the suit
    led, or a trump when no card of the suit led is known to be in its hand
    (``known_once[o]``); when trump is led only trumps count (docs/players.md).
    """
    if trick:
        if not beat_mask(trick[winner_index(trick, trump)], trump) >> card & 1:
            return False
        led = trick[0] // 6
    else:
        led = card // 6
    threats = beat_mask(card, trump)
    for opponent in opponents:
        playable = SUIT_MASKS[led]
        if led != trump and not known_once[opponent] & SUIT_MASKS[led]:
            playable |= SUIT_MASKS[trump]
        if possible[opponent] & playable & threats:
            return False
    return True


def _guaranteed_mask(cards: int, trick: Sequence[int], trump: int, opponents: Sequence[int],
                     possible: Sequence[int], known_once: Sequence[int]) -> int:
    out = 0
    while cards:
        low = cards & -cards
        card = low.bit_length() - 1
        if is_guaranteed(card, trick, trump, opponents, possible, known_once):
            out |= low
        cards ^= low
    return out


# -- trick-taking -----------------------------------------------------------------


def standard_lead(legal: int, trump: int, opponents: Sequence[int], possible: Sequence[int],
                  known_once: Sequence[int]) -> int:
    """docs/players.md standard **Leading**: the highest trump guaranteed to take the
    trick; otherwise the highest legal non-trump; if none, the highest legal card."""
    trumps = legal & SUIT_MASKS[trump]
    if trumps:
        for card in HIGH_ORDER[trump]:
            if trumps >> card & 1 and is_guaranteed(card, (), trump, opponents, possible,
                                                    known_once):
                return card
    plain = legal & ~SUIT_MASKS[trump]
    return highest(plain, trump) if plain else highest(legal, trump)


def standard_follow(legal: int, trick: Sequence[int], trump: int, partner_winning: bool,
                    last: bool, counters: int) -> int:
    """docs/players.md standard **Following**.

    If no legal card beats the card now winning: the lowest counter when
    partner's card is winning (the lowest card if no counter), else the lowest
    card. Otherwise the highest card that beats it, or, last to play, the
    lowest card that beats it.
    """
    winners = legal & beat_mask(trick[winner_index(trick, trump)], trump)
    if not winners:
        if partner_winning and legal & counters:
            return lowest(legal & counters, trump)
        return lowest(legal, trump)
    return lowest(winners, trump) if last else highest(winners, trump)


def pro_lead(allowed: int, trump: int, opponents: Sequence[int], possible: Sequence[int],
             known_once: Sequence[int]) -> int:
    """docs/players.md pro **Trick-taking**, leading, among the cards left by the
    filter: the highest trump guaranteed to take the trick; otherwise the highest
    non-trump guaranteed to take it; otherwise the lowest card."""
    sure = _guaranteed_mask(allowed, (), trump, opponents, possible, known_once)
    if sure & SUIT_MASKS[trump]:
        return highest(sure & SUIT_MASKS[trump], trump)
    if sure:
        return highest(sure, trump)
    return lowest(allowed, trump)


# -- passing ----------------------------------------------------------------------


@lru_cache(maxsize=1 << 16)
def _meld_points(once: int, twice: int, trump: int, rules: Rules) -> int:
    return meld(Hand(once, twice), trump, rules).points


def meld_points(once: int, twice: int, trump: int, rules: Rules) -> int:
    """The meld of the hand ``(once, twice)`` with ``trump`` under ``rules`` (memoized)."""
    return _meld_points(once, twice, trump, rules)


_QS: Final = Suit.SPADES * 6 + Rank.QUEEN
_JD: Final = Suit.DIAMONDS * 6 + Rank.JACK

#: A key ranking one non-meld card for passing: lower keys are passed first.
PassKey = Callable[[int, int], tuple[int, int]]


def standard_give_key(card: int, trump: int) -> tuple[int, int]:
    """docs/players.md standard **Passing to the declarer**: trumps from the highest,
    then non-trumps from the highest, i.e. the highest-card order."""
    return (0, _HIGH_RANK[trump][card])


def pro_give_key(card: int, trump: int) -> tuple[int, int]:
    """docs/players.md pro **Passing to the declarer**: trumps from the highest except
    nines of trump; aces; nines of trump; Q♠ and J♦; jacks; nines; the rest by the
    highest-card order (each group in the highest-card order)."""
    rank, is_trump = card % 6, card // 6 == trump
    if is_trump and rank != Rank.NINE:
        group = 0
    elif rank == Rank.ACE:
        group = 1
    elif is_trump:
        group = 2  # nines of trump
    elif card in (_QS, _JD):
        group = 3
    elif rank == Rank.JACK:
        group = 4
    elif rank == Rank.NINE:
        group = 5
    else:
        group = 6
    return (group, _HIGH_RANK[trump][card])


def discard_key(card: int, trump: int) -> tuple[int, int]:
    """Three-handed, widow taken (docs/players.md *(ours)*): the non-meld cards the
    declarer lays aside, whose points count for it: non-trump tens and kings first
    (points banked that a defender might take), then non-trump queens, jacks and
    nines, then non-trump aces, trumps last; each group in the lowest-card order."""
    rank, is_trump = card % 6, card // 6 == trump
    if is_trump:
        group = 3
    elif rank in (Rank.TEN, Rank.KING):
        group = 0
    elif rank == Rank.ACE:
        group = 2
    else:
        group = 1
    return (group, _LOW_RANK[trump][card])


def give_order(pro: bool) -> PassKey:
    """The passing-to-the-declarer key of the standard or the pro player."""
    return pro_give_key if pro else standard_give_key


def kinds(once: int) -> list[int]:
    """The kinds (0-23) whose bit is set in the mask ``once``, lowest first.

    >>> kinds(0b100101)
    [0, 2, 5]
    """
    out = []
    while once:
        low = once & -once
        out.append(low.bit_length() - 1)
        once ^= low
    return out


def _meld_costs(once: int, twice: int, trump: int, rules: Rules) -> dict[int, int]:
    """For each kind held, how much meld the hand loses without one copy of it."""
    base = _meld_points(once, twice, trump, rules)
    costs = {}
    for card in kinds(once):
        o, t = ms_remove(once, twice, card)
        costs[card] = base - _meld_points(o, t, trump, rules)
    return costs


def pass_cards(hand: Hand, trump: int, rules: Rules, count: int, key: PassKey) -> list[int]:
    """The ``count`` cards partner passes to the declarer (docs/players.md).

    One card at a time, from the cards still kept: the *non-meld* cards (whose
    removal does not lower the kept hand's meld with ``trump``) ranked by
    ``key``; if there are none, the meld card that costs the least meld (ties
    by ``key``). Choosing one card at a time is how a second copy of a kind
    becomes a meld card once the first is passed (docs/players.md).
    """
    once, twice = hand.once, hand.twice
    chosen: list[int] = []
    for _ in range(count):
        costs = _meld_costs(once, twice, trump, rules)
        card = min(costs, key=lambda c: (costs[c], key(c, trump)))
        chosen.append(card)
        once, twice = ms_remove(once, twice, card)
    return chosen


def _return_key(card: int, trump: int, jd_free: bool) -> tuple[int, int]:
    """Steps 2-6 of docs/players.md standard **Passing back**: non-trump kings,
    non-trump queens, the J♦ (unless just received), the lowest non-trumps, the
    lowest trumps (each step in the lowest-card order)."""
    rank, is_trump = card % 6, card // 6 == trump
    if not is_trump and rank == Rank.KING:
        step = 2
    elif not is_trump and rank == Rank.QUEEN:
        step = 3
    elif card == _JD and jd_free:
        step = 4
    elif not is_trump:
        step = 5
    else:
        step = 6
    return (step, _LOW_RANK[trump][card])


def return_cards(hand: Hand, trump: int, rules: Rules, count: int, received: Hand,
                 voiding: bool = True) -> list[int]:
    """The ``count`` cards the declarer passes back (docs/players.md **Passing back**).

    ``hand`` is the declarer's hand with the cards ``received`` from partner.
    Never a meld card while a non-meld card remains; one step at a time:

    1. (``voiding``: standard only) a whole non-trump suit with no ace whose
       removal does not lower the meld and that fits in the cards still to
       pass, the shortest suit first (ties: S, H, D, C);
    2. non-trump kings; 3. non-trump queens; 4. the J♦, unless the declarer
       holds no more J♦ than it just received; 5. the lowest non-trump cards;
       6. the lowest trumps;
    7. meld cards, least meld cost first (ties: the lowest-card order).
    """
    once, twice = hand.once, hand.twice
    chosen: list[int] = []
    jd_received = received.count(_JD)
    while len(chosen) < count:
        left = count - len(chosen)
        base = _meld_points(once, twice, trump, rules)
        costs = _meld_costs(once, twice, trump, rules)
        if voiding:
            suits = []
            for suit in range(4):
                mask = SUIT_MASKS[suit]
                if suit == trump or not once & mask or once & mask & (1 << (suit * 6 + 5)):
                    continue
                size = (once & mask).bit_count() + (twice & mask).bit_count()
                if size > left or any(costs[c] for c in kinds(once & mask)):
                    continue
                if _meld_points(once & ~mask, twice & ~mask, trump, rules) != base:
                    continue
                suits.append((size, suit))
            if suits:
                _, suit = min(suits)
                mask = SUIT_MASKS[suit]
                for card in kinds(once & mask):
                    chosen += [card] * (1 + (twice >> card & 1))
                once, twice = once & ~mask, twice & ~mask
                continue
        jd_free = ((once >> _JD & 1) + (twice >> _JD & 1)) > jd_received
        free = [c for c in costs if not costs[c]]
        if free:
            card = min(free, key=lambda c: _return_key(c, trump, jd_free))
        else:
            card = min(costs, key=lambda c: (costs[c], _LOW_RANK[trump][c]))
        chosen.append(card)
        once, twice = ms_remove(once, twice, card)
    return chosen


def cards_text(cards: Sequence[int]) -> str:
    """Cards as text, for explanations and error messages."""
    return " ".join(str(Card(c)) for c in cards)


# -- the skilled card play (docs/players.md skilled) --------------------------------


def _points_key(card: int, trump: int, points: Sequence[int]) -> tuple[bool, int, int]:
    """The *smear order*: non-trumps first, then the most trick points, then the
    lowest-card order (docs/players.md skilled)."""
    return (card // 6 == trump, -points[card], _LOW_RANK[trump][card])


def _keep_key(card: int, trump: int, counters: int) -> tuple[bool, int]:
    """The *shed order*: non-counters first, then the lowest-card order."""
    return (bool(counters >> card & 1), _LOW_RANK[trump][card])


def _least(mask: int, key: Callable[[int], tuple[int | bool, ...]]) -> int:
    return min(kinds(mask), key=key)


_ACES: Final = sum(1 << (s * 6 + Rank.ACE) for s in range(4))


def stays_on_top(card: int, opponents: Sequence[int], possible: Sequence[int]) -> bool:
    """Whether no opponent still to play possibly holds a higher card of ``card``'s
    suit (trumping in is not considered: docs/players.md skilled "on top")."""
    return not any(possible[o] & above_mask(card) for o in opponents)


def holds_trick(card: int, led: int, trump: int, opponents: Sequence[int],
                possible: Sequence[int], known_once: Sequence[int]) -> bool:
    """Whether ``card``, now winning a trick whose suit led is ``led``, is sure to
    take it: the test of :func:`is_guaranteed` for a card already played."""
    threats = beat_mask(card, trump)
    for opponent in opponents:
        playable = SUIT_MASKS[led]
        if led != trump and not known_once[opponent] & SUIT_MASKS[led]:
            playable |= SUIT_MASKS[trump]
        if possible[opponent] & playable & threats:
            return False
    return True


def skilled_lead(legal: int, trump: int, opponents: Sequence[int], possible: Sequence[int],
                 known_once: Sequence[int], declaring: bool, partner_voids: int,
                 counters: int) -> int:
    """docs/players.md skilled **Leading**: the first of these rules that gives a card.

    1. the highest non-trump guaranteed to take the trick;
    2. declaring side, while an opponent possibly holds a trump: the highest trump
       guaranteed to take the trick;
    3. partner void in a non-trump suit (``partner_voids``, a 4-bit set) and not
       in trump: the lowest card of such suits;
    4. the highest non-trump ace;
    5. the non-trump non-counters: the lowest;
    6. the lowest card by the shed order (non-counters first, then lowest).
    """
    trumps = legal & SUIT_MASKS[trump]
    plain = legal & ~trumps
    sure = _guaranteed_mask(plain, (), trump, opponents, possible, known_once)
    if sure:
        return highest(sure, trump)
    if declaring and trumps and any(possible[o] & SUIT_MASKS[trump] for o in opponents):
        for card in HIGH_ORDER[trump]:
            if trumps >> card & 1 and is_guaranteed(card, (), trump, opponents, possible,
                                                    known_once):
                return card
    if not partner_voids >> trump & 1:
        ruffs = plain & void_cards(partner_voids & ~(1 << trump))
        if ruffs:
            return lowest(ruffs, trump)
    aces = plain & _ACES
    if aces:
        return highest(aces, trump)
    if plain & ~counters:
        return lowest(plain & ~counters, trump)
    return _least(legal, lambda c: _keep_key(c, trump, counters))


def skilled_follow(legal: int, trick: Sequence[int], trump: int, partner_winning: bool,
                   last: bool, points: Sequence[int], opponents: Sequence[int],
                   possible: Sequence[int], known_once: Sequence[int]) -> int:
    """docs/players.md skilled **Following**.

    ``opponents`` are those still to play after this seat; ``possible`` and
    ``known_once`` the seat's memory of them. The first rule that applies:

    1. partner's card is sure to take the trick: smear (the smear order);
    2. a legal card beats the card now winning: last to play, the lowest such
       card; else the lowest one guaranteed to take the trick; else the highest;
    3. partner's card is winning and on top of its suit: the lowest counter
       (the lowest card if none);
    4. otherwise: the lowest card by the shed order (non-counters first).
    """
    counters = counter_mask(points)
    win = trick[winner_index(trick, trump)]
    led = trick[0] // 6
    if partner_winning and holds_trick(win, led, trump, opponents, possible, known_once):
        return _least(legal, lambda c: _points_key(c, trump, points))
    winners = legal & beat_mask(win, trump)
    if winners:
        if last:
            return lowest(winners, trump)
        sure = _guaranteed_mask(winners, trick, trump, opponents, possible, known_once)
        return lowest(sure, trump) if sure else highest(winners, trump)
    if partner_winning and stays_on_top(win, opponents, possible):
        return lowest(legal & counters, trump) if legal & counters else lowest(legal, trump)
    return _least(legal, lambda c: _keep_key(c, trump, counters))
