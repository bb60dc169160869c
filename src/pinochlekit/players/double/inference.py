"""Auction inference for the double deck's ``expert``: how likely a sampled deal makes
the calls a seat heard (docs/rules.md §6 auction).

The sampler (:mod:`pinochlekit.players.double.sampler`) deals only hands that agree
with every hard fact: the cards played, the voids and must-beat facts, the passed
cards, the meld shown (mended to agree). The auction is soft evidence, read as the
single deck's expert reads it (:mod:`pinochlekit.players.search.inference`): a player
who bids ``a`` tends to hold a hand worth about ``a``, one who passes when the lowest
bid was ``b`` tends not to. Each call of each other seat multiplies a deal's weight
by ``sigmoid((worth - amount) / SCALE)`` for a bid and ``1 - sigmoid(...)`` for a
pass, where ``worth`` is the seat's best meld over the four trump suits in the hand
it was dealt plus :data:`OFFSET` (the counters and the partner's meld a bidder
counts on) *(ours: the single deck's model, fitted to the double deck's levels by
``python bench/double_inference.py``)*.

The dealt hand is the current hand plus the cards the seat has played; where cards
were passed (the ``cards_passed`` option) the declarer's and its partner's hands
changed after the auction, so their calls are read only before the passing.

The expert draws :data:`OVERSAMPLE` times the deals it needs and keeps as many by
systematic resampling on these weights (:func:`resample`), so that the rest of its
search sees equally weighted deals.

>>> from pinochlekit.engine.double.game import DoubleDeckGame
>>> game = DoubleDeckGame.new("doubledeck", seed=3)
>>> DoubleInference(game.view(game.to_act)).active  # nobody has called yet
False
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence

from pinochlekit.engine.actions import Bid, Pass
from pinochlekit.engine.double.game import bid_ladder
from pinochlekit.engine.double.meld import meld_table
from pinochlekit.engine.views import Phase, View
from pinochlekit.players.double.mend import best_table_meld
from pinochlekit.players.double.sampler import played_by_seat
from pinochlekit.players.search.inference import sigmoid

__all__ = ["OFFSET", "OVERSAMPLE", "SCALE", "DoubleInference", "resample"]

#: Points a double-deck bidder counts on beyond its own best meld (fitted: see the
#: module docstring).
OFFSET = 36
#: Softness of the likelihood, in points (``pro`` alone fits 3, ``expert`` 15: the
#: pooled fit, since a seat's level is not known).
SCALE = 8
#: Deals drawn per deal kept.
OVERSAMPLE = 2

Counts = list[list[int]]


class DoubleInference:
    """The weight of a sampled current deal given the calls ``view.seat`` heard."""

    def __init__(self, view: View, offset: float = OFFSET, scale: float = SCALE) -> None:
        if view.seat is None:
            raise ValueError("inference needs a seat's view, not a spectator's")
        self.seat = view.seat
        self.offset, self.scale = offset, scale
        self.values = meld_table(view.rules)
        self.played = played_by_seat(view)  # a seat was dealt its current hand and these
        ladder = bid_ladder(view.rules)
        # docs/rules.md §6 passing: once the partner has given, the declarer's and its
        # partner's hands are no longer those they bid with
        moved = bool(view.rules.cards_passed) and view.phase not in (
            Phase.AUCTION, Phase.TRUMP, Phase.GIVE)
        changed = set() if not moved or view.declarer is None else {
            view.declarer, (view.declarer + 2) % 4}
        # Per seat, its highest bid (its hand is worth at least that) and the bid it
        # declined (worth less): the rungs it bid on the way say no more.
        bids: dict[int, int] = {}
        declined: dict[int, int] = {}
        high = 0
        for number, (seat, action) in enumerate(view.auction):
            rung = bisect_right(ladder, high)  # the lowest bid open, if any
            if isinstance(action, Bid):
                # a forced opening (first_bid_required, docs/rules.md §6) says nothing
                if not (number == 0 and view.rules.first_bid_required):
                    bids[seat] = action.amount
                high = action.amount
            elif isinstance(action, Pass) and rung < len(ladder):  # else it says nothing
                declined[seat] = ladder[rung]
        #: (seat, amount, whether a bid): the highest bid, or the lowest bid declined.
        self.calls: list[tuple[int, int, bool]] = [
            (seat, amount, True) for seat, amount in sorted(bids.items())
            if seat != self.seat and seat not in changed] + [
            (seat, amount, False) for seat, amount in sorted(declined.items())
            if seat != self.seat and seat not in changed]

    @property
    def active(self) -> bool:
        """Whether any call is weighed (else every weight is 1)."""
        return bool(self.calls)

    def worth(self, deal: Counts, seat: int) -> float:
        """``seat``'s best meld in the hand it was dealt, plus :data:`OFFSET`."""
        dealt = [n + p for n, p in zip(deal[seat], self.played[seat], strict=True)]
        return best_table_meld(self.values, dealt) + self.offset

    def weight(self, deal: Counts) -> float:
        """The likelihood of the calls heard, given the current hands ``deal`` (up to a
        constant factor)."""
        worths: dict[int, float] = {}
        w = 1.0
        for seat, amount, bid in self.calls:
            if seat not in worths:
                worths[seat] = self.worth(deal, seat)
            p = sigmoid((worths[seat] - amount) / self.scale)
            w *= p if bid else 1.0 - p
        return w


def resample(deals: Sequence[Counts], weights: Sequence[float], n: int,
             rng: random.Random) -> list[Counts]:
    """``n`` of ``deals`` drawn in proportion to ``weights`` by systematic resampling
    (one random number); the first ``n`` if every weight is 0.

    >>> resample([[[1]], [[2]], [[3]]], [0.0, 1.0, 0.0], 2, random.Random(1))
    [[[2]], [[2]]]
    """
    total = sum(weights)
    if n <= 0:
        return []
    if total <= 0:
        return list(deals[:n])
    step = total / n
    point = rng.random() * step
    out: list[Counts] = []
    acc = 0.0
    for deal, w in zip(deals, weights, strict=True):
        acc += w
        while point < acc and len(out) < n:
            out.append(deal)
            point += step
    heaviest = max(range(len(deals)), key=weights.__getitem__)
    while len(out) < n:  # rounding at the end
        out.append(deals[heaviest])
    return out
