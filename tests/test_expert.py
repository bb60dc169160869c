"""The ``expert`` player: registered, legal, deterministic, explains itself; its
inference never rules out the true deal; its passing simulation agrees across
backends."""

from __future__ import annotations

import random

import pytest

from pinochlekit import Game, Phase
from pinochlekit.actions import Bid, Give, Return
from pinochlekit.cards import Hand
from pinochlekit.players import ExpertPlayer, PlayerSpecError, make_player
from pinochlekit.players.inference import Inference, log_gain, weighted_deals
from pinochlekit.players.passing import AfterPassing, give_candidates, return_candidates
from pinochlekit.players.simulate import set_backend

FAST = "expert(time=0.02)"


def play_hand(preset: str, seed: int, specs: list[str]) -> Game:
    game = Game.new(preset, seed=seed, dealer=seed % 4)
    players = [make_player(spec, f"t/{seed}/{s}") for s, spec in enumerate(specs)]
    while not game.results:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        action = players[seat].choose(view)
        assert action in view.legal_actions, (preset, seat, action)
        game.apply(action, seat)
    return game


def test_registered_with_options() -> None:
    player = make_player("expert(time=0.2)", seed=3)
    assert isinstance(player, ExpertPlayer)
    assert player.time == 0.2 and player.solver_tricks == 4
    default = make_player("expert", seed=1)
    assert isinstance(default, ExpertPlayer) and default.time == 1.0
    off = make_player("expert(solver_tricks=0, inference=no)")
    assert isinstance(off, ExpertPlayer) and off.solver_tricks == 0 and not off.inference
    for bad in ("expert(time=0)", "expert(time=-1)", "expert(time=yes)",
                "expert(solver_tricks=9)", "expert(depth=2)"):
        with pytest.raises(PlayerSpecError):
            make_player(bad)


def test_budget_sets_the_work_not_the_clock() -> None:
    small, large = ExpertPlayer(time=0.1), ExpertPlayer(time=1.0)
    assert small.rollouts < large.rollouts and small.bid_deals < large.bid_deals
    assert large.rollouts == ExpertPlayer.DEALS_PER_SECOND


@pytest.mark.parametrize("preset", ["pagat", "modern", "stonebridge", "family1000"])
def test_plays_whole_hands_legally(preset: str) -> None:
    game = play_hand(preset, 5, [FAST, "pro(bid_sims=40, rollouts=8)"] * 2)
    assert game.results


def test_deterministic_given_its_seed() -> None:
    a = play_hand("pagat", 9, [FAST, "standard(bid_sims=40)"] * 2)
    b = play_hand("pagat", 9, [FAST, "standard(bid_sims=40)"] * 2)
    assert a.record == b.record
    assert len(a.record.actions) > 40


def test_explain_names_the_options_and_changes_nothing() -> None:
    game = Game.new("pagat", seed=21)
    seen: set[Phase] = set()
    players = [ExpertPlayer(f"x{s}", time=0.02) for s in range(4)]
    while not game.results:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        player = players[seat]
        text = player.explain(view)
        action = player.choose(view)
        assert text is not None and text.startswith(str(action))
        if view.phase is Phase.PLAY and len(view.legal_actions) > 1:
            assert "(" in text and ".." in text  # expected points with the sampled range
        seen.add(view.phase)
        game.apply(action, seat)
    assert Phase.PLAY in seen and Phase.AUCTION in seen


def test_explain_leaves_the_random_state() -> None:
    game = Game.new("pagat", seed=4)
    view = game.view(game.to_act)
    player = ExpertPlayer(2, time=0.02)
    state = player.rng.getstate()
    player.explain(view)
    assert player.rng.getstate() == state


def _play_views(seed: int) -> list[tuple[Game, int]]:
    """Games stopped at each card decision of a pro-played hand: (game copy, seat)."""
    game = Game.new("pagat", seed=seed)
    players = [make_player("pro(bid_sims=40, rollouts=8)", f"p{s}") for s in range(4)]
    out = []
    while not game.results:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        if view.phase is Phase.PLAY and len(view.legal_actions) > 1:
            out.append((game.copy(), seat))
        game.apply(players[seat].choose(view), seat)
    return out


def test_meld_inference_never_rules_out_the_true_deal() -> None:
    excluded = 0
    for seed in range(4):
        for game, seat in _play_views(seed)[::3]:
            view = game.view(seat)
            truth = tuple(game.hand(s) for s in range(4))
            inference = Inference(view, auction=False)
            assert inference.weight(truth) == 1.0
            _, weights = weighted_deals(view, random.Random(seed), 40, inference)
            excluded += sum(1 for w in weights if w == 0)
            assert abs(sum(weights) - 1) < 1e-9
            assert log_gain(view, truth, random.Random(1), 40, auction=False) >= 0
    assert excluded > 0  # the meld not shown does rule deals out


def test_auction_inference_reads_a_high_bid() -> None:
    game = Game.new("pagat", seed=2)
    # Seat 1 bids first, high; seat 2 (to act next) reads it.
    first = game.to_act
    assert first is not None
    game.apply(Bid(350), first)
    seat = game.to_act
    assert seat is not None
    view = game.view(seat)
    inference = Inference(view)
    deals, weights = weighted_deals(view, random.Random(3), 300, inference)
    melds = [inference.best_meld(d[first]) for d in deals]
    plain = sum(melds) / len(melds)
    weighted = sum(m * w for m, w in zip(melds, weights, strict=True))
    assert weighted > plain + 10


def test_passing_candidates_and_backends_agree() -> None:
    game = Game.new("pagat", seed=6)
    players = [make_player("pro(bid_sims=40, rollouts=8)", f"q{s}") for s in range(4)]
    while game.phase is not Phase.GIVE:
        seat = game.to_act
        assert seat is not None
        game.apply(players[seat].choose(game.view(seat)), seat)
    view = game.view(game.to_act)
    assert view.seat is not None and view.trump is not None and view.declarer is not None
    hand = game.hand(view.seat)
    candidates = give_candidates(hand, int(view.trump), view.rules)
    assert len(set(candidates)) == len(candidates) > 1
    for cards in candidates:
        assert len(cards) == view.rules.cards_passed
        assert hand.issuperset(Hand.from_cards(cards))
    deal = tuple(game.hand(s) for s in range(4))
    after = AfterPassing(view.rules, view.declarer, view.contract, int(view.trump), view.seat)
    c_scores = [after.after_give(deal, cards, 0) for cards in candidates]
    previous = set_backend(None)
    try:
        py_scores = [after.after_give(deal, cards, 0) for cards in candidates]
    finally:
        set_backend(previous)
    assert c_scores == py_scores
    expert = ExpertPlayer(1, time=0.02)
    action = expert.choose(view)
    assert isinstance(action, Give)
    game.apply(action, view.seat)
    back = game.view(game.to_act)
    received = Hand.from_cards(back.given or ())
    assert back.trump is not None and back.hand is not None
    options = return_candidates(back.hand, int(back.trump), back.rules, received)
    assert all(back.hand.issuperset(Hand.from_cards(o)) for o in options)
    assert isinstance(expert.choose(back), Return)


def test_solver_values_become_round_scores_in_the_same_order() -> None:
    # On the true deal, the round score the expert gives each card from the exact
    # solver ranks the cards as the solver's trick points do (RULES.md §1 Scoring:
    # the round score grows with the team's trick points).
    from pinochlekit.players.solver import Endgame, card_values
    checked = 0
    for game, seat in _play_views(11) + _play_views(12):
        view = game.view(seat)
        hand = view.hand
        assert hand is not None and view.trump is not None
        if len(hand) > 5:
            continue
        truth = tuple(game.hand(s) for s in range(4))
        end = Endgame(int(view.trump), truth, seat, tuple((s, int(c)) for s, c in view.trick))
        values = card_values(view.rules, end, seat % 2)
        expert = ExpertPlayer(1, time=0.05)
        scores = expert._solved(view, [truth], sorted(values))
        for a in values:
            for b in values:
                if values[a] > values[b]:
                    assert scores[a][0] > scores[b][0]
                elif values[a] == values[b]:
                    assert scores[a][0] == scores[b][0]
        checked += 1
    assert checked >= 4
