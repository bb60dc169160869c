"""A finished hand explained in words (text/results.py), as the terminal shows it.

The lines are checked word for word on hand-made results: the contract made or set
(docs/rules.md §1.11), a meld lost or not saved and why (§1.11; the double deck's
counters, §6), and the two-handed hand without a contract (§4).
"""

from __future__ import annotations

import dataclasses

from pinochlekit.engine.cards import Card, Suit
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.two.views import TwoHandResult
from pinochlekit.engine.views import HandResult, Outcome, Trick
from pinochlekit.text.results import explain, explain_result, explain_two_result, winner_note

NAMES = ("You", "West", "North", "East")
TEAMS = ("You & North", "West & East")


def name(seat: int) -> str:
    return NAMES[seat]


def team_name(team: int) -> str:
    return TEAMS[team]


def test_a_contract_made() -> None:
    result = HandResult(2, dealer=1, outcome=Outcome.MADE, declarer=2, contract=260,
                        trump=Suit.HEARTS, meld_points=(120, 40), trick_points=(150, 100),
                        meld_saved=(True, True), scores=(270, 140), totals=(300, 90))
    assert explain_result(result, Rules(), name, team_name) == [
        "hand 2 over: North bid 260 in ♥ hearts: made",
        "  made: meld 120 + counters 150 = 270, at least 260",
        "  You & North: meld 120, counters 150, +270 → 300",
        "  West & East: meld 40, counters 100, +140 → 90",
    ]


def test_a_set_loses_the_meld_and_an_unsaved_meld_says_why() -> None:
    result = HandResult(1, dealer=0, outcome=Outcome.SET, declarer=1, contract=300,
                        trump=Suit.SPADES, meld_points=(60, 150), trick_points=(0, 130),
                        meld_saved=(False, False), scores=(0, -300), totals=(0, -300))
    lines = explain_result(result, Rules(), name, team_name)
    assert lines == [
        "hand 1 over: West bid 300 in ♠ spades: set",
        "  set: meld 150 + counters 130 = 280, short of 300",
        "  You & North: meld 60 (meld not saved: no trick points), counters 0, +0 → 0",
        "  West & East: meld 150 (meld lost: set), counters 130, -300 → -300",
    ]
    # the double deck saves a meld with counters (docs/rules.md §6): the declaring
    # side's 130 counters saved its meld, which it loses with the contract
    saved = dataclasses.replace(result, meld_saved=(False, True))
    double = explain_result(saved, Rules.preset("doubledeck"), name, team_name)
    assert double[2] == ("  You & North: meld 60 (meld not saved: too few counters), "
                         "counters 0, +0 → 0")
    assert double[:2] + double[3:] == lines[:2] + lines[3:]


def test_hands_without_play() -> None:
    passed = HandResult(4, dealer=3, outcome=Outcome.PASSED_OUT)
    assert explain_result(passed, Rules(), name, team_name) == [
        "hand 4: everyone passed; the deal passes on"]
    thrown = HandResult(5, dealer=0, outcome=Outcome.THROWN_IN, declarer=0, contract=250,
                        trump=Suit.CLUBS, meld_points=(80, 0), scores=(-250, 0),
                        totals=(-250, 0))
    assert explain_result(thrown, Rules(), name, team_name)[:2] == [
        "hand 5 over: You bid 250 in ♣ clubs: thrown in",
        "  the declarer threw in the hand after meld: set, no cards played",
    ]


def test_the_two_handed_hand() -> None:
    last = Trick(leader=1, cards=(Card("AS"), Card("9S")), seats=(1, 0), winner=1, points=10)
    result = TwoHandResult(3, dealer=0, outcome=Outcome.MADE, trump=Suit.DIAMONDS,
                           meld_points=(80, 40), trick_points=(110, 140), scores=(190, 180),
                           totals=(990, 1010), tricks=(last,), target=1000)
    lines = [
        "hand 3 over (trump ♦ diamonds): meld + tricks each",
        "  You: meld 80 + tricks 110 = +190 → 990",
        "  North: meld 40 + tricks 140 = +180 → 1010",
        "  the last trick (+10) went to North",
        "  game: 1000",
    ]
    two = ("You", "North").__getitem__
    assert explain_two_result(result, two) == lines
    assert explain(result, Rules.preset("two"), two, two) == lines


def test_a_declaring_side_that_made_its_bid_without_saving_its_meld() -> None:
    """docs/rules.md §6: in the double deck every side saves its meld with its counters,
    the declaring side too; one that made its bid on counters alone did not lose its
    meld to a set, it did not save it (as the web's summary says)."""
    rules = Rules.from_string("doubledeck(min_bid=15, meld_counters=20)")
    result = HandResult(1, dealer=3, outcome=Outcome.MADE, declarer=0, contract=15,
                        trump=Suit.SPADES, meld_points=(30, 10), trick_points=(19, 31),
                        meld_saved=(False, True), scores=(19, 41), totals=(19, 41))
    lines = explain_result(result, rules, name, team_name)
    assert lines[2] == "  You & North: meld 30 (meld not saved: too few counters), " \
                       "counters 19, +19 → 19"
    assert lines[1] == "  made: counters 19 (meld 30 not saved: too few counters), at least 15"


def test_a_declaring_side_set_for_want_of_counters_is_told_so() -> None:
    """docs/rules.md §6 (20 counters to save meld): a declaring side whose meld and
    counters pass its bid but whose counters do not save its meld is set; the set
    line counts only its counters, and its meld is 'not saved', not 'lost: set'.
    In the single deck a set declaring side's meld is lost with the contract."""
    rules = Rules.from_string("doubledeck(meld_counters=20)")
    result = HandResult(1, dealer=3, outcome=Outcome.SET, declarer=0, contract=55,
                        trump=Suit.SPADES, meld_points=(60, 20), trick_points=(15, 35),
                        meld_saved=(False, True), scores=(-55, 55), totals=(-55, 55))
    lines = explain_result(result, rules, name, team_name)
    assert lines[1] == "  set: counters 15 (meld 60 not saved: too few counters), short of 55"
    assert lines[2] == "  You & North: meld 60 (meld not saved: too few counters), " \
                       "counters 15, -55 → -55"
    single = HandResult(1, dealer=3, outcome=Outcome.SET, declarer=0, contract=300,
                        trump=Suit.SPADES, meld_points=(60, 20), trick_points=(150, 100),
                        meld_saved=(False, True), scores=(-300, 120), totals=(-300, 120))
    lines = explain_result(single, Rules(), name, team_name)
    assert lines[1] == "  set: meld 60 + counters 150 = 210, short of 300"
    assert lines[2].startswith("  You & North: meld 60 (meld lost: set), counters 150")


def test_why_a_winner_behind_won() -> None:
    """The game's winner behind another side: a moon made wins the game (docs/rules.md
    §2); otherwise both reached the target in the last hand and the declaring side
    wins (§1.12); the player ahead needs no word."""
    moon = HandResult(7, dealer=0, outcome=Outcome.MOON, declarer=1, contract=400)
    made = dataclasses.replace(moon, outcome=Outcome.MADE)
    assert winner_note([900, 850], 1, 1000, [made, moon]) == (
        "the declaring side shot the moon, which wins the game")
    assert winner_note([1010, 1005], 1, 1000, [made]) == (
        "both sides reached 1000 in the last hand: the declaring side wins")
    assert winner_note([1010, 1005, 1020], 0, 1000, [made]) == (
        "more than one player reached 1000 in the last hand: the declarer wins")
    assert winner_note([1005, 1010], 1, 1000, [moon]) == ""
