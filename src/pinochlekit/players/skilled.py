"""The ``skilled`` player: ``standard`` with a stronger card play (docs/players.md
**skilled**, ours).

It bids, names trump, passes and throws in exactly as ``standard`` does; in
the play it leads and follows by :func:`~pinochlekit.players.policy.skilled_lead`
and :func:`~pinochlekit.players.policy.skilled_follow`, from the same memory
(docs/players.md "What a player knows"): it cashes sure non-trump winners
before drawing trump, draws trump only as the declaring side, leads to
partner's void, smears counters on a trick partner is sure to take, keeps its
counters off tricks the opponents may take, and wins cheaply when a cheaper
card is sure to hold. The C core plays the same policy move for move
(``fastcore``: ``policy="skilled"``), so simulations can use it as their
rollout policy.

In the double deck (docs/double-deck.md) ``skilled`` is the cheaper setting of the
double-deck ``expert`` search (:mod:`pinochlekit.players.double.expert`,
``time`` :data:`DOUBLE_TIME`).

>>> from pinochlekit import Game
>>> game = Game.new("pagat", seed=3)
>>> player = SkilledPlayer(seed=1, bid_sims=8)
>>> player.choose(game.view(game.to_act)) in game.legal_actions()
True
"""

from __future__ import annotations

from typing import ClassVar

from pinochlekit.engine.tricks import card_points, winner_index
from pinochlekit.engine.variants import DoubleDeck
from pinochlekit.engine.views import View
from pinochlekit.players.double.expert import DoubleExpert, DoubleSearch
from pinochlekit.players.easy import seat_hand
from pinochlekit.players.policy import (
    counter_mask,
    is_guaranteed,
    opponents_to_play,
    skilled_follow,
    skilled_lead,
)
from pinochlekit.players.search.simulate import memory_from_view
from pinochlekit.players.standard import StandardPlayer

__all__ = ["DOUBLE_TIME", "SkilledPlayer"]

#: The budget in seconds of ``skilled``'s double-deck search (``expert`` takes 1.0).
DOUBLE_TIME = 0.1


class SkilledPlayer(StandardPlayer):
    """docs/players.md **skilled**: the standard player with the skilled card play."""

    name = "skilled"
    #: The double-deck search's budget (seconds of the reference machine).
    DOUBLE_TIME: ClassVar[float] = DOUBLE_TIME

    def __init__(self, seed: int | str = 0, *, bid_sims: int | None = None) -> None:
        super().__init__(seed, bid_sims=bid_sims)
        # The double deck: players/double/expert.py at the skilled budget.
        self.games[DoubleDeck] = DoubleExpert(DoubleSearch(self.rng, self.DOUBLE_TIME))

    def play_card(self, view: View, allowed: int) -> tuple[int, str]:
        """The card to play among the mask ``allowed`` (docs/players.md skilled
        **Leading** and **Following**), and a short reason."""
        assert view.seat is not None and view.trump is not None
        assert view.declarer is not None
        rules, seat, trump = view.rules, view.seat, int(view.trump)
        hand = seat_hand(view)
        memory = memory_from_view(view)
        players = rules.players
        size = players - 1 if view.moon else players
        sitting_out = (view.declarer + 2) % 4 if view.moon else -1
        opponents = opponents_to_play(seat, len(view.trick), size, sitting_out, players)
        unlocated = memory.unlocated(hand.once, hand.twice)
        possible = [memory.possible(o, unlocated) if o in opponents else 0 for o in range(4)]
        points = card_points(rules)
        trick = [int(c) for _, c in view.trick]
        if not trick:
            partner = (seat + 2) % 4
            partner_voids = memory.voids[partner] if rules.partnership and \
                partner != sitting_out else 0
            card = skilled_lead(allowed, trump, opponents, possible, memory.known_once,
                                rules.team_of(seat) == rules.team_of(view.declarer),
                                partner_voids, counter_mask(points))
            sure = is_guaranteed(card, (), trump, opponents, possible, memory.known_once)
            return card, ("lead: guaranteed to take the trick" if sure
                          else "lead: the skilled leading rules")
        seats = [s for s, _ in view.trick]
        partner_winning = (rules.partnership
                           and seats[winner_index(trick, trump)] == (seat + 2) % 4)
        card = skilled_follow(allowed, trick, trump, partner_winning,
                              len(trick) == size - 1, points, opponents, possible,
                              memory.known_once)
        return card, "follow: the skilled following rules"
