"""The player interface: a seat's view in, an action out, a seeded generator inside.

A computer player never receives the game, only :class:`~pinochlekit.View`
(what its seat may know) whose ``legal_actions`` lists what it may do. It owns
a ``random.Random`` seeded at construction, so a game between computer players
is a pure function of the deal seed and the players' seeds.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar

from pinochlekit.engine.actions import Action, Bid
from pinochlekit.engine.errors import PinochleError
from pinochlekit.engine.views import View

__all__ = ["Player", "PlayerSpecError", "lowest_bid"]


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
