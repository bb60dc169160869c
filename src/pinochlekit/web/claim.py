"""Claims at the web table: the declarer says "the rest is ours"; the exact solver checks it.

The engine has no claim action (a hand ends by its last trick or by throwing
in: docs/rules.md §2), so an accepted claim is played out: every remaining
card is chosen by the exact solver (:mod:`pinochlekit.players.search.solver`,
every hand known to the server), each side for itself. The record holds
ordinary plays, and a restart or a replay gives the same hand.

A claim is *sure* when the declarer's side takes every remaining trick point
(the cards of the trick in progress and the last-trick bonus included)
whatever the other side does: the solver's value with best play by both
sides equals all the points left. Only four-handed, in the last
:data:`CLAIM_TRICKS` tricks (the search is exact: a few milliseconds there).

>>> from pinochlekit.engine.games import new_game
>>> game = new_game("pagat", seed=1, dealer=0)
>>> claimable(game, 1)
'a claim is for the card play'
"""

from __future__ import annotations

from pinochlekit.engine.actions import Action, Play
from pinochlekit.engine.game import Game
from pinochlekit.engine.tricks import card_points
from pinochlekit.engine.views import Phase
from pinochlekit.players.search.solver import Endgame, card_values, solve

__all__ = ["CLAIM_TRICKS", "best_play", "claim_is_sure", "claimable"]

#: Tricks left (the one in progress included) at most when a claim may be made.
CLAIM_TRICKS = 6


def claimable(game: object, seat: int) -> str | None:
    """Why ``seat`` may not claim now, in words; None if it may (the check of the
    claim itself is :func:`claim_is_sure`)."""
    if not isinstance(game, Game) or game.rules.players != 4:
        return "a claim is for the four-handed game"
    if game.phase is not Phase.PLAY:
        return "a claim is for the card play"
    view = game.view(seat)
    if view.declarer is None or view.declarer % 2 != seat % 2 or view.moon:
        return "only the declarer's side claims, and not after shooting the moon"
    if view.to_act != seat:
        return "claim on your turn"
    if max(view.hand_sizes) > CLAIM_TRICKS:
        return f"a claim is for the last {CLAIM_TRICKS} tricks"
    return None


def _endgame(game: Game) -> tuple[Endgame, int]:
    """The position with every hand known, and the trick points still to take."""
    views = [game.view(s) for s in range(4)]
    hands = tuple(v.hand for v in views)
    assert all(h is not None for h in hands)
    view = views[0]
    assert view.trump is not None and view.to_act is not None
    trick = tuple((s, int(c)) for s, c in view.trick)
    end = Endgame(int(view.trump), hands, view.to_act, trick,  # type: ignore[arg-type]
                  not view.tricks and not view.trick)
    points = card_points(game.rules)
    left = sum(points[int(c)] for v in views for c in (v.hand or ()))
    left += sum(points[c] for _, c in trick) + 10 // game.rules.unit  # the last trick's bonus
    return end, left


def claim_is_sure(game: Game, seat: int) -> bool:
    """Whether ``seat``'s side takes every trick point left against any defence."""
    end, left = _endgame(game)
    return solve(game.rules, end, seat % 2) == left


def best_play(game: Game) -> Action:
    """The card the seat to act plays in a claim played out: the solver's best for
    its side (the lowest card of equal value, so the play-out is always the same)."""
    end, _ = _endgame(game)
    assert game.to_act is not None
    values = card_values(game.rules, end, game.to_act % 2)
    card = max(sorted(values), key=lambda c: values[c])
    return next(a for a in game.legal_actions()
                if isinstance(a, Play) and int(a.card) == card)
