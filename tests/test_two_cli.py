"""Records, replay and the ``pinochle`` command line for the three- and two-handed games.

Records round-trip through JSON and replay to the same game for every kind of
game; ``GameRecord.replay`` refuses a two-handed record with a clear error
pointing to ``pinochlekit.replay``; ``pinochle replay`` tells a two-handed record
file exactly as the demo that wrote it; ``pinochle meld --rules two`` scores one
meld per won trick, checked against every order of lays the engine itself
accepts; ``pinochle legal --rules two`` gives the engine's legal cards in the last
tricks and every card with ``--early``; ``--rules three`` takes a trick of two
cards. The commands run for real as ``python -m pinochlekit``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from test_cli import ok, pinochle

from pinochlekit import replay
from pinochlekit.engine.cards import ALL_CARDS, Card, Hand, Suit, parse_cards
from pinochlekit.engine.double.game import DoubleDeckGame
from pinochlekit.engine.errors import RecordError
from pinochlekit.engine.game import Game
from pinochlekit.engine.games import new_game
from pinochlekit.engine.meld import meld
from pinochlekit.engine.record import GameRecord
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.two.game import TwoHandedGame
from pinochlekit.engine.two.meld import best_two_meld
from pinochlekit.engine.two.views import TwoStage
from pinochlekit.players import SimplePlayer

TWO = Rules.preset("two")


def played(rules: str, seed: int, actions: int) -> Game | TwoHandedGame | DoubleDeckGame:
    """A game after ``actions`` actions of simple players (or to its end)."""
    game = new_game(rules, seed=seed)
    players = [SimplePlayer(s) for s in range(game.rules.players)]
    while game.winner is None and len(game.actions) < actions:
        seat = game.to_act
        assert seat is not None
        game.apply(players[seat].choose(game.view(seat)), seat)
    return game


# -- records ------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["two", "two(target=300)", "three", "three(widow=take)",
                                   "pagat"])
@pytest.mark.parametrize("actions", [0, 37, 10_000])
def test_record_json_replay_round_trip(rules: str, actions: int) -> None:
    game = played(rules, 8, actions)
    record = GameRecord.from_json(game.record.to_json())
    assert record == game.record
    again = replay(record)
    assert type(again) is type(game)
    assert again.record == game.record and again.scores == game.scores
    assert again.winner == game.winner and len(again.results) == len(game.results)
    for seat in range(game.rules.players):
        assert again.view(seat) == game.view(seat)
    assert type(record.replay()) is type(game) and record.replay().view(0) == game.view(0)
    if not isinstance(game, Game):
        with pytest.raises(RecordError, match=r"TwoHandedGame\.from_record"):
            Game.from_record(record)


def test_replay_upto_stops_in_a_two_handed_game() -> None:
    game = played("two", 3, 40)
    assert replay(game.record, 25).actions == game.actions[:25]


def test_a_two_handed_record_with_a_bad_action_is_a_record_error() -> None:
    record = played("two", 3, 10).record
    bad = GameRecord(record.rules, record.seed, record.dealer, (*record.actions, "bid 250"))
    with pytest.raises(RecordError, match=r"action 11 \('bid 250'\) does not replay"):
        replay(bad)


def test_pinochle_replay_of_a_two_handed_record_file(tmp_path: Path) -> None:
    path = str(tmp_path / "two.json")
    demo = ok("demo", "--rules", "two(target=300)", "--seed", "6", "--record", path)
    assert demo[-1].startswith("winner: seat ")
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    assert data["rules"] == "two(target=300)" and data["actions"]
    assert ok("replay", path) == demo
    hand = ok("replay", path, "--hand", "2")
    assert hand and len(hand) < len(demo)
    assert ok("replay", "-", stdin=Path(path).read_text(encoding="utf-8")) == demo
    data["actions"].insert(3, "trump S")
    bad = pinochle("replay", "-", stdin=json.dumps(data))
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.startswith("pinochle: error: action 4 ('trump S') does not replay")


# -- meld ---------------------------------------------------------------------


def test_meld_two_handed_one_meld_per_trick() -> None:
    lines = ok("meld", "--rules", "two", "--trump", "S", "AS TS KS QS JS 9S JD QS")
    assert lines[0].startswith("two-handed: the most these cards score laid one meld")
    # The run and the pinochle (another class: the QS serves again); no royal marriage
    # (the only KS served in the run, class I), unlike the four-handed count.
    assert lines[-4:] == ["run       AS TS KS QS JS  150",
                          "pinochle  QS JD            40",
                          "dix       9S               10",
                          "total                     200"]
    four = meld(parse_cards("AS TS KS QS JS 9S JD QS"), Suit.SPADES, TWO)
    assert four.points != 200


def test_meld_two_handed_json_and_errors() -> None:
    data = json.loads(ok("meld", "--rules", "two", "--trump", "H", "--json",
                         "KH QH KH QH 9H 9H")[0])
    assert data["points"] == 100  # two royal marriages and two dix
    assert [i["name"] for i in data["items"]] == ["royal marriage", "royal marriage", "dix",
                                                 "dix"]
    assert data["shown"] == "KH KH QH QH 9H 9H"
    for args, expected in (
            (["--trump", "none", "AS"], "bad suit 'none'"),
            (["--trump", "S", "AS AS AH AH AD AD AC AC KS KS KH KH KD"], "at most 12 cards")):
        done = pinochle("meld", "--rules", "two", *args)
        assert done.returncode == 2 and expected in done.stderr, done.stderr
        assert "Traceback" not in done.stderr


def test_meld_three_handed_is_the_auction_table() -> None:
    lines = ok("meld", "--rules", "three", "--trump", "S", "AS TS KS QS JS 9S JD")
    assert lines[-1].split() == ["total", str(meld(parse_cards("AS TS KS QS JS 9S JD"),
                                                   Suit.SPADES, Rules.preset("three")).points)]
    assert not lines[0].startswith("two-handed")


def _engine_best(cards: list[Card], trump: Suit) -> int:
    """The most meld the engine lets a player lay from ``cards``, found by trying every
    order of lays on a real two-handed game (the engine's own meld options)."""
    others = [k for k in range(24) for _ in range(2)]
    for card in cards:
        others.remove(card)
    turn_up = next(c for c in others if c // 6 == trump)
    others.remove(turn_up)
    deal = (Hand.from_cards(cards), Hand.from_cards(others[:12]),
            (ALL_CARDS[turn_up], *(ALL_CARDS[c] for c in others[12:])))
    game = TwoHandedGame.new(TWO, seed=1, deals=[deal])
    dix = 10 * cards.count(ALL_CARDS[trump * 6])  # the nine of trump

    def search(position: TwoHandedGame) -> int:
        best = 0
        for _, _, combo in position._meld_options(0):
            after = position.copy()
            after._lay(0, combo)
            best = max(best, after.events[-1].points + search(after))
        return best

    return search(game) + dix


@pytest.mark.parametrize("seed", range(12))
def test_best_two_meld_matches_every_order_the_engine_accepts(seed: int) -> None:
    rng = random.Random(seed)
    trump = Suit(seed % 4)
    deck = [k for k in range(24) for _ in range(2)]
    if seed < 6:  # meld-rich holdings: kings, queens and the pinochle cards
        rich = [k for k in deck if k % 6 in (2, 3, 5) or k == parse_cards("JD")[0]]
        cards = rng.sample(rich, 12)
    else:
        cards = rng.sample(deck, 12)
    held = [ALL_CARDS[c] for c in cards]
    assert best_two_meld(held, trump, TWO).points == _engine_best(held, trump)


# -- legal --------------------------------------------------------------------


def test_legal_two_handed_last_tricks_match_the_engine() -> None:
    checked = 0
    for seed in range(4):
        game = played("two", seed, 10_000)
        again = new_game("two", seed=seed)
        assert isinstance(again, TwoHandedGame)
        for action in game.actions:
            if again.stage is TwoStage.LATE and again.trick and checked < 6:
                seat = again.to_act
                assert seat is not None
                hand = str(again.hand(seat))
                lines = ok("legal", "--rules", "two", "--trump", again.trump.letter,
                           "--trick", str(ALL_CARDS[again.trick[0]]), hand)
                assert lines[0] == "two-handed, last 12 tricks (the stock is gone)"
                engine = sorted(str(a).split()[1] for a in again.legal_actions())
                assert sorted(lines[1].removeprefix("legal: ").split()) == engine
                checked += 1
            again.apply(action)
            if again.winner is not None or again.hand_number > 1:
                break
    assert checked == 6


def test_legal_two_handed_early_and_bad_tricks() -> None:
    lines = ok("legal", "--rules", "two", "--early", "--trump", "S", "--trick", "AH",
               "KS 9H TD KS")
    assert lines == ["two-handed, early trick (the stock lasts): any card may be played",
                     "legal: KS 9H TD"]
    lines = ok("legal", "--rules", "two", "--trump", "S", "--trick", "AH", "KS 9H TD")
    assert lines[1] == "legal: 9H"
    done = pinochle("legal", "--rules", "two", "--trump", "S", "--trick", "AH TH", "KS")
    assert done.returncode == 2 and "at most 1 card before yours" in done.stderr
    done = pinochle("legal", "--early", "--trump", "S", "KS")
    assert done.returncode == 2 and "--early is for the two-handed game" in done.stderr


def test_legal_three_handed_trick_of_two() -> None:
    lines = ok("legal", "--rules", "three", "--trump", "S", "--trick", "KH AH", "AH TH 9H KS")
    assert lines[0] == "legal: AH TH 9H"  # the ace cannot beat the ace: follow
    done = pinochle("legal", "--rules", "three", "--trump", "S", "--trick", "KH AH 9H", "KS")
    assert done.returncode == 2 and "at most 2 cards before yours" in done.stderr


# -- demo -------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["two(target=500)", "three", "three(widow=take)"])
def test_demo_defaults_to_simple_players_in_every_game(rules: str) -> None:
    lines = ok("demo", "--rules", rules, "--seed", "3")
    assert lines[-1].startswith("winner: ")
    assert ok("demo", "--rules", rules, "--seed", "3", "--players", "simple") == lines
