"""The ``expert`` player: registered, legal, deterministic, explains itself; its
inference never rules out the true deal; its passing simulation agrees across
backends."""

from __future__ import annotations

import random

import pytest

from pinochlekit import Game, Phase
from pinochlekit.engine.actions import Action, Bid, Discard, Give, Pass, Return, ThrowIn
from pinochlekit.engine.cards import Hand, Suit, parse_cards
from pinochlekit.engine.rules import Rules
from pinochlekit.engine.three.widow import FULL_DECK
from pinochlekit.engine.views import View
from pinochlekit.players import ExpertPlayer, PlayerSpecError, make_player
from pinochlekit.players.passing import AfterPassing, give_candidates, return_candidates
from pinochlekit.players.search.backends import set_backend
from pinochlekit.players.search.inference import (
    HELP_MELD,
    Inference,
    log_gain,
    meld_function,
    weighted_deals,
)

QS, JD = (int(c) for c in parse_cards("QS JD"))

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
    skilled = make_player("expert(rollout=skilled)")
    assert isinstance(skilled, ExpertPlayer) and skilled.rollout == "skilled"
    assert default.rollout == "skilled"
    for bad in ("expert(time=0)", "expert(time=-1)", "expert(time=yes)",
                "expert(solver_tricks=9)", "expert(depth=2)", "expert(rollout=pro)"):
        with pytest.raises(PlayerSpecError):
            make_player(bad)


def test_the_rollout_option_plays_the_simulations_with_that_policy() -> None:
    """``rollout=skilled``: the same deals played out by the skilled policy, so the
    expected points of the cards differ from standard rollouts somewhere in a hand."""
    game = Game.new("pagat", seed=5)
    standard = make_player("standard", seed=0)
    while game.phase is not Phase.PLAY:
        seat = game.to_act
        assert seat is not None
        game.apply(standard.choose(game.view(seat)), seat)
    differ = 0
    while game.phase is Phase.PLAY and len(game.tricks) < 6:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        texts = [ExpertPlayer(1, time=0.05, solver_tricks=0, rollout=policy).explain(view)
                 for policy in ("standard", "skilled")]
        differ += texts[0] != texts[1]
        game.apply(standard.choose(view), seat)
    assert differ > 0


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
    # solver ranks the cards as the solver's trick points do (docs/rules.md §1 Scoring:
    # the round score grows with the team's trick points).
    from pinochlekit.players.search.solver import Endgame, card_values
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


# -- three-handed (docs/rules.md §3) ------------------------------------------------------------

THREE = {"out": "three(target=500)", "take": "three(widow=take, target=500)"}
FAST3 = "expert(time=0.01)"


def play_game(rules: str, seed: int, specs: list[str]) -> Game:
    """A whole game to the target, every action checked legal."""
    game = Game.new(rules, seed=seed, dealer=seed % 3)
    players = [make_player(spec, f"g/{seed}/{s}") for s, spec in enumerate(specs)]
    while game.winner is None:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        action = players[seat].choose(view)
        assert action in view.legal_actions, (rules, seat, action)
        game.apply(action, seat)
    return game


@pytest.mark.parametrize("widow", ["out", "take"])
def test_three_handed_whole_games_legal_and_deterministic(widow: str) -> None:
    specs = [FAST3, "pro(bid_sims=16, rollouts=4)", FAST3]
    a = play_game(THREE[widow], 3, specs)
    b = play_game(THREE[widow], 3, specs)
    assert a.record == b.record
    assert len(a.results) >= 2 and a.winner is not None
    if widow == "take":
        assert any(r.discards for r in a.results)


def _other_deal(game: Game, seat: int, rng: random.Random) -> list[Hand]:
    """The deal of ``game`` with the cards ``seat`` cannot see before the widow is
    turned up (the other two hands and the widow) shuffled among those places."""
    hands = [game.hand(s) for s in range(3)]
    pool = [c for s in range(3) if s != seat for c in hands[s]]
    pool += [c for c in FULL_DECK - sum(hands, Hand())]
    rng.shuffle(pool)
    out = []
    for s in range(3):
        if s == seat:
            out.append(hands[s])
        else:
            out.append(Hand.from_cards(pool[:15]))
            pool = pool[15:]
    return out


@pytest.mark.parametrize("widow", ["out", "take"])
def test_three_handed_auction_uses_no_hidden_information(widow: str) -> None:
    # Two games that differ only in the other seats' cards and the face-down widow
    # give the seat to act the same view, so the expert must decide the same way.
    rules = THREE[widow]
    decided = set()
    for seed in range(3):
        real = Game.new(rules, seed=seed, dealer=seed % 3)
        prefix: list[Action] = []
        for step in range(3):
            seat = real.to_act
            if real.phase is not Phase.AUCTION or seat is None:
                break
            other = Game.new(rules, seed=seed, dealer=seed % 3,
                             deals=[_other_deal(real, seat, random.Random(seed * 10 + step))])
            for action in prefix:
                other.apply(action, other.to_act)
            assert other.hand(seat) == real.hand(seat) and other.dealt != real.dealt
            assert other.view(seat) == real.view(seat)
            one, two = (ExpertPlayer(f"h{seed}", time=0.01) for _ in range(2))
            assert one.explain(real.view(seat)) == two.explain(other.view(seat))
            action = one.choose(real.view(seat))
            assert two.choose(other.view(seat)) == action
            decided.add(type(action).__name__)
            # Go on with a bid where one is possible, so that later seats read one.
            legal = real.legal_actions()
            nxt = next((a for a in legal if isinstance(a, Bid)), action) if step == 0 \
                else action
            real.apply(nxt, seat)
            prefix.append(nxt)
    assert decided  # at least one kind of decision compared


def _to_phase(rules: str, seed: int, phase: Phase) -> Game | None:
    game = Game.new(rules, seed=seed)
    players = [make_player("pro(bid_sims=16, rollouts=4)", f"d{s}") for s in range(3)]
    while game.phase is not phase:
        if game.results:
            return None
        seat = game.to_act
        assert seat is not None
        game.apply(players[seat].choose(game.view(seat)), seat)
    return game


def test_three_handed_discard_by_simulation() -> None:
    from pinochlekit.engine.meld import meld
    from pinochlekit.players.passing import AfterDiscard, discard_candidates
    from pinochlekit.players.search.simulate import simulate_hand, start_for_bid
    checked = 0
    for seed in range(6):
        game = _to_phase(THREE["take"], seed, Phase.DISCARD)
        if game is None:
            continue
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        assert view.trump is not None
        hand = game.hand(seat)
        assert len(hand) == 18
        candidates = discard_candidates(hand, int(view.trump), view.rules)
        assert len(set(candidates)) == len(candidates) >= 1
        for cards in candidates:
            assert len(cards) == 3 and hand.issuperset(Hand.from_cards(cards))
        # The first candidate is the standard discard: after it, the hand goes on as
        # the simulator plays it from trump named (same deal, same round score).
        deal = (*(game.hand(s) for s in range(3)), Hand())
        after = AfterDiscard(view.rules, seat, view.contract, int(view.trump))
        kept = hand - Hand.from_cards(candidates[0])
        if view.contract <= meld(kept, view.trump, view.rules).points + view.rules.trick_total:
            for team in range(3):
                expected = simulate_hand(start_for_bid(view, int(view.trump), view.contract),
                                         deal, team)
                assert after.score(deal, candidates[0], team) == expected
        action = ExpertPlayer(seed, time=0.02).choose(view)
        assert isinstance(action, Discard) and action in view.legal_actions
        assert tuple(sorted(int(c) for c in action.cards)) in candidates
        checked += 1
    assert checked >= 2


def test_three_handed_throw_in_value_is_the_game_score() -> None:
    from pinochlekit.players.expert import concede_three
    checked = 0
    for widow in ("out", "take"):
        for seed in range(8):
            game = _to_phase(THREE[widow], seed, Phase.PLAY)
            if game is None or ThrowIn() not in game.legal_actions():
                continue
            seat = game.to_act
            assert seat is not None
            value = concede_three(game.view(seat))
            game.apply(ThrowIn(), seat)
            scores = game.results[-1].scores
            assert value == scores[seat] - (sum(scores) - scores[seat]) // 2
            checked += 1
    assert checked >= 4


def test_three_handed_solver_scores_rank_like_trick_points() -> None:
    from pinochlekit.players.expert import solved_three
    from pinochlekit.players.search.solver import Endgame, card_values
    checked = 0
    for widow in ("out", "take"):
        for seed in range(3):
            game = Game.new(THREE[widow], seed=seed)
            players = [make_player("pro(bid_sims=16, rollouts=4)", f"r{s}") for s in range(3)]
            while not game.results:
                seat = game.to_act
                assert seat is not None
                view = game.view(seat)
                hand = view.hand
                assert hand is not None
                if view.phase is Phase.PLAY and len(hand) <= 3 and \
                        len(view.legal_actions) > 1 and view.declarer is not None:
                    assert view.trump is not None
                    pile = FULL_DECK - sum((game.hand(s) for s in range(3)), Hand())
                    for t in view.tricks:
                        pile = pile - Hand.from_cards(t.cards)
                    pile = pile - Hand.from_cards([c for _, c in view.trick])
                    truth = (*(game.hand(s) for s in range(3)), pile)
                    assert len(pile) == 3
                    end = Endgame(int(view.trump), truth[:3], seat,
                                  tuple((s, int(c)) for s, c in view.trick),
                                  declarer=view.declarer)
                    values = card_values(view.rules, end, seat)
                    scores = solved_three(view, [truth], sorted(values))
                    for a in values:
                        for b in values:
                            if values[a] > values[b]:
                                assert scores[a][0] >= scores[b][0]
                                if seat == view.declarer:
                                    assert scores[a][0] > scores[b][0]
                            elif values[a] == values[b]:
                                assert scores[a][0] == scores[b][0]
                    checked += 1
                game.apply(players[seat].choose(view), seat)
    assert checked >= 6


def test_three_handed_inference_keeps_the_true_deal_and_reads_the_auction() -> None:
    checked = reading = 0
    for widow in ("out", "take"):
        for seed in range(3):
            game = Game.new(THREE[widow], seed=seed)
            players = [make_player("pro(bid_sims=16, rollouts=4)", f"i{s}") for s in range(3)]
            while not game.results:
                seat = game.to_act
                assert seat is not None
                view = game.view(seat)
                if view.phase is Phase.PLAY and len(view.legal_actions) > 1:
                    inference = Inference(view)
                    # The calls of a seat that bid or passed (not the declarer's once it
                    # took the widow) are read during the play too.
                    reading += bool(inference.calls)
                    assert all(c.seat != view.declarer for c in inference.calls) or \
                        widow == "out"
                    deals, weights = weighted_deals(view, random.Random(seed), 30, inference)
                    assert abs(sum(weights) - 1) < 1e-9 and len(deals[0]) == 4
                    truth = tuple(game.hand(s) for s in range(3))
                    assert inference.weight(truth) > 0
                    checked += 1
                game.apply(players[seat].choose(view), seat)
    assert checked >= 20 and reading >= 10


def test_give_candidates_offer_trumps_and_both_pinochle_parts() -> None:
    """docs/players.md expert "Passing to the declarer": pass trump, aces and pinochle
    parts to a declarer who needs them. The candidates a partner scores try the
    declarer's most wanted cards first: every trump it holds (J♦ here, a trump and a
    pinochle part) and Q♠ with J♦ together."""
    hand = Hand.parse("QS JD KS QH KH 9H TD 9D 9C JC TC KC")
    rules = Rules.preset("pagat")
    for trump in (Suit.DIAMONDS, Suit.SPADES):
        candidates = give_candidates(hand, int(trump), rules)
        offered = set().union(*candidates)
        held_trumps = {c for c in hand.cards() if c // 6 == trump}
        assert held_trumps <= offered, (trump, held_trumps - offered)
        assert any({QS, JD} <= set(c) for c in candidates)
        assert len(set(candidates)) == len(candidates) <= 16
        assert all(len(c) == rules.cards_passed and hand.issuperset(Hand.from_cards(c))
                   for c in candidates)


def test_pass_with_help_says_what_inference_reads() -> None:
    """docs/rules.md §1 Auction, "pass with help": expert's pass says help exactly when
    partner is still in the auction and its best meld is at least HELP_MELD (the
    meaning its own inference gives a partner's help); never where the option is off."""
    meld = meld_function(Rules.preset("pagat"))
    said = {True: 0, False: 0}
    for seed in range(40):
        for rules in (Rules.preset("pagat"), Rules.preset("pagat").replace(pass_with_help=False)):
            game = Game.new(rules, seed=seed)
            expert = ExpertPlayer(seed, time=0.02)
            while game.phase is Phase.AUCTION:
                seat = game.to_act
                assert seat is not None
                view = game.view(seat)
                action = expert.choose(view)
                if isinstance(action, Pass):
                    partner_out = any(s == (seat + 2) % 4 and isinstance(a, Pass)
                                      for s, a in view.auction)
                    best = max(meld(game.hand(seat), t) for t in range(4))
                    expected = rules.pass_with_help and not partner_out and best >= HELP_MELD
                    assert action.help == expected, (seed, seat, best, partner_out)
                    said[action.help] += 1
                game.apply(action, seat)
    assert said[True] > 0 and said[False] > 0


def _bid_values(player: ExpertPlayer, view: View, policy: str) -> dict[str, float]:
    """Declaring at the lowest bid in each suit, on the deals the player draws for
    ``view``, every simulated seat playing ``policy``'s cards."""
    from pinochlekit.players.search.backends import simulate_hands
    from pinochlekit.players.search.simulate import start_for_bid
    from pinochlekit.players.standard import trump_suits

    assert view.seat is not None
    lowest = min(a.amount for a in view.legal_actions if isinstance(a, Bid))
    state = player.rng.getstate()
    deals, weights = player._deals(view, player.bid_deals)
    player.rng.setstate(state)
    assert view.hand is not None
    hand = Hand.from_cards(view.hand)
    out = {}
    for suit in trump_suits(view.rules, hand):
        start = start_for_bid(view, suit, lowest, policy)  # type: ignore[arg-type]
        scores = simulate_hands(start, deals, view.rules.team_of(view.seat))
        out[f"{Suit(suit).letter} at {lowest}"] = sum(
            s * w for s, w in zip(scores, weights, strict=True))
    return out


def test_three_handed_bidding_simulations_play_the_rollout_policy() -> None:
    """docs/players.md expert "Bidding": three-handed (docs/rules.md §3) the bid
    simulations play the skilled card play (the ``rollout`` policy; standard's
    play valued declaring about 20 points below the hands played out), and
    ``bid_rollout=standard`` keeps the earlier standard play. Four-handed the
    default stays standard's."""
    game = Game.new("three", seed=4, dealer=2)
    view = game.view(game.to_act)
    new = ExpertPlayer(1, time=0.02)
    old = ExpertPlayer(1, time=0.02, bid_rollout="standard")
    assert new.bid_policy(view.rules) == "skilled"
    assert ExpertPlayer(1, rollout="standard").bid_policy(view.rules) == "standard"
    options = {"skilled": new.advise(view).options, "standard": old.advise(view).options}
    differ = 0
    for policy, seen in options.items():
        expected = _bid_values(new, view, policy)
        for name, mean in expected.items():
            assert seen[name][0] == pytest.approx(mean), (policy, name)
        differ += policy == "skilled" and any(
            options["standard"][name][0] != pytest.approx(mean)
            for name, mean in expected.items())
    assert differ  # the two card plays value this hand differently
    four = Game.new("pagat", seed=4)
    four_view = four.view(four.to_act)
    assert new.bid_policy(four_view.rules) == "standard"
    assert new.advise(four_view).options == old.advise(four_view).options
    with pytest.raises(PlayerSpecError):
        make_player("expert(bid_rollout=pro)")
