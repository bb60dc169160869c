"""Claims at the table, web or terminal: "the rest is ours"; the exact solver checks it.

The engine has no claim action (a hand ends by its last trick or by throwing
in: docs/rules.md §2), so an accepted claim is played out: every remaining
card is chosen by an exact solver (every hand known to the server), each side
for itself. The record holds ordinary plays, and a restart or a replay gives
the same hand.

A claim is *sure* when the claimer's side takes every remaining trick point
(the cards of the trick in progress and the last-trick bonus included)
whatever the other side does: the solver's value with best play by both
sides equals all the points left.

- **Four-handed**: a player of the declarer's side, not after shooting the
  moon, in the last :data:`CLAIM_TRICKS` tricks
  (:mod:`pinochlekit.players.search.solver`).
- **Three-handed** (docs/rules.md §3): the declarer alone, against the two
  defenders as one side (the same solver, with ``declarer``), in the last
  :data:`CLAIM_TRICKS` tricks.
- **Two-handed** (docs/rules.md §4): either player, once the stock is gone (the
  last twelve tricks: every card is known to both), by the two-handed endgame
  solver (:mod:`pinochlekit.players.two.solver`).
- **Double deck** (docs/rules.md §6): a player of the declarer's side in the last
  :data:`DOUBLE_CLAIM_TRICKS` tricks, by the double deck's exact solver
  (:mod:`pinochlekit.players.double.solver`, the one ``expert`` ends its hands with).

Each game's three answers (may this seat claim, is the claim sure, which card is
played out) are one entry of a table by the game's class
(:func:`~pinochlekit.engine.games.for_game`).

>>> from pinochlekit.engine.games import new_game
>>> game = new_game("pagat", seed=1, dealer=0)
>>> claimable(game, 1)
'a claim is for the card play'
>>> claimable(new_game("two", seed=1), 1)
'a claim is for the last twelve tricks, once the stock is gone'
>>> claimable(new_game("doubledeck", seed=1), 1)
'a claim is for the card play'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from pinochlekit.engine.actions import Action, Play
from pinochlekit.engine.cards import Hand
from pinochlekit.engine.double.game import DoubleDeckGame
from pinochlekit.engine.game import Game
from pinochlekit.engine.games import AnyGame, for_game
from pinochlekit.engine.tricks import card_points, play_flags
from pinochlekit.engine.two.game import TwoHandedGame
from pinochlekit.engine.two.views import TwoStage
from pinochlekit.engine.views import Phase
from pinochlekit.players.double.solver import solve_values
from pinochlekit.players.search.solver import Endgame, card_values, solve
from pinochlekit.players.two.solver import LateSolver

__all__ = ["CLAIM_TRICKS", "DOUBLE_CLAIM_TRICKS", "best_play", "claim_is_sure", "claimable",
           "in_play", "other_side"]

#: Tricks left (the one in progress included) at most when a claim may be made in
#: the four- and three-handed games (two-handed: the whole of the last twelve).
CLAIM_TRICKS = 6
#: Tricks left at most when a claim may be made in the double deck: its solver keeps
#: no table of positions, and four tricks of twenty cards take it a fraction of a
#: second.
DOUBLE_CLAIM_TRICKS = 4



def claimable(game: object, seat: int) -> str | None:
    """Why ``seat`` may not claim now, in words; None if it may (the check of the
    claim itself is :func:`claim_is_sure`)."""
    try:
        kind = for_game(_KINDS, game)
    except KeyError:
        return "a claim is for the games of pinochlekit"
    return kind.refusal(game, seat)


def _auction_refusal(game: Any, seat: int, tricks: int = CLAIM_TRICKS) -> str | None:
    """Four- and three-handed, and the double deck (with its own ``tricks``)."""
    if game.phase is not Phase.PLAY:
        return "a claim is for the card play"
    view = game.view(seat)
    if game.rules.players == 3:
        if view.declarer != seat:
            return "only the declarer claims (alone against the two defenders)"
    elif view.declarer is None or view.declarer % 2 != seat % 2 or view.moon:
        return "only the declarer's side claims, and not after shooting the moon"
    if view.to_act != seat:
        return "claim on your turn"
    if max(view.hand_sizes) > tricks:
        return f"a claim is for the last {tricks} tricks"
    return None


def _two_refusal(game: Any, seat: int) -> str | None:
    if game.phase is not Phase.PLAY or game.stage is not TwoStage.LATE:
        return "a claim is for the last twelve tricks, once the stock is gone"
    return "claim on your turn" if game.to_act != seat else None


def other_side(game: AnyGame, seat: int) -> list[int]:
    """The seats that answer ``seat``'s claim: four-handed (and the double deck) the
    other partnership, three-handed both defenders, two-handed the opponent."""
    return game.rules.opponents(seat)


def in_play(game: AnyGame, hand: int) -> bool:
    """Whether hand number ``hand`` is still in its card play (a claim played out
    goes on while it is)."""
    return game.phase is Phase.PLAY and game.hand_number == hand and game.to_act is not None


# -- four- and three-handed ------------------------------------------------------------


def _endgame(game: Game) -> tuple[Endgame, int]:
    """The position with every hand known, and the trick points still to take."""
    players = game.rules.players
    views = [game.view(s) for s in range(players)]
    hands = tuple(v.hand for v in views)
    assert all(h is not None for h in hands)
    view = views[0]
    assert view.trump is not None and view.to_act is not None
    trick = tuple((s, int(c)) for s, c in view.trick)
    declarer = -1
    if players == 3:
        assert view.declarer is not None
        declarer = view.declarer
    end = Endgame(int(view.trump), hands, view.to_act, trick,  # type: ignore[arg-type]
                  not view.tricks and not view.trick, declarer=declarer)
    points = card_points(game.rules)
    left = sum(points[int(c)] for v in views for c in (v.hand or ()))
    left += sum(points[c] for _, c in trick) + 10 // game.rules.unit  # the last trick's bonus
    return end, left


# -- two-handed --------------------------------------------------------------------------


def _late(game: TwoHandedGame) -> tuple[LateSolver, int, Hand, Hand, int]:
    """The two-handed last tricks: the solver, the seat to act, its hand, the other
    hand, and the trick points still to take (the trick in progress and the last
    trick's 10 included, docs/rules.md §4)."""
    assert game.to_act is not None
    seat = game.to_act
    points = card_points(game.rules)
    mine, theirs = game.hand(seat), game.hand(1 - seat)
    left = sum(points[int(c)] for c in (*mine, *theirs)) + sum(points[c] for c in game.trick)
    left += 10 // game.rules.unit
    return LateSolver(game.rules, int(game.trump)), seat, mine, theirs, left


def _two_values(game: TwoHandedGame) -> tuple[dict[int, int], int]:
    """For each card the seat to act may play: its points minus the opponent's from
    here to the end of the hand with best play; and the points left."""
    solver, _, mine, theirs, left = _late(game)
    if game.trick:  # the opponent led: the solver takes the lead out of its hand itself
        lead = game.trick[0]
        return solver.follow_values(lead, theirs + Hand.from_cards([lead]), mine), left
    return solver.lead_values(mine, theirs), left


# -- the double deck -----------------------------------------------------------------------


def _double_values(game: DoubleDeckGame) -> dict[int, tuple[int, int]]:
    """For each card the seat to act may play: the trick points (its side's, the
    other side's) from here to the end with best play by both (docs/rules.md §6)."""
    assert game.to_act is not None and game.trump is not None
    hands = [[game.hand(s).count(k) for k in range(24)] for s in range(4)]
    trick = [(s, int(c)) for s, c in game.public_view().trick]
    return solve_values(hands, trick, int(game.trump), game.to_act, play_flags(game.rules))


def _double_sure(game: Any, seat: int) -> bool:
    values = _double_values(game)
    return any(theirs == 0 for _, theirs in values.values())


def _double_best(game: Any) -> dict[int, int]:
    return {card: ours for card, (ours, _) in _double_values(game).items()}


# -- the checks --------------------------------------------------------------------------


def _auction_sure(game: Any, seat: int) -> bool:
    end, left = _endgame(game)
    return bool(solve(game.rules, end, game.rules.team_of(seat)) == left)


def _auction_best(game: Any) -> dict[int, int]:
    end, _ = _endgame(game)
    return dict(card_values(game.rules, end, game.rules.team_of(game.to_act)))


def _two_sure(game: Any, seat: int) -> bool:
    values, left = _two_values(game)
    # points of the claimer minus the opponent's: all of them, and none to the other
    return max(values.values()) == left


def _two_best(game: Any) -> dict[int, int]:
    return _two_values(game)[0]


class _Kind(NamedTuple):
    """A game's claims: why a seat may not claim, whether a claim is sure, and each
    playable card's value for the side to act (the best is played out)."""

    refusal: Callable[[Any, int], str | None]
    sure: Callable[[Any, int], bool]
    values: Callable[[Any], dict[int, int]]


_KINDS: dict[type, _Kind] = {
    Game: _Kind(_auction_refusal, _auction_sure, _auction_best),
    TwoHandedGame: _Kind(_two_refusal, _two_sure, _two_best),
    DoubleDeckGame: _Kind(lambda game, seat: _auction_refusal(game, seat, DOUBLE_CLAIM_TRICKS),
                          _double_sure, _double_best),
}


def claim_is_sure(game: AnyGame, seat: int) -> bool:
    """Whether ``seat``'s side takes every trick point left against any defence
    (``seat`` is to act: :func:`claimable`)."""
    return for_game(_KINDS, game).sure(game, seat)


def best_play(game: AnyGame) -> Action:
    """The card the seat to act plays in a claim played out: the solver's best for
    its side (the lowest card of equal value, so the play-out is always the same)."""
    assert game.to_act is not None
    values = for_game(_KINDS, game).values(game)
    card = max(sorted(values), key=lambda c: values[c])
    return next(a for a in game.legal_actions()
                if isinstance(a, Play) and int(a.card) == card)
