"""The double-deck game (docs/rules.md §6): auction, passing, play, scoring, records, errors.

Worked hands are fixed deals with the arithmetic in each test's docstring;
the property tests play whole random games (seeds drawn by hypothesis, the
players' choices by a seeded ``random.Random``) and check what must hold after
every action.
"""

from __future__ import annotations

import pickle
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pinochlekit import (
    Action,
    Bid,
    Game,
    GameOverError,
    Give,
    IllegalActionError,
    NameTrump,
    OutOfTurnError,
    Pass,
    Phase,
    PhaseError,
    Play,
    RecordError,
    Return,
    Rules,
    RulesError,
    Suit,
    parse_action,
)
from pinochlekit.engine.double.cards import DOUBLE_KINDS, DoubleHand
from pinochlekit.engine.double.game import DoubleDeckGame, bid_ladder
from pinochlekit.engine.games import new_any_game, new_game, replay, replay_any
from pinochlekit.engine.record import GameRecord
from pinochlekit.engine.views import Outcome

SUITS = "SHDC"


def one_suit_deal() -> tuple[DoubleHand, DoubleHand, DoubleHand, DoubleHand]:
    """Seat 0 all clubs, seat 1 all spades, seat 2 all hearts, seat 3 all diamonds."""
    def suit(letter: str) -> DoubleHand:
        return DoubleHand.parse(" ".join(f"{r}{letter}" for r in "ATKQJ" for _ in range(4)))
    return (suit("C"), suit("S"), suit("H"), suit("D"))


def play_out(game: DoubleDeckGame) -> None:
    """Play the hand to its end, every seat taking its first legal action."""
    number = game.hand_number
    while game.hand_number == number and game.winner is None:
        game.apply(game.legal_actions()[0])


def test_worked_hand_made() -> None:
    """Dealer 0; seat 1 holds the twenty spades, seat 2 hearts, seat 3 diamonds, seat 0
    clubs. Seat 1 bids 300, the others pass; spades are trump.

    Meld (docs/rules.md §6): seat 1 a quadruple run, 300 (its four K Q are the runs'
    and do not marry again); every other seat four common marriages, 4 × 2 = 8.
    Team 1 (seats 1, 3): 300 + 8 = 308; team 0: 8 + 8 = 16.
    Play: seat 1 leads trump every time and nobody else holds one, so seat 1 takes
    all twenty tricks: 48 counters (16 A, 16 T, 16 K) + 2 for the last = 50.
    Team 1: 308 + 50 = 358 ≥ 300, made: +358. Team 0 took no counter, so its
    meld is not saved: 0.
    """
    game = DoubleDeckGame.new("doubledeck", seed=0, dealer=0, deals=[one_suit_deal()])
    for text in ("bid 300", "pass", "pass", "pass", "trump S"):
        game.apply(parse_action(text))
    assert game.melds is not None
    assert [m.points for m in game.melds] == [8, 300, 8, 8]
    assert game.melds[1].items[0].name == "quadruple run"
    play_out(game)
    result = game.results[0]
    assert result.outcome is Outcome.MADE
    assert result.meld_points == (16, 308)
    assert result.trick_points == (0, 50)
    assert result.meld_saved == (False, True)
    assert result.scores == (0, 358)
    assert game.scores == [0, 358]
    assert len(result.tricks) == 20 and all(t.winner == 1 for t in result.tricks)


@pytest.mark.parametrize(("rules", "scores"), [
    pytest.param("doubledeck", (0, -400), id="§6-set-loses-the-bid"),
    pytest.param("doubledeck(set_penalty=chips)", (400, 0), id="§6-progressive"),
    pytest.param("doubledeck(set_forfeits_meld=no)", (0, -400 + 308),
                 id="§2-set-keeps-meld"),
])
def test_worked_hand_set(rules: str, scores: tuple[int, int]) -> None:
    """The same deal with a bid of 400: 358 < 400, set. Team 1 loses the bid, -400
    (progressive: team 0 scores the 400 instead, team 1 nothing; with
    set_forfeits_meld=no team 1 keeps its 308 meld: -92). Team 0 still has no counter:
    its 16 of meld are not saved."""
    game = DoubleDeckGame.new(rules, seed=0, dealer=0, deals=[one_suit_deal()])
    for text in ("bid 400", "pass", "pass", "pass", "trump S"):
        game.apply(parse_action(text))
    play_out(game)
    assert game.results[0].outcome is Outcome.SET
    assert game.results[0].scores == scores


def test_meld_counters_option() -> None:
    """meld_counters=20 (docs/rules.md §6 option): team 1 takes 50 ≥ 20, its meld counts;
    the result is the one of the worked hand."""
    game = DoubleDeckGame.new("doubledeck(meld_counters=20)", seed=0, deals=[one_suit_deal()])
    for text in ("bid 300", "pass", "pass", "pass", "trump S"):
        game.apply(parse_action(text))
    play_out(game)
    assert game.results[0].scores == (0, 358)


def test_both_reach_500_the_declaring_team_wins() -> None:
    """The worked deal twice: after the first hand team 1 has 358; in the second (the
    same deal, dealer 1, so seat 2 opens) seat 1 again declares 300 and makes 358:
    716 ≥ 500, team 1 wins and the game is over."""
    game = DoubleDeckGame.new("doubledeck", seed=0, dealer=0,
                              deals=[one_suit_deal(), one_suit_deal()])
    for _ in range(2):
        while game.phase is Phase.AUCTION:
            seat = game.to_act
            game.apply(Bid(300) if seat == 1 else Pass())
        assert game.declarer == 1
        game.apply(NameTrump(Suit.SPADES))
        play_out(game)
    assert game.winner == 1 and game.phase is Phase.GAME_OVER and game.to_act is None
    with pytest.raises(GameOverError):
        game.apply(Pass())


def test_both_teams_reach_the_target_in_one_hand_the_declaring_team_wins() -> None:
    """docs/rules.md §6 game: when both teams reach the target in one hand the
    declaring team wins. Target 370 and meld kept without a counter
    (``save_meld_needs_trick=no``). Hand 1: seat 0 holds the twenty spades and makes
    300 with a quadruple run, team 0 358; team 1 keeps its 16 of marriages. Hand 2
    (dealer 1), the worked deal: seat 1 makes 300, team 1 16 + 358 = 374; team 0 keeps
    its 16: 358 + 16 = 374. Both reach 370 in the hand: team 1, the declarers, win,
    though team 0 was ahead before it."""
    clubs, spades, hearts, diamonds = one_suit_deal()
    game = DoubleDeckGame.new("doubledeck(target=370, save_meld_needs_trick=no)", seed=0,
                              dealer=0, deals=[(spades, clubs, hearts, diamonds),
                                               (clubs, spades, hearts, diamonds)])
    for declarer in (0, 1):
        while game.phase is Phase.AUCTION:
            seat = game.to_act
            game.apply(Bid(300) if seat == declarer else Pass())
        assert game.declarer == declarer
        game.apply(NameTrump(Suit.SPADES))
        play_out(game)
    assert [r.scores for r in game.results] == [(358, 16), (16, 358)]
    assert game.scores == [374, 374]
    assert game.winner == 1 and game.phase is Phase.GAME_OVER


def test_auction_ladder_and_stuck_dealer() -> None:
    """docs/rules.md §6: 50 up by 1 to 60, then by 5; options by 1, and by 10 from 100;
    three passes leave the dealer stuck at 50."""
    ladder = bid_ladder(Rules.preset("doubledeck"))
    assert ladder[:12] == (50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 65)
    assert 103 not in ladder and 105 in ladder
    ten = bid_ladder(Rules.from_string("doubledeck(bid_ladder=ten_from_100)"))
    assert 95 in ten and 105 not in ten and 110 in ten
    assert bid_ladder(Rules.from_string("doubledeck(bid_ladder=by_one)"))[10:13] == (60, 61, 62)
    game = DoubleDeckGame.new("doubledeck", seed=4, dealer=2)
    assert game.to_act == 3
    for _ in range(3):
        game.apply(Pass())
    assert (game.declarer, game.contract, game.phase) == (2, 50, Phase.TRUMP)


def test_passed_out_moves_the_deal() -> None:
    game = DoubleDeckGame.new("doubledeck(dealer_stuck=no)", seed=4, dealer=2)
    for _ in range(4):
        game.apply(Pass())
    assert game.results[0].outcome is Outcome.PASSED_OUT
    assert (game.dealer, game.hand_number, game.phase, game.to_act) == (3, 2, Phase.AUCTION, 0)


def test_first_bid_required() -> None:
    game = DoubleDeckGame.new("doubledeck(first_bid_required=yes)", seed=1)
    assert Pass() not in game.legal_actions()
    with pytest.raises(IllegalActionError, match="must open"):
        game.apply(Pass())



def test_a_pass_is_final_and_jumps_stay_on_the_ladder() -> None:
    """docs/rules.md §6 auction: from the dealer's left; a pass is final (the seat is
    skipped for the rest of the auction); any higher bid on the ladder, jumps included
    (docs/double-deck.md "Bid ladder"), by 5 from 60; the last bidder left declares at
    its bid."""
    game = DoubleDeckGame.new("doubledeck", seed=4, dealer=0)
    assert game.to_act == 1
    game.apply(Bid(50))
    game.apply(Pass())  # seat 2 is out
    game.apply(Bid(51))
    assert game.to_act == 0
    assert game.can(Bid(75)) and not game.can(Bid(73)) and not game.can(Bid(51))
    game.apply(Bid(75))  # a jump from 51
    assert game.to_act == 1
    legal = game.legal_actions()
    assert Bid(76) not in legal and Bid(80) in legal and Pass() in legal
    game.apply(Bid(80))
    assert game.to_act == 3  # seat 2 passed: never asked again
    game.apply(Pass())
    assert game.to_act == 0
    game.apply(Pass())
    assert (game.declarer, game.contract, game.phase, game.to_act) == (1, 80, Phase.TRUMP, 1)


def test_identical_cards_the_first_played_wins_and_a_copy_does_not_beat() -> None:
    """docs/rules.md §6: of identical cards the first played wins, and §1.9 "a card beats
    another only if strictly higher": with four aces of hearts in one trick, the leader
    takes it, and a follower holding the ace and lower hearts may play any heart, as no
    heart beats the ace led.

    Deal (dealer 3): the one-suit deal with one AH given to each of seats 0, 1 and 3 in
    exchange for their ace (AC, AS, AD to seat 2). Seat 0 bids 50, the others pass, clubs
    are trump; seat 0 leads AH."""
    clubs, spades, hearts, diamonds = one_suit_deal()
    ah, ac, as_, ad = (DoubleHand.parse(c) for c in ("AH", "AC", "AS", "AD"))
    deal = (clubs - ac + ah, spades - as_ + ah, hearts - ah - ah - ah + ac + as_ + ad,
            diamonds - ad + ah)
    game = DoubleDeckGame.new("doubledeck", seed=0, dealer=3, deals=[deal])
    for text in ("bid 50", "pass", "pass", "pass", "trump C", "play AH"):
        game.apply(parse_action(text))
    assert [str(a) for a in game.legal_actions()] == ["play AH"]  # seat 1: its only heart
    game.apply(parse_action("play AH"))
    assert sorted(str(a) for a in game.legal_actions()) == [
        "play AH", "play JH", "play KH", "play QH", "play TH"]  # seat 2: nothing beats AH
    game.apply(parse_action("play AH"))
    game.apply(parse_action("play AH"))
    trick = game.tricks[0]
    assert [str(c) for c in trick.cards] == ["AH"] * 4
    assert (trick.winner, trick.points, game.to_act) == (0, 4, 0)


@pytest.mark.parametrize(("rules", "outcome", "scores"), [
    pytest.param("doubledeck(min_bid=10)", Outcome.SET, (-16, 358), id="meld-not-saved"),
    pytest.param("doubledeck(min_bid=10, save_meld_needs_trick=no)", Outcome.MADE, (16, 358),
                 id="option-off"),
])
def test_declarers_without_a_counter_cannot_count_their_meld(
        rules: str, outcome: Outcome, scores: tuple[int, int]) -> None:
    """docs/rules.md §6: a team scores its meld only if it takes a counter, the declaring
    team included, whose unsaved meld does not count towards its bid (docs/double-deck.md
    "Saving meld").

    The one-suit deal, dealer 3: seat 0 (clubs) bids 16 and names spades, all of which
    seat 1 holds. Team 0's meld is 8 + 8 (four common marriages each); seat 1 trumps the
    first trick and leads trump to the end, taking all 50 points: team 0 takes no counter
    and is set (-16), though its 16 of meld reach the bid; with
    ``save_meld_needs_trick=no`` the meld counts and the bid is made. Team 1: a
    quadruple run 300 and 8, 308 + 50 = 358."""
    game = DoubleDeckGame.new(rules, seed=0, dealer=3, deals=[one_suit_deal()])
    for text in ("bid 16", "pass", "pass", "pass", "trump S"):
        game.apply(parse_action(text))
    play_out(game)
    result = game.results[0]
    assert result.meld_points == (16, 308) and result.trick_points == (0, 50)
    assert (result.outcome, result.scores) == (outcome, scores)

@pytest.mark.parametrize("n", [2, 3, 4])
def test_passing_partner_first(n: int) -> None:
    """docs/rules.md §6 option: n cards from partner to the declarer, then n back; only
    the two partners see them."""
    game = DoubleDeckGame.new(f"doubledeck(cards_passed={n})", seed=9, dealer=0)
    game.apply(Bid(50))
    for _ in range(3):
        game.apply(Pass())
    game.apply(NameTrump(Suit.HEARTS))
    assert (game.phase, game.to_act) == (Phase.GIVE, 3)
    legal = game.legal_actions()
    assert all(isinstance(a, Give) and len(a.cards) == n for a in legal)
    assert len(set(legal)) == len(legal)
    before = [game.hand(s) for s in range(4)]
    give = legal[-1]
    assert isinstance(give, Give)
    game.apply(give)
    assert game.hand(1) == before[1] + DoubleHand.from_cards(give.cards)
    assert (game.phase, game.to_act) == (Phase.RETURN, 1)
    back = game.legal_actions()[0]
    assert isinstance(back, Return)
    game.apply(back)
    assert game.phase is Phase.PLAY and game.to_act == 1
    assert len(game.hand(1)) == len(game.hand(3)) == 20
    for seat in range(4):
        view = game.view(seat)
        partners = seat in (1, 3)
        assert (view.given is not None) == partners and (view.returned is not None) == partners
    assert game.view(None).given is None


def test_wrong_actions_are_typed_errors_that_change_nothing() -> None:
    game = DoubleDeckGame.new("doubledeck", seed=2, dealer=0)
    game.apply(Bid(55))
    cases = [
        (Bid(54), IllegalActionError, "at least 56"),
        (Bid(61), IllegalActionError, "by 5"),
        (Bid(5000), IllegalActionError, "up to"),
        (Pass(help=True), IllegalActionError, "no pass with help"),
        (Play(DOUBLE_KINDS[0]), PhaseError, "must bid or pass"),
        (NameTrump(Suit.SPADES), PhaseError, "must bid or pass"),
    ]
    before = game.view(2), game.record
    for action, error, words in cases:
        with pytest.raises(error, match=words):
            game.apply(action)
        assert not game.can(action)
        assert (game.view(2), game.record) == before
    with pytest.raises(OutOfTurnError):
        game.apply(Bid(60), seat=0)
    for _ in range(3):
        game.apply(Pass())
    game.apply(NameTrump(Suit.SPADES))
    seat = game.to_act
    assert seat is not None
    held = [k for k in DOUBLE_KINDS if game.hand(seat).count(k)]
    missing = [k for k in DOUBLE_KINDS if not game.hand(seat).count(k)]
    if missing:
        with pytest.raises(IllegalActionError, match="not in the hand"):
            game.apply(Play(missing[0]))
    game.apply(Play(held[0]))
    follower = game.to_act
    assert follower is not None
    illegal = [Play(k) for k in DOUBLE_KINDS if game.hand(follower).count(k)
               and Play(k) not in game.legal_actions()]
    for action in illegal:
        with pytest.raises(IllegalActionError, match="illegal play"):
            game.apply(action)
    with pytest.raises(PhaseError):
        game.apply(Give(tuple(held[:2])))


def test_bad_deals_and_rules_are_refused() -> None:
    with pytest.raises(RulesError, match="deck"):
        DoubleDeckGame.new("pagat")
    deal = one_suit_deal()
    with pytest.raises(IllegalActionError, match="four hands of 20"):
        DoubleDeckGame.new("doubledeck", deals=[(deal[0], deal[1], deal[2], deal[0].remove(
            deal[0].cards()[0]))])
    with pytest.raises(IllegalActionError, match="four times"):
        DoubleDeckGame.new("doubledeck", deals=[(deal[0], deal[0], deal[2], deal[3])])
    with pytest.raises(RecordError, match="action 1"):
        replay(GameRecord("doubledeck", 1, 0, ("bid 49",)))
    with pytest.raises(RulesError, match="cards_passed"):
        Rules.from_string("doubledeck(cards_passed=1)")
    with pytest.raises(RulesError, match="arounds"):
        Rules.from_string("pagat(arounds=doubling)")
    with pytest.raises(RulesError, match="meld_counters"):
        Rules.from_string("doubledeck(meld_counters=5)")


def random_game(seed: int, rules: str = "doubledeck", actions: int = 10_000) -> DoubleDeckGame:
    """A game played by uniformly random legal actions (bids kept low so hands are
    played out, not bid to the ceiling)."""
    rng = random.Random(seed)
    game = new_any_game(rules, seed=seed, dealer=seed % 4)
    assert isinstance(game, DoubleDeckGame)
    for _ in range(actions):
        if game.winner is not None:
            break
        legal = game.legal_actions()
        action: Action
        if game.phase is Phase.AUCTION and rng.random() < 0.6 and Pass() in legal:
            action = Pass()
        elif game.phase is Phase.AUCTION:
            action = legal[1] if Pass() in legal and len(legal) > 1 else legal[0]
        else:
            action = rng.choice(legal)
        game.apply(action)
    return game


RULES = ["doubledeck", "doubledeck(cards_passed=4, must_beat=trump_led)",
         "doubledeck(cards_passed=2, must_beat=following, trump_follows_trump=yes)",
         "doubledeck(first_lead=trump, arounds=doubling, set_penalty=chips, target=200)"]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(RULES))
def test_random_games_keep_the_invariants(seed: int, rules: str) -> None:
    """Over a whole random game: every hand is 80 cards, 20 each; cards are conserved;
    each played hand has 50 trick points in 20 tricks; the totals are the sum of the
    hands' scores; every scored hand obeys docs/rules.md §6 scoring; the record replays
    to the same game; a copy is independent; undo takes back the last action."""
    game = random_game(seed, rules, actions=3000)
    totals = [0, 0]
    for result in game.results:
        totals = [totals[t] + result.scores[t] for t in (0, 1)]
        assert list(result.totals) == totals
        if result.outcome is Outcome.PASSED_OUT:
            continue
        assert len(result.tricks) == 20 and sum(result.trick_points) == 50
        assert result.declarer is not None
        ours = result.declarer % 2
        saved = [result.trick_points[t] >= 1 for t in (0, 1)]
        assert list(result.meld_saved) == saved
        taken = [result.meld_points[t] * saved[t] + result.trick_points[t] for t in (0, 1)]
        assert result.made == (taken[ours] >= result.contract)
        if result.made:
            assert list(result.scores) == taken
        elif game.rules.set_penalty == "chips":
            assert result.scores[ours] == 0
            assert result.scores[1 - ours] == taken[1 - ours] + result.contract
        else:
            assert result.scores[ours] == -result.contract
        for trick in result.tricks:
            assert trick.points == sum(c.rank >= 3 for c in trick.cards) + (
                2 if trick is result.tricks[-1] else 0)
    assert game.scores == totals
    in_hands = Counter[int]()
    for seat in range(4):
        in_hands.update({k: n for k, n in enumerate(game.kind_counts(seat)) if n})
    in_hands.update(c for t in game.tricks for c in t.cards)
    in_hands.update(game.trick)
    assert all(in_hands[k] == 4 for k in DOUBLE_KINDS) and sum(in_hands.values()) == 80
    again = replay_any(game.record)
    assert again.view(0) == game.view(0) and again.record == game.record
    assert replay_any(GameRecord.from_json(game.record.to_json())).record == game.record
    if game.winner is None:
        copy = game.copy()
        view = game.view(game.to_act)
        copy.apply(copy.legal_actions()[0])
        assert game.view(game.to_act) == view
        game.apply(game.legal_actions()[0])
        last = game.undo()
        assert last == copy.actions[-1] and game.view(game.to_act) == view


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_every_legal_action_is_accepted_and_others_refused(seed: int) -> None:
    """At each step of a random hand, ``can`` holds for every legal action, and every
    card of the deck that is not a legal play is refused with a typed error."""
    rng = random.Random(seed)
    game = DoubleDeckGame.new("doubledeck", seed=seed)
    for _ in range(120):
        legal = game.legal_actions()
        assert all(game.can(a) for a in legal[:30])
        if game.phase is Phase.PLAY:
            for kind in DOUBLE_KINDS:
                if Play(kind) not in legal:
                    with pytest.raises(IllegalActionError):
                        game.verify(Play(kind))
        game.apply(legal[0] if game.phase is Phase.AUCTION and rng.random() < 0.3
                   else rng.choice(legal) if game.phase is not Phase.AUCTION else Pass()
                   if Pass() in legal else legal[0])


def test_step_tells_what_happened() -> None:
    """``step`` applies like ``apply`` and reports the events in order: the call, the
    contract, trump and the four melds, each card and trick, then the hand's score and
    the next deal (docs/rules.md §6 through the events of pinochlekit.engine.events)."""
    from pinochlekit.engine.events import (
        BidMade,
        CardPlayed,
        ContractWon,
        Dealt,
        HandScored,
        MeldShown,
        Passed,
        TrickWon,
        TrumpNamed,
    )
    game = DoubleDeckGame.new("doubledeck", seed=0, dealer=0, deals=[one_suit_deal()])
    twin = game.copy()
    assert game.step(Bid(300)) == (BidMade(1, 300),)
    assert game.step(Pass()) == (Passed(2, False),)
    game.step(Pass())
    assert game.step(Pass()) == (Passed(0, False), ContractWon(1, 300))
    events = game.step(NameTrump(Suit.SPADES))
    assert events[0] == TrumpNamed(1, Suit.SPADES)
    assert [e.points for e in events[1:] if isinstance(e, MeldShown)] == [8, 300, 8, 8]
    for _ in range(3):
        assert len(game.step(game.legal_actions()[0])) == 1
    fourth = game.step(game.legal_actions()[0])
    assert isinstance(fourth[0], CardPlayed) and isinstance(fourth[1], TrickWon)
    assert fourth[1].winner == 1 and fourth[1].points == 0  # four jacks: no counter
    last: tuple[object, ...] = ()
    while game.hand_number == 1:
        last = game.step(game.legal_actions()[0])
    assert isinstance(last[-2], HandScored) and last[-1] == Dealt(2, 1)
    for action in game.actions:
        twin.apply(action)
    assert twin.view(None) == game.view(None)


def test_the_one_entry_point_builds_and_replays_the_double_deck() -> None:
    """``new_game`` and ``replay`` give every game, the double deck's included (the
    older names ``new_any_game``/``replay_any`` are the same functions)."""
    game = new_game("doubledeck", seed=4, dealer=1)
    assert isinstance(game, DoubleDeckGame) and game.dealer == 1
    while game.phase is Phase.AUCTION:
        game.apply(game.legal_actions()[0])
    again = replay(game.record)
    assert isinstance(again, DoubleDeckGame)
    assert again.record == game.record and again.view(0) == game.view(0)
    assert game.record.replay().view(2) == game.view(2)
    assert new_any_game is new_game and replay_any is replay


def test_the_single_deck_game_refuses_double_deck_rules() -> None:
    """``Game.new`` would deal 48 cards under the 80-card rules: refused by the field."""
    with pytest.raises(RulesError) as raised:
        Game.new("doubledeck", seed=1)
    assert raised.value.field == "deck"


def test_a_rules_error_survives_pickling() -> None:
    """A RulesError raised in a match worker process reaches the parent whole."""
    error = RulesError("deck", "the double deck is not seated here")
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is RulesError and again.field == "deck" and str(again) == str(error)
