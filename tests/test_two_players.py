"""Computer players, matches, demo and replay for the two-handed game (docs/rules.md §4, §5).

The players receive only a seat's :class:`~pinochlekit.TwoHandedView`; their
choices must be legal; ``standard`` draws no random numbers; ``pro``'s
simulations start from a position rebuilt from the view and a deal of the unseen
cards, which must reproduce the view exactly and hold every card once.
Strength is measured by real duplicate matches (seats swapped); the command line
is run as a subprocess.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from pinochlekit import Hand, TwoHandedGame, TwoStage
from pinochlekit.match import run_match
from pinochlekit.players import make_player
from pinochlekit.players.two.levels import rollout, sample_hidden, two_standard

DECK = Hand((1 << 24) - 1, (1 << 24) - 1)


@pytest.mark.parametrize("spec", ["easy", "standard", "pro(rollouts=40)"])
def test_players_play_legal_hands(spec: str) -> None:
    game = TwoHandedGame.new("two", seed=21)
    players = [make_player(spec, seed) for seed in (1, 2)]
    stages = set()
    while not game.results:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        action = players[seat].choose(view)
        assert action in view.legal_actions
        stages.add(game.stage)
        game.apply(action, seat)
    assert stages == {TwoStage.EARLY, TwoStage.MELD, TwoStage.LATE}
    assert sum(game.results[0].trick_points) == 250


def test_standard_is_a_function_of_the_view() -> None:
    game = TwoHandedGame.new("two", seed=8)
    rng = random.Random(8)
    for _ in range(70):
        view = game.view(game.to_act)
        assert two_standard(view) == two_standard(view)
        assert make_player("standard", 1).choose(view) == make_player("standard", 2).choose(view)
        game.apply(rng.choice(game.legal_actions()))


def test_positions_from_a_view_match_the_view() -> None:
    rng = random.Random(5)
    for seed in range(6):
        game = TwoHandedGame.new("two", seed=seed)
        for _ in range(rng.randrange(1, 55)):
            game.apply(rng.choice(game.legal_actions()))
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        opponent, stock = sample_hidden(view, rng)
        position = TwoHandedGame.from_view(view, opponent, stock)
        assert position.view(seat) == view
        cards = list(position.hand(0)) + list(position.hand(1)) + list(stock)
        cards += [c for t in view.tricks for c in t.cards] + [c for _, c in view.trick]
        if view.turn_up is not None:
            cards.append(view.turn_up)
        assert Hand.from_cards(cards) == DECK
        assert position.hand(1 - seat).issuperset(view.known[1 - seat])
        before = position.view(seat)
        value = rollout(position.copy(), seat)
        assert isinstance(value, int) and position.view(seat) == before


def test_standard_beats_easy_in_a_duplicate_match() -> None:
    result = run_match("standard", "easy", rules="two", deals=16, seed=3, workers=1)
    assert result.hands.n == 16 and result.hands.mean > 50


def pinochle(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pinochlekit", *args], capture_output=True,
                          text=True, timeout=300, check=False)


def test_demo_and_replay_tell_the_same_game(tmp_path: Path) -> None:
    record = tmp_path / "two.json"
    demo = pinochle("demo", "--rules", "two", "--seed", "3", "--players", "standard,easy",
                    "--record", str(record))
    assert demo.returncode == 0, demo.stderr
    lines = demo.stdout.splitlines()
    assert lines[0] == "game: rules two (two-handed), seed 3, first dealer seat 0"
    assert any(line.startswith("turned up: ") for line in lines)
    assert any("the stock is gone" in line for line in lines)
    assert lines[-1].startswith("winner: seat ")
    data = json.loads(record.read_text())
    assert data["rules"] == "two" and data["actions"]
    again = pinochle("replay", str(record))
    assert again.returncode == 0 and again.stdout == demo.stdout
    one = pinochle("replay", str(record), "--hand", "1")
    assert one.returncode == 0 and "== hand 2" not in one.stdout and "== hand 1" in one.stdout


def test_match_command_runs_two_handed() -> None:
    done = pinochle("match", "standard", "easy", "--rules", "two", "--deals", "4",
                    "--workers", "1", "--seed", "1")
    assert done.returncode == 0, done.stderr
    assert "rules two" in done.stdout and "points per hand, A minus B: +" in done.stdout


def test_sampler_deals_the_unseen_cards_uniformly() -> None:
    game = TwoHandedGame.new("two", seed=12)
    rng = random.Random(12)
    for _ in range(9):
        game.apply(rng.choice(game.legal_actions()))
    view = game.view(0)
    assert view.hand is not None
    known = view.known[1]
    known_hidden = known - Hand.from_cards(t.card for t in view.table[1])
    opponent, stock = sample_hidden(view, rng)
    need = len(opponent) - len(known_hidden)
    share = need / (need + len(stock))
    counts = [0] * 24
    draws = 3000
    for _ in range(draws):
        opponent, stock = sample_hidden(view, rng)
        assert opponent.issuperset(known_hidden)
        for card in opponent - known_hidden:
            counts[card] += 1
    played = view.played
    for kind in range(24):
        unseen = (2 - view.hand.count(kind) - played.count(kind) - known.count(kind)
                  - (view.turn_up == kind))
        expected = draws * unseen * share
        assert abs(counts[kind] - expected) <= 5 * (expected * (1 - share)) ** 0.5 + 1, kind
