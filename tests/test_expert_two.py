"""The two-handed ``expert`` (docs/two-handed.md **expert**, players/two/).

- the last-tricks solver (Python and C) against a plain minimax written here
  over the real engine (``TwoHandedGame.copy`` / ``apply``), on random positions
  of the last tricks under every must-beat option and trick-point scale;
- whole hands played legally (every action through the checked ``apply``) and
  deterministically (same seeds, same record);
- decisions from the view only: positions that differ only in the opponent's
  hidden cards and the stock order give the expert the same view and the same
  action; ``explain`` names every option and leaves the player unchanged.
"""

from __future__ import annotations

import random

import pytest

from pinochlekit import Hand, Rules, TwoHandedGame, TwoStage
from pinochlekit.engine.actions import PLAYS, Play
from pinochlekit.players import make_player
from pinochlekit.players.two.expert import deal_sampler, decide, late_values
from pinochlekit.players.two.levels import sample_hidden
from pinochlekit.players.two.solver import LateSolver, native_solver

VARIANTS = ["two", "two(must_beat=trump_led)", "two(must_beat=following)",
            "two(trick_points=counters)", "two(trick_points=fives)"]


def plain_minimax(game: TwoHandedGame, seat: int, finished: int) -> int:
    """``seat``'s trick points of the hand minus the opponent's, both playing their
    best from ``game`` on: every legal card tried on a copy of the real game."""
    if len(game.results) > finished:
        points = game.results[-1].trick_points
        return points[seat] - points[1 - seat]
    outcomes = []
    for action in game.legal_actions():
        after = game.copy()
        after.apply(action)
        outcomes.append(plain_minimax(after, seat, finished))
    return max(outcomes) if game.to_act == seat else min(outcomes)


def late_position(rules: str, seed: int, tricks_left: int, mid_trick: bool) -> TwoHandedGame:
    """A random game played (random legal actions) into the last tricks, with
    ``tricks_left`` tricks to play, the first card of one played if ``mid_trick``."""
    rng = random.Random(seed)
    game = TwoHandedGame.new(rules, seed=seed)
    while not (game.stage is TwoStage.LATE and len(game.hand(0)) == tricks_left
               and len(game.hand(1)) == tricks_left):
        game.apply(rng.choice(game.legal_actions()))
    if mid_trick:
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("rules", VARIANTS)
def test_solver_equals_plain_minimax(rules: str) -> None:
    checked = 0
    for seed in range(8):
        game = late_position(rules, seed, 3 + seed % 3, mid_trick=seed % 2 == 1)
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        meld = view.meld_points[seat] - view.meld_points[1 - seat]
        values = late_values(view)
        assert set(values) == {a.card for a in game.legal_actions() if isinstance(a, Play)}
        for card, value in values.items():
            after = game.copy()
            after.apply(PLAYS[card])
            assert value == meld + plain_minimax(after, seat, len(game.results)), (
                rules, seed, str(PLAYS[card]))
            checked += 1
    assert checked >= 16


@pytest.mark.skipif(native_solver() is None, reason="the C solver is not built")
@pytest.mark.parametrize("rules", VARIANTS)
def test_c_solver_equals_python_solver(rules: str) -> None:
    """The C search against the Python one on whole last-trick phases (12 tricks
    down to 6), both lead and follow positions."""
    parsed = Rules.from_string(rules)
    for seed in range(6):
        game = late_position(rules, 100 + seed, 12 - seed, mid_trick=seed % 2 == 0)
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        trump = int(game.trump)
        python = LateSolver(parsed, trump, native=False)
        fast = LateSolver(parsed, trump)
        assert late_values(view, python) == late_values(view, fast)
        if not game.trick:
            own, other = game.hand(seat), game.hand(1 - seat)
            assert python.value(own, other) == fast.value(own, other) == max(
                python.lead_values(own, other).values())


def test_late_values_see_the_trick_and_the_last_trick_bonus() -> None:
    # Hand-made: trump spades; seat to follow holds AS 9H against a led TS, the
    # leader keeps AH. Taking TS with AS (21) then leading 9H into AH (11 + 10):
    # 0; the only legal card is AS (must follow and beat).
    solver = LateSolver(Rules.preset("two"), trump=0)
    values = solver.follow_values(4, Hand.parse("TS AH"), Hand.parse("AS 9H"))
    assert values == {5: 0}
    assert solver.lead_values(Hand.parse("AS 9H"), Hand.parse("TS AH")) == {5: 0, 6: 20}


def play_hand(specs: tuple[str, str], seed: int) -> TwoHandedGame:
    game = TwoHandedGame.new("two", seed=seed)
    players = [make_player(spec, f"{seed}/{seat}") for seat, spec in enumerate(specs)]
    while not game.results:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        action = players[seat].choose(view)
        assert action in view.legal_actions
        game.apply(action, seat)  # checked: an illegal action raises
    return game


def test_expert_plays_legal_deterministic_hands() -> None:
    first = play_hand(("expert(time=0.02)", "pro(rollouts=40)"), 3)
    again = play_hand(("expert(time=0.02)", "pro(rollouts=40)"), 3)
    assert first.record == again.record
    assert sum(first.results[0].trick_points) == 250
    other = play_hand(("pro(rollouts=40)", "expert(time=0.02)"), 4)
    assert sum(other.results[0].trick_points) == 250


def test_expert_plays_a_whole_game() -> None:
    game = TwoHandedGame.new("two", seed=12)
    players = [make_player("expert(time=0.01)", 1), make_player("standard", 2)]
    while game.winner is None:
        seat = game.to_act
        assert seat is not None
        game.apply(players[seat].choose(game.view(seat)), seat)
    assert len(game.results) >= 2 and max(game.scores) >= 1000


def test_decisions_use_the_view_only() -> None:
    """Two positions that differ only in the opponent's hidden cards and the stock
    order: the same view, the same decision (in every stage)."""
    rng = random.Random(9)
    compared = set()
    for seed in range(4):
        game = TwoHandedGame.new("two", seed=seed)
        while not game.results:
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            if rng.random() < 0.25 and len(view.legal_actions) > 1:
                opponent, stock = sample_hidden(view, rng)
                twin = TwoHandedGame.from_view(view, opponent, stock)
                assert twin.view(seat) == view
                differs = (twin.hidden(1 - seat) != game.hidden(1 - seat)
                           or twin._stock[:len(stock)] != game._stock[game._next:])
                if differs or game.stage is TwoStage.LATE:
                    mine = make_player("expert(time=0.02)", 5).choose(view)
                    theirs = make_player("expert(time=0.02)", 5).choose(twin.view(seat))
                    assert mine == theirs
                    compared.add(game.stage)
            game.apply(rng.choice(game.legal_actions()))
    assert compared == {TwoStage.EARLY, TwoStage.MELD, TwoStage.LATE}


def test_fixed_deals_differing_in_hidden_cards_give_the_same_first_decision() -> None:
    deck = TwoHandedGame.new("two", seed=31).dealt
    dealer_hand, leader_hand, rest = deck
    # Swap the dealer's first card with a stock card: the leader (seat 1) sees nothing.
    hidden = list(dealer_hand)
    stock = list(rest)
    swap = next(i for i in range(1, 24) if stock[i] != hidden[0])
    hidden[0], stock[swap] = stock[swap], hidden[0]
    other = (Hand.from_cards(hidden), leader_hand, tuple(stock))
    games = [TwoHandedGame.new("two", seed=31, deals=[deal]) for deal in (deck, other)]
    assert games[0].hidden(0) != games[1].hidden(0)
    views = [g.view(1) for g in games]
    assert views[0] == views[1]
    choices = [make_player("expert(time=0.05)", 2).choose(v) for v in views]
    assert choices[0] == choices[1]


def test_explain_names_every_option_and_changes_nothing() -> None:
    game = TwoHandedGame.new("two", seed=6)
    view = game.view(game.to_act)
    player = make_player("expert(time=0.05)", 4)
    text = player.explain(view)
    assert text is not None
    for action in view.legal_actions:
        assert str(action.card) in text  # type: ignore[attr-defined]
    assert ".." in text and "mean hand score" in text
    assert player.choose(view) == make_player("expert(time=0.05)", 4).choose(view)
    decision = decide(view, random.Random(1), 0.05)
    assert set(decision.options) == {str(a.card) for a in view.legal_actions}  # type: ignore[attr-defined]


def test_the_deal_sampler_draws_as_sample_hidden() -> None:
    game = TwoHandedGame.new("two", seed=2)
    rng = random.Random(2)
    for _ in range(30):
        game.apply(rng.choice(game.legal_actions()))
    view = game.view(game.to_act)
    ours, theirs = random.Random(7), random.Random(7)
    draw = deal_sampler(view, ours)
    for _ in range(20):
        assert draw() == sample_hidden(view, theirs)


def test_draws_then_solve_values_the_last_tricks_exactly() -> None:
    """Near the end of the stock the expert values each deal by the exact last
    tricks: at the last meld turn (the draw that empties the stock comes next),
    that value is the best exact value of the first last-tricks position."""
    from pinochlekit.players.two.expert import _solved_values

    rng = random.Random(4)
    checked = 0
    for seed in range(3):
        game = TwoHandedGame.new("two", seed=seed)
        while not (game.stage is TwoStage.MELD and game.stock_size == 2):
            game.apply(rng.choice(game.legal_actions()))
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        deals = [sample_hidden(view, rng) for _ in range(3)]
        for action in view.legal_actions:
            values = _solved_values(view, action, deals)
            for (opponent, stock), value in zip(deals, values, strict=True):
                after = TwoHandedGame.from_view(view, opponent, stock)
                after.apply(action)
                if after.stage is not TwoStage.LATE:  # the dix: the meld turn goes on
                    continue
                leader = after.to_act
                assert leader is not None
                best = max(late_values(after.view(leader)).values())
                assert value == (best if leader == seat else -best)
                checked += 1
    assert checked >= 6
