"""Every game deals the same cards from the same seed as before the deal became one
routine (docs/rules.md §1 Deal, §3, §4; docs/rules.md "Deals and seeds").

``snapshots/deals_recorded.json`` was written by the dealing code of the time
(the four-handed ``deal``, the three-handed ``deal_with_widow`` and the
two-handed game's own loop, checked then against the web's ``dealt_cards``): for
each table size, the first eight deals written out and the SHA-256 of the first
1,000. Its ``double`` entry, the same for the double deck (docs/rules.md §6), was
written by the double deck's own dealing code (``deal_double``) before it too
became the one routine. Saved games and the fair-deal check depend on these
cards, so neither may change.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from pinochlekit import Game, Hand, TwoHandedGame
from pinochlekit import native as _accel
from pinochlekit.engine.deals import deal, deal_cards, deal_seed, shuffled_deck
from pinochlekit.engine.double.cards import DOUBLE_DECK
from pinochlekit.engine.double.game import DoubleDeckGame
from pinochlekit.web.dealing import dealt_cards

RECORDED = json.loads((Path(__file__).parent / "snapshots" / "deals_recorded.json").read_text())
PRESETS = {4: "pagat", 3: "three", 2: "two"}


@contextmanager
def pure_python() -> Iterator[None]:
    """Deal on the pure-Python path instead of the C one."""
    saved = _accel.table
    _accel.table = None
    try:
        yield
    finally:
        _accel.table = saved


def engine_text(players: int, i: int) -> str:
    """Deal ``i`` of the recording as the game deals it: the hands, then the widow
    (three hands) or the turn-up and the stock in order (two hands)."""
    seed, dealer = f"recorded-{players}-{i}", i % players
    if players == 2:
        two = TwoHandedGame.new("two", seed=seed, dealer=dealer)
        first, second, stock = two.dealt
        return f"{first} / {second} | {' '.join(str(c) for c in stock)}"
    game = Game.new(PRESETS[players], seed=seed, dealer=dealer)
    widow = "" if players == 4 else str(game._widow)  # the widow before it is turned up
    return " / ".join(map(str, game.dealt)) + " | " + widow


def web_text(players: int, i: int) -> str:
    """The same deal as the web's fair-deal check computes it from the deal seed."""
    dealt = dealt_cards(deal_seed(f"recorded-{players}-{i}", 0), i % players, players)
    return " / ".join(dealt.hands) + " | " + dealt.rest


def double_text(i: int) -> str:
    """Deal ``i`` of the double deck's recording as its game deals it (nothing left over)."""
    game = DoubleDeckGame.new("doubledeck", seed=f"recorded-double-{i}", dealer=i % 4)
    return " / ".join(map(str, game.dealt)) + " | "


def double_web_text(i: int) -> str:
    """The same double-deck deal as the web's fair-deal check computes it."""
    dealt = dealt_cards(deal_seed(f"recorded-double-{i}", 0), i % 4, deck="double")
    return " / ".join(dealt.hands) + " | " + dealt.rest


def digest(texts: list[str]) -> str:
    return hashlib.sha256("\n".join(texts).encode()).hexdigest()


@pytest.mark.parametrize("players", [4, 3, 2])
def test_games_deal_the_recorded_cards(players: int) -> None:
    recorded = RECORDED[str(players)]
    texts = [engine_text(players, i) for i in range(1000)]
    assert texts[:8] == recorded["first"]
    assert digest(texts) == recorded["sha256_of_1000"]


@pytest.mark.parametrize("players", [4, 3, 2])
def test_fair_deal_check_deals_the_recorded_cards(players: int) -> None:
    recorded = RECORDED[str(players)]
    texts = [web_text(players, i) for i in range(1000)]
    assert texts[:8] == recorded["first"]
    assert digest(texts) == recorded["sha256_of_1000"]


@pytest.mark.parametrize("players", [4, 3, 2])
def test_pure_python_deals_the_recorded_cards(players: int) -> None:
    with pure_python():
        texts = [engine_text(players, i) for i in range(8)]
    assert texts == RECORDED[str(players)]["first"]


@pytest.mark.parametrize("text_of", [double_text, double_web_text])
def test_double_deck_deals_the_recorded_cards(text_of: Callable[[int], str]) -> None:
    recorded = RECORDED["double"]
    texts = [text_of(i) for i in range(1000)]
    assert texts[:8] == recorded["first"]
    assert digest(texts) == recorded["sha256_of_1000"]


def test_one_routine_shapes_every_deal() -> None:
    """The hands, widow and stock of :func:`deal_cards` are the whole deck, with the
    widow after the first round (docs/rules.md §3) and the stock in deck order."""
    seed = deal_seed("shape", 3)
    assert deal_cards(seed, 1).hands == deal(seed, 1)
    three = deal_cards(seed, 2, 3, 15, widow=3)
    two = deal_cards(seed, 0, 2, 12)
    assert [len(h) for h in three.hands] == [15, 15, 15] and len(three.widow) == 3
    assert [len(h) for h in two.hands] == [12, 12] and len(two.stock) == 24
    for dealt in (three, two):
        kinds = sorted([int(c) for h in dealt.hands for c in h] + [*dealt.widow, *dealt.stock])
        assert kinds == sorted(k for k in range(24) for _ in range(2))
    # docs/rules.md §6: the same routine deals the double deck, 20 cards each
    double = deal_cards(seed, 2, deck=DOUBLE_DECK)
    assert [len(h) for h in double.hands] == [20] * 4 and not double.widow + double.stock
    assert sorted(int(c) for h in double.hands for c in h) == sorted(DOUBLE_DECK.kinds)


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_packets_go_round_from_the_dealers_left(dealer: int) -> None:
    """The deal as the rules state it, rebuilt from the shuffled deck alone: three cards
    at a time round the table from the dealer's left (docs/rules.md §1.3), four at a
    time with the double deck (docs/rules.md §6, docs/double-deck.md "Deal"), the
    three-handed widow after the first round (docs/three-handed.md), and two hands
    of 12 from the dealer's opponent, then the turn-up and the stock (docs/rules.md §4)."""
    seed = deal_seed("packets", dealer)
    cards = shuffled_deck(seed)

    def round_the_table(deck: list[int], players: int, packet: int, first: int) -> list[list[int]]:
        hands: list[list[int]] = [[] for _ in range(players)]
        for i, card in enumerate(deck):
            hands[(first + i // packet) % players].append(card)
        return [sorted(h) for h in hands]

    def kinds(hands: tuple[Hand, ...]) -> list[list[int]]:
        return [sorted(int(c) for c in h) for h in hands]

    assert kinds(deal(seed, dealer)) == round_the_table(cards, 4, 3, dealer + 1)
    with pure_python():
        assert kinds(deal(seed, dealer)) == round_the_table(cards, 4, 3, dealer + 1)
    double = shuffled_deck(seed, DOUBLE_DECK)
    assert kinds(deal_cards(seed, dealer, deck=DOUBLE_DECK).hands) == round_the_table(
        double, 4, 4, dealer + 1)
    three = deal_cards(seed, dealer % 3, 3, 15, widow=3)
    assert list(three.widow) == cards[9:12]
    assert kinds(three.hands) == round_the_table(cards[:9] + cards[12:], 3, 3, dealer % 3 + 1)
    two = deal_cards(seed, dealer % 2, 2, 12)
    assert kinds(two.hands) == round_the_table(cards[:24], 2, 3, dealer % 2 + 1)
    assert list(two.stock) == cards[24:]
