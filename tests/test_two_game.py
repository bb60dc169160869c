"""Two-handed pinochle (docs/rules.md §4): worked hands from fixed deals, errors, rules.

Each worked hand is written out move by move with the meld it scores, worked out
by hand from the meld table of docs/rules.md §1 (kings around 80, common marriage 20,
queens around 60, royal marriage 40, pinochle 40, dix 10) and the rules of §4:
one meld per won trick, at least one card from the hand, a melded card reused
only in a meld of another class, the dix exchanged for the turned-up card, the
winner drawing first and the loser of the twelfth trick taking the turned-up
card, A 11, 10 10, K 4, Q 3, J 2 and 10 for the last trick.
"""

from __future__ import annotations

import pytest

from pinochlekit import (
    AnyGame,
    Card,
    GameOverError,
    GameRecord,
    Hand,
    IllegalActionError,
    OutOfTurnError,
    Phase,
    PhaseError,
    Play,
    RecordError,
    Rules,
    RulesError,
    TwoHandedGame,
    TwoStage,
    new_game,
    parse_cards,
    parse_two_action,
    replay,
)

# Classic trick points by rank letter (docs/rules.md §4), written out independently.
VALUE = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0}

# A deal (dealer 0, seat 1 leads): the turned-up card is AS, so spades are trump.
S0 = "KS QS KH KD KC QH QD QC JD 9C 9D TH"
S1 = "9S 9H JH JS JC AD TD AC TC AH TS JD"
REST = "AS TS KS QS JS 9S AH TH KH QH JH 9H AD TD KD QD 9D AC TC KC QC JC 9C AS"


def fixed(s0: str, s1: str, rest: str, dealer: int = 0,
          rules: str = "two") -> TwoHandedGame:
    """A game whose first deal is given card by card."""
    deal = (Hand.parse(s0), Hand.parse(s1), tuple(parse_cards(rest)))
    return TwoHandedGame.new(rules, seed="worked", dealer=dealer, deals=[deal])


def act(game: TwoHandedGame, *texts: str) -> None:
    for text in texts:
        game.apply(parse_two_action(text))


def stage(game: TwoHandedGame) -> TwoStage:
    """The stage, read through a call (so that type narrowing does not stick)."""
    return game.stage


def state(game: TwoHandedGame) -> tuple[object, ...]:
    """Everything observable about a game, for 'changes nothing' checks."""
    return (game.view(0), game.view(1), game.public_view(), game.record, game.hidden(0),
            game.hidden(1), game.stock_size, game.target)


def opening(game: TwoHandedGame) -> None:
    """The first five tricks of the worked deal (see test_worked_meld_sequence)."""
    act(game, "play 9H", "play TH", "meld KS KH KD KC", "play 9C", "play JH", "meld KH QH",
        "play 9D", "play TD", "dix", "no meld", "play JD", "play TS")


def test_worked_meld_sequence() -> None:
    game = fixed(S0, S1, REST)
    assert game.trump == 0 and game.turn_up == Card("AS") and game.to_act == 1
    act(game, "play 9H", "play TH")  # TH beats 9H: seat 0 wins 10 and melds
    assert stage(game) is TwoStage.MELD and game.to_act == 0 and game.trick_points == [10, 0]
    act(game, "meld KS KH KD KC")  # kings around (class II) 80; then the draw
    assert game.meld_points == [80, 0] and game.stage is TwoStage.EARLY
    assert Card("TS") in game.hidden(0) and Card("KS") in game.hidden(1)  # winner first
    act(game, "play 9C", "play JH")  # no need to follow suit: the led 9C wins
    act(game, "meld KH QH")  # KH again, now in class I: common marriage 20
    assert game.meld_points == [100, 0]
    assert [str(t) for t in game.table(0)] == ["KS(II)", "KH(I+II)", "KD(II)", "KC(II)",
                                               "QH(I)"]
    act(game, "play 9D", "play TD", "dix")  # seat 1 exchanges 9S for the turned-up AS
    assert game.turn_up == Card("9S") and Card("AS") in game.hidden(1)
    assert game.meld_points == [100, 10] and stage(game) is TwoStage.MELD
    act(game, "no meld", "play JD", "play TS")  # TS trumps JD: seat 0 wins 12
    assert game.trick_points == [24, 10]
    with pytest.raises(IllegalActionError, match="KH has already served in a class I meld"):
        act(game, "meld KH QH")  # the same class again
    act(game, "meld QS QH QD QC")  # QH again in class II: queens around 60
    act(game, "play AH", "play JC")
    with pytest.raises(IllegalActionError, match="at least one card of a meld must come "
                       "from the hand"):
        act(game, "meld KD QD")  # both cards lie on the table
    act(game, "meld KS QS")  # royal marriage 40 with the second QS from the hand
    assert game.meld_points == [80 + 20 + 60 + 40, 10]
    assert [e.name for e in game.events] == ["kings around", "common marriage",
                                             "dix exchanged", "queens around",
                                             "royal marriage"]
    assert game.trick_points == [24 + 11 + 2, 10]


def test_pinochle_reuses_a_queen_once() -> None:
    game = fixed(S0, S1, REST)
    opening(game)
    act(game, "meld QS QH QD QC", "play AH", "play JC", "meld QS JD")  # pinochle 40
    assert game.meld_points == [80 + 20 + 60 + 40, 10]
    act(game, "play TH", "play JS")  # JS is a trump: seat 1 wins
    assert game.to_act == 1 and stage(game) is TwoStage.MELD
    act(game, "dix")  # the turned-up card is now a nine of trump: the dix is only shown
    assert game.turn_up == Card("9S") and [str(t) for t in game.table(1)] == ["9S(I)"]
    assert game.events[-1].name == "dix" and game.meld_points[1] == 20
    with pytest.raises(IllegalActionError, match="one dix per won trick"):
        act(game, "dix")


def finish_hand(game: TwoHandedGame) -> None:
    """Play on: no more meld, the first legal card each time, until the hand ends."""
    hand = game.hand_number
    while game.hand_number == hand and game.winner is None:
        actions = game.legal_actions()
        game.apply(actions[-1] if game.stage is TwoStage.MELD else actions[0])


def test_worked_hand_scores() -> None:
    game = fixed(S0, S1, REST)
    opening(game)
    act(game, "meld QS QH QD QC")
    finish_hand(game)
    result = game.results[0]
    assert result.meld_points == (80 + 20 + 60, 10)
    taken = [0, 0]
    cards: list[Card] = []
    for trick in result.tricks:
        taken[trick.winner] += sum(VALUE[str(c)[0]] for c in trick.cards)
        cards += trick.cards
    taken[result.tricks[-1].winner] += 10  # docs/rules.md §4: last trick 10
    assert len(result.tricks) == 24 and Hand.from_cards(cards) == Hand((1 << 24) - 1,
                                                                       (1 << 24) - 1)
    assert tuple(taken) == result.trick_points and sum(taken) == 250
    assert result.scores == (160 + taken[0], 10 + taken[1])
    assert tuple(game.scores) == result.scores == result.totals
    assert game.dealer == 1 and game.to_act == 0  # the deal alternates


def play_lowest(game: TwoHandedGame) -> None:
    seat = game.to_act
    assert seat is not None
    game.apply(Play(sorted(game.hand(seat))[0]))


def test_twelfth_trick_gives_the_turned_up_card_to_the_loser() -> None:
    game = fixed(S0, S1, REST)
    for _ in range(12):
        play_lowest(game)
        play_lowest(game)
        assert stage(game) is TwoStage.MELD
        winner = game.to_act
        assert winner is not None
        if game.stock_size == 2:
            act(game, "no meld")
            assert Card("AS") in game.hidden(1 - winner) and game.turn_up is None
            assert str(game.view(winner).known[1 - winner]).startswith("AS")
        else:
            act(game, "no meld")
    assert stage(game) is TwoStage.LATE and game.stock_size == 0
    assert [len(game.hand(s)) for s in (0, 1)] == [12, 12]
    assert not game.table(0) and not game.table(1)


def test_late_tricks_follow_the_old_rules() -> None:
    game = fixed(S0, S1, REST)
    for _ in range(12):
        play_lowest(game)
        play_lowest(game)
        act(game, "no meld")
    leader = game.to_act
    assert leader is not None
    follower = 1 - leader
    lead = sorted(game.hand(leader))[-1]
    act(game, f"play {lead}")
    held = game.hand(follower)
    suit = [c for c in held if c // 6 == lead // 6]
    trumps = [c for c in held if c // 6 == game.trump]
    legal = sorted({a.card for a in game.legal_actions() if isinstance(a, Play)})
    if suit:
        higher = [c for c in suit if c > lead]
        assert legal == sorted(set(higher or suit))
    elif trumps:
        assert legal == sorted(set(trumps))
    else:
        assert legal == sorted(set(held))
    for card in set(held) - set(legal):
        with pytest.raises(IllegalActionError, match=f"illegal play {card}"):
            game.apply(Play(card))


def test_dealer_scores_a_turned_up_nine() -> None:
    rest = "9S " + REST.split(" ", 1)[1].replace("9S", "AS", 1)
    game = fixed(S0, S1, rest, dealer=0)
    assert game.turn_up == Card("9S") and game.meld_points == [10, 0]
    assert game.events[0].name == "dix turned up" and game.events[0].seat == 0
    act(game, "play 9H", "play TH", "no meld", "play 9C", "play JH", "no meld",
        "play 9D", "play TD")
    # Seat 1 holds the other 9S: with a nine turned up it can only be shown.
    act(game, "dix")
    assert game.turn_up == Card("9S") and game.meld_points == [10, 10]
    assert game.events[-1].name == "dix"


def test_errors_name_the_rule_and_change_nothing() -> None:
    game = fixed(S0, S1, REST)
    before = state(game)
    cases = [
        ("play 9H", 0, OutOfTurnError, "it is seat 1's turn"),
        ("meld KS QS", None, PhaseError, "seat 1 must play a card"),
        ("no meld", None, PhaseError, "must play a card"),
        ("play KS", None, IllegalActionError, "KS is not in the hand"),
    ]
    for text, seat, error, message in cases:
        with pytest.raises(error, match=message):
            game.apply(parse_two_action(text), seat)
        assert state(game) == before
    act(game, "play 9H", "play TH")
    before = state(game)
    for text, error, message in [
            ("play KS", PhaseError, "may meld, count the dix or say 'no meld'"),
            ("meld KS KH", IllegalActionError, "not a meld of the two-handed game"),
            ("meld 9S", IllegalActionError, "not a meld"),
            ("meld AS TS KS QS JS", IllegalActionError, "does not hold AS"),
            ("dix", IllegalActionError, "holds no 9S"),
    ]:
        with pytest.raises(error, match=message):
            act(game, text)
        assert state(game) == before
    from pinochlekit import Bid
    with pytest.raises(PhaseError, match="no auction"):
        game.apply(Bid(250))
    assert state(game) == before


def test_legal_actions_agree_with_is_legal() -> None:
    game = fixed(S0, S1, REST)
    opening(game)
    candidates = [parse_two_action(t) for t in (
        "meld KS KH KD KC", "meld KH QH", "meld QS QH QD QC", "meld KS QS", "meld QS JD",
        "meld KD QD", "meld KC QC", "dix", "no meld", "play QS", "meld AS TS KS QS JS")]
    legal = game.legal_actions()
    for action in candidates:
        assert game.is_legal(action) == (action in legal), action
    assert [str(a) for a in legal] == ["meld KS QS", "meld KD QD", "meld KC QC",
                                       "meld QS QH QD QC", "meld QS JD", "no meld"]


def test_undo_copy_and_record() -> None:
    game = fixed(S0, S1, REST)
    opening(game)
    copy = game.copy()
    snapshot = state(game)
    act(copy, "meld QS QH QD QC", "play AH")
    assert state(game) == snapshot
    undone = game.copy()
    act(undone, "meld KS QS")
    assert str(undone.undo()) == "meld KS QS" and state(undone) == snapshot
    text = game.record.to_json()
    again = replay(GameRecord.from_json(text))
    assert isinstance(again, TwoHandedGame) and state(again) == snapshot
    bad = GameRecord(game.record.rules, game.record.seed, 0, ("play 9H", "play 9H"),
                     game.record.deals)
    with pytest.raises(RecordError, match="action 2"):
        replay(bad)
    for deals in [(("AS", "KS", "QS"),), ((S0, S1),), ((S0, S1, REST.replace("AS", "XX")),),
                  ((S0, S0, REST),)]:
        with pytest.raises(RecordError, match="record cannot start"):
            replay(GameRecord("two", 1, 0, (), deals))
    with pytest.raises(RecordError, match="does not replay"):
        replay(GameRecord("two", 1, 0, ("bid 250",)))


def test_game_to_1000_with_seeded_deals() -> None:
    game = new_game("two", seed=11)
    assert isinstance(game, TwoHandedGame)
    while game.winner is None:
        actions = game.legal_actions()
        game.apply(actions[0] if game.stage is TwoStage.MELD else actions[-1])
    assert game.phase is Phase.GAME_OVER and max(game.scores) >= 1000
    assert game.scores[game.winner] >= game.target > game.scores[1 - game.winner]
    assert [sum(r.scores[s] for r in game.results) for s in (0, 1)] == game.scores
    with pytest.raises(GameOverError):
        game.apply(parse_two_action("no meld"))


def test_two_preset_and_rules_checks() -> None:
    two = Rules.preset("two")
    assert (two.players, two.trick_points, two.target, two.hand_size) == (2, "classic", 1000,
                                                                           12)
    assert str(Rules.from_string("two(must_beat=trump_led)")) == "two(must_beat=trump_led)"
    for text, field in [("two(cards_passed=0)", "cards_passed"), ("two(min_bid=300)", "min_bid"),
                        ("two(shoot_the_moon=yes)", "shoot_the_moon"),
                        ("two(doubles=plain)", "doubles"), ("pagat(players=5)", "players")]:
        with pytest.raises(RulesError, match=f"^{field}: "):
            Rules.from_string(text)
    with pytest.raises(RulesError, match="players"):
        TwoHandedGame.new("pagat")


def test_meld_once_option_forbids_reuse() -> None:
    game = fixed(S0, S1, REST, rules="two(meld_reuse=once)")
    act(game, "play 9H", "play TH", "meld KS KH KD KC", "play 9C", "play JH")
    assert "meld KH QH" not in [str(a) for a in game.legal_actions()]
    with pytest.raises(IllegalActionError, match="KH has already served"):
        act(game, "meld KH QH")


def test_both_games_share_the_interface() -> None:
    games: list[AnyGame] = [new_game("two", seed=1), new_game("pagat", seed=1)]
    for game in games:
        seat = game.to_act
        assert seat is not None and game.legal_actions()
        assert game.view(seat).legal_actions == tuple(game.legal_actions())
        action = game.legal_actions()[0]
        assert game.is_legal(action)
        game.apply(action)
        assert game.undo() == action and not game.actions
        assert replay(game.record).record == game.record
