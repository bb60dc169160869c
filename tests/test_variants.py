"""Each game is a class of its own: ``Game`` (four-handed), its subclass
``ThreeHandedGame`` (the widow, docs/rules.md §3) and ``TwoHandedGame`` (the stock,
docs/rules.md §4), built from the rules by ``Game.new``, ``new_game``, replays and
records, with one ``undo``/``copy`` (engine/history.py) shared by all."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from pinochlekit import (
    Discard,
    Game,
    GameRecord,
    Phase,
    RulesError,
    ThreeHandedGame,
    TwoHandedGame,
    new_game,
    replay,
)
from pinochlekit.engine.games import AnyGame
from pinochlekit.engine.history import History


def _played(game: AnyGame, actions: int, seed: int) -> AnyGame:
    """``game`` after ``actions`` random legal actions (a fixed seed), or fewer if it
    ends; passes are favoured in the auction so that hands are played."""
    rng = random.Random(seed)
    for _ in range(actions):
        if game.phase is Phase.GAME_OVER:
            break
        legal = game.legal_actions()
        game.apply(legal[0] if game.phase is Phase.AUCTION and rng.random() < 0.6
                   else rng.choice(legal))
    return game


@pytest.mark.parametrize(("rules", "kind"), [("pagat", Game), ("three", ThreeHandedGame),
                                             ("three(widow=take)", ThreeHandedGame)])
def test_the_rules_choose_the_class_everywhere(rules: str, kind: type[Game]) -> None:
    game = Game.new(rules, seed=11)
    assert type(game) is kind and isinstance(game, Game)
    assert type(new_game(rules, seed=11)) is kind
    _played(game, 60, 1)
    for again in (replay(game.record), GameRecord.from_json(game.record.to_json()).replay(),
                  Game.from_record(game.record), game.copy(), copy.deepcopy(game),
                  pickle.loads(pickle.dumps(game))):
        assert type(again) is kind
        assert again.view(0) == game.view(0) and again.record == game.record


def test_a_subclass_refuses_rules_for_another_number_of_players() -> None:
    with pytest.raises(RulesError, match="ThreeHandedGame plays with 3 players, not 4"):
        ThreeHandedGame.new("pagat", seed=1)
    assert type(new_game("two", seed=1)) is TwoHandedGame


def test_the_four_handed_game_has_no_widow_and_no_discard() -> None:
    game = Game.new("pagat", seed=5)
    while game.declarer is None:
        game.apply(game.legal_actions()[0])
    assert game.widow is None and game.view(0).widow is None
    assert not game.can(Discard(tuple(game.hand(game.declarer).cards()[:3])))
    three = Game.new("three", seed=5)
    while three.declarer is None:
        three.apply(three.legal_actions()[0])
    assert three.widow is not None and len(three.widow) == 3
    assert three.view(1).widow == tuple(three.widow)


def test_every_slot_of_the_class_and_its_bases_is_copied() -> None:
    assert ThreeHandedGame._SLOTS == Game._SLOTS  # the subclass adds no state
    assert set(Game._SLOTS) == set(Game.__slots__)
    assert set(TwoHandedGame._SLOTS) == set(TwoHandedGame.__slots__)
    assert History._SLOTS == ()


@pytest.mark.parametrize("rules", ["pagat", "three", "three(widow=take)", "two"])
@pytest.mark.parametrize("seed", [2, 9])
def test_undo_and_copy_match_a_replay_of_the_shorter_record(rules: str, seed: int) -> None:
    game = _played(new_game(rules, seed=seed), 150, seed)
    assert len(game.actions) > 40  # a few hands: undo crosses the start of a deal
    twin = game.copy()
    for n in range(len(game.actions) - 1, len(game.actions) - 41, -1):
        last = game.actions[-1]
        assert game.undo() == last
        shorter = replay(game.record)
        assert game.view(game.to_act) == shorter.view(shorter.to_act)
        assert game.scores == shorter.scores and game.results == shorter.results
        assert len(game.actions) == n
    # the copy kept its own history, and plays on by itself
    assert len(twin.actions) == len(game.actions) + 40
    assert twin.view(0) == replay(twin.record).view(0)
    before = game.record
    _played(twin, 12, seed)  # on into the play, where the C table holds the cards
    assert len(twin.actions) > len(game.actions) + 40
    assert game.record == before
    assert game.view(game.to_act) == replay(before).view(game.to_act)


def test_every_preset_finds_the_one_variant_that_plays_it() -> None:
    """engine/variants.py: each preset is described by exactly one variant, and the
    game built for it is of that variant's class (a new game's folder plus its
    variant is all it takes to be found)."""
    from pinochlekit.engine.rules import PRESETS, Rules
    from pinochlekit.engine.variants import VARIANTS, find_variant

    seen = set()
    for name in PRESETS:
        rules = Rules.preset(name)
        matching = [v for v in VARIANTS if v.matches(rules)]
        assert len(matching) == 1, (name, matching)
        variant = find_variant(rules)
        assert type(new_game(rules, seed=1)) is variant.game, name
        seen.add(variant.name)
    assert seen == {"four-handed", "three-handed", "two-handed", "double deck"}


def test_a_variant_refuses_more_copies_of_a_card_than_its_deck_holds() -> None:
    """Two copies of each card in the single deck; four, and no nines, in the double."""
    from pinochlekit.engine.cards import parse_cards
    from pinochlekit.engine.errors import PinochleError
    from pinochlekit.engine.rules import Rules
    from pinochlekit.engine.variants import find_variant

    single, double = (find_variant(Rules.preset(n)) for n in ("pagat", "doubledeck"))
    single.check_cards(parse_cards("AS AS"))
    with pytest.raises(PinochleError):
        single.check_cards(parse_cards("AS AS AS"))
    double.check_cards(parse_cards("AS AS AS AS"))
    with pytest.raises(PinochleError):
        double.check_cards(parse_cards("AS AS AS AS AS"))
    with pytest.raises(PinochleError):
        double.check_cards(parse_cards("9S"))


def test_game_new_refuses_the_games_without_an_auction() -> None:
    """Game.new builds the auction game the rules describe; for two players
    (docs/rules.md §4: no auction, a stock) and the double deck it refuses, naming
    the class that plays them, which new_game builds."""
    from pinochlekit import Game, RulesError, new_game

    for preset, kind in (("two", "TwoHandedGame"), ("doubledeck", "DoubleDeckGame")):
        with pytest.raises(RulesError, match=kind):
            Game.new(preset, seed=1)
        assert type(new_game(preset, seed=1)).__name__ == kind
    assert type(Game.new("three", seed=1)).__name__ == "ThreeHandedGame"
