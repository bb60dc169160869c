"""``standard`` and ``pro`` in the double deck (docs/rules.md §5 applied to §6).

003's descriptions apply unchanged to the 80-card game: the bid is the greatest
amount the simulated round score reaches at the level's percentage (83 for
``standard``, 75 for ``pro``), the auction habits of §5 (a redeal never exists
here; do not outbid a partner whom both opponents have passed), trump the suit
with the highest willing bid, passing non-meld cards, and the card play rules.
``pro`` first drops every card whose simulated round score is more than half a
point below the best card's. The simulations are the play-outs of
:mod:`pinochlekit.players.double.policy`; the budgets are the double deck's own
(:data:`BID_DEALS`, :data:`PRO_DEALS`), smaller than the single deck's so that a
500-pair match runs on one core (docs/double-deck.md).

:class:`DoubleStandard` is the per-game player ``standard`` and ``pro`` hand the
double deck's views to (:class:`~pinochlekit.players.base.Level`).

>>> from random import Random
>>> from pinochlekit.engine.double.game import DoubleDeckGame
>>> game = DoubleDeckGame.new("doubledeck", seed=3)
>>> action, reason = double_standard(game.view(game.to_act), Random(1), pro=False)
>>> action in game.legal_actions()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from pinochlekit.engine.actions import PLAYS, Action, Bid, Give, NameTrump, Pass, Play, Return
from pinochlekit.engine.cards import ALL_CARDS, SUIT_MASKS, Suit
from pinochlekit.engine.double.cards import COPIES, DOUBLE_KINDS, DoubleHand
from pinochlekit.engine.double.meld import double_meld
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.tricks import play_flags, winner_index
from pinochlekit.engine.views import Phase, View
from pinochlekit.players.base import GamePlayer
from pinochlekit.players.double.policy import (
    COUNTERS,
    played_counts,
    playout,
    round_score,
    sample_hands,
    standard_card,
    voids,
)
from pinochlekit.players.policy import HIGH_ORDER, beat_mask, highest, lowest, standard_give_key

__all__ = ["BID_DEALS", "PRO_DEALS", "DoubleBidTable", "DoubleStandard", "double_standard",
           "guaranteed", "meld_loss_order"]

#: Simulated deals per suit in the bidding simulation: standard, pro (docs/double-deck.md).
BID_DEALS = {False: 20, True: 40}
#: Deals per decision in pro's card filter (the same deals serve every card).
PRO_DEALS = 16

#: What a player keeps for the rest of the auction: (hand key, {suit: (willing, mean)}).
DoubleBidTable = tuple[tuple[int, int, tuple[int, ...], tuple[int, ...]],
                       dict[int, tuple[int, float]]]


def _counts(view: View) -> list[int]:
    assert view.hand is not None
    return [view.hand.count(k) for k in range(24)]


def _meld(counts: Sequence[int], trump: int, rules: Rules) -> int:
    return double_meld(DoubleHand(counts), trump, rules).points


def _willing(scores: Sequence[int], level: int) -> int:
    """The greatest score reached in more than ``level`` percent of ``scores``
    (docs/players.md standard **Bid**; the double deck bids by single points)."""
    need = level * len(scores) // 100 + 1
    return sorted(scores, reverse=True)[need - 1]


def bid_table(view: View, rng: Random, pro: bool) -> dict[int, tuple[int, float]]:
    """The bidding simulation: for each suit, :data:`BID_DEALS` rounds with the seat
    as declarer and that suit trump, every seat playing standard card play; the
    round score is what the team takes (docs/rules.md §5: meld + trick points).
    The same deals serve every suit *(ours)*."""
    assert view.seat is not None
    seat, rules = view.seat, view.rules
    flags = play_flags(rules)
    deals = [sample_hands(view, rng) for _ in range(BID_DEALS[pro])]
    level = 75 if pro else 83
    table: dict[int, tuple[int, float]] = {}
    for suit in range(4):
        scores = []
        for deal in deals:
            meld = _meld(deal[seat], suit, rules) + _meld(deal[(seat + 2) % 4], suit, rules)
            points = playout([list(h) for h in deal], [], seat, suit, flags, (0, 0))
            scores.append(round_score(meld, points[seat % 2], rules))
        table[suit] = (_willing(scores, level), sum(scores) / len(scores))
    return table


def meld_loss_order(counts: Sequence[int], trump: int, rules: Rules, count: int,
                    key_of: object) -> list[int]:
    """``count`` cards chosen one at a time: the card whose loss costs the least meld,
    ties by ``key_of(card, trump)`` (docs/rules.md §5: pass cards outside the meld)."""
    assert callable(key_of)
    hand = list(counts)
    chosen: list[int] = []
    for _ in range(count):
        base = _meld(hand, trump, rules)
        best: tuple[object, ...] | None = None
        pick = -1
        for kind in DOUBLE_KINDS:
            if not hand[kind]:
                continue
            hand[kind] -= 1
            loss = base - _meld(hand, trump, rules)
            hand[kind] += 1
            key = (loss, key_of(kind, trump))
            if best is None or key < best:
                best, pick = key, kind
        hand[pick] -= 1
        chosen.append(pick)
    return chosen


def _return_key(card: int, trump: int) -> tuple[bool, bool, int]:
    # docs/rules.md §5 passing back: keep trump and counters, return low plain cards.
    return (card // 6 == trump, bool(COUNTERS >> card & 1), card % 6)


def guaranteed(card: int, view: View, unseen: Sequence[int]) -> bool:
    """Whether leading ``card`` is guaranteed to take the trick: no unseen card
    beats it (an identical card played later loses, docs/rules.md §1.9), and for a
    non-trump, no opponent has shown a void in its suit while trumps are unseen."""
    assert view.seat is not None and view.trump is not None
    trump = int(view.trump)
    suit = card // 6
    threats = beat_mask(card, trump) & (SUIT_MASKS[suit] | SUIT_MASKS[trump])
    if any(unseen[k] for k in range(24) if threats >> k & 1 and k // 6 == suit):
        return False
    if suit != trump and any(unseen[k] for k in range(24) if k // 6 == trump):
        void = voids(view)
        if any(void[o] >> suit & 1 for o in ((view.seat + 1) % 4, (view.seat + 3) % 4)):
            return False
    return True


def _unseen(view: View) -> list[int]:
    played = played_counts(view)
    mine = _counts(view)
    return [COPIES - played[k] - mine[k] if k in DOUBLE_KINDS else 0 for k in range(24)]


def _lead(view: View, allowed: int, pro: bool) -> tuple[int, str]:
    assert view.trump is not None
    trump = int(view.trump)
    unseen = _unseen(view)
    trumps = allowed & SUIT_MASKS[trump]
    for card in HIGH_ORDER[trump]:
        if trumps >> card & 1 and guaranteed(card, view, unseen):
            return card, "lead: the highest trump guaranteed to take the trick"
    if pro:
        for card in HIGH_ORDER[trump]:
            if allowed >> card & 1 and guaranteed(card, view, unseen):
                return card, "lead: the highest card guaranteed to take the trick"
        return lowest(allowed, trump), "lead: nothing is guaranteed, the lowest card"
    plain = allowed & ~SUIT_MASKS[trump]
    if plain:
        return highest(plain, trump), "lead: the highest non-trump"
    return highest(allowed, trump), "lead: the highest card"


def _filter(view: View, allowed: int, rng: Random) -> int:
    """pro: the cards whose mean round score over :data:`PRO_DEALS` play-outs is at
    most half a point below the best card's (docs/rules.md §5; every point is 1 in
    the double deck, so "more than half a point lower" is any lower mean that is
    not within 0.5)."""
    assert view.seat is not None and view.trump is not None and view.melds is not None
    seat, rules, trump = view.seat, view.rules, int(view.trump)
    flags = play_flags(rules)
    deals = [sample_hands(view, rng) for _ in range(PRO_DEALS)]
    team = seat % 2
    meld = view.melds[team].points + view.melds[team + 2].points
    taken = [0, 0]
    for t in view.tricks:
        taken[t.winner % 2] += t.points
    leader = view.tricks[-1].winner if view.tricks else (view.declarer or 0)
    totals: dict[int, int] = {}
    for card in range(24):
        if not allowed >> card & 1:
            continue
        total = 0
        for deal in deals:
            hands = [list(h) for h in deal]
            hands[seat][card] -= 1
            trick = [*view.trick, (seat, card)]
            if len(trick) == 4:  # the trick is complete: score it and go on
                cards = [c for _, c in trick]
                winner = trick[winner_index(cards, trump)][0]
                extra = list(taken)
                done = not any(sum(h) for h in hands)
                extra[winner % 2] += sum(1 for c in cards if COUNTERS >> c & 1) + (2 if done else 0)
                points = extra if done else playout(hands, [], winner, trump, flags, extra)
            else:
                points = playout(hands, trick, leader, trump, flags, taken)
            total += round_score(meld, points[team], rules)
        totals[card] = total
    best = max(totals.values())
    return sum(1 << c for c, t in totals.items() if (best - t) * 2 <= len(deals))


def double_standard(view: View, rng: Random, pro: bool,
                    store: list[DoubleBidTable] | None = None) -> tuple[Action, str]:
    """The action of ``standard`` (``pro=False``) or ``pro`` in a double-deck view, and
    the rule that chose it. ``store`` (a one-item list) keeps the bidding table for
    the rest of the auction."""
    legal = view.legal_actions
    if not legal or view.hand is None or view.seat is None:
        raise ValueError(f"seat {view.seat} has nothing to do in the {view.phase}")
    rules = view.rules
    if view.phase in (Phase.AUCTION, Phase.TRUMP):
        key = (view.hand_number, view.dealer, tuple(_counts(view)), view.scores)
        if store is not None and store and store[0][0] == key:
            table = store[0][1]
        else:
            table = bid_table(view, rng, pro)
            if store is not None:
                store[:] = [(key, table)]
        if view.phase is Phase.TRUMP:
            suits = [int(a.suit) for a in legal if isinstance(a, NameTrump)]
            suit = max(suits, key=lambda s: (table[s][0], table[s][1], -s))
            return (NameTrump(Suit(suit)),
                    f"willing bid {table[suit][0]} (mean {table[suit][1]:.1f})")
        bids = [a for a in legal if isinstance(a, Bid)]
        if not bids:
            return Pass(), "no higher bid is possible"
        lowest_bid = min(bids, key=lambda b: b.amount)
        if Pass() in legal and _partner_has_it(view):
            return Pass(), "partner holds the high bid and both opponents have passed"
        best = max(w for w, _ in table.values())
        if lowest_bid.amount <= best:
            return lowest_bid, f"the lowest bid, within the maximum willing bid {best}"
        if Pass() not in legal:
            return lowest_bid, f"must open (maximum willing bid {best})"
        return Pass(), f"the lowest bid is above the maximum willing bid {best}"
    assert view.trump is not None
    trump = int(view.trump)
    if view.phase is Phase.GIVE:
        cards = meld_loss_order(_counts(view), trump, rules, rules.cards_passed,
                                standard_give_key)
        return (Give(tuple(ALL_CARDS[c] for c in cards)),
                "non-meld cards, trump and aces first")
    if view.phase is Phase.RETURN:
        cards = meld_loss_order(_counts(view), trump, rules, rules.cards_passed, _return_key)
        return (Return(tuple(ALL_CARDS[c] for c in cards)),
                "non-meld cards, low plain cards first")
    allowed = sum(1 << a.card for a in legal if isinstance(a, Play))
    if pro and allowed & (allowed - 1):
        allowed = _filter(view, allowed, rng) or allowed
    trick = [c for _, c in view.trick]
    if not trick:
        card, reason = _lead(view, allowed, pro)
    else:
        seats = [s for s, _ in view.trick]
        partner = seats[winner_index(trick, trump)] == (view.seat + 2) % 4
        card = standard_card(allowed, trick, trump, partner, len(trick) == 3)
        reason = "follow: the standard following rule"
    return PLAYS[card], reason


class DoubleStandard(GamePlayer):
    """``standard`` (``pro=False``) or ``pro`` in the double deck (:func:`double_standard`),
    drawing from ``rng`` (the level's own generator) and keeping its bidding table for
    the rest of the auction."""

    def __init__(self, rng: Random, pro: bool) -> None:
        self.rng = rng
        self.pro = pro
        self.store: list[DoubleBidTable] = []  # the bidding table, once made

    def choose(self, view: View) -> Action:
        """:func:`double_standard`'s action."""
        return double_standard(view, self.rng, self.pro, self.store)[0]

    def explain(self, view: View) -> str | None:
        """The action and the rule that chose it; leaves the random state and the
        bidding table as they were."""
        state, store = self.rng.getstate(), list(self.store)
        try:
            action, reason = double_standard(view, self.rng, self.pro, self.store)
        finally:
            self.rng.setstate(state)
            self.store[:] = store
        return f"{action}: {reason}"


def _partner_has_it(view: View) -> bool:
    """docs/rules.md §5 habit: partner holds the high bid and both opponents passed."""
    seat = view.seat
    if seat is None or view.high_bidder != (seat + 2) % 4:
        return False
    passed = {s for s, action in view.auction if isinstance(action, Pass)}
    return {(seat + 1) % 4, (seat + 3) % 4} <= passed
