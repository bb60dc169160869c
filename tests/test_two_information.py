"""Information leaks in the two-handed game (STYLE.md, tests 5; docs/rules.md §4 and §5).

For a random prefix of a random hand and each seat ``s``, a second deal is built
that differs from the real one only in cards ``s`` cannot have seen: the cards
of the opponent's hand and of the stock that were not played, not laid in meld,
not shown as a dix and not the turned-up card are shuffled among the places
``s`` never looked at (the opponent's deal, the opponent's draws, the stock
not yet drawn). The prefix is replayed on a game started with that deal, and
at every step ``s``'s view and a spectator's must be identical, dataclass and
``to_dict()`` alike. An action of the opponent that the new deal makes illegal
(a card it no longer holds, a revoke in the last tricks, a dix it lacks) ends a
comparison early: the history itself would then differ.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pinochlekit import (
    Card,
    Hand,
    IllegalActionError,
    TwoHandedGame,
    TwoStage,
    parse_two_action,
)
from pinochlekit.engine.two.game import TwoDeal


def play_prefix(seed: int, dealer: int, length: int) -> TwoHandedGame:
    rng = random.Random(seed)
    game = TwoHandedGame.new("two", seed=seed, dealer=dealer)
    while len(game.actions) < length and not game.results:
        game.apply(rng.choice(game.legal_actions()))
    if game.results:  # stay within the first hand
        game.undo()
    return game


def places(game: TwoHandedGame) -> tuple[list[int], list[int]]:
    """(owner of each of the 48 places of the first deal: 0, 1 or None for stock never
    drawn; the seat that drew each stock place). Places 0-11 / 12-23 are the hands."""
    drawer: list[int | None] = [None] * 24  # index into rest
    early = game.tricks[:12]
    draws_done = len(early) - (game.stage is TwoStage.MELD)
    for i in range(draws_done):
        winner = early[i].winner
        # The winner draws stock card 2i, the loser 2i+1 (the turned-up card last).
        drawer[1 + 2 * i] = winner
        drawer[(2 + 2 * i) if i < 11 else 0] = 1 - winner
    return [0] * 12 + [1] * 12, [-1 if d is None else d for d in drawer]


def alternative(game: TwoHandedGame, seat: int, rng: random.Random) -> TwoDeal:
    """A first deal ``seat`` cannot tell from the real one after the prefix."""
    first, second, rest = game.dealt
    deal = list(first) + list(second) + list(rest)
    owners, drawer = places(game)
    owner = owners + [drawer[i] for i in range(24)]
    other = 1 - seat
    # Cards the opponent has shown: played, laid in meld, counted as a dix, or known.
    shown: Counter[int] = Counter()
    for trick in game.tricks:
        for s, c in zip(trick.seats, trick.cards, strict=True):
            if s == other:
                shown[c] += 1
    if game.trick and game.view(None).trick[0][0] == other:
        shown[game.trick[0]] += 1
    for event in game.events:
        if event.seat == other and event.name != "dix turned up":
            for c in set(event.cards):
                shown[c] += 1
    free: list[int] = []
    for place, card in enumerate(deal):
        if place == 24:  # the turned-up card is public
            continue
        if owner[place] == seat:
            continue
        if owner[place] == other and shown[card] > 0:
            shown[card] -= 1
            continue
        free.append(place)
    cards = [deal[p] for p in free]
    rng.shuffle(cards)
    for p, c in zip(free, cards, strict=True):
        deal[p] = c
    return (Hand.from_cards(deal[:12]), Hand.from_cards(deal[12:24]),
            tuple(Card(c) for c in deal[24:]))


def compare(game: TwoHandedGame, seat: int, deal: TwoDeal) -> int:
    """Replay ``game``'s actions on ``deal``; the number of steps compared."""
    real = TwoHandedGame.new(game.rules, seed=game.seed, dealer=game.first_dealer,
                             deals=[game.dealt])
    twin = TwoHandedGame.new(game.rules, seed=game.seed, dealer=game.first_dealer,
                             deals=[deal])
    steps = 0
    for action in game.actions:
        for s in (seat, None):
            assert real.view(s) == twin.view(s), (seat, steps, str(action))
            assert real.view(s).to_dict() == twin.view(s).to_dict()
        actor = real.to_act
        real.apply(action)
        try:
            twin.apply(action)
        except IllegalActionError:
            assert actor != seat, f"seat {seat}'s own action {action} became illegal"
            return steps
        steps += 1
    assert real.view(seat) == twin.view(seat)
    return steps


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), dealer=st.integers(0, 1), length=st.integers(1, 60))
def test_views_hide_what_a_seat_cannot_see(seed: int, dealer: int, length: int) -> None:
    game = play_prefix(seed, dealer, length)
    rng = random.Random(seed + 1)
    for seat in (0, 1):
        compare(game, seat, alternative(game, seat, rng))


def test_the_comparison_finds_a_leak() -> None:
    """Sanity: a deal that changes a card the seat has seen is told apart at once."""
    game = play_prefix(3, 0, 30)
    first, second, rest = game.dealt
    own = list(first)
    swapped = (Hand.from_cards(list(second)[:1] + own[1:]),
               Hand.from_cards(own[:1] + list(second)[1:]), rest)
    if swapped[0] == first:
        return
    try:
        compare(game, 0, swapped)
    except AssertionError:
        return
    raise AssertionError("a changed hand went unnoticed")


def test_views_never_hold_the_opponents_hidden_cards() -> None:
    game = play_prefix(5, 1, 200)
    for seat in (0, 1):
        view = game.view(seat)
        data = view.to_dict()
        assert data["hand"] == str(game.hand(seat))
        assert "stock" not in data and data["stock_size"] == game.stock_size
        assert view.known[1 - seat].issuperset(Hand()) and len(view.known[1 - seat]) <= len(
            game.hand(1 - seat))
    assert parse_two_action("no meld") is not None
