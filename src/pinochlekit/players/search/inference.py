"""Inference for the ``expert`` player: how likely a sampled deal makes what a seat saw.

The hidden-card sampler (:mod:`pinochlekit.players.search.sampler`) already deals only
hands that agree with every hard fact of the play: voids shown, cards a player
could not beat under the must-beat rules, meld on the table, the cards the two
partners passed. Two more things a strong player reads are weighed here, as an
importance weight on each sampled deal:

- **the meld not shown** (hard): a player melds its best meld (docs/rules.md §1
  Meld), so at meld time its hand (its current cards plus those it has played
  since) had exactly the meld points it showed; a deal that gives a seat a
  marriage or a pinochle it did not show gets weight 0;
- **the auction** (soft): a player who bids ``a`` tends to hold a hand worth
  about ``a``; one who passes when the lowest bid was ``b`` tends not to. Each
  call of each other seat multiplies the weight by a logistic likelihood
  ``sigmoid((worth - amount) / SCALE)`` for a bid, ``1 - sigmoid(...)`` for a
  pass, where ``worth`` is the hand's best meld over the four trump suits plus
  :data:`OFFSET` (the trick points and the partner's help a bidder counts on).
  A "pass with help" (docs/rules.md §2) says the hand holds meld for a partner:
  the likelihood of its best meld being at least :data:`HELP_MELD`.
  Three-handed (docs/rules.md §3: no passing) the calls are also read during the
  play, on each seat's dealt hand (current cards plus those played), except
  the declarer's once it has taken the widow and discarded.

Deals are then averaged with these weights (self-normalized importance
sampling). :func:`log_gain` measures what the inference adds: how much
more probable the weighted sampler makes the true hidden hands than the
uniform one, in natural-log units, ``log w(true) - log E_uniform[w]``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pinochlekit.engine.actions import Bid, Pass
from pinochlekit.engine.cards import Hand
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.views import Phase, View
from pinochlekit.players.policy import meld_points
from pinochlekit.players.search.sampler import Knowledge, knowledge, sample_deal

__all__ = ["HELP_MELD", "OFFSET", "SCALE", "Inference", "log_gain", "meld_function",
           "sigmoid", "weighted_deals"]

#: Points a bidder counts on beyond its own meld (trick points and partner's meld):
#: with the round score of docs/rules.md §5, standard's and pro's bids lie a median
#: 180 to 200 points above their best meld and their passes 230 to 240 above
#: (``python bench/auction_calibration.py``); 60 fitted the old reading, whose
#: levels hardly bid. This and the two below are in the ordinary scale (divided by
#: ten where the rules divide by ten).
OFFSET = 200
#: Softness of the auction likelihood, in points.
SCALE = 40
#: The meld a "pass with help" promises.
HELP_MELD = 40

Deal = tuple[Hand, ...]

_MeldFn = Callable[[Hand, int], int]


def meld_function(rules: Rules) -> _MeldFn:
    """Meld points of a hand with a trump: the C core when built, else the engine."""
    try:
        from pinochlekit.players.search import fastcore
    except ImportError:
        return lambda hand, trump: meld_points(hand.once, hand.twice, trump, rules)
    return lambda hand, trump: fastcore.meld(rules, hand, trump).points


def sigmoid(x: float) -> float:
    """The logistic function, without overflow for large ``|x|``."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


@dataclass
class _Call:
    seat: int
    amount: int  # the bid, or the lowest bid the seat declined
    bid: bool
    help: bool


class Inference:
    """The weight of a sampled current deal given what ``view.seat`` saw.

    ``auction`` and ``meld`` switch the two sources of evidence on or off
    (for measurement). The auction is used only before the play, when the
    current hands are the dealt ones (docs/rules.md §1: passing comes after the
    auction, so during the play the passed cards blur it).
    """

    def __init__(self, view: View, *, auction: bool = True, meld: bool = True) -> None:
        if view.seat is None:
            raise ValueError("inference needs a seat's view, not a spectator's")
        self.view = view
        self.seat = view.seat
        self.rules = view.rules
        self._meld = meld_function(view.rules)
        self._cache: dict[tuple[int, int], int] = {}
        before_passing = view.phase in (Phase.AUCTION, Phase.TRUMP, Phase.DISCARD) or (
            view.phase is Phase.GIVE and view.rules.cards_passed == 0)
        played = [Hand() for _ in range(view.rules.players)]
        for trick in view.tricks:
            for s, c in zip(trick.seats, trick.cards, strict=True):
                played[s] = played[s].add(int(c))
        for s, c in view.trick:
            played[s] = played[s].add(int(c))
        #: Cards each seat played so far: added back to its current cards, they give
        #: the dealt hand that its calls speak of (three-handed play, below).
        self.played = played
        three_in_play = bool(view.rules.widow_size) and view.phase is Phase.PLAY
        self.calls = self._calls(view) if auction and (before_passing or three_in_play) else []
        if three_in_play:
            # docs/rules.md §3: no passing, so a seat's dealt hand is its current cards plus
            # those it played, except the declarer's once it took the widow and
            # discarded (unknown to the others): its calls are not read then.
            self.calls = [c for c in self.calls if view.rules.widow != "take"
                          or c.seat != view.declarer]
        self.in_play = three_in_play
        self.melded: list[tuple[int, int, Hand, int]] = []  # seat, points, played, trump
        if meld and view.melds is not None and view.trump is not None:
            for s, result in enumerate(view.melds):
                if s != self.seat:
                    self.melded.append((s, result.points, played[s], int(view.trump)))

    def _calls(self, view: View) -> list[_Call]:
        rules = view.rules
        calls: list[_Call] = []
        high = 0
        for seat, action in view.auction:
            lowest = rules.opening_bid if not high else high + rules.step  # the game's scale
            if isinstance(action, Bid):
                if seat != self.seat:
                    calls.append(_Call(seat, action.amount, True, False))
                high = action.amount
            elif isinstance(action, Pass) and seat != self.seat:
                calls.append(_Call(seat, lowest, False, bool(getattr(action, "help", False))))
        return calls

    def best_meld(self, hand: Hand) -> int:
        """The hand's best meld over the four trump suits (memoized)."""
        key = (hand.once, hand.twice)
        value = self._cache.get(key)
        if value is None:
            value = max(self._meld(hand, t) for t in range(4))
            self._cache[key] = value
        return value

    def weight(self, deal: Sequence[Hand]) -> float:
        """The likelihood of what the seat saw, given the current hands ``deal``
        (up to a constant factor)."""
        for s, points, played, trump in self.melded:
            if self._meld(deal[s] + played, trump) != points:
                return 0.0  # it would have shown more (or other) meld
        w = 1.0
        unit = self.rules.unit  # meld and bids are in the game's scale (§2 divide by ten)
        scale, offset, help_meld = SCALE / unit, OFFSET / unit, HELP_MELD / unit
        for call in self.calls:
            dealt = deal[call.seat] + self.played[call.seat] if self.in_play else deal[call.seat]
            best = self.best_meld(dealt)
            if call.help:
                w *= sigmoid((best - help_meld) / (scale / 2))
                continue
            p = sigmoid((best + offset - call.amount) / scale)
            w *= p if call.bid else 1.0 - p
        return w

    @property
    def active(self) -> bool:
        """Whether any evidence is weighed (else every weight is 1)."""
        return bool(self.calls or self.melded)


def weighted_deals(view: View, rng: random.Random, n: int,
                   inference: Inference | None = None,
                   known: Knowledge | None = None) -> tuple[list[Deal], list[float]]:
    """``n`` deals from the exact sampler and their normalized weights (summing to
    1). If every deal has weight 0 (the evidence model is wrong for this table),
    the weights fall back to uniform."""
    known = known or knowledge(view)
    deals = [sample_deal(known, rng) for _ in range(n)]
    if inference is None or not inference.active:
        return deals, [1.0 / n] * n
    weights = [inference.weight(d) for d in deals]
    total = sum(weights)
    if total <= 0:
        return deals, [1.0 / n] * n
    return deals, [w / total for w in weights]


def log_gain(view: View, truth: Sequence[Hand], rng: random.Random, n: int = 400,
             **switches: bool) -> float:
    """How much more likely the weighted sampler makes the true current hands
    ``truth`` than the uniform sampler does, in nats: ``log w(truth)`` minus the
    log of the mean weight of ``n`` uniform deals (which estimates the
    normalizing constant). ``switches`` are :class:`Inference`'s ``auction`` and
    ``meld``. ``-inf`` if the weighting rules the truth out."""
    inference = Inference(view, **switches)
    w_true = inference.weight(truth)
    if w_true <= 0:
        return float("-inf")
    known = knowledge(view)
    mean = sum(inference.weight(sample_deal(known, rng)) for _ in range(n)) / n
    return math.log(w_true) - math.log(mean) if mean > 0 else float("inf")
