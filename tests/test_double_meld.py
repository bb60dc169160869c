"""Double-deck meld (docs/rules.md §6) against a slow reference written differently.

The engine takes the minimum count of each meld's cards. The reference instead
tries every vector of meld multiplicities in each class (how many runs and royal
marriages together, how many marriages of each other suit, how many of each
around, how many pinochles), keeps those whose cards the hand can supply with
each card serving once per class (docs/rules.md §1.7), values each from the
table of §6 as written below, and takes the best. Every holding of each family of
meld cards (the run's five cards, each around's four, the pinochle's two, 0 to 4
copies of each) is compared exhaustively, and hundreds of seeded random 20-card
hands under every trump and both ``arounds`` options, half of them drawn from a
few kinds so that triple and quadruple melds occur together.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from pinochlekit import Rules
from pinochlekit.engine.deals import shuffled_deck
from pinochlekit.engine.double.cards import DOUBLE_DECK, DOUBLE_KINDS, DoubleHand
from pinochlekit.engine.double.meld import double_meld, meld_counts

SUITS, RANKS = "SHDC", "JQKTA"
# docs/rules.md §6, copied from its text: value of 1, 2, 3, 4 copies
RUN = {1: 15, 2: 150, 3: 225, 4: 300}
AROUND = {"standard": {"A": [10, 100, 150, 200], "K": [8, 80, 120, 160],
                       "Q": [6, 60, 90, 120], "J": [4, 40, 60, 80]},
          "doubling": {"A": [10, 100, 200, 400], "K": [8, 80, 160, 320],
                       "Q": [6, 60, 120, 240], "J": [4, 40, 80, 160]}}
PINOCHLE = {"standard": [4, 30, 60, 90], "doubling": [4, 30, 60, 120]}


def fits(need: Counter[str], hand: Counter[str]) -> bool:
    return all(hand[card] >= n for card, n in need.items())


def ref_class_one(hand: Counter[str], trump: str) -> int:
    best_trump = 0
    # in trump: every number of runs 0..4 with every number of marriages 0..4
    for runs, pairs in itertools.product(range(5), repeat=2):
        need = Counter({rank + trump: runs for rank in "ATJ"})
        need["K" + trump] = need["Q" + trump] = runs + pairs
        if fits(need, hand):
            best_trump = max(best_trump, RUN.get(runs, 0) + 4 * pairs)
    # each other suit's marriages use only that suit's cards: tried on their own
    other = 0
    for suit in SUITS.replace(trump, ""):
        other += max(2 * n for n in range(5) if fits(Counter({"K" + suit: n, "Q" + suit: n}),
                                                     hand))
    return best_trump + other


def ref_class_two(hand: Counter[str], arounds: str) -> int:
    total = 0
    for rank in "AKQJ":  # each around kind uses its own cards: the classes' best is a sum
        best = 0
        for n in range(1, 5):
            if fits(Counter({rank + s: n for s in SUITS}), hand):
                best = AROUND[arounds][rank][n - 1]
        total += best
    return total


def ref_class_three(hand: Counter[str], arounds: str) -> int:
    best = 0
    for n in range(1, 5):
        if fits(Counter({"QS": n, "JD": n}), hand):
            best = PINOCHLE[arounds][n - 1]
    return best


def ref_meld(cards: list[str], trump: str, arounds: str) -> int:
    hand = Counter(cards)
    return (ref_class_one(hand, trump) + ref_class_two(hand, arounds)
            + ref_class_three(hand, arounds))


def random_hands(count: int, seed: int) -> list[DoubleHand]:
    rng = random.Random(seed)
    hands = []
    for i in range(count):
        deck = shuffled_deck(f"meld-test/{seed}/{i}", DOUBLE_DECK)
        # half the hands are a plain deal; the others favour a few kinds, for the
        # triple and quadruple melds a deal rarely gives
        if i % 2:
            hands.append(DoubleHand.from_cards(deck[:20]))
        else:
            kinds = rng.sample(DOUBLE_KINDS, rng.randint(5, 9))
            pool = [k for k in kinds for _ in range(4)]
            rng.shuffle(pool)
            hands.append(DoubleHand.from_cards(pool[:20]))
    return hands


@pytest.mark.parametrize("arounds", ["standard", "doubling"])
def test_meld_matches_the_reference(arounds: str) -> None:
    rules = Rules.from_string(f"doubledeck(arounds={arounds})")
    multiples = Counter[str]()
    for hand in random_hands(300, 17):
        cards = [str(c) for c in hand]
        for trump in range(4):
            result = double_meld(hand, trump, rules)
            assert result.points == ref_meld(cards, SUITS[trump], arounds), (cards, trump)
            assert meld_counts(hand.counts, trump, rules) == result.points
            assert sum(i.points for i in result.items) == result.points
            assert hand.issuperset(result.shown)  # only cards the hand holds are shown
            for item in result.items:
                multiples[item.name.split()[0]] += 1
    # the sample reaches the rare melds the test is about
    assert multiples["triple"] and multiples["quadruple"] and multiples["double"]


def _families() -> list[tuple[str, list[str]]]:
    """Every holding of one family of meld cards, 0 to 4 copies of each card: the five
    cards of a suit's run (spades), one rank in the four suits (each of A K Q J), and
    the pinochle's queen of spades and jack of diamonds."""
    out: list[tuple[str, list[str]]] = []
    for counts in itertools.product(range(5), repeat=5):
        out.append(("run", [r + "S" for r, n in zip(RANKS, counts, strict=True)
                            for _ in range(n)]))
    for rank in "AKQJ":
        for counts in itertools.product(range(5), repeat=4):
            out.append((rank, [rank + s for s, n in zip(SUITS, counts, strict=True)
                               for _ in range(n)]))
    for qs, jd in itertools.product(range(5), repeat=2):
        out.append(("pinochle", ["QS"] * qs + ["JD"] * jd))
    return out


@pytest.mark.parametrize("arounds", ["standard", "doubling"])
def test_every_holding_of_each_meld_family(arounds: str) -> None:
    """Exhaustively, as the single deck's every-holding test: each of the 5^5 holdings
    of the run's cards in trump and out of it, the 5^4 holdings of each around's
    rank, and the 25 of the pinochle, against the reference."""
    rules = Rules.from_string(f"doubledeck(arounds={arounds})")
    checked = 0
    for family, cards in _families():
        if not cards:
            continue
        hand = DoubleHand.parse(" ".join(cards))
        for trump in ((0, 1) if family == "run" else (0,)):
            points = double_meld(hand, trump, rules).points
            assert points == ref_meld(cards, SUITS[trump], arounds), (family, cards, trump)
            assert meld_counts(hand.counts, trump, rules) == points
            checked += 1
    assert checked == 2 * (5**5 - 1) + 4 * (5**4 - 1) + (5**2 - 1)


def test_hand_computed_examples() -> None:
    """docs/rules.md §6 values:
    - AS TS KS QS JS ×2 with trump spades: double run 150; a third KS and QS: one
      royal marriage 4 (the run's K Q do not marry again) → 154;
    - four aces of every suit (16 cards): quadruple aces 200 (doubling: 400);
    - QS QS QS JD JD JD: triple pinochle 60; with aces and kings around once each
      besides (A and K of every suit) 60 + 10 + 8 = 78.
    """
    rules = Rules.preset("doubledeck")
    hand = DoubleHand.parse("AS AS TS TS KS KS KS QS QS QS JS JS")
    assert double_meld(hand, 0, rules).points == 154
    assert double_meld(hand, 1, rules).points == 3 * 2  # no run off trump: 3 marriages
    aces = DoubleHand.parse(" ".join(f"A{s}" for s in SUITS for _ in range(4)))
    assert double_meld(aces, 0, rules).points == 200
    assert double_meld(aces, 0, rules.replace(arounds="doubling")).points == 400
    assert [i.name for i in double_meld(aces, 0, rules).items] == ["quadruple aces around"]
    pins = DoubleHand.parse("QS QS QS JD JD JD AS AH AD AC KS KH KD KC")
    result = double_meld(pins, 2, rules)
    assert result.points == 60 + 10 + 8 + 2  # and KS QS is a common marriage
    assert [i.name for i in result.items] == [
        "common marriage", "aces around", "kings around", "triple pinochle"]


def test_hand_notation_limits() -> None:
    from pinochlekit import NotationError
    with pytest.raises(NotationError, match="more than four AS"):
        DoubleHand.parse("AS AS AS AS AS")
    with pytest.raises(NotationError, match="no nines"):
        DoubleHand.parse("9S")
    hand = DoubleHand.parse("AS AS AS KH")
    assert hand.count(DOUBLE_KINDS[4]) == 3 and len(hand) == 4
    assert str(hand.remove(DOUBLE_KINDS[4]).add(DOUBLE_KINDS[4])) == "AS AS AS KH"
