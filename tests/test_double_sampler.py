"""The double-deck sampler (players/double/sampler.py) against what a seat may see.

Over random whole hands under the must-beat options of docs/rules.md §2 and the
§6 passing options: the true deal always agrees with the seat's knowledge (so no
fact read from play is wrong), every sample agrees with it, the count of deals
matches a brute-force count written differently, and two games that differ only
in cards the seat cannot see give the same knowledge and the same samples.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_double_information import other_deal, play_prefix

from pinochlekit import IllegalActionError, Phase
from pinochlekit.engine.double.game import DoubleDeckGame
from pinochlekit.players.double.sampler import (
    DoubleKnowledge,
    DoubleSampler,
    NoDoubleDealError,
    double_knowledge,
)

RULES = ["doubledeck", "doubledeck(cards_passed=4)",
         "doubledeck(must_beat=trump_led, cards_passed=2)",
         "doubledeck(must_beat=following, trump_follows_trump=yes, first_lead=trump)"]


def truth(game: DoubleDeckGame) -> list[list[int]]:
    return [list(game.hand(s).counts) for s in range(4)]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(RULES), length=st.integers(1, 90))
def test_samples_agree_with_the_view(seed: int, rules: str, length: int) -> None:
    """The real deal and every sample satisfy every fact the seat holds."""
    game = play_prefix(seed, rules, length)
    rng = random.Random(seed)
    for seat in range(4):
        knowledge = double_knowledge(game.view(seat))
        assert knowledge.violation(truth(game)) is None
        for hands in DoubleSampler(knowledge).samples(rng, 8):
            assert knowledge.violation(hands) is None


def test_play_reveals_voids_and_the_must_beat() -> None:
    """docs/rules.md §1.9 and §2: a seat that did not follow holds none of the suit led;
    under must_beat=always one that followed low under a higher card held no card that
    beats it. Found in a seeded whole hand, checked against the real hands."""
    found_void = found_beat = False
    for seed in range(40):
        game = play_prefix(seed, "doubledeck", 70)
        if game.phase is not Phase.PLAY:
            continue
        knowledge = double_knowledge(game.view(0))
        for trick in game.tricks:
            led = trick.cards[0] // 6
            for s, card in zip(trick.seats[1:], trick.cards[1:], strict=True):
                if s != 0 and card // 6 != led:
                    assert all(knowledge.excluded[s] >> k & 1 for k in range(led * 6, led * 6 + 6))
                    found_void = True
        for s in (1, 2, 3):
            for kind in range(24):
                if knowledge.excluded[s] >> kind & 1:
                    assert game.hand(s).count(kind) == 0
                    found_beat = found_beat or kind // 6 == game.tricks[0].cards[0] // 6
        if found_void and found_beat:
            break
    assert found_void and found_beat


def brute_count(knowledge: DoubleKnowledge) -> int:
    """Physical assignments of the unseen copies to the other seats that agree, by
    enumerating every copy's seat (a slow reference written differently)."""
    others = [s for s in range(4) if s != knowledge.seat]
    copies = [k for k in range(24) for _ in range(knowledge.unseen[k])]
    count = 0
    for seats in itertools.product(others, repeat=len(copies)):
        hands = [[0] * 24 for _ in range(4)]
        hands[knowledge.seat] = list(knowledge.hand)
        for kind, s in zip(copies, seats, strict=True):
            hands[s][kind] += 1
        count += knowledge.violation(hands) is None
    return count


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_count_of_deals_matches_brute_force(seed: int) -> None:
    """Three tricks before the end (nine unseen cards): the dynamic program's number of
    deals is the number a brute-force enumeration finds, and sampled frequencies come
    out near uniform over those deals."""
    game = play_prefix(seed, RULES[seed % len(RULES)], 10_000)
    assert game.results  # a whole hand; replay to the point with 3 tricks left
    first = game.results[0]
    replay = DoubleDeckGame.new(game.rules, seed=game.seed, dealer=game.first_dealer)
    for action in game.actions:
        if replay.phase is Phase.PLAY and len(replay.tricks) == 17 and not replay.trick:
            break
        replay.apply(action)
    assert first.tricks and len(replay.tricks) == 17
    seat = replay.to_act
    assert seat is not None
    knowledge = double_knowledge(replay.view((seat + 1) % 4))
    sampler = DoubleSampler(knowledge)
    assert sampler.total_weight == brute_count(knowledge) > 0


def test_nothing_agrees_is_a_clear_error() -> None:
    game = DoubleDeckGame.new("doubledeck", seed=1)
    knowledge = double_knowledge(game.view(1))
    bad = DoubleKnowledge(1, knowledge.hand, knowledge.sizes, knowledge.known,
                          (0, 0, 0xFFFFFF, 0xFFFFFF), knowledge.unseen)
    with pytest.raises(NoDoubleDealError):
        DoubleSampler(bad)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(RULES), length=st.integers(1, 90))
def test_samples_do_not_depend_on_unseen_cards(seed: int, rules: str, length: int) -> None:
    """Two games that differ only in cards the seat cannot see (tests 5 of STYLE.md:
    the other seats' unseen cards reshuffled among them) give the same knowledge and,
    from the same random state, the same samples."""
    game = play_prefix(seed, rules, length)
    if game.hand_number != 1:
        return  # the hand is over: game.dealt is the next deal's
    rng = random.Random(seed)
    for seat in range(4):
        alt = DoubleDeckGame.new(game.rules, seed=game.seed, dealer=game.first_dealer,
                                 deals=[other_deal(game, seat, rng)])
        real = DoubleDeckGame.new(game.rules, seed=game.seed, dealer=game.first_dealer,
                                  deals=[game.dealt])
        for action in game.actions:
            try:
                alt.verify(action)
            except IllegalActionError:
                break
            real.apply(action)
            alt.apply(action)
            if real.melds != alt.melds:
                break
        if real.hand_number != 1 or real.view(seat) != alt.view(seat):
            continue
        a, b = double_knowledge(real.view(seat)), double_knowledge(alt.view(seat))
        assert a == b
        assert a.violation(truth(alt)) is None
        assert (DoubleSampler(a).samples(random.Random(seed), 5)
                == DoubleSampler(b).samples(random.Random(seed), 5))
