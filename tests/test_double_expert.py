"""``skilled`` and ``expert`` in the double deck (players/double/expert.py, solver.py).

Whole seeded hands where every decision must be legal (with passing and under the
must-beat options of docs/rules.md §2), the same choices from the same seeds, a
decision that never changes with cards the seat cannot see, the exact endgame
solver against a plain minimax written differently, and ``pinochle match`` and
``demo`` seating them for real.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import pytest
from test_cli import ok
from test_double_information import other_deal, play_prefix

from pinochlekit import IllegalActionError
from pinochlekit.engine.actions import Action
from pinochlekit.engine.double.game import COUNTER_POINTS, LAST_TRICK, DoubleDeckGame
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.tricks import follow_mask, play_flags, winner_index
from pinochlekit.engine.views import Phase
from pinochlekit.players import make_player, plays
from pinochlekit.players.base import Player
from pinochlekit.players.double import DOUBLE_LEVELS
from pinochlekit.players.double.solver import solve_values

RULES = ["doubledeck", "doubledeck(cards_passed=4)",
         "doubledeck(must_beat=trump_led, cards_passed=2)",
         "doubledeck(must_beat=following, trump_follows_trump=yes, first_lead=trump)"]
FAST = "expert(time=0.05)"


def play_hand(game: DoubleDeckGame, players: Sequence[Player]) -> list[Action]:
    """Play one hand, checking every decision is legal; the actions taken."""
    taken = []
    while not game.results:
        seat = game.to_act
        assert seat is not None
        action = players[seat].choose(game.view(seat))
        assert action in game.legal_actions(), (seat, action, game.phase)
        game.apply(action, seat)
        taken.append(action)
    return taken


def test_the_levels_list() -> None:
    assert {"skilled", "expert"} <= set(DOUBLE_LEVELS)
    double = Rules.preset("doubledeck")
    assert plays("expert(time=0.2)", double) and plays("skilled", double)
    assert not plays("simple", double) and plays("simple", Rules.preset("pagat"))


@pytest.mark.parametrize("rules", RULES)
def test_every_decision_is_legal(rules: str) -> None:
    """expert and skilled against pro and each other, passing and must-beat options."""
    for seed, specs in enumerate([(FAST, "pro", FAST, "pro"),
                                  ("skilled", FAST, "skilled", "standard")]):
        game = DoubleDeckGame.new(rules, seed=seed, dealer=seed)
        play_hand(game, [make_player(spec, seed * 4 + s) for s, spec in enumerate(specs)])
        assert game.results[0].declarer is not None


def test_the_default_expert_plays_a_hand() -> None:
    game = DoubleDeckGame.new("doubledeck", seed=9)
    play_hand(game, [make_player("expert", 1), make_player("skilled", 2),
                     make_player("easy", 3), make_player("skilled", 4)])


def test_seeded_determinism_and_explain_changes_nothing() -> None:
    """The same seeds give the same hand; asking for explanations in between does not
    change a single choice."""
    def run(explain: bool) -> list[Action]:
        game = DoubleDeckGame.new("doubledeck(cards_passed=4)", seed=21)
        players = [make_player(FAST if s % 2 else "skilled", s) for s in range(4)]
        taken = []
        while not game.results:
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            if explain:
                text = players[seat].explain(view)
                assert text
            action = players[seat].choose(view)
            game.apply(action, seat)
            taken.append(action)
        return taken

    first = run(False)
    assert run(False) == first
    assert run(True) == first


@pytest.mark.parametrize("seed", [3, 4, 5, 6, 7, 8])
def test_a_decision_never_depends_on_hidden_cards(seed: int) -> None:
    """Two games that differ only in cards the seat cannot see (the other seats'
    unseen cards reshuffled among them) give the seat the same view, and a player
    seeded alike makes the same decision, with the same explanation."""
    rules = RULES[seed % len(RULES)]
    rng = random.Random(seed)
    compared = 0
    for length in (1, 3, 30, 50, 75):
        game = play_prefix(seed, rules, length)
        seat = game.to_act
        if seat is None or game.hand_number != 1:
            continue  # the hand is over: game.dealt is the next deal's
        alt = DoubleDeckGame.new(game.rules, seed=game.seed, dealer=game.first_dealer,
                                 deals=[other_deal(game, seat, rng)])
        try:
            for action in game.actions:
                alt.apply(action)
        except IllegalActionError:
            continue
        if alt.view(seat) != game.view(seat):
            continue
        if [alt.hand(s) for s in range(4)] == [game.hand(s) for s in range(4)]:
            continue
        for spec in ("skilled", FAST):
            one, two = make_player(spec, 7), make_player(spec, 7)
            assert one.explain(game.view(seat)) == two.explain(alt.view(seat))
            assert one.choose(game.view(seat)) == two.choose(alt.view(seat))
        compared += 1
    assert compared >= 2


def minimax(hands: list[list[int]], cards: list[int], seats: list[int], turn: int,
            trump: int, team: int, flags: tuple[bool, bool, bool, bool]) -> int:
    """Points ``team`` takes from here under perfect play: every line searched, no
    pruning, no table (the slow reference)."""
    if len(cards) == 4:
        winner = seats[winner_index(cards, trump)]
        points = sum(COUNTER_POINTS[c] for c in cards)
        mine = points if winner % 2 == team else 0
        if not any(sum(h) for h in hands):
            return mine + (LAST_TRICK if winner % 2 == team else 0)
        return mine + minimax(hands, [], [], winner, trump, team, flags)
    held = sum(1 << k for k in range(24) if hands[turn][k])
    legal = held if not cards else follow_mask(
        held, cards[0] // 6, cards[winner_index(cards, trump)], trump, flags)
    values = []
    for card in range(24):
        if legal >> card & 1:
            hands[turn][card] -= 1
            values.append(minimax(hands, [*cards, card], [*seats, turn], (turn + 1) % 4,
                                  trump, team, flags))
            hands[turn][card] += 1
    return max(values) if turn % 2 == team else min(values)


@pytest.mark.parametrize("seed", range(6))
def test_the_solver_matches_plain_minimax(seed: int) -> None:
    """Random positions of the last two or three tricks (part of a trick played):
    the solver's value of every legal card is the plain minimax value."""
    game = play_prefix(seed, RULES[seed % len(RULES)], 10_000)
    replay = DoubleDeckGame.new(game.rules, seed=game.seed, dealer=game.first_dealer)
    stop = 17 + seed % 2
    for action in game.actions:
        if replay.phase is Phase.PLAY and len(replay.tricks) == stop and \
                len(replay.trick) == seed % 3:
            break
        replay.apply(action)
    seat = replay.to_act
    assert seat is not None and replay.trump is not None
    hands = [replay.kind_counts(s) for s in range(4)]
    trick = [(s, int(c)) for s, c in replay.view(None).trick]
    flags = play_flags(replay.rules)
    values = solve_values(hands, trick, int(replay.trump), seat, flags)
    assert set(values) == {a.card for a in replay.legal_actions()}  # type: ignore[attr-defined]
    for card, (ours, theirs) in values.items():
        hands[seat][card] -= 1
        cards = [c for _, c in trick] + [card]
        seats = [s for s, _ in trick] + [seat]
        expected = minimax(hands, cards, seats, (seat + 1) % 4, int(replay.trump), seat % 2,
                           flags)
        hands[seat][card] += 1
        assert ours == expected
        left = sum(COUNTER_POINTS[k] * n for h in hands for k, n in enumerate(h))
        assert ours + theirs == left + sum(COUNTER_POINTS[c] for _, c in trick) + LAST_TRICK


def test_expert_solves_the_last_tricks() -> None:
    game = play_prefix(2, "doubledeck", 10_000)
    replay = DoubleDeckGame.new(game.rules, seed=game.seed, dealer=game.first_dealer)
    expert = make_player(FAST, 1)
    said = []
    for action in game.actions:
        if replay.phase is Phase.PLAY and len(replay.tricks) >= 17 and \
                len(replay.legal_actions()) > 1:
            seat = replay.to_act
            assert seat is not None
            said.append(expert.explain(replay.view(seat)) or "")
        replay.apply(action)
    assert said and all("solved exactly" in text for text in said)


def test_match_and_demo_seat_them() -> None:
    """``pinochle match expert pro --rules doubledeck`` and a demo of skilled/expert."""
    data = json.loads("\n".join(ok("match", FAST, "skilled", "--rules", "doubledeck",
                                   "--deals", "1", "--seed", "3", "--json", "--quiet")))
    assert data["deal_pairs"] == 1
    lines = ok("demo", "--rules", "doubledeck", "--players", f"skilled,{FAST},skilled,{FAST}",
               "--seed", "2", "--max-hands", "1")
    assert any(line.startswith("contract: seat") for line in lines)


def test_the_sampler_never_deals_a_meld_that_was_not_shown() -> None:
    """docs/rules.md §6 meld: every seat shows its whole meld, so the samples give no
    other seat a hand (at the meld: now plus what it played) scoring more than it
    showed. The real deal agrees; drawn without the filter, some deals do not."""
    from pinochlekit.players.double.sampler import DoubleSampler, double_knowledge

    checked = raw_disagree = 0
    for seed in range(12):
        game = play_prefix(seed, "doubledeck", 45)
        if game.phase is not Phase.PLAY:
            continue
        for seat in range(4):
            knowledge = double_knowledge(game.view(seat))
            assert knowledge.meld_agrees([list(game.hand(s).counts) for s in range(4)])
            sampler = DoubleSampler(knowledge)
            rng = random.Random(seed)
            raw_disagree += sum(not knowledge.meld_agrees(sampler.sample(rng))
                                for _ in range(20))
            for hands in sampler.samples(rng, 10):
                assert knowledge.meld_agrees(hands), (seed, seat)
                checked += 1
    assert checked >= 40 and raw_disagree > 0
