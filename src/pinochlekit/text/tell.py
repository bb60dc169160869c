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

from collections.abc import Collection

from pinochlekit.engine.double.game import DoubleDeckGame
from pinochlekit.engine.game import Game
from pinochlekit.engine.games import AnyGame
from pinochlekit.engine.two.game import TwoHandedGame
from pinochlekit.text.double import narrate_double
from pinochlekit.text.narrate import narrate, stories

__all__ = ["hand_count", "tell"]


def tell(game: AnyGame, hands: Collection[int] | None = None) -> list[str]:
    """Tell ``game`` as text lines (only the hands numbered in ``hands``, if given)."""
    if isinstance(game, DoubleDeckGame):
        return narrate_double(game, hands)
    if isinstance(game, Game | TwoHandedGame):
        return narrate(game, hands)
    raise TypeError(f"not a game of pinochlekit: {type(game).__name__}")


def hand_count(game: AnyGame) -> int:
    """How many hands ``game`` has so far, the one in progress included."""
    if isinstance(game, Game):
        return len(stories(game))
    return len(game.results) + (game.winner is None)
