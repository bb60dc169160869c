"""The double deck's auction inference (players/double/inference.py).

The calls of the other seats weigh the sampled deals: a bid makes a deal in which
the bidder holds more meld likelier, a pass less; the seat's own calls and, once
cards were passed, the declarer's and partner's are not read; each seat counts
once, by its highest bid and the bid it declined; and the expert with the inference
plays legal, reproducible hands.
"""

from __future__ import annotations

import random

from pinochlekit.engine.actions import Bid, Pass
from pinochlekit.engine.double.game import DoubleDeckGame
from pinochlekit.players import make_player
from pinochlekit.players.double.inference import DoubleInference, resample
from pinochlekit.players.double.sampler import DoubleSampler, double_knowledge


def after(calls: list[str], seed: int = 5, rules: str = "doubledeck") -> DoubleDeckGame:
    game = DoubleDeckGame.new(rules, seed=seed, dealer=0)
    for text in calls:
        game.apply(Bid(int(text)) if text != "pass" else Pass())
    return game


def test_a_bid_favours_deals_where_the_bidder_holds_meld() -> None:
    """Seat 1 bids 70, seat 2 passes; seat 3's weights rank deals by seat 1's meld
    (higher weight, more meld on average) and by seat 2's (lower)."""
    game = after(["70", "pass"])
    view = game.view(3)
    reading = DoubleInference(view)
    # docs/rules.md §6: by 5 from 60, so seat 2 declined 75
    assert reading.calls == [(1, 70, True), (2, 75, False)]
    deals = DoubleSampler(double_knowledge(view)).samples(random.Random(2), 400)
    weights = [reading.weight(d) for d in deals]
    order = sorted(range(len(deals)), key=weights.__getitem__)
    low, high = order[:100], order[-100:]

    def mean_worth(rows: list[int], seat: int) -> float:
        return sum(reading.worth(deals[i], seat) for i in rows) / len(rows)

    assert mean_worth(high, 1) > mean_worth(low, 1) + 5
    assert mean_worth(high, 2) < mean_worth(low, 2)


def test_a_seat_counts_once_by_its_highest_bid_and_a_pass_after_the_top_is_silent() -> None:
    """Seat 1 bids 55 then 70: read once, at 70. After a bid at the top of the ladder
    the others can only pass, which says nothing (and reads without error)."""
    game = after(["55", "pass", "60", "pass", "70"])
    assert DoubleInference(game.view(0)).calls == [(1, 70, True), (3, 60, True),
                                                   (2, 56, False)]  # not seat 0's own
    top = after(["1705", "pass"])
    assert DoubleInference(top.view(3)).calls == [(1, 1705, True)]


def test_no_calls_no_weights_and_own_calls_are_not_read() -> None:
    game = after([])
    assert not DoubleInference(game.view(1)).active
    game = after(["55"])
    assert not DoubleInference(game.view(1)).active  # its own bid
    assert DoubleInference(game.view(2)).calls == [(1, 55, True)]


def test_passed_cards_end_the_reading_of_the_two_partners() -> None:
    """With passing, once the declarer and partner passed cards their calls speak of
    hands they no longer hold."""
    game = after(["60", "pass", "pass", "pass"], rules="doubledeck(cards_passed=4)")
    game.apply(game.legal_actions()[0])  # trump
    while game.phase.value in ("give", "return"):
        game.apply(game.legal_actions()[0])
    view = game.view(0)
    seats = {s for s, _, _ in DoubleInference(view).calls}
    assert 1 not in seats and 3 not in seats


def test_the_declarers_calls_are_read_while_its_partner_chooses_what_to_give() -> None:
    """docs/rules.md §6 passing: in the give phase no card has moved yet."""
    game = after(["60", "65", "70", "pass", "pass", "pass"], rules="doubledeck(cards_passed=4)")
    game.apply(game.legal_actions()[0])  # trump
    assert game.phase.value == "give"
    calls = DoubleInference(game.view(game.to_act)).calls
    assert (game.declarer, 70, True) in calls


def test_resampling_follows_the_weights() -> None:
    rng = random.Random(3)
    deals = [[[i]] for i in range(4)]
    kept = resample(deals, [0.0, 3.0, 1.0, 0.0], 400, rng)
    counts = [kept.count(d) for d in deals]
    assert counts[0] == counts[3] == 0 and counts[1] == 300 and counts[2] == 100
    assert resample(deals, [0.0] * 4, 2, rng) == deals[:2]


def test_the_expert_reads_the_auction_and_plays_reproducibly() -> None:
    """expert (inference on by default) and expert(inference=no) take legal actions
    through a whole hand, the same seed giving the same hand."""
    for spec in ("expert(time=0.05)", "expert(time=0.05, inference=no)"):
        games = []
        for _ in range(2):
            game = DoubleDeckGame.new("doubledeck", seed=9, dealer=1)
            players = [make_player(spec if s % 2 else "pro", s) for s in range(4)]
            while not game.results:
                seat = game.to_act
                assert seat is not None
                game.apply(players[seat].choose(game.view(seat)), seat)
            games.append([str(a) for a in game.actions])
        assert games[0] == games[1]
