"""Hidden-card sampling for the double deck: deals consistent with one seat's view.

:func:`double_knowledge` reads a seat's :class:`~pinochlekit.engine.double.views.DoubleView`
(and nothing else) into a :class:`DoubleKnowledge`; a :class:`DoubleSampler` built
from it draws complete current deals of the unseen cards (up to four copies of a
kind) to the other three seats, exactly at random, without rejection:

>>> import random
>>> from pinochlekit.engine.double.game import DoubleDeckGame
>>> game = DoubleDeckGame.new("doubledeck", seed=3)
>>> sampler = DoubleSampler(double_knowledge(game.view(1)))
>>> hands = sampler.sample(random.Random(1))
>>> hands[1] == list(game.hand(1).counts), [sum(h) for h in hands]
(True, [20, 20, 20, 20])

**What a seat knows** (docs/rules.md §5 "what a player knows", on the §6 game):

* its own hand and how many cards each seat holds now;
* the cards played, by whom (every copy of a kind is in one place: a hand, the
  table, or the tricks);
* the meld shown on the table (docs/rules.md §6 meld): each seat still holds at
  least the copies it showed less those it has played since;
* for the declarer and partner, the cards passed between them (docs/rules.md §6
  passing): the declarer holds at least the copies it received less those it
  passed back, the partner at least those that came back to it, less what each
  has played since;
* kinds a seat cannot hold, read from its plays by
  :func:`~pinochlekit.players.search.sampler.excluded_by_play` (the single deck's
  rule, which is a rule on kinds and holds unchanged for four copies): a void
  shown by not following suit or not trumping, a card it could not beat where the
  §2 must-beat options oblige it to, a trump it would have played under
  trump-follows-trump, and the first lead in trump (§2). Cards leave a hand only
  in play once the play has begun, so each such fact holds to the end of the hand.

**The distribution** *(ours)*: every assignment of the *physical* unseen copies
that satisfies these facts is equally likely (two unseen copies of ``AS`` split
one and one in two ways, both to one seat in one; a copy known to be with a seat
is one of the unseen copies, so with one of two ``AS`` shown, both with that seat
is one way in three). It is exact: a dynamic
program over the kinds counts the weighted completions for every vector of
remaining capacities, and each sample walks it with one random integer per kind.
**The meld not shown** (docs/rules.md §6 meld): every seat shows its whole meld, so
its hand at the meld (what it holds now plus what it has played since) scores
exactly the meld it showed, never more. The dynamic program cannot hold that
fact, and few exact deals agree with it (about one in a hundred early in the
play), so :meth:`DoubleSampler.samples` mends each drawn deal that does not
(:meth:`DoubleKnowledge.meld_agrees`) by :func:`~pinochlekit.players.double.mend.mend`
(in the C core when it is built): it swaps cards not known to be anywhere between
two other seats, a seat that cannot hold a kind never taking it, keeping a swap
unless it raises the meld shown too much, for at most :data:`MELD_STEPS` swaps. A
deal that stays wrong is drawn again, at most :data:`MELD_TRIES` times the deals
asked for, then filled up with deals that agree with the rest. The
mended deals are no longer exactly uniform *(ours: an approximation)*. Not used
here, as in the single deck: the auction and the choice of trump (strategy, not
rule); the expert weighs the deals by the auction on top
(:mod:`pinochlekit.players.double.inference`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from math import factorial

from pinochlekit.engine.double.cards import COPIES, DOUBLE_KINDS
from pinochlekit.engine.double.meld import meld_counts, meld_table
from pinochlekit.engine.errors import PinochleError
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.views import View
from pinochlekit.players.double.mend import mend
from pinochlekit.players.search.sampler import excluded_by_play

__all__ = [
    "MELD_STEPS",
    "MELD_TRIES",
    "DoubleKnowledge",
    "DoubleSampler",
    "NoDoubleDealError",
    "ShownMeld",
    "double_knowledge",
    "played_by_seat",
    "sample_double_deals",
]

#: A deal as the sampler draws it: per seat, 24 copy counts.
Counts = list[list[int]]
#: Draws per deal asked for that :meth:`DoubleSampler.samples` makes to find deals
#: agreeing with the meld not shown.
MELD_TRIES = 4
#: Swaps made at most to mend one deal that disagrees with the meld not shown.
MELD_STEPS = 200


class NoDoubleDealError(PinochleError, ValueError):
    """No deal agrees with a :class:`DoubleKnowledge` (never the case for a real view)."""


@dataclass(frozen=True)
class ShownMeld:
    """The meld the other seats showed, and what a hand at the meld is checked with
    (docs/rules.md §6 meld: the whole meld is shown).

    ``points``: per seat, the meld points it showed; ``played``: per seat, the copies
    of each kind it has played since; ``trump`` and ``rules``: the hand's.
    """

    points: tuple[int, ...]
    played: tuple[tuple[int, ...], ...]
    trump: int
    rules: Rules

    def excess(self, hands: Sequence[Sequence[int]], seat: int) -> int:
        """The meld points ``seat``'s hand at the meld (``hands[seat]`` plus what it
        has played) scores beyond what it showed."""
        held = [n + p for n, p in zip(hands[seat], self.played[seat], strict=True)]
        return meld_counts(held, self.trump, self.rules) - self.points[seat]


@dataclass(frozen=True)
class DoubleKnowledge:
    """What one seat knows of the current deal (see the module docstring).

    ``hand``: its own 24 counts; ``sizes``: cards each seat holds now; ``known``: per
    seat, the least copies of each kind it is known to hold now; ``excluded``: per
    seat, the mask of kinds it cannot hold; ``unseen``: per kind, the copies neither
    in the seat's hand nor played; ``meld``: the meld shown (``None`` before the meld).
    """

    seat: int
    hand: tuple[int, ...]
    sizes: tuple[int, ...]
    known: tuple[tuple[int, ...], ...]
    excluded: tuple[int, ...]
    unseen: tuple[int, ...]
    meld: ShownMeld | None = None

    def meld_agrees(self, hands: Sequence[Sequence[int]]) -> bool:
        """Whether each other seat's hand at the meld (``hands`` plus what it has played)
        scores exactly the meld it showed (docs/rules.md §6 meld: the whole meld is
        shown); always true before the meld."""
        return not any(self.meld_excess(hands, s) for s in range(4) if s != self.seat)

    def meld_excess(self, hands: Sequence[Sequence[int]], seat: int) -> int:
        """The meld points ``seat``'s hand at the meld scores beyond what it showed
        (0 before the meld)."""
        return 0 if self.meld is None else self.meld.excess(hands, seat)

    def violation(self, hands: Sequence[Sequence[int]]) -> str | None:
        """Why a deal (four lists of 24 counts) disagrees with this knowledge, or ``None``."""
        if list(hands[self.seat]) != list(self.hand):
            return f"seat {self.seat}'s own hand differs"
        for seat in range(4):
            if sum(hands[seat]) != self.sizes[seat]:
                return f"seat {seat} holds {sum(hands[seat])} cards, not {self.sizes[seat]}"
            for kind in range(24):
                n = hands[seat][kind]
                if seat != self.seat and n < self.known[seat][kind]:
                    return f"seat {seat} is known to hold {self.known[seat][kind]} of kind {kind}"
                if n and self.excluded[seat] >> kind & 1:
                    return f"seat {seat} cannot hold kind {kind}"
        for kind in range(24):
            others = sum(hands[s][kind] for s in range(4) if s != self.seat)
            if others != self.unseen[kind]:
                return f"{others} copies of kind {kind} dealt, {self.unseen[kind]} unseen"
        return None


def played_by_seat(view: View) -> Counts:
    """Per seat, the copies of each kind it has played this hand (the tricks taken and
    the trick on the table): what a seat knows of the cards played, by whom
    (docs/rules.md §5 "what a player knows"). :func:`double_knowledge` and the auction
    inference read the played cards here."""
    played = [[0] * 24 for _ in range(4)]
    for trick in view.tricks:
        for seat, card in zip(trick.seats, trick.cards, strict=True):
            played[seat][int(card)] += 1
    for seat, card in view.trick:
        played[seat][int(card)] += 1
    return played


def double_knowledge(view: View) -> DoubleKnowledge:
    """Read what ``view``'s seat knows (the view alone: see the module docstring)."""
    if view.seat is None or view.hand is None:
        raise ValueError("a spectator's view has no seat to sample for")
    seat, rules = view.seat, view.rules
    hand = tuple(view.hand.count(k) for k in range(24))
    played = played_by_seat(view)
    excluded = [0, 0, 0, 0]
    tricks = [list(zip(t.seats, map(int, t.cards), strict=True)) for t in view.tricks]
    if view.trick:
        tricks.append([(s, int(c)) for s, c in view.trick])
    trump = -1 if view.trump is None else int(view.trump)
    for number, trick in enumerate(tricks):
        cards: list[int] = []
        for player, card in trick:
            # docs/rules.md §1.9 play rules, §2 must-beat options, §2 first lead in trump
            excluded[player] |= excluded_by_play(cards, card, trump, rules,
                                                 first_trick=number == 0)
            cards.append(card)
    least = [[0] * 24 for _ in range(4)]
    if view.melds is not None:  # docs/rules.md §6 meld: shown cards stay until played
        for s, meld in enumerate(view.melds):
            for kind in DOUBLE_KINDS:
                least[s][kind] = meld.shown.count(kind)
    if view.given is not None and view.declarer is not None:
        # docs/rules.md §6 passing, seen by the two partners who passed
        declarer, partner = view.declarer, (view.declarer + 2) % 4
        given = [0] * 24
        back = [0] * 24
        for card in view.given:
            given[card] += 1
        for card in view.returned or ():
            back[card] += 1
        for kind in DOUBLE_KINDS:
            least[declarer][kind] = max(least[declarer][kind], given[kind] - back[kind])
            if view.returned is not None:
                least[partner][kind] = max(least[partner][kind], back[kind])
    known = tuple(tuple(0 if s == seat else max(0, least[s][k] - played[s][k])
                        for k in range(24)) for s in range(4))
    total_played = [sum(played[s][k] for s in range(4)) for k in range(24)]
    unseen = tuple(COPIES - total_played[k] - hand[k] if k in DOUBLE_KINDS else 0
                   for k in range(24))
    shown = None if view.melds is None else ShownMeld(
        tuple(m.points for m in view.melds), tuple(tuple(p) for p in played), trump, rules)
    return DoubleKnowledge(seat, hand, tuple(view.hand_sizes), known, tuple(excluded), unseen,
                           shown)


class DoubleSampler:
    """Exact random deals for a :class:`DoubleKnowledge` (see the module docstring).

    :class:`NoDoubleDealError` if no deal agrees with it.
    """

    def __init__(self, knowledge: DoubleKnowledge) -> None:
        self.knowledge = knowledge
        seat = knowledge.seat
        self._others = [s for s in range(4) if s != seat]
        others = self._others
        free = [knowledge.unseen[k] - sum(knowledge.known[s][k] for s in others)
                for k in range(24)]
        caps = [knowledge.sizes[s] - sum(knowledge.known[s]) for s in others]
        if min(free) < 0 or min(caps) < 0 or sum(free) != sum(caps):
            raise NoDoubleDealError("the known cards and hand sizes do not add up")
        self._kinds = [k for k in DOUBLE_KINDS if free[k]]
        # Kinds whose unseen copies are all known: a constant number of physical ways.
        self._constant = 1
        for kind in DOUBLE_KINDS:
            if knowledge.unseen[kind] and not free[kind]:
                self._constant *= factorial(knowledge.unseen[kind])
                for s in others:
                    self._constant //= factorial(knowledge.known[s][kind])
        self._free = free
        self._caps = caps
        # The splits of each kind's free copies over the three seats, with the number of
        # physical assignments of all its unseen copies (known ones included) that give
        # those counts; a seat that cannot hold the kind takes none.
        self._splits: list[list[tuple[int, int, int, int]]] = []
        for kind in self._kinds:
            n = free[kind]
            ka, kb, kc = (knowledge.known[s][kind] for s in others)
            allowed = [not knowledge.excluded[s] >> kind & 1 for s in others]
            splits = []
            for a in range(n + 1 if allowed[0] else 1):
                for b in range(n - a + 1 if allowed[1] else 1):
                    c = n - a - b
                    if c and not allowed[2]:
                        continue
                    ways = factorial(knowledge.unseen[kind]) // (
                        factorial(a + ka) * factorial(b + kb) * factorial(c + kc))
                    splits.append((a, b, c, ways))
            self._splits.append(splits)
        self._memo: dict[tuple[int, int, int], int] = {}
        if not self._count(0, caps[0], caps[1]):
            raise NoDoubleDealError("no deal of the unseen cards agrees with the view")

    def _count(self, i: int, a: int, b: int) -> int:
        """Weighted completions of kinds ``i..`` with capacities ``a``, ``b`` (the third
        seat's is what is left)."""
        key = (i, a, b)
        memo = self._memo
        if key in memo:
            return memo[key]
        if i == len(self._kinds):
            total = 1 if a == 0 and b == 0 else 0
        else:
            left = sum(self._free[k] for k in self._kinds[i:])
            c = left - a - b
            total = 0
            if c >= 0:
                for na, nb, nc, ways in self._splits[i]:
                    if na <= a and nb <= b and nc <= c:
                        total += ways * self._count(i + 1, a - na, b - nb)
        memo[key] = total
        return total

    @property
    def total_weight(self) -> int:
        """The number of physical assignments of the unseen copies that agree."""
        return self._constant * self._count(0, self._caps[0], self._caps[1])

    def sample(self, rng: random.Random) -> Counts:
        """One deal: four lists of 24 counts, the seat's own hand as it is."""
        k = self.knowledge
        hands = [list(k.known[s]) for s in range(4)]
        hands[k.seat] = list(k.hand)
        others = self._others
        a, b = self._caps[0], self._caps[1]
        left = sum(self._free)
        for i, kind in enumerate(self._kinds):
            c = left - a - b
            pick = rng.randrange(self._count(i, a, b))
            for na, nb, nc, ways in self._splits[i]:
                if na <= a and nb <= b and nc <= c:
                    weight = ways * self._count(i + 1, a - na, b - nb)
                    if pick < weight:
                        break
                    pick -= weight
            else:  # pragma: no cover - the weights add up to the count
                raise AssertionError("sampler weights do not add up")
            hands[others[0]][kind] += na
            hands[others[1]][kind] += nb
            hands[others[2]][kind] += nc
            a, b = a - na, b - nb
            left -= self._free[kind]
        return hands

    def samples(self, rng: random.Random, n: int) -> list[Counts]:
        """``n`` deals, agreeing with the meld not shown as far as :data:`MELD_TRIES`
        draws per deal find them (see the module docstring)."""
        k = self.knowledge
        if k.meld is None:
            return [self.sample(rng) for _ in range(n)]
        shown = k.meld
        values = meld_table(shown.rules)
        out: list[Counts] = []
        other: list[Counts] = []
        for _ in range(MELD_TRIES * n):
            if len(out) == n:
                return out
            hands = self.sample(rng)
            if mend(hands, k.known, k.excluded, shown.played, shown.points, shown.trump,
                    values, k.seat, MELD_STEPS, rng.getrandbits(64)):
                out.append(hands)
            elif len(other) < n:
                other.append(hands)
        return out + other[:n - len(out)]


def sample_double_deals(view: View, rng: random.Random, n: int) -> list[Counts]:
    """``n`` deals consistent with ``view`` (a :class:`DoubleSampler` built once)."""
    return DoubleSampler(double_knowledge(view)).samples(rng, n)
