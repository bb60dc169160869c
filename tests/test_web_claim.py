"""Claims at the web table (docs/web.md "Claim"): the solver's check, and the play-out."""

from __future__ import annotations

from pinochlekit.engine.game import Game
from pinochlekit.engine.views import Phase
from pinochlekit.players import make_player
from pinochlekit.web.claim import CLAIM_TRICKS, best_play, claim_is_sure, claimable


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
