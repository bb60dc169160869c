"""Computer players: each receives only its seat's :class:`~pinochlekit.View`.

A player is any object with ``choose(view, rng) -> Action``; the action it
returns is one of ``view.legal_actions``. :data:`PLAYERS` names the built-in
ones for the command line.

>>> from pinochlekit import Game
>>> import random
>>> game = Game.new("pagat", seed=3)
>>> action = SimplePlayer().choose(game.view(game.to_act), random.Random(0))
>>> action in game.legal_actions()
True
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Protocol

from pinochlekit.actions import Action
from pinochlekit.players.simple import RandomPlayer, SimplePlayer
from pinochlekit.views import View

__all__ = ["PLAYERS", "Player", "RandomPlayer", "SimplePlayer"]


class Player(Protocol):
    """What every computer player provides."""

    def choose(self, view: View, rng: Random) -> Action:
        """One of ``view.legal_actions`` for the seat to act."""
        ...


#: Player name → factory, for the command line and benchmarks.
PLAYERS: dict[str, Callable[[], Player]] = {
    "simple": SimplePlayer,
    "random": RandomPlayer,
}
