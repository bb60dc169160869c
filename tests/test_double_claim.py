"""Claims in the double deck (docs/rules.md §6; docs/terminal.md "Claim", docs/web.md
"Claim"): a player of the declarer's side claims in the last four tricks, the double
deck's exact solver says whether the claim is sure, and a sure claim is played out."""

from __future__ import annotations

from typing import Any

from pinochlekit.engine.double.game import COUNTER_POINTS, LAST_TRICK, DoubleDeckGame
from pinochlekit.engine.games import new_game
from pinochlekit.engine.views import Phase
from pinochlekit.players import make_player
from pinochlekit.players.claim import DOUBLE_CLAIM_TRICKS, claim_is_sure, claimable
from pinochlekit.tui.session import Session

#: Every trick point of a double-deck hand: four copies of each counter, and the last trick.
ALL_POINTS = 4 * sum(COUNTER_POINTS) + LAST_TRICK


def _best(game: Any, team: int) -> int:
    """The trick points ``team`` ends the hand with under best play by both sides: a
    plain minimax over the engine's own legal plays, written apart from the solver."""
    if game.results:
        return int(game.results[-1].trick_points[team])
    seat = game.to_act
    values = []
    for action in game.legal_actions():
        game.apply(action)
        values.append(_best(game, team))
        game.undo()
    return max(values) if seat % 2 == team else min(values)


def _hand_until(seed: int, stop: Any) -> DoubleDeckGame:
    """The first hand of ``seed`` played by ``standard`` players until ``stop(game)``."""
    game = new_game("doubledeck", seed=seed)
    assert isinstance(game, DoubleDeckGame)
    players = [make_player("standard", seed=s) for s in range(4)]
    while not game.results and not stop(game):
        seat = game.to_act
        assert seat is not None
        game.apply(players[seat].choose(game.view(seat)), seat)
    return game


def _claim_point(game: DoubleDeckGame, tricks: int) -> bool:
    seat = game.to_act
    return seat is not None and game.phase is Phase.PLAY and len(game.hand(seat)) <= tricks \
        and claimable(game, seat) is None


def test_a_claim_is_sure_exactly_when_the_side_can_take_every_point_left() -> None:
    """At two tricks left, on twelve deals: the solver's answer is the brute force's."""
    seen = set()
    for seed in range(12):
        game = _hand_until(seed, lambda g: _claim_point(g, 2))
        if game.results:
            continue  # no claim point on the declarer's side in this hand
        seat = game.to_act
        assert seat is not None
        team = seat % 2
        everything = ALL_POINTS - game.trick_points[1 - team]
        sure = claim_is_sure(game, seat)
        assert sure == (_best(game.copy(), team) == everything), seed
        seen.add(sure)
    assert seen == {True, False}


def test_who_may_claim_and_when() -> None:
    """Only in the card play, only the declarer's side, on its turn, in the last four."""
    assert claimable(new_game("doubledeck", seed=1), 0) == "a claim is for the card play"
    game = _hand_until(2, lambda g: g.phase is Phase.PLAY and g.declarer is not None
                       and len(g.tricks) == 1 and not g.trick)
    assert game.declarer is not None and game.to_act is not None
    defender = (game.declarer + 1) % 4
    assert claimable(game, defender) == ("only the declarer's side claims, and not after "
                                         "shooting the moon")
    if game.to_act % 2 == game.declarer % 2:
        assert claimable(game, game.to_act) == f"a claim is for the last " \
                                               f"{DOUBLE_CLAIM_TRICKS} tricks"
    waiting = next(s for s in range(4) if s % 2 == game.declarer % 2 and s != game.to_act)
    assert claimable(game, waiting) == "claim on your turn"


def test_a_sure_claim_at_the_terminal_is_played_out_by_the_solver() -> None:
    """The person (seat 0) claims with four tricks or fewer left and a sure claim: the
    rest is played out as ordinary plays, and the side takes every point left."""
    for seed in range(40):
        game = _hand_until(seed, lambda g: g.to_act == 0 and _claim_point(g, DOUBLE_CLAIM_TRICKS)
                           and claim_is_sure(g, 0))
        if not game.results:
            break
    else:
        raise AssertionError("no sure claim for seat 0 in 40 deals")
    before = len(game.actions)
    others = game.trick_points[1]
    session = Session(game, ["you", "easy", "easy", "easy"])
    assert session.claim_refusal() is None
    lines = session.claim()
    assert lines[0].startswith("You claim the rest of the hand: it is sure")
    result = game.results[0]
    assert result.trick_points[0] == ALL_POINTS - others and result.trick_points[1] == others
    assert len(game.actions) > before and all(str(a).startswith("play ")
                                              for a in game.actions[before:before + 3])
    assert session.claim_refusal() is not None  # one claim per hand
