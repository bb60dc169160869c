"""The ``standard`` player of docs/rules.md §5 (seed 003), exactly as docs/players.md says.

It bids and names trump by simulating the hand (:mod:`pinochlekit.players.search.simulate`,
unseen cards from :mod:`pinochlekit.players.search.sampler`), passes cards by fixed
orders, and plays by the leading and following rules of
:mod:`pinochlekit.players.policy` on its own memory of the hand.

>>> from pinochlekit import Game
>>> game = Game.new("pagat", seed=3)
>>> player = StandardPlayer(seed=1, bid_sims=8)
>>> player.choose(game.view(game.to_act)) in game.legal_actions()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from pinochlekit.engine.actions import (
    Action,
    Discard,
    Give,
    NameTrump,
    Pass,
    Play,
    Redeal,
    Return,
    ThrowIn,
)
from pinochlekit.engine.cards import ALL_CARDS, Hand, Rank, Suit
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.tricks import card_points, winner_index
from pinochlekit.engine.variants import DoubleDeck, TwoHanded
from pinochlekit.engine.views import Phase, View
from pinochlekit.players.base import Level, PlayerSpecError, lowest_bid
from pinochlekit.players.double.levels import DoubleStandard
from pinochlekit.players.easy import hand_key, legal_or_fail, partner_has_it, seat_hand
from pinochlekit.players.policy import (
    beat_mask,
    counter_mask,
    discard_key,
    give_order,
    is_guaranteed,
    opponents_to_play,
    pass_cards,
    return_cards,
    standard_follow,
    standard_lead,
)
from pinochlekit.players.search.backends import simulate_hands
from pinochlekit.players.search.sampler import knowledge, sample_deal
from pinochlekit.players.search.simulate import memory_from_view, start_for_bid
from pinochlekit.players.two.levels import TwoStandard

__all__ = ["StandardPlayer", "SuitEstimate", "trump_suits", "willing_bid"]

#: Per suit: (willing bid, mean round score) from the bidding simulation.
SuitEstimate = tuple[int, float]


def willing_bid(scores: Sequence[int], level: int, step: int) -> int:
    """The greatest multiple of ``step`` that the round score reaches in more than
    ``level`` percent of ``scores`` (docs/players.md standard **Bid**).

    >>> willing_bid([300, 280, 250, 240, 100, 90], 83, 10)  # 6 rounds: 5 must reach it
    100
    >>> willing_bid([-15], 83, 10)
    -20
    """
    need = level * len(scores) // 100 + 1  # count * 100 > level * n
    return sorted(scores, reverse=True)[need - 1] // step * step


def trump_suits(rules: Rules, hand: Hand) -> list[int]:
    """The suits the declarer holding ``hand`` may name (docs/rules.md §2 trump must hold
    a run, marriage or dix: a nine, or a king and queen, of the suit; any suit if none)."""
    suits = list(range(4))
    if not rules.trump_needs_meld:
        return suits
    ok = [s for s in suits if hand.count(s * 6 + Rank.NINE)
          or (hand.count(s * 6 + Rank.KING) and hand.count(s * 6 + Rank.QUEEN))]
    return ok or suits


class StandardPlayer(Level):
    """docs/players.md **standard**.

    ``bid_sims`` is ``N``, the simulated rounds of the bidding simulation (N / 4
    per suit; default 1,000). The two-handed game (docs/two-handed.md) and the double
    deck (docs/double-deck.md) are played by its per-game players
    (:class:`~pinochlekit.players.two.levels.TwoStandard`,
    :class:`~pinochlekit.players.double.levels.DoubleStandard`).
    """

    name = "standard"
    #: The percentage of simulated rounds that must reach the willing bid.
    LEVEL: ClassVar[int] = 83
    #: Default ``bid_sims``.
    BID_SIMS: ClassVar[int] = 1000
    #: Whether the pro passing orders apply (see :class:`~pinochlekit.players.pro.ProPlayer`).
    PRO_PASSING: ClassVar[bool] = False

    def __init__(self, seed: int | str = 0, *, bid_sims: int | None = None) -> None:
        super().__init__(seed)
        bid_sims = self.BID_SIMS if bid_sims is None else bid_sims
        if isinstance(bid_sims, bool) or not isinstance(bid_sims, int) or bid_sims < 4:
            raise PlayerSpecError(f"bid_sims: must be a whole number of at least 4 (one "
                                  f"round per suit), not {bid_sims!r}")
        self.bid_sims = bid_sims
        self._table: tuple[object, dict[int, SuitEstimate]] | None = None
        self.games[TwoHanded] = TwoStandard()
        self.games[DoubleDeck] = DoubleStandard(self.rng, self.PRO_PASSING)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r}, bid_sims={self.bid_sims})"

    # -- the interface ------------------------------------------------------

    def choose_own(self, view: View) -> Action:
        """One of ``view.legal_actions`` for the seat to act."""
        return self._decide(view)[0]

    def explain_own(self, view: View) -> str | None:
        """The rule of docs/players.md behind the choice in ``view``. Leaves the
        player as it was (random state and stored bidding simulation)."""
        state, table = self.rng.getstate(), self._table
        try:
            action, reason = self._decide(view)
        finally:
            self.rng.setstate(state)
            self._table = table
        return f"{action}: {reason}"

    def _decide(self, view: View) -> tuple[Action, str]:
        legal = legal_or_fail(view)
        seat_hand(view)
        if view.phase is Phase.AUCTION:
            return self._bid(view, legal)
        if view.phase is Phase.TRUMP:
            return self._trump(view, legal)
        if view.phase is Phase.GIVE:
            return self._give(view)
        if view.phase is Phase.RETURN:
            return self._return(view)
        if view.phase is Phase.DISCARD:
            return self._discard(view)
        return self._play(view, legal)

    # -- auction and trump --------------------------------------------------

    def simulate_suits(self, view: View, contract: int) -> dict[int, SuitEstimate]:
        """The bidding simulation (docs/players.md standard **Bid**): for each suit
        the player may name, ``bid_sims / 4`` rounds with the player as declarer at
        ``contract``; the same deals of the unseen cards serve every suit *(ours)*."""
        hand = seat_hand(view)
        assert view.seat is not None
        rules = view.rules
        known = knowledge(view)
        per_suit = max(1, self.bid_sims // 4)
        deals = [sample_deal(known, self.rng) for _ in range(per_suit)]
        table: dict[int, SuitEstimate] = {}
        for suit in trump_suits(rules, hand):
            # docs/rules.md §5: the round score is what the team takes (meld + tricks)
            scores = simulate_hands(start_for_bid(view, suit, contract, score="take"), deals,
                                    rules.team_of(view.seat))
            table[suit] = (willing_bid(scores, self.LEVEL, rules.step),
                           sum(scores) / len(scores))
        return table

    def _suit_table(self, view: View, contract: int) -> dict[int, SuitEstimate]:
        key = hand_key(view)
        if self._table is None or self._table[0] != key:
            self._table = (key, self.simulate_suits(view, contract))
        return self._table[1]

    def _bid(self, view: View, legal: Sequence[Action]) -> tuple[Action, str]:
        if Redeal() in legal:
            return Redeal(), "a redeal whenever allowed"
        lowest = lowest_bid(legal)
        if lowest is None:  # the high bid is the most there is
            return Pass(), "no higher bid is possible"
        if partner_has_it(view) and Pass() in legal:
            return Pass(), "partner holds the high bid and both opponents have passed"
        table = self._suit_table(view, lowest.amount)  # at its first call of the hand
        best = max(willing for willing, _ in table.values())
        if lowest.amount <= best:
            return lowest, f"the lowest bid, within the maximum willing bid {best}"
        if Pass() not in legal:
            return lowest, f"must open (maximum willing bid {best})"
        return Pass(), f"the lowest bid is above the maximum willing bid {best}"

    def _trump(self, view: View, legal: Sequence[Action]) -> tuple[Action, str]:
        table = self._suit_table(view, view.contract)
        suits = [int(a.suit) for a in legal if isinstance(a, NameTrump)]
        if any(s not in table for s in suits):  # never for a real view: rerun to be sure
            self._table = None
            table = self._suit_table(view, view.contract)
        # The highest willing bid; ties by the mean round score, then S, H, D, C (ours).
        suit = max(suits, key=lambda s: (table[s][0], table[s][1], -s))
        return NameTrump(Suit(suit)), f"willing bid {table[suit][0]} (mean {table[suit][1]:.1f})"

    # -- passing ------------------------------------------------------------

    def _give(self, view: View) -> tuple[Action, str]:
        assert view.trump is not None
        cards = pass_cards(seat_hand(view), int(view.trump), view.rules,
                           view.rules.cards_passed, give_order(self.PRO_PASSING))
        return Give(tuple(ALL_CARDS[c] for c in cards)), "non-meld cards in the passing order"

    def _return(self, view: View) -> tuple[Action, str]:
        assert view.trump is not None
        received = Hand.from_cards(view.given or ())
        cards = return_cards(seat_hand(view), int(view.trump), view.rules,
                             view.rules.cards_passed, received, voiding=not self.PRO_PASSING)
        return Return(tuple(ALL_CARDS[c] for c in cards)), "passing back in the passing order"

    def _discard(self, view: View) -> tuple[Action, str]:
        """Three-handed, widow taken: non-meld cards by :func:`discard_key` *(ours)*."""
        assert view.trump is not None
        cards = pass_cards(seat_hand(view), int(view.trump), view.rules,
                           view.rules.widow_size, discard_key)
        return (Discard(tuple(ALL_CARDS[c] for c in cards)),
                "non-meld cards, counters to bank first")

    # -- play ---------------------------------------------------------------

    def _throw_in(self, view: View, legal: Sequence[Action]) -> bool:
        """docs/players.md standard **Throw in**: only when the contract exceeds the
        team's meld plus every trick point (which the game already enforces)."""
        if ThrowIn() not in legal or view.melds is None or view.declarer is None:
            return False
        rules = view.rules
        team = [m.points for s, m in enumerate(view.melds)
                if rules.team_of(s) == rules.team_of(view.declarer)]
        return view.contract > sum(team) + view.rules.trick_total

    def _play(self, view: View, legal: Sequence[Action]) -> tuple[Action, str]:
        if self._throw_in(view, legal):
            return ThrowIn(), "the contract is out of reach"
        plays = 0
        for action in legal:
            if isinstance(action, Play):
                plays |= 1 << action.card
        card, reason = self.play_card(view, plays)
        return Play(ALL_CARDS[card]), reason

    def play_card(self, view: View, allowed: int) -> tuple[int, str]:
        """The card to play among the mask ``allowed`` (docs/players.md standard
        **Leading** and **Following**), and the rule that chose it."""
        assert view.seat is not None and view.trump is not None
        trump = int(view.trump)
        trick = [int(c) for _, c in view.trick]
        if not trick:
            opponents, possible, known = self._lead_inputs(view)
            card = self.lead_card(allowed, trump, opponents, possible, known)
            sure = is_guaranteed(card, (), trump, opponents, possible, known)
            return card, ("lead: guaranteed to take the trick" if sure
                          else "lead: nothing better is guaranteed to take the trick")
        seats = [s for s, _ in view.trick]
        players = view.rules.players
        size = players - 1 if view.moon else players
        partner_winning = (view.rules.partnership
                           and seats[winner_index(trick, trump)] == (view.seat + 2) % 4)
        card = standard_follow(allowed, trick, trump, partner_winning, len(trick) == size - 1,
                               counter_mask(card_points(view.rules)))
        return card, "follow: " + _follow_reason(card, trick, trump, partner_winning,
                                                 len(trick) == size - 1)

    def _lead_inputs(self, view: View) -> tuple[list[int], list[int], list[int]]:
        """Opponents still to play, what each possibly holds, and the known cards."""
        assert view.seat is not None and view.declarer is not None
        hand = seat_hand(view)
        memory = memory_from_view(view)
        sitting_out = (view.declarer + 2) % 4 if view.moon else -1
        players = view.rules.players
        opponents = opponents_to_play(view.seat, len(view.trick),
                                      players - 1 if view.moon else players, sitting_out,
                                      players)
        unlocated = memory.unlocated(hand.once, hand.twice)
        possible = [memory.possible(o, unlocated) if o in opponents else 0 for o in range(4)]
        return opponents, possible, memory.known_once

    def lead_card(self, allowed: int, trump: int, opponents: Sequence[int],
                  possible: Sequence[int], known_once: Sequence[int]) -> int:
        """The card to lead among ``allowed`` (docs/players.md standard **Leading**)."""
        return standard_lead(allowed, trump, opponents, possible, known_once)


def _follow_reason(card: int, trick: Sequence[int], trump: int, partner_winning: bool,
                   last: bool) -> str:
    if beat_mask(trick[winner_index(trick, trump)], trump) >> card & 1:
        return "the lowest card that wins, last to play" if last else "the highest winning card"
    if partner_winning:
        return "partner is winning: the lowest counter"
    return "cannot win: the lowest card"
