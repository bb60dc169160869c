"""A whole game of auction pinochle, from deal to winner: four-handed partnerships
(docs/rules.md §1). The three-handed game with a widow (docs/rules.md §3) is the
subclass :class:`~pinochlekit.engine.three.game.ThreeHandedGame`, which overrides the
hooks where the widow changes the game (the deal, winning the auction, the discard,
the cards set aside); ``Game.new`` builds it when the rules have three players.

The game is a pure function of (rules, seed, actions): :attr:`Game.record`
holds exactly those, and replaying it gives the same game.

>>> from pinochlekit import Game, Rules, parse_action
>>> game = Game.new(Rules(), seed=7, dealer=3)
>>> game.phase, game.to_act
(<Phase.AUCTION: 'auction'>, 0)
>>> game.apply(parse_action("bid 250"))
>>> game.apply(parse_action("bid 245"))
Traceback (most recent call last):
...
pinochlekit.IllegalActionError: illegal bid 245 by seat 1: the bid must be at least 260
>>> game.to_act, len(game.record.actions)
(1, 1)
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, ClassVar

from pinochlekit import native as _accel
from pinochlekit.engine.actions import (
    PLAYS,
    Action,
    Bid,
    Discard,
    Give,
    Moon,
    NameTrump,
    Pass,
    Play,
    Redeal,
    Return,
    ThrowIn,
    parse_action,
)
from pinochlekit.engine.auction import AuctionEnd, after_call
from pinochlekit.engine.cards import ALL_CARDS, Card, Hand, Rank, Suit, cards_of_mask, trusted_hand
from pinochlekit.engine.deals import deal, deal_seed
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
    ContractWon,
    Dealt,
    Event,
    GameWon,
    HandScored,
    MeldShown,
    TrickWon,
    action_event,
)
from pinochlekit.engine.history import Checkpoint, History, replay_actions
from pinochlekit.engine.meld import MeldResult, meld, meld_of_masks
from pinochlekit.engine.passing import card_choices
from pinochlekit.engine.record import GameRecord
from pinochlekit.engine.rules import MOST_POINTS, Rules
from pinochlekit.engine.scoring import score_hand
from pinochlekit.engine.three.widow import widow_of
from pinochlekit.engine.tricks import (
    card_points,
    explain_illegal,
    follow_mask,
    legal_mask,
    play_flags,
)
from pinochlekit.engine.views import (
    HandResult,
    Outcome,
    Phase,
    Trick,
    View,
    sees_discard,
    sees_passed,
)

if TYPE_CHECKING:
    from pinochlekit.engine.variants import Variant
    from pinochlekit.native._table import Table

__all__ = ["Game", "install_find_variant"]

_NO_WIDOW = Hand()  # hands are immutable: one empty widow serves every deal
_NINES = sum(1 << (s * 6 + Rank.NINE) for s in range(4))


# For each suit and 6-bit chunk of a mask, the plays of those kinds, lowest first.
_PLAYS_BY_SUIT: tuple[tuple[list[Action], ...], ...] = tuple(
    tuple([PLAYS[c] for c in cards_of_mask(bits << (6 * suit))] for bits in range(64))
    for suit in range(4))


_PLAY_LISTS: dict[int, tuple[Action, ...]] = {}
_PLAY = Phase.PLAY
_AUCTION = Phase.AUCTION
_THROW_IN, _MOON, _PASS, _PASS_HELP, _REDEAL = ThrowIn(), Moon(), Pass(), Pass(help=True), Redeal()
_SUITS = tuple(Suit)
_NAME_TRUMP = tuple(NameTrump(s) for s in Suit)  # shared, like the plays: actions are frozen


def _plays_of(mask: int) -> list[Action]:
    """The plays of the kinds in ``mask``, lowest kind first (memoized by mask)."""
    plays = _PLAY_LISTS.get(mask)
    if plays is None:
        if len(_PLAY_LISTS) > 200_000:
            _PLAY_LISTS.clear()
        plays = _PLAY_LISTS[mask] = tuple(
            _PLAYS_BY_SUIT[0][mask & 63] + _PLAYS_BY_SUIT[1][mask >> 6 & 63]
            + _PLAYS_BY_SUIT[2][mask >> 12 & 63] + _PLAYS_BY_SUIT[3][mask >> 18 & 63])
    return list(plays)


@lru_cache(maxsize=64)
def _bid_ladder(rules: Rules) -> tuple[Bid, ...]:
    """Every bid from the opening bid up to the most a team could ever score."""
    top = max_bid(rules)
    return tuple(Bid(b) for b in range(rules.opening_bid, top + 1, rules.step))


#: For each bid ladder (by identity, which _bid_ladder keeps alive): the auction's legal
#: actions before any redeal, keyed by 3 * (index of the lowest bid) + the passes
#: allowed (0: none, the first bidder must open; 1: pass; 2: pass and pass help).
_AUCTION_LISTS: dict[int, tuple[tuple[Bid, ...], dict[int, tuple[Action, ...]]]] = {}
_PASSES: tuple[tuple[Action, ...], ...] = ((), (_PASS,), (_PASS, _PASS_HELP))


def _auction_lists(ladder: tuple[Bid, ...]) -> dict[int, tuple[Action, ...]]:
    """The memo of auction action lists of ``ladder`` (see :data:`_AUCTION_LISTS`)."""
    entry = _AUCTION_LISTS.get(id(ladder))
    if entry is None or entry[0] is not ladder:
        if len(_AUCTION_LISTS) > 256:
            _AUCTION_LISTS.clear()
        entry = _AUCTION_LISTS[id(ladder)] = (ladder, {})
    return entry[1]


def max_bid(rules: Rules) -> int:
    """The highest bid accepted: more than one team can ever score in a hand.

    The most meld twelve cards can hold is 1,800 (a double run in spades or
    diamonds with the double pinochle's other two cards; the double run is the
    only meld worth more than 1,000 and takes ten cards), so a team scores at
    most 2 x 1,800 + 250 = 3,850 in the ordinary scale.
    """
    top = MOST_POINTS // rules.unit  # Rules refuses a min_bid above it
    return top - (top - rules.opening_bid) % rules.step


#: :func:`pinochlekit.engine.variants.find_variant`, the one place that maps rules to the
#: class that plays them, for ``Game.new``. That module imports this one, so this one
#: does not import it: it installs its finder here as it loads
#: (:func:`install_find_variant`), and ``import pinochlekit`` loads it.
_find_variant: Callable[[Rules], type[Variant]] | None = None


def install_find_variant(find: Callable[[Rules], type[Variant]]) -> None:
    """Make ``find`` what ``Game.new`` asks for the class that plays some rules (done
    by :mod:`pinochlekit.engine.variants`)."""
    global _find_variant
    _find_variant = find


#: Each phase of a hand in words, for refusing an action of another phase.
_DURING = {Phase.AUCTION: "during the auction", Phase.TRUMP: "while trump is named",
           Phase.GIVE: "while cards are passed to the declarer",
           Phase.RETURN: "while cards are passed back", Phase.DISCARD: "while the declarer "
           "discards", Phase.PLAY: "during the play"}

class Game(History):
    """A game from deal to winner: ``phase``, ``to_act``, ``legal_actions()``,
    ``verify()`` (raises why an action is refused), ``can()`` (alias ``is_legal()``),
    ``apply()``, ``step()`` (apply, returning the events), ``undo()``, ``copy()``,
    ``view(seat)``, ``record``.

    A rejected action raises a subclass of
    :class:`~pinochlekit.IllegalActionError` and changes nothing.

    A game of another number of seats is a subclass that names them in :attr:`SEATS`
    (as :class:`~pinochlekit.engine.three.game.ThreeHandedGame`); :meth:`new` called
    on ``Game`` builds the subclass that
    :func:`~pinochlekit.engine.variants.find_variant` finds for the rules.
    """

    #: The numbers of players this class plays (docs/rules.md §1: four); its variant in
    #: :mod:`pinochlekit.engine.variants` matches rules by them.
    SEATS: ClassVar[tuple[int, ...]] = (4,)
    _LISTS = ("actions", "scores", "results", "_checkpoints", "_once", "_twice", "auction",
              "_passed", "_spoken", "tricks", "trick", "_trick_seats", "trick_points")

    # Slots keep attribute access fast on the hot path (and copies cheap).
    __slots__ = (
        "_auction_lists", "_checkpoints", "_first_required", "_flags", "_high", "_high_seat",
        "_ladder", "_mask", "_mask_key",
        "_meld_key", "_n", "_once", "_opening", "_passed", "_points", "_redeals", "_spoken",
        "_step", "_table", "_table_rules", "_target", "_team_melds", "_teams", "_trick_seats",
        "_trick_size", "_trick_total", "_twice", "_widow", "_widow_size", "actions", "auction",
        "contract",
        "deal_index", "dealer", "deals", "dealt", "declarer", "discards", "first_dealer",
        "given",
        "high_bid", "high_bidder", "melds", "moon", "phase", "results", "returned", "rules",
        "scores", "seed", "to_act", "trick", "trick_points", "tricks", "trump", "winner")

    def __init__(self, rules: Rules, seed: int | str, dealer: int = 0,
                 deals: Sequence[Sequence[Hand]] = ()) -> None:
        """Use :meth:`new`; this sets up the first deal."""
        self.rules = rules
        self.seed = seed
        self.first_dealer = dealer
        self.deals = tuple(tuple(d) for d in deals)
        self._points = card_points(rules)
        self._flags = play_flags(rules)
        self._ladder = _bid_ladder(rules)
        self._auction_lists = _auction_lists(self._ladder)
        self._first_required = rules.first_bid_required
        self._opening, self._step = rules.opening_bid, rules.step
        self._n = rules.players
        self._teams = tuple(rules.team_of(s) for s in range(rules.players))
        # Rules values read once a deal, looked up once here.
        self._widow_size, self._trick_total = rules.widow_size, rules.trick_total
        self._target = rules.game_target
        self._meld_key = (rules.doubles, rules.run_extra, rules.meld_reuse, rules.unit)
        self._table_rules = (self._flags, rules.first_lead == "trump", self._points,
                             10 // rules.unit, self._teams)  # docs/rules.md §1 Counting: last trick
        self.actions: list[Action] = []
        self._mask_key = -1
        self._mask = 0
        self.scores = [0] * rules.teams
        self.results: list[HandResult] = []
        self.winner: int | None = None
        self._checkpoints: list[Checkpoint] = []
        self._redeals = 0
        self._start_deal(dealer, 0)

    @classmethod
    def new(cls, rules: Rules | str | None = None, *, seed: int | str | None = None,
            dealer: int = 0, deals: Sequence[Sequence[Hand]] = ()) -> Game:
        """A new game. ``seed`` fixes every deal (a random one is drawn and recorded if
        omitted); ``deals`` optionally fixes the first deals, hand by hand, for tests.
        ``Game.new`` gives the subclass :func:`~pinochlekit.engine.variants.find_variant`
        finds for the rules (its number of players); a subclass
        refuses rules for another number with :class:`~pinochlekit.RulesError`."""
        if isinstance(rules, str):
            rules = Rules.from_string(rules)
        rules = rules or Rules()
        if rules.deck != "single":  # docs/rules.md §6: its own game, engine/double/
            raise RulesError("deck", "the double deck is played by DoubleDeckGame "
                             "(pinochlekit.engine.games.new_any_game builds either)")
        if cls is Game:
            if _find_variant is None:  # pragma: no cover - the package loads the variants
                raise RulesError("players", "no variant is loaded to choose the game: "
                                 "import pinochlekit")
            found = _find_variant(rules).game
            if not issubclass(found, Game):  # docs/rules.md §4: no auction, a stock
                raise RulesError("players", f"the {rules.players}-handed game is played by "
                                 f"{found.__name__} (pinochlekit.new_game builds any game)")
            cls = found
        elif rules.players not in cls.SEATS:
            raise RulesError("players", f"{cls.__name__} plays with "
                             f"{' or '.join(map(str, cls.SEATS))} players, not {rules.players}")
        if not 0 <= dealer < rules.players:
            raise IllegalActionError(f"dealer must be a seat from 0 to {rules.players - 1}")
        for hands in deals:
            if len(hands) != rules.players or any(len(h) != rules.hand_size for h in hands):
                raise IllegalActionError(f"a deal is {rules.players} hands of "
                                         f"{rules.hand_size} cards")
            try:
                rest = widow_of(hands)
            except (ValueError, PinochleError):
                rest = None
            if rest is None or len(rest) != rules.widow_size:
                raise IllegalActionError("a deal must hold every card of the deck once"
                                         + (f" (the {rules.widow_size} left over make the "
                                            f"widow)" if rules.widow_size else ""))
        return cls(rules, secrets.token_hex(16) if seed is None else seed, dealer, deals)

    # -- setting up a deal ----------------------------------------------------

    def _start_deal(self, dealer: int, index: int) -> None:
        self._checkpoints.append((len(self.actions), dealer, index, tuple(self.scores),
                                  len(self.results), self._redeals))
        self._restore_deal(dealer, index)

    def _restore_deal(self, dealer: int, index: int) -> None:
        self.dealer = dealer
        self.deal_index = index
        hands, self._widow = self._deal(dealer, index)
        self.dealt = tuple(hands)
        self._once = [h.once for h in hands]
        self._twice = [h.twice for h in hands]
        self._mask_key = -1
        self.phase = Phase.AUCTION
        self.to_act: int | None = (dealer + 1) % self._n
        self.auction: list[tuple[int, Action]] = []
        self._passed = [False] * self._n
        self._spoken = [False] * self._n
        self.high_bid = 0
        self.high_bidder: int | None = None
        self.declarer: int | None = None
        self.contract = 0
        self.trump: Suit | None = None
        self.given: tuple[Card, ...] | None = None
        self.returned: tuple[Card, ...] | None = None
        self.discards: tuple[Card, ...] | None = None
        self.melds: tuple[MeldResult, ...] | None = None
        # each team's meld, with the melds it was summed from (set by _meld)
        self._team_melds: tuple[tuple[MeldResult, ...] | None, list[int]] = (None, [])
        self.moon = False
        self._trick_size = self._n
        self.tricks: list[Trick] = []
        self.trick: list[int] = []
        self._trick_seats: list[int] = []
        self._high = self._high_seat = 0
        self.trick_points = [0] * len(self.scores)
        self._table: Table | None = None

    def _deal(self, dealer: int, index: int) -> tuple[Sequence[Hand], Hand]:
        """The hands of deal ``index`` (fixed, or from the seed) and the widow (none)."""
        if index < len(self.deals):
            return self.deals[index], _NO_WIDOW
        return deal(deal_seed(self.seed, index), dealer, self._n), _NO_WIDOW

    def _start_play(self) -> None:
        """Enter the play phase; the C table takes over the card play if it is built."""
        assert self.declarer is not None and self.trump is not None
        self.phase, self.to_act = Phase.PLAY, self.declarer
        fast = _accel.table
        if fast is not None:
            self._table = fast.Table(
                self._n, self.declarer, int(self.trump), *self._table_rules, self._once,
                self._twice, self.trick, self._trick_seats, self.tricks, self.trick_points,
                ALL_CARDS, PLAYS, Trick,
                (_THROW_IN, _MOON) if self.rules.shoot_the_moon else (_THROW_IN,))

    @property
    def deal_seed(self) -> str:
        """The secret seed of the current deal (see :mod:`pinochlekit.engine.deals`)."""
        return deal_seed(self.seed, self.deal_index)

    @property
    def hand_number(self) -> int:
        """1 for the first deal of the game, counting redeals and passed-out deals."""
        return self.deal_index + 1

    def hand(self, seat: int) -> Hand:
        """The cards ``seat`` holds now."""
        return trusted_hand(self._once[seat], self._twice[seat])

    def partner(self, seat: int) -> int:
        """The partner of a seat (four-handed); :class:`PhaseError` without partners."""
        if not self.rules.partnership:
            raise PhaseError(f"no partners in the {self._n}-handed game")
        return (seat + 2) % 4

    @property
    def widow(self) -> Hand | None:
        """The widow, face up once the auction is won: ``None`` in a game without one
        (the three-handed game has one, docs/rules.md §3)."""
        return None

    def _next_seat(self, seat: int) -> int:
        nxt = (seat + 1) % self._n
        if self.moon and self.declarer is not None and nxt == self.partner(self.declarer):
            nxt = (nxt + 1) % self._n
        return nxt

    # -- legal actions --------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take now (bids up to :func:`max_bid`)."""
        phase, seat = self.phase, self.to_act
        if seat is None:
            return []
        if phase is _PLAY:
            table = self._table
            if table is not None:
                return table.legal()  # with the concede actions of _may_concede
            actions: list[Action] = _plays_of(self._play_mask(seat))
            if self._may_concede():
                actions.append(_THROW_IN)
                if self.rules.shoot_the_moon:
                    actions.append(_MOON)
            return actions
        if phase is _AUCTION:
            rules = self.rules
            # the passes allowed (_must_open inlined), then every bid from _lowest_bid up
            passes = 0 if (self._first_required and seat == (self.dealer + 1) % self._n
                           and not self._spoken[seat]) else 2 if rules.pass_with_help else 1
            low = 0 if self.high_bidder is None else (self.high_bid - self._opening
                                                      ) // self._step + 1
            key = 3 * low + passes
            listed = self._auction_lists.get(key)
            if listed is None:
                listed = self._auction_lists[key] = _PASSES[passes] + self._ladder[low:]
            actions = list(listed)
            if rules.nines_redeal != "off" and self._may_redeal(seat):
                actions.append(_REDEAL)
            return actions
        if phase is Phase.TRUMP:
            return [_NAME_TRUMP[s] for s in self._trump_choices()]
        return self._passing_actions(phase, seat)

    def _passing_actions(self, phase: Phase, seat: int) -> list[Action]:
        """The legal actions of the phases that move cards between hands: the give and
        the return (docs/rules.md §1.6)."""
        return card_choices(Give if phase is Phase.GIVE else Return, self._once[seat],
                            self._twice[seat], self.rules.cards_passed)

    def _play_mask(self, seat: int) -> int:
        """The legal kinds for ``seat`` now, computed once per position."""
        if self._table is not None:
            return self._table.mask()
        key = len(self.actions)
        if self._mask_key != key:
            if self.trick:
                self._mask = follow_mask(self._once[seat], self.trick[0] // 6, self._high,
                                         self.trump, self._flags)  # type: ignore[arg-type]
            else:
                self._mask = legal_mask(self._once[seat], (), int(self.trump or 0), self.rules,
                                        not self.tricks)
            self._mask_key = key
        return self._mask

    def _may_concede(self) -> bool:
        """Throw in (or shoot the moon) only before the first card of the play."""
        return not self.tricks and not self.trick and not self.moon

    def _must_open(self, seat: int) -> bool:
        # docs/rules.md §2 first bidder must open (001)
        return (self.rules.first_bid_required and seat == (self.dealer + 1) % self._n
                and not self._spoken[seat])

    def _lowest_bid(self) -> int:
        return self._opening if self.high_bidder is None else self.high_bid + self._step

    def _may_redeal(self, seat: int) -> bool:
        """docs/rules.md §2 nines redeal (001, 004): instead of bidding, at a first call."""
        rule = self.rules.nines_redeal
        if rule == "off" or self._spoken[seat]:
            return False
        if self.rules.max_deals and self._redeals >= self.rules.max_deals - 1:
            return False  # the last deal allowed must be played
        nines = (self._once[seat] & _NINES).bit_count() + (self._twice[seat] & _NINES).bit_count()
        if nines < 5:
            return False  # both rules need five nines at least: no need for the meld
        no_meld = meld(self.hand(seat), None, self.rules).points == 0
        if rule == "six_or_five":
            return nines >= 6 or (nines == 5 and no_meld)
        return nines >= 5 and no_meld

    def _trump_choices(self) -> list[Suit]:
        """docs/rules.md §2 trump must hold a run, marriage or dix (001), else any suit."""
        suits = list(_SUITS)
        if not self.rules.trump_needs_meld or self.declarer is None:
            return suits
        once = self._once[self.declarer]
        ok = [s for s in suits if once >> (s * 6 + Rank.NINE) & 1
              or (once >> (s * 6 + Rank.KING) & 1 and once >> (s * 6 + Rank.QUEEN) & 1)]
        return ok or suits

    # -- checking -------------------------------------------------------------

    def verify(self, action: Action, seat: int | None = None) -> None:
        """Raise the error :meth:`apply` would raise for ``action`` (by ``seat``, if
        given), naming the rule broken; return quietly if it is legal. Changes nothing.

        The error's type says what is wrong: :class:`~pinochlekit.GameOverError`,
        :class:`~pinochlekit.OutOfTurnError`, :class:`~pinochlekit.PhaseError` (not
        an action of this phase) or :class:`~pinochlekit.IllegalActionError`.
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

    def _check(self, action: Action, seat: int | None) -> None:
        if self.phase is Phase.GAME_OVER:
            who = "team" if self.rules.partnership else "seat"
            raise GameOverError(f"the game is over: {who} {self.winner} won; no more actions")
        actor = self.to_act
        assert actor is not None
        if seat is not None and seat != actor:
            raise OutOfTurnError(f"{action} by seat {seat}: it is seat {actor}'s turn "
                                 f"({self.phase})")
        phase = self.phase
        kind = type(action)
        who = f"by seat {actor}"
        if kind is Play:
            if phase is not Phase.PLAY:
                raise PhaseError(self._not_now(action, who))
            card = action.card  # type: ignore[attr-defined]
            if not self._play_mask(actor) >> card & 1:
                reason = explain_illegal(self._once[actor], self.trick, int(self.trump or 0),
                                         self.rules, not self.tricks, card)
                raise IllegalActionError(f"illegal play {card} {who}: {reason}")
            return
        if kind in (Bid, Pass, Redeal):
            if phase is not Phase.AUCTION:
                raise PhaseError(self._not_now(action, who))
            if kind is Pass:
                if self._must_open(actor):
                    raise IllegalActionError(f"illegal pass {who}: the first bidder must open "
                                             f"with at least {self.rules.opening_bid}")
                if action.help and not self.rules.pass_with_help:  # type: ignore[attr-defined]
                    raise IllegalActionError(f"illegal pass help {who}: these rules do not "
                                             f"allow pass with help")
            elif kind is Bid:
                amount = action.amount  # type: ignore[attr-defined]
                low = self._lowest_bid()
                if amount < low:
                    raise IllegalActionError(f"illegal bid {amount} {who}: the bid must be at "
                                             f"least {low}")
                if (amount - self._opening) % self._step:
                    raise IllegalActionError(f"illegal bid {amount} {who}: bids go in steps "
                                             f"of {self.rules.step}")
                if amount > self._ladder[-1].amount:  # max_bid(self.rules)
                    raise IllegalActionError(f"illegal bid {amount} {who}: no team can score "
                                             f"more than {max_bid(self.rules)}")
            elif not self._may_redeal(actor):
                raise IllegalActionError(f"illegal redeal {who}: {self._redeal_reason()}")
            return
        if kind is NameTrump:
            if phase is not Phase.TRUMP:
                raise PhaseError(self._not_now(action, who))
            if action.suit not in self._trump_choices():  # type: ignore[attr-defined]
                names = " ".join(s.letter for s in self._trump_choices())
                raise IllegalActionError(f"illegal {action} {who}: trump must be a suit where "
                                         f"the declarer holds a run, marriage or dix ({names})")
            return
        if kind in (Give, Return, Discard):
            wanted = (Phase.GIVE if kind is Give else Phase.RETURN if kind is Return
                      else Phase.DISCARD)
            if phase is not wanted:
                raise PhaseError(self._not_now(action, who))
            cards = action.cards  # type: ignore[attr-defined]
            n = self.rules.widow_size if kind is Discard else self.rules.cards_passed
            if len(cards) != n:
                verb = "discard" if kind is Discard else "pass"
                raise IllegalActionError(f"illegal {action} {who}: {verb} exactly {n} cards, "
                                         f"not {len(cards)}")
            try:
                held = self.hand(actor).issuperset(Hand.from_cards(cards))
            except ValueError:  # a third copy of a card
                held = False
            if not held:
                raise IllegalActionError(f"illegal {action} {who}: seat {actor} does not hold "
                                         f"all of {' '.join(map(str, cards))}")
            return
        if kind in (ThrowIn, Moon):
            if phase is not Phase.PLAY or not self._may_concede():
                raise PhaseError(f"cannot {action} {who} now: only the declarer, after meld "
                                 f"and before the first card")
            if kind is Moon and not self.rules.shoot_the_moon:
                raise IllegalActionError(f"illegal moon {who}: these rules do not allow "
                                         f"shooting the moon")
            return
        raise IllegalActionError(f"not an action: {action!r}")

    def _not_now(self, action: Action, who: str) -> str:
        """Why ``action`` is refused in this phase, in words: ``cannot play AS by seat 0
        while trump is named: seat 0 must name trump``."""
        during = _DURING.get(self.phase, f"in the {self.phase}")
        return f"cannot {action} {who} {during}: {self._wants()}"

    def _wants(self) -> str:
        wants = {Phase.AUCTION: "bid or pass", Phase.TRUMP: "name trump",
                 Phase.GIVE: f"give {self.rules.cards_passed} cards to the declarer",
                 Phase.RETURN: f"return {self.rules.cards_passed} cards to partner",
                 Phase.DISCARD: f"discard {self.rules.widow_size} cards",
                 Phase.PLAY: "play a card"}
        return f"seat {self.to_act} must {wants.get(self.phase, 'wait')}"

    def _redeal_reason(self) -> str:
        if self.rules.nines_redeal == "off":
            return "these rules have no nines redeal"
        if self.to_act is not None and self._spoken[self.to_act]:
            return "a redeal must be called instead of a first bid"
        if self.rules.max_deals and self._redeals >= self.rules.max_deals - 1:
            return f"deal {self.rules.max_deals} in a row must be played"
        rule = ("six nines, or five nines and no other meld" if self.rules.nines_redeal ==
                "six_or_five" else "five or more nines and no meld")
        return f"the hand needs {rule}"

    # -- applying -------------------------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Apply ``action`` for the seat to act (checked against ``seat`` if given).

        Raises a subclass of :class:`~pinochlekit.IllegalActionError` and
        leaves the game unchanged if the rules forbid the action.
        """
        if type(action) is Play and seat is None and self.phase is _PLAY:
            # The common case, checked without the slow path: a legal card by the seat to act.
            table = self._table
            if table is not None:
                nxt = table.play(action.card)  # -1: illegal, nothing changed
                if nxt >= 0:
                    self.actions.append(action)
                    self.to_act = nxt
                    return
                if nxt == -2:  # the last trick is taken
                    self.actions.append(action)
                    self._finish(Outcome.MADE)
                    return
                self._check(action, seat)  # raises, explaining why
            actor = self.to_act
            mask = self._play_mask(actor)  # type: ignore[arg-type]
            if mask >> action.card & 1:
                self.actions.append(action)
                self._play(actor, action.card)  # type: ignore[arg-type]
                return
        elif seat is None and self.phase is _AUCTION:
            # The auction's common cases, with exactly the tests of _check (docs/rules.md §1
            # Auction; §2 first bidder must open): anything else takes the slow path.
            kind = type(action)
            actor = self.to_act
            if kind is Bid:
                amount = action.amount  # type: ignore[attr-defined]
                low = self._opening if self.high_bidder is None else self.high_bid + self._step
                if (low <= amount <= self._ladder[-1].amount  # _lowest_bid, max_bid
                        and not (amount - self._opening) % self._step):
                    self.actions.append(action)
                    self._call(actor, action)  # type: ignore[arg-type]
                    return
            elif (kind is Pass and not action.help  # type: ignore[attr-defined]
                  and not (self._first_required  # _must_open
                           and actor == (self.dealer + 1) % self._n
                           and not self._spoken[actor])):
                self.actions.append(action)
                self._call(actor, action)  # type: ignore[arg-type]
                return
        self._check(action, seat)
        self.apply_unchecked(action)

    def step(self, action: Action, seat: int | None = None) -> tuple[Event, ...]:
        """:meth:`apply` ``action`` and return what it caused, in order (see
        :mod:`pinochlekit.engine.events`): for the interfaces, which tell the game as it
        goes. :meth:`apply` itself reports nothing and stays the fast path.

        Raises what :meth:`verify` raises and changes nothing if the rules forbid it.
        """
        self._check(action, seat)
        actor = self.to_act
        results, tricks = len(self.results), len(self.tricks)
        undeclared, unmelded = self.declarer is None, self.melds is None
        self.apply_unchecked(action)
        return self._told(action, actor, results, tricks, undeclared, unmelded)

    def _told(self, action: Action, actor: int | None, results: int, tricks: int,
              undeclared: bool, unmelded: bool) -> tuple[Event, ...]:
        """The events of ``action`` just applied, from how many results and tricks there
        were before and whether the contract and the meld were still to come."""
        assert actor is not None
        to = (self.declarer if type(action) is Give
              else (actor + 2) % 4 if type(action) is Return else None)  # to the partner
        events: list[Event] = [action_event(action, actor, to)]
        result = self.results[-1] if len(self.results) > results else None
        if result is None and undeclared and self.declarer is not None:
            widow = tuple(self._widow)  # empty without a widow
            events.append(ContractWon(self.declarer, self.contract, widow))
        melds = self.melds if result is None else result.melds
        if unmelded and melds:
            events += [MeldShown(s, m.points, m.items) for s, m in enumerate(melds)]
        done = self.tricks if result is None else result.tricks
        if len(done) > tricks:
            events.append(TrickWon(len(done), done[-1]))
        if result is not None:
            events.append(HandScored(result))
            if self.winner is not None:
                events.append(GameWon(self.winner))
            else:
                events.append(Dealt(self.hand_number, self.dealer))
        return tuple(events)

    def apply_unchecked(self, action: Action) -> None:
        """Apply an action known to be legal, without checking: the fast path for
        search. An illegal action here corrupts the game; use :meth:`apply`."""
        self.actions.append(action)
        kind = type(action)
        seat = self.to_act
        assert seat is not None
        if kind is Play:
            self._play(seat, action.card)  # type: ignore[attr-defined]
        elif kind is Bid or kind is Pass:
            self._call(seat, action)
        elif kind is NameTrump:
            self.trump = action.suit  # type: ignore[attr-defined]
            self._after_trump()
        elif kind is Give:
            self.given = action.cards  # type: ignore[attr-defined]
            self._move(seat, self.declarer, action.cards)  # type: ignore[attr-defined]
            self.phase, self.to_act = Phase.RETURN, self.declarer
        elif kind is Return:
            self.returned = action.cards  # type: ignore[attr-defined]
            self._move(seat, self.partner(seat), action.cards)  # type: ignore[attr-defined]
            self._meld()
        elif kind is Discard:
            self._discard(seat, action.cards)  # type: ignore[attr-defined]
        elif kind is ThrowIn:
            self._finish(Outcome.THROWN_IN)
        elif kind is Moon:
            self.moon = True  # docs/rules.md §2 shoot the moon: partner's hand sits out
            self._trick_size = self._n - 1
            if self._table is not None:
                self._table.sit_out(self.partner(seat))
        elif kind is Redeal:
            self._end_deal(HandResult(self.hand_number, self.dealer, Outcome.REDEAL,
                                      caller=seat, totals=tuple(self.scores)),
                           next_dealer=self.dealer, redeal=True)

    def _call(self, seat: int, action: Action) -> None:
        """docs/rules.md §1 Auction: bid higher or pass out of the auction."""
        self.auction.append((seat, action))
        self._spoken[seat] = True
        if type(action) is Bid:
            self.high_bid, self.high_bidder = action.amount, seat
        else:
            self._passed[seat] = True
        end, who = after_call(self._passed, self.high_bidder, self.dealer,
                              self.rules.dealer_stuck, seat)
        if end is None:
            self.to_act = who
        elif end is AuctionEnd.WON:
            self._win_auction(who, self.high_bid)
        elif end is AuctionEnd.STUCK:
            self._win_auction(who, self.rules.opening_bid)  # the dealer is stuck
        else:
            self._end_deal(HandResult(self.hand_number, self.dealer, Outcome.PASSED_OUT,
                                      totals=tuple(self.scores)),
                           next_dealer=(self.dealer + 1) % self._n)

    def _win_auction(self, declarer: int, contract: int) -> None:
        self.declarer, self.contract = declarer, contract
        self.phase, self.to_act = Phase.TRUMP, declarer

    def _after_trump(self) -> None:
        if self.rules.cards_passed and self.declarer is not None:
            self.phase, self.to_act = Phase.GIVE, self.partner(self.declarer)
        else:
            self._meld()

    def _discard(self, seat: int, cards: tuple[Card, ...]) -> None:
        """Lay cards aside (the three-handed game's widow taken, docs/rules.md §3)."""
        raise PhaseError(f"no discard in the {self._n}-handed game")

    def _set_aside(self) -> tuple[Card, ...]:
        """The cards out of play that count for the declarer: none without a widow."""
        return ()

    def _move(self, giver: int, taker: int | None, cards: tuple[Card, ...]) -> None:
        assert taker is not None
        for card in cards:
            bit = 1 << card
            if self._twice[giver] & bit:
                self._twice[giver] &= ~bit
            else:
                self._once[giver] &= ~bit
            if self._once[taker] & bit:
                self._twice[taker] |= bit
            else:
                self._once[taker] |= bit

    def _meld(self) -> None:
        """Every player shows meld; a team hopelessly short is not on the board."""
        assert self.declarer is not None
        once, twice, key = self._once, self._twice, self._meld_key
        trump = -1 if self.trump is None else int(self.trump)
        melds = self.melds = tuple([meld_of_masks(once[s], twice[s], trump, *key)
                                    for s in range(self._n)])
        totals = self._team_meld()
        self._team_melds = (melds, totals)
        if self.contract > totals[self._teams[self.declarer]] + self._trick_total:
            self._finish(Outcome.NOT_ON_BOARD)  # docs/rules.md §1 Not on the board
            return
        self._start_play()

    def _team_meld(self) -> list[int]:
        """Each team's meld: the sum of its seats' meld."""
        totals = [0] * len(self.scores)
        teams = self._teams
        for seat, result in enumerate(self.melds or ()):
            totals[teams[seat]] += result.points
        return totals

    def _play(self, seat: int, card: int) -> None:
        table = self._table
        if table is not None:
            nxt = table.play(card)
            if nxt >= 0:
                self.to_act = nxt
            elif nxt == -2:
                self._finish(Outcome.MADE)
            else:  # not legal: apply_unchecked was misused; undo its append and explain
                action = self.actions.pop()
                self._check(action, None)
                raise IllegalActionError(f"illegal {action} by seat {seat}")
            return
        bit = 1 << card
        if self._twice[seat] & bit:
            self._twice[seat] &= ~bit
        else:
            self._once[seat] &= ~bit
        trick = self.trick
        trick.append(card)
        self._trick_seats.append(seat)
        # The winning card so far: the highest trump, else the highest card of the suit
        # led; of two identical cards the first stays (docs/rules.md §1 Play).
        if len(trick) == 1:
            self._high, self._high_seat = card, seat
        else:
            high = self._high
            if (card > high and card // 6 == high // 6) or (
                    card // 6 == self.trump and high // 6 != self.trump):
                self._high, self._high_seat = card, seat
        if len(trick) < self._trick_size:
            self.to_act = self._next_seat(seat) if self.moon else (seat + 1) % self._n
            return
        seats = self._trick_seats
        winner = self._high_seat
        values = self._points
        points = sum([values[c] for c in trick])
        last = not self._once[winner]
        if last:
            points += 10 // self.rules.unit  # docs/rules.md §1 Counting: last trick 10
        self.trick_points[self.rules.team_of(winner)] += points
        self.tricks.append(Trick(seats[0], tuple(map(ALL_CARDS.__getitem__, trick)),
                                 tuple(seats), winner, points))
        self.trick = []
        self._trick_seats = []
        if last:
            self._finish(Outcome.MADE)
        else:
            self.to_act = winner

    # -- scoring --------------------------------------------------------------

    def _finish(self, outcome: Outcome) -> None:
        """Score the hand (docs/rules.md §1 Scoring a hand; §2 set variants; §3 each player
        for themself, the cards set aside counting for the declarer)."""
        rules = self.rules
        declarer = self.declarer
        assert declarer is not None and self.melds is not None
        teams = len(self.scores)
        us = self._teams[declarer]
        summed, melds = self._team_melds  # computed by _meld, unless melds were replaced
        if summed is not self.melds:
            melds = self._team_meld()
        tricks = self.trick_points
        played = outcome is Outcome.MADE
        aside = self._set_aside()
        if aside:  # docs/rules.md §3: the widow's (or the discards') points are the declarer's,
            # played or not: a declarer who throws in (or is not on the board) still has
            # them, which matters when a set costs only the shortfall
            tricks[us] += sum(self._points[c] for c in aside)
        # the dix test runs only for a defender whose meld could still be lost without it
        dix = [played and t != us and rules.save_meld_needs_trick and tricks[t] <= 0
               and self._dix_only(t) for t in range(teams)]
        took_all = played and self.moon and all(t.winner == declarer for t in self.tricks)
        hand = score_hand(rules, us, self.contract, melds, tricks, dix, played,
                          self.moon, took_all)
        scores, saved = hand.scores, hand.saved
        if played and self.moon:
            outcome = Outcome.MOON if hand.made else Outcome.MOON_FAILED
        elif played:
            outcome = Outcome.MADE if hand.made else Outcome.SET
        for team in range(teams):
            self.scores[team] += scores[team]
        widow = tuple(self._widow)  # empty without a widow
        result = HandResult(
            self.hand_number, self.dealer, outcome, declarer, self.contract, self.trump,
            self.melds, tuple(melds), tuple(tricks), saved, scores,
            tuple(self.scores), tuple(self.tricks), widow=widow,
            discards=self.discards or ())
        self._end_deal(result, next_dealer=(self.dealer + 1) % self._n)

    def _dix_only(self, team: int) -> bool:
        """Whether ``team`` melded and its meld is only dix (docs/rules.md §1 Scoring)."""
        assert self.melds is not None
        own = [self.melds[s] for s in range(self._n) if self.rules.team_of(s) == team]
        return (all(m.dix_only or not m.items for m in own)
                and any(m.items for m in own))

    def _end_deal(self, result: HandResult, next_dealer: int, redeal: bool = False) -> None:
        self.results.append(result)
        self._redeals = self._redeals + 1 if redeal else 0
        winner = self._game_winner(result)
        if winner is not None:
            self.winner = winner
            self.phase, self.to_act = Phase.GAME_OVER, None
            return
        self._start_deal(next_dealer, self.deal_index + 1)

    def _game_winner(self, result: HandResult) -> int | None:
        """docs/rules.md §1 Game: first to the target; both at once, the declaring team.

        Three-handed (docs/three-handed.md): of several players over the target at
        once the declarer wins, else the higher score; two defenders tied over the
        target play on until a hand breaks the tie.
        """
        if result.outcome is Outcome.MOON:
            return result.declaring_team
        target = self._target
        if max(self.scores) < target:
            return None  # the common case: nobody there yet
        over = [t for t in range(len(self.scores)) if self.scores[t] >= target]
        if len(over) > 1:
            if result.declaring_team in over:
                return result.declaring_team
            best = max(self.scores[t] for t in over)
            leaders = [t for t in over if self.scores[t] == best]
            return leaders[0] if len(leaders) == 1 else None
        return over[0] if over else None

    # -- history --------------------------------------------------------------

    def _rewind(self, kept: int) -> None:
        self._redeals = kept  # the checkpoint's number: the redeals in a row

    def _copy_rest(self, new: Game) -> None:
        if self._table is not None:
            new._table = self._table.clone(new._once, new._twice, new.trick, new._trick_seats,
                                           new.tricks, new.trick_points)

    @property
    def record(self) -> GameRecord:
        """Rules, seed, first dealer, fixed deals and every action: replays this game."""
        return GameRecord(str(self.rules), self.seed, self.first_dealer,
                          tuple(str(a) for a in self.actions),
                          tuple(tuple(str(h) for h in d) for d in self.deals))

    def __reduce__(self) -> tuple[Callable[[GameRecord], Game], tuple[GameRecord]]:
        # Pickle and deepcopy by record (the C table holds no picklable state): a game
        # is a pure function of its rules, seed, deals and actions.
        return (Game.from_record, (self.record,))

    @classmethod
    def from_record(cls, record: GameRecord, upto: int | None = None) -> Game:
        """Replay a record of a three- or four-handed game, checking every action;
        ``upto`` stops after that many (any game: :meth:`GameRecord.replay` or
        :func:`pinochlekit.replay`)."""
        try:
            rules = Rules.from_string(record.rules)
        except PinochleError as error:
            raise RecordError(f"record cannot start: {error}") from None
        if rules.players == 2:  # docs/rules.md §4: a game with a stock, not an auction
            raise RecordError(f"a two-handed record ({record.rules}) replays with "
                              f"TwoHandedGame.from_record or pinochlekit.replay, not "
                              f"Game.from_record")
        try:
            deals = [[Hand.parse(h) for h in d] for d in record.deals]
            game = cls.new(rules, seed=record.seed, dealer=record.dealer, deals=deals)
        except (NotationError, PinochleError) as error:
            raise RecordError(f"record cannot start: {error}") from None
        replay_actions(game.apply, record.actions[:upto], parse_action)
        return game

    # -- views ----------------------------------------------------------------

    def view(self, seat: int | None) -> View:
        """Exactly what ``seat`` may know now (``None``: a spectator's view)."""
        if seat is not None and not 0 <= seat < self._n:
            raise IllegalActionError(f"no seat {seat}: seats are 0 to {self._n - 1}")
        # the passed cards for the declarer's partnership only (docs/rules.md §1.6), the
        # discards for the declarer only (§3)
        in_pass = self.declarer is not None and sees_passed(self.rules, self.declarer, seat)
        aside = self.declarer is not None and sees_discard(self.declarer, seat)
        legal = tuple(self.legal_actions()) if seat is not None and seat == self.to_act else ()
        return View(
            seat=seat, rules=self.rules, phase=self.phase, to_act=self.to_act,
            dealer=self.dealer, hand_number=self.hand_number, scores=tuple(self.scores),
            hand=None if seat is None else self.hand(seat),
            hand_sizes=tuple(len(self.hand(s)) for s in range(self._n)),
            auction=tuple(self.auction), high_bid=self.high_bid, high_bidder=self.high_bidder,
            declarer=self.declarer, contract=self.contract, trump=self.trump,
            given=self.given if in_pass else None, returned=self.returned if in_pass else None,
            melds=self.melds, moon=self.moon, tricks=tuple(self.tricks),
            trick=tuple(zip(self._trick_seats, (ALL_CARDS[c] for c in self.trick),
                            strict=True)),
            trick_points=tuple(self.trick_points), results=tuple(self.results),
            winner=self.winner, legal_actions=legal,
            widow=None if self.widow is None else tuple(self._widow),
            discards=self.discards if aside else None)

    def public_view(self) -> View:
        """What a spectator sees: no hand, no passed cards and no discards."""
        return self.view(None)

    def __repr__(self) -> str:
        return (f"<Game {self.rules} seed={self.seed!r} hand {self.hand_number} "
                f"{self.phase} to_act={self.to_act} scores={self.scores}>")
