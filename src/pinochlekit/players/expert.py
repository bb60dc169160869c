"""The ``expert`` player: sampling search by expected score, with inference and an
exact endgame solver (docs/players.md **expert**).

Every decision is taken by expected round score (docs/rules.md §5: the hand's net
result for the player's team) over deals of the unseen cards drawn by the
exact hidden-card sampler and weighted by :mod:`pinochlekit.players.search.inference`
(the meld not shown, the auction):

- **card play**: every legal card is scored on the *same* deals (common random
  numbers); with few tricks left (:attr:`ExpertPlayer.solver_tricks`) by the
  exact perfect-information solver (:mod:`pinochlekit.players.search.solver`), else by
  playing the hand out with skilled players (``rollout="standard"``: standard
  ones; the C core); the best mean wins;
- **bidding**: the mean round score of declaring at the lowest legal bid in
  each trump suit against the value of passing (the high bidder, else the
  opponent on the left, declares on each deal), so the risk of being set
  (losing the contract) and partner's meld are in the numbers; a grid of
  higher contracts is simulated for the explanation; the simulated seats play
  standard's cards, three-handed the ``rollout`` card play (``bid_rollout``);
- **trump**: the suit with the best mean round score at the contract;
- **throw in**: when the mean round score of playing on is below the sure
  result of conceding;
- **passing**: candidates around the pro orders, each played out
  (:mod:`pinochlekit.players.passing`).

**Three-handed** (docs/rules.md §3; docs/players.md **expert**, "Three-handed"):
the round score is the player's own hand score minus the average of its two
opponents'; the sampled deals hold the set-aside cards as a fourth place (the
face-down widow, a defender's unknown discards); a bid is weighed against
defending while the high bidder declares in the suit of its best meld; with
``widow=take`` the discard is chosen by simulation among candidates
(:func:`~pinochlekit.players.passing.discard_candidates`); the exact solver
plays the declarer against the two defenders as one side
(:func:`solved_three`); a throw-in is weighed against the game's sure result
(:func:`concede_three`).

**Budgets.** ``time`` (seconds, default 1.0) fixes the *work*, never reads the
clock: ``round(time * DEALS_PER_SECOND)`` deals for a card decision by
rollouts, ``round(time * SOLVER_DEALS_PER_SECOND)`` by the solver and
``round(time * BID_DEALS_PER_SECOND)`` for a bid, trump or throw-in
decision, with a floor of 12 (16 for bids); the solver takes over at
``solver_tricks`` tricks left (default 5 from ``time >= 0.5``, 4 below). The
constants were calibrated so that a decision stays under ``time`` seconds at
the 95th percentile on one core of the development machine
(``bench/expert_decisions.py`` measures it). Given its seed and options the
player makes the same choices on any machine.

>>> from pinochlekit import Game
>>> game = Game.new("pagat", seed=3)
>>> player = ExpertPlayer(seed=1, time=0.05)
>>> player.choose(game.view(game.to_act)) in game.legal_actions()
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import ClassVar, Literal

from pinochlekit.engine.actions import (
    Action,
    Bid,
    Discard,
    Give,
    NameTrump,
    Pass,
    Play,
    Redeal,
    Return,
    ThrowIn,
)
from pinochlekit.engine.cards import ALL_CARDS, Hand, Suit
from pinochlekit.engine.game import max_bid
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.tricks import card_points
from pinochlekit.engine.variants import DoubleDeck, TwoHanded
from pinochlekit.engine.views import Phase, View
from pinochlekit.players.base import PlayerSpecError, lowest_bid
from pinochlekit.players.double.expert import DoubleExpert, DoubleSearch
from pinochlekit.players.easy import legal_or_fail, seat_hand
from pinochlekit.players.passing import (
    AfterDiscard,
    AfterPassing,
    discard_candidates,
    give_candidates,
    return_candidates,
)
from pinochlekit.players.policy import cards_text
from pinochlekit.players.pro import ProPlayer
from pinochlekit.players.search.backends import simulate_hands
from pinochlekit.players.search.inference import HELP_MELD, Inference, meld_function, weighted_deals
from pinochlekit.players.search.simulate import (
    Start,
    hand_scores,
    player_scores,
    start_for_bid,
    start_from_view,
)
from pinochlekit.players.search.solver import Endgame, card_values
from pinochlekit.players.standard import trump_suits
from pinochlekit.players.two.expert import Decision, ExpertGame, TwoExpert

__all__ = ["Estimate", "ExpertPlayer", "concede_three", "solved_three"]

#: Per option: (weighted mean round score, lowest, highest sampled round score).
Estimate = tuple[float, int, int]


def _estimate(scores: Sequence[float], weights: Sequence[float]) -> Estimate:
    mean = sum(s * w for s, w in zip(scores, weights, strict=True))
    seen = [s for s, w in zip(scores, weights, strict=True) if w > 0] or list(scores)
    return mean, int(min(seen)), int(max(seen))


class ExpertPlayer(ProPlayer):
    """docs/players.md **expert**.

    ``time``: the budget of one decision in seconds on the reference machine,
    turned into a fixed number of sampled deals (default 1.0);
    ``solver_tricks``: tricks left at which the exact solver replaces rollouts
    (default: 5, or 4 when ``time < 0.5``; 0 turns it off);
    ``inference``: weigh deals by the auction and the meld not shown (default yes);
    ``rollout``: the card play of the simulated seats in card-play and throw-in
    rollouts, ``"skilled"`` (default) or ``"standard"``;
    ``auction``: who declares in the value of a pass when nobody has bid,
    ``"left"`` (the opponent on the left), ``"dealer"`` (the others pass and the
    dealer is stuck, docs/rules.md §1 Auction) or ``"auto"`` (default: the dealer
    where no cards are passed to the declarer, the left opponent where they are;
    measured on the same deals, docs/players.md expert "Bidding");
    ``bid_rollout``: the card play of the simulated seats in the bidding, trump and
    pass-value simulations, ``"standard"``, ``"skilled"`` or ``"auto"`` (default:
    the ``rollout`` policy three-handed, docs/rules.md §3, where standard's play
    valued declaring about 20 points below the hands played out; standard's
    four-handed; docs/players.md expert "Bidding"). Passing and discard simulations
    play standard's cards whatever it says.
    """

    name = "expert"
    #: Sampled deals per second of budget for a card decision.
    DEALS_PER_SECOND: ClassVar[int] = 2000
    #: Sampled deals per second of budget for a card decision by the exact solver.
    SOLVER_DEALS_PER_SECOND: ClassVar[int] = 600
    #: Sampled deals per second of budget for a passing decision (every candidate pass
    #: is played out on each deal).
    PASS_DEALS_PER_SECOND: ClassVar[int] = 250
    #: Sampled deals per second of budget for a bid, trump or throw-in decision.
    BID_DEALS_PER_SECOND: ClassVar[int] = 1500
    #: Contracts above the lowest bid that the bidding grid looks at, in bid steps.
    GRID: ClassVar[tuple[int, ...]] = (0, 1, 2, 3, 5, 8, 12, 16)

    def __init__(self, seed: int | str = 0, *, time: float = 1.0,
                 solver_tricks: int | None = None, inference: bool = True,
                 rollout: str = "skilled", auction: str = "auto",
                 bid_rollout: str = "auto") -> None:
        if isinstance(time, bool) or not isinstance(time, int | float) or not \
                0 < time <= 600 or math.isnan(time):
            raise PlayerSpecError(f"time: must be a number of seconds above 0 (at most 600), "
                                  f"not {time!r}")
        deals = max(12, round(time * self.DEALS_PER_SECOND))
        super().__init__(seed, bid_sims=4 * max(16, round(time * self.BID_DEALS_PER_SECOND)),
                         rollouts=deals)
        asked = solver_tricks
        if solver_tricks is None:
            solver_tricks = 5 if time >= 0.5 else 4
        if isinstance(solver_tricks, bool) or not isinstance(solver_tricks, int) or \
                not 0 <= solver_tricks <= 8:
            raise PlayerSpecError(f"solver_tricks: must be a whole number from 0 to 8, not "
                                  f"{solver_tricks!r}")
        if not isinstance(inference, bool):
            raise PlayerSpecError(f"inference: must be yes or no, not {inference!r}")
        if rollout not in ("standard", "skilled"):
            raise PlayerSpecError(f"rollout: the card play of the simulated seats, standard "
                                  f"or skilled, not {rollout!r}")
        if bid_rollout not in ("auto", "standard", "skilled"):
            raise PlayerSpecError(f"bid_rollout: the card play of the bidding and trump "
                                  f"simulations, auto, standard or skilled, not "
                                  f"{bid_rollout!r}")
        #: The card play of the bidding, trump and pass-value simulations (see the class).
        self.bid_rollout: Literal["auto", "standard", "skilled"] = (
            "standard" if bid_rollout == "standard" else
            "skilled" if bid_rollout == "skilled" else "auto")
        if auction not in ("auto", "dealer", "left"):
            raise PlayerSpecError(f"auction: who declares when nobody has bid, auto, dealer "
                                  f"or left, not {auction!r}")
        #: Who declares in the value of a pass when nobody has bid (see the class).
        self.auction: Literal["auto", "dealer", "left"] = (
            "dealer" if auction == "dealer" else "left" if auction == "left" else "auto")
        #: The policy that plays the simulated hands out (docs/players.md "skilled").
        self.rollout: Literal["standard", "skilled"] = \
            "skilled" if rollout == "skilled" else "standard"
        self.time = float(time)
        self.solver_tricks = solver_tricks
        self.inference = inference
        self.bid_deals = self.bid_sims // 4
        self.solver_deals = max(12, round(time * self.SOLVER_DEALS_PER_SECOND))
        self.pass_deals = max(12, round(time * self.PASS_DEALS_PER_SECOND))
        # The two-handed game: players/two/expert.py.
        self.games[TwoHanded] = TwoExpert(self.rng, self.time)
        # The double deck (docs/double-deck.md): its own search, the exact solver from
        # three tricks left unless asked (at most four: its cost grows fast there).
        self.games[DoubleDeck] = DoubleExpert(DoubleSearch(
            self.rng, self.time, 3 if asked is None else min(solver_tricks, 4),
            inference=self.inference))

    def __repr__(self) -> str:
        return (f"ExpertPlayer(seed={self.seed!r}, time={self.time}, "
                f"solver_tricks={self.solver_tricks}, inference={self.inference}, "
                f"rollout={self.rollout!r}, auction={self.auction!r}, "
                f"bid_rollout={self.bid_rollout!r})")

    # -- the interface ------------------------------------------------------------

    def for_game(self, view: View) -> ExpertGame | None:
        """The per-game expert that takes ``view`` (two-handed, double deck), or
        ``None`` in the games this class plays itself."""
        other = super().for_game(view)
        assert other is None or isinstance(other, ExpertGame)
        return other

    def explain_own(self, view: View) -> str | None:
        """The action and the expected round score of each option with its sampled
        range (:meth:`advise` as text). Leaves the player as it was."""
        return self.advise(view).text()

    def advise(self, view: View) -> Decision:
        """The decision in ``view`` as data: the action, why, and each option weighed
        (name → mean round score, lowest, highest sampled). Leaves the player as it
        was (random state and stored simulation), like :meth:`explain`."""
        other = self.for_game(view)
        if other is not None:
            return other.advise(view)
        state, table = self.rng.getstate(), self._table
        self._options: dict[str, Estimate] = {}
        makes: dict[str, float] = {}
        self._makes: dict[str, float] | None = makes
        try:
            action, reason = self._decide(view)
            options = dict(self._options)
        finally:
            self.rng.setstate(state)
            self._table = table
            self._makes = None
        return Decision(action, reason, options, makes)

    def value(self, view: View, action: Action) -> Estimate | None:
        """The expected round score of ``action`` (legal in ``view``) on the deals
        :meth:`advise` draws from the same state, for the options :meth:`advise` does not
        list: a bid above the lowest (declaring at that bid in the best suit, as the
        lowest bid is valued) and any cards to give, return or discard (the double
        deck's by its own search). ``None`` for other actions and the two-handed game.
        Leaves the player as it was."""
        if view.seat is None or action not in view.legal_actions:
            return None
        other = self.for_game(view)
        if other is not None:
            return other.value(view, action)
        state, table = self.rng.getstate(), self._table
        try:
            return self._value_of(view, action)
        finally:
            self.rng.setstate(state)
            self._table = table

    def _value_of(self, view: View, action: Action) -> Estimate | None:
        assert view.seat is not None
        if isinstance(action, Bid):  # docs/rules.md §1 Auction: declaring at that bid
            deals, weights = self._deals(view, self.bid_deals)
            team = view.rules.team_of(view.seat)
            policy = self.bid_policy(view.rules)
            return max((_estimate(simulate_hands(start_for_bid(view, suit, action.amount,
                                                               policy), deals, team), weights)
                        for suit in trump_suits(view.rules, seat_hand(view))),
                       key=lambda e: e[0])
        cards = tuple(int(c) for c in getattr(action, "cards", ()))
        if view.trump is None or view.declarer is None or not cards:
            return None
        if isinstance(action, Give | Return):  # docs/rules.md §1 Passing
            deals, weights = self._deals(view, self.pass_deals)
            after = AfterPassing(view.rules, view.declarer, view.contract, int(view.trump),
                                 view.seat)
            team = view.seat % 2
            if isinstance(action, Give):
                return _estimate([after.after_give(d, cards, team) for d in deals], weights)
            given = tuple(int(c) for c in view.given or ())
            return _estimate([after.after_return(d, given, cards, team) for d in deals],
                             weights)
        if isinstance(action, Discard):  # docs/rules.md §3 the widow's discard
            deals, weights = self._deals(view, self.pass_deals)
            discard = AfterDiscard(view.rules, view.seat, view.contract, int(view.trump))
            return _estimate([discard.score(d, cards, view.seat) for d in deals], weights)
        return None

    def _note(self, name: str, estimate: Estimate) -> None:
        options = getattr(self, "_options", None)
        if options is not None:
            options[name] = estimate

    def _note_makes(self, view: View, suits: Sequence[int], contract: int,
                    deals: Sequence[tuple[Hand, ...]], weights: Sequence[float],
                    name: str = "{suit} at {contract}") -> None:
        """Only when advising (:meth:`advise`): for each suit, the weighted share of
        ``deals`` in which declaring at ``contract`` makes it (docs/rules.md §1
        Scoring a hand: meld plus trick points at least the bid). A second look at
        the same deals ("take" scores); it draws nothing and decides nothing."""
        makes = getattr(self, "_makes", None)
        if makes is None:
            return
        assert view.seat is not None
        team = view.rules.team_of(view.seat)
        total = sum(weights) or 1.0
        for suit in suits:
            taken = simulate_hands(start_for_bid(view, suit, contract,
                                                 self.bid_policy(view.rules), "take"), deals,
                                   team)
            made = sum(w for t, w in zip(taken, weights, strict=True) if t >= contract)
            makes[name.format(suit=Suit(suit).letter, contract=contract)] = made / total

    def choose_own(self, view: View) -> Action:
        """One of ``view.legal_actions`` for the seat to act."""
        self._options = {}
        self._makes = None
        return self._decide(view)[0]

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
            return self._discard_widow(view)
        return self._play(view, legal)

    # -- deals --------------------------------------------------------------------

    def _deals(self, view: View, n: int) -> tuple[list[tuple[Hand, ...]], list[float]]:
        inference = Inference(view) if self.inference else None
        return weighted_deals(view, self.rng, n, inference)

    # -- auction and trump --------------------------------------------------------

    def _bid_table(self, view: View, lowest: int, suits: Sequence[int],
                   deals: Sequence[tuple[Hand, ...]], weights: Sequence[float]
                   ) -> dict[int, dict[int, Estimate]]:
        """Per trump suit, per contract of the grid: the estimate of declaring."""
        assert view.seat is not None
        team = view.rules.team_of(view.seat)
        policy = self.bid_policy(view.rules)
        first = {s: _estimate(simulate_hands(start_for_bid(view, s, lowest, policy), deals,
                                             team), weights) for s in suits}
        # Three-handed the grid only feeds the explanation (the bid is decided at the
        # lowest bid): skipped, as the three-handed simulations are the slow ones.
        best = sorted(suits, key=lambda s: -first[s][0])[:2] if view.rules.partnership else []
        ceiling = max_bid(view.rules)
        table: dict[int, dict[int, Estimate]] = {s: {lowest: first[s]} for s in suits}
        for suit in best:
            for k in self.GRID[1:]:
                contract = lowest + k * view.rules.step
                if contract > ceiling:
                    break
                scores = simulate_hands(start_for_bid(view, suit, contract, policy), deals,
                                        team)
                table[suit][contract] = _estimate(scores, weights)
        return table

    def _stuck_dealer(self, rules: Rules) -> bool:
        """Whether a pass with nobody bidding is valued as the dealer stuck (``auction``
        "dealer", or "auto" where no cards are passed to the declarer: there the
        stuck-dealer model scored +11 a hand against pro under cutthroat, and
        about the same as the left opponent's under pagat and three-handed)."""
        if self.auction == "auto":
            return not rules.cards_passed
        return self.auction == "dealer"

    def bid_policy(self, rules: Rules) -> Literal["standard", "skilled"]:
        """The card play of the simulated seats in the bidding, trump and pass-value
        simulations (``bid_rollout``): ``"auto"`` is the ``rollout`` policy
        three-handed (docs/rules.md §3) and standard's four-handed. Three-handed the
        standard play valued declaring about 20 points a hand below what the hand
        came to when played out (docs/players.md expert "Bidding")."""
        if self.bid_rollout == "auto":
            return "standard" if rules.partnership else self.rollout
        return self.bid_rollout

    def _declarer_if_passed(self, view: View) -> int:
        """Who declares if the player passes and every later call is a pass: the high
        bidder, else the opponent on the left (``auction="dealer"``: the stuck
        dealer, docs/rules.md §1 Auction)."""
        assert view.seat is not None
        seat, players = view.seat, view.rules.players
        if view.high_bidder is not None:
            return view.high_bidder
        if self._stuck_dealer(view.rules) and view.dealer != seat:
            return view.dealer
        return (seat + 1) % players

    def _pass_value(self, view: View, deals: Sequence[tuple[Hand, ...]],
                    weights: Sequence[float]) -> Estimate:
        """The round score if the player passes: the high bidder (else the stuck
        dealer) declares at the high bid (else the lowest bid) and names the suit
        best for it on each deal, except partner stuck as dealer, which names the
        suit of its best meld and length (it sees only its own hand: a stuck
        partner is not counted on to find the suit of hindsight, while an opponent
        is, so that both errors lean towards bidding)."""
        assert view.seat is not None
        if not view.rules.partnership:  # three-handed, each for themself
            return self._pass_value_three(view, deals, weights)
        seat = view.seat
        declarer = self._declarer_if_passed(view)
        contract = max(view.high_bid, view.rules.opening_bid)  # game scale (÷10)
        team = seat % 2
        sign = 1 if declarer % 2 == team else -1
        policy = self.bid_policy(view.rules)
        if not self._stuck_dealer(view.rules) or view.high_bidder is not None or sign < 0:
            per_suit = [simulate_hands(Start(view.rules, declarer, contract, suit, seat,
                                             policy=policy), deals, declarer % 2)
                        for suit in range(4)]
            # The declarer names its best suit on each deal (it sees its own hand).
            scores = [sign * max(column) for column in zip(*per_suit, strict=True)]
            return _estimate(scores, weights)
        meld = meld_function(view.rules)
        by_suit: dict[int, list[int]] = {}
        for i, deal in enumerate(deals):
            hand = deal[declarer]
            suit = max(trump_suits(view.rules, hand),
                       key=lambda t: (meld(hand, t) * view.rules.unit + 10 * len(hand.suit(t)),
                                      -t))
            by_suit.setdefault(suit, []).append(i)
        result = [0] * len(deals)
        for suit, rows in sorted(by_suit.items()):
            start = Start(view.rules, declarer, contract, suit, seat, policy=policy)
            for i, score in zip(rows, simulate_hands(start, [deals[i] for i in rows],
                                                     declarer % 2), strict=True):
                result[i] = sign * score
        return _estimate(result, weights)

    def _pass_value_three(self, view: View, deals: Sequence[tuple[Hand, ...]],
                          weights: Sequence[float]) -> Estimate:
        """Three-handed (docs/rules.md §3): the round score if the player passes. The high
        bidder (else the stuck dealer) declares at the high bid (else the
        lowest) and, on each deal, names the suit of its best meld (with the widow
        in hand when it is taken); the player then defends."""
        assert view.seat is not None
        rules, seat = view.rules, view.seat
        declarer = self._declarer_if_passed(view)
        contract = max(view.high_bid, rules.opening_bid)  # the game's scale
        meld = meld_function(rules)
        policy = self.bid_policy(rules)
        by_suit: dict[int, list[int]] = {}
        for i, deal in enumerate(deals):
            hand = deal[declarer] + deal[3] if rules.widow == "take" else deal[declarer]
            suit = max(trump_suits(rules, hand), key=lambda t: (meld(hand, t), -t))
            by_suit.setdefault(suit, []).append(i)
        scores = [0] * len(deals)
        for suit, rows in sorted(by_suit.items()):
            start = Start(rules, declarer, contract, suit, seat, policy=policy)
            for i, score in zip(rows, simulate_hands(start, [deals[i] for i in rows], seat),
                                strict=True):
                scores[i] = score
        return _estimate(scores, weights)

    def _bid(self, view: View, legal: Sequence[Action]) -> tuple[Action, str]:
        if Redeal() in legal:
            return Redeal(), "a redeal whenever allowed"
        lowest = lowest_bid(legal)
        if lowest is None:
            return Pass(), "no bid is possible"
        hand = seat_hand(view)
        deals, weights = self._deals(view, self.bid_deals)
        table = self._bid_table(view, lowest.amount, trump_suits(view.rules, hand),
                                deals, weights)
        passing = self._pass_value(view, deals, weights)
        self._note("pass", passing)
        willing = lowest.amount - view.rules.step
        for suit, row in table.items():
            self._note(f"{Suit(suit).letter} at {lowest.amount}", row[lowest.amount])
            for contract, (mean, _, _) in row.items():
                if mean > passing[0]:
                    willing = max(willing, contract)
        self._note_makes(view, list(table), lowest.amount, deals, weights)
        at_lowest = max(row[lowest.amount][0] for row in table.values())
        if at_lowest > passing[0]:
            return lowest, (f"declaring at {lowest.amount} is worth {at_lowest:+.1f} on "
                            f"average, passing {passing[0]:+.1f} (willing to {willing})")
        if Pass() not in legal:
            return lowest, f"must open (declaring is worth {at_lowest:+.1f})"
        reason = (f"declaring at {lowest.amount} is worth {at_lowest:+.1f} on average, "
                  f"passing {passing[0]:+.1f}")
        if self._helps(view, legal, hand):
            return Pass(help=True), reason + f"; meld of {HELP_MELD} or more for partner"
        return Pass(), reason

    @staticmethod
    def _helps(view: View, legal: Sequence[Action], hand: Hand) -> bool:
        """docs/rules.md §1 Auction, option "pass with help": say it when partner is still
        in the auction and the hand's best meld is at least :data:`HELP_MELD`, the
        meaning :mod:`~pinochlekit.players.search.inference` reads into a partner's help."""
        if Pass(help=True) not in legal or view.seat is None or not view.rules.partnership:
            return False
        partner = (view.seat + 2) % 4
        if any(seat == partner and isinstance(a, Pass) for seat, a in view.auction):
            return False
        meld = meld_function(view.rules)
        # HELP_MELD is in the ordinary scale; meld in the game's (§2 divide by ten)
        return max(meld(hand, trump) for trump in range(4)) * view.rules.unit >= HELP_MELD

    def _trump(self, view: View, legal: Sequence[Action]) -> tuple[Action, str]:
        assert view.seat is not None
        suits = [int(a.suit) for a in legal if isinstance(a, NameTrump)]
        deals, weights = self._deals(view, self.bid_deals)
        team = view.rules.team_of(view.seat)
        estimates = {}
        policy = self.bid_policy(view.rules)
        for suit in suits:
            scores = simulate_hands(start_for_bid(view, suit, view.contract, policy), deals,
                                    team)
            estimates[suit] = _estimate(scores, weights)
            self._note(Suit(suit).letter, estimates[suit])
        self._note_makes(view, suits, view.contract, deals, weights, "{suit}")
        suit = max(suits, key=lambda s: (estimates[s][0], -s))
        return NameTrump(Suit(suit)), f"the best expected round score ({estimates[suit][0]:+.1f})"

    # -- passing ------------------------------------------------------------------

    def _choose_pass(self, view: View, candidates: Sequence[tuple[int, ...]],
                     giving: bool) -> tuple[tuple[int, ...], Estimate]:
        assert view.seat is not None and view.trump is not None and view.declarer is not None
        deals, weights = self._deals(view, self.pass_deals)
        after = AfterPassing(view.rules, view.declarer, view.contract, int(view.trump),
                             view.seat)
        team = view.seat % 2
        given = tuple(int(c) for c in view.given or ())
        best: tuple[tuple[int, ...], Estimate] | None = None
        for cards in candidates:
            if giving:
                scores = [after.after_give(d, cards, team) for d in deals]
            else:
                scores = [after.after_return(d, given, cards, team) for d in deals]
            estimate = _estimate(scores, weights)
            self._note(cards_text(cards), estimate)
            if best is None or estimate[0] > best[1][0] + 0.01:
                best = (cards, estimate)
        assert best is not None
        return best

    def _give(self, view: View) -> tuple[Action, str]:
        assert view.trump is not None
        candidates = give_candidates(seat_hand(view), int(view.trump), view.rules)
        cards, estimate = self._choose_pass(view, candidates, giving=True)
        return Give(tuple(ALL_CARDS[c] for c in cards)), (
            f"the best expected round score ({estimate[0]:+.1f}) of {len(candidates)} passes")

    def _return(self, view: View) -> tuple[Action, str]:
        assert view.trump is not None
        received = Hand.from_cards(view.given or ())
        candidates = return_candidates(seat_hand(view), int(view.trump), view.rules, received)
        cards, estimate = self._choose_pass(view, candidates, giving=False)
        return Return(tuple(ALL_CARDS[c] for c in cards)), (
            f"the best expected round score ({estimate[0]:+.1f}) of {len(candidates)} passes")

    def _discard_widow(self, view: View) -> tuple[Action, str]:
        """Three-handed, widow taken (docs/rules.md §3): the candidate discard with the best
        expected round score on common sampled deals (:mod:`~pinochlekit.players.passing`)."""
        assert view.trump is not None and view.seat is not None
        trump = int(view.trump)
        candidates = discard_candidates(seat_hand(view), trump, view.rules)
        deals, weights = self._deals(view, self.pass_deals)
        after = AfterDiscard(view.rules, view.seat, view.contract, trump)
        best: tuple[tuple[int, ...], Estimate] | None = None
        for cards in candidates:
            estimate = _estimate([after.score(d, cards, view.seat) for d in deals], weights)
            self._note(cards_text(cards), estimate)
            if best is None or estimate[0] > best[1][0] + 0.01:
                best = (cards, estimate)
        assert best is not None
        return Discard(tuple(ALL_CARDS[c] for c in best[0])), (
            f"the best expected round score ({best[1][0]:+.1f}) of {len(candidates)} discards")

    # -- play -----------------------------------------------------------------------

    def _concede_value(self, view: View) -> int:
        """The round score of throwing in now (docs/rules.md §1 Not on the board)."""
        assert view.melds is not None and view.declarer is not None and view.seat is not None
        if not view.rules.partnership:  # three-handed, each for themself
            return concede_three(view)
        points = [m.points for m in view.melds]
        team_meld = [points[0] + points[2], points[1] + points[3]]
        scores = hand_scores(view.rules, view.declarer, view.contract, team_meld,
                             [False, False], [0, 0], played=False)
        team = view.seat % 2
        return scores[team] - scores[1 - team]

    def _play(self, view: View, legal: Sequence[Action]) -> tuple[Action, str]:
        if self._throw_in(view, legal):
            return ThrowIn(), "the contract is out of reach"
        plays = 0
        for action in legal:
            if isinstance(action, Play):
                plays |= 1 << action.card
        if ThrowIn() in legal and not view.tricks and not view.trick and not view.moon:
            deals, weights = self._deals(view, self.bid_deals)
            assert view.seat is not None
            start = start_from_view(view, self.rollout)
            playing = _estimate(simulate_hands(start, deals, view.rules.team_of(view.seat)),
                                weights)
            concede = self._concede_value(view)
            self._note("play on", playing)
            self._note("throw in", (float(concede), concede, concede))
            if playing[0] < concede:
                return ThrowIn(), (f"throwing in ({concede:+d}) beats playing on "
                                   f"({playing[0]:+.1f} on average)")
        card, reason = self.play_card(view, plays)
        return Play(ALL_CARDS[card]), reason

    def play_card(self, view: View, allowed: int) -> tuple[int, str]:
        """The legal card with the best expected round score on common sampled deals."""
        assert view.seat is not None
        cards = [c for c in range(24) if allowed >> c & 1]
        if len(cards) == 1:
            return cards[0], "the only legal card"
        hand = seat_hand(view)
        solving = len(hand) <= self.solver_tricks and not view.moon
        deals, weights = self._deals(view, self.solver_deals if solving else self.rollouts)
        if solving:
            totals = self._solved(view, deals, cards)
            how = "solved exactly"
        else:
            totals = self._rolled(view, deals, cards)
            how = "rollouts"
        estimates = {c: _estimate(totals[c], weights) for c in cards}
        for c in cards:
            self._note(str(ALL_CARDS[c]), estimates[c])
        best = max(estimates[c][0] for c in cards)
        # Ties (within a hundredth of a point) go to the card the pro's rules prefer.
        tied = 0
        for c in cards:
            if estimates[c][0] >= best - 0.01:
                tied |= 1 << c
        card = super(ProPlayer, self).play_card(view, tied)[0] if tied & (tied - 1) else \
            tied.bit_length() - 1
        others = [c for c in cards if c != card]
        return card, (f"best expected round score {estimates[card][0]:+.1f} ({how}, "
                      f"{len(deals)} deals; others: {cards_text(others)})")

    def _rolled(self, view: View, deals: Sequence[tuple[Hand, ...]],
                cards: Sequence[int]) -> dict[int, list[int]]:
        assert view.seat is not None
        seat = view.seat
        start: Start = start_from_view(view, self.rollout)
        out = {}
        for card in cards:
            after = [tuple(h.remove(card) if s == seat else h for s, h in enumerate(deal))
                     for deal in deals]
            out[card] = simulate_hands(start.then(seat, card), after, view.rules.team_of(seat))
        return out

    def _solved(self, view: View, deals: Sequence[tuple[Hand, ...]],
                cards: Sequence[int]) -> dict[int, list[int]]:
        """Round scores of each card per deal from the exact solver's trick points."""
        assert view.seat is not None and view.trump is not None and view.melds is not None
        assert view.declarer is not None
        if not view.rules.partnership:  # three-handed, each for themself
            return solved_three(view, deals, cards)
        rules, seat = view.rules, view.seat
        team = seat % 2
        points = card_points(rules)
        trick = tuple((s, int(c)) for s, c in view.trick)
        melds = [m.points for m in view.melds]
        team_meld = [melds[0] + melds[2], melds[1] + melds[3]]
        dix = [all(view.melds[s].dix_only or not melds[s] for s in (t, t + 2))
               and any(melds[s] for s in (t, t + 2)) for t in (0, 1)]
        first = not view.tricks and not view.trick
        out: dict[int, list[int]] = {c: [] for c in cards}
        for deal in deals:
            left = sum(points[c] * h.count(c) for h in deal for c in range(24) if h.once >> c & 1)
            left += sum(points[c] for _, c in trick) + 10 // rules.unit
            end = Endgame(int(view.trump), tuple(deal), seat, trick, first)
            values = card_values(rules, end, team)
            for card in cards:
                ours = view.trick_points[team] + values[card]
                theirs = view.trick_points[1 - team] + left - values[card]
                tricks = [0, 0]
                tricks[team], tricks[1 - team] = ours, theirs
                scores = hand_scores(rules, view.declarer, view.contract, team_meld, dix,
                                     tricks, played=True)
                out[card].append(scores[team] - scores[1 - team])
        return out


# -- three-handed (docs/rules.md §3): every player for themself -------------------------------


def _round_score(each: Sequence[int], seat: int) -> int:
    """docs/players.md: a three-handed round score is the player's own hand score minus
    the average of its two opponents' (rounded down)."""
    return each[seat] - (sum(each) - each[seat]) // 2


def concede_three(view: View) -> int:
    """The declarer's round score for throwing in now (docs/rules.md §1 Not on the board,
    §3: the cards set aside still count for it; the defenders score their meld)."""
    assert view.melds is not None and view.declarer is not None and view.seat is not None
    rules = view.rules
    points = card_points(rules)
    aside = view.widow if rules.widow == "out" else view.discards
    tricks = [0, 0, 0]
    tricks[view.declarer] = sum(points[int(c)] for c in aside or ())
    each = player_scores(rules, view.declarer, view.contract, [m.points for m in view.melds],
                         [m.dix_only and m.points > 0 for m in view.melds], tricks,
                         played=False)
    return _round_score(each, view.seat)


def solved_three(view: View, deals: Sequence[tuple[Hand, ...]], cards: Sequence[int]
                 ) -> dict[int, list[int]]:
    """Three-handed round scores of each card per deal from the exact solver, the
    declarer alone against the two defenders as one side
    (:mod:`~pinochlekit.players.search.solver`).
    What the defenders take from here is split evenly between them (the solver does
    not say who of the two takes it); the cards set aside (the deal's fourth place)
    count for the declarer."""
    assert view.seat is not None and view.trump is not None and view.melds is not None
    assert view.declarer is not None
    rules, seat, declarer = view.rules, view.seat, view.declarer
    points = card_points(rules)
    trick = tuple((s, int(c)) for s, c in view.trick)
    meld = [m.points for m in view.melds]
    dix = [m.dix_only and m.points > 0 for m in view.melds]
    first = not view.tricks and not view.trick
    defenders = [s for s in range(3) if s != declarer]
    in_trick = sum(points[c] for _, c in trick) + 10 // rules.unit
    out: dict[int, list[int]] = {c: [] for c in cards}
    for deal in deals:
        left = in_trick + sum(points[c] for h in deal[:3] for c in h)
        end = Endgame(int(view.trump), tuple(deal[:3]), seat, trick, first, declarer=declarer)
        values = card_values(rules, end, seat)
        aside = sum(points[c] for c in deal[3]) if len(deal) > 3 else 0
        for card in cards:
            won = values[card] if seat == declarer else left - values[card]
            tricks = list(view.trick_points)
            tricks[declarer] += won + aside
            rest = left - won
            tricks[defenders[0]] += rest // 2
            tricks[defenders[1]] += rest - rest // 2
            each = player_scores(rules, declarer, view.contract, meld, dix, tricks, played=True)
            out[card].append(_round_score(each, seat))
    return out
