"""The ``pro`` player of docs/rules.md §5 (seed 003), exactly as docs/players.md says.

Like ``standard`` with a bigger bidding simulation at the 75% level, its own
passing orders, and card play that first drops every card whose simulated
round score is clearly worse than the best card's.

>>> from pinochlekit import Game
>>> game = Game.new("pagat", seed=3)
>>> player = ProPlayer(seed=1, bid_sims=8, rollouts=4)
>>> player.choose(game.view(game.to_act)) in game.legal_actions()
True
"""

from __future__ import annotations

from collections.abc import Sequence

from pinochlekit.engine.cards import Hand
from pinochlekit.engine.variants import TwoHanded
from pinochlekit.engine.views import View
from pinochlekit.players.base import PlayerSpecError
from pinochlekit.players.policy import cards_text, pro_lead
from pinochlekit.players.search.backends import simulate_hands
from pinochlekit.players.search.sampler import knowledge, sample_deal
from pinochlekit.players.search.simulate import start_from_view
from pinochlekit.players.standard import StandardPlayer
from pinochlekit.players.two.levels import TwoPro

__all__ = ["ProPlayer", "filter_cards"]


def filter_cards(totals: dict[int, int], rollouts: int, unit: int) -> int:
    """The mask of the cards whose average round score is at most 5 points (0.5 with
    divide by ten, ``unit`` 10) below the best average (docs/players.md pro
    **Trick-taking**; docs/rules.md §5 "more than half a point lower"). ``totals`` holds
    each card's summed round score over ``rollouts`` simulations.

    >>> bin(filter_cards({0: 1000, 1: 900, 2: 1100}, 100, 1))  # averages 10, 9, 11
    '0b111'
    >>> bin(filter_cards({0: 1000, 1: 400, 2: 1100}, 100, 1))  # 4 is 7 below 11
    '0b101'
    """
    best = max(totals.values())
    keep = 0
    for card, total in totals.items():
        # (best - total) / rollouts > 5 / unit, in whole numbers
        if (best - total) * unit <= 5 * rollouts:
            keep |= 1 << card
    return keep


class ProPlayer(StandardPlayer):
    """docs/players.md **pro**.

    ``bid_sims``: simulated rounds of the bidding simulation (default 4,000);
    ``rollouts``: simulations per legal card in the play (default 200).
    """

    name = "pro"
    LEVEL = 75
    BID_SIMS = 4000
    PRO_PASSING = True
    #: Default ``rollouts``.
    ROLLOUTS = 200

    def __init__(self, seed: int | str = 0, *, bid_sims: int | None = None,
                 rollouts: int | None = None) -> None:
        super().__init__(seed, bid_sims=bid_sims)
        rollouts = self.ROLLOUTS if rollouts is None else rollouts
        if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 1:
            raise PlayerSpecError(f"rollouts: must be a whole number of at least 1, not "
                                  f"{rollouts!r}")
        self.rollouts = rollouts
        # Two-handed pro: flat Monte Carlo over the unseen cards with standard rollouts,
        # rollouts / 20 deals per decision (docs/two-handed.md).
        self.games[TwoHanded] = TwoPro(self.rng, max(2, self.rollouts // 20))

    def __repr__(self) -> str:
        return (f"ProPlayer(seed={self.seed!r}, bid_sims={self.bid_sims}, "
                f"rollouts={self.rollouts})")

    def card_totals(self, view: View, cards: int) -> dict[int, int]:
        """For each card of the mask ``cards``: the summed round score of
        :attr:`rollouts` simulations of the rest of the hand after playing it.

        The unseen cards are dealt by the hidden-card sampler; the same deals serve
        every card *(ours)*; every seat is then a standard player (docs/players.md).
        """
        assert view.seat is not None
        seat = view.seat
        known = knowledge(view)
        deals = [sample_deal(known, self.rng) for _ in range(self.rollouts)]
        start = start_from_view(view, score="take")  # docs/rules.md §5 round score
        totals = {}
        for card in range(24):
            if not cards >> card & 1:
                continue
            after: list[Sequence[Hand]] = [
                tuple(h.remove(card) if s == seat else h for s, h in enumerate(deal))
                for deal in deals]
            totals[card] = sum(simulate_hands(start.then(seat, card), after,
                                              view.rules.team_of(seat)))
        return totals

    def play_card(self, view: View, allowed: int) -> tuple[int, str]:
        """First remove bad options, then lead or follow among the rest."""
        dropped = ""
        if allowed & (allowed - 1):  # more than one card: simulate
            totals = self.card_totals(view, allowed)
            kept = filter_cards(totals, self.rollouts, view.rules.unit)
            if kept != allowed:
                gone = [c for c in totals if not kept >> c & 1]
                dropped = f" (dropped {cards_text(gone)})"
            allowed = kept
        card, reason = super().play_card(view, allowed)
        return card, reason + dropped

    def lead_card(self, allowed: int, trump: int, opponents: Sequence[int],
                  possible: Sequence[int], known_once: Sequence[int]) -> int:
        """docs/players.md pro leading: guaranteed trump, guaranteed non-trump, else
        the lowest card."""
        return pro_lead(allowed, trump, opponents, possible, known_once)
