"""``expert`` and ``skilled`` in the double deck: flat Monte Carlo over sampled deals
(docs/players.md **expert** applied to docs/rules.md §6; docs/double-deck.md).

Every decision is taken by the expected *net* hand score of the player's team
(its score minus the opponents', docs/rules.md §6 counting and scoring, through
:func:`~pinochlekit.engine.scoring.score_double_hand`) over deals of the unseen cards
drawn by the exact sampler of :mod:`pinochlekit.players.double.sampler`; each
option is weighed on the *same* deals, and each deal is played out by the
double-deck ``standard`` card play (:func:`~pinochlekit.players.double.policy.playout`):

- **card play**: every legal card, then the rest of the hand played out; with few
  tricks left (``solver_tricks``) the exact solver of
  :mod:`pinochlekit.players.double.solver` values each card on each deal instead;
- **bidding**: declaring at the lowest legal bid, in the suit best on average,
  against passing (the high bidder, else the opponent on the left, declares at
  the high bid, else the minimum, in the suit its hand suggests on each deal). The
  play-outs are made once per hand for every seat as declarer in every suit and
  kept for the rest of the auction (the contract only changes the scoring);
- **trump**: the suit with the best mean at the contract (the same play-outs);
- **passing** (``cards_passed``, docs/rules.md §6): a few candidate passes (the
  ``standard`` order and variants), each followed by the ``standard`` pass back
  when giving, melded and played out.

**Budget.** ``time`` (seconds) fixes the *work*, never reads the clock:
``time * PLAYOUTS_PER_SECOND`` play-outs for a card (shared among the legal cards,
at least :data:`MIN_DEALS` deals) and ``time * BID_DEALS_PER_SECOND`` deals for the
auction (16 play-outs each; at least :data:`MIN_BID_DEALS`). ``expert`` runs at
``time=1.0``, ``skilled`` at ``time=0.1``; ``bench/double_decisions.py`` measures the
decision times.

:class:`DoubleExpert` is the per-game player ``expert`` and ``skilled`` hand the double
deck's views to (:class:`~pinochlekit.players.base.Level`).

>>> from random import Random
>>> from pinochlekit.engine.double.game import DoubleDeckGame
>>> game = DoubleDeckGame.new("doubledeck", seed=3)
>>> search = DoubleSearch(Random(1), time=0.05)
>>> search.decide(game.view(game.to_act)).action in game.legal_actions()
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from random import Random
from typing import ClassVar

from pinochlekit.engine.actions import PLAYS, Action, Bid, Give, NameTrump, Pass, Play, Return
from pinochlekit.engine.cards import ALL_CARDS, Suit
from pinochlekit.engine.double.cards import DoubleHand
from pinochlekit.engine.double.game import LAST_TRICK
from pinochlekit.engine.double.meld import double_meld
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.scoring import score_double_hand
from pinochlekit.engine.tricks import play_flags, winner_index
from pinochlekit.engine.views import Phase, View
from pinochlekit.players.double.inference import OVERSAMPLE, DoubleInference, resample
from pinochlekit.players.double.levels import meld_loss_order
from pinochlekit.players.double.policy import COUNTERS, playout, standard_card
from pinochlekit.players.double.sampler import Counts, DoubleSampler, double_knowledge
from pinochlekit.players.double.solver import solve_values
from pinochlekit.players.policy import cards_text, standard_give_key
from pinochlekit.players.two.expert import Decision, ExpertGame

__all__ = ["MIN_BID_DEALS", "MIN_DEALS", "DoubleExpert", "DoubleSearch", "Estimate",
           "advise_keeping", "value_keeping"]

#: Per option: (mean net score, lowest, highest sampled net score).
Estimate = tuple[float, int, int]
#: The fewest deals any decision looks at.
MIN_DEALS = 8
#: The fewest deals of the auction's table: it is made once a hand, and with fewer the
#: means of declaring and passing are too noisy to compare (sd of a net score about 60).
MIN_BID_DEALS = 40


def _estimate(scores: Sequence[int]) -> Estimate:
    return sum(scores) / len(scores), min(scores), max(scores)


def _net(rules: Rules, declarer: int, contract: int, team_meld: Sequence[int],
         points: Sequence[int], team: int) -> int:
    """The net hand score of ``team``: its score minus the other team's (docs/rules.md §6)."""
    scores = score_double_hand(rules, declarer % 2, contract, team_meld, points).scores
    return scores[team] - scores[1 - team]


def _meld(counts: Sequence[int], trump: int, rules: Rules) -> int:
    return double_meld(DoubleHand(counts), trump, rules).points


# Keys that order the cards to pass (lowest first): docs/rules.md §5 passing habits.
def _trumps_first(card: int, trump: int) -> tuple[int, int]:
    return (0 if card // 6 == trump else 1, -(card % 6))


def _aces_first(card: int, trump: int) -> tuple[int, int]:
    return (0 if card % 6 == 5 else 1 if card // 6 == trump else 2, -(card % 6))


def _low_plain(card: int, trump: int) -> tuple[bool, bool, int]:
    return (card // 6 == trump, bool(COUNTERS >> card & 1), card % 6)


def _short_suit(counts: Sequence[int]) -> Callable[[int, int], tuple[int, int, int]]:
    sizes = [sum(counts[s * 6:s * 6 + 6]) for s in range(4)]

    def key(card: int, trump: int) -> tuple[int, int, int]:
        return (card // 6 == trump, sizes[card // 6], card % 6)

    return key


class DoubleSearch:
    """The double-deck search of ``expert`` and ``skilled`` (see the module docstring).

    ``rng`` is the player's own generator; ``time`` the budget in seconds of the
    reference machine; ``solver_tricks`` the tricks left at which the exact solver
    takes over (0: never); ``inference``: weigh the sampled deals by the calls heard
    (:mod:`pinochlekit.players.double.inference`).
    """

    #: Play-outs per second of budget for a card decision.
    PLAYOUTS_PER_SECOND: ClassVar[int] = 2500
    #: Deals per second of budget for the auction (16 play-outs and melds each).
    BID_DEALS_PER_SECOND: ClassVar[int] = 120
    #: Deals per second of budget for a passing decision (one play-out per candidate).
    PASS_DEALS_PER_SECOND: ClassVar[int] = 200
    #: Deals per second of budget for a card decision by the exact solver.
    SOLVER_DEALS_PER_SECOND: ClassVar[int] = 150

    def __init__(self, rng: Random, time: float, solver_tricks: int = 3,
                 inference: bool = False) -> None:
        self.rng = rng
        self.inference = inference
        self.time = time
        self.solver_tricks = solver_tricks
        self.playouts = max(MIN_DEALS, round(time * self.PLAYOUTS_PER_SECOND))
        self.bid_deals = max(MIN_BID_DEALS, round(time * self.BID_DEALS_PER_SECOND))
        self.pass_deals = max(MIN_DEALS, round(time * self.PASS_DEALS_PER_SECOND))
        self.solver_deals = max(MIN_DEALS, round(time * self.SOLVER_DEALS_PER_SECOND))
        #: The auction's play-outs, kept for the hand: (hand key, table).
        self.table: tuple[object, _AuctionTable] | None = None

    # -- the interface -------------------------------------------------------------

    def decide(self, view: View) -> Decision:
        """The decision in ``view``: the action, why, and each option weighed."""
        legal = view.legal_actions
        if not legal or view.hand is None or view.seat is None:
            raise ValueError(f"seat {view.seat} has nothing to do in the {view.phase}")
        if view.phase is Phase.AUCTION:
            return self._bid(view)
        if view.phase is Phase.TRUMP:
            return self._trump(view)
        if view.phase in (Phase.GIVE, Phase.RETURN):
            return self._pass(view)
        return self._play(view)

    def _deals(self, view: View, n: int) -> list[Counts]:
        sampler = DoubleSampler(double_knowledge(view))
        reading = DoubleInference(view) if self.inference else None
        if reading is None or not reading.active:
            return sampler.samples(self.rng, n)
        deals = sampler.samples(self.rng, OVERSAMPLE * n)
        return resample(deals, [reading.weight(d) for d in deals], n, self.rng)

    # -- auction and trump -------------------------------------------------------------

    def _auction_table(self, view: View) -> _AuctionTable:
        assert view.hand is not None
        # with the inference the deals depend on the calls heard: a new table per call
        heard = len(view.auction) if self.inference else 0
        key = (view.hand_number, view.dealer, str(view.hand), view.scores, heard)
        if self.table is None or self.table[0] != key:
            self.table = (key, _AuctionTable(view, self._deals(view, self.bid_deals)))
        return self.table[1]

    def _bid(self, view: View) -> Decision:
        assert view.seat is not None
        legal = view.legal_actions
        bids = [a for a in legal if isinstance(a, Bid)]
        if not bids:
            return Decision(Pass(), "no higher bid is possible", {})
        lowest = min(bids, key=lambda b: b.amount)
        table = self._auction_table(view)
        seat, team = view.seat, view.seat % 2
        options: dict[str, Estimate] = {}
        for suit in range(4):
            options[f"{Suit(suit).letter} at {lowest.amount}"] = _estimate(
                table.nets(seat, suit, lowest.amount, team))
        declarer = view.high_bidder if view.high_bidder is not None else (seat + 1) % 4
        contract = max(view.high_bid, view.rules.min_bid)
        passing = _estimate(table.best_for(declarer, contract, team))
        options["pass"] = passing
        best = max(options[f"{Suit(s).letter} at {lowest.amount}"][0] for s in range(4))
        if best > passing[0] or Pass() not in legal:
            why = "must open" if Pass() not in legal and best <= passing[0] else \
                f"declaring at {lowest.amount} is worth {best:+.1f} on average"
            return Decision(lowest, f"{why}, passing {passing[0]:+.1f} "
                                    f"({table.size} deals)", options)
        return Decision(Pass(), f"declaring at {lowest.amount} is worth {best:+.1f} on "
                                f"average, passing {passing[0]:+.1f} ({table.size} deals)",
                        options)

    def _trump(self, view: View) -> Decision:
        assert view.seat is not None
        table = self._auction_table(view)
        options = {Suit(s).letter: _estimate(table.nets(view.seat, s, view.contract,
                                                        view.seat % 2))
                   for s in range(4)}
        suits = [int(a.suit) for a in view.legal_actions if isinstance(a, NameTrump)]
        suit = max(suits, key=lambda s: (options[Suit(s).letter][0], -s))
        return Decision(NameTrump(Suit(suit)), f"the best expected net score "
                        f"({options[Suit(suit).letter][0]:+.1f}, {table.size} deals)", options)

    # -- passing -------------------------------------------------------------------------

    def _pass(self, view: View) -> Decision:
        assert view.seat is not None and view.trump is not None and view.hand is not None
        assert view.declarer is not None
        rules, trump = view.rules, int(view.trump)
        counts = [view.hand.count(k) for k in range(24)]
        giving = view.phase is Phase.GIVE
        keys: list[Callable[[int, int], object]] = (
            [standard_give_key, _trumps_first, _aces_first] if giving
            else [_low_plain, _short_suit(counts), standard_give_key])
        candidates: list[tuple[int, ...]] = []
        for key in keys:
            cards = tuple(sorted(meld_loss_order(counts, trump, rules, rules.cards_passed, key)))
            if cards not in candidates:
                candidates.append(cards)
        deals = self._deals(view, self.pass_deals)
        options: dict[str, Estimate] = {}
        best: tuple[tuple[int, ...], float] | None = None
        for cards in candidates:
            estimate = _estimate(self._pass_nets(view, cards, deals))
            options[cards_text(cards)] = estimate
            if best is None or estimate[0] > best[1] + 0.01:
                best = (cards, estimate[0])
        assert best is not None
        action: Action = (Give if giving else Return)(tuple(ALL_CARDS[c] for c in best[0]))
        return Decision(action, f"the best expected net score ({best[1]:+.1f}) of "
                                f"{len(candidates)} passes, {len(deals)} deals", options)

    def _pass_nets(self, view: View, cards: Sequence[int],
                   deals: Sequence[Counts]) -> list[int]:
        """The seat's net score on each deal after passing ``cards`` (the declarer
        passing back by the standard rule, docs/rules.md §5), each deal played out."""
        assert view.seat is not None and view.trump is not None
        assert view.declarer is not None
        rules, trump, seat = view.rules, int(view.trump), view.seat
        flags = play_flags(rules)
        declarer, partner, team = view.declarer, (view.declarer + 2) % 4, seat % 2
        nets = []
        for deal in deals:
            hands = [list(h) for h in deal]
            taker = (seat + 2) % 4
            for card in cards:
                hands[seat][card] -= 1
                hands[taker][card] += 1
            if view.phase is Phase.GIVE:  # the declarer passes back by the standard rule
                back = meld_loss_order(hands[declarer], trump, rules, rules.cards_passed,
                                       _low_plain)
                for card in back:
                    hands[declarer][card] -= 1
                    hands[partner][card] += 1
            melds = [_meld(h, trump, rules) for h in hands]
            team_meld = (melds[0] + melds[2], melds[1] + melds[3])
            points = playout(hands, [], declarer, trump, flags, (0, 0))
            nets.append(_net(rules, declarer, view.contract, team_meld, points, team))
        return nets

    def value(self, view: View, action: Action) -> Estimate | None:
        """The expected net score of ``action``, legal in ``view``, on the deals
        :meth:`decide` draws from the same state: a bid as declaring at it in the best
        suit (as the lowest bid is valued), or any cards to give or return. ``None``
        for other actions (they are among :meth:`decide`'s options)."""
        if view.seat is None or action not in view.legal_actions:
            return None
        if isinstance(action, Bid):
            table = self._auction_table(view)
            return max((_estimate(table.nets(view.seat, suit, action.amount, view.seat % 2))
                        for suit in range(4)), key=lambda estimate: estimate[0])
        if isinstance(action, Give | Return):
            deals = self._deals(view, self.pass_deals)
            return _estimate(self._pass_nets(view, [int(c) for c in action.cards], deals))
        return None

    # -- play ------------------------------------------------------------------------------

    def _play(self, view: View) -> Decision:
        assert view.seat is not None and view.trump is not None and view.hand is not None
        cards = [a.card for a in view.legal_actions if isinstance(a, Play)]
        if len(cards) == 1:
            return Decision(PLAYS[cards[0]], "the only legal card", {})
        left = len(view.hand)
        solving = 0 < left <= self.solver_tricks
        n = self.solver_deals if solving else max(MIN_DEALS, self.playouts // len(cards))
        deals = self._deals(view, n)
        nets = self._solved(view, deals, cards) if solving else self._rolled(view, deals, cards)
        options = {str(ALL_CARDS[c]): _estimate(nets[c]) for c in cards}
        best = max(o[0] for o in options.values())
        tied = sum(1 << c for c in cards if options[str(ALL_CARDS[c])][0] >= best - 0.01)
        trump = int(view.trump)
        trick = [c for _, c in view.trick]
        if tied & (tied - 1):  # ties go to the standard card play
            seats = [s for s, _ in view.trick]
            partner = bool(trick) and seats[winner_index(trick, trump)] == (view.seat + 2) % 4
            card = standard_card(tied, trick, trump, partner, len(trick) == 3)
        else:
            card = tied.bit_length() - 1
        how = "solved exactly" if solving else "play-outs"
        return Decision(PLAYS[card], f"best expected net score {best:+.1f} ({how}, "
                                     f"{len(deals)} deals)", options)

    def _context(self, view: View) -> tuple[tuple[int, int], list[int], int]:
        """The team meld, the trick points taken, and the leader of the current trick."""
        assert view.melds is not None and view.declarer is not None
        melds = [m.points for m in view.melds]
        leader = view.trick[0][0] if view.trick else (
            view.tricks[-1].winner if view.tricks else view.declarer)
        return (melds[0] + melds[2], melds[1] + melds[3]), list(view.trick_points), leader

    def _rolled(self, view: View, deals: Sequence[Counts], cards: Sequence[int]
                ) -> dict[int, list[int]]:
        assert view.seat is not None and view.trump is not None and view.declarer is not None
        rules, seat, trump = view.rules, view.seat, int(view.trump)
        flags = play_flags(rules)
        team_meld, taken, leader = self._context(view)
        out: dict[int, list[int]] = {c: [] for c in cards}
        for card in cards:
            for deal in deals:
                hands = [list(h) for h in deal]
                hands[seat][card] -= 1
                trick = [*((s, int(c)) for s, c in view.trick), (seat, card)]
                if len(trick) == 4:  # the card completes the trick: score it, go on
                    played = [c for _, c in trick]
                    winner = trick[winner_index(played, trump)][0]
                    points = list(taken)
                    done = not any(sum(h) for h in hands)
                    points[winner % 2] += sum(1 for c in played if COUNTERS >> c & 1) + (
                        LAST_TRICK if done else 0)
                    if not done:
                        points = playout(hands, [], winner, trump, flags, points)
                else:
                    points = playout(hands, trick, leader, trump, flags, taken)
                out[card].append(_net(rules, view.declarer, view.contract, team_meld, points,
                                      seat % 2))
        return out

    def _solved(self, view: View, deals: Sequence[Counts], cards: Sequence[int]
                ) -> dict[int, list[int]]:
        """Net scores of each card per deal from the exact solver's trick points."""
        assert view.seat is not None and view.trump is not None and view.declarer is not None
        rules, seat = view.rules, view.seat
        team_meld, taken, _ = self._context(view)
        trick = [(s, int(c)) for s, c in view.trick]
        out: dict[int, list[int]] = {c: [] for c in cards}
        for deal in deals:
            values = solve_values(deal, trick, int(view.trump), seat, play_flags(rules))
            for card in cards:
                ours, theirs = values[card]
                points = [0, 0]
                points[seat % 2] = taken[seat % 2] + ours
                points[1 - seat % 2] = taken[1 - seat % 2] + theirs
                out[card].append(_net(rules, view.declarer, view.contract, team_meld, points,
                                      seat % 2))
        return out


def _habit_suit(melds: Sequence[int], hand: Sequence[int]) -> int:
    """The suit with the most meld plus 2 per card of it (ties: S, H, D, C)."""
    return max(range(4), key=lambda t: (melds[t] + 2 * sum(hand[t * 6:t * 6 + 6]), -t))


class _AuctionTable:
    """Per sampled deal, per declarer seat and suit: the team meld of each team and the
    trick points of each team when that seat declares and leads in that suit, every
    seat playing the standard card play. The contract enters only the scoring."""

    def __init__(self, view: View, deals: Sequence[Counts]) -> None:
        rules = view.rules
        flags = play_flags(rules)
        self.rules = rules
        self.size = len(deals)
        # rows[d][declarer][suit] = (team_meld, points)
        self.rows: list[list[list[tuple[tuple[int, int], list[int]]]]] = []
        #: suits[d][seat]: the suit ``seat`` would name as declarer on deal ``d``.
        self.suits: list[list[int]] = []
        for deal in deals:
            melds = [[_meld(deal[s], suit, rules) for suit in range(4)] for s in range(4)]
            by_seat = []
            for declarer in range(4):
                by_suit = []
                for suit in range(4):
                    team_meld = (melds[0][suit] + melds[2][suit], melds[1][suit] + melds[3][suit])
                    points = playout([list(h) for h in deal], [], declarer, suit, flags, (0, 0))
                    by_suit.append((team_meld, points))
                by_seat.append(by_suit)
            self.rows.append(by_seat)
            # docs/rules.md §5 trump habit, seen from the declarer's own hand: the suit of
            # its meld and length *(ours: meld + 2 per card of the suit)*.
            self.suits.append([_habit_suit(melds[s], deal[s]) for s in range(4)])

    def nets(self, declarer: int, suit: int, contract: int, team: int) -> list[int]:
        """``team``'s net score on each deal when ``declarer`` declares ``suit``."""
        return [_net(self.rules, declarer, contract, *row[declarer][suit], team)
                for row in self.rows]

    def best_for(self, declarer: int, contract: int, team: int) -> list[int]:
        """``team``'s net score on each deal when ``declarer`` names the suit its own
        hand suggests on that deal (:attr:`suits`)."""
        return [_net(self.rules, declarer, contract, *row[declarer][suits[declarer]], team)
                for row, suits in zip(self.rows, self.suits, strict=True)]


@contextmanager
def _kept(search: DoubleSearch) -> Iterator[None]:
    """Restore the search's random state and auction table afterwards."""
    state, table = search.rng.getstate(), search.table
    try:
        yield
    finally:
        search.rng.setstate(state)
        search.table = table


def value_keeping(search: DoubleSearch, view: View, action: Action) -> Estimate | None:
    """:meth:`DoubleSearch.value` leaving the search as it was, as :func:`advise_keeping`."""
    with _kept(search):
        return search.value(view, action)


def advise_keeping(search: DoubleSearch, view: View) -> Decision:
    """:meth:`DoubleSearch.decide` leaving the search as it was (its random state and
    the auction's play-outs), for explanations and hints."""
    with _kept(search):
        return search.decide(view)


class DoubleExpert(ExpertGame):
    """``expert`` or ``skilled`` in the double deck: the decisions of ``search``, a
    :class:`DoubleSearch` on the level's own generator."""

    def __init__(self, search: DoubleSearch) -> None:
        self.search = search

    def choose(self, view: View) -> Action:
        """:meth:`DoubleSearch.decide`'s action."""
        return self.search.decide(view).action

    def advise(self, view: View) -> Decision:
        """:func:`advise_keeping`."""
        return advise_keeping(self.search, view)

    def value(self, view: View, action: Action) -> Estimate | None:
        """:func:`value_keeping`."""
        return value_keeping(self.search, view, action)
