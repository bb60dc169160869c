"""The simple and random players: legal, deterministic, and finishing games.

The game-level tests drive whole games under every preset with each seat's
view only and check, at every step, that the player's answer is one of the
view's legal actions and that the game accepts it. The unit tests pin down the
rules of thumb of :class:`SimplePlayer` on a fixed deal.
"""

from __future__ import annotations

import dataclasses

import pytest

from pinochlekit import (
    Action,
    Bid,
    Card,
    Game,
    Give,
    Hand,
    Moon,
    NameTrump,
    Pass,
    Phase,
    Play,
    Redeal,
    Return,
    Rules,
    Suit,
    ThrowIn,
    View,
    legal_plays,
    parse_action,
)
from pinochlekit.engine.cards import parse_cards
from pinochlekit.engine.games import new_game
from pinochlekit.engine.meld import meld
from pinochlekit.engine.two.actions import DIX, NO_MELD, LayMeld
from pinochlekit.engine.two.game import TwoHandedGame
from pinochlekit.engine.two.views import TwoHandedView, TwoStage
from pinochlekit.players import PLAYERS, Player, RandomPlayer, SimplePlayer
from pinochlekit.players.simple import estimate

PRESETS = Rules.presets()


def play_game(rules: str, seed: int, players: list[Player], max_hands: int = 400) -> Game:
    """Play a game with only views, checking every answer."""
    game = Game.new(rules, seed=seed)
    while game.winner is None:
        assert len(game.results) < max_hands, "no winner: the game does not end"
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        action = players[seat].choose(view)
        assert action in view.legal_actions, (action, view.phase)
        assert game.is_legal(action, seat), action
        if isinstance(players[seat], SimplePlayer):
            assert not isinstance(action, Moon), "SimplePlayer never shoots the moon"
        game.apply(action, seat)
    return game


@pytest.mark.parametrize("rules", PRESETS)
@pytest.mark.parametrize("seed", [1, 2])
def test_simple_players_finish_a_game_under_every_preset(rules: str, seed: int) -> None:
    game = play_game(rules, seed, [SimplePlayer(s) for s in range(4)])
    assert game.winner in range(game.rules.teams)
    assert max(game.scores) >= game.rules.game_target


@pytest.mark.parametrize("rules", PRESETS)
def test_random_players_finish_a_game_under_every_preset(rules: str) -> None:
    game = play_game(rules, 3, [RandomPlayer(f"3/{s}") for s in range(4)], max_hands=1000)
    assert game.winner in range(game.rules.teams)


@pytest.mark.parametrize("seed", range(10, 40))
def test_simple_player_is_legal_over_many_games(seed: int) -> None:
    rules = PRESETS[seed % len(PRESETS)]
    if rules == "family1000":  # slow meld ('once' card reuse); covered above
        rules = "pagat"
    players: list[Player] = [SimplePlayer(s) for s in range(4)]
    if seed % 2:  # against random opponents, who reach odder positions
        players[1], players[3] = RandomPlayer(f"{seed}/1"), RandomPlayer(f"{seed}/3")
    game = play_game(rules, seed, players, max_hands=1000)
    assert game.winner in range(game.rules.teams)


def test_simple_player_never_shoots_the_moon() -> None:
    game = play_game("family1000", 4, [SimplePlayer(s) for s in range(4)])
    assert not any(isinstance(a, Moon) for a in game.actions)


def test_players_are_deterministic_for_a_seed() -> None:
    for name in ("simple", "random"):
        factory = PLAYERS[name]
        first = play_game("pagat", 9, [factory(s) for s in range(4)], max_hands=1000)
        again = play_game("pagat", 9, [factory(s) for s in range(4)], max_hands=1000)
        assert first.record == again.record


def test_player_needs_a_seat_view() -> None:
    game = Game.new("pagat", seed=1)
    with pytest.raises(ValueError, match="nothing to do"):
        SimplePlayer().choose(game.view((game.to_act or 0) + 1))


# -- rules of thumb on a fixed deal --------------------------------------------

# Seat 0 holds a run and two dix in hearts; partner (seat 2) the other hearts.
DEAL = ("AH TH KH QH JH 9H 9H AS TS KS QS JS",
        "AS TS KS QS JS 9S AD TD KD QD JD 9D",
        "AH TH KH QH JH AC TC KC QC JC 9C 9S",
        "AD TD KD QD JD 9D AC TC KC QC JC 9C")


def fixed_game(rules: str = "pagat", *actions: str) -> Game:
    game = Game.new(rules, seed=0, dealer=3, deals=[[Hand.parse(h) for h in DEAL]])
    for text in actions:
        game.apply(parse_action(text))
    return game


def choose(game: Game) -> Action:
    seat = game.to_act
    assert seat is not None
    return SimplePlayer().choose(game.view(seat))


def test_estimate_is_meld_plus_tricks_plus_partner() -> None:
    view = fixed_game().view(0)
    assert view.hand is not None
    # Hearts: run 150 + two dix 20 + KS QS 20; 2 aces, 2 tens; passing: +100.
    assert estimate(view.hand, view) == (190 + 20 + 10 + 100, Suit.HEARTS)
    cutthroat = fixed_game("cutthroat").view(0)
    assert cutthroat.hand is not None
    assert estimate(cutthroat.hand, cutthroat) == (190 + 20 + 10 + 40, Suit.HEARTS)


def test_bids_the_minimum_while_below_its_estimate_then_passes() -> None:
    assert choose(fixed_game()) == Bid(250)
    assert choose(fixed_game("pagat", "bid 300", "bid 310", "pass", "pass")) == Bid(320)
    assert choose(fixed_game("pagat", "bid 300", "bid 320", "pass", "pass")) == Pass()


def test_must_open_and_redeal_when_allowed() -> None:
    view = fixed_game().view(0)
    forced = dataclasses.replace(view, legal_actions=(Bid(250), Bid(260)),
                                 hand=Hand.parse("9S JH QD 9C"))
    assert SimplePlayer().choose(forced) == Bid(250)
    redeal = dataclasses.replace(view, legal_actions=(Pass(), Bid(250), Redeal()))
    assert SimplePlayer().choose(redeal) == Redeal()


def test_names_the_suit_with_the_best_meld_and_length() -> None:
    assert choose(fixed_game("pagat", "bid 250", "pass", "pass", "pass")) == NameTrump(
        Suit.HEARTS)


def test_partner_gives_trumps_and_aces_and_declarer_returns_plain_cards() -> None:
    game = fixed_game("pagat", "bid 250", "pass", "pass", "pass", "trump H")
    give = choose(game)
    assert isinstance(give, Give)
    assert all(c.suit == Suit.HEARTS or c.rank.letter == "A" for c in give.cards)
    game.apply(give)
    back = choose(game)
    assert isinstance(back, Return)
    hand = game.hand(0)
    shown = meld(hand, Suit.HEARTS, game.rules).shown
    assert all(c.suit != Suit.HEARTS for c in back.cards)
    kept = hand - Hand.from_cards(back.cards)
    assert kept.issuperset(shown), "returned a card of its own meld"


def test_throws_in_only_when_the_contract_is_out_of_reach() -> None:
    game = fixed_game("pagat", "bid 250", "pass", "pass", "pass", "trump H")
    game.apply(choose(game))
    game.apply(choose(game))
    assert game.phase is Phase.PLAY and game.melds is not None
    view = game.view(0)
    assert ThrowIn() in view.legal_actions
    team_meld = game.melds[0].points + game.melds[2].points
    player = SimplePlayer()
    assert isinstance(player.choose(view), Play)
    hopeless = dataclasses.replace(view, contract=team_meld + 210)
    assert player.choose(hopeless) == ThrowIn()
    close = dataclasses.replace(view, contract=team_meld + 200)
    assert isinstance(player.choose(close), Play)


def _play_view(seat: int, hand: str, trick: list[tuple[int, str]], trump: Suit) -> View:
    base = fixed_game("pagat", "bid 250", "pass", "pass", "pass", "trump H").view(0)
    cards = [(s, Card(c)) for s, c in trick]
    held = Hand.parse(hand)
    legal = tuple(Play(c) for c in legal_plays(held, [c for _, c in cards], trump, base.rules))
    return dataclasses.replace(base, seat=seat, to_act=seat, phase=Phase.PLAY, hand=held,
                               trick=tuple(cards), trump=trump, legal_actions=legal)


@pytest.mark.parametrize(("seat", "hand", "trick", "expected"), [
    # Can win, more players to come: the highest winning card.
    (2, "AH TH 9H KS", [(1, "KH")], "AH"),
    # Can win as the last player: the lowest winning card.
    (2, "AH TH 9H KS", [(3, "9H"), (0, "QH"), (1, "KH")], "TH"),
    # Cannot win: the lowest card.
    (2, "TH 9H QD", [(1, "AH")], "9H"),
    # Partner is winning, more to come: the lowest card.
    (2, "AH TH 9H", [(0, "AH"), (1, "9H")], "9H"),
    # Partner is winning, last to play: a counter.
    (2, "AH QH 9H", [(3, "JH"), (0, "AH"), (1, "9H")], "AH"),
    # Leading: a non-trump ace, else the lowest card.
    (2, "AH KS 9S QD", [], "AH"),
    (2, "TH KS 9S QD", [], "QD"),
])
def test_play(seat: int, hand: str, trick: list[tuple[int, str]], expected: str) -> None:
    view = _play_view(seat, hand, trick, Suit.SPADES)
    assert SimplePlayer().choose(view) == Play(Card(expected))


def test_random_player_auction_passes_or_raises_one_step() -> None:
    game = fixed_game("pagat", "bid 300")
    seen = {RandomPlayer(i).choose(game.view(1)) for i in range(60)}
    assert seen == {Pass(), Pass(help=True), Bid(310)}


# -- three- and two-handed games -------------------------------------------------


@pytest.mark.parametrize("rules", ["three", "three(widow=take)", "two", "two(target=500)"])
@pytest.mark.parametrize("seed", [1, 2])
def test_simple_players_finish_three_and_two_handed_games(rules: str, seed: int) -> None:
    game = new_game(rules, seed=seed)
    players = [SimplePlayer(s) for s in range(game.rules.players)]
    kinds: set[str] = set()
    while game.winner is None:
        assert len(game.results) < 100, "no winner: the game does not end"
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        action = players[seat].choose(view)
        assert action in view.legal_actions, (action, view.phase)
        kinds.add(type(action).__name__)
        game.apply(action, seat)
    assert max(game.scores) >= game.rules.game_target
    if game.rules.players == 2:
        assert {"LayMeld", "NoMeld", "Play"} <= kinds
    elif game.rules.widow == "take":
        assert "Discard" in kinds


def test_simple_beats_random_in_the_two_handed_game() -> None:
    wins = 0
    for seed in range(6):
        game = new_game("two(target=500)", seed=seed)
        simple_seat = seed % 2
        players: list[Player] = [RandomPlayer(seed), RandomPlayer(seed)]
        players[simple_seat] = SimplePlayer(seed)
        while game.winner is None:
            seat = game.to_act
            assert seat is not None
            game.apply(players[seat].choose(game.view(seat)), seat)
        wins += game.winner == simple_seat
    assert wins >= 5


# Seat 0 (the dealer's opponent leads) holds a royal marriage, kings around but the
# club king, and the nine of trump; the turned-up card is the TS (spades trump).
TWO_DEAL = (Hand.parse("KS QS 9S KH KD AH JH 9D 9D JC TC 9C"),
            Hand.parse("AS AS TS JS JS QS KS 9S AH TH TH QH"),
            tuple(parse_cards("TS KH QH JH 9H 9H AD AD TD TD KD QD QD JD JD AC AC KC KC QC "
                              "QC JC TC 9C")))


def two_view(**changes: object) -> TwoHandedView:
    game = TwoHandedGame.new("two", seed=0, dealer=1, deals=[TWO_DEAL])
    view = game.view(0)
    return dataclasses.replace(view, **changes)  # type: ignore[arg-type]


def test_two_handed_meld_turn_dix_first_then_the_best_meld() -> None:
    melds = (LayMeld(tuple(parse_cards("KS QS"))), LayMeld(tuple(parse_cards("KH KS KD KC"))))
    player = SimplePlayer()
    view = two_view(stage=TwoStage.MELD, legal_actions=(*melds, DIX, NO_MELD))
    assert player.choose(view) == DIX
    view = two_view(stage=TwoStage.MELD, legal_actions=(*melds, NO_MELD))
    assert player.choose(view) == melds[1]  # kings around 80 over the royal marriage 40
    view = two_view(stage=TwoStage.MELD, legal_actions=(NO_MELD,))
    assert player.choose(view) == NO_MELD


def test_two_handed_early_tricks_keep_the_meld_and_take_counters() -> None:
    player = SimplePlayer()
    plays = tuple(Play(c) for c in Hand.parse("KS QS 9S KH KD AH JH 9D JC TC 9C"))
    # Leading: the lowest card outside trump and the meld (KS QS KH KD are meld).
    view = two_view(legal_actions=plays)
    assert player.choose(view) == Play(parse_cards("9D")[0])
    # An ace led: win it with the cheapest card that beats it, not a trump if possible.
    view = two_view(trick=((1, parse_cards("AC")[0]),), legal_actions=plays)
    assert player.choose(view) == Play(parse_cards("9S")[0])  # no higher club: low trump
    # A low card led: throw the lowest card outside the meld instead of winning.
    view = two_view(trick=((1, parse_cards("QC")[0]),), legal_actions=plays)
    assert player.choose(view) == Play(parse_cards("9D")[0])
