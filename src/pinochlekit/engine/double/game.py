"""Double-deck partnership pinochle (docs/rules.md §6): a game from deal to winner.

Eighty cards, 20 to each of four players in two partnerships; an auction from
50 (a pass is final, the dealer stuck at the minimum), trump named by the high
bidder, optional passing between partners, meld single to quadruple, twenty
tricks under the play rules of §1.9 and the must-beat options of §2.1, counters
A/10/K worth 1 and the last trick 2, game 500. Where §6 is silent the choices
are pagat.com's, named in ``docs/double-deck.md``.

The interface is the other games' (:class:`pinochlekit.engine.games.AnyGame`):
``new``, ``phase``, ``to_act``, ``legal_actions()``, ``apply()`` (checked, leaves
the game unchanged on error), ``step()``, ``verify``, ``can``, ``is_legal``,
``undo``, ``copy``, ``view(seat)``, ``public_view()``, ``scores``, ``winner``,
``results`` and ``record``.

>>> from pinochlekit.engine.actions import parse_action
>>> game = DoubleDeckGame.new("doubledeck", seed=3)
>>> game.to_act, len(game.hand(1)), game.legal_actions()[:3]
(1, 20, [Pass(), Bid(50), Bid(51)])
>>> game.step(parse_action("bid 52"))
(BidMade(seat=1, amount=52),)
>>> game.apply(parse_action("bid 51"))
Traceback (most recent call last):
...
pinochlekit.IllegalActionError: illegal bid 51 by seat 2: the bid must be at least 53
>>> DoubleDeckGame.from_record(game.record).view(1) == game.view(1)
True
"""

from __future__ import annotations

import secrets
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from functools import cache

from pinochlekit.engine.actions import (
    PLAYS,
    Action,
    Bid,
    Give,
    NameTrump,
    Pass,
    Play,
    Return,
    parse_action,
)
from pinochlekit.engine.auction import AuctionEnd, after_call
from pinochlekit.engine.cards import SUIT_MASKS, Card, Suit
from pinochlekit.engine.deals import deal_cards, deal_seed
from pinochlekit.engine.double.cards import DOUBLE_DECK, DOUBLE_KINDS, HAND_SIZE, DoubleHand
from pinochlekit.engine.double.meld import double_meld
from pinochlekit.engine.double.views import DoubleView
from pinochlekit.engine.errors import (
    GameOverError,
    IllegalActionError,
    OutOfTurnError,
    PhaseError,
    PinochleError,
    RecordError,
    RulesError,
)
from pinochlekit.engine.events import (
    BidMade,
    CardPlayed,
    CardsPassed,
    ContractWon,
    Dealt,
    Event,
    GameWon,
    HandScored,
    MeldShown,
    Passed,
    TrickWon,
    TrumpNamed,
)
from pinochlekit.engine.history import Checkpoint, History, replay_actions
from pinochlekit.engine.meld import MeldResult
from pinochlekit.engine.record import GameRecord
from pinochlekit.engine.rules import DOUBLE_MOST_POINTS, Rules
from pinochlekit.engine.scoring import score_double_hand
from pinochlekit.engine.tricks import explain_illegal, follow_mask, play_flags, winner_index
from pinochlekit.engine.views import HandResult, Outcome, Phase, Trick, sees_passed

__all__ = ["COUNTER_POINTS", "LAST_TRICK", "DoubleDeal", "DoubleDeckGame", "bid_ladder"]

#: A fixed deal: the four hands, seat 0 first.
DoubleDeal = tuple[DoubleHand, DoubleHand, DoubleHand, DoubleHand]

#: docs/rules.md §6: each A, 10 and K taken is 1 point; the last trick 2 more.
COUNTER_POINTS = tuple(1 if k % 6 >= 3 else 0 for k in range(24))
LAST_TRICK = 2
_TRICKS = HAND_SIZE  # twenty tricks of four cards
# The action types each phase takes.
_EXPECTED: dict[Phase, tuple[type[Action], ...]] = {
    Phase.AUCTION: (Bid, Pass), Phase.TRUMP: (NameTrump,), Phase.GIVE: (Give,),
    Phase.RETURN: (Return,), Phase.PLAY: (Play,)}


@cache
def bid_ladder(rules: Rules) -> tuple[int, ...]:
    """Every amount that may be bid, lowest first (docs/rules.md §6): from the minimum
    bid by 1 below 60 and by 5 from 60 (``bid_ladder="five_from_60"``), by 1
    throughout (``"by_one"``), or as the first and then by 10 from 100
    (``"ten_from_100"``), up to the most a team can score.

    >>> bid_ladder(Rules.preset("doubledeck"))[8:14]
    (58, 59, 60, 65, 70, 75)
    """
    ladder = rules.bid_ladder

    def allowed(amount: int) -> bool:
        if ladder == "by_one" or amount < 60:
            return True
        if ladder == "ten_from_100" and amount >= 100:
            return amount % 10 == 0
        return amount % 5 == 0

    return tuple(a for a in range(rules.min_bid, DOUBLE_MOST_POINTS + 1) if allowed(a))


@cache
def _bids(rules: Rules) -> list[Action]:
    """One shared :class:`Bid` per amount of the ladder (the auction's hot path)."""
    return [Bid(a) for a in bid_ladder(rules)]


_PASS = Pass()


def _kinds(counts: Sequence[int]) -> int:
    mask = 0
    for kind in DOUBLE_KINDS:
        if counts[kind]:
            mask |= 1 << kind
    return mask


def _multisets(counts: Sequence[int], size: int) -> Iterator[tuple[Card, ...]]:
    """Every distinct choice of ``size`` cards from a hand of kind counts."""
    kinds = [k for k in DOUBLE_KINDS if counts[k]]

    def walk(i: int, left: int, chosen: tuple[Card, ...]) -> Iterator[tuple[Card, ...]]:
        if left == 0:
            yield chosen
            return
        if i == len(kinds):
            return
        kind = kinds[i]
        for n in range(min(left, counts[kind]), -1, -1):
            yield from walk(i + 1, left - n, chosen + (kind,) * n)

    return walk(0, size, ())


class DoubleDeckGame(History):
    """A double-deck game from deal to winner (docs/rules.md §6); seats 0-3, teams 0
    (seats 0 and 2) and 1 (seats 1 and 3). ``undo`` and ``copy`` are
    :class:`~pinochlekit.engine.history.History`'s, as in the other games.

    A rejected action raises a subclass of :class:`~pinochlekit.IllegalActionError`
    and changes nothing.
    """

    __slots__ = (
        "_bids", "_checkpoints", "_flags", "_hand", "_held", "_ladder", "_passed",
        "_trick_seats", "actions", "auction", "contract", "deal_index", "dealer", "deals",
        "dealt", "declarer", "first_dealer", "given", "high_bid", "high_bidder", "melds",
        "phase", "results", "returned", "rules", "scores", "seed", "to_act", "trick",
        "trick_points", "tricks", "trump", "winner")
    _LISTS = ("actions", "scores", "results", "_checkpoints", "auction", "_passed", "trick",
              "_trick_seats", "tricks", "trick_points", "_held")

    def __init__(self, rules: Rules, seed: int | str, dealer: int = 0,
                 deals: Sequence[DoubleDeal] = ()) -> None:
        """Use :meth:`new`; this sets up the first deal."""
        self.rules = rules
        self.seed = seed
        self.first_dealer = dealer
        self.deals = tuple(deals)
        self._flags = play_flags(rules)
        self._ladder = bid_ladder(rules)
        self._bids = _bids(rules)
        self.actions: list[Action] = []
        self.scores = [0, 0]
        self.results: list[HandResult] = []
        self.winner: int | None = None
        self._checkpoints: list[Checkpoint] = []
        self._start_deal(dealer, 0)

    @classmethod
    def new(cls, rules: Rules | str | None = None, *, seed: int | str | None = None,
            dealer: int = 0, deals: Sequence[DoubleDeal] = ()) -> DoubleDeckGame:
        """A new game (the ``doubledeck`` preset by default). ``seed`` fixes every deal (a
        random one is drawn and recorded if omitted); ``deals`` optionally fixes the
        first deals (four hands of 20 that together make the deck)."""
        if isinstance(rules, str):
            rules = Rules.from_string(rules)
        rules = rules or Rules.preset("doubledeck")
        if rules.deck != "double":
            raise RulesError("deck", f"the double-deck game needs deck=double, not {rules.deck}")
        if dealer not in range(4):
            raise IllegalActionError(f"dealer must be a seat from 0 to 3, not {dealer}")
        for hands in deals:
            if len(hands) != 4 or any(len(h) != HAND_SIZE for h in hands):
                raise IllegalActionError("a double-deck deal is four hands of 20 cards")
            whole = [sum(h.count(k) for h in hands) for k in range(24)]
            if any(whole[k] != 4 for k in DOUBLE_KINDS):
                raise IllegalActionError("a deal must hold every card of the double deck "
                                         "four times")
        return cls(rules, secrets.token_hex(16) if seed is None else seed, dealer, deals)

    # -- setting up a deal ----------------------------------------------------

    def _start_deal(self, dealer: int, index: int) -> None:
        self._checkpoints.append((len(self.actions), dealer, index, tuple(self.scores),
                                  len(self.results), 0))
        self._restore_deal(dealer, index)

    def _restore_deal(self, dealer: int, index: int) -> None:
        self.dealer = dealer
        self.deal_index = index
        if index < len(self.deals):
            hands = self.deals[index]
        else:  # docs/rules.md §6: the whole double deck, four at a time
            a, b, c, d = deal_cards(deal_seed(self.seed, index), dealer, deck=DOUBLE_DECK).hands
            hands = (a, b, c, d)
        self.dealt: DoubleDeal = hands
        self._hand = [list(h.counts) for h in hands]
        self._held = [_kinds(h.counts) for h in hands]  # the kinds each seat holds
        self.phase = Phase.AUCTION
        self.to_act: int | None = (dealer + 1) % 4  # docs/rules.md §6: dealer's left first
        self.auction: list[tuple[int, Action]] = []
        self._passed = [False] * 4
        self.high_bid = 0
        self.high_bidder: int | None = None
        self.declarer: int | None = None
        self.contract = 0
        self.trump: Suit | None = None
        self.given: tuple[Card, ...] | None = None
        self.returned: tuple[Card, ...] | None = None
        self.melds: tuple[MeldResult, ...] | None = None
        self.trick: list[int] = []
        self._trick_seats: list[int] = []
        self.tricks: list[Trick] = []
        self.trick_points = [0, 0]

    @property
    def deal_seed(self) -> str:
        """The secret seed of the current deal (see :mod:`pinochlekit.engine.deals`)."""
        return deal_seed(self.seed, self.deal_index)

    @property
    def hand_number(self) -> int:
        """1 for the first deal of the game."""
        return self.deal_index + 1

    @property
    def partner(self) -> int | None:
        """The declarer's partner, once there is a declarer."""
        return None if self.declarer is None else (self.declarer + 2) % 4

    @property
    def widow(self) -> None:
        """No widow in the double deck (docs/rules.md §6: all 80 cards are dealt)."""
        return None

    def hand(self, seat: int) -> DoubleHand:
        """The cards ``seat`` holds now."""
        return DoubleHand(self._hand[seat])

    def kind_counts(self, seat: int) -> list[int]:
        """How many of each of the 24 kinds ``seat`` holds (a new list)."""
        return list(self._hand[seat])

    # -- legal actions --------------------------------------------------------

    def _min_bid(self) -> int:
        return max(self.rules.min_bid, self.high_bid + 1)

    def _may_pass(self, seat: int) -> bool:
        # docs/rules.md §2.1 the first bidder must open (001), when the option is on
        return not (self.rules.first_bid_required and not self.auction)

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take now."""
        seat = self.to_act
        if seat is None:
            return []
        phase = self.phase
        if phase is Phase.PLAY:
            mask = self._play_mask(seat)
            plays: list[Action] = []
            while mask:
                low = mask & -mask
                plays.append(PLAYS[low.bit_length() - 1])
                mask ^= low
            return plays
        if phase is Phase.AUCTION:
            first = bisect_left(self._ladder, self._min_bid())
            out: list[Action] = [_PASS] if self._may_pass(seat) else []
            return out + self._bids[first:]
        if phase is Phase.TRUMP:
            return [NameTrump(s) for s in Suit]
        kind = Give if phase is Phase.GIVE else Return
        return [kind(cards) for cards in _multisets(self._hand[seat], self.rules.cards_passed)]

    def _play_mask(self, seat: int) -> int:
        kinds = self._held[seat]
        trump = self.trump
        assert trump is not None
        trick = self.trick
        if not trick:
            if not self.tricks and self.rules.first_lead == "trump" and kinds & SUIT_MASKS[trump]:
                return kinds & SUIT_MASKS[trump]  # docs/rules.md §2.1 first lead in trump
            return kinds
        high = trick[winner_index(trick, trump)]
        return follow_mask(kinds, trick[0] // 6, high, trump, self._flags)

    # -- checking -------------------------------------------------------------

    def verify(self, action: Action, seat: int | None = None) -> None:
        """Raise the error :meth:`apply` would raise for ``action`` (by ``seat``, if
        given), naming the rule broken; return quietly if it is legal. Changes nothing."""
        self._check(action, seat)

    def can(self, action: Action, seat: int | None = None) -> bool:
        """Whether :meth:`apply` would accept ``action`` (by ``seat``, if given)."""
        try:
            self._check(action, seat)
        except IllegalActionError:
            return False
        return True

    is_legal = can

    def _wants(self) -> str:
        return {Phase.AUCTION: "bid or pass", Phase.TRUMP: "name trump",
                Phase.GIVE: f"give {self.rules.cards_passed} cards to the declarer",
                Phase.RETURN: f"return {self.rules.cards_passed} cards to partner",
                Phase.PLAY: "play a card"}.get(self.phase, "nothing")

    def _check(self, action: Action, seat: int | None) -> None:
        if self.winner is not None:
            raise GameOverError(f"the game is over: team {self.winner} won; no more actions")
        actor = self.to_act
        assert actor is not None
        if seat is not None and seat != actor:
            raise OutOfTurnError(f"{action} by seat {seat}: it is seat {actor}'s turn "
                                 f"({self.phase})")
        who = f"by seat {actor}"
        if type(action) not in _EXPECTED.get(self.phase, ()):
            raise PhaseError(f"cannot {action} {who}: seat {actor} must {self._wants()} "
                             f"(double deck, {self.phase})")
        if isinstance(action, Pass):
            if action.help:
                raise IllegalActionError(f"illegal pass help {who}: the double deck has no "
                                         f"pass with help")
            if not self._may_pass(actor):
                raise IllegalActionError(f"illegal pass {who}: the first bidder must open")
        elif isinstance(action, Bid):
            low = self._min_bid()
            if action.amount < low:
                raise IllegalActionError(f"illegal bid {action.amount} {who}: the bid must be "
                                         f"at least {low}")
            if action.amount not in self._ladder:
                raise IllegalActionError(
                    f"illegal bid {action.amount} {who}: bids rise by 1 below 60, then "
                    f"{'by 1' if self.rules.bid_ladder == 'by_one' else 'by 5'}"
                    f"{', by 10 from 100' if self.rules.bid_ladder == 'ten_from_100' else ''}"
                    f" up to {DOUBLE_MOST_POINTS}")
        elif isinstance(action, Give | Return):
            n = self.rules.cards_passed
            if len(action.cards) != n:
                raise IllegalActionError(f"illegal {action} {who}: pass exactly {n} cards")
            counts = self._hand[actor]
            for card in set(action.cards):
                if action.cards.count(card) > counts[card]:
                    raise IllegalActionError(
                        f"illegal {action} {who}: seat {actor} holds {counts[card]} {card}")
        elif isinstance(action, Play) and not self._play_mask(actor) >> action.card & 1:
            assert self.trump is not None
            reason = explain_illegal(self._held[actor], self.trick, self.trump,
                                     self.rules, not self.tricks, action.card)
            raise IllegalActionError(f"illegal play {action.card} {who}: {reason}")

    # -- applying -------------------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply ``action`` for the seat to act (checked against ``seat`` if given);
        an illegal one raises what :meth:`verify` raises and changes nothing."""
        self._check(action, seat)
        self.apply_unchecked(action)

    def step(self, action: Action, seat: int | None = None) -> tuple[Event, ...]:
        """:meth:`apply` ``action`` and return what it caused, in order (see
        :mod:`pinochlekit.engine.events`)."""
        self._check(action, seat)
        actor = self.to_act
        assert actor is not None
        n_tricks, n_results, declarer = len(self.tricks), len(self.results), self.declarer
        self.apply_unchecked(action)
        events: list[Event] = []
        if isinstance(action, Play):
            events.append(CardPlayed(actor, action.card))
        elif isinstance(action, Bid):
            events.append(BidMade(actor, action.amount))
        elif isinstance(action, Pass):
            events.append(Passed(actor, False))
        elif isinstance(action, NameTrump):
            events.append(TrumpNamed(actor, action.suit))
        elif isinstance(action, Give | Return):
            events.append(CardsPassed(actor, (actor + 2) % 4, action.cards))
        result = self.results[n_results] if len(self.results) > n_results else None
        if declarer is None and (self.declarer is not None or (
                result is not None and result.declarer is not None)):
            won = self.declarer if self.declarer is not None else result.declarer  # type: ignore[union-attr]
            contract = self.contract if self.declarer is not None else result.contract  # type: ignore[union-attr]
            assert won is not None
            events.append(ContractWon(won, contract))
        if isinstance(action, NameTrump | Return) and self.melds is not None:
            events += [MeldShown(s, m.points, m.items) for s, m in enumerate(self.melds)]
        if result is not None:
            if result.tricks and len(result.tricks) > n_tricks:
                events.append(TrickWon(len(result.tricks), result.tricks[-1]))
            events.append(HandScored(result))
            if self.winner is not None:
                events.append(GameWon(self.winner))
            else:
                events.append(Dealt(self.hand_number, self.dealer))
        elif len(self.tricks) > n_tricks:
            events.append(TrickWon(len(self.tricks), self.tricks[-1]))
        return tuple(events)

    def apply_unchecked(self, action: Action) -> None:
        """Apply an action known to be legal."""
        seat = self.to_act
        assert seat is not None
        self.actions.append(action)
        kind = type(action)
        if kind is Play:
            self._play(seat, action.card)  # type: ignore[attr-defined]
        elif kind is Bid or kind is Pass:
            self._call(seat, action)
        elif kind is NameTrump:
            self.trump = action.suit  # type: ignore[attr-defined]
            if self.rules.cards_passed:  # docs/rules.md §6: passing, partner first (§1.6)
                self.phase, self.to_act = Phase.GIVE, (seat + 2) % 4
            else:
                self._meld()
        elif kind is Give:
            self.given = action.cards  # type: ignore[attr-defined]
            self._move(seat, (seat + 2) % 4, self.given)
            self.phase, self.to_act = Phase.RETURN, (seat + 2) % 4
        else:
            self.returned = action.cards  # type: ignore[attr-defined]
            self._move(seat, (seat + 2) % 4, self.returned)
            self._meld()

    def _move(self, giver: int, taker: int, cards: tuple[Card, ...]) -> None:
        for card in cards:
            self._hand[giver][card] -= 1
            self._hand[taker][card] += 1
        self._held[giver] = _kinds(self._hand[giver])
        self._held[taker] = _kinds(self._hand[taker])

    def _call(self, seat: int, action: Action) -> None:
        """docs/rules.md §6 auction: a pass is final; three passes end it; the dealer is
        stuck at the minimum when the first three pass (or, with ``dealer_stuck=no``,
        may bid, and the hand is passed out if the dealer passes too)."""
        self.auction.append((seat, action))
        if isinstance(action, Bid):
            self.high_bid, self.high_bidder = action.amount, seat
        else:
            self._passed[seat] = True
        end, who = after_call(self._passed, self.high_bidder, self.dealer,
                              self.rules.dealer_stuck, seat)
        if end is None:
            self.to_act = who
        elif end is AuctionEnd.WON:
            self._won(who, self.high_bid)
        elif end is AuctionEnd.STUCK:
            self._won(who, self.rules.min_bid)  # docs/rules.md §6: stuck at 50
        else:
            self._passed_out()

    def _won(self, seat: int, contract: int) -> None:
        self.declarer, self.contract = seat, contract
        self.phase, self.to_act = Phase.TRUMP, seat

    def _meld(self) -> None:
        """docs/rules.md §6 meld: every seat shows its meld; the declarer leads."""
        trump = self.trump
        assert trump is not None
        self.melds = tuple(double_meld(self.hand(s), trump, self.rules) for s in range(4))
        self.phase, self.to_act = Phase.PLAY, self.declarer

    def _play(self, seat: int, card: int) -> None:
        counts = self._hand[seat]
        counts[card] -= 1
        if not counts[card]:
            self._held[seat] &= ~(1 << card)
        self.trick.append(card)
        self._trick_seats.append(seat)
        if len(self.trick) < 4:
            self.to_act = (seat + 1) % 4
            return
        trump = self.trump
        assert trump is not None
        index = winner_index(self.trick, trump)
        winner = self._trick_seats[index]
        points = sum(COUNTER_POINTS[c] for c in self.trick)
        if len(self.tricks) == _TRICKS - 1:
            points += LAST_TRICK  # docs/rules.md §6: the last trick is 2
        self.tricks.append(Trick(self._trick_seats[0], tuple(map(Card, self.trick)),
                                 tuple(self._trick_seats), winner, points))
        self.trick_points[winner % 2] += points
        self.trick, self._trick_seats = [], []
        self.to_act = winner
        if len(self.tricks) == _TRICKS:
            self._finish()

    def _passed_out(self) -> None:
        """docs/rules.md "Passed out": nothing is scored and the deal moves left."""
        self.results.append(HandResult(self.hand_number, self.dealer, Outcome.PASSED_OUT,
                                       totals=tuple(self.scores)))
        self._start_deal((self.dealer + 1) % 4, self.deal_index + 1)

    def _finish(self) -> None:
        """Score the hand (docs/rules.md §6 counting and scoring)."""
        rules, melds, declarer = self.rules, self.melds, self.declarer
        assert melds is not None and declarer is not None
        team_meld = (melds[0].points + melds[2].points, melds[1].points + melds[3].points)
        scores, saved, made = score_double_hand(rules, declarer % 2, self.contract, team_meld,
                                                self.trick_points)
        ours = declarer % 2
        for t in (0, 1):
            self.scores[t] += scores[t]
        self.results.append(HandResult(
            self.hand_number, self.dealer, Outcome.MADE if made else Outcome.SET,
            declarer=declarer, contract=self.contract, trump=self.trump, melds=melds,
            meld_points=tuple(team_meld), trick_points=tuple(self.trick_points),
            meld_saved=saved, scores=scores, totals=tuple(self.scores),
            tricks=tuple(self.tricks)))
        over = [t for t in (0, 1) if self.scores[t] >= rules.target]
        if over:  # docs/rules.md §6: both over in one hand, the declaring team wins
            self.winner = ours if len(over) == 2 else over[0]
            self.phase, self.to_act = Phase.GAME_OVER, None
            return
        self._start_deal((self.dealer + 1) % 4, self.deal_index + 1)

    # -- history --------------------------------------------------------------

    def _rewind(self, kept: int) -> None:
        """Nothing to restore beyond the deal (History's checkpoint number is unused)."""

    def _copy_rest(self, new: DoubleDeckGame) -> None:
        new._hand = [list(h) for h in self._hand]

    @property
    def record(self) -> GameRecord:
        """Rules, seed, first dealer, fixed deals and every action: replays this game."""
        return GameRecord(str(self.rules), self.seed, self.first_dealer,
                          tuple(str(a) for a in self.actions),
                          tuple(tuple(str(h) for h in hands) for hands in self.deals))

    @classmethod
    def from_record(cls, record: GameRecord, upto: int | None = None) -> DoubleDeckGame:
        """Replay a record, checking every action (``upto``: stop after that many)."""
        try:
            deals: list[DoubleDeal] = []
            for fixed in record.deals:
                if len(fixed) != 4:
                    raise RecordError("a double-deck deal is four hands")
                a, b, c, d = (DoubleHand.parse(h) for h in fixed)
                deals.append((a, b, c, d))
            game = cls.new(Rules.from_string(record.rules), seed=record.seed,
                           dealer=record.dealer, deals=deals)
        except PinochleError as error:
            raise RecordError(f"record cannot start: {error}") from None
        replay_actions(game.apply, record.actions[:upto], parse_action)
        return game

    # -- views ----------------------------------------------------------------

    def view(self, seat: int | None) -> DoubleView:
        """Exactly what ``seat`` may know now (``None``: a spectator's view): its own
        hand, the passed cards only for the two partners who passed them, the meld
        once it is shown, the auction, the tricks and the scores."""
        if seat is not None and seat not in range(4):
            raise IllegalActionError(f"no seat {seat}: seats are 0 to 3")
        legal = tuple(self.legal_actions()) if seat is not None and seat == self.to_act else ()
        in_pass = self.declarer is not None and sees_passed(self.rules, self.declarer, seat)
        return DoubleView(
            seat=seat, rules=self.rules, phase=self.phase, to_act=self.to_act,
            dealer=self.dealer, hand_number=self.hand_number, scores=tuple(self.scores),
            hand=None if seat is None else self.hand(seat),
            hand_sizes=tuple(sum(h) for h in self._hand), auction=tuple(self.auction),
            high_bid=self.high_bid, high_bidder=self.high_bidder, declarer=self.declarer,
            contract=self.contract, trump=self.trump,
            given=self.given if in_pass else None,
            returned=self.returned if in_pass else None,
            melds=self.melds, moon=False, tricks=tuple(self.tricks),
            trick=tuple(zip(self._trick_seats, map(Card, self.trick), strict=True)),
            trick_points=tuple(self.trick_points), results=tuple(self.results),
            winner=self.winner, legal_actions=legal)

    def public_view(self) -> DoubleView:
        """What a spectator sees: no hidden hand."""
        return self.view(None)

    def __repr__(self) -> str:
        return (f"<DoubleDeckGame {self.rules} seed={self.seed!r} hand {self.hand_number} "
                f"{self.phase} to_act={self.to_act} scores={self.scores}>")
