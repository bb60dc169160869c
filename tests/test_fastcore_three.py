"""The C simulation core in the three-handed game (docs/rules.md §3) against the Python simulator.

``simulate.python_backend`` is the reference: for random deals and for positions of
real three-handed games (seen by each seat, unseen cards from the hidden-card
sampler), ``fastcore.backend`` must give the same round score for every seat, under
both widow options and both set penalties, for everything ``standard`` and ``pro``
ask of it: bidding simulations in the auction, the trump choice after a taken
widow (declarer with 18 cards), and card-play rollouts. A three-handed ``pro`` game
is then played twice, once per backend, and must be the same move for move.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

import pytest

from pinochlekit import Game, Hand, NameTrump, Phase, Play, Rules, Suit, ThrowIn
from pinochlekit.engine.actions import Action, Bid, Pass
from pinochlekit.engine.three.widow import FULL_DECK
from pinochlekit.players import ProPlayer, StandardPlayer
from pinochlekit.players.search import backends, simulate
from pinochlekit.players.search.sampler import knowledge, sample_deal

try:
    from pinochlekit.native import _core
    from pinochlekit.players.search import fastcore as fc
except ImportError:  # pragma: no cover - the extension is built by `pip install -e .`
    pytest.skip("the C core pinochlekit.native._core is not built", allow_module_level=True)

VARIANTS = ["three", "three(widow=take)", "three(set_penalty=contract)",
            "three(widow=take, set_penalty=contract)",
            "three(meld_reuse=once, trick_points=classic, first_lead=trump, "
            "trump_follows_trump=yes)",
            "three(widow=take, must_beat=following, save_meld_needs_trick=no, "
            "set_penalty=contract, set_forfeits_meld=no, divide_by_ten=yes)"]


def _deal(rng: random.Random) -> tuple[Hand, ...]:
    """A random three-handed deal: 15 cards to each seat and the widow of 3."""
    deck = [k for k in range(24) for _ in range(2)]
    rng.shuffle(deck)
    return (*(Hand.from_cards(deck[15 * s:15 * s + 15]) for s in range(3)),
            Hand.from_cards(deck[45:]))


def _same(start: simulate.Start, deals: Sequence[Sequence[Hand]], teams: Sequence[int]
          ) -> list[int]:
    """Both backends for every team, by both measures (the net score and what the
    seat takes, docs/rules.md §5); the C results (which must equal Python's)."""
    out = []
    for team in teams:
        for score in ("net", "take"):
            measured = replace(start, score=score)
            ours = fc.backend(measured, deals, team)
            theirs = simulate.python_backend(measured, deals, team)
            assert ours == theirs, (measured, team)
            out += ours
    return out


@pytest.mark.parametrize("name", VARIANTS)
def test_bid_rounds_match_python(name: str) -> None:
    """From trump named: widow (taken and discarded, or kept out), meld, not on the
    board, fifteen tricks, the pile's points, each seat's round score."""
    rules = Rules.from_string(name)
    rng = random.Random(name)
    results = []
    for i in range(30):
        deals = [_deal(rng) for _ in range(8)]
        declarer = i % 3
        if rules.widow == "take" and i % 2:
            # The trump choice after taking the widow: the declarer holds 18 cards.
            deals = [(*(h + d[3] if s == declarer else h for s, h in enumerate(d[:3])), Hand())
                     for d in deals]
        contract = rules.opening_bid + rules.step * rng.choice([0, 3, 10, 25, 60])
        start = simulate.Start(rules=rules, declarer=declarer, contract=contract,
                               trump=rng.randrange(4), knower=declarer)
        results += _same(start, deals, range(3))
    assert len(set(results)) > 20  # real, varied scores (not one constant)


@pytest.mark.parametrize("name", ["three", "three(widow=take)", "three(set_penalty=contract)"])
def test_a_hand_not_on_the_board_scores_as_the_game_does(name: str) -> None:
    """A declarer at 650 whose meld cannot reach it: the hand is not played and the
    pile's points still count for the declarer (docs/three-handed.md step 8), in
    the real game and in both simulators."""
    rules = Rules.from_string(name)
    compared = 0
    for seed in range(12):
        game = Game.new(rules, seed=seed)
        dealt = [game.hand(s) for s in range(3)]
        widow = FULL_DECK - sum(dealt, Hand())
        game.apply(Bid(650), game.to_act)
        while game.phase is Phase.AUCTION:
            game.apply(Pass(), game.to_act)
        declarer, trump = game.declarer, seed % 4
        assert declarer is not None
        game.apply(NameTrump(Suit(trump)), declarer)
        if game.phase is Phase.DISCARD:
            game.apply(StandardPlayer(1).choose(game.view(declarer)), declarer)
        if not game.results:
            continue  # on the board after all
        scores = game.results[0].scores
        start = simulate.Start(rules, declarer, 650, trump, declarer)
        for team in range(3):
            real = scores[team] - (sum(scores) - scores[team]) // 2
            assert simulate.simulate_hand(start, [*dealt, widow], team) == real
            assert fc.backend(start, [(*dealt, widow)], team) == [real]
        compared += 1
    assert compared >= 8


def _drive(rules: Rules, seed: int, stop: Phase) -> list[Game]:
    """Copies of a game at every decision of phase ``stop`` over one or two hands: the
    auction and discards at random, the play half by the standard player's rules."""
    rng = random.Random(seed)
    game = Game.new(rules, seed=seed, dealer=seed % 3)
    player = StandardPlayer(seed, bid_sims=4)
    out: list[Game] = []
    while game.phase is not Phase.GAME_OVER and len(game.results) < 2:
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions()
        if game.phase is stop:
            out.append(game.copy())
        action: Action
        if game.phase is Phase.PLAY:
            plays = [a for a in legal if type(a) is Play]
            if rng.random() < 0.5:
                action = rng.choice(plays)
            else:
                action = player.choose(game.view(seat))
                if type(action) is ThrowIn:
                    action = plays[0]
        elif game.phase is Phase.AUCTION:
            bids = [a for a in legal if type(a) is Bid]
            action = Pass() if Pass() in legal and rng.random() < 0.6 else min(
                bids, key=lambda b: b.amount)
        else:
            action = rng.choice(legal)
        game.apply(action, seat)
    return out


@pytest.mark.parametrize("name", VARIANTS)
def test_card_play_rollouts_match_python(name: str) -> None:
    """pro's card decisions: from the play so far as one seat sees it, deals of the
    unseen cards (and pile) by the sampler, before and after one more card."""
    rules = Rules.from_string(name)
    rng = random.Random(name)
    checked = 0
    for seed in range(3):
        for game in _drive(rules, 700 + seed, Phase.PLAY)[::4]:
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            start = simulate.start_from_view(view)
            known = knowledge(view)
            deals = [sample_deal(known, rng) for _ in range(6)]
            _same(start, deals, range(3))
            card = rng.choice([a.card for a in view.legal_actions if type(a) is Play])
            if len(view.hand or ()) > 1:
                after = [tuple(h.remove(card) if s == seat else h for s, h in enumerate(d))
                         for d in deals]
                _same(start.then(seat, card), after, [seat])
            checked += 1
    assert checked >= 10


@pytest.mark.parametrize("name", ["three", "three(widow=take)"])
def test_auction_and_trump_simulations_match_python(name: str) -> None:
    """The bidding simulations of real views: the widow face down in the auction;
    with ``widow="take"`` the declarer's 18 cards when naming trump."""
    rules = Rules.from_string(name)
    rng = random.Random(name)
    checked = 0
    for seed in range(4):
        for phase in (Phase.AUCTION, Phase.TRUMP):
            for game in _drive(rules, 800 + seed, phase)[:3]:
                seat = game.to_act
                assert seat is not None
                view = game.view(seat)
                known = knowledge(view)
                deals = [sample_deal(known, rng) for _ in range(6)]
                if phase is Phase.TRUMP and rules.widow == "take":
                    assert len(deals[0][seat]) == 18 and not deals[0][3]
                contract = view.contract if phase is Phase.TRUMP else rules.opening_bid
                for trump in range(4):
                    _same(simulate.start_for_bid(view, trump, contract), deals, range(3))
                checked += 1
    assert checked >= 8


def _pro_game(rules: Rules, backend: simulate.Backend, seed: int) -> list[Action]:
    previous = backends.set_backend(backend)
    try:
        game = Game.new(rules, seed=seed)
        players = [ProPlayer(seed + s, bid_sims=16, rollouts=6) for s in range(3)]
        actions: list[Action] = []
        while game.phase is not Phase.GAME_OVER and not game.results:
            seat = game.to_act
            assert seat is not None
            action = players[seat].choose(game.view(seat))
            game.apply(action, seat)
            actions.append(action)
        return actions
    finally:
        backends.set_backend(previous)


@pytest.mark.parametrize("name", ["three", "three(widow=take, set_penalty=contract)"])
def test_pro_game_is_the_same_with_either_backend(name: str) -> None:
    """A hand of three pro players: the C backend and the Python simulator give the
    same game, move for move (and the C core did the simulating)."""
    rules = Rules.from_string(name)
    calls: list[int] = []

    def counted(start: simulate.Start, deals: Sequence[Sequence[Hand]], team: int
                ) -> list[int]:
        calls.append(len(deals))
        return fc.backend(start, deals, team)

    with_c = _pro_game(rules, counted, 5)
    with_python = _pro_game(rules, simulate.python_backend, 5)
    assert with_c == with_python
    assert sum(type(a) is Play for a in with_c) == 45
    assert len(calls) > 20


def test_bad_three_handed_input_is_refused() -> None:
    rules = Rules.preset("three")
    core = fc.core_rules(rules)
    deal = _deal(random.Random(1))
    masks = tuple(x for h in deal for x in (h.once, h.twice))
    assert len(_core.simulate_deals(core, None, [masks], 0, 1, 250, 2)) == 1
    short = tuple(x for h in (deal[0].remove(deal[0].cards()[0]), *deal[1:])
                  for x in (h.once, h.twice))
    with pytest.raises(ValueError, match="three-handed deal"):
        _core.simulate_deals(core, None, [short], 0, 1, 250, 0)
    with pytest.raises(ValueError, match="team"):
        _core.simulate_deals(core, None, [masks], 0, 1, 250, 3)
    with pytest.raises(ValueError, match="four-handed game only"):
        _core.simulate_bid_hands(core, (deal[0].once, deal[0].twice), 0, 1, 250, 4, 0)
    with pytest.raises(ValueError, match="players"):
        _core.Rules(points=(0,) * 24, meld_values=(0,) * 15, players=5)
