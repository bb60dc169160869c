"""The engine's fast paths against its pure-Python reference (the speed
targets of the README's "Measured").

``Game`` plays cards through the C table of ``_table.c`` when it is built and through
``Game._play`` otherwise; both must give exactly the same games. Here two games of the
same seed, one on each path, take the same random actions in lock step, and at every
step their phase, seat to act, legal actions, every seat's view, results, records and
the errors of illegal actions are compared; copies and undos are compared too.

The other fast paths (the deal, meld tables, passing checks) are compared with slow
references written here, differently.
"""

from __future__ import annotations

import copy
import hashlib
import pickle
import random
import struct
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from pinochlekit import (
    Action,
    Bid,
    Card,
    Game,
    Give,
    Hand,
    Pass,
    Phase,
    Play,
    Return,
    Rules,
    Suit,
)
from pinochlekit import native as _accel
from pinochlekit.engine.deals import deal, deal_seed, shuffled_deck
from pinochlekit.engine.errors import PinochleError
from pinochlekit.engine.meld import meld

if _accel.table is None:  # pragma: no cover - depends on the build
    pytest.fail("pinochlekit.native._table, the C play phase, is not built (pip install -e .)",
                pytrace=False)

FOUR_HANDED = [name for name in Rules.presets() if Rules.preset(name).players == 4]


@contextmanager
def pure_python() -> Iterator[None]:
    """Run the block on the pure-Python paths (play phase and deal)."""
    saved = _accel.table
    _accel.table = None
    try:
        yield
    finally:
        _accel.table = saved


def both(fast: Game, slow: Game, call: Callable[[Game], object]) -> tuple[object, object]:
    """``call`` on each game, the slow one on the pure-Python path; errors as values."""
    def run(game: Game) -> object:
        try:
            return call(game)
        except PinochleError as error:
            return (type(error), str(error))
    first = run(fast)
    with pure_python():
        second = run(slow)
    return first, second


def applying(action: Action) -> Callable[[Game], object]:
    """A call that applies ``action`` to a game."""
    return lambda game: game.apply(action)


def assert_same(fast: Game, slow: Game, thorough: bool = True) -> None:
    """Everything a caller can see of the two games is equal (``thorough``: every
    seat's view and the record, else the view of the seat to act)."""
    assert fast.phase is slow.phase and fast.to_act == slow.to_act
    assert fast.legal_actions() == slow.legal_actions()
    seats = [None, *range(fast.rules.players)] if thorough else [fast.to_act]
    for seat in seats:
        assert fast.view(seat) == slow.view(seat), seat
    assert fast.results == slow.results and fast.scores == slow.scores
    if thorough:
        assert fast.record == slow.record
    assert list(fast.trick) == list(slow.trick) and fast.tricks == slow.tricks
    assert fast.trick_points == slow.trick_points
    assert [fast.hand(s) for s in range(4)] == [slow.hand(s) for s in range(4)]


def random_action(game: Game, rng: random.Random) -> Action:
    """A random action; in the auction mostly pass or the lowest bid, so hands get played."""
    legal = game.legal_actions()
    if game.phase is Phase.AUCTION and rng.random() < 0.9:
        cheap = [a for a in legal[:4] if type(a) in (Bid, Pass)]
        return rng.choice(cheap)
    return rng.choice(legal)


def illegal_tries(game: Game, rng: random.Random) -> list[Action]:
    """Actions that are mostly illegal now: cards not held or not allowed, other phases."""
    tries: list[Action] = [Play(Card(rng.randrange(24))) for _ in range(3)]
    tries += [Bid(100), Pass()]
    if game.to_act is not None:
        held = game.hand(game.to_act).cards()
        if held:
            tries.append(Play(rng.choice(held)))
            tries.append(Give(tuple(held[:4])) if len(held) >= 4 else Give((held[0],)))
        tries.append(Return(tuple(Card(k) for k in rng.sample(range(24), 4))))
    return tries


@pytest.mark.parametrize("preset", FOUR_HANDED)
def test_fast_and_pure_games_agree(preset: str) -> None:
    rules = Rules.preset(preset)
    rng = random.Random(preset)
    played = game_number = 0
    while played < 150:  # card plays compared, over as many games as that takes
        seed = f"speedpaths-{preset}-{game_number}"
        fast = Game.new(rules, seed=seed, dealer=game_number % 4)
        with pure_python():
            slow = Game.new(rules, seed=seed, dealer=game_number % 4)
        game_number += 1
        while fast.phase is not Phase.GAME_OVER and len(fast.actions) < 300:
            assert_same(fast, slow, thorough=rng.random() < 0.15)
            if fast.phase is Phase.PLAY:
                assert fast._table is not None and slow._table is None  # both paths run
                played += 1
            if rng.random() < 0.2:
                for action in illegal_tries(fast, rng):
                    first, second = both(fast, slow, applying(action))
                    assert first == second, action
                    if first is not None:  # rejected: nothing changed
                        assert_same(fast, slow, thorough=False)
                    else:  # legal after all: take it back on both
                        assert both(fast, slow, lambda g: g.undo()) == (action, action)
            if rng.random() < 0.04:
                copies = both(fast, slow, lambda g: g.copy())
                fast_copy, slow_copy = copies
                assert isinstance(fast_copy, Game) and isinstance(slow_copy, Game)
                action = random_action(fast_copy, rng)
                both(fast_copy, slow_copy, applying(action))
                assert_same(fast_copy, slow_copy)
                assert_same(fast, slow)  # the originals did not move
            if rng.random() < 0.03 and fast.actions:
                undone = both(fast, slow, lambda g: g.undo())
                assert undone[0] == undone[1]
                assert_same(fast, slow)
            action = random_action(fast, rng)
            first, second = both(fast, slow, applying(action))
            assert first is None and second is None, (action, first, second)
        assert_same(fast, slow)


def test_unchecked_play_through_the_table() -> None:
    """``apply_unchecked`` of a legal card takes the table's path too; an illegal one
    is refused rather than corrupting the C state."""
    rng = random.Random(5)
    game = Game.new("pagat", seed=11)
    while game.phase is not Phase.PLAY:
        game.apply(random_action(game, rng))
    assert game._table is not None
    seat = game.to_act
    assert seat is not None
    legal = game.legal_actions()
    refused = [c for c in range(24) if Play(Card(c)) not in legal]
    before = game.view(seat)
    with pytest.raises(PinochleError):
        game.apply_unchecked(Play(Card(refused[0])))
    assert game.view(seat) == before
    play = next(a for a in legal if isinstance(a, Play))
    count = game.hand(seat).count(play.card)
    with pure_python():
        reference = game.copy()
    reference._table = None  # the copy continues on the pure-Python path
    game.apply_unchecked(play)
    with pure_python():
        reference.apply_unchecked(play)
    assert game.hand(seat).count(play.card) == count - 1
    assert game.trick == [play.card] and game.to_act != seat
    assert_same(game, reference)


def test_pickle_and_deepcopy_mid_play() -> None:
    """A game in the play phase (holding a C table) pickles and deep-copies by record."""
    rng = random.Random(8)
    game = Game.new("pagat", seed=21)
    while game.phase is not Phase.PLAY or len(game.trick) < 2:
        game.apply(random_action(game, rng))
    for clone in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):
        assert isinstance(clone, Game) and clone.record == game.record
        for seat in (None, 0, 1, 2, 3):
            assert clone.view(seat) == game.view(seat)
        action = random_action(clone, rng)
        clone.apply(action)
        game_copy = game.copy()
        game_copy.apply(action)
        assert clone.view(None) == game_copy.view(None)


def test_moon_seat_sits_out_on_both_paths() -> None:
    """Shoot the moon (family1000): the declarer's partner never plays on either path."""
    rules = Rules.preset("family1000")
    rng = random.Random(3)
    moons = 0
    for seed in range(40):
        fast = Game.new(rules, seed=seed)
        with pure_python():
            slow = Game.new(rules, seed=seed)
        while fast.phase is not Phase.GAME_OVER and moons < 3 and len(fast.results) < 3:
            legal = fast.legal_actions()
            moon = [a for a in legal if str(a) == "moon"]
            action = moon[0] if moon else random_action(fast, rng)
            if moon:
                moons += 1
            first, second = both(fast, slow, applying(action))
            assert first is None and second is None
            assert_same(fast, slow)
        if moons >= 3:
            break
    assert moons >= 3


# -- the deal, against a slow reference ------------------------------------------------


def reference_deck(seed: str) -> list[int]:
    """docs/rules.md §1 Deal as deals.py documents it, written out slowly."""
    stream = hashlib.shake_256(f"pinochlekit/shuffle/{seed}".encode()).digest(48 * 8)
    keys = [struct.unpack(">Q", stream[8 * i:8 * i + 8])[0] for i in range(48)]
    positions = sorted(range(48), key=lambda i: (keys[i], i))
    return [positions_kind for positions_kind in (p // 2 for p in positions)]


@pytest.mark.parametrize("players", [4, 3, 2])
def test_deal_matches_reference(players: int) -> None:
    """Both deal paths (C and pure Python) give the reference deal, for any seat count."""
    for index in range(300):
        seed = deal_seed(f"ref-{players}-{index}", index)
        deck = reference_deck(seed)
        assert shuffled_deck(seed) == deck
        dealer = index % players
        hands: list[list[Card]] = [[] for _ in range(players)]
        for i, kind in enumerate(deck[:48 // players * players]):
            hands[(dealer + 1 + i // 3) % players].append(Card(kind))
        expected = tuple(Hand.from_cards(h) for h in hands)
        assert deal(seed, dealer, players) == expected
        with pure_python():
            assert deal(seed, dealer, players) == expected


def test_deal_ties_keep_the_unshuffled_order() -> None:
    """Equal keys (odds about 2**-53 a deal, so forced here) keep the deck's order on
    both paths: the C deal is fed a digest with many equal keys."""
    assert _accel.table is not None
    digest = bytes(8) * 20 + bytes([0, 0, 0, 0, 0, 0, 0, 1]) * 8 + bytes(8) * 20
    keys = [int.from_bytes(digest[8 * i:8 * i + 8], "big") for i in range(48)]
    positions = sorted(range(48), key=lambda i: (keys[i], i))
    masks = _accel.table.deal_masks(digest, 1, 4)
    for seat in range(4):
        mine = [positions[i] // 2 for i in range(48) if (2 + i // 3) % 4 == seat]
        assert Hand(masks[2 * seat], masks[2 * seat + 1]) == Hand.from_cards(mine)


# -- meld, against the uncached path ---------------------------------------------------


@pytest.mark.parametrize("preset", FOUR_HANDED)
def test_meld_tables_match_uncached(preset: str) -> None:
    rules = Rules.preset(preset)
    rng = random.Random(preset)
    for _ in range(300):
        cards = [Card(k) for k in rng.sample([k for k in range(24) for _ in range(2)], 12)]
        hand = Hand.from_cards(cards)
        for trump in (None, *range(4)):
            fast = meld(hand, trump, rules)
            slow = meld(cards, trump, rules)  # a list takes the same entry: compare items
            assert fast == slow
            assert fast.points == sum(item.points for item in fast.items)


def random_counts_hand(rng: random.Random) -> Hand:
    """Any hand meld can meet (12, 15 or 18 cards, or fewer): each kind 0, 1 or 2 times,
    biased to hold many doubles so double runs, arounds and pinochles come up."""
    bias = rng.random()
    once = twice = 0
    for kind in range(24):
        roll = rng.random()
        if roll < bias:
            once |= 1 << kind
            if rng.random() < bias:
                twice |= 1 << kind
    return Hand(once, twice)


MELD_OPTIONS = [dict(doubles=d, run_extra=r, divide_by_ten=t)
                for d in ("special", "plain") for r in ("marries", "nothing")
                for t in (False, True)]


@pytest.mark.parametrize("options", MELD_OPTIONS, ids=lambda o: "-".join(map(str, o.values())))
def test_c_meld_matches_python(options: dict[str, object]) -> None:
    """``_table.meld_masks`` (the C meld total and cards shown, per-class reuse, which
    ``meld`` calls) equals the Python meld for hands of every shape and every trump."""
    assert _accel.table is not None
    rules = Rules(**options)  # type: ignore[arg-type]
    rng = random.Random(str(options))
    seen: set[str] = set()
    for _ in range(400):
        hand = random_counts_hand(rng)
        for trump in (None, *range(4)):
            with pure_python():
                slow = meld(hand, None if trump is None else Suit(trump), rules)
            fast = _accel.table.meld_masks(hand.once, hand.twice,
                                           -1 if trump is None else trump,
                                           rules.doubles == "special",
                                           rules.run_extra == "marries", rules.unit)
            assert fast == (slow.points, slow.shown.once, slow.shown.twice), (hand, trump)
            seen.update(item.name for item in slow.items)
    # the hands reached every kind of meld, doubles included
    assert {"run", "royal marriage", "common marriage", "dix", "aces around",
            "pinochle"} <= seen
    if options["doubles"] == "special":
        assert {"double run", "double aces around", "double pinochle"} <= seen


@pytest.mark.parametrize("reuse", ["per_class", "once"])
@pytest.mark.parametrize("options", MELD_OPTIONS, ids=lambda o: "-".join(map(str, o.values())))
def test_meld_depends_only_on_cards_shown(options: dict[str, object], reuse: str) -> None:
    """The meld of the cards shown is the meld of the whole hand (same points, items and
    cards shown), so hands that show the same cards meld the same: what lets ``meld``
    build (and share) its result from the shown cards alone on the C path. The C path
    gives exactly the Python results."""
    rules = Rules(**options, meld_reuse=reuse)  # type: ignore[arg-type]
    rng = random.Random(f"{options} {reuse}")
    for _ in range(300):
        hand = random_counts_hand(rng)
        for trump in (None, *map(Suit, range(4))):
            with pure_python():
                slow = meld(hand, trump, rules)
                again = meld(slow.shown, trump, rules)
            fast = meld(hand, trump, rules)
            for other in (again, fast):
                assert (other.points, other.items, other.shown) == \
                    (slow.points, slow.items, slow.shown), (hand, trump)
                assert repr(other) == repr(slow) and str(other) == str(slow)
            # nothing but shown cards in the result
            assert all(Hand.from_cards(item.cards).once & ~fast.shown.once == 0
                       for item in fast.items)


def test_c_meld_refuses_bad_masks() -> None:
    """The C meld checks what it is given instead of reading garbage."""
    assert _accel.table is not None
    for args in [(1 << 24, 0, 0), (1, 2, 0), (1, 0, 4), (1, 0, -2), (-1, 0, 0)]:
        with pytest.raises((ValueError, OverflowError)):
            _accel.table.meld_masks(*args, True, True, 1)
    with pytest.raises(ValueError):
        _accel.table.meld_masks(1, 0, 0, True, True, 0)
