"""What a seat may know in the double-deck game (docs/rules.md §6).

A :class:`DoubleView` is a :class:`~pinochlekit.engine.views.View` whose hands are
:class:`~pinochlekit.engine.double.cards.DoubleHand` values (up to four copies of a
card); everything else reads as in the single-deck game.
"""

from __future__ import annotations

from dataclasses import dataclass

from pinochlekit.engine.double.cards import DoubleHand
from pinochlekit.engine.views import View

__all__ = ["DoubleView"]


@dataclass(frozen=True)
class DoubleView(View):
    """A view of a double-deck game: ``hand`` is a :class:`DoubleHand`."""

    @property
    def played(self) -> DoubleHand:
        """Every card played so far in this hand, tricks and current trick."""
        cards = [c for t in self.tricks for c in t.cards] + [c for _, c in self.trick]
        return DoubleHand.from_cards(cards)
