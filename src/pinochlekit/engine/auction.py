"""How an auction goes on after a call: the rule every game with an auction shares
(docs/rules.md §1.4 Auction; the three-handed game of §3 and the double deck of §6
use it unchanged).

A pass is final. When every seat but one has passed, the one left wins at the
high bid; if nobody bid, the dealer is stuck at the minimum (or, without
``dealer_stuck``, may still bid). When every seat has passed the deal is passed out.
Otherwise the turn goes to the next seat on the left that has not passed.

``after_call(passed, high_bidder, dealer, dealer_stuck, seat)``:

>>> after_call([False, True, True, True], 0, 3, True, 3)
(<AuctionEnd.WON: 'won'>, 0)
>>> after_call([True, True, True, False], None, 3, True, 2)
(<AuctionEnd.STUCK: 'stuck'>, 3)
>>> after_call([True, True, False, False], 2, 3, True, 1)
(None, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

__all__ = ["AuctionEnd", "after_call"]


class AuctionEnd(Enum):
    """How an auction ended (see :func:`after_call`)."""

    #: The last seat not passed won at the high bid.
    WON = "won"
    #: Nobody bid: the dealer takes the contract at the minimum.
    STUCK = "stuck"
    #: Every seat passed: nothing is played and the deal moves on.
    PASSED_OUT = "passed out"


_WON, _STUCK, _PASSED_OUT = AuctionEnd.WON, AuctionEnd.STUCK, AuctionEnd.PASSED_OUT


def after_call(passed: Sequence[bool], high_bidder: int | None, dealer: int,
               dealer_stuck: bool, seat: int, /) -> tuple[AuctionEnd | None, int]:
    """What follows the call ``seat`` just made, ``passed`` saying who has passed
    (that call included) and ``high_bidder`` who holds the high bid (``None``: no
    bid yet): the auction's end and the declarer (-1 when passed out), or ``None``
    and the next seat to call (positional only: it is on the engine's hot path)."""
    n = len(passed)
    passes = passed.count(True)
    if passes == n - 1:
        if high_bidder is not None:
            return _WON, high_bidder
        if dealer_stuck:
            return _STUCK, dealer
    elif passes == n:
        return _PASSED_OUT, -1
    nxt = (seat + 1) % n
    while passed[nxt]:
        nxt = (nxt + 1) % n
    return None, nxt
