"""The player interface: a seat's view in, an action out, a seeded generator inside.

A computer player never receives the game, only :class:`~pinochlekit.View`
(what its seat may know) whose ``legal_actions`` lists what it may do. It owns
a ``random.Random`` seeded at construction, so a game between computer players
is a pure function of the deal seed and the players' seeds.

A :class:`Level` plays some games by a per-game player (:class:`GamePlayer`: the
two-handed game of docs/rules.md §4 in ``players/two/``, the double deck of §6 in
``players/double/``), held in its :attr:`Level.games` by the game's
:class:`~pinochlekit.engine.variants.Variant`; :meth:`Level.for_game` is the one
place a level looks at which game a view belongs to. A level is made before it
sees a game (``make_player("standard")`` plays any game), so the hand-off is
made view by view.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar

from pinochlekit.engine.actions import Action, Bid
from pinochlekit.engine.errors import PinochleError
from pinochlekit.engine.variants import Variant, find_variant
from pinochlekit.engine.views import View

__all__ = ["GamePlayer", "Level", "Player", "PlayerSpecError", "lowest_bid"]


class PlayerSpecError(PinochleError, ValueError):
    """A player spec or option that cannot be used; the message names it."""


def lowest_bid(legal: Sequence[Action]) -> Bid | None:
    """The lowest legal bid, or ``None`` when no bid is legal: the high bid is the most
    there is (docs/rules.md §1.4), so only a pass is left."""
    bids = [a for a in legal if isinstance(a, Bid)]
    return min(bids, key=lambda b: b.amount) if bids else None


class Player(ABC):
    """Base class of every computer player.

    Subclasses set :attr:`name` and implement :meth:`choose`; they may
    override :meth:`explain` to say why they chose an action, and
    :meth:`close` to release resources (external programs).
    """

    #: The name used on the command line (``easy``, ``standard``, ``pro`` …).
    name: ClassVar[str] = ""

    def __init__(self, seed: int | str = 0) -> None:
        self.seed = seed
        self.rng = random.Random(str(seed))

    @abstractmethod
    def choose(self, view: View) -> Action:
        """One of ``view.legal_actions`` for the seat to act (``view.seat``)."""

    def explain(self, view: View) -> str | None:
        """Why the player would choose what it chooses in ``view``, if it can say."""
        return None

    def close(self) -> None:  # noqa: B027 (optional: most players hold nothing)
        """Release anything the player holds (processes, files); idempotent."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


class GamePlayer(ABC):
    """A level's play of one game (docs/rules.md §4 two-handed, §6 double deck): made by
    the level with the level's own generator (and memory it keeps across decisions),
    it answers for the level whenever the view is of its game (:class:`Level`)."""

    @abstractmethod
    def choose(self, view: View) -> Action:
        """One of ``view.legal_actions`` for the seat to act."""

    def explain(self, view: View) -> str | None:
        """Why it would choose what it chooses in ``view``, if it can say; leaves the
        level as it was (random state and memory)."""
        return None


class Level(Player):
    """A computer level that hands the views of some games to a per-game player.

    A subclass fills :attr:`games` in its constructor (the game's
    :class:`~pinochlekit.engine.variants.Variant` → its :class:`GamePlayer`) and
    implements :meth:`choose_own` (and :meth:`explain_own` if it explains) for the
    games it plays itself; :meth:`choose` and :meth:`explain` hand off through
    :meth:`for_game`, the one place the game of a view is looked at.
    """

    def __init__(self, seed: int | str = 0) -> None:
        super().__init__(seed)
        #: The per-game players, by the game whose views they take.
        self.games: dict[type[Variant], GamePlayer] = {}

    def for_game(self, view: View) -> GamePlayer | None:
        """The per-game player that takes ``view`` (the game its rules describe,
        :func:`~pinochlekit.engine.variants.find_variant`), or ``None`` when the level
        plays that game itself."""
        return self.games.get(find_variant(view.rules)) if self.games else None

    def choose(self, view: View) -> Action:
        """One of ``view.legal_actions`` for the seat to act."""
        other = self.for_game(view)
        return self.choose_own(view) if other is None else other.choose(view)

    def explain(self, view: View) -> str | None:
        """Why the level would choose what it chooses in ``view``; leaves it as it was."""
        other = self.for_game(view)
        return self.explain_own(view) if other is None else other.explain(view)

    @abstractmethod
    def choose_own(self, view: View) -> Action:
        """:meth:`choose` in a game the level plays itself (no :attr:`games` entry)."""

    def explain_own(self, view: View) -> str | None:
        """:meth:`explain` in a game the level plays itself (nothing by default)."""
        return None
