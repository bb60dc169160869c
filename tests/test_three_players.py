"""Computer players in the three-handed game (docs/rules.md §3, §5; docs/players.md).

* ``easy``, ``standard`` and ``pro`` finish three-handed games under both widow
  options, from their seat's view only, with legal actions;
* the hidden-card sampler covers three seats and the set-aside pile: the true
  deal is always consistent with what a seat knows, and every sample is;
* the simulator plays a hand exactly as the real standard players do: from the
  first lead, simulating the true deal gives the round score the real game gave.
"""

from __future__ import annotations

import random

import pytest

from pinochlekit import Game, Hand, Phase, Rules
from pinochlekit.engine.three.widow import FULL_DECK
from pinochlekit.players import EasyPlayer, Player, ProPlayer, StandardPlayer
from pinochlekit.players.search.sampler import Sampler, knowledge
from pinochlekit.players.search.simulate import simulate_hand, start_from_view

THREE = Rules.preset("three")
TAKE = THREE.replace(widow="take")


def pile(game: Game) -> Hand:
    """The cards set aside now: the widow (face down, or kept out), nothing while a
    taken widow is in the declarer's hand, then the discards."""
    if game.declarer is None or game.rules.widow == "out":
        return FULL_DECK - sum(game.dealt, Hand())
    if game.phase in (Phase.TRUMP, Phase.DISCARD):
        return Hand()
    return Hand.from_cards(game.discards or ())


def play(game: Game, players: list[Player], hands: int) -> None:
    while game.winner is None and len(game.results) < hands:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        action = players[seat].choose(view)
        assert action in view.legal_actions, (action, view.phase)
        game.apply(action, seat)


@pytest.mark.parametrize("rules", [THREE, TAKE], ids=["widow-out", "widow-take"])
def test_every_level_plays_three_handed(rules: Rules) -> None:
    game = Game.new(rules, seed=21)
    players: list[Player] = [EasyPlayer(1), StandardPlayer(2, bid_sims=12),
                             ProPlayer(3, bid_sims=12, rollouts=4)]
    play(game, players, hands=3)
    assert len(game.results) >= 3 or game.winner is not None
    assert any(r.tricks for r in game.results)


def test_easy_players_finish_a_three_handed_game() -> None:
    game = Game.new(TAKE, seed=8)
    play(game, [EasyPlayer(s) for s in range(3)], hands=400)
    assert game.winner in (0, 1, 2)


@pytest.mark.parametrize("rules", [THREE, TAKE], ids=["widow-out", "widow-take"])
def test_the_true_deal_fits_what_each_seat_knows(rules: Rules) -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(12):
        game = Game.new(rules, seed=seed)
        while not game.results:
            truth = [*(game.hand(s) for s in range(3)), pile(game)]
            for seat in range(3):
                known = knowledge(game.view(seat))
                assert known.seats == 4 and known.hand_sizes[3] == len(truth[3])
                assert known.violation(truth) is None, (seat, game.phase)
                for deal in Sampler(known).samples(rng, 2):
                    assert known.is_consistent(deal)
                    assert deal[seat] == game.hand(seat)
                checked += 1
            actions = game.legal_actions()
            if game.phase is Phase.AUCTION:
                actions = actions[:2]
            game.apply(rng.choice(actions))
    assert checked > 300


def test_the_pile_is_known_as_the_rules_show_it() -> None:
    """Kept out, the widow is known to all; taken, the discards to the declarer only."""
    for rules in (THREE, TAKE):
        game = Game.new(rules, seed=2)
        players = [StandardPlayer(s, bid_sims=8) for s in range(3)]
        while game.phase is not Phase.PLAY:
            seat = game.to_act
            assert seat is not None
            game.apply(players[seat].choose(game.view(seat)))
        declarer = game.declarer
        assert declarer is not None
        for seat in range(3):
            known = knowledge(game.view(seat))
            if rules.widow == "out" or seat == declarer:
                assert known.known[3] == pile(game) and known.capacity(3) == 0
            else:
                assert known.known[3] == Hand() and known.capacity(3) == 3


@pytest.mark.parametrize("rules", [THREE, TAKE, THREE.replace(set_penalty="contract",
                                                              trick_points="classic")],
                         ids=["widow-out", "widow-take", "contract-classic"])
def test_simulating_the_true_deal_replays_the_real_hand(rules: Rules) -> None:
    """From the first lead, the simulator with the true deal plays every card the
    real standard players play and gives the round score the real game gives:
    own score minus the average of the two opponents' (docs/players.md)."""
    compared = 0
    for seed in range(16):
        game = Game.new(rules, seed=seed)
        players = [StandardPlayer(10 + s, bid_sims=8) for s in range(3)]
        while game.phase is not Phase.PLAY and not game.results:
            seat = game.to_act
            assert seat is not None
            game.apply(players[seat].choose(game.view(seat)))
        if game.results:
            continue  # not on the board: nothing to play
        declarer = game.declarer
        assert declarer is not None
        knower = (declarer + seed) % 3
        start = start_from_view(game.view(knower))
        truth = [*(game.hand(s) for s in range(3)), pile(game)]
        predicted = {team: simulate_hand(start, truth, team) for team in range(3)}
        while not game.results:
            seat = game.to_act
            assert seat is not None
            game.apply(players[seat].choose(game.view(seat)))
        scores = game.results[0].scores
        for team in range(3):
            assert predicted[team] == scores[team] - (sum(scores) - scores[team]) // 2
        compared += 1
    assert compared >= 8


def test_a_three_handed_match_seats_each_side_everywhere() -> None:
    """pinochle match, three-handed: each deal six times, A then B alone in every
    seat; a player against itself comes out exactly even."""
    from pinochlekit.match import run_match, seatings

    table = seatings(THREE)
    assert len(table) == 6 and len(set(table)) == 6
    for seat in range(3):
        assert sum(sides[seat] == "A" for sides in table) == 3
    result = run_match("simple", "simple", deals=3, seed=4, rules="three", workers=1)
    assert result.hands.mean == 0.0
    assert all(len(pair.hands) == 6 for pair in result.deals)
    assert sum(h.a_seats for p in result.deals for h in p.hands) == 9 * 3
    lines = result.report()
    assert lines[1].startswith("deal sets: 3 (each deal played six times")
