"""Information leaks in the three-handed game (STYLE.md, tests 5; docs/rules.md §3, §5).

For a random prefix of a random three-handed game and each seat ``s``, a second
deal is built that differs from the real one only in cards ``s`` cannot have
seen: the unplayed, unshown cards of the two other seats and, while it is still
face down, the widow, shuffled among those places (each keeps its size). Cards
the prefix names (played, discarded) or shows (meld) stay where they were, and
once the auction is won the widow is face up and stays too. The prefix is
replayed on both deals and at every step ``s``'s view and a spectator's must be
identical, dataclass and ``to_dict()`` alike.

A comparison ends early, legitimately, when a hidden card changes somebody's
meld (meld is public) or when the new deal makes another seat's action illegal;
an action by ``s`` itself must stay legal.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pinochlekit import (
    Action,
    Bid,
    Card,
    Discard,
    Game,
    Hand,
    IllegalActionError,
    Pass,
    Phase,
    Play,
    Rules,
    ThrowIn,
)
from pinochlekit.engine.three.widow import FULL_DECK

RULES = {"three": Rules.preset("three"), "take": Rules.from_string("three(widow=take)"),
         "take-classic": Rules.from_string("three(widow=take, trick_points=classic, "
                                           "must_beat=following, trump_follows_trump=yes)")}


def choose(game: Game, rng: random.Random) -> Action:
    """Mostly pass or raise a step; otherwise uniform (throw in now and then)."""
    actions = game.legal_actions()
    if game.phase is Phase.AUCTION:
        passes = [a for a in actions if isinstance(a, Pass)]
        bids = [a for a in actions if isinstance(a, Bid)]
        return passes[0] if passes and rng.random() < 0.6 else bids[0]
    if game.phase is Phase.PLAY and ThrowIn() in actions and rng.random() < 0.03:
        return ThrowIn()
    return rng.choice([a for a in actions if not isinstance(a, ThrowIn)])


@dataclass
class DealFacts:
    """What the prefix did in the deal it stopped in."""

    dealt: tuple[Hand, ...]
    widow: Hand
    played: list[Counter[Card]] = field(default_factory=lambda: [Counter() for _ in range(3)])
    discards: Counter[Card] = field(default_factory=Counter)
    declarer: int | None = None
    shown: list[Counter[Card]] | None = None


def play_prefix(rules: Rules, seed: int, dealer: int, length: int
                ) -> tuple[list[Action], list[tuple[Hand, ...]], DealFacts] | None:
    """``length`` random actions; the deals played, and the facts of the last one
    (``None`` if the game ended)."""
    rng = random.Random(seed)
    game = Game.new(rules, seed=seed, dealer=dealer)
    deals = [game.dealt]
    facts = DealFacts(game.dealt, FULL_DECK - sum(game.dealt, Hand()))
    for _ in range(length):
        if game.phase is Phase.GAME_OVER:
            return None
        index = game.deal_index
        seat = game.to_act
        assert seat is not None
        action = choose(game, rng)
        game.apply(action)
        if game.deal_index != index:
            deals.append(game.dealt)
            facts = DealFacts(game.dealt, FULL_DECK - sum(game.dealt, Hand()))
            continue
        if isinstance(action, Play):
            facts.played[seat][action.card] += 1
        elif isinstance(action, Discard):
            facts.discards.update(action.cards)
        facts.declarer = game.declarer
        if game.melds is not None and facts.shown is None:
            facts.shown = [Counter(m.shown.cards()) for m in game.melds]
    if game.phase is Phase.GAME_OVER:
        return None
    return list(game.actions), deals, facts


def fixed_cards(facts: DealFacts, rules: Rules, seat: int) -> Counter[Card]:
    """Cards of ``seat``'s dealt hand the prefix pins down: those played or shown,
    and for a declarer who took the widow, the discards, less what the widow
    brought (hand at meld = dealt + widow - discards)."""
    known: Counter[Card] = Counter()
    shown = facts.shown[seat] if facts.shown else Counter()
    for card in set(facts.played[seat]) | set(shown):
        known[card] = max(facts.played[seat][card], shown[card])
    if seat == facts.declarer and rules.widow == "take":
        widow = Counter(facts.widow.cards())
        need = known + facts.discards
        known = Counter({c: need[c] - widow[c] for c in need if need[c] > widow[c]})
    dealt = Counter(facts.dealt[seat].cards())
    assert not known - dealt, (seat, known, dealt)
    return known


def alternative(facts: DealFacts, rules: Rules, seat: int, rng: random.Random
                ) -> tuple[Hand, ...] | None:
    """The dealt hands with cards hidden from ``seat`` moved among the two other
    seats and the widow while it is face down; ``None`` if nothing can move."""
    others = [t for t in range(3) if t != seat]
    places: dict[int, list[Card]] = {}
    for t in others:
        places[t] = list((Counter(facts.dealt[t].cards())
                          - fixed_cards(facts, rules, t)).elements())
    if facts.declarer is None:  # the widow is still face down
        places[-1] = facts.widow.cards()
    pool = [c for cards in places.values() for c in cards]
    if len(set(pool)) < 2:
        return None
    moved = {p: list(cards) for p, cards in places.items()}
    full = [p for p in places if places[p]]
    if rng.random() < 0.5 or len(full) < 2:
        rng.shuffle(pool)
        start = 0
        for p, cards in places.items():
            moved[p] = pool[start:start + len(cards)]
            start += len(cards)
    else:  # a small change: swap one card between two places
        a, b = rng.sample(full, 2)
        i, j = rng.randrange(len(places[a])), rng.randrange(len(places[b]))
        moved[a][i], moved[b][j] = places[b][j], places[a][i]
    hands = list(facts.dealt)
    for t in others:
        hands[t] = Hand.from_cards(list((Counter(facts.dealt[t].cards()) - Counter(places[t])
                                         + Counter(moved[t])).elements()))
    return tuple(hands)


def compare(rules: Rules, dealer: int, actions: list[Action], real: list[tuple[Hand, ...]],
            other: list[tuple[Hand, ...]], seat: int) -> int:
    """Replay on both deals; views of ``seat`` and a spectator must match. Returns
    how many actions were compared."""
    a = Game.new(rules, seed=0, dealer=dealer, deals=real)
    b = Game.new(rules, seed=0, dealer=dealer, deals=other)
    for number, action in enumerate(actions):
        assert a.view(seat) == b.view(seat), (number, action)
        assert a.view(seat).to_dict() == b.view(seat).to_dict()
        assert a.public_view() == b.public_view()
        actor = a.to_act
        try:
            b.apply(action)
        except IllegalActionError:
            assert actor != seat, f"seat {seat}'s own action {action} became illegal"
            return number
        a.apply(action)
        if a.melds != b.melds:
            return number
    assert a.view(seat) == b.view(seat)
    return len(actions)


def run_case(name: str, seed: int, length: int, dealer: int) -> int:
    rules = RULES[name]
    prefix = play_prefix(rules, seed, dealer, length)
    if prefix is None:
        return 0
    actions, deals, facts = prefix
    rng = random.Random(seed * 7 + 1)
    compared = 0
    for seat in range(3):
        hands = alternative(facts, rules, seat, rng)
        if hands is None:
            continue
        assert hands[seat] == facts.dealt[seat]
        assert sum(hands, Hand()) + (FULL_DECK - sum(hands, Hand())) == FULL_DECK
        compared += compare(rules, dealer, actions, deals, [*deals[:-1], hands], seat)
    return compared


@pytest.mark.parametrize("name", list(RULES))
def test_views_do_not_depend_on_hidden_cards(name: str) -> None:
    compared = sum(run_case(name, seed, 20 + 9 * seed, seed % 3) for seed in range(12))
    assert compared > 150  # the comparisons really ran, into the play


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(RULES)), st.integers(0, 10**6), st.integers(1, 160),
       st.integers(0, 2))
def test_views_do_not_depend_on_hidden_cards_hypothesis(name: str, seed: int, length: int,
                                                         dealer: int) -> None:
    run_case(name, seed, length, dealer)


def test_the_widow_face_down_is_hidden_and_face_up_is_public() -> None:
    """Two deals that differ only in the widow and another seat's hand look the
    same to seat 0 during the auction, and differ once the widow is turned up."""
    rules = RULES["three"]
    game = Game.new(rules, seed=4)
    hands = list(game.dealt)
    widow = FULL_DECK - sum(hands, Hand())
    card = widow.cards()[0]
    swap = next(c for c in hands[1].cards() if c != card)
    hands[1] = hands[1].remove(swap).add(card)
    other = Game.new(rules, seed=4, deals=[tuple(hands)])
    real = Game.new(rules, seed=4, deals=[game.dealt])
    assert real.view(0) == other.view(0)
    for game_ in (real, other):
        game_.apply(Pass())
        game_.apply(Bid(250))
    assert real.view(0) == other.view(0)
    real.apply(Pass())
    other.apply(Pass())
    assert real.view(0).widow != other.view(0).widow
