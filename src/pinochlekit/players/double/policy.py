"""The double-deck sampler and play-outs behind ``standard`` and ``pro`` (docs/rules.md §5, §6).

Cards are kinds 0-23 as everywhere (suit ``k // 6``, rank ``k % 6``; the nines never
appear); a hand is a list of 24 copy counts (0 to 4). The play rules are the
engine's (:func:`~pinochlekit.engine.tricks.follow_mask` on the mask of kinds held),
so the play-outs play the game the engine plays. :func:`playout` runs in the C core
``pinochlekit.native._doublecore`` when it is built (and ``PINOCHLEKIT_PURE_PYTHON``
is not set), else :func:`python_playout`, the reference; tests/test_doublecore.py
checks that both give the same points.

>>> from pinochlekit.engine.double.game import DoubleDeckGame
>>> game = DoubleDeckGame.new("doubledeck", seed=3)
>>> view = game.view(game.to_act)
>>> sum(sum(h) for h in sample_hands(view, Random(1)))
80
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from types import ModuleType

from pinochlekit.engine.cards import SUIT_MASKS
from pinochlekit.engine.double.cards import COPIES, DOUBLE_KINDS
from pinochlekit.engine.double.game import COUNTER_POINTS, LAST_TRICK
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.scoring import meld_saved
from pinochlekit.engine.tricks import follow_mask, winner_index
from pinochlekit.engine.views import View
from pinochlekit.native import load
from pinochlekit.players.policy import counter_mask, highest, standard_follow

__all__ = ["COUNTERS", "core", "kinds_mask", "played_counts", "playout", "python_playout",
           "round_score", "sample_hands", "standard_card", "voids"]

#: The mask of the counters (A, 10, K: docs/rules.md §6).
COUNTERS = counter_mask(COUNTER_POINTS)

#: ``pinochlekit.native._doublecore`` when it is built and allowed, else ``None`` (read
#: at each call, so a test may set it to ``None``).
core: ModuleType | None = load("_doublecore")


def kinds_mask(counts: Sequence[int]) -> int:
    """The mask of the kinds held at least once."""
    mask = 0
    for kind in DOUBLE_KINDS:
        if counts[kind]:
            mask |= 1 << kind
    return mask


def played_counts(view: View) -> list[int]:
    """How many copies of each kind have been played this hand (tricks and trick)."""
    counts = [0] * 24
    for trick in view.tricks:
        for card in trick.cards:
            counts[card] += 1
    for _, card in view.trick:
        counts[card] += 1
    return counts


def voids(view: View) -> list[int]:
    """For each seat, the mask of suits it has shown it cannot hold: it did not
    follow the suit led, and trump too when it neither followed nor trumped
    (docs/rules.md §1.9 play rules)."""
    out = [0, 0, 0, 0]
    trump = -1 if view.trump is None else int(view.trump)
    tricks = [list(zip(t.seats, t.cards, strict=True)) for t in view.tricks]
    if view.trick:
        tricks.append(list(view.trick))
    for trick in tricks:
        led = trick[0][1] // 6
        for seat, card in trick[1:]:
            if card // 6 != led:
                out[seat] |= 1 << led
                if card // 6 != trump:
                    out[seat] |= 1 << trump
    return out


def sample_hands(view: View, rng: Random) -> list[list[int]]:
    """A deal of the unseen cards to the other seats, consistent with the cards each
    holds and the suits each has shown void in; the seat's own hand as it is *(ours:
    meld shown on the table is not placed)*."""
    assert view.seat is not None and view.hand is not None
    seat = view.seat
    hands = [[0] * 24 for _ in range(4)]
    hands[seat] = [view.hand.count(k) for k in range(24)]
    played = played_counts(view)
    unseen: list[int] = []
    for kind in DOUBLE_KINDS:
        unseen += [kind] * (COPIES - played[kind] - hands[seat][kind])
    rng.shuffle(unseen)
    need = [0 if s == seat else view.hand_sizes[s] for s in range(4)]
    void = voids(view)
    others = [s for s in range(4) if s != seat]
    # Most constrained cards first: each goes to a random seat that may hold it and has room.
    leftovers: list[int] = []
    for card in unseen:
        room = [s for s in others if need[s] and not void[s] >> (card // 6) & 1]
        if not room:
            leftovers.append(card)
            continue
        taker = room[rng.randrange(len(room))]
        hands[taker][card] += 1
        need[taker] -= 1
    for card in leftovers:  # an inconsistent corner: fill any seat with room
        taker = next(s for s in others if need[s])
        hands[taker][card] += 1
        need[taker] -= 1
    return hands


def standard_card(legal: int, trick: Sequence[int], trump: int, partner_winning: bool,
                  last: bool) -> int:
    """docs/players.md standard card play on the double deck: leading, the highest
    non-trump (the highest trump when only trumps are left); following, the rule of
    :func:`~pinochlekit.players.policy.standard_follow`."""
    if not trick:
        plain = legal & ~SUIT_MASKS[trump]
        return highest(plain, trump) if plain else highest(legal, trump)
    return standard_follow(legal, trick, trump, partner_winning, last, COUNTERS)


def playout(hands: list[list[int]], trick: list[tuple[int, int]], leader: int, trump: int,
            flags: tuple[bool, bool, bool, bool], taken: Sequence[int]) -> list[int]:
    """:func:`python_playout`, in the C core when it is there (the same points; the C
    core leaves ``hands`` as they were). ``ValueError`` from the C core if a seat must
    play from an empty hand (hands that do not agree with the trick)."""
    if core is not None:
        result: list[int] = core.playout(hands, trick, leader, trump, flags, taken)
        return result
    return python_playout(hands, trick, leader, trump, flags, taken)


def python_playout(hands: list[list[int]], trick: list[tuple[int, int]], leader: int,
                   trump: int, flags: tuple[bool, bool, bool, bool], taken: Sequence[int]
                   ) -> list[int]:
    """Play the hand out with every seat on :func:`standard_card`; the trick points
    of each team (``taken`` already taken before), last trick included
    (docs/rules.md §6). ``hands`` is consumed."""
    points = list(taken)
    masks = [kinds_mask(h) for h in hands]
    seats = [s for s, _ in trick]
    cards = [c for _, c in trick]
    turn = (seats[-1] + 1) % 4 if seats else leader
    left = sum(hands[turn])
    while True:
        while len(cards) < 4:
            if cards:
                high = cards[winner_index(cards, trump)]
                legal = follow_mask(masks[turn], cards[0] // 6, high, trump, flags)
                partner = len(seats) >= 1 and seats[winner_index(cards, trump)] == (turn + 2) % 4
            else:
                legal, partner = masks[turn], False
            card = standard_card(legal, cards, trump, partner, len(cards) == 3)
            hand = hands[turn]
            hand[card] -= 1
            if not hand[card]:
                masks[turn] &= ~(1 << card)
            cards.append(card)
            seats.append(turn)
            turn = (turn + 1) % 4
        winner = seats[winner_index(cards, trump)]
        won = sum(COUNTER_POINTS[c] for c in cards)
        if not sum(hands[winner]) and not any(sum(h) for h in hands):
            won += LAST_TRICK
            points[winner % 2] += won
            return points
        points[winner % 2] += won
        cards, seats, turn = [], [], winner
        left -= 1
        if left < 0:  # never: every hand empties together
            return points


def round_score(team_meld: int, points: int, rules: Rules) -> int:
    """docs/rules.md §5 "round score" on the double deck (§6 scoring): what the team
    takes, meld (when the engine's :func:`~pinochlekit.engine.scoring.meld_saved` says
    its counters saved it) plus trick points; as in §5, no set penalty."""
    return (team_meld if meld_saved(rules, points) else 0) + points

