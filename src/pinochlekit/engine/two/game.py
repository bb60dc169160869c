"""Two-handed pinochle (docs/rules.md §4, Bicycle's version): a game from deal to winner.

The dealer deals 12 cards to each player, three at a time starting with the
opponent, and turns the next card up for trump; the rest is the stock. While
the stock lasts any card may be played; the winner of each trick may lay one
meld and count a dix, then draws first and the loser second; the loser of the
twelfth trick takes the turned-up card. The last twelve tricks are played under
the play rules (old rules by default). Sources where docs/rules.md is silent are
named in ``docs/two-handed.md``.

The interface is :class:`~pinochlekit.engine.game.Game`'s: ``new``, ``phase``,
``to_act``, ``legal_actions()``, ``apply()`` (checked, leaves the game
unchanged on error), ``step()`` (apply, telling what happened), ``verify``,
``can``, ``is_legal``, ``undo``, ``copy``, ``view(seat)``,
``public_view()``, ``scores``, ``winner``, ``results`` and ``record``.

>>> from pinochlekit.engine.two.actions import parse_two_action
>>> game = TwoHandedGame.new("two", seed=5)
>>> game.to_act, len(game.hand(0)), game.stock_size
(1, 12, 24)
>>> game.apply(parse_two_action("meld KS QS"))
Traceback (most recent call last):
...
pinochlekit.PhaseError: cannot meld KS QS by seat 1: seat 1 must play a card
>>> game.step(game.legal_actions()[0])
(CardPlayed(seat=1, card=Card('KS')),)
>>> again = TwoHandedGame.from_record(game.record)
>>> again.view(0) == game.view(0)
True
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from functools import cache

from pinochlekit.engine.actions import PLAYS, Action, Play
from pinochlekit.engine.cards import ALL_CARDS, Card, Hand, Rank, Suit, parse_cards
from pinochlekit.engine.deals import deal_cards, deal_seed
from pinochlekit.engine.errors import (
    GameOverError,
    IllegalActionError,
    NotationError,
    OutOfTurnError,
    PhaseError,
    PinochleError,
    RecordError,
    RulesError,
)
from pinochlekit.engine.events import (
    CardPlayed,
    Dealt,
    Drew,
    Event,
    GameWon,
    HandScored,
    MeldDeclined,
    MeldShown,
    TrickWon,
)
from pinochlekit.engine.history import Checkpoint, History, replay_actions
from pinochlekit.engine.meld import MeldItem, MeldResult, meld_values
from pinochlekit.engine.record import GameRecord
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.scoring import score_two_hand
from pinochlekit.engine.tricks import (
    card_points,
    explain_illegal,
    follow_mask,
    play_flags,
    winner_index,
)
from pinochlekit.engine.two.actions import DIX, NO_MELD, Dix, LayMeld, NoMeld, parse_two_action
from pinochlekit.engine.two.views import (
    MeldEvent,
    TableCard,
    TwoHandedView,
    TwoHandResult,
    TwoStage,
)
from pinochlekit.engine.views import Outcome, Phase, Trick

__all__ = ["TwoDeal", "TwoHandedGame", "combinations"]

#: A fixed deal: the two hands (seat 0, seat 1) and the rest of the deck, the
#: turned-up card first and then the stock in drawing order.
TwoDeal = tuple[Hand, Hand, tuple[Card, ...]]

#: Points by which the target rises when both players reach it in the same hand.
TARGET_STEP = 250

_CLASS_I, _CLASS_II, _CLASS_III = 1, 2, 4
_AROUND_NAMES = ((Rank.ACE, "aces around"), (Rank.KING, "kings around"),
                 (Rank.QUEEN, "queens around"), (Rank.JACK, "jacks around"))
_RUN = (Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK)


def _card(suit: int, rank: int) -> Card:
    return ALL_CARDS[suit * 6 + rank]


@cache
def combinations(trump: int) -> tuple[tuple[str, int, tuple[Card, ...]], ...]:
    """Every single meld of the two-handed table with ``trump``: (name, class bit, cards).

    docs/rules.md §1 Meld (one combination at a time, docs/rules.md §4); the dix is counted
    with the ``dix`` action, not laid as a meld.

    >>> [name for name, _, _ in combinations(0)][:3]
    ['run', 'royal marriage', 'common marriage']
    """
    out: list[tuple[str, int, tuple[Card, ...]]] = [
        ("run", _CLASS_I, tuple(_card(trump, r) for r in _RUN))]
    for suit in range(4):
        name = "royal marriage" if suit == trump else "common marriage"
        item = (name, _CLASS_I, (_card(suit, Rank.KING), _card(suit, Rank.QUEEN)))
        out.insert(1, item) if suit == trump else out.append(item)
    for rank, name in _AROUND_NAMES:
        out.append((name, _CLASS_II, tuple(_card(s, rank) for s in range(4))))
    out.append(("pinochle", _CLASS_III, (_card(0, Rank.QUEEN), _card(2, Rank.JACK))))
    return tuple(out)


_COMBOS = tuple(combinations(t) for t in range(4))
_COMBO_BY_CARDS = tuple({tuple(sorted(cards)): (name, bit, cards) for name, bit, cards in c}
                        for c in _COMBOS)


def _kinds(counts: list[int]) -> int:
    mask = 0
    for k in range(24):
        if counts[k]:
            mask |= 1 << k
    return mask


def _hand_of(counts: list[int]) -> Hand:
    once = twice = 0
    for k in range(24):
        if counts[k]:
            once |= 1 << k
            if counts[k] > 1:
                twice |= 1 << k
    return Hand(once, twice)


def _counts(hand: Hand) -> list[int]:
    return [hand.count(k) for k in range(24)]


class TwoHandedGame(History):
    """A two-handed game from deal to winner (docs/rules.md §4); seats 0 and 1.

    A rejected action raises a subclass of
    :class:`~pinochlekit.IllegalActionError` and changes nothing.
    """

    _LISTS = ("actions", "scores", "results", "_checkpoints", "trick", "_trick_seats",
              "tricks", "trick_points", "meld_points", "events")

    __slots__ = (
        "_checkpoints", "_flags", "_hand", "_known", "_next", "_points", "_stock", "_table",
        "_trick_seats", "_values", "actions", "deal_index", "dealer", "deals", "dealt",
        "dix_counted", "events", "first_dealer", "meld_points", "phase", "results",
        "rules", "scores", "seed", "stage", "target", "to_act", "trick", "trick_points",
        "tricks", "trump", "turn_up", "winner")

    def __init__(self, rules: Rules, seed: int | str, dealer: int = 0,
                 deals: Sequence[TwoDeal] = ()) -> None:
        """Use :meth:`new`; this sets up the first deal."""
        self.rules = rules
        self.seed = seed
        self.first_dealer = dealer
        self.deals = tuple(deals)
        self._points = card_points(rules)
        self._flags = play_flags(rules)
        self._values = meld_values(rules)
        self.actions: list[Action] = []
        self.scores = [0, 0]
        self.results: list[TwoHandResult] = []
        self.winner: int | None = None
        self.target = rules.game_target
        self._checkpoints: list[Checkpoint] = []
        self._start_deal(dealer, 0)

    @classmethod
    def new(cls, rules: Rules | str | None = None, *, seed: int | str | None = None,
            dealer: int = 0, deals: Sequence[TwoDeal] = ()) -> TwoHandedGame:
        """A new game (the ``two`` preset by default). ``seed`` fixes every deal (a random
        one is drawn and recorded if omitted); ``deals`` optionally fixes the first deals."""
        if isinstance(rules, str):
            rules = Rules.from_string(rules)
        rules = rules or Rules.preset("two")
        if rules.players != 2:
            raise RulesError("players", f"the two-handed game needs players=2, not "
                             f"{rules.players}")
        if dealer not in (0, 1):
            raise IllegalActionError("dealer must be seat 0 or seat 1")
        full = Hand((1 << 24) - 1, (1 << 24) - 1)
        for hands in deals:
            first, second, rest = hands
            if len(first) != 12 or len(second) != 12 or len(rest) != 24:
                raise IllegalActionError("a two-handed deal is two hands of 12 cards and the "
                                         "24 others (turned-up card first, then the stock)")
            try:
                whole = first + second + Hand.from_cards(rest)
            except (ValueError, NotationError):
                whole = Hand()
            if whole != full:
                raise IllegalActionError("a deal must hold every card of the deck once")
        return cls(rules, secrets.token_hex(16) if seed is None else seed, dealer, deals)

    # -- setting up a deal ----------------------------------------------------

    def _start_deal(self, dealer: int, index: int) -> None:
        self._checkpoints.append((len(self.actions), dealer, index, tuple(self.scores),
                                  len(self.results), self.target))
        self._restore_deal(dealer, index)

    def _restore_deal(self, dealer: int, index: int) -> None:
        self.dealer = dealer
        self.deal_index = index
        if index < len(self.deals):
            first, second, rest = self.deals[index]
            hands = (first, second)
        else:
            # docs/rules.md §4 (Bicycle): 12 cards each, three at a time from the opponent.
            dealt = deal_cards(deal_seed(self.seed, index), dealer, 2, self.rules.hand_size)
            hands = (dealt.hands[0], dealt.hands[1])
            rest = tuple(ALL_CARDS[k] for k in dealt.stock)
        self.dealt: TwoDeal = (hands[0], hands[1], tuple(rest))
        self._hand = [_counts(hands[0]), _counts(hands[1])]
        self._table: list[list[TableCard]] = [[], []]
        self._known = [[0] * 24, [0] * 24]
        self.turn_up: Card | None = rest[0]
        self.trump = Suit(rest[0] // 6)
        self._stock: tuple[Card, ...] = tuple(rest[1:])
        self._next = 0
        self.phase = Phase.PLAY
        self.stage = TwoStage.EARLY
        self.to_act: int | None = 1 - dealer  # docs/rules.md §4: the non-dealer leads
        self.trick: list[int] = []
        self._trick_seats: list[int] = []
        self.tricks: list[Trick] = []
        self.trick_points = [0, 0]
        self.meld_points = [0, 0]
        self.events: list[MeldEvent] = []
        self.dix_counted = False
        if rest[0] % 6 == Rank.NINE:  # docs/rules.md §4: a 9 turned up scores the dealer 10
            self._score(MeldEvent(dealer, "dix turned up", (rest[0],), self._values["dix"]))

    @property
    def deal_seed(self) -> str:
        """The secret seed of the current deal (see :mod:`pinochlekit.engine.deals`)."""
        return deal_seed(self.seed, self.deal_index)

    @property
    def hand_number(self) -> int:
        """1 for the first deal of the game."""
        return self.deal_index + 1

    @property
    def stock_size(self) -> int:
        """Cards still to be drawn, the turned-up card included."""
        return len(self._stock) - self._next + (self.turn_up is not None)

    @property
    def nine_of_trump(self) -> Card:
        """The dix: the nine of the trump suit."""
        return _card(self.trump, Rank.NINE)

    def hand(self, seat: int) -> Hand:
        """Everything ``seat`` holds: its hidden cards and its cards on the table."""
        return _hand_of(self._holding(seat))

    def hidden(self, seat: int) -> Hand:
        """The cards ``seat`` holds that are not laid on the table."""
        return _hand_of(self._hand[seat])

    def table(self, seat: int) -> tuple[TableCard, ...]:
        """The cards ``seat`` has laid in meld and not played (public)."""
        return tuple(self._table[seat])

    def kind_counts(self, seat: int) -> list[int]:
        """How many of each of the 24 kinds ``seat`` holds, hidden and on the table (a
        new list: changing it does not change the game)."""
        return self._holding(seat)

    @property
    def kind_points(self) -> tuple[int, ...]:
        """The trick points of each of the 24 kinds under this game's rules."""
        return self._points

    def _holding(self, seat: int) -> list[int]:
        counts = list(self._hand[seat])
        for entry in self._table[seat]:
            counts[entry.card] += 1
        return counts

    # -- legal actions --------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take now."""
        seat = self.to_act
        if seat is None:
            return []
        if self.stage is TwoStage.MELD:
            actions: list[Action] = [LayMeld(cards) for _, _, cards in self._meld_options(seat)]
            if self._can_count_dix(seat):
                actions.append(DIX)
            actions.append(NO_MELD)
            return actions
        mask = self._play_mask(seat)
        return [PLAYS[k] for k in range(24) if mask >> k & 1]

    def _play_mask(self, seat: int) -> int:
        kinds = _kinds(self._holding(seat))
        if self.stage is TwoStage.EARLY or not self.trick:
            return kinds  # docs/rules.md §4: no need to follow suit while the stock lasts
        lead = self.trick[0]
        return follow_mask(kinds, lead // 6, lead, self.trump, self._flags)

    def _available(self, seat: int, card: int, bit: int) -> tuple[int, int]:
        """(copies in the hidden hand, table copies that may serve in class ``bit``)."""
        if self.rules.meld_reuse == "once":  # docs/rules.md §2: each card in at most one meld
            return self._hand[seat][card], 0
        table = sum(1 for t in self._table[seat] if t.card == card and not t.classes & bit)
        return self._hand[seat][card], table

    def _meld_options(self, seat: int) -> list[tuple[str, int, tuple[Card, ...]]]:
        """The melds ``seat`` may lay now: every card available for the class, at least
        one from the hand (docs/rules.md §4)."""
        out = []
        for name, bit, cards in _COMBOS[self.trump]:
            avail = [self._available(seat, c, bit) for c in cards]
            if all(h + t for h, t in avail) and any(h for h, _ in avail):
                out.append((name, bit, cards))
        return out

    def _can_count_dix(self, seat: int) -> bool:
        return not self.dix_counted and self._hand[seat][self.nine_of_trump] > 0

    # -- checking -------------------------------------------------------------

    def verify(self, action: Action, seat: int | None = None) -> None:
        """Raise the error :meth:`apply` would raise for ``action`` (by ``seat``, if
        given), naming the rule broken; return quietly if it is legal. Changes nothing.

        :class:`~pinochlekit.GameOverError`, :class:`~pinochlekit.OutOfTurnError`,
        :class:`~pinochlekit.PhaseError` (a play during the meld turn, a meld during
        the play, an action of the other games) or
        :class:`~pinochlekit.IllegalActionError`.
        """
        self._check(action, seat)

    def can(self, action: Action, seat: int | None = None) -> bool:
        """Whether :meth:`apply` would accept ``action`` (by ``seat``, if given)."""
        try:
            self._check(action, seat)
        except IllegalActionError:
            return False
        return True

    is_legal = can  # the older name, used throughout

    def _wants(self) -> str:
        if self.stage is TwoStage.MELD:
            return f"seat {self.to_act} won the trick and may meld, count the dix or say 'no meld'"
        return f"seat {self.to_act} must play a card"

    def _check(self, action: Action, seat: int | None) -> None:
        if self.winner is not None:
            raise GameOverError(f"the game is over: seat {self.winner} won; no more actions")
        actor = self.to_act
        assert actor is not None
        if seat is not None and seat != actor:
            raise OutOfTurnError(f"{action} by seat {seat}: it is seat {actor}'s turn "
                                 f"({self.stage})")
        who = f"by seat {actor}"
        kind = type(action)
        if kind is Play:
            card = action.card  # type: ignore[attr-defined]
            if self.stage is TwoStage.MELD:
                raise PhaseError(f"cannot {action} {who}: {self._wants()}")
            mask = self._play_mask(actor)
            if not mask >> card & 1:
                kinds = _kinds(self._holding(actor))
                reason = explain_illegal(kinds, self.trick, self.trump, self.rules, False, card)
                raise IllegalActionError(f"illegal play {card} {who}: {reason}")
            return
        if kind not in (LayMeld, Dix, NoMeld):
            raise PhaseError(f"cannot {action} {who}: the two-handed game has no auction or "
                             f"passing; {self._wants()}")
        if self.stage is not TwoStage.MELD:
            raise PhaseError(f"cannot {action} {who}: {self._wants()}")
        if kind is Dix:
            if self.dix_counted:
                raise IllegalActionError(f"illegal dix {who}: one dix per won trick")
            if not self._hand[actor][self.nine_of_trump]:
                raise IllegalActionError(f"illegal dix {who}: seat {actor} holds no "
                                         f"{self.nine_of_trump} in hand to count")
        elif kind is LayMeld:
            self._check_meld(action, actor)  # type: ignore[arg-type]

    def _check_meld(self, action: LayMeld, actor: int) -> None:
        who = f"illegal {action} by seat {actor}"
        combo = _COMBO_BY_CARDS[self.trump].get(tuple(sorted(action.cards)))
        if combo is None:
            hint = ("count the dix with 'dix'" if action.cards == (self.nine_of_trump,) else
                    "lay one run, marriage, arounds or pinochle at a time")
            raise IllegalActionError(f"{who}: not a meld of the two-handed game ({hint})")
        _, bit, cards = combo
        klass = ("I", "II", "", "III")[bit - 1]
        from_hand = False
        for card in cards:
            hand, table = self._available(actor, card, bit)
            if not hand and not table:
                if any(t.card == card for t in self._table[actor]):
                    raise IllegalActionError(
                        f"{who}: {card} has already served in a class {klass} meld (a melded "
                        f"card may be used again only in a meld of another class)")
                raise IllegalActionError(f"{who}: seat {actor} does not hold {card}")
            from_hand = from_hand or hand > 0
        if not from_hand:
            raise IllegalActionError(f"{who}: at least one card of a meld must come from the "
                                     f"hand, not all from the table")

    # -- applying -------------------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply ``action`` for the seat to act (checked against ``seat`` if given).

        Raises a subclass of :class:`~pinochlekit.IllegalActionError` and
        leaves the game unchanged if the rules forbid the action.
        """
        self._check(action, seat)
        self.apply_unchecked(action)

    def step(self, action: Action, seat: int | None = None) -> tuple[Event, ...]:
        """:meth:`apply` ``action`` and return what it caused, in order (see
        :mod:`pinochlekit.engine.events`); :meth:`apply` itself reports nothing.

        Raises what :meth:`verify` raises and changes nothing if the rules forbid it.
        """
        self._check(action, seat)
        actor = self.to_act
        assert actor is not None
        results, tricks, melds = len(self.results), len(self.tricks), len(self.events)
        drawn, turn_up = self._next, self.turn_up
        self.apply_unchecked(action)
        kind = type(action)
        if kind is Play:
            events: list[Event] = [CardPlayed(actor, action.card)]  # type: ignore[attr-defined]
        else:  # docs/rules.md §4: a meld or the dix, or none, then the draw (not after the dix)
            events = [MeldShown(e.seat, e.points, (MeldItem(e.name, e.cards, e.points),))
                      for e in self.events[melds:]] or [MeldDeclined(actor)]
            if kind is not Dix:
                cards = [(c, False) for c in self._stock[drawn:self._next]]
                if turn_up is not None and self.turn_up is None:
                    cards.append((turn_up, True))  # the loser takes the turned-up trump
                events += [Drew(s, c, public) for s, (c, public)
                           in zip((actor, 1 - actor), cards, strict=False)]
        result = self.results[-1] if len(self.results) > results else None
        done = self.tricks if result is None else result.tricks
        if len(done) > tricks:
            events.append(TrickWon(len(done), done[-1]))
        if result is not None:
            events.append(HandScored(result))
            if self.winner is not None:
                events.append(GameWon(self.winner))
            else:
                events.append(Dealt(self.hand_number, self.dealer))
                events += [MeldShown(e.seat, e.points, (MeldItem(e.name, e.cards, e.points),))
                           for e in self.events]  # docs/rules.md §4: a nine turned up
        return tuple(events)

    def apply_unchecked(self, action: Action) -> None:
        """Apply an action known to be legal, without checking (the fast path for
        search). An illegal action here corrupts the game; use :meth:`apply`."""
        seat = self.to_act
        assert seat is not None
        self.actions.append(action)
        kind = type(action)
        if kind is Play:
            self._play(seat, action.card)  # type: ignore[attr-defined]
        elif kind is LayMeld:
            self._lay(seat, action.cards)  # type: ignore[attr-defined]
            self._draw(seat)  # one meld per won trick, then the draw
        elif kind is Dix:
            self._dix(seat)
        else:
            self._draw(seat)

    def _score(self, event: MeldEvent) -> None:
        self.events.append(event)
        self.meld_points[event.seat] += event.points

    def _lay(self, seat: int, cards: tuple[Card, ...]) -> None:
        """Lay a meld: table copies free for the class first, at least one card from
        the hand (docs/rules.md §4); the cards become public."""
        name, bit, _ = _COMBO_BY_CARDS[self.trump][tuple(sorted(cards))]
        use: list[tuple[Card, bool]] = []  # (card, from the table)
        for card in cards:
            _, table = self._available(seat, card, bit)
            use.append((card, table > 0))
        if all(from_table for _, from_table in use):
            first = next(i for i, (c, _) in enumerate(use) if self._hand[seat][c])
            use[first] = (use[first][0], False)
        side = self._table[seat]
        for card, from_table in use:
            if from_table:
                i = next(i for i, t in enumerate(side) if t.card == card and not t.classes & bit)
                side[i] = TableCard(card, side[i].classes | bit)
            else:
                self._hand[seat][card] -= 1
                side.append(TableCard(card, bit))
                # Known copies are a lower bound the opponent can work out: the copy laid
                # may be one already known (a turned-up card taken), or another.
                on_table = sum(1 for t in side if t.card == card)
                self._known[seat][card] = max(self._known[seat][card], on_table)
        self._score(MeldEvent(seat, name, tuple(cards), self._values[name]))

    def _dix(self, seat: int) -> None:
        """docs/rules.md §4: exchange the dix for the turned-up card while it is there (and is
        not itself a nine of trump), else show it; 10 points either way."""
        nine = self.nine_of_trump
        self._hand[seat][nine] -= 1
        turn_up = self.turn_up
        if turn_up is not None and turn_up != nine:
            self._hand[seat][turn_up] += 1
            self._known[seat][turn_up] += 1
            self.turn_up = nine
            name = "dix exchanged"
        else:
            self._table[seat].append(TableCard(nine, _CLASS_I))
            on_table = sum(1 for t in self._table[seat] if t.card == nine)
            self._known[seat][nine] = max(self._known[seat][nine], on_table)
            name = "dix"
        self._score(MeldEvent(seat, name, (nine,), self._values["dix"]))
        self.dix_counted = True

    def _draw(self, winner: int) -> None:
        """docs/rules.md §4: the winner draws first, the loser second; the last card drawn is
        the turned-up trump. With the stock gone the melded cards go back to the hands."""
        loser = 1 - winner
        for seat in (winner, loser):
            if self._next < len(self._stock):
                self._hand[seat][self._stock[self._next]] += 1
                self._next += 1
            else:
                assert self.turn_up is not None
                self._hand[seat][self.turn_up] += 1
                self._known[seat][self.turn_up] += 1
                self.turn_up = None
        self.dix_counted = False
        self.to_act = winner
        if self.turn_up is None:
            self.stage = TwoStage.LATE
            for seat in (0, 1):
                for entry in self._table[seat]:
                    self._hand[seat][entry.card] += 1
                self._table[seat] = []
        else:
            self.stage = TwoStage.EARLY

    def _play(self, seat: int, card: int) -> None:
        side = self._table[seat]
        on_table = [i for i, t in enumerate(side) if t.card == card]
        if on_table:
            # A card with a copy on the table is played from the table: the hidden copy
            # can do everything the table copy can (docs/two-handed.md).
            i = max(on_table, key=lambda j: (side[j].classes.bit_count(), -j))
            del side[i]
        else:
            self._hand[seat][card] -= 1
        if self._known[seat][card]:
            self._known[seat][card] -= 1
        self.trick.append(card)
        self._trick_seats.append(seat)
        if len(self.trick) == 1:
            self.to_act = 1 - seat
            return
        winner = self._trick_seats[winner_index(self.trick, self.trump)]
        points = self._points[self.trick[0]] + self._points[self.trick[1]]
        last = self.stage is TwoStage.LATE and not any(self._hand[winner])
        if last:
            points += 10 // self.rules.unit  # docs/rules.md §4: last trick 10
        self.trick_points[winner] += points
        self.tricks.append(Trick(self._trick_seats[0], tuple(ALL_CARDS[c] for c in self.trick),
                                 tuple(self._trick_seats), winner, points))
        self.trick = []
        self._trick_seats = []
        self.to_act = winner
        if self.stage is TwoStage.EARLY:
            self.stage = TwoStage.MELD
        elif last:
            self._finish()

    # -- scoring --------------------------------------------------------------

    def _meld_results(self) -> tuple[MeldResult, MeldResult]:
        out = []
        for seat in (0, 1):
            items = tuple(MeldItem(e.name, e.cards, e.points) for e in self.events
                          if e.seat == seat)
            need = [0] * 24
            for item in items:
                for card in set(item.cards):
                    need[card] = min(2, max(need[card], item.cards.count(card)))
            shown = Hand.from_cards(k for k in range(24) for _ in range(need[k]))
            out.append(MeldResult(sum(i.points for i in items), items, shown))
        return out[0], out[1]

    def _finish(self) -> None:
        """Score the hand: each player's meld plus trick points (docs/rules.md §4)."""
        scores = score_two_hand(self.meld_points, self.trick_points)
        for seat in (0, 1):
            self.scores[seat] += scores[seat]
        result = TwoHandResult(
            self.hand_number, self.dealer, Outcome.MADE, trump=self.trump,
            melds=self._meld_results(), meld_points=tuple(self.meld_points),
            trick_points=tuple(self.trick_points), meld_saved=(True, True),
            scores=tuple(scores), totals=tuple(self.scores), tricks=tuple(self.tricks),
            events=tuple(self.events), target=self.target)
        self.results.append(result)
        while all(score >= self.target for score in self.scores):
            # Both reached the target in one hand: the game goes on to 250 more
            # (Bicycle's two-hand rules, docs/two-handed.md).
            self.target += TARGET_STEP // self.rules.unit
        over = [s for s in (0, 1) if self.scores[s] >= self.target]
        if over:
            self.winner = over[0]
            self.phase, self.stage, self.to_act = Phase.GAME_OVER, TwoStage.OVER, None
            return
        self._start_deal(1 - self.dealer, self.deal_index + 1)

    # -- history --------------------------------------------------------------

    def _rewind(self, kept: int) -> None:
        self.target = kept  # the checkpoint's number: the target (docs/rules.md §4)

    def _copy_rest(self, new: TwoHandedGame) -> None:
        new._hand = [list(h) for h in self._hand]
        new._known = [list(k) for k in self._known]
        new._table = [list(t) for t in self._table]

    @property
    def record(self) -> GameRecord:
        """Rules, seed, first dealer, fixed deals and every action: replays this game."""
        return GameRecord(str(self.rules), self.seed, self.first_dealer,
                          tuple(str(a) for a in self.actions),
                          tuple((str(a), str(b), " ".join(map(str, rest)))
                                for a, b, rest in self.deals))

    @classmethod
    def from_record(cls, record: GameRecord, upto: int | None = None) -> TwoHandedGame:
        """Replay a record, checking every action (``upto``: stop after that many)."""
        try:
            deals: list[TwoDeal] = []
            for fixed in record.deals:
                if len(fixed) != 3:
                    raise RecordError("a two-handed deal is two hands and the other 24 cards")
                deals.append((Hand.parse(fixed[0]), Hand.parse(fixed[1]),
                              tuple(parse_cards(fixed[2]))))
            game = cls.new(Rules.from_string(record.rules), seed=record.seed,
                           dealer=record.dealer, deals=deals)
        except PinochleError as error:
            raise RecordError(f"record cannot start: {error}") from None
        replay_actions(game.apply, record.actions[:upto], parse_two_action)
        return game

    @classmethod
    def from_view(cls, view: TwoHandedView, opponent: Hand,
                  stock: Sequence[int]) -> TwoHandedGame:
        """A position for simulations: what ``view``'s seat knows, with the hidden parts
        filled in (``opponent``: the opponent's hidden cards; ``stock``: the face-down
        stock in drawing order). It plays on like any game, but has no history: its
        record holds no actions and :meth:`undo` raises :class:`PhaseError`."""
        seat = view.seat
        if seat is None or view.hand is None or view.trump is None:
            raise IllegalActionError("a position needs a seat's view of a hand in play")
        game = cls.__new__(cls)
        game.rules, game.seed, game.first_dealer, game.deals = view.rules, "position", 0, ()
        game._points = card_points(view.rules)
        game._flags = play_flags(view.rules)
        game._values = meld_values(view.rules)
        game.actions = []
        game.scores = list(view.scores)
        game.results = [r for r in view.results if isinstance(r, TwoHandResult)]
        game.winner = view.winner
        game.target = view.target
        game.dealer, game.deal_index = view.dealer, view.hand_number - 1
        game._checkpoints = []
        own = _counts(view.hand)
        for entry in view.table[seat]:
            own[entry.card] -= 1
        game._hand = [[], []]
        game._hand[seat] = own
        game._hand[1 - seat] = _counts(opponent)
        game._table = [list(view.table[0]), list(view.table[1])]
        game._known = [_counts(view.known[0]), _counts(view.known[1])]
        game.turn_up, game.trump = view.turn_up, view.trump
        game._stock, game._next = tuple(ALL_CARDS[c] for c in stock), 0
        game.dealt = (_hand_of(game._hand[0]), _hand_of(game._hand[1]), game._stock)
        game.phase, game.stage, game.to_act = view.phase, view.stage, view.to_act
        game.trick = [c for _, c in view.trick]
        game._trick_seats = [s for s, _ in view.trick]
        game.tricks = list(view.tricks)
        game.trick_points = list(view.trick_points)
        game.meld_points = list(view.meld_points)
        game.events = list(view.events)
        game.dix_counted = view.dix_counted
        return game

    # -- views ----------------------------------------------------------------

    def view(self, seat: int | None) -> TwoHandedView:
        """Exactly what ``seat`` may know now (``None``: a spectator's view)."""
        if seat is not None and seat not in (0, 1):
            raise IllegalActionError(f"no seat {seat}: seats are 0 and 1")
        legal = tuple(self.legal_actions()) if seat is not None and seat == self.to_act else ()
        melds = self._meld_results()
        return TwoHandedView(
            seat=seat, rules=self.rules, phase=self.phase, to_act=self.to_act,
            dealer=self.dealer, hand_number=self.hand_number, scores=tuple(self.scores),
            hand=None if seat is None else self.hand(seat),
            hand_sizes=tuple(sum(self._holding(s)) for s in (0, 1)),
            auction=(), high_bid=0, high_bidder=None, declarer=None, contract=0,
            trump=self.trump, given=None, returned=None, melds=melds, moon=False,
            tricks=tuple(self.tricks),
            trick=tuple(zip(self._trick_seats, (ALL_CARDS[c] for c in self.trick),
                            strict=True)),
            trick_points=tuple(self.trick_points), results=tuple(self.results),
            winner=self.winner, legal_actions=legal,
            stage=self.stage, turn_up=self.turn_up, stock_size=self.stock_size,
            table=(tuple(self._table[0]), tuple(self._table[1])),
            known=(_hand_of(self._known[0]), _hand_of(self._known[1])),
            events=tuple(self.events), meld_points=tuple(self.meld_points),
            target=self.target, dix_counted=self.dix_counted)

    def public_view(self) -> TwoHandedView:
        """What a spectator sees: no hidden hand."""
        return self.view(None)

    def __repr__(self) -> str:
        return (f"<TwoHandedGame {self.rules} seed={self.seed!r} hand {self.hand_number} "
                f"{self.stage} to_act={self.to_act} scores={self.scores}>")
