"""Random two-handed games (STYLE.md, tests 4; docs/rules.md §4) under several option mixes.

A seeded random policy drives each hand through ``legal_actions()``. At every step:

* every card is accounted for: both hidden hands, both sides of the table, the
  stock, the turned-up card and the cards played make the whole deck;
* ``legal_actions`` agrees with ``is_legal`` over every card and every meld of
  the table; every legal action applies; illegal ones raise an
  ``IllegalActionError`` and leave the game exactly as it was;
* a seat's view holds its own cards and never the opponent's hidden ones;
* ``undo()`` and re-applying, ``copy()`` and the JSON record all round-trip.

At the end of each hand: the 48 cards were played once each, trick points total
250 (25 dividing by ten), each meld scored its table value, and each score is
meld plus trick points.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pinochlekit import (
    Action,
    Card,
    Dix,
    GameRecord,
    Hand,
    IllegalActionError,
    LayMeld,
    NoMeld,
    Play,
    Rules,
    TwoHandedGame,
    TwoStage,
    replay,
)
from pinochlekit.engine.meld import meld
from pinochlekit.engine.two.game import combinations

RULES = ["two", "two(must_beat=trump_led)", "two(meld_reuse=once)",
         "two(trick_points=counters, divide_by_ten=yes)", "two(must_beat=following, target=500)"]
DECK = Hand((1 << 24) - 1, (1 << 24) - 1)


def everything(game: TwoHandedGame) -> tuple[object, ...]:
    return (game.view(0), game.view(1), game.public_view(), game.record, game.hidden(0),
            game.hidden(1), game.stock_size, game.target, tuple(game.scores))


def accounted(game: TwoHandedGame) -> Hand:
    cards: list[int] = [*game.hidden(0), *game.hidden(1)]
    cards += [t.card for s in (0, 1) for t in game.table(s)]
    cards += game._stock[game._next:]
    if game.turn_up is not None:
        cards.append(game.turn_up)
    cards += [c for t in game.tricks for c in t.cards] + list(game.trick)
    return Hand.from_cards(cards)


def pool(game: TwoHandedGame) -> list[Action]:
    actions: list[Action] = [Play(Card(k)) for k in range(24)]
    actions += [LayMeld(cards) for _, _, cards in combinations(game.trump)]
    return [*actions, Dix(), NoMeld(), LayMeld((Card("9S"),))]


def check_step(game: TwoHandedGame, rng: random.Random) -> None:
    assert accounted(game) == DECK
    legal = game.legal_actions()
    assert len(set(legal)) == len(legal)
    for seat in (0, 1):
        view = game.view(seat)
        assert view.hand == game.hand(seat)
        assert view.legal_actions == (tuple(legal) if seat == game.to_act else ())
        assert len(view.known[1 - seat]) <= len(game.hand(1 - seat))
        assert all(view.known[s].issuperset(Hand.from_cards([t.card for t in view.table[s]]))
                   for s in (0, 1))
    assert game.public_view().hand is None
    illegal = [a for a in pool(game) if a not in legal]
    for action in pool(game):
        assert game.is_legal(action) == (action in legal), action
    before = everything(game)
    for action in rng.sample(illegal, min(3, len(illegal))):
        try:
            game.apply(action)
        except IllegalActionError:
            pass
        else:
            raise AssertionError(f"{action} applied though not legal")
        assert everything(game) == before
    other = 1 - game.to_act if game.to_act is not None else 0
    try:
        game.apply(legal[0], other)
    except IllegalActionError:
        pass
    else:
        raise AssertionError("an action out of turn applied")
    assert everything(game) == before


def check_hand(game: TwoHandedGame) -> None:
    result = game.results[-1]
    unit = game.rules.unit
    assert Hand.from_cards([c for t in result.tricks for c in t.cards]) == DECK
    assert len(result.tricks) == 24
    assert sum(result.trick_points) == 250 // unit
    assert sum(t.points for t in result.tricks) == 250 // unit
    assert result.tricks[-1].points >= 10 // unit
    values = {"dix turned up": 10, "dix exchanged": 10, "dix": 10, "run": 150,
              "royal marriage": 40, "common marriage": 20, "aces around": 100,
              "kings around": 80, "queens around": 60, "jacks around": 40, "pinochle": 40}
    for seat in (0, 1):
        events = [e for e in result.events if e.seat == seat]
        assert all(e.points == values[e.name] // unit for e in events)
        assert result.meld_points[seat] == sum(e.points for e in events)
        assert result.scores[seat] == result.meld_points[seat] + result.trick_points[seat]
        # Each laid meld is one combination whose cards meld() scores at its value.
        for e in events:
            if not e.name.startswith("dix"):
                assert meld(e.cards, result.trump, game.rules).points == e.points


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(RULES), dealer=st.integers(0, 1))
def test_random_hands(seed: int, rules: str, dealer: int) -> None:
    rng = random.Random(seed)
    game = TwoHandedGame.new(Rules.from_string(rules), seed=seed, dealer=dealer)
    hands = 0
    while hands < 2 and game.winner is None:
        check_step(game, rng)
        legal = game.legal_actions()
        if game.stage is TwoStage.MELD and rng.random() < 0.3:
            action = legal[-1]
        else:
            action = rng.choice(legal)
        if rng.random() < 0.1:
            snapshot = everything(game)
            game.apply(action)
            assert game.undo() == action
            assert everything(game) == snapshot
        copy = game.copy()
        game.apply(action)
        if rng.random() < 0.05:
            assert everything(copy) != everything(game)
            copy.apply(action)
            assert everything(copy) == everything(game)
        if len(game.results) > hands:
            hands += 1
            check_hand(game)
    again = replay(GameRecord.from_json(game.record.to_json()))
    assert isinstance(again, TwoHandedGame)
    assert everything(again) == everything(game)


def test_whole_games_end_at_the_target() -> None:
    for seed in range(3):
        rng = random.Random(seed)
        game = TwoHandedGame.new("two", seed=seed)
        while game.winner is None:
            game.apply(rng.choice(game.legal_actions()))
        winner = game.winner
        assert game.scores[winner] >= game.target > game.scores[1 - winner]
        assert game.target in (1000, 1250, 1500, 1750)
        assert all(r.totals == tuple(sum(x.scores[s] for x in game.results[:i + 1])
                                     for s in (0, 1)) for i, r in enumerate(game.results))
