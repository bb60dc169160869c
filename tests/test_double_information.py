"""Information leaks in the double-deck game (STYLE.md, tests 5; docs/rules.md §5 "none
may see any card its seat could not see at a real table"), as tests/test_information.py
does it for the single deck.

For a random prefix of a random game and each seat ``s``, a second deal is built
that differs from the real one only in cards ``s`` cannot have seen: the cards of
the other three seats that the prefix never names (not played, not passed) are
shuffled among them, each keeping its hand size. The prefix is replayed on a
game started with that deal, and at every step ``s``'s view (and a spectator's)
must be identical, dataclass and ``to_dict()`` alike. A replay stops early where
the new deal changes the meld shown to everyone (such a deal is not one ``s``
cannot tell apart) or makes another seat's action illegal; an action of ``s``
itself must stay legal.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pinochlekit import Give, IllegalActionError, Pass, Phase, Play, Return
from pinochlekit.engine.double.cards import DoubleHand
from pinochlekit.engine.double.game import DoubleDeal, DoubleDeckGame

RULES = ["doubledeck", "doubledeck(cards_passed=4)", "doubledeck(cards_passed=2)"]


def play_prefix(seed: int, rules: str, length: int) -> DoubleDeckGame:
    rng = random.Random(seed)
    game = DoubleDeckGame.new(rules, seed=seed, dealer=seed % 4)
    while len(game.actions) < length and game.hand_number == 1:
        legal = game.legal_actions()
        if game.phase is Phase.AUCTION:
            game.apply(Pass() if rng.random() < 0.5 and Pass() in legal else legal[1 % len(legal)])
        else:
            game.apply(rng.choice(legal))
    return game


def other_deal(game: DoubleDeckGame, seat: int, rng: random.Random) -> DoubleDeal:
    """The first deal with the unseen cards of the other seats shuffled among them."""
    named = [Counter[int]() for _ in range(4)]  # cards each seat must have been dealt
    received = [Counter[int]() for _ in range(4)]
    shadow = DoubleDeckGame.new(game.rules, seed=game.seed, dealer=game.first_dealer,
                                deals=[game.dealt])
    for action in game.actions:
        actor = shadow.to_act
        assert actor is not None
        if isinstance(action, Play):
            named[actor][action.card] += 1
        elif isinstance(action, Give | Return):
            named[actor].update(action.cards)
            received[(actor + 2) % 4].update(action.cards)
        shadow.apply(action)
    dealt = [Counter({k: n for k, n in enumerate(h.counts) if n}) for h in game.dealt]
    fixed = [Counter({k: max(0, named[s][k] - received[s][k]) for k in named[s]})
             for s in range(4)]
    others = [s for s in range(4) if s != seat]
    pool: list[int] = []
    for s in others:
        pool += list((dealt[s] - fixed[s]).elements())
    rng.shuffle(pool)
    hands: list[DoubleHand] = list(game.dealt)
    for s in others:
        size = 20 - sum(fixed[s].values())
        taken, pool = pool[:size], pool[size:]
        hands[s] = DoubleHand.from_cards(list(fixed[s].elements()) + taken)
    return (hands[0], hands[1], hands[2], hands[3])


def views_equal(a: DoubleDeckGame, b: DoubleDeckGame, seat: int) -> None:
    for who in (seat, None):
        assert a.view(who) == b.view(who)
        assert a.view(who).to_dict() == b.view(who).to_dict()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(RULES),
       length=st.integers(1, 60))
def test_views_do_not_depend_on_unseen_cards(seed: int, rules: str, length: int) -> None:
    game = play_prefix(seed, rules, length)
    rng = random.Random(seed)
    for seat in range(4):
        deal = other_deal(game, seat, rng)
        alt = DoubleDeckGame.new(game.rules, seed=game.seed, dealer=game.first_dealer,
                                 deals=[deal])
        real = DoubleDeckGame.new(game.rules, seed=game.seed, dealer=game.first_dealer,
                                  deals=[game.dealt])
        views_equal(real, alt, seat)
        for action in game.actions:
            actor = real.to_act
            try:
                alt.verify(action)
            except IllegalActionError:
                assert actor != seat, f"seat {seat}'s own action {action} became illegal"
                break
            real.apply(action)
            alt.apply(action)
            if real.melds != alt.melds:
                break  # meld is public: the two deals are told apart by everyone
            views_equal(real, alt, seat)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(RULES), length=st.integers(1, 80))
def test_a_view_holds_only_what_its_seat_may_see(seed: int, rules: str, length: int) -> None:
    """A seat's view holds its own hand and never another's; a spectator none; passed
    cards only the declarer and partner see; legal actions only for the seat to act."""
    game = play_prefix(seed, rules, length)
    for seat in (0, 1, 2, 3, None):
        view = game.view(seat)
        if seat is None:
            assert view.hand is None and view.given is None and view.returned is None
            assert view.legal_actions == ()
            continue
        assert view.hand == game.hand(seat)
        partners = game.declarer is not None and seat % 2 == game.declarer % 2
        if not partners:
            assert view.given is None and view.returned is None
        if seat != game.to_act:
            assert view.legal_actions == ()
        text = str(view.to_dict())
        for other in range(4):
            if other != seat and len(game.hand(other)) > 4:
                assert str(game.hand(other)) not in text
