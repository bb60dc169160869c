"""Rule tables (STYLE.md, tests 1): every case is named after its source.

Ids start with the docs/rules.md section (``§1-...``, ``§2-...``) or the seed number
(``000`` ... ``004``) the case comes from. The tables cover the play (legal
cards under every must-beat option, trump follows trump, the first lead), who
wins a trick, the meld values the seeds quote, the rules object (presets field
by field, the text form, invalid options), the text form of actions, and the
errors an illegal action raises.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Callable
from typing import Any

import pytest

import pinochlekit
from pinochlekit import (
    Action,
    Bid,
    Card,
    Game,
    GameOverError,
    Give,
    Hand,
    IllegalActionError,
    Moon,
    NameTrump,
    NotationError,
    OutOfTurnError,
    Pass,
    PhaseError,
    PinochleError,
    Play,
    Redeal,
    Return,
    Rules,
    RulesError,
    Suit,
    ThrowIn,
    legal_plays,
    parse_action,
    parse_cards,
    trick_winner,
)
from pinochlekit.engine.meld import meld
from pinochlekit.engine.scoring import score_double_hand
from pinochlekit.engine.tricks import explain_illegal

S, H, D, C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS

OLD = Rules()  # docs/rules.md §1 Play, "old rules"
MODERN = Rules.preset("modern")
FOLLOWING = Rules(must_beat="following")
OLD_TFF = Rules(trump_follows_trump=True)
MODERN_TFF = Rules(must_beat="trump_led", trump_follows_trump=True)
FOLLOWING_TFF = Rules(must_beat="following", trump_follows_trump=True)
TRUMP_FIRST = Rules(first_lead="trump")
FAMILY = Rules.preset("family1000")


# ---------------------------------------------------------------------------
# Legal plays.

LEGAL_CASES = [
    # docs/rules.md §1 Play, old rules (seeds 000, 003 'Taking Tricks').
    pytest.param(OLD, "AH TH 9H KS", "KH", S, False, "TH AH", id="§1-rule1-follow-and-beat"),
    pytest.param(OLD, "TH KH 9H", "KH", S, False, "TH", id="§1-rule1-equal-card-does-not-beat"),
    pytest.param(OLD, "9H JH KS", "AH", S, False, "9H JH",
                 id="003-note-cannot-beat-any-card-of-suit"),
    pytest.param(OLD, "AH 9H", "AH", S, False, "9H AH", id="§1-first-of-two-identical-unbeatable"),
    pytest.param(OLD, "QH AH 9S", "9H KH", S, False, "AH",
                 id="§1-rule1-beat-the-winning-card-not-the-lead"),
    pytest.param(OLD, "KH 9H JS", "9H QH JH", S, False, "KH",
                 id="003-note-must-beat-partners-card"),
    pytest.param(OLD, "AH 9H 9S", "KH 9S", S, False, "9H AH",
                 id="003-note-trumped-lead-any-card-of-led-suit"),
    pytest.param(OLD, "9S QD KC", "AH", S, False, "9S", id="§1-rule2-void-must-trump"),
    pytest.param(OLD, "9S AS KC", "AH TS", S, False, "AS", id="§1-rule2-must-overtrump"),
    pytest.param(OLD, "9S KC", "AH AS", S, False, "9S",
                 id="003-note-must-trump-below-a-higher-trump"),
    pytest.param(OLD, "9S KS QD", "AH 9H AS", S, False, "9S KS",
                 id="003-note-trump-even-if-partner-winning"),
    pytest.param(OLD, "QD KC", "AH TS", S, False, "QD KC",
                 id="§1-rule3-slough-only-void-in-suit-and-trump"),
    pytest.param(OLD, "9S KS AH", "QS", S, False, "KS", id="§1-trump-led-follow-and-beat"),
    pytest.param(OLD, "AH KC", "QS", S, False, "AH KC", id="§1-trump-led-void-any-card"),
    pytest.param(OLD, "AH 9S KC", "", S, False, "9S AH KC", id="§1-lead-any-card"),
    pytest.param(OLD, "AH 9S KC", "", S, True, "9S AH KC", id="§1-first-lead-any-card"),
    # 'trump_led' (modern preset): the post-1945 books, seed 003 Variations.
    pytest.param(MODERN, "AH TH 9H KS", "KH", S, False, "9H TH AH",
                 id="003-post-1945-no-need-to-overtake-following"),
    pytest.param(MODERN, "9S AS KC", "AH TS", S, False, "9S AS",
                 id="003-post-1945-no-need-to-beat-highest-trump"),
    pytest.param(MODERN, "9S QD", "AH", S, False, "9S", id="003-post-1945-void-must-trump"),
    pytest.param(MODERN, "9S KS AH", "QS", S, False, "KS", id="003-post-1945-trump-led-beat"),
    pytest.param(MODERN, "9S JS", "AS", S, False, "9S JS",
                 id="003-post-1945-trump-led-cannot-beat"),
    # 'following': docs/rules.md §2 must-beat, third value (001 'One variation').
    pytest.param(FOLLOWING, "AH TH 9H KS", "KH", S, False, "TH AH",
                 id="§2-following-beat-when-following"),
    pytest.param(FOLLOWING, "9S AS KC", "AH TS", S, False, "9S AS",
                 id="001-following-no-overtrump-when-trump-not-led"),
    pytest.param(FOLLOWING, "9S KS", "QS", S, False, "KS", id="§2-following-trump-led-beat"),
    pytest.param(FOLLOWING, "AH 9H", "KH 9S", S, False, "9H AH",
                 id="§2-following-trumped-lead-any-of-suit"),
    # Trump follows trump (002): docs/rules.md §2.
    pytest.param(OLD_TFF, "AH 9H 9S KS", "KH TS", S, False, "9S KS",
                 id="002-tff-trump-even-holding-led-suit"),
    pytest.param(OLD_TFF, "9H AS 9S", "KH TS", S, False, "AS",
                 id="002-tff-overtrump-under-old-rules"),
    pytest.param(MODERN_TFF, "9H AS 9S", "KH TS", S, False, "9S AS",
                 id="002-tff-modern-no-overtrump"),
    pytest.param(FOLLOWING_TFF, "9H AS 9S", "KH TS", S, False, "9S AS",
                 id="002-tff-following-no-overtrump"),
    pytest.param(OLD_TFF, "9H AH KC", "KH TS", S, False, "9H AH",
                 id="002-tff-no-trump-held-follow-suit"),
    pytest.param(OLD_TFF, "AH 9H 9S", "KH", S, False, "AH",
                 id="002-tff-not-yet-trumped-follow-and-beat"),
    pytest.param(OLD, "AH 9H 9S KS", "KH TS", S, False, "9H AH",
                 id="§2-tff-off-follow-suit-by-default"),
    # First lead must be trump (001 'Some people play ...', 002 'must lead trump').
    pytest.param(TRUMP_FIRST, "AH 9S KC", "", S, True, "9S", id="001-002-first-lead-trump"),
    pytest.param(FAMILY, "AH TS 9S KC", "", S, True, "9S TS", id="002-family1000-lead-trump"),
    pytest.param(TRUMP_FIRST, "AH KC", "", S, True, "AH KC",
                 id="§2-first-lead-trump-if-held-else-any"),
    pytest.param(TRUMP_FIRST, "AH 9S KC", "", S, False, "9S AH KC",
                 id="§2-first-lead-rule-only-first-trick"),
    pytest.param(TRUMP_FIRST, "AH 9H 9S", "KH", S, True, "AH",
                 id="§2-first-lead-rule-not-for-followers"),
]


@pytest.mark.parametrize(("rules", "hand", "trick", "trump", "first_trick", "expected"),
                         LEGAL_CASES)
def test_legal_plays(rules: Rules, hand: str, trick: str, trump: Suit, first_trick: bool,
                     expected: str) -> None:
    plays = legal_plays(Hand.parse(hand), parse_cards(trick), trump, rules,
                        first_trick=first_trick)
    assert {str(c) for c in plays} == set(expected.split())
    assert plays == sorted(plays), "legal plays come lowest kind first"
    assert len(plays) == len(set(plays)), "legal plays are distinct kinds"


def test_004_example_trick() -> None:
    """Seed 004: 'P4 won the Auction and decided Spades was trump. P4 plays an A of
    Spades. P1 plays a 9 of Spades. P2 plays a J of Spades. P3 cannot play Spades so
    they play a 9 of Diamonds. ... P4 wins the trick'. (The seed's reason names the
    '10 of Spades'; the card played is the ace, which wins all the same.)"""
    rules = Rules.preset("playingcards")
    assert legal_plays(Hand.parse("9S KH QD"), parse_cards("AS"), S, rules) == [Card("9S")]
    assert {str(c) for c in legal_plays(Hand.parse("JS 9S AH"), parse_cards("AS 9S"), S,
                                        rules)} == {"9S", "JS"}
    assert {str(c) for c in legal_plays(Hand.parse("9D KC"), parse_cards("AS 9S JS"), S,
                                        rules)} == {"9D", "KC"}
    assert trick_winner(parse_cards("AS 9S JS 9D"), S) == 0


# ---------------------------------------------------------------------------
# Trick winner.


@pytest.mark.parametrize(("trick", "trump", "winner"), [
    pytest.param("AS 9S JS 9D", S, 0, id="004-example-ace-of-trump-led"),
    pytest.param("KH AH AH 9C", S, 1, id="§1-first-of-two-identical-wins"),
    pytest.param("TD AD 9D AD", S, 1, id="004-same-card-first-played-wins"),
    pytest.param("AH TS TS 9S", S, 1, id="§1-first-of-two-identical-trumps"),
    pytest.param("AH 9S KS TS", S, 3, id="§1-highest-trump-wins"),
    pytest.param("AH 9S TH KH", S, 1, id="004-any-trump-beats-other-suits"),
    pytest.param("9H AD AC JH", S, 3, id="§1-off-suit-never-wins"),
    pytest.param("QH 9H KH JH", S, 2, id="§1-highest-card-of-suit-led"),
    pytest.param("9S AS AH TS", S, 1, id="§1-trump-led-highest-trump"),
    pytest.param("9C AH AD AS", C, 0, id="§1-lowest-trump-led-beats-plain-aces"),
    pytest.param("TH KH", D, 0, id="§1-ten-beats-king"),
])
def test_trick_winner(trick: str, trump: Suit, winner: int) -> None:
    assert trick_winner(parse_cards(trick), trump) == winner


def test_trick_winner_of_nothing() -> None:
    with pytest.raises(ValueError):
        trick_winner([], S)


def test_rank_order() -> None:
    """docs/rules.md §1 Deck and order: A 10 K Q J 9, high to low, within each suit."""
    for suit in "SHDC":
        cards = parse_cards(" ".join(r + suit for r in "9JQKTA"))
        assert cards == sorted(cards)
        for low, high in itertools.pairwise(cards):
            assert trick_winner([low, high], S if suit != "S" else H) == 1


# ---------------------------------------------------------------------------
# Meld values the seeds quote (docs/rules.md §1 Meld; §2 options).


@pytest.mark.parametrize(("cards", "trump", "rules", "points"), [
    pytest.param("AS TS KS QS JS", S, OLD, 150, id="§1-run-150"),
    pytest.param("AS TS KS KS QS JS", S, OLD, 190, id="003-run-extra-king-190"),
    pytest.param("AS TS KS QS QS JS", S, OLD, 190, id="003-run-extra-queen-190"),
    pytest.param("AS TS KS KS QS QS JS", S, OLD, 230, id="003-run-extra-king-and-queen-230"),
    pytest.param("AS TS KS KS QS JS", S, Rules(run_extra="nothing"), 150,
                 id="003-variation-extra-king-nothing"),
    pytest.param("AS TS KS KS QS QS JS", S, Rules(run_extra="nothing"), 190,
                 id="003-variation-ATKKQQJ-190"),
    pytest.param("AS AS TS TS KS KS QS QS JS JS", S, OLD, 1500, id="§1-double-run-1500"),
    pytest.param("AS AS TS TS KS KS QS QS JS JS", S, Rules.preset("stonebridge"), 300,
                 id="003-stonebridge-double-run-two-runs"),
    pytest.param("KH QH", H, OLD, 40, id="§1-royal-marriage-40"),
    pytest.param("KH QH", S, OLD, 20, id="§1-common-marriage-20"),
    pytest.param("KH KH QH", S, OLD, 20, id="§1-two-kings-one-queen-one-marriage"),
    pytest.param("9S 9S", S, OLD, 20, id="§1-dix-each-10"),
    pytest.param("AS AH AD AC", S, OLD, 100, id="§1-aces-around-100"),
    pytest.param("AS AS AH AH AD AD AC AC", D, OLD, 1000, id="000-double-aces-1000"),
    pytest.param("KS KH KD KC", C, OLD, 80, id="§1-kings-around-80"),
    pytest.param("TS TH TD TC", S, OLD, 0, id="000-tens-around-nothing"),
    pytest.param("QS JD", H, OLD, 40, id="§1-pinochle-40"),
    pytest.param("QS QS JD JD", H, OLD, 300, id="§1-double-pinochle-300"),
    pytest.param("QS QS JD JD", H, Rules(doubles="plain"), 80, id="§2-plain-double-pinochle"),
    pytest.param("KS QS JD", S, OLD, 80, id="001-queen-in-marriage-and-pinochle"),
    pytest.param("KS QS JD", S, Rules(meld_reuse="once"), 40, id="002-each-card-melded-once"),
    pytest.param("AS TS KS QS JS", S, Rules.preset("playingcards"), 15, id="004-run-15"),
    pytest.param("QS JD", H, Rules.preset("playingcards"), 4, id="004-pinochle-4"),
    pytest.param("QS QS JD JD", H, Rules.preset("playingcards"), 30, id="004-double-pinochle-30"),
])
def test_meld_values(cards: str, trump: Suit, rules: Rules, points: int) -> None:
    assert meld(parse_cards(cards), trump, rules).points == points


# ---------------------------------------------------------------------------
# Rules presets, field by field (docs/rules.md §2).

DEFAULTS: dict[str, Any] = {
    "players": 4, "min_bid": 250, "bid_step": 10, "dealer_stuck": True,
    "first_bid_required": False, "pass_with_help": True, "cards_passed": 4,
    "trump_needs_meld": False, "run_extra": "marries", "doubles": "special",
    "meld_reuse": "per_class", "must_beat": "always", "first_lead": "any",
    "trump_follows_trump": False, "trick_points": "counters", "divide_by_ten": False,
    "save_meld_needs_trick": True, "set_penalty": "contract", "set_forfeits_meld": True,
    "nines_redeal": "off", "max_deals": 0, "shoot_the_moon": False, "widow": "out",
    "target": 1500, "deck": "single", "bid_ladder": "five_from_60", "arounds": "standard",
    "meld_counters": 1,
}

PRESET_FIELDS: dict[str, dict[str, Any]] = {
    "pagat": {},
    "modern": {"must_beat": "trump_led"},
    "stonebridge": {"min_bid": 190, "cards_passed": 0, "doubles": "plain",
                    "must_beat": "trump_led", "trick_points": "fives"},
    "playingcards": {"divide_by_ten": True, "min_bid": 200, "bid_step": 10, "cards_passed": 3,
                     "target": 1500, "nines_redeal": "five", "save_meld_needs_trick": False},
    "chips": {"set_penalty": "chips", "target": 1500},
    "cutthroat": {"cards_passed": 0},
    "family1000": {"target": 1000, "first_lead": "trump", "trump_follows_trump": True,
                   "trick_points": "classic", "meld_reuse": "once",
                   "set_penalty": "shortfall", "shoot_the_moon": True},
    "three": {"players": 3, "target": 1000, "cards_passed": 0, "pass_with_help": False,
              "set_penalty": "shortfall"},
    "doubledeck": {"deck": "double", "min_bid": 50, "bid_step": 1, "cards_passed": 0,
                   "pass_with_help": False, "target": 500},
}


def test_rules_fields_are_the_options_of_rules_md() -> None:
    assert [f.name for f in dataclasses.fields(Rules)] == list(DEFAULTS)


@pytest.mark.parametrize("name", list(PRESET_FIELDS), ids=[f"§2-preset-{n}" for n in PRESET_FIELDS])
def test_preset_every_field(name: str) -> None:
    rules = Rules.preset(name)
    expected = DEFAULTS | PRESET_FIELDS[name]
    assert {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)} == expected


def test_presets_listed_default_first() -> None:
    assert Rules.presets() == [n for n, f in PRESET_FIELDS.items()
                               if f.get("players", 4) == 4 and f.get("deck") != "double"]
    assert Rules.presets(4, "double") == ["doubledeck"]
    assert Rules.presets(3) == ["three"]
    assert Rules() == Rules.preset("pagat")



def test_the_dealer_stuck_meaning_says_what_the_engine_does() -> None:
    """The meaning ``pinochle rules`` prints for ``dealer_stuck`` (``Rules.describe``)
    agrees with the engine and docs/rules.md §2.3: without it, the dealer may still bid
    after the three others pass, and only four passes pass the hand out."""
    meaning = {row[0]: row[2] for row in Rules(dealer_stuck=False).describe()}["dealer_stuck"]
    game = Game.new(Rules(dealer_stuck=False), seed=1, dealer=0)
    for _ in range(3):
        game.apply(Pass())
    assert game.to_act == 0 and Bid(250) in game.legal_actions()
    assert "may still bid" in meaning and "every player passes" in meaning


def test_the_save_meld_meaning_says_what_the_double_deck_does() -> None:
    """The meaning printed for ``save_meld_needs_trick`` agrees with the engine in the
    double deck too (docs/rules.md §6, docs/double-deck.md "Saving meld"): there every
    team, the declaring one included, needs ``meld_counters`` counter points for its
    meld, not only the defenders."""
    meaning = {row[0]: row[2] for row in Rules.preset("doubledeck").describe()}[
        "save_meld_needs_trick"]
    declarers = score_double_hand(Rules.preset("doubledeck"), 0, 50, (60, 20), (0, 50))
    assert declarers.saved == (False, True) and not declarers.made
    assert "double deck" in meaning and "declaring" in meaning and "meld_counters" in meaning

@pytest.mark.parametrize(("name", "values"), [
    pytest.param("pagat", (250, 10, 1500, 250), id="§1-pagat-250-by-10-to-1500"),
    pytest.param("stonebridge", (190, 10, 1500, 250), id="003-stonebridge-190"),
    pytest.param("playingcards", (20, 1, 150, 25), id="004-bid-20-by-1-game-150-25-points"),
    pytest.param("family1000", (250, 10, 1000, 250), id="002-game-1000"),
    pytest.param("three", (250, 10, 1000, 250), id="002-three-handed-game-1000"),
])
def test_preset_values_in_play(name: str, values: tuple[int, int, int, int]) -> None:
    rules = Rules.preset(name)
    assert (rules.opening_bid, rules.step, rules.game_target, rules.trick_total) == values


@pytest.mark.parametrize("name", list(PRESET_FIELDS))
def test_preset_text_round_trip(name: str) -> None:
    rules = Rules.preset(name)
    assert str(rules) == name
    assert Rules.from_string(name) == rules
    assert Rules.from_string(f" {name.upper()}() ") == rules


#: Values to draw from for random field overrides (some combinations are invalid).
FIELD_VALUES: dict[str, list[Any]] = {
    "players": [4, 3], "min_bid": [100, 190, 200, 250, 300], "bid_step": [10, 20],
    "dealer_stuck": [True, False], "first_bid_required": [True, False],
    "pass_with_help": [True, False], "cards_passed": [0, 3, 4],
    "trump_needs_meld": [True, False], "run_extra": ["marries", "nothing"],
    "doubles": ["special", "plain"], "meld_reuse": ["per_class", "once"],
    "must_beat": ["always", "trump_led", "following"], "first_lead": ["any", "trump"],
    "trump_follows_trump": [True, False], "trick_points": ["counters", "fives", "classic"],
    "divide_by_ten": [True, False], "save_meld_needs_trick": [True, False],
    "set_penalty": ["contract", "chips", "shortfall"], "set_forfeits_meld": [True, False],
    "nines_redeal": ["off", "six_or_five", "five"], "max_deals": [0, 2, 3],
    "shoot_the_moon": [True, False], "widow": ["out", "take"], "target": [150, 1000, 1500],
    "deck": ["single", "double"], "bid_ladder": ["five_from_60", "by_one", "ten_from_100"],
    "arounds": ["standard", "doubling"], "meld_counters": [1, 20],
}


def test_field_values_cover_every_field() -> None:
    assert list(FIELD_VALUES) == list(DEFAULTS)


def test_random_overrides_round_trip() -> None:
    """docs/rules.md §2 'a string form shared by the command line, URLs and records':
    ``from_string(str(rules)) == rules`` for random field overrides of every preset."""
    rng = random.Random(20240601)
    valid = 0
    for _ in range(1200):  # the double deck's fields make more combinations invalid
        base = Rules.preset(rng.choice(list(PRESET_FIELDS)))
        changes = {name: rng.choice(values) for name, values in FIELD_VALUES.items()
                   if rng.random() < 0.3}
        try:
            rules = base.replace(**changes)
        except RulesError:
            continue
        valid += 1
        text = str(rules)
        assert Rules.from_string(text) == rules, text
        assert str(Rules.from_string(text)) == text
        name = text.split("(")[0]
        assert name in PRESET_FIELDS
    assert valid > 200


@pytest.mark.parametrize(("make", "field"), [
    pytest.param(lambda: Rules(cards_passed=5), "cards_passed", id="§2-cards-passed-5"),
    pytest.param(lambda: Rules(divide_by_ten=True, trick_points="classic"), "divide_by_ten",
                 id="§2-divide-by-ten-with-classic-points"),
    pytest.param(lambda: Rules(divide_by_ten=True, trick_points="fives"), "divide_by_ten",
                 id="§2-divide-by-ten-with-fives"),
    pytest.param(lambda: Rules(set_penalty="shortfall", set_forfeits_meld=False),
                 "set_forfeits_meld", id="§2-shortfall-with-meld-kept"),
    pytest.param(lambda: Rules.from_string("pagat(colour=red)"), "colour", id="unknown-field"),
    pytest.param(lambda: Rules().replace(colour="red"), "colour", id="unknown-field-replace"),
    pytest.param(lambda: Rules.from_string("pagat(dealer_stuck=maybe)"), "dealer_stuck",
                 id="bad-bool-text"),
    pytest.param(lambda: Rules(dealer_stuck=1), "dealer_stuck",  # type: ignore[arg-type]
                 id="bad-bool-value"),
    pytest.param(lambda: Rules.from_string("pagat(min_bid=lots)"), "min_bid", id="bad-int-text"),
    pytest.param(lambda: Rules(min_bid=True), "min_bid", id="bad-int-bool"),
    pytest.param(lambda: Rules(must_beat="sometimes"),  # type: ignore[arg-type]
                 "must_beat", id="§2-must-beat-unknown-word"),
    pytest.param(lambda: Rules.from_string("modern(trick_points=tens)"), "trick_points",
                 id="§2-trick-points-unknown-word"),
    pytest.param(lambda: Rules(players=3), "cards_passed", id="§3-three-handed-passes-nothing"),
    pytest.param(lambda: Rules(players=5), "players", id="§1-§3-four-or-three-players"),
    pytest.param(lambda: Rules(widow="take"), "widow", id="§3-widow-only-three-handed"),
    pytest.param(lambda: Rules.from_string("three(shoot_the_moon=yes)"), "shoot_the_moon",
                 id="§3-no-moon-without-partners"),
    pytest.param(lambda: Rules.from_string("three(set_penalty=chips)"), "set_penalty",
                 id="§3-no-chip-scoring-for-one-player"),
    pytest.param(lambda: Rules(min_bid=0), "min_bid", id="min-bid-positive"),
    pytest.param(lambda: Rules(bid_step=0), "bid_step", id="bid-step-positive"),
    pytest.param(lambda: Rules(target=-150), "target", id="target-positive"),
    pytest.param(lambda: Rules(divide_by_ten=True, min_bid=255), "min_bid",
                 id="§2-divide-by-ten-needs-whole-tens"),
    pytest.param(lambda: Rules(min_bid=255), "min_bid", id="§1-every-bid-a-multiple-of-10"),
    pytest.param(lambda: Rules(max_deals=3), "max_deals", id="001-max-deals-needs-nines-redeal"),
    pytest.param(lambda: Rules(nines_redeal="five", max_deals=1), "max_deals",
                 id="001-max-deals-at-least-2"),
    pytest.param(lambda: Rules.preset("euchre"), "preset", id="unknown-preset"),
    pytest.param(lambda: Rules.from_string("pagat(min_bid)"), "rules", id="option-without-value"),
    pytest.param(lambda: Rules.from_string("pagat(target=1000, target=500)"), "target",
                 id="option-given-twice"),
    pytest.param(lambda: Rules.from_string("pagat(target=1_000)"), "target",
                 id="number-with-underscore"),
    pytest.param(lambda: Rules.from_string("pagat(target=\u0661\u0660\u0660\u0660)"), "target",
                 id="number-in-other-digits"),
    pytest.param(lambda: Rules.from_string(f"pagat(target={'9' * 5000})"), "target",
                 id="number-longer-than-python-reads"),
])
def test_invalid_rules(make: Callable[[], object], field: str) -> None:
    """docs/rules.md §2: 'an invalid combination is a clear error naming the field'."""
    with pytest.raises(RulesError) as info:
        make()
    assert info.value.field == field
    assert str(info.value).startswith(f"{field}: ")
    assert isinstance(info.value, ValueError) and isinstance(info.value, PinochleError)
    assert len(str(info.value)) < 500  # a long value is quoted cut short


# ---------------------------------------------------------------------------
# Action text.


@pytest.mark.parametrize(("text", "action", "canonical"), [
    pytest.param("bid 260", Bid(260), "bid 260", id="bid"),
    pytest.param("BID 20", Bid(20), "bid 20", id="bid-004-scale"),
    pytest.param("pass", Pass(), "pass", id="pass"),
    pytest.param("pass help", Pass(help=True), "pass help", id="§1-pass-with-help"),
    pytest.param("pass with help", Pass(help=True), "pass help", id="003-pass-with-help-words"),
    pytest.param("trump S", NameTrump(S), "trump S", id="trump"),
    pytest.param("trump ♥", NameTrump(H), "trump H", id="§1-notation-suit-symbol"),
    pytest.param("trump d", NameTrump(D), "trump D", id="trump-lower-case"),
    pytest.param("give AS TS KS QS", Give(tuple(parse_cards("AS TS KS QS"))),
                 "give AS TS KS QS", id="give"),
    pytest.param("give 10S QS AS KS", Give(tuple(parse_cards("AS TS KS QS"))),
                 "give AS TS KS QS", id="§1-notation-10-and-any-order"),
    pytest.param("return 9D JD QS QS", Return(tuple(parse_cards("QS QS JD 9D"))),
                 "return QS QS JD 9D", id="return-with-duplicate"),
    pytest.param("play TS", Play(Card("TS")), "play TS", id="play"),
    pytest.param("play 10s", Play(Card("TS")), "play TS", id="§1-notation-10S"),
    pytest.param("play ♠Q", Play(Card("QS")), "play QS", id="§1-notation-symbol"),
    pytest.param("throw in", ThrowIn(), "throw in", id="§1-throw-in"),
    pytest.param("moon", Moon(), "moon", id="002-moon"),
    pytest.param("redeal", Redeal(), "redeal", id="001-redeal"),
])
def test_action_text_round_trip(text: str, action: Action, canonical: str) -> None:
    parsed = parse_action(text)
    assert parsed == action
    assert str(parsed) == canonical
    assert parse_action(canonical) == action
    assert Action.parse(canonical) == action
    namespace = {name: getattr(pinochlekit, name) for name in pinochlekit.__all__}
    assert eval(repr(parsed), namespace) == action


@pytest.mark.parametrize(("text", "quoted"), [
    pytest.param("play XX", "'XX'", id="bad-card"),
    pytest.param("play 1S", "'1S'", id="bad-rank"),
    pytest.param("play AX", "'AX'", id="bad-suit-in-card"),
    pytest.param("give AS ZZ TS KS", "'ZZ'", id="bad-card-in-give"),
    pytest.param("return 9D 9Q", "'9Q'", id="bad-card-in-return"),
    pytest.param("trump X", "'X'", id="bad-suit"),
    pytest.param("bid abc", "'bid abc'", id="bad-bid"),
    pytest.param("bid 1_000", "'bid 1_000'", id="bid-with-underscore"),
    pytest.param("bid \u0662\u0665\u0660", "a bid is a whole number", id="bid-in-other-digits"),
    pytest.param("bid -250", "'bid -250'", id="negative-bid"),
    pytest.param("bid " + "9" * 5000, "a bid of 5000 digits", id="bid-too-long-to-be-one"),
    pytest.param("play " + "X" * 5000, "'XXXXXXXX", id="a-long-text-is-quoted-cut"),
    pytest.param("jump 300", "'jump 300'", id="unknown-verb"),
    pytest.param("pass maybe", "'pass maybe'", id="bad-pass"),
    pytest.param("play AS KS", "'play AS KS'", id="two-cards-to-play"),
    pytest.param("throw", "'throw'", id="throw-without-in"),
    pytest.param("   ", "empty action", id="empty"),
])
def test_bad_action_text(text: str, quoted: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_action(text)
    assert quoted in str(info.value)
    assert isinstance(info.value, ValueError)
    assert len(str(info.value)) < 300  # a long text does not come back whole


@pytest.mark.parametrize(("text", "quoted"), [
    pytest.param("XX", "'XX'", id="card"),
    pytest.param("11S", "'11S'", id="rank-11"),
    pytest.param("A", "'A'", id="no-suit"),
])
def test_bad_card_text(text: str, quoted: str) -> None:
    with pytest.raises(NotationError, match=quoted):
        Card(text)
    with pytest.raises(NotationError, match=quoted):
        parse_cards(f"AS {text}")


# ---------------------------------------------------------------------------
# Why a play is illegal (docs/rules.md §1 Play; STYLE.md "Errors say what rule was broken").


@pytest.mark.parametrize(("rules", "hand", "trick", "first_trick", "card", "message"), [
    pytest.param(OLD, "AH TH 9H KS", "KH", False, "9H", "must beat KH with AH or TH",
                 id="§1-rule1-must-beat"),
    pytest.param(OLD, "AH TH 9H KS", "KH", False, "KS", "must beat KH with AH or TH",
                 id="§1-rule1-must-follow-and-beat"),
    pytest.param(MODERN, "AH 9H KS", "KH", False, "KS", "must follow hearts with AH or 9H",
                 id="§1-rule1-must-follow"),
    pytest.param(OLD, "9S AS KC", "AH TS", False, "9S", "void in hearts, must beat TS with AS",
                 id="§1-rule2-must-overtrump"),
    pytest.param(OLD, "9S KS KC", "AH", False, "KC", "void in hearts, must play a trump: KS or 9S",
                 id="§1-rule2-must-trump"),
    pytest.param(OLD_TFF, "AH 9S KS", "KH TS", False, "AH",
                 "trump follows trump: once the trick is trumped, play a trump (KS or 9S)",
                 id="002-trump-follows-trump"),
    pytest.param(TRUMP_FIRST, "AH 9S KC", "", True, "AH", "the first lead must be a trump: 9S",
                 id="002-first-lead-trump"),
    pytest.param(OLD, "AH 9S KC", "", False, "AS", "AS is not in the hand", id="not-held"),
])
def test_explain_illegal(rules: Rules, hand: str, trick: str, first_trick: bool, card: str,
                         message: str) -> None:
    kinds = Hand.parse(hand).once
    assert explain_illegal(kinds, parse_cards(trick), S, rules, first_trick, Card(card)) == message


# ---------------------------------------------------------------------------
# Illegal actions in a game: the specific error, the rule named, nothing changed.

#: Cutthroat, trump spades, seat 0 declares 250 and leads KH; seat 1 can only play
#: a lower heart, so seat 2 (AH TH 9H) must beat KH with AH or TH.
DEAL_E = (
    "KH KH JH JH AS AS TS TS KS KS QS QS",
    "QH QH 9H AD AD TD TD KD KD QD QD JD",
    "AH TH 9H AC AC TC TC KC KC QC QC JC",
    "AH TH JS JS 9S 9S JD 9D 9D JC 9C 9C",
)


def game_e(rules: Rules | str = "cutthroat") -> Game:
    return Game.new(rules, seed="tables", dealer=3, deals=[[Hand.parse(h) for h in DEAL_E]])


def snapshot(game: Game) -> tuple[object, ...]:
    return (game.record, [game.view(s) for s in range(4)], game.public_view(),
            list(game.scores), game.phase, game.to_act, [game.hand(s) for s in range(4)])


def check_rejected(game: Game, action: Action, error: type[IllegalActionError], message: str,
                   seat: int | None = None) -> None:
    """The exact error class, a message naming the rule, and no change to the game."""
    before = snapshot(game)
    assert not game.is_legal(action, seat)
    with pytest.raises(IllegalActionError) as info:
        game.apply(action, seat)
    assert type(info.value) is error
    assert message in str(info.value)
    assert snapshot(game) == before


def to_first_trick(game: Game) -> None:
    for text in ("bid 250", "pass", "pass", "pass", "trump S"):
        game.apply(parse_action(text))


def test_brief_example_message() -> None:
    """STYLE.md: 'illegal play 9H by seat 2: must beat KH with AH or TH'."""
    game = game_e()
    to_first_trick(game)
    game.apply(parse_action("play KH"))
    game.apply(parse_action("play QH"))
    check_rejected(game, parse_action("play 9H"), IllegalActionError,
                   "illegal play 9H by seat 2: must beat KH with AH or TH")
    check_rejected(game, parse_action("play KC"), IllegalActionError,
                   "illegal play KC by seat 2: must beat KH with AH or TH")
    check_rejected(game, parse_action("play AS"), IllegalActionError,
                   "illegal play AS by seat 2: AS is not in the hand")
    check_rejected(game, parse_action("play TH"), OutOfTurnError,
                   "play TH by seat 3: it is seat 2's turn", seat=3)
    game.apply(parse_action("play TH"))
    check_rejected(game, parse_action("play TH"), IllegalActionError,
                   "illegal play TH by seat 3: must beat TH with AH")
    game.apply(parse_action("play AH"))
    assert game.tricks[-1].winner == 3
    # Seat 3 leads a diamond; seat 0, void, must trump.
    game.apply(parse_action("play JD"))
    check_rejected(game, parse_action("play KH"), IllegalActionError,
                   "illegal play KH by seat 0: void in diamonds, must play a trump: "
                   "AS, TS, KS or QS")
    check_rejected(game, parse_action("throw in"), PhaseError, "cannot throw in by seat 0 now")


def test_auction_errors() -> None:
    game = game_e()
    check_rejected(game, Bid(250), OutOfTurnError, "bid 250 by seat 1: it is seat 0's turn",
                   seat=1)
    check_rejected(game, Bid(240), IllegalActionError,
                   "illegal bid 240 by seat 0: the bid must be at least 250")
    check_rejected(game, Bid(255), IllegalActionError, "bids go in steps of 10")
    check_rejected(game, Bid(100_000), IllegalActionError, "no team can score more than")
    check_rejected(game, Redeal(), IllegalActionError, "these rules have no nines redeal")
    check_rejected(game, Play(Card("KH")), PhaseError,
                   "cannot play KH by seat 0 during the auction: seat 0 must bid or pass")
    check_rejected(game, NameTrump(S), PhaseError, "during the auction")
    check_rejected(game, Give(tuple(parse_cards("KH KH JH JH"))), PhaseError, "during the auction")
    check_rejected(game, Return(tuple(parse_cards("KH KH JH JH"))), PhaseError,
                   "during the auction")
    check_rejected(game, ThrowIn(), PhaseError, "only the declarer, after meld")
    check_rejected(game, Moon(), PhaseError, "only the declarer, after meld")
    game.apply(Bid(250))
    check_rejected(game, Bid(250), IllegalActionError,
                   "illegal bid 250 by seat 1: the bid must be at least 260")
    rules_game = game_e(Rules(pass_with_help=False, first_bid_required=True))
    check_rejected(rules_game, Pass(), IllegalActionError,
                   "illegal pass by seat 0: the first bidder must open with at least 250")
    rules_game.apply(Bid(250))
    check_rejected(rules_game, Pass(help=True), IllegalActionError,
                   "illegal pass help by seat 1: these rules do not allow pass with help")


def test_trump_and_passing_errors() -> None:
    game = game_e("pagat")
    for text in ("bid 250", "pass", "pass", "pass"):
        game.apply(parse_action(text))
    check_rejected(game, Bid(260), PhaseError, "cannot bid 260 by seat 0 while trump is named")
    check_rejected(game, Play(Card("KH")), PhaseError, "seat 0 must name trump")
    check_rejected(game, NameTrump(S), OutOfTurnError, "it is seat 0's turn", seat=2)
    game.apply(NameTrump(S))
    check_rejected(game, Give(tuple(parse_cards("AH TH 9H"))), IllegalActionError,
                   "pass exactly 4 cards, not 3")
    check_rejected(game, Give(tuple(parse_cards("AH TH 9H 9S"))), IllegalActionError,
                   "seat 2 does not hold all of 9S AH TH 9H")
    check_rejected(game, Give(tuple(parse_cards("AC AC AC TC"))), IllegalActionError,
                   "does not hold all of")
    check_rejected(game, Return(tuple(parse_cards("AH TH 9H AC"))), PhaseError,
                   "seat 2 must give 4 cards to the declarer")
    check_rejected(game, Give(tuple(parse_cards("AH TH 9H AC"))), OutOfTurnError,
                   "it is seat 2's turn", seat=0)
    game.apply(Give(tuple(parse_cards("AH TH 9H AC"))))
    check_rejected(game, Give(tuple(parse_cards("AH TH 9H AC"))), PhaseError,
                   "while cards are passed back")
    check_rejected(game, Return(tuple(parse_cards("AH TH 9H AC 9S"))), IllegalActionError,
                   "pass exactly 4 cards, not 5")
    game.apply(Return(tuple(parse_cards("AH TH 9H AC"))))
    assert game.hand(2) == Hand.parse(DEAL_E[2])


def test_trump_needs_meld_error() -> None:
    game = game_e(Rules(trump_needs_meld=True, cards_passed=0))
    for text in ("bid 250", "pass", "pass", "pass"):
        game.apply(parse_action(text))
    # Seat 0 holds marriages in spades only (KS QS); no nine.
    check_rejected(game, NameTrump(H), IllegalActionError,
                   "illegal trump H by seat 0: trump must be a suit where the declarer holds "
                   "a run, marriage or dix (S)")


def test_play_phase_errors() -> None:
    game = game_e()
    to_first_trick(game)
    check_rejected(game, Bid(300), PhaseError, "cannot bid 300 by seat 0 during the play")
    check_rejected(game, Moon(), IllegalActionError,
                   "illegal moon by seat 0: these rules do not allow shooting the moon")
    check_rejected(game, Play(Card("KH")), OutOfTurnError, "it is seat 0's turn", seat=1)
    family = game_e(FAMILY)
    for text in ("bid 250", "pass", "pass", "pass", "trump S"):
        family.apply(parse_action(text))
    cards = tuple(family.hand(2).cards()[:4])
    family.apply(Give(cards))
    family.apply(Return(cards))
    check_rejected(family, Play(Card("KH")), IllegalActionError,
                   "illegal play KH by seat 0: the first lead must be a trump: AS, TS, KS or QS")


def test_game_over_error() -> None:
    """docs/rules.md §1 Game: no action after the game is won (target 50: the declarers are
    not on the board with 600 and the defenders' 60 meld wins)."""
    game = game_e("cutthroat(target=50)")
    for text in ("bid 600", "pass", "pass", "pass", "trump S"):
        game.apply(parse_action(text))
    assert game.winner == 1 and game.scores == [-600, 60]
    before = snapshot(game)
    for action in (Bid(250), Pass(), Play(Card("KH")), Redeal()):
        assert not game.is_legal(action)
        with pytest.raises(GameOverError, match="the game is over: team 1 won"):
            game.apply(action)
        assert snapshot(game) == before
    assert issubclass(GameOverError, PhaseError)


def test_error_hierarchy() -> None:
    """STYLE.md Errors: PinochleError at the root; NotationError and RulesError also
    ValueError; IllegalActionError with OutOfTurnError and PhaseError."""
    assert issubclass(NotationError, ValueError) and issubclass(NotationError, PinochleError)
    assert issubclass(RulesError, ValueError) and issubclass(RulesError, PinochleError)
    assert issubclass(OutOfTurnError, IllegalActionError)
    assert issubclass(PhaseError, IllegalActionError)
    assert issubclass(IllegalActionError, PinochleError)
