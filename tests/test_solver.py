"""The endgame solver (players/solver.py and the C _solver) against a plain minimax.

The reference below is written differently on purpose: it plays cards through
the engine's own :func:`pinochlekit.engine.tricks.legal_mask`, tries every distinct
kind (no equivalence pruning, no table, no alpha-beta) and scores tricks with
:func:`pinochlekit.engine.tricks.card_points`. Random endgames of two to five tricks,
with and without a trick in progress, under presets whose play rules differ.
"""

from __future__ import annotations

import random

import pytest

from pinochlekit.engine.cards import Hand
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.tricks import card_points, legal_mask, winner_index
from pinochlekit.players.search.solver import Endgame, card_values, native_solver, solve

PRESETS = ["pagat", "modern", "stonebridge", "family1000"]


def minimax(rules: Rules, trump: int, hands: list[list[int]], trick: list[tuple[int, int]],
            seat: int, team: int) -> int:
    """Trick points of ``team`` from here, every card known, by exhaustive search.
    ``hands`` are lists of cards (a kind twice if held twice)."""
    points = card_points(rules)
    cards = [c for _, c in trick]
    legal = legal_mask(sum(1 << c for c in set(hands[seat])), cards, trump, rules)
    results = []
    for card in sorted(set(hands[seat])):
        if not legal >> card & 1:
            continue
        hand = list(hands[seat])
        hand.remove(card)
        after = [hand if s == seat else h for s, h in enumerate(hands)]
        played = [*trick, (seat, card)]
        if len(played) < 4:
            value = minimax(rules, trump, after, played, (seat + 1) % 4, team)
        else:
            winner = played[winner_index([c for _, c in played], trump)][0]
            won = sum(points[c] for _, c in played)
            if not after[winner]:
                won += 10 // rules.unit
            rest = minimax(rules, trump, after, [], winner, team) if after[winner] else 0
            value = rest + (won if winner % 2 == team else 0)
        results.append(value)
    return max(results) if seat % 2 == team else min(results)


def random_endgame(rng: random.Random, rules: Rules, tricks: int
                   ) -> tuple[int, list[list[int]], list[tuple[int, int]], int]:
    """Random hands of ``tricks`` cards (from a 48-card deck), then 0-3 random
    legal plays into the first trick."""
    deck = [k for k in range(24) for _ in range(2)]
    rng.shuffle(deck)
    hands = [sorted(deck[i * tricks:(i + 1) * tricks]) for i in range(4)]
    trump = rng.randrange(4)
    leader = rng.randrange(4)
    trick: list[tuple[int, int]] = []
    for i in range(rng.randrange(4)):
        seat = (leader + i) % 4
        legal = legal_mask(sum(1 << c for c in set(hands[seat])), [c for _, c in trick], trump,
                           rules)
        card = rng.choice([c for c in hands[seat] if legal >> c & 1])
        hands[seat].remove(card)
        trick.append((seat, card))
    return trump, hands, trick, (leader + len(trick)) % 4


def _endgame(trump: int, hands: list[list[int]], trick: list[tuple[int, int]],
             seat: int) -> Endgame:
    return Endgame(trump, tuple(Hand.from_cards(h) for h in hands), seat, tuple(trick))


@pytest.mark.parametrize("preset", PRESETS)
def test_solver_agrees_with_minimax(preset: str) -> None:
    rules = Rules.preset(preset)
    rng = random.Random(f"solver/{preset}")
    natives = [False, True] if native_solver() is not None else [False]
    for case in range(36):
        tricks = 2 + case % 3
        trump, hands, trick, seat = random_endgame(rng, rules, tricks)
        end = _endgame(trump, hands, trick, seat)
        for team in (0, 1):
            expected = minimax(rules, trump, hands, trick, seat, team)
            for native in natives:
                assert solve(rules, end, team, native=native) == expected, (
                    preset, case, team, native, hands, trick)


def test_solver_agrees_with_minimax_at_five_tricks() -> None:
    """The depth expert uses at its default budget (``solver_tricks`` 5): positions of
    five tricks with the first trick begun (a lead from a full five-card position
    can take plain minimax many seconds), both solvers against plain minimax."""
    rules = Rules.preset("pagat")
    rng = random.Random("solver/five")
    natives = [False, True] if native_solver() is not None else [False]
    checked = 0
    while checked < 8:
        trump, hands, trick, seat = random_endgame(rng, rules, 5)
        if not trick:
            continue
        end = _endgame(trump, hands, trick, seat)
        expected = minimax(rules, trump, hands, trick, seat, seat % 2)
        for native in natives:
            assert solve(rules, end, seat % 2, native=native) == expected, (hands, trick)
        checked += 1


@pytest.mark.parametrize("preset", ["pagat", "family1000"])
def test_card_values_agree_with_minimax(preset: str) -> None:
    rules = Rules.preset(preset)
    rng = random.Random(f"values/{preset}")
    for _ in range(25):
        trump, hands, trick, seat = random_endgame(rng, rules, 3)
        end = _endgame(trump, hands, trick, seat)
        team = seat % 2
        python = card_values(rules, end, team, native=False)
        for card, value in python.items():
            hand = list(hands[seat])
            hand.remove(card)
            after = [hand if s == seat else h for s, h in enumerate(hands)]
            played = [*trick, (seat, card)]
            if len(played) < 4:
                expected = minimax(rules, trump, after, played, (seat + 1) % 4, team)
            else:
                expected = _score_full(rules, trump, after, played, team)
            assert value == expected
        if native_solver() is not None:
            assert card_values(rules, end, team) == python
        assert max(python.values()) == solve(rules, end, team, native=False)


def _score_full(rules: Rules, trump: int, hands: list[list[int]],
                played: list[tuple[int, int]], team: int) -> int:
    points = card_points(rules)
    winner = played[winner_index([c for _, c in played], trump)][0]
    won = sum(points[c] for _, c in played) + (0 if hands[winner] else 10 // rules.unit)
    rest = minimax(rules, trump, hands, [], winner, team) if hands[winner] else 0
    return rest + (won if winner % 2 == team else 0)


def test_native_matches_python_on_deeper_endgames() -> None:
    if native_solver() is None:
        pytest.fail("the C solver is not built (pip install -e .)")
    rules = Rules()
    rng = random.Random("deep")
    for _ in range(8):
        trump, hands, trick, seat = random_endgame(rng, rules, 5)
        end = _endgame(trump, hands, trick, seat)
        assert solve(rules, end, 0) == solve(rules, end, 0, native=False)


def test_the_two_teams_share_every_point() -> None:
    rules = Rules()
    rng = random.Random("total")
    for _ in range(30):
        trump, hands, trick, seat = random_endgame(rng, rules, 4)
        end = _endgame(trump, hands, trick, seat)
        total = sum(card_points(rules)[c] for h in hands for c in h)
        total += sum(card_points(rules)[c] for _, c in trick) + 10
        # Zero-sum: what one team secures against best defence, the other concedes.
        assert solve(rules, end, 0) + solve(rules, end, 1) == total


def test_bad_input_is_a_clear_error() -> None:
    end = Endgame(0, (Hand(),) * 4, 0)
    with pytest.raises(ValueError, match="holds no card"):
        solve(Rules(), end, 0)
    with pytest.raises(ValueError, match="team"):
        solve(Rules(), Endgame(0, (Hand.parse("AS"),) * 4, 0), 2)


# -- three-handed (docs/rules.md §3): the declarer alone against the two defenders ----------


def minimax_three(rules: Rules, trump: int, hands: list[list[int]],
                  trick: list[tuple[int, int]], seat: int, declarer: int, side: int) -> int:
    """Trick points of ``side`` (True: the declarer, False: the two defenders together)
    from here, by exhaustive search over three seats playing in turn."""
    points = card_points(rules)
    legal = legal_mask(sum(1 << c for c in set(hands[seat])), [c for _, c in trick], trump,
                       rules)
    results = []
    for card in sorted(set(hands[seat])):
        if not legal >> card & 1:
            continue
        hand = list(hands[seat])
        hand.remove(card)
        after = [hand if s == seat else h for s, h in enumerate(hands)]
        played = [*trick, (seat, card)]
        if len(played) < 3:
            value = minimax_three(rules, trump, after, played, (seat + 1) % 3, declarer, side)
        else:
            winner = played[winner_index([c for _, c in played], trump)][0]
            won = sum(points[c] for _, c in played)
            if not after[winner]:
                won += 10 // rules.unit
            rest = (minimax_three(rules, trump, after, [], winner, declarer, side)
                    if after[winner] else 0)
            value = rest + (won if (winner == declarer) == side else 0)
        results.append(value)
    return max(results) if (seat == declarer) == side else min(results)


def random_three(rng: random.Random, rules: Rules, tricks: int
                 ) -> tuple[int, list[list[int]], list[tuple[int, int]], int, int]:
    """Three random hands of ``tricks`` cards, 0-2 random legal plays into the
    first trick, a random declarer."""
    deck = [k for k in range(24) for _ in range(2)]
    rng.shuffle(deck)
    hands = [sorted(deck[i * tricks:(i + 1) * tricks]) for i in range(3)]
    trump, leader, declarer = rng.randrange(4), rng.randrange(3), rng.randrange(3)
    trick: list[tuple[int, int]] = []
    for i in range(rng.randrange(3)):
        seat = (leader + i) % 3
        legal = legal_mask(sum(1 << c for c in set(hands[seat])), [c for _, c in trick], trump,
                           rules)
        card = rng.choice([c for c in hands[seat] if legal >> c & 1])
        hands[seat].remove(card)
        trick.append((seat, card))
    return trump, hands, trick, (leader + len(trick)) % 3, declarer


@pytest.mark.parametrize("preset", ["three", "three(widow=take)",
                                    "three(trick_points=classic, first_lead=trump, "
                                    "trump_follows_trump=yes)"])
def test_three_handed_solver_agrees_with_minimax(preset: str) -> None:
    rules = Rules.from_string(preset)
    rng = random.Random(f"three/{preset}")
    natives = [False, True] if native_solver() is not None else [False]
    for case in range(30):
        trump, hands, trick, seat, declarer = random_three(rng, rules, 2 + case % 3)
        end = Endgame(trump, tuple(Hand.from_cards(h) for h in hands), seat, tuple(trick),
                      declarer=declarer)
        total = sum(card_points(rules)[c] for h in hands for c in h)
        total += sum(card_points(rules)[c] for _, c in trick) + 10 // rules.unit
        for team in range(3):
            expected = minimax_three(rules, trump, hands, trick, seat, declarer,
                                     team == declarer)
            for native in natives:
                assert solve(rules, end, team, native=native) == expected, (
                    preset, case, team, native, hands, trick)
            values = card_values(rules, end, team, native=False)
            assert (max if (seat == declarer) == (team == declarer) else min)(
                values.values()) == expected
            if native_solver() is not None:
                assert card_values(rules, end, team) == values
        # The two sides share every point that is left.
        defender = (declarer + 1) % 3
        assert solve(rules, end, declarer) + solve(rules, end, defender) == total


def test_three_handed_bad_input() -> None:
    hands = (Hand.parse("AS"),) * 3
    with pytest.raises(ValueError, match="declarer"):
        solve(Rules.preset("three"), Endgame(0, hands, 0), 0)
    with pytest.raises(ValueError, match="team"):
        solve(Rules.preset("three"), Endgame(0, hands, 0, declarer=1), 3)
    with pytest.raises(ValueError, match="seats 0-2"):
        solve(Rules.preset("three"), Endgame(0, hands, 3, declarer=1), 0)


def test_the_c_search_agrees_with_python_deeper_and_within_a_budget() -> None:
    """Seven-trick endgames (beyond plain minimax's reach): the C search (move ordering,
    zero-window searches, two-slot table) gives the Python search's value. Within a
    budget of positions: enough gives the same value and the same count every time;
    too few gives None, and the exact search right after an abandoned one is still
    right (the bounds the abandoned search stored are dropped)."""
    from pinochlekit.players.search.solver import solve_within

    if native_solver() is None:
        pytest.skip("the C solver is not built (PINOCHLEKIT_PURE_PYTHON)")
    rules = Rules.preset("pagat")
    rng = random.Random("solver/seven")
    for _ in range(6):
        trump, hands, trick, seat = random_endgame(rng, rules, 7)
        end = _endgame(trump, hands, trick, seat)
        expected = solve(rules, end, seat % 2, native=False)
        assert solve(rules, end, seat % 2) == expected, (hands, trick)
        value, searched = solve_within(rules, end, seat % 2, 10**9)
        assert value == expected and searched > 1
        assert solve_within(rules, end, seat % 2, 10**9) == (value, searched)
        short, counted = solve_within(rules, end, seat % 2, max(1, searched // 10))
        assert short is None and counted > max(1, searched // 10)
        assert solve(rules, end, 1 - seat % 2) == solve(rules, end, 1 - seat % 2,
                                                         native=False)
        assert solve(rules, end, seat % 2) == expected
    with pytest.raises(ValueError, match="positions"):
        solve_within(rules, end, 0, 0)
