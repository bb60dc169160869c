"""Hidden-card sampling: whole deals consistent with what one seat has seen.

A computer player that searches needs guesses of the cards it cannot see.
:func:`knowledge` reads a seat's :class:`~pinochlekit.engine.views.View` (and nothing
else) into a :class:`Knowledge`: for every seat, how many cards it holds now,
which cards it is known to hold, which kinds it cannot hold, and which of its
cards the seat has seen leave or enter that hand. A :class:`Sampler` built from
that knowledge draws complete current deals, exactly at random:

>>> import random
>>> from pinochlekit import Game
>>> game = Game.new("pagat", seed=11)
>>> sampler = Sampler.from_view(game.view(0))
>>> hands = sampler.sample(random.Random(1))
>>> hands[0] == game.hand(0), [len(h) for h in hands]
(True, [12, 12, 12, 12])

**What a seat knows** (docs/rules.md §5: own hand, cards passed or received, meld on
the table, cards played):

* meld cards on the table not yet played by the seat that showed them;
* for the declarer and partner, the cards passed between them (docs/rules.md §1
  Passing): the declarer still holds what it received and did not pass back,
  the partner holds what came back to it, until those cards are played;
* kinds a seat cannot hold, read from its plays (see :func:`excluded_by_play`):
  a void shown by not following suit or not trumping, and a card it could not
  beat where docs/rules.md §1 Play rules 1-2 and the §2 must-beat and
  trump-follows-trump options oblige a player to beat. Cards only leave a hand
  in play (passing comes first), so such a fact stays true to the end of the hand;
* the counts: every card is in one hand, on the table, or in the seat's own hand;
* three-handed (docs/rules.md §3), one more place after the seats: the cards set
  aside (the widow, or the declarer's discards), known when the widow is face up
  and kept out, or to the declarer who discarded (see :func:`_pile`);
* three-handed with ``widow="take"``: every seat saw the widow go into the
  declarer's hand, so each widow copy the declarer has not played since is in
  its hand or among its discards, never with a defender. The fact is kept per
  copy, as a least number of unseen copies of a kind in those two places (see
  :func:`_widow_left`): one ``QS`` in the widow leaves the other ``QS`` free.

**The distribution.** Every consistent assignment of the unseen cards is drawn
with the probability a real shuffle gives it, the two copies of a kind being
different cards: with ``weighting="shuffle"`` (the default) a current deal is
weighted by the number of physical *original* deals that lead to it given the
cards seen leaving and entering each hand, so a seat that has played one ``QS``
is, other things equal, half as likely to hold the other ``QS`` as it would be
without that play (it would have been dealt both). ``weighting="unseen"`` weighs
only the physical assignments of the unseen copies (two unseen ``QS`` to two
seats: 2 ways, both to one seat: 1 way), ignoring what left the hands. Both are
exact, with no rejection: a dynamic program over the constrained kinds counts the
weighted completions for every vector of remaining hand capacities (the
unconstrained kinds are counted in closed form and dealt like a shuffled packet),
built once per :class:`Knowledge`; each sample walks it with one random integer.

Information the sampler does *not* use: the auction and the choice of trump or
of passed cards (strategy, not rule), and the negative side of meld (a player
who showed no marriage in hearts did not hold KH and QH together at meld); the
true deal always satisfies the constraints that are used.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import factorial, gcd
from typing import Literal

from pinochlekit.engine.cards import ALL_CARDS, DECK_MASK, SUIT_MASKS, Hand, cards_of_mask
from pinochlekit.engine.errors import PinochleError
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.tricks import above_mask, must_beat_flags, winner_index
from pinochlekit.engine.views import Phase, View

__all__ = [
    "Knowledge",
    "NoConsistentDealError",
    "Sampler",
    "Weighting",
    "excluded_by_play",
    "knowledge",
    "sample_deal",
    "sample_deals",
]

#: How deals are weighted: see the module docstring.
Weighting = Literal["shuffle", "unseen"]

_NO_HAND = Hand()


class NoConsistentDealError(PinochleError, ValueError):
    """No deal agrees with a :class:`Knowledge` (never the case for a real view)."""


# -- what a play reveals -----------------------------------------------------------


def excluded_by_play(trick: Sequence[int], card: int, trump: int, rules: Rules,
                     first_trick: bool = False) -> int:
    """The kinds a player cannot have held when it played ``card`` onto ``trick``.

    ``trick`` is the cards already in the trick, in order (empty for a lead);
    ``first_trick`` marks the opening lead of the hand. The mask is exact for
    the rules of :func:`~pinochlekit.engine.tricks.legal_mask`: ``card`` was legal from a
    hand holding it if and only if the hand held none of these kinds.

    >>> from pinochlekit.engine.cards import Card, cards_of_mask
    >>> trick = [Card("KH")]
    >>> cards_of_mask(excluded_by_play(trick, Card("9H"), 0, Rules()))  # could not beat KH
    [Card('TH'), Card('AH')]
    >>> excluded_by_play(trick, Card("9H"), 0, Rules.preset("modern"))  # no need to beat
    0
    >>> len(cards_of_mask(excluded_by_play(trick, Card("9C"), 0, Rules())))  # no hearts, no spades
    12
    """
    if not trick:
        if first_trick and rules.first_lead == "trump" and card // 6 != trump:
            return SUIT_MASKS[trump]  # docs/rules.md §2 first lead must be trump if held
        return 0
    beat_follow, beat_trump_led, over_trump = must_beat_flags(rules)
    led = trick[0] // 6
    high = trick[winner_index(trick, trump)]
    trumped = led != trump and high // 6 == trump
    suit = card // 6
    if suit == led:
        excluded = 0
        if trumped and rules.trump_follows_trump:
            # docs/rules.md §2 trump follows trump: holding a trump, it would have trumped.
            excluded |= SUIT_MASKS[trump]
        must = beat_trump_led if led == trump else beat_follow
        if must and not trumped and not above_mask(high) >> card & 1:
            # docs/rules.md §1 Play rule 1 (and §2 must beat): it could not beat the winner.
            excluded |= above_mask(high)
        return excluded
    if suit == trump:
        excluded = 0
        if not (trumped and rules.trump_follows_trump):
            excluded |= SUIT_MASKS[led]  # rule 2: trumping, so void in the suit led
        if trumped and over_trump and not above_mask(high) >> card & 1:
            excluded |= above_mask(high)  # rule 2: it could not over-trump
        return excluded
    return SUIT_MASKS[led] | SUIT_MASKS[trump]  # rule 3: void in the suit led and in trump


# -- knowledge ---------------------------------------------------------------------


def _counts(cards: Hand) -> list[int]:
    return [(cards.once >> k & 1) + (cards.twice >> k & 1) for k in range(24)]


def _hand(counts: Sequence[int]) -> Hand:
    once = twice = 0
    for kind, n in enumerate(counts):
        if n >= 1:
            once |= 1 << kind
        if n >= 2:
            twice |= 1 << kind
    return Hand(once, twice)


@dataclass(frozen=True)
class Knowledge:
    """What one seat knows about where the cards are; every tuple is indexed by seat.

    ``seat`` is the seat that knows (``None`` for a spectator). For every seat
    ``s``: it holds ``hand_sizes[s]`` cards now, among them every card of
    ``known[s]`` (for the knowing seat, its whole hand), and no card of a kind in
    the mask ``forbidden[s]``. ``gone[s]`` are the cards the knowing seat has seen
    leave that hand since the deal (played, passed away) and ``received[s]``
    those it has seen come in (passed to it), kept net of each other so that each
    is a hand; ``weighting="shuffle"`` uses them to rebuild the dealt hand,
    ``hand + gone - received``. ``unseen`` are the cards whose holder is
    unknown; they fill the ``hand_sizes[s] - len(known[s])`` free places.
    ``at_least`` lists ``(kind, places, copies)``: at least ``copies`` of the
    unseen copies of ``kind`` go to the places of the bit mask ``places``
    (``1 << s`` for place ``s``), as the cards of a taken widow must (see
    :func:`knowledge`). Frozen and hashable, so samplers can be cached by knowledge.
    """

    seat: int | None
    hand_sizes: tuple[int, ...]
    known: tuple[Hand, ...]
    forbidden: tuple[int, ...]
    gone: tuple[Hand, ...]
    received: tuple[Hand, ...]
    unseen: Hand
    at_least: tuple[tuple[int, int, int], ...] = ()

    def __post_init__(self) -> None:
        n = len(self.hand_sizes)
        for name in ("known", "forbidden", "gone", "received"):
            if len(getattr(self, name)) != n:
                raise ValueError(f"Knowledge.{name} needs one entry per seat ({n})")
        for kind, places, copies in self.at_least:
            if not (0 <= kind < 24 and 0 < places < 1 << n and 1 <= copies <= 2):
                raise ValueError(f"Knowledge.at_least entry {(kind, places, copies)} is not "
                                 f"(kind 0-23, a mask of the {n} places, 1 or 2 copies)")

    @property
    def seats(self) -> int:
        """How many seats there are."""
        return len(self.hand_sizes)

    def capacity(self, seat: int) -> int:
        """How many unseen cards ``seat`` holds."""
        return self.hand_sizes[seat] - len(self.known[seat])

    def violation(self, hands: Sequence[Hand]) -> str | None:
        """Why a deal of current ``hands`` disagrees with this knowledge, or ``None``."""
        if len(hands) != self.seats:
            return f"{len(hands)} hands for {self.seats} seats"
        extra = _NO_HAND
        for seat, hand in enumerate(hands):
            if len(hand) != self.hand_sizes[seat]:
                return f"seat {seat} holds {len(hand)} cards, not {self.hand_sizes[seat]}"
            if not hand.issuperset(self.known[seat]):
                return f"seat {seat} lacks known cards {self.known[seat]} (holds {hand})"
            bad = hand.once & self.forbidden[seat]
            if bad:
                names = " ".join(str(c) for c in cards_of_mask(bad))
                return f"seat {seat} holds {names}, which it cannot hold"
            extra = extra + (hand - self.known[seat])
        if extra != self.unseen:
            return f"the hands' unknown cards {extra} are not the unseen cards {self.unseen}"
        for kind, places, copies in self.at_least:
            there = sum(hands[s].count(kind) - self.known[s].count(kind)
                        for s in range(self.seats) if places >> s & 1)
            if there < copies:
                where = " ".join(str(s) for s in range(self.seats) if places >> s & 1)
                return (f"places {where} hold {there} unseen {ALL_CARDS[kind]}, "
                        f"not at least {copies}")
        return None

    def is_consistent(self, hands: Sequence[Hand]) -> bool:
        """Whether a deal of current ``hands`` agrees with this knowledge."""
        try:
            return self.violation(hands) is None
        except ValueError:  # more than two copies of a kind
            return False


def knowledge(view: View) -> Knowledge:
    """What ``view.seat`` knows about the current hands, read from its view only."""
    rules = view.rules
    n = rules.players
    seat = view.seat
    if seat is not None and view.hand is None:
        raise ValueError(f"the view of seat {seat} has no hand")
    played = [[0] * 24 for _ in range(n)]
    forbidden = [0] * n
    sequences = [(t.seats, t.cards) for t in view.tricks]
    sequences.append((tuple(s for s, _ in view.trick), tuple(c for _, c in view.trick)))
    for index, (seats, cards) in enumerate(sequences):
        if not cards:
            continue
        assert view.trump is not None, "cards are played only after trump is named"
        trump = int(view.trump)
        for i, (player, card) in enumerate(zip(seats, cards, strict=True)):
            played[player][card] += 1
            # Cards only leave hands in play, so what a play excludes stays excluded.
            forbidden[player] |= excluded_by_play(cards[:i], card, trump, rules, index == 0)

    # Lower bounds on each hand at meld time: meld on the table (docs/rules.md §1 Meld) ...
    at_meld = [[0] * 24 for _ in range(n)]
    if view.melds is not None:
        for s, result in enumerate(view.melds):
            at_meld[s] = _counts(result.shown)
    gone = [list(p) for p in played]
    received = [[0] * 24 for _ in range(n)]
    declarer = view.declarer
    if seat is not None and declarer is not None and view.given is not None:
        # ... and the passed cards, seen only by the two partners (docs/rules.md §1 Passing).
        partner = (declarer + 2) % n
        given = _counts(Hand.from_cards(view.given))
        back = _counts(Hand.from_cards(view.returned or ()))
        if seat == partner:
            # The declarer received ``given``, then passed ``back`` to us.
            for k in range(24):
                at_meld[declarer][k] = max(at_meld[declarer][k], given[k] - back[k])
                received[declarer][k] += given[k]
                gone[declarer][k] += back[k]
                gone[seat][k] += given[k]
                received[seat][k] += back[k]
        elif seat == declarer:
            # Partner gave ``given`` away first, then received ``back`` from us.
            for k in range(24):
                at_meld[partner][k] = max(at_meld[partner][k], back[k])
                gone[partner][k] += given[k]
                received[partner][k] += back[k]
                received[seat][k] += given[k]
                gone[seat][k] += back[k]

    pile_size, pile = _pile(view)
    if rules.widow_size and rules.widow == "take" and declarer is not None and \
            view.widow is not None and view.phase in (Phase.TRUMP, Phase.DISCARD):
        # docs/rules.md §3: the widow, shown to all, is in the declarer's hand until the discard.
        widow = _counts(Hand.from_cards(view.widow))
        at_meld[declarer] = [max(a, w) for a, w in zip(at_meld[declarer], widow, strict=True)]
    known: list[Hand] = []
    in_view = [0] * 24  # copies whose place the seat knows: own hand, played, known
    for s in range(n):
        if s == seat:
            assert view.hand is not None
            known.append(view.hand)
            forbidden[s] = DECK_MASK & ~view.hand.once
        else:
            # Plays all come after meld, so each play uses up one known copy if any.
            known.append(_hand([max(0, at_meld[s][k] - played[s][k]) for k in range(24)]))
        for k, c in enumerate(_counts(known[s])):
            in_view[k] += c + played[s][k]
    at_least: tuple[tuple[int, int, int], ...] = ()
    if rules.widow_size and rules.widow == "take" and declarer is not None and \
            view.widow is not None:
        # docs/rules.md §3: all saw the widow go into the declarer's hand; what of it the
        # declarer has not played is in its hand or its discards (the place after the
        # seats), never with a defender. Nothing is left to say for the declarer itself
        # nor before the discard, when the widow is among its known cards.
        left = _widow_left(Hand.from_cards(view.widow), played[declarer], known[declarer],
                           pile)
        places = 1 << declarer | 1 << n
        at_least = tuple((k, places, c) for k, c in enumerate(left) if c)
    sizes = tuple(view.hand_sizes)
    if rules.widow_size:
        # Three-handed: one more place, the cards set aside (the widow, face down in the
        # auction or kept out; the declarer's discards): see :func:`_pile`.
        known.append(pile)
        forbidden.append(0)
        played.append([0] * 24)
        gone.append([0] * 24)
        received.append([0] * 24)
        sizes += (pile_size,)
        n += 1
        for k, c in enumerate(_counts(pile)):
            in_view[k] += c
    if any(c > 2 for c in in_view):
        raise NoConsistentDealError(f"view of seat {seat} accounts for more than two copies")
    unseen = _hand([2 - c for c in in_view])
    # Net of each other: a card given, passed back and played left twice, came in once.
    net = [[g - r for g, r in zip(gone[s], received[s], strict=True)] for s in range(n)]
    return Knowledge(seat=seat, hand_sizes=sizes, known=tuple(known),
                     forbidden=tuple(forbidden),
                     gone=tuple(_hand([max(0, c) for c in d]) for d in net),
                     received=tuple(_hand([max(0, -c) for c in d]) for d in net), unseen=unseen,
                     at_least=at_least)


def _pile(view: View) -> tuple[int, Hand]:
    """Three-handed (docs/rules.md §3): how many cards are set aside now and which of them
    ``view.seat`` knows. The widow is face down during the auction (3 unknown), face
    up and out of play with ``widow="out"``; taken, it is in the declarer's hand
    until the discard (0 set aside), then the 3 discards are known to the declarer
    only. A defender does not know which cards were discarded, but it does know
    that the widow's cards went to the declarer: :func:`knowledge` keeps those not
    played since in the declarer's hand or here (:func:`_widow_left`)."""
    rules = view.rules
    if not rules.widow_size:
        return 0, _NO_HAND
    size = rules.widow_size
    if view.declarer is None or view.widow is None:
        return size, _NO_HAND
    if rules.widow == "out":
        return size, Hand.from_cards(view.widow)
    if view.phase in (Phase.TRUMP, Phase.DISCARD):
        return 0, _NO_HAND
    if view.discards is not None:
        return size, Hand.from_cards(view.discards)
    return size, _NO_HAND


def _widow_left(widow: Hand, played: Sequence[int], known: Hand, pile: Hand) -> list[int]:
    """docs/rules.md §3, ``widow="take"``: per kind, how many *unseen* copies must be in
    the declarer's hand or the set-aside pile, given the ``widow`` it took, the
    copies it has ``played`` since (per kind), the cards ``known`` to be in its hand
    and those known in the ``pile``.

    The declarer's hand after taking the widow held every widow copy, and each of
    its cards is now in its hand, in the pile or played by it: for every kind,
    hand + pile + played >= widow, and nothing else ties the widow down. Per copy,
    not per kind: with one ``QS`` in the widow, the other may be anywhere unseen;
    a ``QS`` the declarer played may have been either, so it counts against the
    widow's; known copies (meld on the table less what was played of it, already
    net of plays, so nothing is counted twice) are there already.

    >>> from pinochlekit.engine.cards import Card
    >>> widow = Hand.parse("QS QS JD")
    >>> played = [0] * 24
    >>> played[Card("QS")] = 1
    >>> left = _widow_left(widow, played, Hand.parse("JD"), Hand())
    >>> [(str(Card(k)), c) for k, c in enumerate(left) if c]
    [('QS', 1)]
    """
    return [max(0, w - p - k - q) for w, p, k, q in
            zip(_counts(widow), played, _counts(known), _counts(pile), strict=True)]


# -- the sampler -------------------------------------------------------------------

# A node of the sampling graph: (weighted completions, options, capacities left).
# An option is (cumulative end, start, weight, additions, next node); additions are
# (seat, bits) with a hand coded as ``once | twice << 24``. A leaf has no options;
# its capacities are filled with the free cards, its weight is the number of ways.
_Option = tuple[int, int, int, tuple[tuple[int, int], ...], "_Node"]
_Node = tuple[int, tuple[_Option, ...], tuple[int, ...]]
# A placement of one kind's unseen copies: copies per seat, weight, additions.
_Placement = tuple[tuple[int, ...], int, tuple[tuple[int, int], ...]]


def _splits(copies: int, allowed: Sequence[int], width: int) -> list[tuple[int, ...]]:
    """Ways to place ``copies`` (1 or 2) unseen copies among the ``allowed`` positions."""
    out = []
    for i, a in enumerate(allowed):
        x = [0] * width
        x[a] = copies
        out.append(tuple(x))
        if copies == 2:
            for b in allowed[i + 1:]:
                y = [0] * width
                y[a] = y[b] = 1
                out.append(tuple(y))
    return out


def _bits(kind: int, known: int, copies: int) -> int:
    """Bits of the ``once | twice << 24`` code for ``copies`` more of ``kind`` on ``known``."""
    if copies == 2:
        return (1 << kind) | (1 << (kind + 24))
    return 1 << (kind + 24) if known else 1 << kind


class Sampler:
    """Draws current deals consistent with a :class:`Knowledge`, exactly at random.

    Kinds that no constraint touches (every seat with room may hold them, no
    ``at_least`` names them, and for ``"shuffle"`` no seat has seen a copy leave
    or arrive) are *free*: however the other cards fall, they are dealt like a
    shuffled packet into the places left, so the dynamic program runs over the
    constrained kinds only (an ``at_least`` is honoured there, by leaving out the
    placements of a kind that break it), its leaves weighted by the multinomial
    count of the free cards. Construction takes milliseconds; :meth:`sample`
    costs one random integer, a walk over the constrained kinds and a shuffle of
    the free cards.
    """

    __slots__ = ("_base", "_forced", "_free", "_levels", "_root", "knowledge", "weighting")

    def __init__(self, knowledge: Knowledge, weighting: Weighting = "shuffle") -> None:
        """Build the sampler; :class:`NoConsistentDealError` if no deal fits."""
        if weighting not in ("shuffle", "unseen"):
            raise ValueError(f"weighting must be 'shuffle' or 'unseen', not {weighting!r}")
        self.knowledge = knowledge
        self.weighting = weighting
        k = knowledge
        n = k.seats
        caps = [k.capacity(s) for s in range(n)]
        if min(caps) < 0:
            s = caps.index(min(caps))
            raise NoConsistentDealError(f"seat {s} is known to hold {len(k.known[s])} cards "
                                        f"but holds {k.hand_sizes[s]}")
        if sum(caps) != len(k.unseen) or len(k.unseen) > 48:
            raise NoConsistentDealError(f"{len(k.unseen)} unseen cards for {sum(caps)} places")
        known = [_counts(h) for h in k.known]
        base = [[0] * 24 for _ in range(n)]
        if weighting == "shuffle":
            # Copies of each kind in each dealt hand, less the unseen ones placed there.
            gone = [_counts(h) for h in k.gone]
            came = [_counts(h) for h in k.received]
            base = [[known[s][c] + gone[s][c] - came[s][c] for c in range(24)]
                    for s in range(n)]
        active = [s for s in range(n) if caps[s]]
        self._base = [h.once | h.twice << 24 for h in k.known]
        self._forced: list[tuple[int, tuple[int, ...]]] = []
        self._free: list[int] = []
        levels: list[tuple[int, list[_Placement]]] = []
        unseen = _counts(k.unseen)
        floors: dict[int, list[tuple[int, int]]] = {}  # kind: (places, least copies there)
        for kind, places, least in k.at_least:
            floors.setdefault(kind, []).append((places, least))
            if least > unseen[kind]:
                raise NoConsistentDealError(f"{least} unseen {ALL_CARDS[kind]} are needed in "
                                            f"places {places:#b}, {unseen[kind]} are unseen")
        for kind in range(24):
            copies = unseen[kind]
            if not copies:
                continue
            if copies + sum(known[s][kind] for s in range(n)) > 2:
                raise NoConsistentDealError(f"more than two {ALL_CARDS[kind]} are accounted for")
            allowed = [s for s in active if not k.forbidden[s] >> kind & 1]
            floor = floors.get(kind, [])
            if not floor and len(allowed) == len(active) > 1 and \
                    not any(base[s][kind] for s in active):
                self._free += [kind] * copies
                continue
            options: list[_Placement] = []
            for x in _splits(copies, allowed, n):
                if any(sum(x[s] for s in range(n) if places >> s & 1) < least
                       for places, least in floor):
                    continue  # too few where ``at_least`` puts them (a taken widow's cards)
                # Physical ways, up to a constant: 2/o! per seat dealt o copies (docs/rules.md
                # §1 Deck: the two copies of a kind are two cards).
                weight = 1
                for s in active:
                    dealt = base[s][kind] + x[s]
                    if not 0 <= dealt <= 2:
                        weight = 0
                    elif dealt <= 1:
                        weight *= 2
                if weight:
                    adds = tuple((s, _bits(kind, known[s][kind], x[s])) for s in range(n) if x[s])
                    options.append((x, weight, adds))
            if not options:
                raise NoConsistentDealError(f"no seat can hold the unseen {ALL_CARDS[kind]}"
                                            + (" where it must be" if floor else ""))
            common = 0
            for _, w, _ in options:
                common = gcd(common, w)
            options = [(x, w // common, adds) for x, w, adds in options]
            if len(options) == 1:  # forced: fold into the fixed part
                x, _, adds = options[0]
                self._forced.append((kind, x))
                for s, bits in adds:
                    self._base[s] |= bits
                caps = [c - d for c, d in zip(caps, x, strict=True)]
                if min(caps) < 0:
                    raise NoConsistentDealError(f"seat {caps.index(min(caps))} cannot hold "
                                                f"every card only it may hold")
                continue
            levels.append((kind, options))
        self._levels = levels
        self._root = self._build(caps, levels, len(self._free))

    @staticmethod
    def _build(caps: Sequence[int], levels: Sequence[tuple[int, list[_Placement]]],
               free: int) -> _Node:
        # A vector of remaining capacities is one int, 7 bits a seat (at most 48 cards)
        # with the top bit of each field set as a guard: a subtraction that would go
        # negative clears a guard.
        n = len(caps)
        guards = sum(64 << (7 * s) for s in range(n))
        root = guards + sum(c << (7 * s) for s, c in enumerate(caps))
        steps = [[(sum(d << (7 * s) for s, d in enumerate(x)), w, adds) for x, w, adds in options]
                 for _, options in levels]
        # Forward: the capacity vectors reachable before each level.
        reach: list[set[int]] = [{root}]
        for step in steps:
            nxt = set()
            for r in reach[-1]:
                for dx, _, _ in step:
                    rest = r - dx
                    if rest & guards == guards:
                        nxt.add(rest)
            reach.append(nxt)
        # Leaves: the free cards dealt into the places left, free! / prod(left!) ways.
        nodes: dict[int, _Node] = {}
        for r in reach[-1]:
            left = tuple(r >> (7 * s) & 63 for s in range(n))
            ways = factorial(free)
            for c in left:
                ways //= factorial(c)
            nodes[r] = (ways, (), left)
        # Backward: weighted completions of each reachable vector, as graph nodes.
        for level in range(len(steps) - 1, -1, -1):
            step = steps[level]
            built: dict[int, _Node] = {}
            get = nodes.get
            for r in reach[level]:
                total = 0
                opts: list[_Option] = []
                for dx, w, adds in step:
                    node = get(r - dx)  # a vector with a cleared guard is never a key
                    if node is not None:
                        start = total
                        total += w * node[0]
                        opts.append((total, start, w, adds, node))
                if opts:
                    built[r] = (total, tuple(opts), ())
            nodes = built
        found = nodes.get(root)
        if found is None:
            raise NoConsistentDealError("no deal of the unseen cards fits the hand sizes and voids")
        return found

    @classmethod
    def from_view(cls, view: View, weighting: Weighting = "shuffle") -> Sampler:
        """The sampler for what ``view.seat`` knows."""
        return cls(knowledge(view), weighting)

    @property
    def total_weight(self) -> int:
        """The sum of the integer weights of all consistent deals (never 0)."""
        return self._root[0]

    def sample(self, rng: random.Random) -> tuple[Hand, ...]:
        """One deal: the current hand of every seat (the knowing seat's exactly)."""
        node = self._root
        codes = list(self._base)
        r = rng.randrange(node[0])
        options = node[1]
        while options:
            for option in options:
                if r < option[0]:
                    break
            _, start, weight, adds, node = option
            r = (r - start) // weight  # uniform again over the chosen node's completions
            for s, bits in adds:
                codes[s] |= bits
            options = node[1]
        if self._free:
            cards = self._free[:]
            rng.shuffle(cards)  # docs/rules.md §1 Deal: the free cards fall as a shuffle deals them
            i = 0
            for s, places in enumerate(node[2]):
                code = codes[s]
                for card in cards[i:i + places]:
                    bit = 1 << card
                    code |= bit << 24 if code & bit else bit
                codes[s] = code
                i += places
        return tuple([Hand(c & DECK_MASK, c >> 24) for c in codes])

    def samples(self, rng: random.Random, n: int) -> list[tuple[Hand, ...]]:
        """``n`` independent deals."""
        return [self.sample(rng) for _ in range(n)]

    def probability(self, hands: Sequence[Hand]) -> Fraction:
        """The exact probability that :meth:`sample` returns ``hands``."""
        k = self.knowledge
        if not k.is_consistent(hands):
            return Fraction(0)
        known = [_counts(h) for h in k.known]
        held = [_counts(h) for h in hands]
        for kind, x in self._forced:
            if any(held[s][kind] - known[s][kind] != x[s] for s in range(k.seats)):
                return Fraction(0)
        weight = 1
        node = self._root
        for kind, options in self._levels:
            x = tuple(held[s][kind] - known[s][kind] for s in range(k.seats))
            match = [(w, adds) for y, w, adds in options if y == x]
            if not match:
                return Fraction(0)
            w, adds = match[0]
            for option in node[1]:
                if option[3] == adds:
                    node = option[4]
                    break
            else:
                return Fraction(0)  # the capacities cannot be completed this way
            weight *= w
        for kind in set(self._free):
            ways = factorial(self._free.count(kind))
            for s in range(k.seats):
                ways //= factorial(held[s][kind] - known[s][kind])
            weight *= ways
        return Fraction(weight, self.total_weight)


@lru_cache(maxsize=64)
def _cached(knowledge: Knowledge, weighting: Weighting) -> Sampler:
    return Sampler(knowledge, weighting)


def sample_deal(knowledge: Knowledge, rng: random.Random,
                weighting: Weighting = "shuffle") -> tuple[Hand, ...]:
    """One deal consistent with ``knowledge`` (the sampler is cached per knowledge)."""
    return _cached(knowledge, weighting).sample(rng)


def sample_deals(view: View, rng: random.Random, n: int,
                 weighting: Weighting = "shuffle") -> list[tuple[Hand, ...]]:
    """``n`` deals consistent with what ``view.seat`` knows."""
    return Sampler.from_view(view, weighting).samples(rng, n)
