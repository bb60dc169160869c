"""Claims at the web table (docs/web.md "Claim"): the solver's check, and the play-out,
four-, three- and two-handed."""

from __future__ import annotations

from pinochlekit.engine.game import Game
from pinochlekit.engine.two.game import TwoHandedGame
from pinochlekit.engine.two.views import TwoStage
from pinochlekit.engine.views import Phase
from pinochlekit.players import make_player
from pinochlekit.web.claim import CLAIM_TRICKS, best_play, claim_is_sure, claimable, other_side


def late_play(seed: int) -> Game | None:
    """A pagat game played by ``simple`` players to the declarer's side's turn in the
    last tricks (None if the first hand ends before: thrown in, passed out)."""
    players = [make_player("simple", f"{seed}/{s}") for s in range(4)]
    game = Game.new("pagat", seed=seed, dealer=0)
    while game.hand_number == 1 and game.phase is not Phase.GAME_OVER:
        view = game.view(game.to_act)
        if (game.phase is Phase.PLAY and max(view.hand_sizes) <= CLAIM_TRICKS
                and view.declarer is not None and game.to_act is not None
                and claimable(game, game.to_act) is None):
            return game
        assert game.to_act is not None
        game.apply(players[game.to_act].choose(game.view(game.to_act)))
    return None


def test_a_sure_claim_takes_every_point_left_and_an_unsure_one_does_not() -> None:
    sure = unsure = 0
    for seed in range(40):
        game = late_play(seed)
        if game is None:
            continue
        seat = game.to_act
        assert seat is not None
        team = seat % 2
        before = game.view(seat)
        left = sum(before.trick_points)
        verdict = claim_is_sure(game, seat)
        while game.phase is Phase.PLAY and game.hand_number == 1:
            game.apply(best_play(game))
        result = game.results[0]
        total = sum(result.trick_points)
        taken_by_others = result.trick_points[1 - team] - before.trick_points[1 - team]
        assert total > left
        if verdict:
            sure += 1
            assert taken_by_others == 0, seed
        else:
            unsure += 1
            assert taken_by_others > 0, seed  # best defence takes something
    assert sure and unsure, (sure, unsure)


def test_claims_are_refused_in_words_outside_the_last_tricks() -> None:
    game = Game.new("pagat", seed=3, dealer=0)
    assert claimable(game, 1) == "a claim is for the card play"


def late_play_three(seed: int) -> Game | None:
    """A three-handed game played by ``simple`` players to the declarer's turn in the
    last tricks (None if the first hand ends before)."""
    players = [make_player("simple", f"{seed}/{s}") for s in range(3)]
    game = Game.new("three", seed=seed, dealer=0)
    while game.hand_number == 1 and game.phase is not Phase.GAME_OVER:
        seat = game.to_act
        assert seat is not None
        if game.phase is Phase.PLAY and claimable(game, seat) is None:
            return game
        game.apply(players[seat].choose(game.view(seat)))
    return None


def test_three_handed_the_declarer_claims_alone_against_both_defenders() -> None:
    """docs/rules.md §3: the declarer plays alone; a sure claim leaves the two defenders
    no more points against their best play, an unsure one leaves them some."""
    sure = unsure = 0
    for seed in range(40):
        game = late_play_three(seed)
        if game is None:
            continue
        seat = game.to_act
        assert seat is not None and game.declarer == seat
        assert max(game.view(seat).hand_sizes) <= CLAIM_TRICKS
        defenders = [s for s in range(3) if s != seat]
        before = game.view(seat).trick_points
        verdict = claim_is_sure(game, seat)
        while game.phase is Phase.PLAY and game.hand_number == 1:
            game.apply(best_play(game))
        after = game.results[0].trick_points
        theirs = sum(after[s] - before[s] for s in defenders)
        if verdict:
            sure += 1
            assert theirs == 0, seed
        else:
            unsure += 1
            assert theirs > 0, seed
        if sure and unsure:
            break
    assert sure and unsure, (sure, unsure)


def test_three_handed_only_the_declarer_claims() -> None:
    game = late_play_three(0)
    assert game is not None and game.declarer is not None
    for seat in range(3):
        if seat != game.declarer:
            assert claimable(game, seat) == ("only the declarer claims (alone against the "
                                             "two defenders)")
    assert other_side(game, game.declarer) == [s for s in range(3) if s != game.declarer]


def late_play_two(seed: int) -> TwoHandedGame:
    """A two-handed game played by ``simple`` players until the stock is gone."""
    players = [make_player("simple", f"{seed}/{s}") for s in range(2)]
    game = TwoHandedGame.new("two", seed=seed)
    while game.stage is not TwoStage.LATE:
        seat = game.to_act
        assert seat is not None and claimable(game, seat) is not None
        game.apply(players[seat].choose(game.view(seat)))
    return game


def test_two_handed_a_claim_once_the_stock_is_gone() -> None:
    """docs/rules.md §4: with the stock gone every card is known; a sure claim (the
    two-handed solver's value is every point left) leaves the opponent nothing
    against its best play; an unsure one leaves it some. Either player may claim, on
    their turn, leading or following."""
    sure = unsure = following = 0
    for seed in range(30):
        game = late_play_two(seed)
        players = [make_player("simple", f"{seed}/x{s}") for s in range(2)]
        # on into the last tricks by a few cards, so that claims come leading and following
        for _ in range(seed % 5):
            if game.stage is not TwoStage.LATE:
                break
            assert game.to_act is not None
            game.apply(players[game.to_act].choose(game.view(game.to_act)))
        if game.stage is not TwoStage.LATE:
            continue
        seat = game.to_act
        assert seat is not None and claimable(game, seat) is None
        assert claimable(game, 1 - seat) == "claim on your turn"
        following += bool(game.trick)
        hand = game.hand_number
        before = list(game.trick_points)
        verdict = claim_is_sure(game, seat)
        while game.hand_number == hand and game.to_act is not None \
                and game.stage is TwoStage.LATE:
            game.apply(best_play(game))
        after = game.results[hand - 1].trick_points
        if verdict:
            sure += 1
            assert after[1 - seat] == before[1 - seat], seed
        else:
            unsure += 1
            assert after[1 - seat] > before[1 - seat], seed
    assert sure and unsure and following, (sure, unsure, following)
