"""Meld (RULES.md §1 Meld, §2 meld options) checked three ways.

1. A slow reference written differently from ``pinochlekit.meld``: every meld
   is an explicit set of *physical* cards (the two copies of a kind are cards
   0 and 1), and a search over sets of melds finds the best total under the
   card-reuse rules.
2. Exhaustive comparisons of ``meld`` with the reference under every meld
   option (every one-suit holding, every "around" holding, every pinochle
   holding), and seeded random hands.
3. A rule table of worked examples, each named after its source.

Every comparison also checks the result's own consistency: the items sum to
the total, each item holds the cards its name says, and ``shown`` is exactly
the cards needed on the table.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache

import pytest

from pinochlekit.cards import Card, Hand, Rank, Suit
from pinochlekit.meld import MeldResult, meld, meld_values
from pinochlekit.rules import Rules

# ---------------------------------------------------------------------------
# The reference.

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS
A, T, K, Q, J, N = Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE

#: (kind, copy): one physical card of the 48.
Physical = tuple[int, int]

#: RULES.md §1 Meld table, ordinary scale: single melds.
SINGLE = {"run": 150, "royal marriage": 40, "common marriage": 20, "dix": 10,
          "aces around": 100, "kings around": 80, "queens around": 60, "jacks around": 40,
          "pinochle": 40}
#: RULES.md §1 and §2 "double melds = special values".
SPECIAL_DOUBLE = {"run": 1500, "aces around": 1000, "kings around": 800,
                  "queens around": 600, "jacks around": 400, "pinochle": 300}
AROUNDS = {A: "aces around", K: "kings around", Q: "queens around", J: "jacks around"}


def kind(suit: int, rank: int) -> int:
    return suit * 6 + rank


def value(name: str, rules: Rules) -> int:
    """Points of a single meld, or of ``double <name>`` (both copies of every card)."""
    if name.startswith("double "):
        single = name.removeprefix("double ")
        points = SPECIAL_DOUBLE[single] if rules.doubles == "special" else 2 * SINGLE[single]
    else:
        points = SINGLE[name]
    if rules.divide_by_ten:
        assert points % 10 == 0
        points //= 10
    return points


@dataclass(frozen=True)
class Candidate:
    """One meld the hand could show, on named physical cards."""

    name: str
    klass: str  # "I" runs, marriages, dix; "II" arounds; "III" pinochles
    cards: frozenset[Physical]
    points: int


def meld_shapes(trump: int | None) -> list[tuple[str, str, list[int]]]:
    """(name, class, card kinds) of every meld, runs first."""
    shapes: list[tuple[str, str, list[int]]] = []
    if trump is not None:
        shapes.append(("run", "I", [kind(trump, r) for r in (A, T, K, Q, J)]))
        shapes.append(("royal marriage", "I", [kind(trump, K), kind(trump, Q)]))
        shapes.append(("dix", "I", [kind(trump, N)]))
    for suit in Suit:
        if suit != trump:
            shapes.append(("common marriage", "I", [kind(suit, K), kind(suit, Q)]))
    for rank, name in AROUNDS.items():
        shapes.append((name, "II", [kind(suit, rank) for suit in Suit]))
    shapes.append(("pinochle", "III", [kind(S, Q), kind(D, J)]))
    return shapes


def candidates(counts: list[int], trump: int | None, rules: Rules) -> list[Candidate]:
    """Every meld on every choice of physical copies; a double meld is one
    candidate using both copies of each of its cards."""
    out: list[Candidate] = []
    for name, klass, kinds in meld_shapes(trump):
        copies = [[(k, c) for c in range(counts[k])] for k in kinds]
        for pick in itertools.product(*copies):
            out.append(Candidate(name, klass, frozenset(pick), value(name, rules)))
        if name in SPECIAL_DOUBLE and all(counts[k] == 2 for k in kinds):
            both = frozenset((k, c) for k in kinds for c in (0, 1))
            out.append(Candidate(f"double {name}", klass, both, value(f"double {name}", rules)))
    return out


def tokens(cand: Candidate, rules: Rules) -> frozenset[tuple[str, Physical]]:
    """The resources a meld takes: a physical card within its class ("once": at all).

    Within class I, runs, marriages and dix are tracked apart so that
    :func:`may_join` can apply the run/marriage rule of RULES.md §1.
    """
    if rules.meld_reuse == "once":
        group = "any"
    elif cand.klass != "I":
        group = cand.klass
    elif "run" in cand.name:
        group = "run"
    else:
        group = "marriage" if "marriage" in cand.name else "dix"
    return frozenset((group, card) for card in cand.cards)


def may_join(cand: Candidate, used: frozenset[tuple[str, Physical]], rules: Rules) -> bool:
    """Per class, a marriage may not use a run's card ("nothing"), or may use one,
    its other card being outside every run ("marries": run + extra K or Q).
    Runs come first in the candidate list, so ``used`` already holds every run."""
    if rules.meld_reuse == "once" or "marriage" not in cand.name:
        return True
    in_runs = sum(("run", card) in used for card in cand.cards)
    if rules.run_extra == "nothing":
        return in_runs == 0
    return in_runs <= 1 and (in_runs == 0 or cand.name == "royal marriage")


def reference_meld(counts: list[int], trump: int | None,
                   rules: Rules) -> tuple[int, Counter[str]]:
    """Best total and the meld names giving it, by exhaustive search."""
    cands = candidates(counts, trump, rules)
    all_tokens = [tokens(c, rules) for c in cands]

    @lru_cache(maxsize=None)
    def best(i: int, used: frozenset[tuple[str, Physical]]) -> tuple[int, tuple[str, ...]]:
        if i == len(cands):
            return 0, ()
        result = best(i + 1, used)
        if not all_tokens[i] & used and may_join(cands[i], used, rules):
            points, names = best(i + 1, used | all_tokens[i])
            if points + cands[i].points > result[0]:
                result = points + cands[i].points, (cands[i].name, *names)
        return result

    points, names = best(0, frozenset())
    shown: Counter[str] = Counter()
    for name in names:  # plain doubles are shown as two single melds
        if name.startswith("double ") and rules.doubles == "plain":
            shown[name.removeprefix("double ")] += 2
        else:
            shown[name] += 1
    return points, shown
