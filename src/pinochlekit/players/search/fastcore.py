"""The fast simulation core: play, meld, scoring and the standard player, in C.

:mod:`pinochlekit.native._core` is a C extension built when the package is installed
(``pip install -e .``, or ``python setup.py build_ext --inplace``). It repeats
the engine's trick play (:mod:`~pinochlekit.engine.tricks`), meld
(:mod:`~pinochlekit.engine.meld`) and end-of-hand scoring (``Game._finish``) under
every option of docs/rules.md §2, and the ``standard`` player of docs/players.md,
so that computer players can play thousands of hands a second. The Python
engine stays the reference: ``tests/test_fastcore.py`` checks this module
against it. There is no pure-Python twin of this module: if the extension is not
built, or the environment variable ``PINOCHLEKIT_PURE_PYTHON`` is set
(:func:`pinochlekit.native.load`), importing it raises :class:`ImportError`, and
each caller falls back to the engine's Python code: ``simulate`` to
``simulate.python_backend``, the passing and inference players to the engine's
meld and passing (``tests/test_pure_python.py`` checks that the results are the
same).

>>> from pinochlekit import Game, Rules, Suit
>>> from pinochlekit import meld as engine_meld
>>> rules = Rules()
>>> game = Game.new(rules, seed=3)
>>> meld(rules, game.hand(0), Suit.SPADES).points == engine_meld(
...     game.hand(0), Suit.SPADES, rules).points
True

Positions (:class:`Position`) are a hand in play with all four hands known;
each seat of a simulation still decides from its own memory only (played
cards, meld shown, passed cards, voids shown: docs/players.md "What a player
knows"). The standard player's card play has no randomness, so from fixed
hands every rollout is the same; :func:`rollout` and :func:`card_values` take a
:class:`DealSpec` to deal the cards one seat cannot see anew for each rollout.

:func:`backend` is a drop-in backend for :mod:`pinochlekit.players.search.simulate`
(``backends.set_backend(fastcore.backend)``): given the same deals it returns
exactly the round scores of ``simulate.python_backend``, for the four-handed
game and for the three-handed one (docs/rules.md §3: three seats and the pile set
aside, the widow kept out or taken with 3 discards, each player's meld and
score, fifteen tricks; ``tests/test_fastcore_three.py`` checks it). The other
functions here (positions, rollouts, bid rounds with passing) are four-handed
and raise :class:`ValueError` for other rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Literal, Protocol

from pinochlekit.engine.cards import ALL_CARDS, Card, Hand, card_mask
from pinochlekit.engine.game import Game
from pinochlekit.engine.meld import meld_values
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.tricks import card_points, must_beat_flags
from pinochlekit.engine.views import Outcome, Phase, View
from pinochlekit.native import PURE_PYTHON, load, pure_python
from pinochlekit.players.search.simulate import python_backend

if load("_core") is None:
    raise ImportError(
        f"pinochlekit.native._core, the C simulation core, is off: {PURE_PYTHON} is set"
        if pure_python() else
        "pinochlekit.native._core, the C simulation core, is not built: install the package with "
        "`pip install -e .` (needs a C compiler and the Python headers) or run "
        "`python setup.py build_ext --inplace`; without it use the Python simulator"
    )
from pinochlekit.native import _core  # built and allowed: checked just above

__all__ = [
    "BidHand",
    "CardPolicy",
    "DealSpec",
    "Level",
    "MeldSummary",
    "Memory",
    "Playout",
    "Policy",
    "Position",
    "backend",
    "bid_hand",
    "card_policy",
    "card_values",
    "choose_card",
    "core_rules",
    "deal",
    "give_cards",
    "hand_score",
    "legal_mask",
    "meld",
    "memory",
    "play_out",
    "return_cards",
    "rollout",
    "simulate_bid_hands",
]

#: Which player's rules: ``standard``, ``pro`` or ``skilled`` (docs/players.md).
Level = Literal["standard", "pro", "skilled"]
#: How :func:`play_out` chooses cards after the given ones.
Policy = Literal["random", "standard", "skilled", "stop"]
#: The card play of every simulated seat (docs/players.md standard, skilled).
CardPolicy = Literal["standard", "skilled"]

_SEED_MASK = (1 << 64) - 1
_MELD_ORDER = ("run", "double run", "royal marriage", "common marriage", "dix",
               "aces around", "double aces around", "kings around", "double kings around",
               "queens around", "double queens around", "jacks around", "double jacks around",
               "pinochle", "double pinochle")
_PENALTIES = {"contract": 0, "chips": 1, "shortfall": 2}
_POLICIES = {"stop": -1, "random": 0, "standard": 1, "skilled": 2}
_CARD_POLICIES = {"standard": 0, "skilled": 1}
_LEVELS = {"standard": 0, "pro": 1, "skilled": 2}


def card_policy(name: str) -> int:
    """The C core's number of a rollout card policy; :class:`ValueError` for a bad name."""
    try:
        return _CARD_POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown card policy {name!r}: {', '.join(_CARD_POLICIES)}") from None

_OUTCOMES = {0: Outcome.MADE, 1: Outcome.SET, 3: Outcome.MOON, 4: Outcome.MOON_FAILED}


@lru_cache(maxsize=64)
def core_rules(rules: Rules) -> _core.Rules:
    """The C struct of the options that matter to play, meld and scoring."""
    beat_follow, beat_trump_led, over_trump = must_beat_flags(rules)
    values = meld_values(rules)
    return _core.Rules(
        beat_follow=beat_follow, beat_trump_led=beat_trump_led, over_trump=over_trump,
        first_lead_trump=rules.first_lead == "trump",
        trump_follows_trump=rules.trump_follows_trump,
        points=card_points(rules), last_bonus=10 // rules.unit, trick_total=rules.trick_total,
        meld_values=tuple(values[name] for name in _MELD_ORDER),
        run_marries=rules.run_extra == "marries", reuse_once=rules.meld_reuse == "once",
        save_needs_trick=rules.save_meld_needs_trick,
        set_penalty=_PENALTIES[rules.set_penalty], set_forfeits_meld=rules.set_forfeits_meld,
        moon_value=1000 // rules.unit, cards_passed=rules.cards_passed,
        players=rules.players, widow_take=rules.widow == "take")


def _seed(seed: int) -> int:
    return seed & _SEED_MASK


# -- the engine's rules ---------------------------------------------------------------


def legal_mask(rules: Rules, hand_kinds: int, trick: Sequence[int], trump: int,
               first_trick: bool = False) -> int:
    """The kinds that may be played from ``hand_kinds`` onto ``trick`` (see
    :func:`pinochlekit.engine.tricks.legal_mask`)."""
    return _core.legal_mask(core_rules(rules), hand_kinds, bytes(trick), trump, first_trick)


@dataclass(frozen=True)
class MeldSummary:
    """A hand's meld: points, whether it is only dix, and the cards shown."""

    points: int
    dix_only: bool
    shown: Hand


def meld(rules: Rules, hand: Hand, trump: int | None) -> MeldSummary:
    """The best meld of ``hand`` (see :func:`pinochlekit.engine.meld.meld`)."""
    points, dix_only, (once, twice) = _core.meld(core_rules(rules), (hand.once, hand.twice),
                                                 -1 if trump is None else int(trump))
    return MeldSummary(points, dix_only, Hand(once, twice))


def hand_score(rules: Rules, *, contract: int, declarer: int, melds: Sequence[int],
               dix_only: Sequence[bool], tricks: Sequence[int], played: bool = True,
               moon: bool = False, took_all: bool = False) -> tuple[int, int]:
    """The score of a hand per team, as ``Game._finish`` gives it.

    ``melds`` and ``dix_only`` are per seat, ``tricks`` the trick points per
    team; ``played`` is false for a hand thrown in or not on the board;
    ``took_all`` says whether the declarer took every trick (for the moon).
    """
    bits = sum(1 << seat for seat, flag in enumerate(dix_only) if flag)
    score0, score1, _ = _core.hand_score(
        core_rules(rules), contract, declarer, (melds[0], melds[1], melds[2], melds[3]), bits,
        (tricks[0], tricks[1]), played, moon, took_all)
    return score0, score1


# -- positions ------------------------------------------------------------------------

_EMPTY = Hand()


@dataclass(frozen=True, kw_only=True)
class Position:
    """A hand in play with all four current hands, and the public history.

    ``plays`` are the ``(seat, card)`` plays of this hand so far, in order;
    ``shown``, ``meld_points`` and ``dix_only`` are each seat's meld; ``given``
    and ``returned`` the cards the declarer's partner passed and got back (empty
    if unknown: then no simulated seat remembers them).
    """

    trump: int
    declarer: int
    contract: int
    hands: tuple[Hand, ...]
    plays: tuple[tuple[int, int], ...] = ()
    shown: tuple[Hand, ...] = (_EMPTY,) * 4
    meld_points: tuple[int, ...] = (0,) * 4
    dix_only: tuple[bool, ...] = (False,) * 4
    given: Hand = field(default=_EMPTY)
    returned: Hand = field(default=_EMPTY)
    moon: bool = False

    @classmethod
    def from_game(cls, game: Game) -> Position:
        """The position of a game in the play phase (every hand taken from the game)."""
        return cls.from_view(game.view(None), tuple(game.hand(s) for s in range(4)),
                             given=game.given, returned=game.returned)

    @classmethod
    def from_view(cls, view: View, hands: Sequence[Hand], *,
                  given: Iterable[int] | None = None,
                  returned: Iterable[int] | None = None) -> Position:
        """The position of ``view`` with current ``hands`` (e.g. a sampled deal).

        The passed cards are taken from the view (seen by the declarer and
        partner only) unless given here.
        """
        if view.phase is not Phase.PLAY or view.melds is None or view.trump is None \
                or view.declarer is None:
            raise ValueError(f"a position needs a hand in the play phase, not {view.phase}")
        plays = tuple((s, int(c)) for t in view.tricks for s, c in zip(t.seats, t.cards,
                                                                      strict=True))
        plays += tuple((s, int(c)) for s, c in view.trick)
        given = view.given if given is None else given
        returned = view.returned if returned is None else returned
        return cls(trump=int(view.trump), declarer=view.declarer, contract=view.contract,
                   hands=tuple(hands), plays=plays,
                   shown=tuple(m.shown for m in view.melds),
                   meld_points=tuple(m.points for m in view.melds),
                   dix_only=tuple(m.dix_only for m in view.melds),
                   given=Hand.from_cards(given or ()), returned=Hand.from_cards(returned or ()),
                   moon=view.moon)

    @cached_property
    def core(self) -> _core.Position:
        """The tuple the C core reads."""
        return (self.trump, self.declarer, self.contract, int(self.moon),
                tuple(x for h in self.hands for x in (h.once, h.twice)),
                tuple(x for h in self.shown for x in (h.once, h.twice)),
                (self.meld_points[0], self.meld_points[1], self.meld_points[2],
                 self.meld_points[3]),
                sum(1 << s for s, flag in enumerate(self.dix_only) if flag),
                (self.given.once, self.given.twice), (self.returned.once, self.returned.twice),
                bytes(x for play in self.plays for x in play))


@dataclass(frozen=True)
class Playout:
    """What :func:`play_out` did: every play with the legal kinds before it, every
    trick completed, and the hand's score if it ended."""

    seats: tuple[int, ...]
    cards: tuple[Card, ...]
    legal: tuple[int, ...]
    winners: tuple[int, ...]
    trick_points: tuple[int, ...]
    points: tuple[int, int]
    scores: tuple[int, int] | None
    outcome: Outcome | None


def play_out(rules: Rules, position: Position, cards: Sequence[int] = (),
             policy: Policy = "random", seed: int = 0) -> Playout:
    """Play ``cards`` (each checked) from ``position``, then choose by ``policy``
    (uniformly random legal cards, the standard or skilled player, or stop) to the end."""
    seats, played, legal, winners, points, team, scores, outcome = _core.play_out(
        core_rules(rules), position.core, bytes(cards), _POLICIES[policy], _seed(seed))
    return Playout(tuple(seats), tuple(ALL_CARDS[c] for c in played), tuple(legal),
                   tuple(winners), tuple(points), team,
                   scores if outcome >= 0 else None, _OUTCOMES.get(outcome))


# -- the standard and pro players -----------------------------------------------------


def choose_card(rules: Rules, position: Position, level: Level = "standard",
                among: Iterable[int] | None = None) -> Card:
    """The card the seat to act plays under docs/players.md, from its own memory.

    ``level="pro"`` applies the pro's final rule (leading: the highest guaranteed
    trump, else the highest guaranteed non-trump, else the lowest card);
    ``level="skilled"`` the skilled card play; ``among`` restricts the choice to
    some legal cards (the pro's cards kept by rollouts).
    """
    mask = 0 if among is None else card_mask(among)
    if among is not None and not mask:
        raise ValueError("choose_card needs at least one card to choose among")
    if level not in _LEVELS:
        raise ValueError(f"unknown level {level!r}: {', '.join(_LEVELS)}")
    return ALL_CARDS[_core.choose_card(core_rules(rules), position.core, _LEVELS[level], mask)]


@dataclass(frozen=True)
class Memory:
    """What one seat knows in a position, as masks of kinds indexed by seat.

    ``known``: cards known to be in each other hand; ``possibly_held``: cards
    each other seat possibly holds; ``voids``: kinds of the suits each seat has
    shown void in; ``guaranteed``: the seat's legal cards guaranteed to take the
    trick, if it is to act.
    """

    known: tuple[int, int, int, int]
    possibly_held: tuple[int, int, int, int]
    voids: tuple[int, int, int, int]
    guaranteed: int


def memory(rules: Rules, position: Position, seat: int) -> Memory:
    """The memory of ``seat`` in ``position`` (docs/players.md "What a player knows")."""
    known, held, voids, sure = _core.memory(core_rules(rules), position.core, seat)
    return Memory(known, held, voids, sure)


def give_cards(rules: Rules, hand: Hand, trump: int, level: Level = "standard") -> list[Card]:
    """The cards the declarer's partner passes (docs/players.md passing to the declarer)."""
    cards = _core.pass_cards(core_rules(rules), (hand.once, hand.twice), int(trump),
                             level == "pro", True, (0, 0), rules.cards_passed)
    return [ALL_CARDS[c] for c in cards]


def return_cards(rules: Rules, hand: Hand, given: Iterable[int], trump: int,
                 level: Level = "standard") -> list[Card]:
    """The cards the declarer passes back from ``hand`` (which includes the ``given``
    cards just received): docs/players.md passing back."""
    received = Hand.from_cards(given)
    cards = _core.pass_cards(core_rules(rules), (hand.once, hand.twice), int(trump),
                             level == "pro", False, (received.once, received.twice),
                             rules.cards_passed)
    return [ALL_CARDS[c] for c in cards]


# -- simulations ----------------------------------------------------------------------


@dataclass(frozen=True)
class DealSpec:
    """How to deal the cards ``observer`` cannot see: each other seat keeps its
    ``known`` cards and gets unseen cards up to its hand size, none of a kind in
    its ``forbidden`` mask. Deals are uniform over the consistent physical deals,
    by rejection; if 20,000 deals in a row break the constraints the simulation
    raises :class:`ValueError` (use :mod:`pinochlekit.players.search.sampler` then)."""

    observer: int
    known: tuple[Hand, ...] = (_EMPTY,) * 4
    forbidden: tuple[int, ...] = (0,) * 4

    @cached_property
    def core(self) -> _core.DealSpec:
        """The tuple the C core reads."""
        return (self.observer, tuple(x for h in self.known for x in (h.once, h.twice)),
                (self.forbidden[0], self.forbidden[1], self.forbidden[2], self.forbidden[3]))


def rollout(rules: Rules, position: Position, n: int = 1, seed: int = 0,
            spec: DealSpec | None = None, policy: CardPolicy = "standard") -> tuple[int, int]:
    """Play the rest of the hand ``n`` times with standard (or ``policy``) players,
    each with its own memory, and return the sum of the hand scores per team. With
    ``spec`` the hidden cards are dealt anew before each rollout; without, every
    rollout is the same."""
    return _core.rollout(core_rules(rules), position.core, n, _seed(seed),
                         None if spec is None else spec.core, card_policy(policy))


def card_values(rules: Rules, position: Position, n: int, seed: int = 0,
                spec: DealSpec | None = None, policy: CardPolicy = "standard"
                ) -> dict[Card, float]:
    """For each legal card of the seat to act, its average round score (own team's
    hand score minus the other's) over ``n`` rollouts by standard players after
    playing it: the pro's filter (docs/players.md pro trick-taking). Every card
    sees the same ``n`` deals. ``policy="skilled"``: the rollouts play the skilled
    card play instead."""
    values = _core.card_values(core_rules(rules), position.core, n, _seed(seed),
                               None if spec is None else spec.core, card_policy(policy))
    return {ALL_CARDS[card]: total / max(n, 1) for card, total in values}


def deal(rules: Rules, position: Position, spec: DealSpec, seed: int = 0) -> tuple[Hand, ...]:
    """One deal of the current hands under ``spec`` (the observer's hand unchanged)."""
    masks = _core.deal(core_rules(rules), position.core, spec.core, _seed(seed))
    return tuple(Hand(masks[2 * s], masks[2 * s + 1]) for s in range(4))


def simulate_bid_hands(rules: Rules, hand: Hand, contract: int, n: int, seed: int = 0,
                       trumps: Iterable[int] = range(4), seat: int = 0,
                       policy: CardPolicy = "standard") -> dict[int, list[int]]:
    """Round scores of simulated bid rounds, per trump suit (docs/players.md standard
    Bid): ``n`` deals of the other 36 cards at random, each serving every suit of
    ``trumps``; ``seat`` declares ``contract``; then standard passing, meld, the
    not-on-the-board throw-in and twelve tricks by standard players. Each score is
    the declaring team's net result (its hand score minus the other team's).
    ``policy="skilled"``: the tricks are played by the skilled card play."""
    suits = sorted({int(t) for t in trumps})
    bits = sum(1 << t for t in suits)
    results = _core.simulate_bid_hands(core_rules(rules), (hand.once, hand.twice), seat, bits,
                                       contract, n, _seed(seed), card_policy(policy))
    return dict(zip(suits, results, strict=True))


@dataclass(frozen=True)
class BidHand:
    """One simulated bid round in detail (:func:`bid_hand`)."""

    given: tuple[Card, ...]
    returned: tuple[Card, ...]
    plays: tuple[Card, ...]
    scores: tuple[int, int]


def bid_hand(rules: Rules, hands: Sequence[Hand], seat: int, trump: int,
             contract: int) -> BidHand:
    """One round of :func:`simulate_bid_hands` from a given deal, with the passed cards
    and the plays (empty if the hand was not on the board), for checking and replay."""
    given, returned, plays, scores = _core.bid_hand(core_rules(rules), _masks(hands), seat,
                                                    int(trump), contract)
    return BidHand(tuple(ALL_CARDS[c] for c in given), tuple(ALL_CARDS[c] for c in returned),
                   tuple(ALL_CARDS[c] for c in plays), scores)


def _masks(hands: Sequence[Hand]) -> tuple[int, ...]:
    return tuple(x for h in hands for x in (h.once, h.twice))


class _StartLike(Protocol):
    """What :func:`backend` reads of a ``players.search.simulate.Start``."""

    @property
    def rules(self) -> Rules: ...
    @property
    def declarer(self) -> int: ...
    @property
    def contract(self) -> int: ...
    @property
    def trump(self) -> int: ...
    @property
    def knower(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def shown(self) -> tuple[Hand, ...]: ...
    @property
    def meld_points(self) -> tuple[int, ...]: ...
    @property
    def dix_only(self) -> tuple[bool, ...]: ...
    @property
    def given(self) -> tuple[int, ...] | None: ...
    @property
    def returned(self) -> tuple[int, ...] | None: ...
    @property
    def moon(self) -> bool: ...
    @property
    def plays(self) -> tuple[tuple[int, int], ...]: ...
    @property
    def aside(self) -> tuple[int, ...]: ...


def _policy_of(start: _StartLike) -> int:
    """The card policy a start asks for (``start.policy``; standard if it has none)."""
    return card_policy(getattr(start, "policy", "standard"))


def _score_of(start: _StartLike) -> int:
    """The measure a start asks for (``start.score``): 0 the net score, 1 the round
    score of 003, meld plus trick points (docs/rules.md §5)."""
    return 1 if getattr(start, "score", "net") == "take" else 0


def backend(start: _StartLike, deals: Sequence[Sequence[Hand]], team: int) -> list[int]:
    """The C simulation backend of :mod:`pinochlekit.players.search.simulate`: the round
    score for ``team`` of one simulated hand per deal, exactly as
    ``simulate.python_backend`` gives it (install with ``backends.set_backend``).

    ``start.phase == "pass"``: each deal is the four dealt hands, and the hand goes
    on from passing; ``"play"``: each deal is the current hands after
    ``start.plays`` (the plays are checked against the first deal only).

    Three-handed (docs/rules.md §3) each deal is the three hands and the pile set
    aside as a fourth hand (the widow, or the declarer's discards; in a
    ``"pass"`` start with ``widow="take"`` an empty pile when the declarer holds
    the widow already), ``team`` is a seat, and the C core plays the hand as
    ``simulate.python_backend`` does: the widow taken and 3 cards discarded, each
    player's meld, the not-on-the-board rule, fifteen tricks, the pile's points
    to the declarer, each seat's score and the round score (own score minus the
    average of the two opponents', rounded down). Each deal's pile is known to
    the simulated declarer. Deals of three hands (no pile) and the other two-
    or three-handed starts the C core does not play go to the Python simulator.

    Every simulated seat plays the card play ``start.policy`` names
    (``"standard"``, the default, or ``"skilled"``; docs/players.md). With
    ``start.score == "take"`` the result is what ``team`` takes (meld plus trick
    points, docs/rules.md §5) instead of the net score.
    """
    if not start.rules.partnership:
        return _three_handed(start, deals, team)
    rules = core_rules(start.rules)
    masks = [_masks(hands) for hands in deals]
    if start.phase == "pass":
        return _core.simulate_deals(rules, None, masks, start.declarer, start.trump,
                                    start.contract, team, _policy_of(start),
                                    _score_of(start))
    if not deals:
        return []
    # The passed cards are remembered only if the simulating seat saw them.
    knows = start.given is not None and start.knower in (start.declarer,
                                                         (start.declarer + 2) % 4)
    position = Position(trump=start.trump, declarer=start.declarer, contract=start.contract,
                        hands=tuple(deals[0]), plays=start.plays, shown=start.shown,
                        meld_points=start.meld_points, dix_only=start.dix_only,
                        given=Hand.from_cards(start.given or ()) if knows else _EMPTY,
                        returned=Hand.from_cards(start.returned or ()) if knows else _EMPTY,
                        moon=start.moon)
    return _core.simulate_deals(rules, position.core, masks, start.declarer, start.trump,
                                start.contract, team, _policy_of(start),
                                _score_of(start))


def _three_handed(start: _StartLike, deals: Sequence[Sequence[Hand]], team: int) -> list[int]:
    """:func:`backend` for a three-handed start (see there)."""
    rules = start.rules
    if not rules.widow_size or start.moon or any(len(hands) != 4 for hands in deals):
        return python_backend(start, deals, team)  # type: ignore[arg-type]
    core = core_rules(rules)
    masks = [_masks(hands) for hands in deals]
    if start.phase == "pass":
        return _core.simulate_deals(core, None, masks, start.declarer, start.trump,
                                    start.contract, team, _policy_of(start),
                                    _score_of(start))
    if not deals:
        return []
    # The other seats know the widow kept out (public, docs/rules.md §3), not the discards.
    public = Hand.from_cards(start.aside) if rules.widow == "out" else _EMPTY
    shown = (*start.shown, public)
    points = start.meld_points
    position: _core.Position = (
        start.trump, start.declarer, start.contract, 0, _masks(deals[0]), _masks(shown),
        (points[0], points[1], points[2], 0),
        sum(1 << s for s, flag in enumerate(start.dix_only) if flag and points[s]),
        (0, 0), (0, 0), bytes(x for play in start.plays for x in play))
    return _core.simulate_deals(core, position, masks, start.declarer, start.trump,
                                start.contract, team, _policy_of(start),
                                _score_of(start))
