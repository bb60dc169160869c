"""Meld (docs/rules.md §1 Meld, §2 meld options) checked three ways.

1. A slow reference written differently from ``pinochlekit.engine.meld``: every meld
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
from functools import cache

import pytest

from pinochlekit.engine.cards import Card, Hand, Rank, Suit
from pinochlekit.engine.meld import MeldResult, meld, meld_values
from pinochlekit.engine.rules import Rules

# ---------------------------------------------------------------------------
# The reference.

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS
A, T, K, Q, J, N = Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.NINE

#: (kind, copy): one physical card of the 48.
Physical = tuple[int, int]

#: docs/rules.md §1 Meld table, ordinary scale: single melds.
SINGLE = {"run": 150, "royal marriage": 40, "common marriage": 20, "dix": 10,
          "aces around": 100, "kings around": 80, "queens around": 60, "jacks around": 40,
          "pinochle": 40}
#: docs/rules.md §1 and §2 "double melds = special values".
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


Shape = tuple[str, str, tuple[int, ...]]


@cache
def meld_shapes(trump: int | None) -> tuple[Shape, ...]:
    """(name, class, card kinds) of every meld with this trump, runs first."""
    suits = range(4)
    shapes: list[Shape] = []
    if trump is not None:
        shapes.append(("run", "I", tuple(kind(trump, r) for r in (A, T, K, Q, J))))
        shapes.append(("royal marriage", "I", (kind(trump, K), kind(trump, Q))))
        shapes.append(("dix", "I", (kind(trump, N),)))
    shapes += [("common marriage", "I", (kind(s, K), kind(s, Q))) for s in suits if s != trump]
    shapes += [(name, "II", tuple(kind(s, rank) for s in suits)) for rank, name in AROUNDS.items()]
    shapes.append(("pinochle", "III", (kind(S, Q), kind(D, J))))
    return tuple(shapes)


def candidates(counts: list[int], trump: int | None, rules: Rules) -> list[Candidate]:
    """Every meld on every choice of physical copies.

    A double meld is one more candidate, on both copies of each of its cards,
    worth the double value: the search may still take the two singles on
    those cards instead, but never for more (1500 > 2 * 150, and plain = 2 *).
    """
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
    :func:`may_join` can apply the run/marriage rule of docs/rules.md §1.
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
    # What candidates i.. can clash with (tokens, and the run cards may_join
    # looks at): the search forgets the rest, so equal states meet in the cache.
    later: list[frozenset[tuple[str, Physical]]] = [frozenset()] * (len(cands) + 1)
    for i in reversed(range(len(cands))):
        runs = frozenset(("run", card) for card in cands[i].cards)
        later[i] = later[i + 1] | all_tokens[i] | runs

    @cache
    def best(i: int, used: frozenset[tuple[str, Physical]]) -> tuple[int, tuple[str, ...]]:
        if i == len(cands):
            return 0, ()
        result = best(i + 1, used & later[i + 1])
        if not all_tokens[i] & used and may_join(cands[i], used, rules):
            points, names = best(i + 1, (used | all_tokens[i]) & later[i + 1])
            if points + cands[i].points > result[0]:
                result = points + cands[i].points, (cands[i].name, *names)
        return result

    points, names = best(0, frozenset())
    melds: Counter[str] = Counter()
    for name in names:  # plain doubles are scored as two single melds
        if name.startswith("double ") and rules.doubles == "plain":
            melds[name.removeprefix("double ")] += 2
        else:
            melds[name] += 1
    return points, melds


# ---------------------------------------------------------------------------
# Checking one result: against the reference and against itself.

@cache
def expected_kinds(name: str, trump: int | None) -> tuple[tuple[int, ...], ...]:
    """The card kinds (sorted) a meld of this name may hold."""
    copies = 2 if name.startswith("double ") else 1
    single = name.removeprefix("double ")
    return tuple(tuple(sorted(kinds * copies)) for n, _, kinds in meld_shapes(trump)
                 if n == single)


def klass_of(name: str) -> str:
    return "II" if "around" in name else "III" if "pinochle" in name else "I"


def problems(result: MeldResult, hand: Hand, trump: int | None, rules: Rules) -> list[str]:
    """What is wrong with ``result`` as a meld of ``hand``, short of optimality."""
    out: list[str] = []
    if sum(item.points for item in result.items) != result.points:
        out.append("items do not sum to points")
    for item in result.items:
        if item.name.removeprefix("double ") not in SINGLE:
            out.append(f"unknown meld {item.name!r}")
            continue
        if item.points != value(item.name, rules):
            out.append(f"{item} should be worth {value(item.name, rules)}")
        if tuple(sorted(item.cards)) not in expected_kinds(item.name, trump):
            out.append(f"{item} holds the wrong cards")
        if rules.doubles == "plain" and item.name.startswith("double "):
            out.append(f"{item}: plain doubles are shown as two single melds")
    # The cards on the table: within a class every meld needs cards of its own
    # (a marriage sharing a run's K or Q is what the min with the count held
    # allows for); across classes one card serves again. "once": one class.
    need: Counter[int] = Counter()
    for klass in ("I", "II", "III"):
        used = Counter(card for item in result.items for card in item.cards
                       if rules.meld_reuse == "once" or klass_of(item.name) == klass)
        for card, n in used.items():
            need[card] = max(need[card], min(n, hand.count(card)))
            if rules.meld_reuse == "once" and n > hand.count(card):
                out.append(f"{Card(card)} used {n} times with meld_reuse='once'")
    if not hand.issuperset(result.shown):
        out.append(f"shown {result.shown} is not part of the hand")
    if Counter(int(card) for card in result.shown) != need:
        out.append(f"shown {result.shown}, the melds need {Hand.from_cards(need.elements())}")
    if result.dix_only != (bool(result.items) and all(i.name == "dix" for i in result.items)):
        out.append(f"dix_only is {result.dix_only}")
    return out


def compare(hand: Hand, trump: int | None, rules: Rules) -> str | None:
    """None if ``meld`` is right for this hand, else a description of the fault."""
    result = meld(hand, trump, rules)
    points, names = reference_meld([hand.count(k) for k in range(24)], trump, rules)
    faults = problems(result, hand, trump, rules)
    if result.points != points:
        faults.append(f"points {result.points}, reference {points} {dict(names)}")
    elif rules.meld_reuse == "per_class" and Counter(i.name for i in result.items) != names:
        # Per class the best melds are unique; with "once" equal totals may
        # come from different melds (queens around or three marriages).
        faults.append(f"melds differ from the reference {dict(names)}")
    if not faults:
        return None
    trump_text = "none" if trump is None else Suit(trump).letter
    return f"[{hand}] trump {trump_text} {rules}: {result}: {'; '.join(faults)}"


def check_all(cases: Iterable[tuple[Hand, int | None]], rules: Rules) -> None:
    """Compare every case; fail listing the first few faults."""
    faults: list[str] = []
    n = 0
    for hand, trump in cases:
        n += 1
        fault = compare(hand, trump, rules)
        if fault:
            faults.append(fault)
    assert n, "no hands checked"
    assert not faults, f"{len(faults)} of {n} hands wrong, e.g.\n" + "\n".join(faults[:8])


# ---------------------------------------------------------------------------
# The option combinations.

#: Every combination of run_extra × doubles × meld_reuse, then two with divide_by_ten.
COMBOS = [Rules(run_extra=r, doubles=d, meld_reuse=m)
          for r in ("marries", "nothing") for d in ("special", "plain")
          for m in ("per_class", "once")]
COMBOS += [Rules(divide_by_ten=True),
           Rules(divide_by_ten=True, run_extra="nothing", doubles="plain", meld_reuse="once")]
#: run_extra means nothing with meld_reuse="once" (no card is used twice), so the
#: exhaustive families skip those two duplicates; the random hands keep them.
DISTINCT = [r for r in COMBOS
            if not (r.meld_reuse == "once" and r.run_extra == "nothing" and not r.divide_by_ten)]


def combo_id(rules: Rules) -> str:
    words = [rules.run_extra, rules.doubles, rules.meld_reuse]
    return "-".join(words + (["div10"] if rules.divide_by_ten else []))


def thin(cases: list[tuple[Hand, int | None]],
         rules: Rules) -> list[tuple[Hand, int | None]]:
    """Every holding, under every option (the search under "once" is fast enough)."""
    return cases


# ---------------------------------------------------------------------------
# Exhaustive families.

Case = tuple[Hand, int | None]


def hand_of(counts: dict[int, int]) -> Hand:
    return Hand.from_cards(k for k, n in counts.items() for _ in range(n))


def one_suit_holdings() -> list[Case]:
    """All 3^6 holdings of each suit, as trump and as a plain suit."""
    cases: list[Case] = []
    for suit in Suit:
        for vector in itertools.product(range(3), repeat=6):
            hand = hand_of({kind(suit, r): n for r, n in enumerate(vector)})
            cases += [(hand, suit), (hand, (suit + 1) % 4)]
    return cases


def around_holdings() -> list[Case]:
    """All 3^4 holdings of one rank across the suits, for every rank, alone and
    beside one or two tens around (worth nothing); trump spades or none."""
    cases: list[Case] = []
    for rank in Rank:
        for vector in itertools.product(range(3), repeat=4):
            for tens in (0, 1, 2) if rank != T else (0,):
                counts = {kind(s, T): tens for s in Suit}
                counts.update({kind(s, rank): n for s, n in enumerate(vector)})
                cases += [(hand_of(counts), S), (hand_of(counts), None)]
    return cases


def kings_queens_holdings() -> list[Case]:
    """All 3^8 holdings of kings and queens, hearts trump: marriages against
    kings and queens around (they compete for cards under "once")."""
    cases: list[Case] = []
    for kings in itertools.product(range(3), repeat=4):
        for queens in itertools.product(range(3), repeat=4):
            counts = {kind(s, K): n for s, n in enumerate(kings)}
            counts.update({kind(s, Q): n for s, n in enumerate(queens)})
            cases.append((hand_of(counts), H))
    return cases


def pinochle_holdings() -> list[Case]:
    """QS and JD 0..2 each, with every holding of the rest of a spade or a
    diamond run in that trump (its QS or JD competes with the pinochle under
    "once"), and beside KS, queens around and jacks around, hearts or no trump."""
    cases: list[Case] = []
    for qs, jd in itertools.product(range(3), repeat=2):
        for trump, ranks in ((S, (A, T, K, J)), (D, (A, T, K, Q))):
            for vector in itertools.product(range(3), repeat=4):
                counts = {kind(S, Q): qs, kind(D, J): jd}
                counts.update({kind(trump, r): n for r, n in zip(ranks, vector, strict=True)})
                cases.append((hand_of(counts), trump))
        for ks, queens, jacks in itertools.product(range(3), repeat=3):
            counts = {kind(S, Q): qs, kind(D, J): jd, kind(S, K): ks}
            counts.update({kind(s, Q): queens for s in (H, D, C)})
            counts.update({kind(s, J): jacks for s in (S, H, C)})
            cases += [(hand_of(counts), H), (hand_of(counts), None)]
    return cases


FAMILIES: dict[str, tuple[Callable[[], list[Case]], int]] = {
    "one-suit": (one_suit_holdings, 4 * 3**6 * 2),
    "around": (around_holdings, 3**4 * (5 * 3 + 1) * 2),
    "pinochle": (pinochle_holdings, 3**2 * (2 * 3**4 + 2 * 3**3)),
}


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("rules", DISTINCT, ids=combo_id)
def test_every_holding(family: str, rules: Rules) -> None:
    make, size = FAMILIES[family]
    cases = make()
    assert len(cases) == size
    check_all(thin(cases, rules), rules)


@pytest.mark.parametrize(
    "rules", [r for r in DISTINCT if r.run_extra == "marries"
              and not r.divide_by_ten and (r.doubles, r.meld_reuse) != ("plain", "per_class")],
    ids=combo_id)
def test_every_kings_and_queens_holding(rules: Rules) -> None:
    cases = kings_queens_holdings()  # no run is possible: run_extra plays no part
    assert len(cases) == 3**8
    check_all(thin(cases, rules), rules)


# ---------------------------------------------------------------------------
# Random hands.

DECK = [card for card in range(24) for _ in range(2)]


def random_hands(seed: int, n: int) -> Iterator[Case]:
    """Dealt 12-card hands, trump any suit or (one time in five) none."""
    rng = random.Random(seed)
    for _ in range(n):
        trump = rng.choice([0, 1, 2, 3, None])
        yield Hand.from_cards(rng.sample(DECK, 12)), trump


def rich_hands(seed: int, n: int) -> Iterator[Case]:
    """12 to 16 cards from the meld cards only (both A K Q J of every suit, the
    10s and 9s of trump), so that many melds compete for the same cards."""
    rng = random.Random(seed)
    for _ in range(n):
        trump = rng.randrange(4)
        pool = [kind(s, r) for s in range(4) for r in (A, K, Q, J)]
        pool += [kind(trump, T), kind(trump, N)]
        yield Hand.from_cards(rng.sample(pool * 2, rng.randint(12, 16))), trump


@pytest.mark.parametrize("rules", COMBOS, ids=combo_id)
def test_random_hands(rules: Rules) -> None:
    n = 2500
    check_all(random_hands(2024, n), rules)


@pytest.mark.parametrize("rules", COMBOS, ids=combo_id)
def test_random_meld_rich_hands(rules: Rules) -> None:
    n = 500
    check_all(rich_hands(7, n), rules)


# ---------------------------------------------------------------------------
# The rule table: worked examples, named after their source (docs/rules.md §1 and
# §2, seeds 000-004 in shared/seeds).

PAGAT = Rules()
NOTHING = Rules(run_extra="nothing")
PLAIN = Rules(doubles="plain")
ONCE = Rules(meld_reuse="once")
STONEBRIDGE = Rules.preset("stonebridge")  # plain doubles (seed 003)
PLAYINGCARDS = Rules.preset("playingcards")  # divide by ten (seed 004)
FAMILY1000 = Rules.preset("family1000")  # each card in one meld (seed 002)

TRUMP_RUN = "AS TS KS QS JS"
DOUBLE_RUN = "AS AS TS TS KS KS QS QS JS JS"
ROUND_HOUSE = "KS QS KH QH KD QD KC QC"

RULE_TABLE: list[tuple[str, str, int | None, Rules, int]] = [
    # docs/rules.md §1 Meld table
    ("RULES-1-run=150", TRUMP_RUN, S, PAGAT, 150),
    ("RULES-1-run-in-trump-only", "AH TH KH QH JH", S, PAGAT, 20),
    ("RULES-1-double-run=1500", DOUBLE_RUN, S, PAGAT, 1500),
    ("RULES-1-double-run-nothing-more", DOUBLE_RUN, S, NOTHING, 1500),
    ("RULES-1-double-run+two-dix=1520", DOUBLE_RUN + " 9S 9S", S, PAGAT, 1520),
    ("RULES-1-royal-marriage=40", "KS QS", S, PAGAT, 40),
    ("RULES-1-common-marriage=20", "KH QH", S, PAGAT, 20),
    ("RULES-1-marriage-same-suit-only", "KH QD", S, PAGAT, 0),
    ("RULES-1-dix=10", "9S", S, PAGAT, 10),
    ("RULES-1-dix-each=20", "9S 9S", S, PAGAT, 20),
    ("RULES-1-nine-off-trump=0", "9H 9H", S, PAGAT, 0),
    ("RULES-1-aces-around=100", "AS AH AD AC", H, PAGAT, 100),
    ("RULES-1-double-aces-around=1000", "AS AS AH AH AD AD AC AC", H, PAGAT, 1000),
    ("RULES-1-kings-around=80", "KS KH KD KC", None, PAGAT, 80),
    ("RULES-1-double-kings-around=800", "KS KS KH KH KD KD KC KC", None, PAGAT, 800),
    ("RULES-1-queens-around=60", "QS QH QD QC", None, PAGAT, 60),
    ("RULES-1-double-queens-around=600", "QS QS QH QH QD QD QC QC", None, PAGAT, 600),
    ("RULES-1-jacks-around=40", "JS JH JD JC", C, PAGAT, 40),
    ("RULES-1-double-jacks-around=400", "JS JS JH JH JD JD JC JC", C, PAGAT, 400),
    ("RULES-1-around-needs-every-suit", "AS AS AH AH AD AD", H, PAGAT, 0),
    ("RULES-1-pinochle=40", "QS JD", H, PAGAT, 40),
    ("RULES-1-double-pinochle=300", "QS QS JD JD", H, PAGAT, 300),
    ("RULES-1-pinochle+extra-QS=40", "QS QS JD", H, PAGAT, 40),
    ("RULES-1-tens-around=0", "TS TH TD TC", H, PAGAT, 0),
    ("RULES-1-double-tens-around=0", "TS TS TH TH TD TD TC TC", H, PAGAT, 0),
    ("seed003-nines-around-is-just-the-dix=10", "9S 9H 9D 9C", D, PAGAT, 10),
    ("RULES-1-two-kings-one-queen=one-marriage", "KH KH QH", S, PAGAT, 20),
    ("RULES-1-two-kings-one-queen-in-trump", "KS KS QS", S, PAGAT, 40),
    ("RULES-1-two-kings-two-queens=two-marriages", "KH KH QH QH", S, PAGAT, 40),
    ("RULES-1-run+extraK=190", "AS TS KS KS QS JS", S, PAGAT, 190),
    ("RULES-1-run+extraQ=190", "AS TS KS QS QS JS", S, PAGAT, 190),
    ("RULES-1-run+extraK+extraQ=230", "AS TS KS KS QS QS JS", S, PAGAT, 230),
    ("RULES-1-classes-I+II-share-KS=230", TRUMP_RUN + " KH KD KC", S, PAGAT, 230),
    ("RULES-1-classes-I+III-share-QS=190", TRUMP_RUN + " JD", S, PAGAT, 190),
    ("RULES-1-QS-in-three-classes=140", "KS QS QH QD QC JD", S, PAGAT, 140),
    ("RULES-1-twelve-cards=290", "AS TS KS QS JS 9S 9S AH AD AC KH QH", S, PAGAT, 290),
    ("meld-doctest=260", "AS TS KS KS QS JS 9S QH KH JD", S, PAGAT, 260),
    # trump=None: before trump is named (nines redeal): no run, no dix
    ("RULES-2-no-trump-no-run-no-dix", TRUMP_RUN + " 9S 9S", None, PAGAT, 20),
    # docs/rules.md §2 extra K/Q with a run = "scores nothing extra" (seed 003 Variations)
    ("seed003-variation-extra-king-nothing=150", "AS TS KS KS QS JS", S, NOTHING, 150),
    ("seed003-variation-extra-queen-nothing=150", "AS TS KS QS QS JS", S, NOTHING, 150),
    ("seed003-variation-ATKKQQJ-nothing=190", "AS TS KS KS QS QS JS", S, NOTHING, 190),
    ("seed003-main-ATKKQQJ-marries=230", "AS TS KS KS QS QS JS", S, PAGAT, 230),
    # docs/rules.md §2 double melds = plain (seed 003, Stonebridge)
    ("seed003-stonebridge-double-run=300", DOUBLE_RUN, S, STONEBRIDGE, 300),
    ("seed003-stonebridge-double-pinochle=80", "QS QS JD JD", H, STONEBRIDGE, 80),
    ("seed003-stonebridge-double-aces=200", "AS AS AH AH AD AD AC AC", H, STONEBRIDGE, 200),
    ("seed003-stonebridge-double-kings=160", "KS KS KH KH KD KD KC KC", None, PLAIN, 160),
    ("seed003-stonebridge-double-queens=120", "QS QS QH QH QD QD QC QC", None, PLAIN, 120),
    ("seed003-stonebridge-double-jacks=80", "JS JS JH JH JD JD JC JC", C, PLAIN, 80),
    ("RULES-2-plain-double-run+extra-nothing=300", DOUBLE_RUN, S,
     Rules(doubles="plain", run_extra="nothing"), 300),
    # seed 001
    ("seed001-round-house=240", ROUND_HOUSE, S, PAGAT, 240),
    ("seed001-queen-marries-one-king", "KH KH QH", D, PAGAT, 20),
    ("seed001-queen-in-marriage-and-pinochle=60", "KS QS JD", H, PAGAT, 60),
    ("seed001-double-around-ten-times=1000", "AS AS AH AH AD AD AC AC", S, PAGAT, 1000),
    ("seed001-double-run=1500", DOUBLE_RUN, S, PAGAT, 1500),
    # seed 002 / docs/rules.md §2 card reuse = once in all (family1000)
    ("seed002-once-QS-run-not-pinochle=150", TRUMP_RUN + " JD", S, FAMILY1000, 150),
    ("seed002-once-QS-around-not-pinochle=60", "QS QH QD QC JD", H, FAMILY1000, 60),
    ("seed002-once-marriage-or-pinochle=40", "KS QS JD", H, FAMILY1000, 40),
    ("seed002-once-round-house=140", ROUND_HOUSE, H, ONCE, 140),
    ("seed002-once-run+extraK=150", "AS TS KS KS QS JS", S, ONCE, 150),
    ("seed002-once-run+extraKQ=190", "AS TS KS KS QS QS JS", S, ONCE, 190),
    ("seed002-once-double-run=1500", DOUBLE_RUN, S, FAMILY1000, 1500),
    ("seed002-once-double-kings=800", "KS KS KH KH KD KD KC KC", None, FAMILY1000, 800),
    ("seed002-once-dix-alone=20", "9S 9S KH", S, FAMILY1000, 20),
    # seed 004 (playingcards preset: divide by ten) and seed 000 "divide by 10"
    ("seed004-run=15", TRUMP_RUN, S, PLAYINGCARDS, 15),
    ("seed004-trump-marriage=4", "KS QS", S, PLAYINGCARDS, 4),
    ("seed004-marriage=2", "KH QH", S, PLAYINGCARDS, 2),
    ("seed004-nine=1", "9S", S, PLAYINGCARDS, 1),
    ("seed004-4-aces=10", "AS AH AD AC", S, PLAYINGCARDS, 10),
    ("seed004-4-kings=8", "KS KH KD KC", None, PLAYINGCARDS, 8),
    ("seed004-4-queens=6", "QS QH QD QC", None, PLAYINGCARDS, 6),
    ("seed004-4-jacks=4", "JS JH JD JC", C, PLAYINGCARDS, 4),
    ("seed004-pinochle=4", "QS JD", H, PLAYINGCARDS, 4),
    ("seed004-2x-run=150", DOUBLE_RUN, S, PLAYINGCARDS, 150),
    ("seed004-8-aces=100", "AS AS AH AH AD AD AC AC", S, PLAYINGCARDS, 100),
    ("seed004-8-kings=80", "KS KS KH KH KD KD KC KC", None, PLAYINGCARDS, 80),
    ("seed004-8-queens=60", "QS QS QH QH QD QD QC QC", None, PLAYINGCARDS, 60),
    ("seed004-8-jacks=40", "JS JS JH JH JD JD JC JC", C, PLAYINGCARDS, 40),
    ("seed004-2x-pinochle=30", "QS QS JD JD", H, PLAYINGCARDS, 30),
    ("seed004-run+extraKQ=23", "AS TS KS KS QS QS JS", S, PLAYINGCARDS, 23),
    ("seed000-divide-by-ten-pinochle=4", "QS JD", S, Rules(divide_by_ten=True), 4),
    ("seed000-divide-by-ten-run=15", TRUMP_RUN, S, Rules(divide_by_ten=True), 15),
]


@pytest.mark.parametrize(("text", "trump", "rules", "points"),
                         [row[1:] for row in RULE_TABLE], ids=[row[0] for row in RULE_TABLE])
def test_rule_table(text: str, trump: int | None, rules: Rules, points: int) -> None:
    hand = Hand.parse(text)
    result = meld(hand, trump, rules)
    assert result.points == points, str(result)
    assert problems(result, hand, trump, rules) == []
    counts = [hand.count(k) for k in range(24)]
    assert reference_meld(counts, trump, rules)[0] == points  # the reference agrees too


ITEM_TABLE: list[tuple[str, str, int | None, Rules, list[tuple[str, int]]]] = [
    ("RULES-1-double-run-one-item", DOUBLE_RUN, S, PAGAT, [("double run", 1500)]),
    ("RULES-2-plain-double-run-two-runs", DOUBLE_RUN, S, PLAIN, [("run", 150), ("run", 150)]),
    ("RULES-1-run+extraKQ-items", "AS TS KS KS QS QS JS", S, PAGAT,
     [("run", 150), ("royal marriage", 40), ("royal marriage", 40)]),
    ("RULES-2-nothing-run+extraKQ-items", "AS TS KS KS QS QS JS", S, NOTHING,
     [("run", 150), ("royal marriage", 40)]),
    ("RULES-1-double-pinochle-one-item", "QS QS JD JD", H, PAGAT, [("double pinochle", 300)]),
    ("RULES-2-plain-double-pinochle", "QS QS JD JD", H, PLAIN, [("pinochle", 40)] * 2),
    ("RULES-2-plain-double-aces", "AS AS AH AH AD AD AC AC", H, PLAIN,
     [("aces around", 100)] * 2),
    ("seed004-divided-items", "KS QS KH QH 9S", S, PLAYINGCARDS,
     [("royal marriage", 4), ("common marriage", 2), ("dix", 1)]),
]


@pytest.mark.parametrize(("text", "trump", "rules", "items"),
                         [row[1:] for row in ITEM_TABLE], ids=[row[0] for row in ITEM_TABLE])
def test_item_table(text: str, trump: int | None, rules: Rules,
                    items: list[tuple[str, int]]) -> None:
    result = meld(Hand.parse(text), trump, rules)
    assert sorted((i.name, i.points) for i in result.items) == sorted(items), str(result)


SHOWN_TABLE: list[tuple[str, str, int | None, Rules, str]] = [
    ("seed003-show-only-needed-cards", "AS TS KS QS JS 9S 9H AH", S, PAGAT, "AS TS KS QS JS 9S"),
    ("RULES-1-one-card-two-classes", "KS QS QH QD QC JD", S, PAGAT, "KS QS QH QD QC JD"),
    ("RULES-1-run+extraK-shows-both-kings", "AS TS KS KS QS JS", S, PAGAT, "AS TS KS KS QS JS"),
    ("RULES-2-nothing-extraK-stays-hidden", "AS TS KS KS QS JS", S, NOTHING, "AS TS KS QS JS"),
    ("RULES-1-two-kings-one-queen-shows-one-king", "KH KH QH", S, PAGAT, "KH QH"),
    ("seed002-once-round-house-shows-all", ROUND_HOUSE, H, ONCE, ROUND_HOUSE),
    ("RULES-1-no-meld-shows-nothing", "TS TH TD TC 9H", S, PAGAT, ""),
]


@pytest.mark.parametrize(("text", "trump", "rules", "shown"),
                         [row[1:] for row in SHOWN_TABLE], ids=[row[0] for row in SHOWN_TABLE])
def test_shown_table(text: str, trump: int | None, rules: Rules, shown: str) -> None:
    assert meld(Hand.parse(text), trump, rules).shown == Hand.parse(shown)


DIX_ONLY_TABLE: list[tuple[str, str, int | None, bool]] = [
    ("RULES-1-scoring-one-dix", "9S AH", S, True),
    ("RULES-1-scoring-two-dix", "9S 9S", S, True),
    ("RULES-1-scoring-dix-and-marriage", "9S KH QH", S, False),
    ("RULES-1-scoring-no-meld", "9H AS", S, False),
    ("RULES-1-scoring-no-cards", "", S, False),
    ("RULES-2-no-trump-no-dix", "9S 9S", None, False),
]


@pytest.mark.parametrize(("text", "trump", "dix_only"),
                         [row[1:] for row in DIX_ONLY_TABLE],
                         ids=[row[0] for row in DIX_ONLY_TABLE])
def test_dix_only(text: str, trump: int | None, dix_only: bool) -> None:
    for rules in COMBOS:
        assert meld(Hand.parse(text), trump, rules).dix_only is dix_only


# ---------------------------------------------------------------------------
# The surface: values table, input forms.

@pytest.mark.parametrize("rules", COMBOS, ids=combo_id)
def test_meld_values_match_the_rules_table(rules: Rules) -> None:
    expected = {name: value(name, rules) for name in SINGLE}
    expected |= {f"double {name}": value(f"double {name}", rules) for name in SPECIAL_DOUBLE}
    assert meld_values(rules) == expected


def test_inputs_hand_list_suit_or_int_agree() -> None:
    for hand, trump in random_hands(99, 50):
        expected = meld(hand, trump, PAGAT)
        assert meld(list(hand), trump, PAGAT) == expected
        assert meld([int(card) for card in hand], trump, PAGAT) == expected
        if trump is not None:
            assert meld(hand, Suit(trump), PAGAT) == expected


def test_more_than_two_copies_is_an_error() -> None:
    with pytest.raises(ValueError, match="more than two"):
        meld([Card("AS")] * 3, S, PAGAT)
