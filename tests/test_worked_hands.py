"""Worked hands replayed to their stated scores (STYLE.md, tests 6).

Every deal here is written out in full (four hands of twelve cards, the whole
48-card deck) and every card of the play is scripted, so each expected number
can be checked by hand from this file alone. The trick tables give, for each
trick, the cards in the order played (leader first), the seat that wins it and
its trick points in the ordinary scale (A/10/K = 10, last trick 10 more:
docs/rules.md §1 Counting, 250 in all: seed 000 "240 for the 24 counters plus 10 for
the last trick", seed 003 "This make 250 points total").

Seats 0 and 2 are team 0, seats 1 and 3 team 1 (docs/rules.md §1 Seats). Unless a
test says otherwise the dealer is seat 3, so seat 0 speaks first and, having
bid, is the declarer and leads the first trick. Where a preset passes cards,
the declarer's partner passes cards across and the declarer sends the same
cards back ("they may include cards just received": docs/rules.md §1 Passing), which
leaves the hands exactly as dealt.

The deals:

* ``DEAL_A`` (trump hearts): meld 200 against 100; the scripted play splits
  the trick points 140 / 110. Used for made, set, chips, shortfall, not on the
  board, throw in, dealer stuck and divide by ten.
* ``DEAL_B`` (trump spades): the declarer holds a run and aces around (250)
  and can take every trick; the defenders hold three marriages each (120).
  Three scripts: the declarer takes all 250 (defenders fail to save their
  meld), the defenders take only the last trick (10, no counter), the
  defenders take one trick with one counter in it (10).
* ``DEAL_C`` / ``DEAL_C1`` (trump spades): the defenders' only meld is two
  dix, or one, and they take no trick point (the dix exception).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from pinochlekit import (
    Card,
    Game,
    GameOverError,
    Give,
    Hand,
    HandResult,
    IllegalActionError,
    NameTrump,
    Outcome,
    Pass,
    Phase,
    Play,
    Redeal,
    Return,
    Rules,
    Suit,
    parse_action,
)
from pinochlekit.engine.rules import NinesRedeal

Deal = tuple[str, str, str, str]
#: One scripted trick: cards in the order played from the leader, winner, points.
Step = tuple[str, int, int]

# ---------------------------------------------------------------------------
# Deals and scripts.

DEAL_A: Deal = (
    "AH AH TH TH KH AS AD AC KS QS TC KC",  # seat 0: aces around 100, KS-QS 20 = 120
    "AS TS TS KS QS JS AD TD TD KD QD JD",  # seat 1: two marriages 40, pinochle 40 = 80
    "KH QH QH JH JH 9H 9H KD QD JD 9S 9C",  # seat 2: KH-QH 40, two dix 20, KD-QD 20 = 80
    "JS 9S 9D 9D AC TC KC QC QC JC JC 9C",  # seat 3: KC-QC 20 = 20
)

#: Trump hearts, seat 0 leads; old rules. Team 0 takes 140, team 1 takes 110.
SCRIPT_A: tuple[Step, ...] = (
    ("AH JS 9H 9S", 0, 10),
    ("AH QS 9H 9D", 0, 10),
    ("TH JD JH 9D", 0, 10),   # seat 2 cannot beat TH: any heart
    ("TH QD JH JS", 0, 10),
    ("KH KS QH 9C", 0, 20),   # seat 2's KH would not beat the KH led: any heart
    ("KC TD 9C TC", 3, 30),   # seat 3 must beat KC: TC
    ("QC TC KD KH", 2, 30),   # seat 0 must beat QC with TC; seat 2, void, must trump
    ("9S JC QS TS", 1, 10),   # seat 0 must beat 9S; seat 1 must beat QS
    ("TD JD JC AD", 0, 20),   # seat 0 must beat TD with AD
    ("AC TS QH KC", 2, 30),   # the trick is trumped: seat 3 may play any club
    ("QD QC KS AD", 1, 20),
    ("AS KD AC AS", 1, 50),   # the first of two aces wins; last trick +10
)

#: SCRIPT_A under classic trick points (A 11, 10 10, K 4, Q 3, J 2; last 10).
CLASSIC_A = (13, 14, 14, 17, 11, 24, 21, 15, 25, 28, 21, 47)

DEAL_B: Deal = (
    "AS AS TS TS KS QS JS AH AH AD AC 9C",  # run 150, aces around 100 = 250
    "KH QH KD QD KC QC JH JD JC 9H AC AD",  # three marriages = 60
    "KS QS JS 9S 9S TH TH TD TD TC TC 9D",  # KS-QS 40, two dix 20 = 60
    "KH QH KD QD KC QC JH JD JC 9H 9D 9C",  # three marriages = 60
)

#: Trump spades: the declarer takes every trick (the defenders end void in clubs,
#: so even the 9C wins the last trick).
SCRIPT_B_ALL: tuple[Step, ...] = (
    ("AS AC 9S KC", 0, 30),
    ("AS KC 9S QC", 0, 20),
    ("TS QC JS JC", 0, 10),
    ("TS JC QS 9C", 0, 10),
    ("KS JD KS KD", 0, 30),
    ("QS QD TC QD", 0, 10),
    ("JS KD TC JD", 0, 20),
    ("AH KH TH KH", 0, 40),
    ("AH QH TH QH", 0, 20),
    ("AD AD TD 9D", 0, 30),
    ("AC JH TD JH", 0, 20),
    ("9C 9H 9D 9H", 0, 10),
)

#: Trump spades: the defenders take only the last trick, which holds no counter.
SCRIPT_B_LAST: tuple[Step, ...] = (
    ("AS JH 9S JH", 0, 10),
    ("AS JD 9S JD", 0, 10),
    ("TS 9H JS 9H", 0, 10),
    ("TS KH QS 9D", 0, 20),
    ("KS QH KS 9C", 0, 20),
    ("QS KD TH KH", 0, 30),
    ("JS QD TH QH", 0, 10),
    ("AH KC TC KD", 0, 40),
    ("AH JC TC QD", 0, 20),
    ("AD AD TD KC", 0, 40),
    ("AC AC TD QC", 0, 30),
    ("9C QC 9D JC", 1, 10),
)

#: Trump spades: the defenders take one trick, the eleventh, with one counter (TD).
SCRIPT_B_COUNTER: tuple[Step, ...] = (
    ("AS AC 9S KC", 0, 30),
    ("AS KC 9S 9C", 0, 20),
    ("TS QC JS KH", 0, 20),
    ("TS JC QS QH", 0, 10),
    ("KS JD KS KD", 0, 30),
    ("QS QD TC QD", 0, 10),
    ("JS KD TC JD", 0, 20),
    ("AH KH TH JH", 0, 30),
    ("AH QH TH 9H", 0, 20),
    ("AD AD 9D 9D", 0, 20),
    ("9C JH TD QC", 3, 10),   # seat 3 must beat 9C: QC wins; seat 2 sloughs TD
    ("JC AC 9H TD", 0, 30),   # seat 3 leads; the declarer's AC beats it
)

DEAL_C: Deal = (
    "AS AS TS TS KS QS JS AH AH AD AC 9C",  # run 150, aces around 100 = 250
    "9S KH KH KD KD KC KC AD JD 9D JH 9H",  # one dix = 10
    "KS QS JS TH TH TD TD TC TC JH JD JC",  # KS-QS 40, jacks around 40, pinochle 40 = 120
    "9S QH QH QD QD QC QC AC JC 9C 9D 9H",  # one dix = 10
)

SCRIPT_C: tuple[Step, ...] = (
    ("AS 9S JS 9S", 0, 10),
    ("AS KC QS QC", 0, 20),
    ("TS KC KS QC", 0, 30),
    ("TS JD TC AC", 0, 30),
    ("KS 9D TC JC", 0, 20),
    ("QS KD JC 9C", 0, 10),
    ("JS KD JD QD", 0, 10),
    ("AH KH TH QH", 0, 30),
    ("AH KH TH QH", 0, 30),
    ("AD AD TD QD", 0, 30),
    ("AC JH TD 9D", 0, 20),
    ("9C 9H JH 9H", 0, 10),
)

DEAL_C1: Deal = (
    "AS AS TS TS KS QS JS AH AH AD AC 9C",  # 250
    "9S KH KH KD KD KC KC AD JD 9D JH 9H",  # one dix = 10
    "KS QS JS 9S TH TH TD TD TC TC JD JC",  # KS-QS 40, dix 10, pinochle 40 = 90
    "JH QH QH QD QD QC QC AC JC 9C 9D 9H",  # nothing
)

SCRIPT_C1: tuple[Step, ...] = (
    ("AS 9S 9S QC", 0, 10),
    ("AS KC JS QC", 0, 20),
    ("TS KC QS AC", 0, 30),
    ("TS JD KS JC", 0, 20),
    ("KS 9D TC 9C", 0, 20),
    ("QS KD TC QD", 0, 20),
    ("JS KD JC QD", 0, 10),
    ("AH KH TH QH", 0, 30),
    ("AH KH TH QH", 0, 30),
    ("AD AD TD 9D", 0, 30),
    ("AC JH TD JH", 0, 20),
    ("9C 9H JD 9H", 0, 10),
)


# ---------------------------------------------------------------------------
# Helpers.


def hands(deal: Deal, rotation: int = 0) -> list[Hand]:
    """The deal as hands; ``rotation`` moves every hand that many seats left."""
    return [Hand.parse(deal[(seat - rotation) % 4]) for seat in range(4)]


def new_game(rules: Rules | str, *deals: Deal, dealer: int = 3, rotation: int = 0) -> Game:
    return Game.new(rules, seed="worked", dealer=dealer,
                    deals=[hands(d, rotation) for d in deals])


def act(game: Game, *texts: str) -> None:
    for text in texts:
        game.apply(parse_action(text))


def pass_through(game: Game) -> None:
    """Partner passes its first cards to the declarer, who sends the same back."""
    declarer = game.declarer
    assert declarer is not None
    cards = tuple(game.hand(game.partner(declarer)).cards()[: game.rules.cards_passed])
    game.apply(Give(cards), seat=game.partner(declarer))
    game.apply(Return(cards), seat=declarer)


def declare(game: Game, bids: Sequence[str], trump: str) -> None:
    """Run the auction, name trump and pass cards (if the rules pass any)."""
    act(game, *bids)
    assert game.phase is Phase.TRUMP
    act(game, f"trump {trump}")
    if game.rules.cards_passed:
        pass_through(game)


def play(game: Game, script: Sequence[Step], rotation: int = 0,
         sitting_out: int | None = None) -> HandResult:
    """Play the script (each card checked against the seat that must play it) and
    check every trick's winner; return the hand's result. ``sitting_out`` (a seat of
    the unrotated script) skips that seat's card in every trick."""
    assert game.declarer is not None
    leader = game.declarer
    number = len(game.results)
    played: list[list[str]] = []
    for cards, winner, _ in script:
        seat = leader
        played.append([])
        for text in cards.split():
            if (seat - rotation) % 4 != sitting_out:  # the moon: partner's card stays
                action = Play(Card(text))
                assert game.to_act == seat, f"{text}: seat {game.to_act} is to play"
                assert game.is_legal(action, seat), f"{text} by seat {seat} is legal"
                game.apply(action)
                played[-1].append(text)
            seat = (seat + 1) % 4
        leader = (winner + rotation) % 4
    assert len(game.results) == number + 1, "the hand did not end with the script"
    result = game.results[-1]
    assert [[str(c) for c in t.cards] for t in result.tricks] == played
    assert [t.winner for t in result.tricks] == [(w + rotation) % 4 for _, w, _ in script]
    return result


def trick_points(script: Sequence[Step], unit: int = 1) -> list[int]:
    return [points // unit for _, _, points in script]


def check_script_total(script: Sequence[Step]) -> None:
    assert sum(trick_points(script)) == 250


@pytest.mark.parametrize("script", [SCRIPT_A, SCRIPT_B_ALL, SCRIPT_B_LAST, SCRIPT_B_COUNTER,
                                    SCRIPT_C, SCRIPT_C1], ids=["A", "B-all", "B-last",
                                                               "B-counter", "C", "C1"])
def test_scripts_hold_250_trick_points(script: Sequence[Step]) -> None:
    """docs/rules.md §1 Counting; seeds 000 and 003: 250 trick points in every hand."""
    check_script_total(script)


# ---------------------------------------------------------------------------
# Made, set, chips, shortfall (DEAL_A).


def test_deal_a_meld_itemized() -> None:
    """docs/rules.md §1 Meld: seat by seat, and a team's meld is the sum of its players'."""
    game = new_game("pagat", DEAL_A)
    declare(game, ["bid 250", "pass", "pass", "pass"], "H")
    assert game.melds is not None
    assert [m.points for m in game.melds] == [120, 80, 80, 20]
    assert [i.name for i in game.melds[0].items] == ["common marriage", "aces around"]
    assert [i.name for i in game.melds[1].items] == ["common marriage", "common marriage",
                                                     "pinochle"]
    assert [i.name for i in game.melds[2].items] == ["royal marriage", "common marriage",
                                                     "dix", "dix"]
    assert game.phase is Phase.PLAY and game.to_act == 0


def test_contract_made() -> None:
    """docs/rules.md §1 Scoring; seed 003 'all the earned points are added': meld 200 +
    tricks 140 = 340 >= 250, the defenders save their 100 meld with 110 in tricks."""
    game = new_game("pagat", DEAL_A)
    declare(game, ["bid 250", "pass", "pass", "pass"], "H")
    result = play(game, SCRIPT_A)
    assert [t.points for t in result.tricks] == trick_points(SCRIPT_A)
    assert result.outcome is Outcome.MADE and result.made
    assert (result.declarer, result.contract, result.trump) == (0, 250, Suit.HEARTS)
    assert result.meld_points == (200, 100)
    assert result.trick_points == (140, 110)
    assert result.meld_saved == (True, True)
    assert result.scores == (340, 210)
    assert result.totals == (340, 210)
    assert game.scores == [340, 210]
    # docs/rules.md §1 Deal: the deal passes to the left.
    assert result.dealer == 3 and game.dealer == 0 and game.phase is Phase.AUCTION


def test_contract_made_exactly() -> None:
    """docs/rules.md §1 Scoring 'meld + trick points >= contract': 340 makes 340."""
    game = new_game("pagat", DEAL_A)
    declare(game, ["bid 340", "pass", "pass", "pass"], "H")
    result = play(game, SCRIPT_A)
    assert result.outcome is Outcome.MADE
    assert result.scores == (340, 210)


def test_declarer_set_loses_contract_and_meld() -> None:
    """docs/rules.md §1 Scoring; seed 003 'they do not score any points melded, they score no
    points taken in the tricks, and their previous score is reduced by the amount bid'."""
    game = new_game("pagat", DEAL_A)
    declare(game, ["bid 350", "pass", "pass", "pass"], "H")
    result = play(game, SCRIPT_A)
    assert result.outcome is Outcome.SET and not result.made
    assert result.meld_points == (200, 100) and result.trick_points == (140, 110)
    assert result.meld_saved == (False, True)
    assert result.scores == (-350, 210)
    assert game.scores == [-350, 210]


def test_set_without_forfeiting_meld() -> None:
    """docs/rules.md §2 'set also forfeits meld: no' (001): the set team still scores its
    meld and loses the contract: 200 - 350 = -150; tricks are not scored."""
    game = new_game(Rules(set_forfeits_meld=False), DEAL_A)
    declare(game, ["bid 350", "pass", "pass", "pass"], "H")
    result = play(game, SCRIPT_A)
    assert result.outcome is Outcome.SET
    assert result.meld_saved == (True, True)
    assert result.scores == (-150, 210)


def test_chips_set_team_loses_nothing() -> None:
    """docs/rules.md §2 chips; seed 003 (Gauen): 'they do not lose points; instead, the other
    team scores the failed bid in addition to the points which they made on meld, and
    the counters they took': 100 + 110 + 350 = 560."""
    game = new_game("chips", DEAL_A)
    declare(game, ["bid 350", "pass", "pass", "pass"], "H")
    result = play(game, SCRIPT_A)
    assert result.outcome is Outcome.SET
    assert result.scores == (0, 560)
    assert game.scores == [0, 560]


def test_chips_made_scores_as_usual() -> None:
    """docs/rules.md §2 chips changes only a set."""
    game = new_game("chips", DEAL_A)
    declare(game, ["bid 250", "pass", "pass", "pass"], "H")
    assert play(game, SCRIPT_A).scores == (340, 210)


def test_shortfall_option() -> None:
    """docs/rules.md §2 going set, shortfall (002): the set team loses only 350 - 340 = 10."""
    game = new_game(Rules(set_penalty="shortfall"), DEAL_A)
    declare(game, ["bid 350", "pass", "pass", "pass"], "H")
    result = play(game, SCRIPT_A)
    assert result.outcome is Outcome.SET
    assert result.scores == (-10, 210)


@pytest.mark.parametrize(("contract", "outcome", "scores"), [
    pytest.param(340, Outcome.MADE, (343, 187), id="family1000-made-343-of-340"),
    pytest.param(350, Outcome.SET, (-7, 187), id="family1000-short-by-7"),
])
def test_family1000_classic_points_and_shortfall(contract: int, outcome: Outcome,
                                                 scores: tuple[int, int]) -> None:
    """docs/rules.md §2 family1000 (seed 002): first lead trump (AH), classic trick points
    (A 11, 10 10, K 4, Q 3, J 2, last 10: 143 / 107), each card in one meld (seat 1's
    QS serves the pinochle or the spade marriage, not both: 60, not 80), and a set
    team loses only the shortfall, contract - (meld + tricks) = 350 - 343 = 7."""
    game = new_game("family1000", DEAL_A)
    declare(game, [f"bid {contract}", "pass", "pass", "pass"], "H")
    assert game.melds is not None
    assert [m.points for m in game.melds] == [120, 60, 80, 20]
    result = play(game, SCRIPT_A)
    assert [t.points for t in result.tricks] == list(CLASSIC_A)
    assert sum(CLASSIC_A) == 250
    assert result.meld_points == (200, 80)
    assert result.trick_points == (143, 107)
    assert result.outcome is outcome
    assert result.scores == scores


# ---------------------------------------------------------------------------
# Not on the board, throwing in.


def test_not_on_the_board() -> None:
    """docs/rules.md §1 Not on the board; seed 003: 460 > 200 + 250, the hand is not
    played: the declarers lose the contract, the defenders score their meld."""
    game = new_game("pagat", DEAL_A)
    declare(game, ["bid 460", "pass", "pass", "pass"], "H")
    result = game.results[-1]
    assert result.outcome is Outcome.NOT_ON_BOARD
    assert result.tricks == () and result.trick_points == (0, 0)
    assert result.meld_points == (200, 100)
    assert result.scores == (-460, 100)
    assert game.scores == [-460, 100]
    assert game.phase is Phase.AUCTION and game.hand_number == 2


def test_on_the_board_at_exactly_250_short() -> None:
    """docs/rules.md §1 'exceeds ... by more than 250': 450 = 200 + 250 is still played."""
    game = new_game("pagat", DEAL_A)
    declare(game, ["bid 450", "pass", "pass", "pass"], "H")
    assert game.phase is Phase.PLAY and not game.results
    result = play(game, SCRIPT_A)
    assert result.outcome is Outcome.SET and result.scores == (-450, 210)


def test_voluntary_throw_in() -> None:
    """docs/rules.md §1 throwing in; seed 003: 'the cards are not played, so there is no
    score for cards won in tricks': the defenders score their meld only."""
    game = new_game("pagat", DEAL_A)
    declare(game, ["bid 300", "pass", "pass", "pass"], "H")
    assert parse_action("throw in") in game.legal_actions()
    act(game, "throw in")
    result = game.results[-1]
    assert result.outcome is Outcome.THROWN_IN
    assert result.trick_points == (0, 0) and result.tricks == ()
    assert result.scores == (-300, 100)


@pytest.mark.parametrize(("rules", "action", "scores"), [
    pytest.param(Rules.preset("chips"), "not on the board", (0, 560),
                 id="choice-chips-not-on-board-opponents-score-contract"),
    pytest.param(Rules.preset("chips"), "throw in", (0, 400),
                 id="choice-chips-throw-in-opponents-score-contract"),
    pytest.param(Rules(set_penalty="shortfall"), "not on the board", (-260, 100),
                 id="choice-shortfall-not-on-board-loses-contract-less-meld"),
    pytest.param(Rules(set_penalty="shortfall"), "throw in", (-100, 100),
                 id="choice-shortfall-throw-in-loses-contract-less-meld"),
    pytest.param(Rules(set_forfeits_meld=False), "not on the board", (-260, 100),
                 id="choice-meld-kept-not-on-board"),
    pytest.param(Rules(set_forfeits_meld=False), "throw in", (-100, 100),
                 id="choice-meld-kept-throw-in"),
])
def test_unplayed_hand_under_set_options(rules: Rules, action: str,
                                         scores: tuple[int, int]) -> None:
    """docs/rules.md is silent on how the §2 set options apply to a hand that is not
    played. The engine treats it as a set with no trick points (seed 003: 'They are
    not on the board, and they will go set'): chips give the opponents the contract
    on top of their meld, shortfall takes contract - meld, a kept meld is scored.
    Contract 460 (not on the board) or 300 (thrown in); meld 200 / 100."""
    game = new_game(rules, DEAL_A)
    contract = 460 if action == "not on the board" else 300
    declare(game, [f"bid {contract}", "pass", "pass", "pass"], "H")
    if action == "throw in":
        act(game, "throw in")
    result = game.results[-1]
    assert result.outcome is (Outcome.NOT_ON_BOARD if contract == 460 else Outcome.THROWN_IN)
    assert result.trick_points == (0, 0)
    assert result.scores == scores


def test_no_throw_in_after_the_first_card() -> None:
    """docs/rules.md §1: the declarer throws in 'at that point', after meld, before play."""
    game = new_game("pagat", DEAL_A)
    declare(game, ["bid 300", "pass", "pass", "pass"], "H")
    act(game, "play AH")
    with pytest.raises(IllegalActionError):
        game.apply(parse_action("throw in"))


# ---------------------------------------------------------------------------
# Saving the defenders' meld (DEAL_B, DEAL_C).


def test_defenders_fail_to_save_meld() -> None:
    """docs/rules.md §1 Scoring; seeds 000/003: defenders with no trick point lose their
    meld (120 here); the declarers take all 250."""
    game = new_game("pagat", DEAL_B)
    declare(game, ["bid 250", "pass", "pass", "pass"], "S")
    assert game.melds is not None and [m.points for m in game.melds] == [250, 60, 60, 60]
    result = play(game, SCRIPT_B_ALL)
    assert [t.points for t in result.tricks] == trick_points(SCRIPT_B_ALL)
    assert result.outcome is Outcome.MADE
    assert result.meld_points == (310, 120)
    assert result.trick_points == (250, 0)
    assert result.meld_saved == (True, False)
    assert result.scores == (560, 0)


def test_defenders_save_meld_with_only_the_last_trick() -> None:
    """Seed 000: 'only keeps its melds if it takes at least one counter or the last
    trick'; seed 003 'pulled no counters and failed to capture the final trick'. The
    defenders' only trick is the last, with no counter: 10 points save 120 meld."""
    game = new_game("pagat", DEAL_B)
    declare(game, ["bid 250", "pass", "pass", "pass"], "S")
    result = play(game, SCRIPT_B_LAST)
    assert [t.points for t in result.tricks] == trick_points(SCRIPT_B_LAST)
    assert all(c.rank.letter in "QJ9" for c in result.tricks[-1].cards)
    assert result.trick_points == (240, 10)
    assert result.meld_saved == (True, True)
    assert result.scores == (550, 130)


def test_defenders_save_meld_with_one_counter() -> None:
    """docs/rules.md §1 'it took at least one trick point': one trick, not the last,
    holding a single counter (TD) saves the defenders' 120."""
    game = new_game("pagat", DEAL_B)
    declare(game, ["bid 250", "pass", "pass", "pass"], "S")
    result = play(game, SCRIPT_B_COUNTER)
    assert [t.points for t in result.tricks] == trick_points(SCRIPT_B_COUNTER)
    assert result.tricks[10].winner == 3 and result.tricks[11].winner == 0
    assert result.trick_points == (240, 10)
    assert result.meld_saved == (True, True)
    assert result.scores == (550, 130)


@pytest.mark.parametrize(("deal", "script", "melds", "scores"), [
    pytest.param(DEAL_C, SCRIPT_C, (370, 20), (620, 20), id="003-two-dix-save-themselves"),
    pytest.param(DEAL_C1, SCRIPT_C1, (340, 10), (590, 10), id="003-one-dix-saves-itself"),
])
def test_dix_exception(deal: Deal, script: Sequence[Step], melds: tuple[int, int],
                       scores: tuple[int, int]) -> None:
    """docs/rules.md §1 Scoring exception; seed 003 'if their only meld was one or both
    deeces, the points are scored. Nines of trump are said to save themselves'."""
    game = new_game("pagat", deal)
    declare(game, ["bid 250", "pass", "pass", "pass"], "S")
    result = play(game, script)
    assert result.trick_points == (250, 0)
    assert result.meld_points == melds
    assert result.meld_saved == (True, True)
    assert result.scores == scores
    assert all(m.dix_only for m in result.melds[1::2] if m.items)


def test_defenders_keep_meld_without_a_trick_in_playingcards() -> None:
    """docs/rules.md §2 playingcards 'defenders keep meld without a trick' (seed 004 has no
    saving rule): DEAL_B in tenths: meld 31 / 12, tricks 25 / 0."""
    game = new_game("playingcards", DEAL_B)
    declare(game, ["bid 20", "pass", "pass", "pass"], "S")
    result = play(game, SCRIPT_B_ALL)
    assert [t.points for t in result.tricks] == trick_points(SCRIPT_B_ALL, 10)
    assert result.meld_points == (31, 12)
    assert result.trick_points == (25, 0)
    assert result.meld_saved == (True, True)
    assert result.scores == (56, 12)


def test_defenders_meld_needs_no_trick_when_the_option_is_off() -> None:
    """docs/rules.md §2 'defenders must take a trick point to save meld: no'."""
    game = new_game(Rules(save_meld_needs_trick=False), DEAL_B)
    declare(game, ["bid 250", "pass", "pass", "pass"], "S")
    assert play(game, SCRIPT_B_ALL).scores == (560, 120)


# ---------------------------------------------------------------------------
# Shoot the moon (family1000, seed 002).


def test_shoot_the_moon_made() -> None:
    """docs/rules.md §2 shoot the moon; seed 002 'win all the tricks without your partner's
    help. If you succeed, you score 1,000 points and win the game'."""
    game = new_game("family1000", DEAL_B)
    declare(game, ["bid 250", "pass", "pass", "pass"], "S")
    assert parse_action("moon") in game.legal_actions()
    act(game, "moon")
    assert game.view(1).moon and game.to_act == 0
    result = play(game, SCRIPT_B_ALL, sitting_out=2)
    assert all(len(t.cards) == 3 and 2 not in t.seats for t in result.tricks)
    assert result.outcome is Outcome.MOON and result.made
    assert result.scores == (1000, 0)
    assert game.winner == 0 and game.phase is Phase.GAME_OVER
    with pytest.raises(GameOverError):
        game.apply(parse_action("bid 250"))


def test_shoot_the_moon_failed_is_a_set() -> None:
    """docs/rules.md §2 shoot the moon 'failing is a set': the defenders take the last
    trick (QC, JC + 10 = 15 classic points), save their 120 meld, and the declarers
    lose the contract. docs/rules.md is silent on a failed moon under family1000's
    shortfall set; the engine takes the whole contract (the declarers' meld alone,
    310, exceeds the 250 contract, so a shortfall would cost nothing)."""
    game = new_game("family1000", DEAL_B)
    declare(game, ["bid 250", "pass", "pass", "pass"], "S")
    act(game, "moon")
    result = play(game, SCRIPT_B_LAST, sitting_out=2)
    assert result.outcome is Outcome.MOON_FAILED and not result.made
    assert result.tricks[-1].points == 15
    assert result.meld_points == (310, 120)
    assert result.meld_saved == (False, True)
    assert result.scores == (-250, 135)
    assert game.winner is None


def test_moon_needs_the_option() -> None:
    """docs/rules.md §2 shoot the moon is off by default."""
    game = new_game("pagat", DEAL_B)
    declare(game, ["bid 250", "pass", "pass", "pass"], "S")
    assert parse_action("moon") not in game.legal_actions()
    with pytest.raises(IllegalActionError, match="shooting the moon"):
        game.apply(parse_action("moon"))


# ---------------------------------------------------------------------------
# The end of the game.


def test_both_teams_reach_the_target_declarers_win_with_the_lower_score() -> None:
    """docs/rules.md §1 Game; seed 003 'if both teams exceed 1500 on the same round, the
    declaring team wins regardless of the actual score' (target 200 here).

    Hand 1 (DEAL_A): seat 0 bids 350 and throws in: -350 / +100.
    Hand 2 (DEAL_B, dealer 0): three passes stick the dealer (seat 0) with 250; the
    defenders take only the last trick: +550 / +130. Totals 200 / 230: both reach
    200 and team 0, declaring, wins with the lower score."""
    game = new_game(Rules(target=200), DEAL_A, DEAL_B)
    declare(game, ["bid 350", "pass", "pass", "pass"], "H")
    act(game, "throw in")
    assert game.scores == [-350, 100] and game.dealer == 0
    declare(game, ["pass", "pass", "pass"], "S")
    assert (game.declarer, game.contract) == (0, 250)
    play(game, SCRIPT_B_LAST)
    assert game.scores == [200, 230]
    assert game.winner == 0 and game.phase is Phase.GAME_OVER
    assert game.view(None).winner == 0


def test_both_teams_reach_150_playingcards() -> None:
    """Seed 004 'If both teams reach over 150 points in the same round, the winning team
    is the bidding team regardless of whether or not they scored more points' (the same
    two hands in tenths, target 20): -35 / +10, then +55 / +13: 20 / 23."""
    game = new_game("playingcards(target=200)", DEAL_A, DEAL_B)
    declare(game, ["bid 35", "pass", "pass", "pass"], "H")
    act(game, "throw in")
    assert game.scores == [-35, 10]
    declare(game, ["pass", "pass", "pass"], "S")
    assert game.contract == 20
    play(game, SCRIPT_B_LAST)
    assert game.scores == [20, 23]
    assert game.winner == 0


def test_one_team_reaches_the_target() -> None:
    """docs/rules.md §1 Game: first team to the target wins, checked after each hand."""
    game = new_game(Rules(target=300), DEAL_A)
    declare(game, ["bid 250", "pass", "pass", "pass"], "H")
    play(game, SCRIPT_A)
    assert game.scores == [340, 210] and game.winner == 0
    assert game.legal_actions() == []


# ---------------------------------------------------------------------------
# The auction.


def test_dealer_stuck() -> None:
    """docs/rules.md §1 Auction; seed 003 'the dealer is under': three passes and the
    dealer takes the bid at 250, then plays it as usual."""
    game = new_game("pagat", DEAL_A, dealer=0)
    assert game.to_act == 1
    act(game, "pass", "pass", "pass")
    assert game.phase is Phase.TRUMP
    assert (game.declarer, game.contract, game.to_act) == (0, 250, 0)
    act(game, "trump H")
    pass_through(game)
    result = play(game, SCRIPT_A)
    assert result.contract == 250 and result.scores == (340, 210)


def test_dealer_not_stuck_passed_out() -> None:
    """docs/rules.md §2 'dealer stuck: no (redeal)': four passes, nobody scores, the deal
    moves left (to the next fixed deal, DEAL_B)."""
    game = new_game(Rules(dealer_stuck=False), DEAL_A, DEAL_B)
    act(game, "pass", "pass", "pass")
    assert game.phase is Phase.AUCTION and game.to_act == 3  # the dealer may still bid
    act(game, "pass")
    result = game.results[-1]
    assert result.outcome is Outcome.PASSED_OUT and result.dealer == 3
    assert result.scores == (0, 0) and game.scores == [0, 0]
    assert game.dealer == 0 and game.hand_number == 2 and game.to_act == 1
    assert game.hand(0) == Hand.parse(DEAL_B[0])


def test_dealer_not_stuck_may_bid() -> None:
    """docs/rules.md §2 dealer stuck 'no': after three passes the dealer bids and declares."""
    game = new_game(Rules(dealer_stuck=False), DEAL_A, dealer=0)
    act(game, "pass", "pass", "pass", "bid 250")
    assert (game.phase, game.declarer, game.contract) == (Phase.TRUMP, 0, 250)


def test_auction_jump_bids_and_last_bidder_declares() -> None:
    """docs/rules.md §1 Auction: raise 10 or jump 20+; a pass is final; three passes and the
    last bidder declares."""
    game = new_game("pagat", DEAL_A)
    act(game, "bid 250", "bid 260", "bid 300", "pass")
    assert game.to_act == 0
    act(game, "bid 310", "pass", "bid 320")
    assert game.to_act == 0  # seat 3 passed: out of the auction, skipped
    with pytest.raises(IllegalActionError, match="at least 330"):
        act(game, "bid 320")
    act(game, "pass")
    assert (game.declarer, game.contract) == (2, 320)
    assert [(seat, str(a)) for seat, a in game.auction] == [
        (0, "bid 250"), (1, "bid 260"), (2, "bid 300"), (3, "pass"), (0, "bid 310"),
        (1, "pass"), (2, "bid 320"), (0, "pass")]


def test_first_bid_required() -> None:
    """docs/rules.md §2 first bidder must open (001: 'obligated to open with a first bid')."""
    game = new_game(Rules(first_bid_required=True), DEAL_A)
    assert Pass() not in game.legal_actions()
    with pytest.raises(IllegalActionError, match="first bidder must open"):
        game.apply(Pass())
    with pytest.raises(IllegalActionError):
        game.apply(Pass(help=True))
    act(game, "bid 250", "pass", "pass", "pass")
    assert game.declarer == 0


def test_first_bid_not_required_by_default() -> None:
    game = new_game("pagat", DEAL_A)
    act(game, "pass")
    assert game.to_act == 1


def test_pass_with_help_allowed() -> None:
    """docs/rules.md §1 Auction, seed 003: 'pass with help' removes you from the bidding."""
    game = new_game("pagat", DEAL_A)
    assert Pass(help=True) in game.legal_actions()
    act(game, "pass help", "bid 250", "pass with help", "pass")
    assert game.auction[0] == (0, Pass(help=True))
    assert game.auction[2] == (2, Pass(help=True))
    assert (game.declarer, game.contract) == (1, 250)


def test_pass_with_help_not_allowed() -> None:
    """docs/rules.md §2 pass with help 'not allowed'."""
    game = new_game(Rules(pass_with_help=False), DEAL_A)
    assert Pass(help=True) not in game.legal_actions()
    with pytest.raises(IllegalActionError, match="pass with help"):
        act(game, "pass help")
    act(game, "pass")


# ---------------------------------------------------------------------------
# Nines redeal (001, 004).


def deal_with(seat0: str) -> Deal:
    """Seat 0 holds ``seat0``; the rest of the deck goes to seats 1-3 in card order."""
    rest = sorted((Hand((1 << 24) - 1, (1 << 24) - 1) - Hand.parse(seat0)).cards())
    text = [" ".join(map(str, rest[12 * i:12 * i + 12])) for i in range(3)]
    return (seat0, text[0], text[1], text[2])


SIX_NINES = deal_with("9S 9S 9H 9H 9D 9D KS QS AH TD JC AC")    # six nines and a marriage
FIVE_NINES = deal_with("9S 9S 9H 9H 9D AS TS JH AD TC JC QC")   # five nines, no meld
FIVE_NINES_MELD = deal_with("9S 9S 9H 9H 9D KC QC AS TS JH AD TC")  # five nines, marriage


@pytest.mark.parametrize(("rule", "deal", "allowed"), [
    pytest.param("six_or_five", SIX_NINES, True, id="001-six-nines"),
    pytest.param("six_or_five", FIVE_NINES, True, id="001-five-nines-no-meld"),
    pytest.param("six_or_five", FIVE_NINES_MELD, False, id="001-five-nines-with-meld"),
    pytest.param("five", FIVE_NINES, True, id="004-five-nines-no-meld"),
    pytest.param("five", SIX_NINES, False, id="004-six-nines-with-meld"),
    pytest.param("five", FIVE_NINES_MELD, False, id="004-five-nines-with-meld"),
    pytest.param("off", SIX_NINES, False, id="off-by-default"),
])
def test_nines_redeal(rule: NinesRedeal, deal: Deal, allowed: bool) -> None:
    """docs/rules.md §2 nines redeal: called instead of bidding; the deal is void and the
    same dealer deals again (the next fixed deal here)."""
    game = new_game(Rules(nines_redeal=rule), deal, DEAL_A)
    assert (Redeal() in game.legal_actions()) is allowed
    if not allowed:
        with pytest.raises(IllegalActionError, match="redeal"):
            act(game, "redeal")
        return
    act(game, "redeal")
    result = game.results[-1]
    assert result.outcome is Outcome.REDEAL and result.caller == 0
    assert game.scores == [0, 0]
    assert game.dealer == 3 and game.hand_number == 2 and game.to_act == 0
    assert game.hand(0) == Hand.parse(DEAL_A[0])


def test_nines_redeal_only_instead_of_a_first_bid() -> None:
    """Seed 001: 'must declare this instead of bidding'."""
    game = new_game(Rules(nines_redeal="six_or_five"), SIX_NINES)
    act(game, "bid 250", "bid 260", "pass", "pass")
    assert game.to_act == 0 and Redeal() not in game.legal_actions()
    with pytest.raises(IllegalActionError, match="instead of a first bid"):
        act(game, "redeal")


def test_nines_redeal_three_deal_limit() -> None:
    """Seed 001 'a limit of three deals for this reason, requiring the third deal to be
    played' (max_deals=3)."""
    game = new_game(Rules(nines_redeal="six_or_five", max_deals=3),
                    SIX_NINES, SIX_NINES, SIX_NINES)
    act(game, "redeal")
    act(game, "redeal")
    assert game.hand_number == 3
    assert Redeal() not in game.legal_actions()
    with pytest.raises(IllegalActionError, match="deal 3 in a row must be played"):
        act(game, "redeal")
    act(game, "bid 250")


# ---------------------------------------------------------------------------
# Trump.


def test_trump_needs_meld() -> None:
    """docs/rules.md §2 (001): trump only in a suit holding a run, marriage or dix. Seat 0 of
    DEAL_A has a marriage only in spades."""
    game = new_game(Rules(trump_needs_meld=True), DEAL_A)
    act(game, "bid 250", "pass", "pass", "pass")
    assert game.legal_actions() == [NameTrump(Suit.SPADES)]
    with pytest.raises(IllegalActionError, match=r"run, marriage or dix \(S\)"):
        act(game, "trump H")
    act(game, "trump S")
    assert game.trump is Suit.SPADES


def test_trump_needs_meld_any_suit_when_none_qualifies() -> None:
    """docs/rules.md §2 'if no suit qualifies, any suit': no queen and no nine."""
    game = new_game(Rules(trump_needs_meld=True),
                    deal_with("AS AS TS TS KS KS AH AH TH TH KH KH"))
    act(game, "bid 250", "pass", "pass", "pass")
    assert game.legal_actions() == [NameTrump(s) for s in Suit]


def test_any_trump_by_default() -> None:
    """docs/rules.md §1 Trump: the declarer names any suit."""
    game = new_game("pagat", DEAL_A)
    act(game, "bid 250", "pass", "pass", "pass")
    assert game.legal_actions() == [NameTrump(s) for s in Suit]


# ---------------------------------------------------------------------------
# Passing cards.


def test_passing_four_cards_moves_them_and_only_partners_see_them() -> None:
    """docs/rules.md §1 Passing: partner gives exactly 4, the declarer returns 4; 'only the
    two partners see these cards'. The meld is counted after the pass."""
    game = new_game("pagat", DEAL_A)
    act(game, "bid 250", "pass", "pass", "pass", "trump H")
    assert game.phase is Phase.GIVE and game.to_act == 2
    act(game, "give 9S KD QD JD")
    assert game.view(0).phase is Phase.RETURN and game.to_act == 0
    assert len(game.hand(0)) == 16 and len(game.hand(2)) == 8
    assert game.hand(0) == Hand.parse(DEAL_A[0]) + Hand.parse("9S KD QD JD")
    given = tuple(Card(c) for c in ("9S", "KD", "QD", "JD"))
    assert game.view(0).given == given and game.view(2).given == given
    assert game.view(1).given is None and game.view(3).given is None
    assert game.view(None).given is None
    assert game.view(0).hand_sizes == (16, 12, 8, 12)
    act(game, "return AS AD AC TC")
    assert game.hand(0) == Hand.parse("AH AH TH TH KH KS QS KC 9S KD QD JD")
    assert game.hand(2) == Hand.parse("KH QH QH JH JH 9H 9H 9C AS AD AC TC")
    returned = tuple(Card(c) for c in ("AS", "AD", "AC", "TC"))
    assert game.view(0).returned == returned and game.view(2).returned == returned
    assert game.view(1).returned is None and game.view(3).returned is None
    assert game.view(None).returned is None
    # Seat 0 now melds kings around 80, KS-QS 20, KD-QD 20 and a pinochle 40 = 160;
    # seat 2 keeps KH-QH 40 and two dix 20 = 60.
    assert game.melds is not None
    assert [m.points for m in game.melds] == [160, 80, 60, 20]
    assert game.view(0).phase is Phase.PLAY and game.to_act == 0


def test_returned_cards_may_include_cards_just_received() -> None:
    """docs/rules.md §1 Passing: the cards sent back 'may include cards just received'."""
    game = new_game("pagat", DEAL_A)
    act(game, "bid 250", "pass", "pass", "pass", "trump H", "give 9S KD QD JD",
        "return 9S KD AS AC")
    assert game.hand(2) == Hand.parse("KH QH QH JH JH 9H 9H 9C 9S KD AS AC")


def test_passing_three_cards() -> None:
    """docs/rules.md §2 cards passed 3 (seed 004 'passes 3 cards')."""
    game = new_game(Rules(cards_passed=3), DEAL_A)
    act(game, "bid 250", "pass", "pass", "pass", "trump H")
    with pytest.raises(IllegalActionError, match="pass exactly 3 cards, not 4"):
        act(game, "give 9S KD QD JD")
    act(game, "give KD QD JD")
    assert len(game.hand(0)) == 15
    with pytest.raises(IllegalActionError, match="pass exactly 3 cards"):
        act(game, "return AS")
    act(game, "return AS AD AC")
    assert [len(game.hand(s)) for s in range(4)] == [12] * 4
    assert game.view(2).given == tuple(Card(c) for c in ("KD", "QD", "JD"))


def test_no_passing_cutthroat() -> None:
    """docs/rules.md §2 cutthroat (seed 000 'If you play cutthroat, nobody passes cards'):
    meld and play follow the naming of trump."""
    game = new_game("cutthroat", DEAL_A)
    act(game, "bid 250", "pass", "pass", "pass", "trump H")
    assert game.phase is Phase.PLAY and game.to_act == 0
    assert all(game.view(s).given is None for s in range(4))
    result = play(game, SCRIPT_A)
    assert result.scores == (340, 210)


# ---------------------------------------------------------------------------
# Divide by ten (playingcards, seed 004).


def test_playingcards_auction_example_and_divided_scores() -> None:
    """Seed 004: 'P2 starts the bid with 20, P3 bids 21, P4 bids 23, P1 passes, P2
    passes. Now bidding continues between P3 and P4'. P1 is the dealer (seat 0), P2-P4
    are seats 1-3. DEAL_A is turned so that P4 (seat 3) holds its declarer's hand;
    every value is in tenths: meld 20 / 10, counters 1 each, last trick 1, 25 in all."""
    rules = Rules.preset("playingcards")
    assert (rules.opening_bid, rules.step, rules.game_target, rules.trick_total) == (
        20, 1, 150, 25)
    game = new_game(rules, DEAL_A, dealer=0, rotation=3)
    with pytest.raises(IllegalActionError, match="at least 20"):
        act(game, "bid 19")
    act(game, "bid 20", "bid 21", "bid 23", "pass", "pass")
    assert game.to_act == 2
    act(game, "pass")
    assert (game.declarer, game.contract) == (3, 23)
    act(game, "trump H")
    pass_through(game)
    assert game.given is not None and len(game.given) == 3
    assert game.melds is not None and [m.points for m in game.melds] == [8, 8, 2, 12]
    result = play(game, SCRIPT_A, rotation=3)
    assert [t.points for t in result.tricks] == trick_points(SCRIPT_A, 10)
    assert result.tricks[-1].points == 5  # four counters and the last trick
    assert result.meld_points == (10, 20)
    assert result.trick_points == (11, 14)
    assert result.outcome is Outcome.MADE
    assert result.scores == (21, 34)


def test_playingcards_set() -> None:
    """Seed 004: 'they incur that amount in negative points and do not score anything
    for their melds and tricks': 35 > 20 + 14."""
    game = new_game("playingcards", DEAL_A)
    declare(game, ["bid 35", "pass", "pass", "pass"], "H")
    result = play(game, SCRIPT_A)
    assert result.outcome is Outcome.SET and result.scores == (-35, 21)


def test_playingcards_not_on_the_board_uses_25() -> None:
    """docs/rules.md §1 Not on the board in tenths: 46 > 20 + 25."""
    game = new_game("playingcards", DEAL_A)
    declare(game, ["bid 45", "pass", "pass", "pass"], "H")
    assert game.phase is Phase.PLAY
    game = new_game("playingcards", DEAL_A)
    declare(game, ["bid 46", "pass", "pass", "pass"], "H")
    assert game.results[-1].outcome is Outcome.NOT_ON_BOARD
    assert game.results[-1].scores == (-46, 10)


def test_shortfall_throw_in_never_scores_positive() -> None:
    """family1000 (seed 002: a set team loses only the shortfall): a declaring team
    that throws in holding meld above its contract has fallen short by nothing, so
    it loses nothing, and never gains."""
    for seed in range(400):
        game = Game.new(Rules.preset("family1000"), seed=seed, dealer=3)
        for text in ("bid 250", "pass", "pass", "pass"):
            game.apply(parse_action(text))
        for suit in "SHDC":
            trial = game.copy()
            trial.apply(parse_action(f"trump {suit}"))
            while trial.phase in (Phase.GIVE, Phase.RETURN):
                trial.apply(trial.legal_actions()[0])
            if trial.phase is Phase.PLAY and trial.melds is not None and (
                    trial.melds[0].points + trial.melds[2].points > 250):
                trial.apply(parse_action("throw in"))
                result = trial.results[-1]
                assert result.outcome is Outcome.THROWN_IN
                assert result.scores[0] == 0
                return
    raise AssertionError("no deal with enough meld found")
