"""The auctions the computer players hold (docs/players.md "Round score" and
"Auction habits"; docs/rules.md §5): tables of ``standard``, ``pro`` and ``expert``
players compete for the contract under every four- and three-handed preset,
and the levels of 003 follow its auction habits.

Only the auctions are played (each hand is a fresh deal), so the tests stay
short while the players decide exactly as they do in a whole game.
"""

from __future__ import annotations

import pytest

from pinochlekit import Bid, Game, Pass, Phase, Rules, parse_action
from pinochlekit.engine.rules import PRESETS as PRESETS_OF_THE_ENGINE
from pinochlekit.players import make_player
from pinochlekit.players.base import PlayerSpecError
from pinochlekit.players.easy import partner_has_it
from pinochlekit.players.expert import ExpertPlayer

#: The presets with passing to the declarer (or the widow taken): a minimum contract
#: an average hand can make with help.
PRESETS = ["pagat", "modern", "stonebridge", "playingcards", "chips", "family1000",
           "three(widow=take)", "pagat(min_bid=200, cards_passed=3)"]
#: No help for the declarer (no passing; the widow kept out): the minimum is made
#: only with a strong hand, and a stuck dealer is usually set, so fewer auctions.
HARD = ["cutthroat", "three"]
#: Deals enough to tell a table of experts that bids in a third of them under
#: these presets (the first two dozen deals of cutthroat hold few auctions: a
#: sample of nine or twelve said 12% to 22% where three hundred say 46%).
HARD_DEALS = 300


def _auction(rules: Rules, spec: str, seed: int) -> tuple[int, int]:
    """One auction from a fresh deal (``seed``): (bids made, players who bid)."""
    game = Game.new(rules, seed=seed, dealer=seed % rules.players)
    players = [make_player(spec, seed=f"{seed}-{s}") for s in range(rules.players)]
    bids, bidders = 0, set()
    while game.phase is Phase.AUCTION and not game.results:
        seat = game.to_act
        assert seat is not None
        action = players[seat].choose(game.view(seat))
        game.apply(action, seat)
        if isinstance(action, Bid):
            bids += 1
            bidders.add(seat)
    return bids, len(bidders)


def _bidding_share(rules: Rules, spec: str, hands: int) -> float:
    """The share of ``hands`` auctions in which some player bids (not a stuck dealer
    nor a redeal)."""
    return sum(_auction(rules, spec, seed)[0] > 0 for seed in range(hands)) / hands


@pytest.mark.parametrize("preset", PRESETS + HARD)
def test_a_table_of_standard_players_bids(preset: str) -> None:
    """docs/rules.md §5: the round score is what the team takes, so a standard
    player with an average hand is willing to open; someone bids in at least
    half the deals (one in ten three-handed or without help; the earlier reading left the dealer
    stuck in nearly all)."""
    rules = Rules.from_string(preset)
    easy = rules.players == 4 and preset in PRESETS
    share = _bidding_share(rules, "standard(bid_sims=120)", 12 if easy else 20)
    assert share >= (0.5 if easy else 0.1)


@pytest.mark.parametrize("preset", ["pagat", "modern", "playingcards"])
def test_pro_players_compete(preset: str) -> None:
    """More than one player bids in some auctions of a table of pro players."""
    rules = Rules.from_string(preset)
    contested = sum(_auction(rules, "pro(bid_sims=200, rollouts=8)", seed)[1] > 1
                    for seed in range(12))
    assert contested >= 2


#: The share of deals with a bid a table of experts must reach: one deal in three,
#: except three-handed with the widow kept out (the preset ``three``), where one in
#: six. There no help reaches the declarer and the two others defend against it, so
#: a bid seldom pays: both branches of the opening call played out with every seat
#: expert (bench/auction_branches.py, README "Measured") show that where expert
#: passed, opening would have cost 142 points of margin (first caller) and 161
#: (second) on average, and that even with every card known opening pays in only
#: about one deal in five at each of the two callers. Experts bid in 19% of 300
#: deals there (25% since their bidding simulations play the skilled card play,
#: docs/players.md expert "Bidding"); a silenced expert bid in none (divide by
#: ten) or in one deal in twelve (cutthroat, the left-opponent model). The 003
#: levels, which bid more there, are set more (README).
SHARE = {"three": 1 / 6}


@pytest.mark.parametrize("preset", [p for p in sorted(PRESETS_OF_THE_ENGINE)
                                    if p not in ("two", "doubledeck")])
def test_expert_players_hold_a_real_auction_under_every_preset(preset: str) -> None:
    """No scale or option silences expert: under every preset of the engine (the
    two-handed game has no auction to hold with four; the double deck has its own
    expert, docs/double-deck.md) someone bids in at least one deal in three (with
    divide by ten expert once compared a contract in the game's scale with the
    minimum bid in the ordinary scale, and never bid; without help for the
    declarer it once valued a pass as the left opponent declaring, and passed
    nearly every deal). Three-handed with the widow kept out a bid seldom pays,
    and the bar there is one deal in six (SHARE)."""
    rules = Rules.from_string(preset)
    deals = HARD_DEALS if preset in HARD else 9
    assert _bidding_share(rules, "expert(time=0.02)", deals) >= SHARE.get(preset, 1 / 3)


@pytest.mark.parametrize("preset", HARD)
def test_expert_players_bid_without_help_for_the_declarer(preset: str) -> None:
    """docs/players.md expert "Bidding": when every later call is a pass the dealer is
    stuck (docs/rules.md §1 Auction), so expert values a pass by the stuck dealer's
    hand, not by the opponent on its left. Without passing or the widow the stuck
    dealer is usually set, so a partner of the dealer or a hand that expects to make
    the minimum opens: someone bids in at least a third of the cutthroat deals (a
    sixth three-handed, SHARE). The default model there since 2026-12-03
    (``auction=auto``); with the left-opponent model (``auction=left``) a cutthroat
    table bids in about one deal in twelve."""
    rules = Rules.from_string(preset)
    share = _bidding_share(rules, "expert(time=0.02, auction=dealer)", HARD_DEALS)
    assert share >= SHARE.get(preset, 1 / 3)


@pytest.mark.parametrize(("preset", "seed"), [("three", 114), ("three", 58), ("three", 123),
                                            ("cutthroat", 150), ("cutthroat", 76)])
def test_expert_opens_a_strong_hand_without_help(preset: str, seed: int) -> None:
    """Under the HARD presets expert opens with a run in trump and length (the first
    bidder's hand of these deals): no scale or option silences it there either."""
    game = Game.new(preset, seed=seed, dealer=0)
    seat = game.to_act
    assert seat == 1
    action = make_player("expert(time=0.1)", seed=1).choose(game.view(seat))
    assert isinstance(action, Bid), (str(game.view(seat).hand), action)


def test_partner_has_it_reads_the_auction() -> None:
    """partner_has_it: only when partner is the high bidder and both opponents
    have passed."""
    game = Game.new("pagat", seed=5, dealer=3)
    game.apply(parse_action("bid 250"))  # seat 0
    assert not partner_has_it(game.view(1))  # seat 1: the opponent holds it
    game.apply(parse_action("pass"))  # seat 1
    assert not partner_has_it(game.view(2))  # seat 3 has not passed yet
    game.apply(parse_action("bid 260"))  # seat 2
    game.apply(parse_action("pass"))  # seat 3
    view = game.view(0)  # seat 0: partner (2) holds 260, both opponents passed
    assert game.to_act == 0 and partner_has_it(view)
    assert not partner_has_it(Game.new("three", seed=1).view(1))


@pytest.mark.parametrize("spec", ["easy", "standard(bid_sims=40)",
                                  "pro(bid_sims=40, rollouts=4)"])
def test_the_levels_do_not_outbid_partner_when_the_opponents_are_out(spec: str) -> None:
    """docs/rules.md §5 auction habits: with partner high and both opponents out,
    easy, standard and pro pass, whatever their hand (every seed of the player)."""
    game = Game.new("pagat", seed=5, dealer=3)
    for text in ("bid 250", "pass", "bid 260", "pass"):
        game.apply(parse_action(text))
    view = game.view(0)
    for seed in range(8):
        assert make_player(spec, seed=seed).choose(view) == Pass()


@pytest.mark.parametrize("spec", ["easy", "standard(bid_sims=40)",
                                  "pro(bid_sims=40, rollouts=4)"])
def test_a_player_who_may_not_pass_bids_the_minimum(spec: str) -> None:
    """docs/rules.md §5 auction habits: the first bidder who must open bids the
    lowest bid (pagat with ``first_bid_required``)."""
    rules = Rules.from_string("pagat(first_bid_required=yes)")
    for seed in range(6):
        game = Game.new(rules, seed=seed, dealer=0)
        view = game.view(1)
        assert Pass() not in view.legal_actions
        assert make_player(spec, seed=seed).choose(view) == Bid(rules.opening_bid)


def test_auction_inference_reads_calls_the_same_with_divide_by_ten() -> None:
    """The auction likelihood (players/inference.py) is in the ordinary scale: the
    same deal and calls weigh the same with divide by ten (its constants were once
    compared with meld and bids in tenths, so the auction told expert nothing)."""
    import random

    from pinochlekit.players.search.inference import Inference
    from pinochlekit.players.search.sampler import knowledge, sample_deal

    weights = []
    for rules, calls in ((Rules.from_string("pagat"), ("bid 250", "pass help", "bid 300")),
                         (Rules.from_string("pagat(divide_by_ten=yes)"),
                          ("bid 25", "pass help", "bid 30"))):
        game = Game.new(rules, seed=11, dealer=0)
        for text in calls:
            game.apply(parse_action(text))
        view = game.view(game.to_act)
        inference = Inference(view)
        rng = random.Random(3)
        deals = [sample_deal(knowledge(view), rng) for _ in range(30)]
        weights.append([inference.weight(deal) for deal in deals])
    ordinary, tenths = weights
    assert len(set(ordinary)) > 5  # the calls do tell something
    assert tenths == pytest.approx(ordinary)


@pytest.mark.parametrize("spec", ["random", "simple", "easy", "standard", "pro", "skilled",
                                  "expert(time=0.02)"])
@pytest.mark.parametrize("preset", ["pagat", "three"])
def test_after_the_highest_bid_every_level_passes(spec: str, preset: str) -> None:
    """docs/rules.md §1.4: once someone bids the most there is, a pass is the only call
    left; every level must make it (easy once crashed looking for a bid)."""
    game = Game.new(preset, seed=5)
    game.apply(max((a for a in game.legal_actions() if isinstance(a, Bid)),
                   key=lambda b: b.amount))
    seat = game.to_act
    assert seat is not None
    assert not any(isinstance(a, Bid) for a in game.legal_actions()), game.legal_actions()
    assert isinstance(make_player(spec, seed=1).choose(game.view(seat)), Pass)


def test_the_auction_model_by_default_follows_the_help_for_the_declarer() -> None:
    """docs/players.md expert "Bidding": ``auction=auto`` (the default) values a pass
    with nobody bidding as the dealer stuck where no cards are passed to the declarer
    (cutthroat, three-handed, stonebridge), as the left opponent declaring where they
    are; ``dealer`` and ``left`` force one model; another word is refused."""
    default = make_player("expert(time=0.02)", seed=1)
    assert isinstance(default, ExpertPlayer) and default.auction == "auto"
    for preset, stuck in (("cutthroat", True), ("three", True), ("stonebridge", True),
                          ("pagat", False), ("modern", False)):
        rules = Rules.from_string(preset)
        assert default._stuck_dealer(rules) is stuck, preset
        for forced in ("dealer", "left"):
            player = make_player(f"expert(time=0.02, auction={forced})", seed=1)
            assert isinstance(player, ExpertPlayer)
            assert player._stuck_dealer(rules) is (forced == "dealer")
    with pytest.raises(PlayerSpecError, match="auto, dealer or left"):
        make_player("expert(auction=right)", seed=1)
