"""The two-handed C simulation core (``_twocore.c`` through :mod:`pinochlekit.players.two.core`).

The Python rollout of :mod:`pinochlekit.players.two.levels` is the reference:
on random positions of random and standard games (every stage, meld turns, the
dix, the last stock card, cards laid in two classes) and under every option the
two-handed game has, the C core must give the same value for every legal
action and deal, and play the same actions. ``pro`` with the C core must play
a whole game exactly as ``pro`` in Python. The extension must be built
(``pip install -e .``): without it these tests fail rather than skip.

``TWOCORE_GAMES=N`` raises the number of random games per option (100 by
default) for a longer check.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

from pinochlekit import Rules, TwoHandedGame, TwoStage
from pinochlekit.engine.two.actions import DIX
from pinochlekit.engine.two.views import TwoHandedView
from pinochlekit.native import _twocore as core
from pinochlekit.players import make_player
from pinochlekit.players.two import core as twocore
from pinochlekit.players.two.levels import (
    python_rollout_values,
    rollout,
    rollout_values,
    sample_hidden,
    two_pro,
    two_standard,
)

#: Every option the two-handed game leaves open (docs/rules.md §2, §4; rules.py _NOT_FOR_TWO).
RULES = ["two", "two(meld_reuse=once)", "two(must_beat=trump_led)", "two(must_beat=following)",
         "two(trick_points=counters)", "two(trick_points=fives)",
         "two(trick_points=counters, divide_by_ten=yes, target=1000)"]
GAMES = int(os.environ.get("TWOCORE_GAMES", "100"))


def positions(rules: Rules, seed: int, games: int) -> list[TwoHandedView]:
    """Views of the seat to act at random points of games played by random or
    standard players (a new game each time, the first hand only)."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        game = TwoHandedGame.new(rules, seed=rng.randrange(10**9))
        standard = rng.random() < 0.5
        for _ in range(rng.randrange(0, 64)):
            view = game.view(game.to_act)
            game.apply(two_standard(view) if standard else rng.choice(view.legal_actions))
            if game.results:
                break
        if not game.results:
            out.append(game.view(game.to_act))
    return out


def features(view: TwoHandedView) -> set[str]:
    """What a position exercises, to check that the random positions cover it."""
    out = {str(view.stage)}
    if view.stage is TwoStage.MELD:
        out.add("meld turn")
        if DIX in view.legal_actions:
            out.add("dix to count")
        if view.dix_counted:
            out.add("dix counted")
        if any(a != DIX and str(a).startswith("meld") for a in view.legal_actions):
            out.add("meld to lay")
    if view.stock_size == 2:
        out.add("last stock card")
    if view.turn_up is not None and view.turn_up % 6 == 0 and view.turn_up // 6 == view.trump:
        out.add("nine of trump turned up")
    if any(t.classes.bit_count() > 1 for side in view.table for t in side):
        out.add("card in two classes")
    if view.trick:
        out.add("following")
    if view.stage is TwoStage.LATE and len(view.tricks) == 23:
        out.add("last trick")
    return out


@pytest.mark.parametrize("text", RULES)
def test_c_rollouts_equal_python_rollouts(text: str) -> None:
    rules = Rules.from_string(text)
    rng = random.Random(text)
    seen: Counter[str] = Counter()
    compared = 0
    for view in positions(rules, RULES.index(text) + 1, GAMES):
        seen.update(features(view))
        deals = [sample_hidden(view, rng) for _ in range(2)]
        for action in view.legal_actions:
            fast = twocore.rollout_values(view, action, deals)
            assert fast is not None
            assert fast == python_rollout_values(view, action, deals), (view, action)
            compared += len(deals)
    assert compared > 800
    wanted = {"early tricks", "meld turn", "last tricks", "meld to lay", "last stock card",
              "following"}
    if rules.meld_reuse != "once":  # with 'once' a laid card never serves again
        wanted.add("card in two classes")
    assert wanted <= set(seen), seen


def test_c_plays_the_same_actions_as_python() -> None:
    """Action for action (``_twocore.trace``), not only the same final value."""
    rules = Rules.preset("two")
    rng = random.Random(4)
    key = twocore.rules_key(rules)
    for view in positions(rules, 4, 40):
        assert view.seat is not None and view.trump is not None
        opponent, stock = sample_hidden(view, rng)
        action = rng.choice(view.legal_actions)
        game = TwoHandedGame.from_view(view, opponent, stock)
        start = game.hand_number
        game.apply_unchecked(action)
        value = rollout(game, view.seat, start)
        code = twocore.action_code(action, int(view.trump))
        position = twocore.position(view)
        assert code is not None and position is not None
        c_value, codes = core.trace(key, position, code, (opponent.once, opponent.twice,
                                                          bytes(stock)))
        assert codes == [twocore.action_code(a, int(view.trump)) for a in game.actions[1:]]
        assert sum(c < 24 for c in codes) == 48 - 2 * len(view.tricks) - len(view.trick) - (
            code < 24)
        assert c_value == value


def test_special_positions() -> None:
    """The dix (to count, counted, shown when a nine is turned up), the last card of the
    stock, and the last trick."""
    rules = Rules.preset("two")
    rng = random.Random(11)
    found = Counter[str]()
    seed = 0
    while min(found.values(), default=0) < 3 or len(found) < 5:
        seed += 1
        game = TwoHandedGame.new(rules, seed=seed)
        while not game.results:
            view = game.view(game.to_act)
            tags = features(view)
            special = tags & {"nine of trump turned up", "last stock card", "last trick",
                              "dix to count", "dix counted"}
            if special - {"nine of trump turned up"} or (special and view.stage is TwoStage.MELD):
                deals = [sample_hidden(view, rng) for _ in range(2)]
                for action in view.legal_actions:
                    assert (twocore.rollout_values(view, action, deals)
                            == python_rollout_values(view, action, deals))
                found.update(special)
            game.apply(rng.choice(view.legal_actions))
        assert seed < 400, found


def test_rollout_values_uses_c_and_checks_the_action() -> None:
    game = TwoHandedGame.new("two", seed=3)
    view = game.view(game.to_act)
    deals = [sample_hidden(view, random.Random(1)) for _ in range(3)]
    action = view.legal_actions[0]
    assert twocore.core is not None
    assert rollout_values(view, action, deals) == twocore.rollout_values(view, action, deals)
    with pytest.raises(ValueError, match="not a legal action"):
        rollout_values(view, DIX, deals)
    other = game.view(1 - view.seat) if view.seat is not None else view
    assert twocore.position(other) is None  # not this seat's turn: Python's business


def test_bad_input_to_the_core_is_refused() -> None:
    rules = Rules.preset("two")
    game = TwoHandedGame.new(rules, seed=3)
    view = game.view(game.to_act)
    key, position = twocore.rules_key(rules), twocore.position(view)
    assert position is not None
    opponent, stock = sample_hidden(view, random.Random(2))
    deal = (opponent.once, opponent.twice, bytes(stock))
    card = int(view.legal_actions[0].card)  # type: ignore[attr-defined]
    assert len(core.rollouts(key, position, card, [deal])) == 1
    bad_positions = [position[:5], (7, *position[1:]), (*position, 0),
                     (*position[:11], 3, *position[12:])]
    for bad in bad_positions:
        with pytest.raises(ValueError):
            core.rollouts(key, bad, card, [deal])
    with pytest.raises(ValueError):
        core.rollouts(key[:-1], position, card, [deal])
    with pytest.raises(ValueError, match="not legal"):
        core.rollouts(key, position, 35, [deal])  # no meld while a card must be played
    with pytest.raises(ValueError):  # the opponent holds the seat's cards too
        core.rollouts(key, position, card, [((1 << 24) - 1, (1 << 24) - 1, bytes(stock))])
    with pytest.raises(ValueError):
        core.rollouts(key, position, card, [(opponent.once, opponent.twice, bytes([30]))])
    with pytest.raises(TypeError):
        core.rollouts(key, position, card, [(opponent.once, "x", bytes(stock))])  # type: ignore[list-item]


def test_pro_with_c_plays_a_whole_game_as_pro_in_python(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``two_pro`` (seat 0) against ``standard``: the same game move for move."""
    rules = Rules.from_string("two(target=400)")

    def play() -> tuple[list[str], int]:
        game = TwoHandedGame.new(rules, seed=12)
        rng = random.Random(12)
        while game.winner is None:
            view = game.view(game.to_act)
            action = two_pro(view, rng, 3) if view.seat == 0 else two_standard(view)
            game.apply(action)
        return [str(a) for a in game.actions], len(game.results)

    fast = play()
    monkeypatch.setattr(twocore, "core", None)
    assert fast == play()
    assert fast[1] >= 2  # more than one hand: the game went on after a hand ended


def test_pro_player_decides_with_the_core() -> None:
    game = TwoHandedGame.new("two", seed=9)
    player = make_player("pro", 1)
    view = game.view(game.to_act)
    assert player.choose(view) in view.legal_actions
