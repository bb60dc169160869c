"""Any game told as text: the one entry the command line uses, whatever the game.

:func:`tell` picks the narration of the game's kind (the four- and three-handed
:func:`~pinochlekit.text.narrate.narrate`, the two-handed
:func:`~pinochlekit.text.two.narrate_two`, the double deck's
:func:`~pinochlekit.text.double.narrate_double`); :func:`hand_count` says how many
hands there are to ask for.

>>> from pinochlekit.engine.games import new_any_game
>>> tell(new_any_game("doubledeck", seed=1))[0]
'game: rules doubledeck (double deck), seed 1, first dealer seat 0'
>>> hand_count(new_any_game("pagat", seed=1))
1
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from pinochlekit.engine.double.game import DoubleDeckGame
from pinochlekit.engine.game import Game
from pinochlekit.engine.games import AnyGame, for_game
from pinochlekit.engine.two.game import TwoHandedGame
from pinochlekit.text.double import narrate_double
from pinochlekit.text.narrate import narrate, stories
from pinochlekit.text.two import narrate_two

__all__ = ["hand_count", "tell"]


Narrator = Callable[[Any, Collection[int] | None], list[str]]
Counter = Callable[[Any], int]


def _hands_so_far(game: AnyGame) -> int:
    return len(game.results) + (game.winner is None)


def _deals_so_far(game: Game) -> int:
    return len(stories(game))  # a nines redeal is a deal of its own (docs/rules.md §2.1)


#: Each game's narration and count of hands, by the game's class
#: (:func:`~pinochlekit.engine.games.for_game`).
_TELLERS: dict[type, tuple[Narrator, Counter]] = {
    Game: (narrate, _deals_so_far),
    TwoHandedGame: (narrate_two, _hands_so_far),
    DoubleDeckGame: (narrate_double, _hands_so_far),
}


def tell(game: AnyGame, hands: Collection[int] | None = None) -> list[str]:
    """Tell ``game`` as text lines (only the hands numbered in ``hands``, if given)."""
    try:
        teller = for_game(_TELLERS, game)[0]
    except KeyError:
        raise TypeError(f"not a game of pinochlekit: {type(game).__name__}") from None
    return teller(game, hands)


def hand_count(game: AnyGame) -> int:
    """How many hands ``game`` has so far, the one in progress included."""
    return for_game(_TELLERS, game)[1](game)
