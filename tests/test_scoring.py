"""The hand-scoring functions, case by case (docs/rules.md §1 Scoring a hand, §2, §3, §6).

Each row is one hand worked out by hand from the rules: the rules (a preset or
a rules string), the declaring side, the contract, each side's meld, trick
points and "only dix" flag, whether the hand was played, the moon; then what
each side scores, whose meld counted and whether the declarer made it.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from pinochlekit import Rules
from pinochlekit.engine.scoring import HandScore, score_double_hand, score_hand


class Case(NamedTuple):
    rules: str
    declarer: int
    contract: int
    meld: tuple[int, ...]
    tricks: tuple[int, ...]
    dix_only: tuple[bool, ...]
    played: bool
    moon: bool
    took_all: bool
    scores: tuple[int, ...]
    saved: tuple[bool, ...]
    made: bool


NO_DIX = (False, False)
CASES = {
    # four-handed, docs/rules.md §1: made scores meld plus tricks, set loses the contract
    "made": Case("pagat", 0, 300, (200, 100), (140, 110), NO_DIX, True, False, False,
                 (340, 210), (True, True), True),
    "made exactly": Case("pagat", 1, 250, (100, 150), (150, 100), NO_DIX, True, False, False,
                         (250, 250), (True, True), True),
    "set": Case("pagat", 0, 350, (200, 100), (140, 110), NO_DIX, True, False, False,
                (-350, 210), (False, True), False),
    "set, meld kept": Case("pagat(set_forfeits_meld=no)", 0, 350, (200, 100), (140, 110),
                           NO_DIX, True, False, False, (-150, 210), (True, True), False),
    # a defender without a trick point loses its meld, unless it is only dix
    "defenders take nothing": Case("pagat", 0, 400, (250, 120), (250, 0), NO_DIX, True,
                                   False, False, (500, 0), (True, False), True),
    "defenders take only the last trick": Case("pagat", 0, 400, (250, 120), (240, 10),
                                               NO_DIX, True, False, False, (490, 130),
                                               (True, True), True),
    "dix exception": Case("pagat", 0, 400, (250, 20), (250, 0), (False, True), True, False,
                          False, (500, 20), (True, True), True),
    "no trick needed": Case("playingcards", 0, 30, (20, 12), (25, 0), NO_DIX, True, False,
                            False, (45, 12), (True, True), True),
    # not played (thrown in, not on the board): the defenders score their meld
    "thrown in": Case("pagat", 1, 250, (60, 100), (0, 0), NO_DIX, False, False, False,
                      (60, -250), (True, False), False),
    "thrown in, meld kept": Case("pagat(set_forfeits_meld=no)", 1, 250, (60, 100), (0, 0),
                                 NO_DIX, False, False, False, (60, -150), (True, True), False),
    # docs/rules.md §2 set penalties
    "chips set": Case("chips", 0, 350, (200, 100), (140, 110), NO_DIX, True, False, False,
                      (0, 560), (False, True), False),
    "chips thrown in": Case("chips", 0, 300, (200, 100), (0, 0), NO_DIX, False, False, False,
                            (0, 400), (False, True), False),
    "shortfall set": Case("family1000", 0, 350, (200, 100), (140, 110), NO_DIX, True, False,
                          False, (-10, 210), (False, True), False),
    "shortfall thrown in with meld enough": Case("family1000", 0, 250, (260, 100), (0, 0),
                                                 NO_DIX, False, False, False, (0, 100),
                                                 (False, True), False),
    # docs/rules.md §2 shoot the moon: 1,000 for every trick, else the whole contract lost
    "moon made": Case("family1000", 0, 300, (150, 40), (250, 0), NO_DIX, True, True, True,
                      (1000, 0), (True, False), True),
    "moon failed": Case("family1000", 0, 300, (150, 40), (240, 10), NO_DIX, True, True,
                        False, (-300, 50), (False, True), False),
    # divide by ten: the moon is 100
    "moon divided by ten": Case("playingcards(shoot_the_moon=yes)", 1, 30, (4, 15), (0, 25),
                                NO_DIX, True, True, True, (4, 100), (True, True), True),
    # docs/rules.md §3 three-handed: every player a side, the declarer any of them
    "three made": Case("three", 2, 300, (60, 40, 150), (50, 0, 200), (False,) * 3, True,
                       False, False, (110, 0, 350), (True, False, True), True),
    "three shortfall": Case("three", 1, 350, (60, 150, 40), (100, 120, 30), (False,) * 3,
                            True, False, False, (160, -80, 70), (True, False, True), False),
    "three contract set": Case("three(set_penalty=contract)", 1, 350, (60, 150, 40),
                               (100, 120, 30), (False,) * 3, True, False, False,
                               (160, -350, 70), (True, False, True), False),
    "three not on the board": Case("three", 0, 500, (100, 40, 20), (30, 0, 0), (False,) * 3,
                                   False, False, False, (-370, 40, 20), (False, True, True),
                                   False),
    "three dix": Case("three", 0, 250, (200, 20, 40), (250, 0, 0), (False, True, False), True,
                      False, False, (450, 20, 0), (True, True, False), True),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_score_hand(case: Case) -> None:
    rules = Rules.from_string(case.rules)
    result = score_hand(rules, case.declarer, case.contract, case.meld, case.tricks,
                        case.dix_only, case.played, case.moon, case.took_all)
    assert result == HandScore(case.scores, case.saved, case.made)


def test_dix_flag_is_read_only_for_a_defender_without_trick_points() -> None:
    """A "dix only" flag changes nothing for the declarer or for a defender that took
    a trick point: only the defender it could save reads it."""
    rules = Rules()
    base = score_hand(rules, 0, 300, (200, 100), (140, 110), NO_DIX, True)
    assert score_hand(rules, 0, 300, (200, 100), (140, 110), (True, True), True) == base
    lost = score_hand(rules, 0, 300, (200, 20), (250, 0), NO_DIX, True)
    kept = score_hand(rules, 0, 300, (200, 20), (250, 0), (False, True), True)
    assert (lost.scores, kept.scores) == ((450, 0), (450, 20))


class DoubleCase(NamedTuple):
    rules: str
    declarer: int
    contract: int
    meld: tuple[int, int]
    tricks: tuple[int, int]
    scores: tuple[int, int]
    saved: tuple[bool, bool]
    made: bool


DOUBLE_CASES = {
    # docs/rules.md §6 Counting and scoring: counters 1 each and the last trick 2 (50 in
    # all); a team scores its meld only with a counter taken; the declaring team that
    # reaches its bid with meld and counters scores both, else loses the bid and its meld
    "made": DoubleCase("doubledeck", 0, 60, (40, 20), (25, 25), (65, 45), (True, True), True),
    "made exactly": DoubleCase("doubledeck", 1, 70, (10, 45), (25, 25), (35, 70),
                               (True, True), True),
    "set": DoubleCase("doubledeck", 0, 60, (40, 20), (15, 35), (-60, 55), (True, True), False),
    "defenders take no counter": DoubleCase("doubledeck", 0, 60, (40, 20), (50, 0), (90, 0),
                                            (True, False), True),
    # docs/double-deck.md "Saving meld": the rule holds for the declaring team too, and
    # its unsaved meld does not count towards its bid
    "declarers take no counter": DoubleCase("doubledeck", 0, 50, (60, 20), (0, 50), (-50, 70),
                                            (False, True), False),
    "meld without a counter, option off": DoubleCase(
        "doubledeck(save_meld_needs_trick=no)", 0, 50, (60, 20), (0, 50), (60, 70),
        (True, True), True),
    # the option of at least 20 counter points
    "20 counters: 19 lose the meld": DoubleCase("doubledeck(meld_counters=20)", 0, 60, (50, 30),
                                                (31, 19), (81, 19), (True, False), True),
    "20 counters: 20 save it": DoubleCase("doubledeck(meld_counters=20)", 0, 60, (50, 30),
                                          (30, 20), (80, 50), (True, True), True),
    "20 counters: declarers short of them are set": DoubleCase(
        "doubledeck(meld_counters=20)", 1, 50, (10, 45), (35, 15), (45, -50), (True, False),
        False),
    # "progressive": the opponents score the bid instead, the set team nothing
    "progressive set": DoubleCase("doubledeck(set_penalty=chips)", 0, 60, (40, 20), (15, 35),
                                  (0, 115), (True, True), False),
    "progressive made": DoubleCase("doubledeck(set_penalty=chips)", 0, 60, (40, 20), (25, 25),
                                   (65, 45), (True, True), True),
    # docs/rules.md §2 set also forfeits meld: no, the set team keeps the meld it saved
    "set, meld kept": DoubleCase("doubledeck(set_forfeits_meld=no)", 0, 60, (40, 20), (15, 35),
                                 (-20, 55), (True, True), False),
    "set, meld kept but not saved": DoubleCase("doubledeck(set_forfeits_meld=no)", 0, 70,
                                               (60, 20), (0, 50), (-70, 70), (False, True),
                                               False),
}


@pytest.mark.parametrize("case", DOUBLE_CASES.values(), ids=DOUBLE_CASES.keys())
def test_score_double_hand(case: DoubleCase) -> None:
    """The double deck's scoring (docs/rules.md §6), each row worked out by hand."""
    rules = Rules.from_string(case.rules)
    result = score_double_hand(rules, case.declarer, case.contract, case.meld, case.tricks)
    assert result == HandScore(case.scores, case.saved, case.made)
