"""``easy``, ``standard`` and ``pro`` in the double deck (docs/rules.md §5 on §6).

Whole seeded hands where every decision must be legal, fixed deals where a rule of
§5 decides (a strong hand bids and names its long suit trump, the following rule),
a contested auction, and the single-deck decisions left as they were.
"""

from __future__ import annotations

from random import Random

import pytest

from pinochlekit.engine.actions import Bid, NameTrump, Pass, Play
from pinochlekit.engine.cards import Suit
from pinochlekit.engine.double.cards import DoubleHand
from pinochlekit.engine.double.game import DoubleDeckGame
from pinochlekit.engine.game import Game
from pinochlekit.engine.tricks import winner_index
from pinochlekit.engine.views import Phase
from pinochlekit.players import make_player
from pinochlekit.players.base import Player
from pinochlekit.players.double import DOUBLE_LEVELS
from pinochlekit.players.double.levels import double_standard
from pinochlekit.players.double.policy import sample_hands
from pinochlekit.players.policy import beat_mask, lowest
from pinochlekit.players.pro import ProPlayer
from pinochlekit.players.standard import StandardPlayer


def play_hand(game: DoubleDeckGame, players: list[Player]) -> None:
    """Play one hand, checking that every decision is one of the legal actions."""
    while not game.results:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        action = players[seat].choose(view)
        assert action in game.legal_actions(), (seat, action, view.phase)
        game.apply(action, seat)


@pytest.mark.parametrize("level", ["easy", "standard", "pro"])
def test_every_decision_is_legal(level: str) -> None:
    """Over seeded whole hands, the level at every seat and against easy."""
    for seed in range(3):
        game = DoubleDeckGame.new("doubledeck", seed=seed, dealer=seed % 4)
        play_hand(game, [make_player(level, seed * 4 + s) for s in range(4)])
        mixed = DoubleDeckGame.new("doubledeck(cards_passed=0)", seed=seed + 10)
        play_hand(mixed, [make_player(level if s % 2 else "easy", s) for s in range(4)])
        assert game.results[0].declarer is not None


def test_the_levels_list() -> None:
    """docs/double-deck.md: the one list of the levels that play the double deck."""
    assert {"random", "easy", "standard", "pro"} <= set(DOUBLE_LEVELS)


def strong_deal() -> tuple[DoubleHand, DoubleHand, DoubleHand, DoubleHand]:
    """Seat 1 (first to bid with dealer 0): a double run in hearts, four aces of
    hearts, and double aces around; the other cards spread over the other seats."""
    strong = DoubleHand.parse("AH AH AH AH TH TH KH KH QH QH JH JH AS AS AD AD AC AC TH TH")
    rest: list[int] = []
    for kind in range(24):
        if kind % 6 == 0:
            continue
        rest += [kind] * (4 - strong.count(kind))
    hands = [DoubleHand.from_cards(rest[i::3]) for i in range(3)]
    return (hands[0], strong, hands[1], hands[2])


@pytest.mark.parametrize("player", [StandardPlayer(1), ProPlayer(1)])
def test_strong_hand_bids_and_names_its_suit(player: Player) -> None:
    """docs/rules.md §5: the willing bid from simulated rounds is far above the
    minimum, so the player opens; it names the suit of its run trump."""
    game = DoubleDeckGame.new("doubledeck", seed=0, dealer=0, deals=[strong_deal()])
    first = player.choose(game.view(1))
    assert isinstance(first, Bid)
    # Everyone else passes: the strong seat wins and names hearts.
    game.apply(first, 1)
    for seat in (2, 3, 0):
        game.apply(Pass(), seat)
    assert game.phase is Phase.TRUMP and game.to_act == 1
    assert player.choose(game.view(1)) == NameTrump(Suit.HEARTS)


def test_weak_hand_passes() -> None:
    """A hand with no meld and few counters passes at a high bid (§5: the lowest bid is
    above the maximum willing bid)."""
    deal = strong_deal()
    game = DoubleDeckGame.new("doubledeck", seed=0, dealer=0, deals=[deal])
    game.apply(Bid(200), 1)  # far above what any hand takes in 250 points
    action, reason = double_standard(game.view(2), Random(0), pro=False)
    assert action == Pass() and "above the maximum willing bid" in reason


def test_following_rule_over_whole_hands() -> None:
    """docs/players.md standard **Following**, checked on every follow of standard over
    seeded hands: last to play, the lowest card that beats the winning card; if no
    card beats it and partner is not winning, the lowest card."""
    checked = 0
    for seed in range(4):
        game = DoubleDeckGame.new("doubledeck", seed=seed)
        players = [StandardPlayer(s) for s in range(4)]
        while not game.results:
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            action = players[seat].choose(view)
            if view.phase is Phase.PLAY and view.trick and view.trump is not None:
                assert isinstance(action, Play)
                trump = int(view.trump)
                trick = [c for _, c in view.trick]
                legal = sum(1 << a.card for a in view.legal_actions if isinstance(a, Play))
                winners = legal & beat_mask(trick[winner_index(trick, trump)], trump)
                partner = view.trick[winner_index(trick, trump)][0] == (seat + 2) % 4
                if winners and len(trick) == 3:
                    assert action.card == lowest(winners, trump)
                    checked += 1
                elif not winners and not partner:
                    assert action.card == lowest(legal, trump)
                    checked += 1
            game.apply(action, seat)
    assert checked > 50


@pytest.mark.parametrize("level", ["standard", "pro"])
def test_the_auction_is_contested(level: str) -> None:
    """Standard and pro bid: over fixed seeds most contracts are won in an auction with
    more than one bid, or by a seat that is not a dealer stuck at the minimum."""
    contested = 0
    hands = 8
    for seed in range(hands):
        game = DoubleDeckGame.new("doubledeck", seed=seed, dealer=seed % 4)
        play_hand(game, [make_player(level, seed * 4 + s) for s in range(4)])
        bids = [a for a in game.actions if isinstance(a, Bid)]
        stuck = len(bids) == 1 and game.results[0].declarer == game.results[0].dealer
        if not stuck:
            contested += 1
        assert len(bids) >= 1
    assert contested >= hands * 3 // 4


def test_sampler_deals_the_unseen_cards() -> None:
    """The hidden-card sampler keeps the seat's own hand and gives every other seat as
    many cards as it holds; the 80 cards are each dealt once."""
    game = DoubleDeckGame.new("doubledeck", seed=4)
    view = game.view(game.to_act)
    hands = sample_hands(view, Random(3))
    assert view.hand is not None
    assert hands[view.seat or 0] == [view.hand.count(k) for k in range(24)]
    assert [sum(h) for h in hands] == [20, 20, 20, 20]
    assert all(sum(h[k] for h in hands) == (0 if k % 6 == 0 else 4) for k in range(24))


def test_single_deck_is_not_handed_off() -> None:
    """A single-deck view is not the double deck's: the old players decide as before."""
    game = Game.new("pagat", seed=3)
    view = game.view(game.to_act)
    assert StandardPlayer(1, bid_sims=8).for_game(view) is None
    assert StandardPlayer(1, bid_sims=8).choose(view) == StandardPlayer(1, bid_sims=8).choose(view)
